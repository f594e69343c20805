#include "engine4.hpp"

#include "four_player_variant.hpp"
#include "search.hpp"

namespace quixo {

Engine4::Engine4() : EngineBase(TableAllocation::AtFirstSearch) {}

void Engine4::set_position(const Position4& position, std::vector<Position4Key> history) {
  manager().set_position(position, std::move(history));
}

void Engine4::set_evaluator(TeamEvaluator evaluator) {
  manager().set_evaluator(std::move(evaluator));
}

const TeamEvaluator& Engine4::evaluator() {
  return manager().evaluator();
}

void Engine4::go(const SearchLimits& limits, SearchCallbacks4 callbacks,
                 std::vector<Move4> search_moves) {
  manager().start(limits, std::move(callbacks), std::move(search_moves));
}

std::uint64_t Engine4::bench(const std::function<void(const std::string&)>& report) {
  wait();
  return run_bench<FourPlayerVariant>(report);
}

}  // namespace quixo
