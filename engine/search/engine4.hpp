// The search of the four-player team game, behind a protocol-free facade shaped like Engine:
// set options and a position, start a search with limits, receive `info` and `bestmove`
// through callbacks, stop it. It is the search of search.hpp with the game of
// four_player_variant.hpp.
//
// The game is searched as a two-sided one: team A (seats 0 and 2, X) against team B (seats 1
// and 3, O). Seats move 0, 1, 2, 3, so the team to move changes every ply and plain negamax
// applies, the score always being the team to move's. A seat with nothing to take passes; the
// pass is a move like any other. This models partners that confer (one program plays both seats
// of a team); a seat playing alone gets the same search, assuming its partner plays as it would.
//
// Clocks: the moving seat plays on its own clock, SearchLimits::seat_time_ms[seat] (and
// seat_increment_ms[seat]) when given, else on its team's, time_ms[team] (team_of(seat)). A
// seat's clock runs only on its own moves, so moves_to_go and the time plan are per seat as in
// the two-player game.
//
// Options: EngineOptions::threads runs the team search on that many threads (lazy SMP, as the
// two-player search: the threads search the same root and share the table). hash_mb sizes this
// search's own transposition table (allocated on the first search, so a two-player-only session
// does not pay for it). Of the features, aspiration_windows, killers_and_history and
// late_move_reductions apply; multipv, threat_extension, parry_threats and symmetric_table are
// two-player options only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/position4.hpp"
#include "engine_base.hpp"
#include "engine_options.hpp"
#include "limits.hpp"
#include "search_types.hpp"
#include "team_pattern_evaluation.hpp"

namespace quixo {

struct FourPlayerVariant;

class Engine4 : public EngineBase<FourPlayerVariant> {
 public:
  Engine4();

  // The position to search and the positions of the game before it, oldest first: the search
  // scores a repetition of any of them (same cubes, points and seat to move) as a draw.
  void set_position(const Position4& position, std::vector<Position4Key> history);

  // The evaluation the next searches use (default: TeamEvaluator::standard()); waits for a
  // running search first.
  void set_evaluator(TeamEvaluator evaluator);
  const TeamEvaluator& evaluator();

  // Starts a search in the background and returns at once. Exactly one on_bestmove follows.
  // `search_moves` restricts the root to those of its moves that are legal (all moves when none
  // is). limits.search_moves (two-player moves) is ignored.
  void go(const SearchLimits& limits, SearchCallbacks4 callbacks,
          std::vector<Move4> search_moves = {});

  // Runs the fixed four-player bench (fixed positions, fixed depth, a fresh table): returns
  // the total node count, reporting each position to `report`.
  std::uint64_t bench(const std::function<void(const std::string&)>& report);
};

}  // namespace quixo
