// Search scores: centi-cube evaluations, exact wins and losses ("mate"), and the wins and losses
// that the endgame tables' win/draw/loss files prove without a distance ("table wins").
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

// A position the search finds won in the tables `ply` plies from the root, whose distance to the
// end it does not know (the search probes win/draw/loss only, as Stockfish's TB wins): below
// every mate, above every evaluation, and shorter ways into the tables first, so that the search
// makes progress towards them. The root itself in the tables is scored exactly, with mates.
inline constexpr Score kTableWinScore = 20000;
inline constexpr Score kTableWinBound = kTableWinScore - 2 * kMaxPly;
constexpr Score table_win_in(int ply) {
  return kTableWinScore - ply;
}
constexpr Score table_loss_in(int ply) {
  return -kTableWinScore + ply;
}
// A proven result: a mate or a table win or loss.
constexpr bool is_decisive_score(Score score) {
  return score >= kTableWinBound || score <= -kTableWinBound;
}

// UCI's `score mate N`: the side to move wins with its N-th move (negative: loses).
// A loss at ply p counts the side's own moves too: making the opponent's line with its first
// move (p = 1) and the opponent winning at its first move (p = 2) are both "mate -1".
constexpr int mate_moves(Score score) {
  return score > 0 ? (kMateScore - score + 1) / 2 : -(kMateScore + score + 1) / 2;
}

// Mate and table-win scores are stored in the transposition table relative to the node, not the
// root.
constexpr Score score_to_tt(Score score, int ply) {
  return score >= kTableWinBound ? score + ply : score <= -kTableWinBound ? score - ply : score;
}
constexpr Score score_from_tt(Score score, int ply) {
  return score >= kTableWinBound ? score - ply : score <= -kTableWinBound ? score + ply : score;
}

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

}  // namespace quixo
