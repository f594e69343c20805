// perft: the number of sequences of exactly `depth` legal moves, the standard test of move
// generation. A finished game has no legal moves (SPEC section 3).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "position.hpp"
#include "position4.hpp"

namespace quixo {

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

}  // namespace quixo
