#include "team_search.hpp"

#include "search.hpp"
#include "team_variant.hpp"

namespace quixo {

TeamEngine::TeamEngine() : EngineBase(TableAllocation::AtFirstSearch) {}

void TeamEngine::set_position(const Position4& position, std::vector<Position4Key> history) {
  manager().set_position(position, std::move(history));
}

void TeamEngine::go(const SearchLimits& limits, TeamSearchCallbacks callbacks,
                    std::vector<Move4> search_moves) {
  manager().start(limits, std::move(callbacks), std::move(search_moves));
}

std::uint64_t TeamEngine::bench(const std::function<void(const std::string&)>& report) {
  wait();
  return run_bench<TeamVariant>(report);
}

}  // namespace quixo
