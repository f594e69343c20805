// Basic vocabulary of the rules core: squares, bitboards, colours and the fixed line masks.
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>

namespace quixo {

// One bit per cube, bit index = rank * 5 + file, rank 0 being rank '1' (the bottom row).
using Bitboard = std::uint32_t;
using Square = int;

inline constexpr int kBoardSize = 5;
inline constexpr int kSquareCount = 25;
inline constexpr Bitboard kFullBoard = (Bitboard{1} << kSquareCount) - 1;

// The core checks its preconditions with assert (squares and slides in range, a move applied legal
// where it is played): the debug and asan presets keep assertions on, release compiles them out.
constexpr Square make_square(int file, int rank) {
  assert(file >= 0 && file < kBoardSize && rank >= 0 && rank < kBoardSize);
  return rank * kBoardSize + file;
}
constexpr int file_of(Square square) {
  assert(square >= 0 && square < kSquareCount);
  return square % kBoardSize;
}
constexpr int rank_of(Square square) {
  assert(square >= 0 && square < kSquareCount);
  return square / kBoardSize;
}
constexpr Bitboard square_bb(Square square) {
  return Bitboard{1} << square;
}
constexpr bool is_border(Square square) {
  return file_of(square) == 0 || file_of(square) == 4 || rank_of(square) == 0 ||
         rank_of(square) == 4;
}
constexpr bool is_corner(Square square) {
  return (file_of(square) == 0 || file_of(square) == 4) &&
         (rank_of(square) == 0 || rank_of(square) == 4);
}

namespace detail {
constexpr Bitboard squares_where(bool (*predicate)(Square)) {
  Bitboard mask = 0;
  for (Square square = 0; square < kSquareCount; ++square)
    if (predicate(square)) mask |= square_bb(square);
  return mask;
}
}  // namespace detail

inline constexpr Bitboard kBorder = detail::squares_where(is_border);
inline constexpr Bitboard kCorners = detail::squares_where(is_corner);
inline constexpr Bitboard kEdges = kBorder & ~kCorners;  // border squares that are not corners
inline constexpr Bitboard kFileA = 0x108421;             // a1 a2 a3 a4 a5
inline constexpr Bitboard kRank1 = 0x1f;                 // a1 b1 c1 d1 e1
inline constexpr Bitboard kDiagonalA1E5 = 0x1041041;     // a1 b2 c3 d4 e5
inline constexpr Bitboard kDiagonalA5E1 = 0x111110;      // a5 b4 c3 d2 e1

// True when the cubes of `cubes` hold at least one complete line of five: a rank, a file or one
// of the two long diagonals. Shift-and on all ranks and files at once keeps this branch-free,
// because it runs once per generated move in perft and search.
constexpr bool has_line(Bitboard cubes) {
  const Bitboard pairs_in_rank = cubes & (cubes >> 1);
  const Bitboard fives_in_rank = pairs_in_rank & (pairs_in_rank >> 2) & (cubes >> 4) & kFileA;
  const Bitboard pairs_in_file = cubes & (cubes >> 5);
  const Bitboard fives_in_file = pairs_in_file & (pairs_in_file >> 10) & (cubes >> 20);
  return (fives_in_rank | fives_in_file) != 0 || (cubes & kDiagonalA1E5) == kDiagonalA1E5 ||
         (cubes & kDiagonalA5E1) == kDiagonalA5E1;
}

// Two boards packed in one word, the first in bits 0-24 and the second in bits 32-56, so that
// move application and line detection handle both with the same instructions. The gap of seven
// bits keeps every shift used below from carrying a cube of one board into the other.
using PackedBoards = std::uint64_t;
constexpr PackedBoards pack(Bitboard low, Bitboard high) {
  return PackedBoards(low) | PackedBoards(high) << 32;
}
constexpr PackedBoards kPackedLow = kFullBoard;
// The same two boards in the other order.
constexpr PackedBoards swap_halves(PackedBoards boards) {
  return boards >> 32 | boards << 32;
}
constexpr PackedBoards both_halves(Bitboard mask) {
  return pack(mask, mask);
}

// True when either board of `boards` holds a line of five. Ranks, files and both diagonals
// are each found with three shift-ands. Files and the a1-e5 diagonal need no final mask: any
// run of bits that is not a real line passes through the empty gap between the two halves.
constexpr bool has_line_in_either(PackedBoards boards) {
  const PackedBoards b = boards;
  PackedBoards ranks = b & (b >> 1);
  ranks &= (ranks >> 2) & (b >> 4);
  PackedBoards files = b & (b >> 5);
  files &= (files >> 10) & (b >> 20);
  PackedBoards diagonal = b & (b >> 6);  // a1 b2 c3 d4 e5
  diagonal &= (diagonal >> 12) & (b >> 24);
  PackedBoards anti_diagonal = b & (b >> 4);  // e1 d2 c3 b4 a5
  anti_diagonal &= (anti_diagonal >> 8) & (b >> 16);
  return ((ranks & both_halves(kFileA)) | files | diagonal |
          (anti_diagonal & both_halves(1u << 4))) != 0;
}

// How a game stands. Team A (X) and team B (O) in the four-player game use the same values.
enum class Outcome : std::uint8_t { Ongoing, XWins, OWins };

enum class Color : std::uint8_t { X = 0, O = 1 };
constexpr Color operator~(Color color) {
  return Color(int(color) ^ 1);
}
constexpr Outcome win_for(Color color) {
  return color == Color::X ? Outcome::XWins : Outcome::OWins;
}

// The outcome of a board right after a move, from the lines on it and the side now to move.
// The side that just moved loses if the board holds a line of the side to move (even when it also
// made its own line); otherwise it wins with a line of its own. So the outcome needs no history.
constexpr Outcome outcome_of(Bitboard to_move_cubes, Bitboard just_moved_cubes, Color to_move) {
  if (has_line(to_move_cubes)) return win_for(to_move);
  if (has_line(just_moved_cubes)) return win_for(~to_move);
  return Outcome::Ongoing;
}

}  // namespace quixo
