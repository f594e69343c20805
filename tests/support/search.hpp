// The two-player search suites' shorthand (search_tests, search_contract_tests,
// tablebase_search_tests): a search run from a position to its bestmove through the Engine facade
// and the observer of search_observer.hpp, and the check of any answer (its legality and the
// tactics that any search sees).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/move_scan.hpp"
#include "search/engine.hpp"
#include "support/search_limits.hpp"
#include "support/search_observer.hpp"

namespace quixo::test {

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

inline bool contains(SlideSet set, Move move) {
  return !move.is_none() && ((set >> move.slide()) & 1) != 0;
}

// The answer to any search of an unfinished game (check_legal_answer); unless searchmoves
// `restricted` the choice, a win in one when there is one, and no move that loses at once while
// another does not.
inline void check_answer(const Position& position, const SearchRun<Move>& run,
                         bool restricted = false) {
  BOOST_TEST_CONTEXT(to_string(position)
                     << " bestmove " << (run.best.is_none() ? "none" : to_string(run.best))) {
    check_legal_answer(position, run);
    if (restricted) return;
    const MoveScan scan = scan_moves(position);
    if (scan.wins != 0) BOOST_TEST(contains(scan.wins, run.best));
    if ((scan.legal & ~scan.losses) != 0) BOOST_TEST(!contains(scan.losses, run.best));
  }
}

}  // namespace quixo::test
