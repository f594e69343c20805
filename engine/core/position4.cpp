#include "position4.hpp"

namespace quixo {

MoveList4 Position4::legal_moves() const {
  MoveList4 moves;
  if (is_game_over()) return moves;
  const Bitboard from_set_all = takeable();
  if (from_set_all == 0) {
    moves.push_back(Move4::pass());
    return moves;
  }
  for (Bitboard from_set = from_set_all; from_set != 0; from_set &= from_set - 1) {
    const Square from = std::countr_zero(from_set);
    const int first = kSlideTables.first[from];
    for (int i = first; i < first + kSlideTables.count[from]; ++i) {
      moves.push_back(Move4(SlideIndex(i), to_move_));
      moves.push_back(Move4(SlideIndex(i), partner_of(to_move_)));
    }
  }
  return moves;
}

int Position4::legal_move_count() const {
  if (is_game_over()) return 0;
  const Bitboard from_set = takeable();
  return from_set == 0 ? 1 : 2 * slide_count(from_set);
}

bool Position4::is_legal(Move4 move) const {
  if (move.is_none() || is_game_over()) return false;
  if (move.is_pass()) return takeable() == 0;
  return move.slide() < kSlideCount && (takeable() & square_bb(move.from())) &&
         (move.point() == to_move_ || move.point() == partner_of(to_move_));
}

}  // namespace quixo
