// The 44 ways to take a border cube and push it back in, shared by both variants.
#pragma once

#include <array>
#include <cstdint>

#include "types.hpp"

namespace quixo {

// One geometric move: take the cube on `from`, push it in at `to` (an end of the rank or file of
// `from`). Cubes strictly after `from` up to `to` slide one step toward `from`. Everything needed
// to apply the move to any bitboard is precomputed, so applying it is two masks and two shifts.
struct Slide {
  Square from = 0;
  Square to = 0;
  Bitboard keep = 0;            // squares off the from..to segment: unchanged
  Bitboard moving = 0;          // the segment without `from`: these cubes slide
  std::uint8_t shift_up = 0;    // left shift that slides them (toward higher square indices)
  std::uint8_t shift_down = 0;  // right shift that slides them (toward lower square indices)
  Bitboard inserted = 0;        // square_bb(to)

  // The cubes of `cubes` after the slide, without the inserted cube (the taken cube is dropped).
  constexpr Bitboard apply(Bitboard cubes) const {
    return (cubes & keep) | (((cubes & moving) << shift_up) >> shift_down);
  }
  // The same for two packed boards at once.
  constexpr PackedBoards apply(PackedBoards boards) const {
    return (boards & both_halves(keep)) |
           (((boards & both_halves(moving)) << shift_up) >> shift_down);
  }
};

inline constexpr int kSlideCount = 44;
using SlideIndex = std::uint8_t;

namespace detail {

constexpr Slide make_slide(Square from, Square to) {
  Slide slide;
  slide.from = from;
  slide.to = to;
  const bool same_rank = rank_of(from) == rank_of(to);
  const int step = same_rank ? 1 : kBoardSize;
  Bitboard segment = 0;
  const int lo = from < to ? from : to;
  const int hi = from < to ? to : from;
  for (Square square = lo; square <= hi; square += step) segment |= square_bb(square);
  slide.keep = kFullBoard & ~segment;
  slide.moving = segment & ~square_bb(from);
  if (to > from)
    slide.shift_down = std::uint8_t(step);
  else
    slide.shift_up = std::uint8_t(step);
  slide.inserted = square_bb(to);
  return slide;
}

// Ends of the rank and file of `from`, other than `from` itself, in ascending square order.
constexpr int destinations(Square from, Square out[3]) {
  const int file = file_of(from), rank = rank_of(from);
  Square candidates[4] = {make_square(file, 0), make_square(0, rank), make_square(4, rank),
                          make_square(file, 4)};
  int count = 0;
  for (Square candidate : candidates) {
    if (candidate == from) continue;
    bool seen = false;
    for (int i = 0; i < count; ++i) seen = seen || out[i] == candidate;
    if (!seen) out[count++] = candidate;
  }
  // insertion sort, to list each square's moves in a fixed, readable order
  for (int i = 1; i < count; ++i)
    for (int j = i; j > 0 && out[j - 1] > out[j]; --j) {
      const Square t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  return count;
}

struct SlideTables {
  std::array<Slide, kSlideCount> slides{};
  std::array<std::uint8_t, kSquareCount> first{};  // first slide index of each border square
  std::array<std::uint8_t, kSquareCount> count{};  // 2 for corners, 3 for other border squares
  std::array<std::array<std::int8_t, kSquareCount>, kSquareCount> index_of{};  // -1 if illegal
};

constexpr SlideTables make_slide_tables() {
  SlideTables tables;
  for (auto& row : tables.index_of)
    for (auto& entry : row) entry = -1;
  int next = 0;
  for (Square from = 0; from < kSquareCount; ++from) {
    tables.first[from] = std::uint8_t(next);
    if (!is_border(from)) continue;
    Square to[3] = {};
    const int count = destinations(from, to);
    tables.count[from] = std::uint8_t(count);
    for (int i = 0; i < count; ++i) {
      tables.index_of[from][to[i]] = std::int8_t(next);
      tables.slides[next++] = make_slide(from, to[i]);
    }
  }
  return tables;
}

}  // namespace detail

inline constexpr detail::SlideTables kSlideTables = detail::make_slide_tables();
inline constexpr const std::array<Slide, kSlideCount>& kSlides = kSlideTables.slides;

constexpr const Slide& slide_at(SlideIndex index) {
  assert(index < kSlideCount);
  return kSlides[index];
}

// The slide index for a (from, to) pair, or -1 when that is not a legal geometry.
constexpr int slide_index(Square from, Square to) {
  if (from < 0 || from >= kSquareCount || to < 0 || to >= kSquareCount) return -1;
  return kSlideTables.index_of[from][to];
}

// Number of moves of the two-player game (and of geometries in the four-player one) that the
// border cubes of `takeable` allow: 2 per corner, 3 per other border square.
constexpr int slide_count(Bitboard takeable) {
  return 2 * std::popcount(takeable & kCorners) + 3 * std::popcount(takeable & kEdges);
}

static_assert(slide_count(kBorder) == kSlideCount);

}  // namespace quixo
