// The command line of quixo-engine (Boost.Program_options). The streams are parameters so tests
// can run it in-process as well as through the real binary.
#pragma once

#include <iosfwd>
#include <string>

namespace quixo {

// Runs one invocation of quixo-engine and returns its exit code: 0 on success, 1 for a bad
// position or depth, 2 for a bad command line (or a bad --option). Without a command it runs the
// UQI loop on `in` and `out` until `quit` or the end of `in`.
int run_engine_command_line(int argc, const char* const* argv, std::istream& in, std::ostream& out,
                            std::ostream& err);
// The same with std::cin as the UQI input.
int run_engine_command_line(int argc, const char* const* argv, std::ostream& out,
                            std::ostream& err);

// `perft <position|startpos|startpos4> <depth>`: prints one "move: count" line per legal move,
// a blank line and "Nodes searched: N". Throws NotationError for a bad position and
// std::invalid_argument for a bad depth.
void print_perft_divide(const std::string& position_text, const std::string& depth_text,
                        std::ostream& out);

}  // namespace quixo
