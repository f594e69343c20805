// The command line of quixo-tb, the endgame table tool: generate, verify, stats and probe
// (Boost.Program_options). The streams are parameters so tests can run it in-process.
#pragma once

#include <iosfwd>

namespace quixo::tb {

// Runs one invocation of quixo-tb. Returns 0 on success; 1 when a check fails or a position is
// malformed or outside the tables; 2 for a bad command line or unusable files. Every error is one
// line "quixo-tb: <what is wrong>" on `err`. `in` holds the positions of `probe --batch`.
int run_tb_command_line(int argc, const char* const* argv, std::istream& in, std::ostream& out,
                        std::ostream& err);

}  // namespace quixo::tb
