// Board features that both evaluations (two-player and team game) score the same way: the 12
// lines, the centre and inner ring, and the line count term. Only the weights differ.
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

}  // namespace quixo::eval_terms
