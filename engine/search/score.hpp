// Search scores: centi-cube evaluations and exact wins and losses ("mate").
#pragma once

#include <cstdint>

namespace quixo {

using Score = int;

inline constexpr Score kDrawScore = 0;
// A win at ply p from the root scores kMateScore - p, so shorter wins score higher.
inline constexpr Score kMateScore = 32000;
inline constexpr Score kInfiniteScore = 32001;
inline constexpr int kMaxPly = 128;
// Scores beyond this are proven wins or losses.
inline constexpr Score kMateBound = kMateScore - 2 * kMaxPly;

constexpr Score mate_in(int ply) {
  return kMateScore - ply;
}
constexpr Score mated_in(int ply) {
  return -kMateScore + ply;
}
constexpr bool is_mate_score(Score score) {
  return score >= kMateBound || score <= -kMateBound;
}

// UCI's `score mate N`: the side to move wins with its N-th move (negative: loses).
// A loss at ply p counts the side's own moves too: making the opponent's line with its first
// move (p = 1) and the opponent winning at its first move (p = 2) are both "mate -1".
constexpr int mate_moves(Score score) {
  return score > 0 ? (kMateScore - score + 1) / 2 : -(kMateScore + score + 1) / 2;
}

// Mate scores are stored in the transposition table relative to the node, not the root.
constexpr Score score_to_tt(Score score, int ply) {
  return score >= kMateBound ? score + ply : score <= -kMateBound ? score - ply : score;
}
constexpr Score score_from_tt(Score score, int ply) {
  return score >= kMateBound ? score - ply : score <= -kMateBound ? score + ply : score;
}

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

}  // namespace quixo
