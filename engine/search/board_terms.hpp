// Board features that both evaluations (two-player and team game) score the same way, from the
// view of the side (team) to move: the 12 lines, the border, the centre and inner ring, and the
// cube lead. Each evaluation's weights and breakdown extend the ones here with its own terms.
#pragma once

#include <algorithm>
#include <array>
#include <bit>

#include "core/types.hpp"
#include "score.hpp"

namespace quixo::eval_terms {

constexpr std::array<Bitboard, 12> make_lines() {
  std::array<Bitboard, 12> lines{};
  for (int i = 0; i < kBoardSize; ++i) {
    lines[i] = kRank1 << (kBoardSize * i);  // rank i+1
    lines[kBoardSize + i] = kFileA << i;    // file a+i
  }
  lines[10] = kDiagonalA1E5;
  lines[11] = kDiagonalA5E1;
  return lines;
}
inline constexpr std::array<Bitboard, 12> kLines = make_lines();

inline constexpr Bitboard kCentre = square_bb(make_square(2, 2));
inline constexpr Bitboard kInnerRing = kFullBoard & ~kBorder & ~kCentre;

// Every line scored by its cube counts: open_line[k] for k of one side's cubes and none of the
// other's (added for `own`, subtracted for `opponent`), the contested_line difference when both
// have some. Counts of five are scored as four: a finished line never reaches an evaluation.
inline Score line_score(Bitboard own, Bitboard opponent, const std::array<Score, 5>& open_line,
                        const std::array<Score, 5>& contested_line) {
  Score score = 0;
  for (const Bitboard line : kLines) {
    const int mine = std::min(std::popcount(own & line), 4);
    const int theirs = std::min(std::popcount(opponent & line), 4);
    if (theirs == 0)
      score += open_line[mine];
    else if (mine == 0)
      score -= open_line[theirs];
    else
      score += contested_line[mine] - contested_line[theirs];
  }
  return score;
}

inline int count_difference(Bitboard own, Bitboard opponent, Bitboard region) {
  return std::popcount(own & region) - std::popcount(opponent & region);
}

// Every weight is data, so that a tuner can change them without touching the code.
struct BoardWeights {
  // A line (rank, file or long diagonal) holding k cubes of one side and none of the other:
  // open_line[k] for the side to move, the same subtracted for the opponent. In the team game
  // lines count on the team boards, points ignored: a line of five wins whatever its points.
  std::array<Score, 5> open_line = {0, 1, 6, 24, 60};
  // A line holding k cubes of one side and some of the other: it can still turn over, since
  // cubes slide, but it is worth less.
  std::array<Score, 5> contested_line = {0, 0, 2, 8, 20};
  // Own cubes on the border: they can be taken again, while the opponent's block our choices
  // (in the team game the other team can never take them).
  Score border_cube = 4;
  // Cubes on the centre square and the inner ring: part of more lines, and hard to move.
  Score centre_cube = 6;
  Score inner_cube = 2;
  // The side to move with more cubes on the board than its opponent (up to 3).
  Score cube_lead = 8;
};

// The board features' scores, for the `eval` breakdowns.
struct BoardTerms {
  Score lines = 0;
  Score border = 0;
  Score centre = 0;
  Score cube_lead = 0;
  [[nodiscard]] Score sum() const { return lines + border + centre + cube_lead; }
};

// `own` and `opponent`: the cubes of the side (team) to move and of the other.
[[nodiscard]] inline BoardTerms board_terms(Bitboard own, Bitboard opponent,
                                            const BoardWeights& weights) {
  BoardTerms terms;
  terms.lines = line_score(own, opponent, weights.open_line, weights.contested_line);
  terms.border = weights.border_cube * count_difference(own, opponent, kBorder);
  terms.centre = weights.centre_cube * count_difference(own, opponent, kCentre) +
                 weights.inner_cube * count_difference(own, opponent, kInnerRing);
  terms.cube_lead =
      weights.cube_lead * std::clamp(count_difference(own, opponent, kFullBoard), -3, 3);
  return terms;
}

}  // namespace quixo::eval_terms
