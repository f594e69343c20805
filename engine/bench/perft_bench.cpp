// Perft speed: leaves per second from the two start positions, single-threaded, with bulk
// counting (last ply counted, not made) and without (every leaf made and its result checked).
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "core/perft.hpp"

namespace {

template <class Count>
void measure(const char* label, int depth, Count count) {
  const auto start = std::chrono::steady_clock::now();
  const quixo::PerftCounts counts = count(depth);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-34s depth %d  leaves %14llu  %8.3f s  %10.1f M leaves/s\n", label, depth,
              static_cast<unsigned long long>(counts.leaves), seconds,
              counts.leaves / seconds / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  int depth2 = 6, depth4 = 5;
  po::options_description options("quixo-perft-bench options");
  options.add_options()("help,h", "show this help")("depth2", po::value(&depth2)->default_value(6),
                                                    "two-player depth")(
      "depth4", po::value(&depth4)->default_value(5), "four-player depth");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "quixo-perft-bench: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << options;
    return 0;
  }
  using quixo::Position;
  using quixo::Position4;
  measure("two-player start, bulk", depth2, [](int d) {
    return quixo::PerftCounts{quixo::perft(Position::start(), d), 0};
  });
  measure("two-player start, every leaf", depth2,
          [](int d) { return quixo::perft_every_leaf(Position::start(), d); });
  measure("four-player start, bulk", depth4, [](int d) {
    return quixo::PerftCounts{quixo::perft(Position4::start(), d), 0};
  });
  measure("four-player start, every leaf", depth4,
          [](int d) { return quixo::perft_every_leaf(Position4::start(), d); });
  return 0;
}
