// perft: the number of sequences of exactly `depth` legal moves, the standard test of move
// generation. A finished game has no legal moves (docs/spec.md §3.4).
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "position.hpp"
#include "position4.hpp"

namespace quixo {

// The deepest perft the programs count, one range for the command line (`quixo-engine perft`) and
// UQI (`go perft`): 0 to this. From the start, depth 11 already takes hours.
inline constexpr int kMaxPerftDepth = 12;

struct PerftCounts {
  std::uint64_t leaves = 0;
  // Leaves at which the game has just ended: like the checkmate column of chess perft tables.
  std::uint64_t decisive_leaves = 0;
  bool operator==(const PerftCounts&) const = default;
};

// Bulk counting: the last ply is counted from the number of takeable border cubes, without
// making the moves. The fast way to get the leaf count.
std::uint64_t perft(const Position& position, int depth);
std::uint64_t perft(const Position4& position, int depth);

// The same count, given up as soon as `cancel` is set (from another thread): the result is then
// a partial count, smaller than the full one. Used where perft must obey `stop`.
std::uint64_t perft(const Position& position, int depth, const std::atomic<bool>& cancel);
std::uint64_t perft(const Position4& position, int depth, const std::atomic<bool>& cancel);

// Every leaf move generated, applied and its result checked: slower, and also counts decisive
// leaves.
PerftCounts perft_every_leaf(const Position& position, int depth);
PerftCounts perft_every_leaf(const Position4& position, int depth);

// perft below each legal move, in move generation order.
template <class PositionT>
auto divide(const PositionT& position, int depth) {
  using MoveT = std::decay_t<decltype(position.legal_moves()[0])>;
  std::vector<std::pair<MoveT, std::uint64_t>> counts;
  if (depth <= 0) return counts;
  for (const MoveT move : position.legal_moves())
    counts.emplace_back(move, perft(position.after(move), depth - 1));
  return counts;
}

// The divide, cancellable: `on_move` receives each first move and its count as it is done.
// Returns false when `cancel` cut it short (the move being counted then is not reported).
template <class PositionT, class OnMove>
bool divide(const PositionT& position, int depth, const std::atomic<bool>& cancel,
            OnMove&& on_move) {
  if (depth <= 0) return true;
  for (const auto move : position.legal_moves()) {
    const std::uint64_t count = perft(position.after(move), depth - 1, cancel);
    if (cancel.load(std::memory_order_relaxed)) return false;
    on_move(move, count);
  }
  return true;
}

}  // namespace quixo
