#include "position.hpp"

namespace quixo {

MoveList2 Position::legal_moves() const {
  MoveList2 moves;
  for (Bitboard from_set = takeable(); from_set != 0; from_set &= from_set - 1) {
    const Square from = std::countr_zero(from_set);
    const int first = kSlideTables.first[from];
    for (int i = first; i < first + kSlideTables.count[from]; ++i)
      moves.push_back(Move(SlideIndex(i)));
  }
  return moves;
}

bool Position::is_legal(Move move) const {
  return !move.is_none() && move.slide() < kSlideCount && (takeable() & square_bb(move.from()));
}

}  // namespace quixo
