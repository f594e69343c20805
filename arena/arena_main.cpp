// quixo-arena: tournaments between Quixo engines. All logic lives in the quixo_arena library.
#include <csignal>
#include <iostream>

#include "arena_command_line.hpp"

namespace {
// The first Ctrl-C (or SIGTERM) ends the tournament between moves, with every finished game
// saved; the second one kills at once.
std::atomic<bool> interrupted{false};
extern "C" void on_signal(int signal_number) {
  if (interrupted.exchange(true)) {
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
  }
}
}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  return quixo::arena::run_arena_command_line(argc, argv, std::cout, std::cerr, interrupted);
}
