// The two-player game: position, moves, move generation and results.
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>
#include <type_traits>

#include "move_list.hpp"
#include "slide.hpp"
#include "types.hpp"

namespace quixo {

// A two-player move is just its geometry: the moved cube always takes the mover's symbol.
class Move {
 public:
  constexpr Move() = default;
  constexpr explicit Move(SlideIndex slide) : slide_(slide) {}
  static constexpr Move none() { return Move(); }

  constexpr bool is_none() const { return slide_ == kNoSlide; }
  constexpr SlideIndex slide() const { return slide_; }
  constexpr Square from() const { return slide_at(slide_).from; }
  constexpr Square to() const { return slide_at(slide_).to; }
  constexpr bool operator==(const Move&) const = default;

 private:
  static constexpr SlideIndex kNoSlide = 0xff;
  SlideIndex slide_ = kNoSlide;
};

using MoveList2 = MoveList<Move, kSlideCount>;

class Position {
 public:
  // The empty board with X to move.
  constexpr Position() = default;
  // Requires disjoint boards within the 25 squares; the caller (the notation parser, tests) checks.
  constexpr Position(Bitboard x_cubes, Bitboard o_cubes, Color to_move)
      : cubes_{x_cubes & kFullBoard, o_cubes & kFullBoard}, to_move_(to_move) {
    assert((x_cubes & o_cubes) == 0);
  }

  static constexpr Position start() { return Position(); }

  constexpr Bitboard cubes(Color color) const { return cubes_[int(color)]; }
  constexpr Bitboard blanks() const { return kFullBoard & ~(cubes_[0] | cubes_[1]); }
  constexpr Color side_to_move() const { return to_move_; }

  constexpr Outcome outcome() const {
    return outcome_of(cubes(to_move_), cubes(~to_move_), to_move_);
  }
  constexpr bool is_game_over() const { return has_line_in_either(pack(cubes_[0], cubes_[1])); }

  // Border squares whose cube the side to move may take: blank or its own. Empty when the game
  // is over, because a finished game has no legal moves.
  constexpr Bitboard takeable() const { return is_game_over() ? 0 : kBorder & ~cubes(~to_move_); }

  MoveList2 legal_moves() const;
  int legal_move_count() const { return slide_count(takeable()); }
  bool is_legal(Move move) const;

  // The position after `move`, which must be legal here.
  [[gnu::always_inline]] constexpr Position after(Move move) const {
    if (!std::is_constant_evaluated()) assert(is_legal(move));
    const Slide& slide = slide_at(move.slide());
    Position next = *this;
    next.cubes_[int(to_move_)] = slide.apply(cubes_[int(to_move_)]) | slide.inserted;
    next.cubes_[int(~to_move_)] = slide.apply(cubes_[int(~to_move_)]);
    next.to_move_ = ~to_move_;
    return next;
  }

  // Exact 51-bit identity of the position (both boards and the side to move): no collisions.
  constexpr std::uint64_t key() const {
    return std::uint64_t(cubes_[0]) | std::uint64_t(cubes_[1]) << 25 |
           std::uint64_t(to_move_) << 50;
  }
  // The number of blank cubes of the position whose key() this is.
  static constexpr int blank_count_of(std::uint64_t key) {
    return kSquareCount - std::popcount(key & ((std::uint64_t{1} << 50) - 1));
  }

  constexpr bool operator==(const Position&) const = default;

 private:
  Bitboard cubes_[2] = {0, 0};
  Color to_move_ = Color::X;
};

}  // namespace quixo
