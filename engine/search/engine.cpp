#include "engine.hpp"

#include <string_view>

#include "core/notation.hpp"
#include "search.hpp"

namespace quixo {

namespace {

// The bench: fixed positions, fixed depth, one thread, a fixed table size. Its node total is
// the search's signature: it changes only when the search does.
constexpr std::string_view kBenchPositions[] = {
    "5/5/5/5/5 x",
    "ox2o/5/x4/5/x3o x",
    "oo1xo/x4/x4/4x/x1o1o o",
    "oo2x/x3x/o1x1x/o1o2/xoo2 x",
    "ox1ox/o2xx/x2o1/3xo/xo2o o",
    "xxoo1/o3x/4o/o1xxo/o1xxo x",
    "oxxox/2x1x/2oxo/o1xoo/xxoox x",
    "3xo/4x/5/o4/o1x2 o",
    "oxxoo/3ox/2xxo/4x/3ox x",
    "ooo1x/o2xx/4o/x3x/x1oxo o",
};
constexpr int kBenchDepth = 7;
constexpr int kBenchHashMb = 16;

}  // namespace

Engine::Engine() : manager_(std::make_unique<SearchManager>(options_)) {}

Engine::~Engine() = default;

void Engine::set_options(const EngineOptions& options) {
  manager_->set_options(options);
  options_ = options;
}

void Engine::new_game() {
  manager_->new_game();
}

void Engine::set_position(const Position& position, std::vector<std::uint64_t> history_keys) {
  manager_->wait();
  position_ = position;
  history_keys_ = std::move(history_keys);
}

void Engine::go(const SearchLimits& limits, SearchCallbacks callbacks) {
  manager_->start(position_, history_keys_, limits, std::move(callbacks));
}

void Engine::stop() {
  manager_->stop();
}

void Engine::ponderhit() {
  manager_->ponderhit();
}

void Engine::wait() {
  manager_->wait();
}

bool Engine::searching() const {
  return manager_->searching();
}

std::uint64_t Engine::bench(const std::function<void(const std::string&)>& report) {
  manager_->wait();
  EngineOptions bench_options;
  bench_options.hash_mb = kBenchHashMb;
  bench_options.threads = 1;
  bench_options.multipv = 1;
  // A separate manager leaves this engine's table and options as they were.
  SearchManager bench_manager(bench_options);
  std::uint64_t total_nodes = 0;
  int index = 0;
  for (const std::string_view text : kBenchPositions) {
    const Position position = parse_position(text);
    SearchLimits limits;
    limits.depth = kBenchDepth;
    std::uint64_t nodes = 0;
    std::string best;
    SearchCallbacks callbacks;
    callbacks.on_info = [&](const SearchInfo& info) { nodes = info.nodes; };
    callbacks.on_bestmove = [&](Move move, Move) { best = to_string(move); };
    bench_manager.start(position, {}, limits, callbacks);
    bench_manager.wait();
    total_nodes += nodes;
    if (report)
      report("Position " + std::to_string(++index) + "/" +
             std::to_string(std::size(kBenchPositions)) + " (" + std::string(text) +
             "): bestmove " + best + ", nodes " + std::to_string(nodes));
  }
  return total_nodes;
}

}  // namespace quixo
