#include "playout.hpp"

#include <bit>

#include "packed_slides.hpp"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace quixo {

namespace {

// xorshift64: a few instructions a draw, and the same games from the same seed on every machine.
class Xorshift {
 public:
  explicit Xorshift(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  // [0, bound) by a multiply rather than a division (a tenth of a ply's time); for a bound of at
  // most 88 the bias is below 2^-25.
  unsigned below(unsigned bound) { return unsigned(((next() >> 32) * std::uint64_t(bound)) >> 32); }

 private:
  std::uint64_t state_;
};

// The index of the n-th (from 0) set bit of `bits`, which has more than n.
unsigned nth_set_bit(std::uint64_t bits, unsigned n) {
#if defined(__BMI2__)
  return unsigned(std::countr_zero(_pdep_u64(std::uint64_t{1} << n, bits)));
#else
  for (; n > 0; --n) bits &= bits - 1;
  return unsigned(std::countr_zero(bits));
#endif
}

}  // namespace

Outcome random_playout(const Position& position, std::uint64_t seed, int max_plies) {
  // On packed boards, the mover's in the low half, as perft's leaves: a ply is a look-up of the
  // legal moves, one draw, two masks and shifts for the slide, a swap and a line test.
  Xorshift random(seed);
  Color mover = position.side_to_move();
  PackedBoards boards = pack(position.cubes(mover), position.cubes(~mover));
  for (int ply = 0; ply < max_plies && !has_line_in_either(boards); ++ply) {
    const std::uint64_t legal = slides_from(kBorder & ~Bitboard(boards >> 32));
    if (legal == 0) break;  // every border cube is the opponent's: no move to make
    const PackedSlide& slide =
        kPackedSlides[nth_set_bit(legal, random.below(unsigned(std::popcount(legal))))];
    boards = apply_packed(slide, boards) | slide.inserted;
    boards = std::rotr(boards, 32);
    mover = ~mover;
  }
  const Bitboard mover_cubes = Bitboard(boards), opponent_cubes = Bitboard(boards >> 32);
  const Position end = mover == Color::X ? Position(mover_cubes, opponent_cubes, Color::X)
                                         : Position(opponent_cubes, mover_cubes, Color::O);
  return end.outcome();
}

Outcome random_playout(const Position4& position, std::uint64_t seed, int max_plies) {
  Xorshift random(seed);
  Position4 current = position;
  for (int ply = 0; ply < max_plies && !current.is_game_over(); ++ply) {
    const MoveList4 moves = current.legal_moves();
    if (moves.size() == 0) break;
    current = current.after(moves[random.below(unsigned(moves.size()))]);
  }
  return current.outcome();
}

}  // namespace quixo
