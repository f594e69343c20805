// The limits of a `go` and the engine options in one call, for the suites of either game's search
// and for the protocol's: the builders are templates over the limits type, so that they build
// uqi::GoLimits too (its fields have the same names).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "core/position.hpp"
#include "core/position4.hpp"
#include "search/engine_options.hpp"
#include "search/limits.hpp"

namespace quixo::test {

template <class Limits = SearchLimits>
Limits depth_limit(int depth) {
  Limits limits;
  limits.depth = depth;
  return limits;
}

template <class Limits = SearchLimits>
Limits node_limit(std::uint64_t nodes) {
  Limits limits;
  limits.nodes = nodes;
  return limits;
}

template <class Limits = SearchLimits>
Limits move_time(std::int64_t ms) {
  Limits limits;
  limits.move_time_ms = ms;
  return limits;
}

template <class Limits = SearchLimits>
Limits infinite() {
  Limits limits;
  limits.infinite = true;
  return limits;
}

// The same limits, pondering: they start to count at the ponderhit.
template <class Limits>
Limits pondering(Limits limits) {
  limits.ponder = true;
  return limits;
}

inline SearchLimits mate_limit(int moves) {
  SearchLimits limits;
  limits.mate = moves;
  return limits;
}

// Both clocks of the two-player game, by colour.
inline SearchLimits clocks(std::int64_t x_ms, std::int64_t o_ms) {
  SearchLimits limits;
  limits.time_ms = {x_ms, o_ms};
  return limits;
}

// The clock of the side (or team) to move and the other one's (none when negative): the clocks
// are read at the colour of the mover, in either game.
inline SearchLimits mover_clocks(Color mover, std::int64_t mine, std::int64_t theirs) {
  SearchLimits limits;
  limits.time_ms[int(mover)] = mine;
  limits.time_ms[int(~mover)] = theirs;
  return limits;
}
inline SearchLimits mover_clocks(const Position& position, std::int64_t mine,
                                 std::int64_t theirs = -1) {
  return mover_clocks(position.side_to_move(), mine, theirs);
}
inline SearchLimits mover_clocks(const Position4& position, std::int64_t mine,
                                 std::int64_t theirs = -1) {
  return mover_clocks(position.team_to_move(), mine, theirs);
}

// Limits of every kind, by number (0 to kLimitKinds - 1), for the tests that check an answer
// "whatever the limit": depth 1, depth 5, one node, one millisecond, a second on the mover's
// clock, mate in one.
inline constexpr int kLimitKinds = 6;
template <class PositionT>
SearchLimits limits_of_kind(int kind, const PositionT& position) {
  switch (kind) {
    case 0:
      return depth_limit(1);
    case 1:
      return depth_limit(5);
    case 2:
      return node_limit(1);
    case 3:
      return move_time(1);
    case 4:
      return mover_clocks(position, 1000, 1000);
    default:
      return mate_limit(1);
  }
}
// Kinds 2 and 3 may stop the search before its first iteration ends, so they may report nothing.
inline bool kind_reports(int kind) {
  return kind != 2 && kind != 3;
}

inline EngineOptions options(int threads = 1, int multipv = 1, int hash_mb = 4) {
  EngineOptions result;
  result.threads = threads;
  result.multipv = multipv;
  result.hash_mb = hash_mb;
  return result;
}

// Every search feature on, or every one off: SearchFeatures holds only switches, so a feature
// added later is in both without a change here.
inline SearchFeatures all_features(bool on) {
  std::array<bool, sizeof(SearchFeatures)> switches;
  switches.fill(on);
  return std::bit_cast<SearchFeatures>(switches);
}

}  // namespace quixo::test
