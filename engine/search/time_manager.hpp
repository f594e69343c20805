// How long to think about one move: a soft limit (do not start another iteration after it) and a
// hard limit (stop the search at once), from the clocks, increments, moves to go, fixed move
// time and the move overhead the GUI or arena needs to pass the move on.
#pragma once

#include <cstdint>

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

}  // namespace quixo
