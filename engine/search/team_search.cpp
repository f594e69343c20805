#include "team_search.hpp"

#include <string_view>

#include "search.hpp"
#include "team_variant.hpp"

namespace quixo {

namespace {

// The bench positions (run_bench in search.hpp): the start, then positions of seeded random
// games. The node total is the team search's signature.
constexpr std::string_view kBenchPositions[] = {
    "5/5/5/5/5 1",
    "O2XO/4O/5/o3x/X2XO 3",
    "oX2X/4o/x4/x4/O1Oox 4",
    "1Ox1O/xO2o/OX3/XO2X/oX1xo 1",
    "OoXOo/xxX1o/O2Xo/XX2x/oOXox 2",
    "oXOOo/XxOXo/O3x/X1XxX/OooOx 3",
    "xXoOo/O1O1X/o1X1O/XX1Xo/oxXOX 2",
    "xxOxo/ooX1O/o2xo/xoX1O/xooxX 1",
};
}  // namespace

TeamEngine::TeamEngine()
    : EngineBase(std::make_unique<SearchManager<TeamVariant>>(
          EngineOptions{}, SearchManager<TeamVariant>::TableAllocation::AtFirstSearch)) {}

TeamEngine::~TeamEngine() = default;

void TeamEngine::set_position(const Position4& position, std::vector<Position4> history) {
  std::vector<Position4Key> history_keys;
  history_keys.reserve(history.size());
  for (const Position4& earlier : history) history_keys.push_back(earlier.key());
  manager().set_position(position, history_keys);
}

void TeamEngine::go(const SearchLimits& limits, TeamSearchCallbacks callbacks,
                    std::vector<Move4> search_moves) {
  manager().start(limits, std::move(callbacks), std::move(search_moves));
}

std::uint64_t TeamEngine::bench(const std::function<void(const std::string&)>& report) {
  wait();
  return run_bench<TeamVariant>(kBenchPositions, "Four-player position", report);
}

}  // namespace quixo
