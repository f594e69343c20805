// The command line and config file of quixo-gui (Boost.Program_options): the engines the page may
// use (described exactly as for quixo-arena), the address and the endgame tables.
#pragma once

#include <iosfwd>

namespace quixo::gui {

// Runs quixo-gui until it is interrupted. Exit codes: 0 (stopped), 2 (bad command line, config,
// engine or tables, or the address cannot be used).
int run_gui_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace quixo::gui
