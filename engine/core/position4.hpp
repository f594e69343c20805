// The four-player team game: seats, pointed cubes, moves with a point, passes and results.
#pragma once

#include <bit>
#include <cassert>
#include <compare>
#include <cstdint>
#include <type_traits>

#include "move_list.hpp"
#include "slide.hpp"
#include "types.hpp"

namespace quixo {

// Seats are 0..3 inside the program and 1..4 in notation (seat index + 1). Clockwise order:
// seat 0 = A1, 1 = B1, 2 = A2, 3 = B2. Team A (even seats) plays X, team B (odd seats) plays O.
using Seat = int;
inline constexpr int kSeatCount = 4;
constexpr Color team_of(Seat seat) {
  return Color(seat & 1);
}
constexpr Seat partner_of(Seat seat) {
  return seat ^ 2;
}
constexpr Seat next_seat(Seat seat) {
  return (seat + 1) & 3;
}

// A four-player move: a geometry plus the seat the placed cube points to (the mover or its
// partner), or a pass.
class Move4 {
 public:
  constexpr Move4() = default;
  constexpr Move4(SlideIndex slide, Seat point) : slide_(slide), point_(std::uint8_t(point)) {}
  static constexpr Move4 pass() { return Move4(kPassSlide, 0); }
  static constexpr Move4 none() { return Move4(); }

  constexpr bool is_pass() const { return slide_ == kPassSlide; }
  constexpr bool is_none() const { return slide_ == kNoSlide; }
  constexpr SlideIndex slide() const { return slide_; }
  constexpr Square from() const { return slide_at(slide_).from; }
  constexpr Square to() const { return slide_at(slide_).to; }
  constexpr Seat point() const { return point_; }
  constexpr bool operator==(const Move4&) const = default;

 private:
  static constexpr SlideIndex kNoSlide = 0xff;
  static constexpr SlideIndex kPassSlide = 0xfe;
  SlideIndex slide_ = kNoSlide;
  std::uint8_t point_ = 0;
};

using MoveList4 = MoveList<Move4, 2 * kSlideCount>;

// The exact identity of a four-player position (the four boards by point, 25 bits each, and the
// seat to move: 102 bits in two words), so that tables and repetition checks that compare it
// whole never confuse two positions.
struct Position4Key {
  std::uint64_t low = 0;   // cubes pointing to seats 0 and 1, and the seat to move
  std::uint64_t high = 0;  // cubes pointing to seats 2 and 3
  // Ordered too, so that a key can index a std::map (the arena's repetition count).
  constexpr auto operator<=>(const Position4Key&) const = default;
};

class Position4 {
 public:
  // The empty board with seat 0 (seat 1 in notation) to move.
  constexpr Position4() = default;
  // cubes_by_point[s]: cubes of seat s's team symbol that point to seat s. The caller checks
  // they are disjoint.
  constexpr Position4(const Bitboard (&cubes_by_point)[kSeatCount], Seat to_move)
      : pairs_{pack(cubes_by_point[0] & kFullBoard, cubes_by_point[1] & kFullBoard),
               pack(cubes_by_point[2] & kFullBoard, cubes_by_point[3] & kFullBoard)},
        to_move_(std::uint8_t(to_move & 3)) {}

  static constexpr Position4 start() { return Position4(); }

  constexpr Bitboard cubes_pointing_to(Seat seat) const {
    return Bitboard(pairs_[seat >> 1] >> (32 * (seat & 1)));
  }
  // X cubes in the low half, O cubes in the high half, whatever their points.
  constexpr PackedBoards team_cubes() const { return pairs_[0] | pairs_[1]; }
  constexpr Bitboard cubes(Color team) const { return Bitboard(team_cubes() >> (32 * int(team))); }
  constexpr Bitboard blanks() const { return kFullBoard & ~(cubes(Color::X) | cubes(Color::O)); }
  constexpr Seat seat_to_move() const { return to_move_; }
  constexpr Color team_to_move() const { return team_of(to_move_); }

  constexpr Outcome outcome() const {
    return outcome_of(cubes(team_to_move()), cubes(~team_to_move()), team_to_move());
  }
  constexpr bool is_game_over() const { return has_line_in_either(team_cubes()); }

  // Border squares whose cube the seat to move may take: blank, or its team's and pointing to it.
  // When this is empty in a game that is not over, the seat's only move is the pass.
  constexpr Bitboard takeable() const {
    return is_game_over() ? 0 : kBorder & (blanks() | cubes_pointing_to(to_move_));
  }

  MoveList4 legal_moves() const;
  int legal_move_count() const;
  bool is_legal(Move4 move) const;

  [[gnu::always_inline]] constexpr Position4 after(Move4 move) const {
    if (!std::is_constant_evaluated()) assert(is_legal(move));
    Position4 next = *this;
    next.to_move_ = std::uint8_t(next_seat(to_move_));
    if (move.is_pass()) return next;
    const Slide& slide = slide_at(move.slide());
    next.pairs_[0] = slide.apply(pairs_[0]);
    next.pairs_[1] = slide.apply(pairs_[1]);
    next.pairs_[move.point() >> 1] |= PackedBoards(slide.inserted) << (32 * (move.point() & 1));
    return next;
  }

  [[nodiscard]] constexpr Position4Key key() const {
    return {std::uint64_t(cubes_pointing_to(0)) | std::uint64_t(cubes_pointing_to(1)) << 25 |
                std::uint64_t(to_move_) << 50,
            std::uint64_t(cubes_pointing_to(2)) | std::uint64_t(cubes_pointing_to(3)) << 25};
  }
  // The number of blank cubes of the position whose key() this is.
  static constexpr int blank_count_of(const Position4Key& key) {
    constexpr std::uint64_t kCubeBits = (std::uint64_t{1} << 50) - 1;
    return kSquareCount - std::popcount(key.low & kCubeBits) - std::popcount(key.high);
  }

  // The same position is the same key: one identity for tables, repetitions and comparisons.
  constexpr bool operator==(const Position4& other) const { return key() == other.key(); }

 private:
  // Cubes by the seat they point to, packed in pairs: seats 0 and 1 (one of each team) in the
  // first word, seats 2 and 3 in the second. A slide then moves all four boards with two packed
  // applies, and OR-ing the words gives both team boards at once.
  PackedBoards pairs_[2] = {0, 0};
  std::uint8_t to_move_ = 0;
};

}  // namespace quixo
