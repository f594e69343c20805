// How long to think about one move: a soft limit (do not start another iteration after it) and a
// hard limit (stop the search at once), from the clocks, increments, moves to go, fixed move
// time and the move overhead the GUI or arena needs to pass the move on.
#pragma once

#include <cstdint>
#include <optional>

#include "core/position4.hpp"
#include "core/types.hpp"
#include "limits.hpp"
#include "search_params.hpp"

namespace quixo {

struct TimeBudget {
  std::int64_t soft_ms = -1;  // negative: no limit
  std::int64_t hard_ms = -1;
  // A fixed move time is used in full (as UCI's movetime), not ended early at the soft limit.
  bool use_all = false;
  bool limited() const { return hard_ms >= 0; }
};

// `go movetime T` asks for T ms: of it, the search keeps back for passing the move on at most
// this share of T (rounded down), and never more than the move overhead, so that a fixed time
// per move is searched for about that time (`go movetime 5` searches 5 ms, `go movetime 1000`
// 970 ms with the default 30 ms overhead). The full overhead is kept back only on a clock, where
// it guards against losing on time. docs/protocol.md, "go".
inline constexpr int kMoveTimeReservePercent = 5;

// The milliseconds kept back from `go movetime move_time_ms`: min(overhead, 5 % of the time).
[[nodiscard]] std::int64_t movetime_reserve_ms(std::int64_t move_time_ms, int move_overhead_ms);

// The plan of a two-player move, on the clock of `side_to_move`. `params` holds the shares and
// the moves to go a clock is spread by (search_params.hpp).
[[nodiscard]] TimeBudget plan_time(const SearchLimits& limits, Color side_to_move,
                                   int move_overhead_ms, const SearchParams& params = {});
// The plan of a four-player move, on the clock of `seat` (its team's when it has none).
[[nodiscard]] TimeBudget plan_seat_time(const SearchLimits& limits, Seat seat, int move_overhead_ms,
                                        const SearchParams& params = {});

// How settled a search is, iteration by iteration, for TimeStability (engine_options.hpp): the
// soft limit grows while the best move changes or its score falls, and shrinks once the best move
// has stayed the same for a few iterations; the hard limit caps every search as before. These are
// the signals engines' time managers have long used (a chess engine's best-move instability,
// falling evaluation and time reduction); their weights are SearchParams, so a tune can move
// them. Only the main thread's iterations count.
class SearchStability {
 public:
  // The best move unchanged for this many iterations: the search has settled.
  static constexpr int kSettledIterations = 4;
  // The scale is kept within 1 to 3000 per mille, so that a soft limit of at most kMaxPlannedMs
  // (time_manager.cpp), scaled and then multiplied by a share of at most 1000 per mille, stays
  // far below 2^63.
  static constexpr int kMaxScalePermille = 3000;

  explicit SearchStability(const SearchParams& params);
  // An iteration ended: whether its best move differs from the last iteration's, and its score
  // (none for a proven win or loss, whose change says nothing of the time the move needs).
  void iteration_done(bool best_move_changed, std::optional<int> score);
  // The soft limit's scale now, per mille (1000: as planned).
  [[nodiscard]] int soft_scale_permille() const;
  // `soft_ms` scaled (a negative one, no limit, stays as it is).
  [[nodiscard]] std::int64_t scaled(std::int64_t soft_ms) const;

 private:
  int move_change_permille_;
  int score_drop_permille_;
  int settled_permille_;
  int changes_permille_ = 0;  // the recent changes, each halved at every iteration since
  int settled_iterations_ = 0;
  int score_drop_ = 0;  // centipawns the best score fell in the last iteration
  std::optional<int> last_score_;
};

}  // namespace quixo
