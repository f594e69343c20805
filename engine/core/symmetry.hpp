// The 8 symmetries of the square board (rotations and reflections) on squares, boards, moves
// and positions. Quixo's rules commute with all of them: they map the border to the border and
// the ends of a rank or file to the ends of its image.
#pragma once

#include <array>
#include <cstdint>

#include "position.hpp"
#include "position4.hpp"

namespace quixo {

enum class Symmetry : std::uint8_t {
  Identity,
  Rotate90,  // clockwise: a5 -> e5
  Rotate180,
  Rotate270,
  MirrorFiles,   // a <-> e
  MirrorRanks,   // 1 <-> 5
  MainDiagonal,  // reflection in the a1-e5 diagonal
  AntiDiagonal,  // reflection in the a5-e1 diagonal
};
inline constexpr int kSymmetryCount = 8;
inline constexpr std::array<Symmetry, kSymmetryCount> kAllSymmetries = {
    Symmetry::Identity,    Symmetry::Rotate90,    Symmetry::Rotate180,    Symmetry::Rotate270,
    Symmetry::MirrorFiles, Symmetry::MirrorRanks, Symmetry::MainDiagonal, Symmetry::AntiDiagonal};

constexpr Square transform(Symmetry symmetry, Square square) {
  const int f = file_of(square), r = rank_of(square), m = kBoardSize - 1;
  switch (symmetry) {
    case Symmetry::Identity:
      return make_square(f, r);
    case Symmetry::Rotate90:
      return make_square(r, m - f);
    case Symmetry::Rotate180:
      return make_square(m - f, m - r);
    case Symmetry::Rotate270:
      return make_square(m - r, f);
    case Symmetry::MirrorFiles:
      return make_square(m - f, r);
    case Symmetry::MirrorRanks:
      return make_square(f, m - r);
    case Symmetry::MainDiagonal:
      return make_square(r, f);
    case Symmetry::AntiDiagonal:
      return make_square(m - r, m - f);
  }
  return square;
}

// The symmetry that undoes `symmetry`.
constexpr Symmetry inverse(Symmetry symmetry) {
  switch (symmetry) {
    case Symmetry::Rotate90:
      return Symmetry::Rotate270;
    case Symmetry::Rotate270:
      return Symmetry::Rotate90;
    default:
      return symmetry;  // every other one is its own inverse
  }
}

Bitboard transform(Symmetry symmetry, Bitboard cubes);
Move transform(Symmetry symmetry, Move move);
Move4 transform(Symmetry symmetry, Move4 move);
Position transform(Symmetry symmetry, const Position& position);
Position4 transform(Symmetry symmetry, const Position4& position);
// The key of the image, from the key alone (Position::key(), Position4::key()): for positions
// kept only by their keys, as a game's history is.
std::uint64_t transform_key(Symmetry symmetry, std::uint64_t key);
Position4Key transform_key(Symmetry symmetry, const Position4Key& key);

// The image of `position` with the smallest key: one representative for all 8 symmetric forms.
Position canonical(const Position& position);

// The same, with the symmetry that maps `position` onto it.
struct CanonicalForm {
  Position position;
  Symmetry symmetry = Symmetry::Identity;
};
CanonicalForm canonical_form(const Position& position);

}  // namespace quixo
