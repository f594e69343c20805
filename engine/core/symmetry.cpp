#include "symmetry.hpp"

namespace quixo {

namespace {

// image[symmetry][rank][bits of that rank] = the transformed squares of those bits, so a whole
// board transforms with five table look-ups instead of 25 bit moves.
using RankImages = std::array<std::array<std::array<Bitboard, 32>, kBoardSize>, kSymmetryCount>;

constexpr RankImages make_rank_images() {
  RankImages images{};
  for (int s = 0; s < kSymmetryCount; ++s)
    for (int rank = 0; rank < kBoardSize; ++rank)
      for (int bits = 0; bits < 32; ++bits) {
        Bitboard image = 0;
        for (int file = 0; file < kBoardSize; ++file)
          if (bits & (1 << file))
            image |= square_bb(transform(kAllSymmetries[s], make_square(file, rank)));
        images[s][rank][bits] = image;
      }
  return images;
}

constexpr RankImages kRankImages = make_rank_images();

SlideIndex transform_slide(Symmetry symmetry, SlideIndex slide) {
  const Slide& geometry = slide_at(slide);
  return SlideIndex(
      slide_index(transform(symmetry, geometry.from), transform(symmetry, geometry.to)));
}

}  // namespace

Bitboard transform(Symmetry symmetry, Bitboard cubes) {
  const auto& images = kRankImages[int(symmetry)];
  Bitboard image = 0;
  for (int rank = 0; rank < kBoardSize; ++rank)
    image |= images[rank][(cubes >> (rank * kBoardSize)) & 31];
  return image;
}

Move transform(Symmetry symmetry, Move move) {
  if (move.is_none()) return move;
  return Move(transform_slide(symmetry, move.slide()));
}

Move4 transform(Symmetry symmetry, Move4 move) {
  if (move.is_none() || move.is_pass()) return move;
  return Move4(transform_slide(symmetry, move.slide()), move.point());
}

Position transform(Symmetry symmetry, const Position& position) {
  return Position(transform(symmetry, position.cubes(Color::X)),
                  transform(symmetry, position.cubes(Color::O)), position.side_to_move());
}

Position4 transform(Symmetry symmetry, const Position4& position) {
  Bitboard by_point[kSeatCount];
  for (Seat seat = 0; seat < kSeatCount; ++seat)
    by_point[seat] = transform(symmetry, position.cubes_pointing_to(seat));
  return Position4(by_point, position.seat_to_move());
}

namespace {

// A key word holds two boards of 25 bits (bits 0-24 and 25-49) and, above them, the mover:
// the boards are transformed, the rest is kept.
std::uint64_t transform_key_word(Symmetry symmetry, std::uint64_t word) {
  constexpr std::uint64_t kBoardBits = (std::uint64_t{1} << 25) - 1;
  return (word & ~((kBoardBits << 25) | kBoardBits)) |
         std::uint64_t(transform(symmetry, Bitboard(word & kBoardBits))) |
         std::uint64_t(transform(symmetry, Bitboard((word >> 25) & kBoardBits))) << 25;
}

}  // namespace

std::uint64_t transform_key(Symmetry symmetry, std::uint64_t key) {
  return transform_key_word(symmetry, key);
}

Position4Key transform_key(Symmetry symmetry, const Position4Key& key) {
  return {transform_key_word(symmetry, key.low), transform_key_word(symmetry, key.high)};
}

CanonicalForm canonical_form(const Position& position) {
  CanonicalForm best{position, Symmetry::Identity};
  for (Symmetry symmetry : kAllSymmetries) {
    const Position image = transform(symmetry, position);
    if (image.key() < best.position.key()) best = {image, symmetry};
  }
  return best;
}

Position canonical(const Position& position) {
  return canonical_form(position).position;
}

}  // namespace quixo
