#include "engine.hpp"

#include <string_view>

#include "search.hpp"
#include "two_player_variant.hpp"

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

using TwoPlayerManager = SearchManager<TwoPlayerVariant>;

}  // namespace

Engine::Engine()
    : manager_(std::make_unique<TwoPlayerManager>(EngineOptions{},
                                                  TwoPlayerManager::TableAllocation::Now)) {}

Engine::~Engine() = default;

void Engine::set_options(const EngineOptions& options) {
  manager_->set_options(options);
}

const EngineOptions& Engine::options() const {
  return manager_->options();
}

void Engine::new_game() {
  manager_->new_game();
}

void Engine::set_position(const Position& position, std::vector<std::uint64_t> history_keys) {
  manager_->set_position(position, history_keys);
}

void Engine::go(const SearchLimits& limits, SearchCallbacks callbacks) {
  manager_->start(limits, std::move(callbacks), limits.search_moves);
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
  return run_bench<TwoPlayerVariant>(kBenchPositions, kBenchDepth, kBenchHashMb, "Position",
                                     report);
}

}  // namespace quixo
