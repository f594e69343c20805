#include "engine.hpp"

#include "search.hpp"
#include "two_player_variant.hpp"

namespace quixo {

Engine::Engine() : EngineBase(TableAllocation::Now) {}

void Engine::set_position(const Position& position, std::vector<std::uint64_t> history_keys) {
  manager().set_position(position, history_keys);
}

void Engine::set_tablebase(std::shared_ptr<const tb::Tablebase> tables) {
  manager().set_tables(std::move(tables));
}

void Engine::set_evaluator(Evaluator evaluator) {
  manager().set_evaluator(std::move(evaluator));
}

const Evaluator& Engine::evaluator() {
  return manager().evaluator();
}

void Engine::go(const SearchLimits& limits, SearchCallbacks callbacks) {
  manager().start(limits, std::move(callbacks), limits.search_moves);
}

std::uint64_t Engine::bench(const std::function<void(const std::string&)>& report) {
  wait();
  return run_bench<TwoPlayerVariant>(report);
}

}  // namespace quixo
