// The two-player search suites' shorthand (search_tests, tablebase_search_tests): limits and
// options in one call, and a search run from a position to its bestmove through the Engine
// facade and the observer of search_observer.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "search/engine.hpp"
#include "support/search_observer.hpp"

namespace quixo::test {

inline EngineOptions options(int threads = 1, int multipv = 1, int hash_mb = 4) {
  EngineOptions result;
  result.threads = threads;
  result.multipv = multipv;
  result.hash_mb = hash_mb;
  return result;
}

inline SearchLimits depth_limit(int depth) {
  SearchLimits limits;
  limits.depth = depth;
  return limits;
}

inline SearchLimits node_limit(std::uint64_t nodes) {
  SearchLimits limits;
  limits.nodes = nodes;
  return limits;
}

inline SearchLimits move_time(std::int64_t ms) {
  SearchLimits limits;
  limits.move_time_ms = ms;
  return limits;
}

// Starts `limits` on the engine's current position; the observer collects what it reports.
inline std::shared_ptr<SearchObserver<Move>> start(Engine& engine, const SearchLimits& limits) {
  return start_search<Move>(
      [&](SearchCallbacks callbacks) { engine.go(limits, std::move(callbacks)); });
}

// Searches `position` (after `history`, the keys of the positions before it) to its bestmove.
inline SearchRun<Move> search(Engine& engine, const Position& position, const SearchLimits& limits,
                              std::vector<std::uint64_t> history = {}) {
  engine.set_position(position, std::move(history));
  const auto observer = start(engine, limits);
  return finish_search(engine, *observer);
}

}  // namespace quixo::test
