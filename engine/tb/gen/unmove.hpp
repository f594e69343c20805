// Moves played backwards, for retrograde analysis. A forward slide f -> t takes the cube on f,
// slides the cubes between toward f and inserts the mover's cube at t. Undone: t must hold a cube
// of the side that just moved; it is removed, the rest of the segment slides back toward t, and
// the taken cube goes back on f. Within a layer the taken cube was the mover's own (a blank one
// would put the predecessor one layer up, which is never needed). The reverse geometry is not
// always a legal forward move (b1 -> e1 undoes to "take e1, insert at b1"), hence its own table.
#pragma once

#include <array>

#include "core/slide.hpp"
#include "core/types.hpp"

namespace quixo::tb {

struct UnSlide {
  Bitboard keep = 0;
  Bitboard moving = 0;  // the segment without t
  std::uint8_t shift_up = 0;
  std::uint8_t shift_down = 0;
  Bitboard required = 0;  // square_bb(t): must hold a cube of the side that moved
  Bitboard restored = 0;  // square_bb(f): gets the taken cube back

  constexpr Bitboard apply(Bitboard cubes) const {
    return (cubes & keep) | (((cubes & moving) << shift_up) >> shift_down);
  }
};

constexpr std::array<UnSlide, kSlideCount> make_unslides() {
  std::array<UnSlide, kSlideCount> unslides{};
  for (int i = 0; i < kSlideCount; ++i) {
    const Slide& slide = kSlides[i];
    const Bitboard segment = kFullBoard & ~slide.keep;
    unslides[i] = {slide.keep,     segment & ~slide.inserted, slide.shift_down, slide.shift_up,
                   slide.inserted, square_bb(slide.from)};
  }
  return unslides;
}
inline constexpr std::array<UnSlide, kSlideCount> kUnSlides = make_unslides();

// The position before un-slide `u`, given the cubes of the side that moved (`moved`, which must
// hold u.required) and of the side now to move. Returns {moved side's cubes, other side's cubes}.
struct UnmovedBoards {
  Bitboard moved_side;
  Bitboard other_side;
};
constexpr UnmovedBoards unmove(const UnSlide& u, Bitboard moved, Bitboard to_move) {
  return {u.apply(moved) | u.restored, u.apply(to_move)};
}

}  // namespace quixo::tb
