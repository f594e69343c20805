// What a `go` command asks for, without any protocol text: one struct that mirrors it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/position.hpp"
#include "core/position4.hpp"

namespace quixo {

struct SearchLimits {
  // Clocks by colour (index int(Color)), in milliseconds; a negative time means "not given".
  std::array<std::int64_t, 2> time_ms = {-1, -1};
  std::array<std::int64_t, 2> increment_ms = {0, 0};
  // Four-player clocks by seat (a seat's clock runs only on its own moves); a negative time
  // means "not given", and a seat without its own clock plays on its team's clock above.
  std::array<std::int64_t, kSeatCount> seat_time_ms = {-1, -1, -1, -1};
  std::array<std::int64_t, kSeatCount> seat_increment_ms = {0, 0, 0, 0};
  int moves_to_go = 0;             // 0: sudden death
  int depth = 0;                   // 0: no depth limit
  std::uint64_t nodes = 0;         // 0: no node limit
  int mate = 0;                    // find a win in this many moves of the side to move; 0: off
  std::int64_t move_time_ms = 0;   // exact time for this move; 0: off
  bool infinite = false;           // search until stop
  bool ponder = false;             // search until ponderhit or stop
  std::vector<Move> search_moves;  // restrict the root to these; empty: all moves

  [[nodiscard]] bool uses_clock() const {
    return std::any_of(time_ms.begin(), time_ms.end(), [](std::int64_t ms) { return ms >= 0; }) ||
           std::any_of(seat_time_ms.begin(), seat_time_ms.end(),
                       [](std::int64_t ms) { return ms >= 0; });
  }

  // The deepest iteration these limits allow, at most `ceiling`: `depth` when given, and under
  // `mate N` the 2N - 1 plies that hold a win at the Nth move (a search of depth d sees wins
  // up to ply d + 1; the extra ply is a margin for reductions). A `go mate N` that finds no
  // mate then still ends, with its best move.
  [[nodiscard]] int max_depth(int ceiling) const {
    int limit = ceiling;
    if (depth > 0) limit = std::min(limit, depth);
    if (mate > 0) limit = std::min<std::int64_t>(limit, 2 * std::int64_t(mate) - 1);
    return limit;
  }
};

}  // namespace quixo
