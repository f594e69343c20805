// The command line of quixo-openings, the opening book generator (Boost.Program_options). The
// streams are parameters so tests can run it in-process as well as through the real binary.
#pragma once

#include <iosfwd>

namespace quixo::opening_generator {

// Runs one invocation of quixo-openings: writes the book (through a temporary file, so a failed
// run leaves no half book) and returns 0, or prints one line "quixo-openings: <what is wrong>"
// to `err` and returns 2.
int run_openings_command_line(int argc, const char* const* argv, std::ostream& out,
                              std::ostream& err);

}  // namespace quixo::opening_generator
