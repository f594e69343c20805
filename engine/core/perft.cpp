#include "perft.hpp"

#include "move_scan.hpp"
#include "packed_slides.hpp"

#include <array>
#include <atomic>
#include <bit>

namespace quixo {

namespace {

// The two-player counts work on packed (mover, opponent) boards rather than Position objects:
// the side to move then never needs a branch, and both boards move with the same instructions.

// Two-player boards are packed with the side to move in the low half. After a move the halves
// swap, so the child again has its mover in the low half.
inline PackedBoards play(const PackedSlide& slide, PackedBoards boards) {
  return std::rotl(apply_packed(slide, boards) | slide.inserted, 32);
}

inline Bitboard takeable_for_mover(PackedBoards boards) {
  return kBorder & ~Bitboard(boards >> 32);
}

// Leaves one ply below `boards`, each made and checked by scan_moves.
inline void count_leaves(PackedBoards boards, PerftCounts& counts) {
  const MoveScan scan = scan_moves(boards);
  counts.leaves += std::popcount(scan.legal);
  counts.decisive_leaves += std::popcount(scan.wins | scan.losses);
}

// A cancelled count gives up at nodes this deep or deeper: their subtrees are large enough for
// the check to cost nothing, small enough that a `stop` is obeyed at once.
constexpr int kCancelCheckDepth = 4;

bool cancelled(const std::atomic<bool>* cancel, int depth) {
  return depth >= kCancelCheckDepth && cancel->load(std::memory_order_relaxed);
}

// depth >= 1; `boards` is a position where the game goes on. Only a kCancellable count reads
// `cancel`: the plain count keeps its loop free of the check.
template <bool kBulk, bool kCancellable>
void count_two_player(PackedBoards boards, int depth, PerftCounts& counts,
                      const std::atomic<bool>* cancel) {
  if constexpr (kBulk) {
    if (depth == 1) {
      counts.leaves += slide_count(takeable_for_mover(boards));
      return;
    }
  } else {
    if (depth == 1) return count_leaves(boards, counts);
  }
  if constexpr (kCancellable)
    if (cancelled(cancel, depth)) return;
  for (std::uint64_t slides = slides_from(takeable_for_mover(boards)); slides != 0;
       slides &= slides - 1) {
    const PackedBoards after = play(kPackedSlides[std::countr_zero(slides)], boards);
    if (has_line_in_either(after)) continue;  // the game is over: no moves below
    count_two_player<kBulk, kCancellable>(after, depth - 1, counts, cancel);
  }
}

// The counts from a root, for both variants: one leaf at depth 0 (the position itself), none
// below a finished game, else what `count_below(counts)` adds up.
template <typename AnyPosition, typename CountBelow>
PerftCounts count_from_root(const AnyPosition& position, int depth, CountBelow count_below) {
  PerftCounts counts;
  if (depth <= 0) {
    counts.leaves = 1;
    return counts;
  }
  if (position.is_game_over()) return counts;
  count_below(counts);
  return counts;
}

template <bool kBulk, bool kCancellable = false>
PerftCounts perft_two_player(const Position& position, int depth,
                             const std::atomic<bool>* cancel = nullptr) {
  return count_from_root(position, depth, [&](PerftCounts& counts) {
    const Color mover = position.side_to_move();
    count_two_player<kBulk, kCancellable>(pack(position.cubes(mover), position.cubes(~mover)),
                                          depth, counts, cancel);
  });
}

// The four-player counts work on the two packed words of Position4 (cubes by point: seats 0|1
// and 2|3). OR-ing them gives both team boards, which is all a line check needs.
// depth >= 1; the position (pairs, seat) is one where the game goes on.
template <bool kBulk, bool kCancellable>
void count_four_player(const PackedBoards (&pairs)[2], Seat seat, int depth, PerftCounts& counts,
                       const std::atomic<bool>* cancel) {
  if constexpr (kCancellable)
    if (cancelled(cancel, depth)) return;
  const PackedBoards teams = pairs[0] | pairs[1];
  const Bitboard blanks = kFullBoard & ~Bitboard(teams | teams >> 32);
  const Bitboard own = Bitboard(pairs[seat >> 1] >> (32 * (seat & 1)));
  const Bitboard takeable = kBorder & (blanks | own);
  if (takeable == 0) {  // the pass: the board is unchanged, so the game goes on
    if (depth == 1)
      counts.leaves += 1;
    else
      count_four_player<kBulk, kCancellable>(pairs, next_seat(seat), depth - 1, counts, cancel);
    return;
  }
  if (kBulk && depth == 1) {
    counts.leaves += 2 * slide_count(takeable);
    return;
  }
  const Seat points[2] = {seat, partner_of(seat)};
  for (std::uint64_t slides = slides_from(takeable); slides != 0; slides &= slides - 1) {
    const PackedSlide& slide = kPackedSlides[std::countr_zero(slides)];
    const PackedBoards slid[2] = {apply_packed(slide, pairs[0]), apply_packed(slide, pairs[1])};
    for (const Seat point : points) {
      PackedBoards after[2] = {slid[0], slid[1]};
      after[point >> 1] |= slide.inserted << (32 * (point & 1));
      const bool over = has_line_in_either(after[0] | after[1]);
      if (depth == 1) {
        counts.leaves += 1;
        counts.decisive_leaves += over;
      } else if (!over) {
        count_four_player<kBulk, kCancellable>(after, next_seat(seat), depth - 1, counts, cancel);
      }
    }
  }
}

template <bool kBulk, bool kCancellable = false>
PerftCounts perft_four_player(const Position4& position, int depth,
                              const std::atomic<bool>* cancel = nullptr) {
  return count_from_root(position, depth, [&](PerftCounts& counts) {
    const PackedBoards pairs[2] = {
        pack(position.cubes_pointing_to(0), position.cubes_pointing_to(1)),
        pack(position.cubes_pointing_to(2), position.cubes_pointing_to(3))};
    count_four_player<kBulk, kCancellable>(pairs, position.seat_to_move(), depth, counts, cancel);
  });
}

}  // namespace

std::uint64_t perft(const Position& position, int depth) {
  return perft_two_player<true>(position, depth).leaves;
}

PerftCounts perft_every_leaf(const Position& position, int depth) {
  return perft_two_player<false>(position, depth);
}

std::uint64_t perft(const Position4& position, int depth) {
  return perft_four_player<true>(position, depth).leaves;
}

PerftCounts perft_every_leaf(const Position4& position, int depth) {
  return perft_four_player<false>(position, depth);
}

std::uint64_t perft(const Position& position, int depth, const std::atomic<bool>& cancel) {
  return perft_two_player<true, true>(position, depth, &cancel).leaves;
}

std::uint64_t perft(const Position4& position, int depth, const std::atomic<bool>& cancel) {
  return perft_four_player<true, true>(position, depth, &cancel).leaves;
}

}  // namespace quixo
