#include "engine.hpp"

#include <string_view>

#include "search.hpp"
#include "two_player_variant.hpp"

namespace quixo {

namespace {

// The bench positions (run_bench in search.hpp). The node total is the search's signature: it
// changes only when the search does.
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
}  // namespace

Engine::Engine()
    : EngineBase(std::make_unique<SearchManager<TwoPlayerVariant>>(
          EngineOptions{}, SearchManager<TwoPlayerVariant>::TableAllocation::Now)) {}

Engine::~Engine() = default;

void Engine::set_position(const Position& position, std::vector<std::uint64_t> history_keys) {
  manager().set_position(position, history_keys);
}

void Engine::go(const SearchLimits& limits, SearchCallbacks callbacks) {
  manager().start(limits, std::move(callbacks), limits.search_moves);
}

std::uint64_t Engine::bench(const std::function<void(const std::string&)>& report) {
  wait();
  return run_bench<TwoPlayerVariant>(kBenchPositions, "Position", report);
}

}  // namespace quixo
