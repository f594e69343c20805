// The four-player search suites' shorthand (search4_tests, search_contract_tests): a search run
// from a position to its bestmove through the Engine4 facade and the observer of
// search_observer.hpp, the brute force over the rules core that knows nothing of the search (wins
// and losses in one), and the check of any answer.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "core/position4.hpp"
#include "search/engine4.hpp"
#include "support/search_limits.hpp"
#include "support/search_observer.hpp"

namespace quixo::test {

// Starts `limits` on the engine's current position, the root restricted to `search_moves` (all
// moves when empty); the observer collects what it reports.
inline std::shared_ptr<SearchObserver<Move4>> start(Engine4& engine, const SearchLimits& limits,
                                                    std::vector<Move4> search_moves = {}) {
  return start_search<Move4>([&](SearchCallbacks4 callbacks) {
    engine.go(limits, std::move(callbacks), std::move(search_moves));
  });
}

// Searches `position` (after the positions of `history`) to its bestmove.
inline SearchRun<Move4> search(Engine4& engine, const Position4& position,
                               const SearchLimits& limits,
                               const std::vector<Position4>& history = {},
                               std::vector<Move4> search_moves = {}) {
  std::vector<Position4Key> history_keys;
  for (const Position4& earlier : history) history_keys.push_back(earlier.key());
  engine.set_position(position, std::move(history_keys));
  const auto observer = start(engine, limits, std::move(search_moves));
  return finish_search(engine, *observer);
}

// The same cubes with another seat to move.
inline Position4 with_seat(const Position4& position, Seat seat) {
  const Bitboard by_point[kSeatCount] = {
      position.cubes_pointing_to(0), position.cubes_pointing_to(1), position.cubes_pointing_to(2),
      position.cubes_pointing_to(3)};
  return Position4(by_point, seat);
}

// --- Brute force over the rules core, independent of the search. ---

inline bool is_win(const Position4& position, Move4 move) {
  const Position4 child = position.after(move);
  return child.is_game_over() && child.outcome() == win_for(position.team_to_move());
}
inline bool is_loss(const Position4& position, Move4 move) {
  const Position4 child = position.after(move);
  return child.is_game_over() && child.outcome() != win_for(position.team_to_move());
}
inline std::vector<Move4> moves_where(const Position4& position,
                                      bool (*test)(const Position4&, Move4)) {
  std::vector<Move4> result;
  for (const Move4 move : position.legal_moves())
    if (test(position, move)) result.push_back(move);
  return result;
}
inline std::vector<Move4> winning_moves(const Position4& position) {
  return moves_where(position, is_win);
}
inline std::vector<Move4> safe_moves(const Position4& position) {
  return moves_where(position, [](const Position4& p, Move4 m) { return !is_loss(p, m); });
}

// The answer to any search of an unfinished game (check_legal_answer) and one line only (the
// team search has no MultiPV); unless searchmoves `restricted` the choice, a win in one when there
// is one, and no move that makes the other team's line while another move does not.
inline void check_answer(const Position4& position, const SearchRun<Move4>& run,
                         bool restricted = false) {
  BOOST_TEST_CONTEXT(to_string(position) << " bestmove " << to_string(run.best)) {
    check_legal_answer(position, run);
    for (const SearchInfo4& info : run.infos) BOOST_TEST(info.multipv == 1);
    if (restricted) return;
    if (!winning_moves(position).empty()) BOOST_TEST(is_win(position, run.best));
    if (!safe_moves(position).empty()) BOOST_TEST(!is_loss(position, run.best));
  }
}

}  // namespace quixo::test
