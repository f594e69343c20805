// Slide tables in the forms the hot loops want: 64-bit masks for packed boards, and the set of
// moves of any group of from-squares by table look-up.
#pragma once

#include <array>
#include <cstdint>

#include "slide.hpp"
#include "types.hpp"

namespace quixo {

// Precomputed per slide: the packed masks, so the hot loop does no widening or shifting of masks.
struct PackedSlide {
  PackedBoards keep;
  PackedBoards moving;
  PackedBoards inserted;
  std::uint8_t shift_up;
  std::uint8_t shift_down;
};

constexpr std::array<PackedSlide, kSlideCount> make_packed_slides() {
  std::array<PackedSlide, kSlideCount> packed{};
  for (int i = 0; i < kSlideCount; ++i) {
    const Slide& slide = kSlides[i];
    packed[i] = {both_halves(slide.keep), both_halves(slide.moving), slide.inserted, slide.shift_up,
                 slide.shift_down};
  }
  return packed;
}
inline constexpr std::array<PackedSlide, kSlideCount> kPackedSlides = make_packed_slides();

// The mask of slide indices whose from-square is in `squares`, looked up in three chunks of the
// board (squares 0-9, 10-19, 20-24) so that one loop over set bits walks all legal moves with a
// single, well-predicted branch.
struct SlideMaskTables {
  std::array<std::uint64_t, 1024> low{};
  std::array<std::uint64_t, 1024> middle{};
  std::array<std::uint64_t, 32> high{};
};

constexpr std::uint64_t slides_from_slow(Bitboard squares) {
  std::uint64_t mask = 0;
  for (int i = 0; i < kSlideCount; ++i)
    if (squares & square_bb(kSlides[i].from)) mask |= std::uint64_t{1} << i;
  return mask;
}

constexpr SlideMaskTables make_slide_mask_tables() {
  SlideMaskTables tables;
  for (Bitboard bits = 0; bits < 1024; ++bits) {
    tables.low[bits] = slides_from_slow(bits);
    tables.middle[bits] = slides_from_slow(bits << 10);
  }
  for (Bitboard bits = 0; bits < 32; ++bits) tables.high[bits] = slides_from_slow(bits << 20);
  return tables;
}
inline constexpr SlideMaskTables kSlideMasks = make_slide_mask_tables();

// The moves (bits over slide indices) whose from-square is in `squares`.
inline std::uint64_t slides_from(Bitboard takeable) {
  return kSlideMasks.low[takeable & 1023] | kSlideMasks.middle[(takeable >> 10) & 1023] |
         kSlideMasks.high[takeable >> 20];
}

inline PackedBoards apply_packed(const PackedSlide& slide, PackedBoards boards) {
  return (boards & slide.keep) | (((boards & slide.moving) << slide.shift_up) >> slide.shift_down);
}

}  // namespace quixo
