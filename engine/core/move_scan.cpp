#include "move_scan.hpp"

#include <cstring>

namespace quixo {

namespace {

// Several moves at a time: GCC vector extensions make and check all 44 geometries of a position,
// and the legal ones are kept through the legal mask; that is cheaper than walking the legal
// moves one by one. Four 64-bit lanes where the target has 256-bit vectors (AVX2 with
// -march=native; SSE2 splits them in two), two in WebAssembly, whose SIMD has 128 bits.
//
// The moves are grouped by the way their cubes slide: one square up or down along a rank, five
// along a file; 11 moves each. Inside a group every lane shifts by the same constant, which
// WebAssembly and SSE2 do in one instruction, where a shift by a different count per lane is
// split into scalar code there.
#ifdef __wasm_simd128__
constexpr int kLaneCount = 2;
#else
constexpr int kLaneCount = 4;
#endif
using Lanes = std::uint64_t __attribute__((vector_size(8 * kLaneCount)));
// The same registers seen as 32-bit halves: the mover's board, then the opponent's, per move.
using HalfLanes = std::uint32_t __attribute__((vector_size(8 * kLaneCount)));

enum SlideDirection { kUpOneSquare, kDownOneSquare, kUpOneRank, kDownOneRank, kDirectionCount };
constexpr int kSlidesPerDirection = kSlideCount / kDirectionCount;
constexpr int kGroupsPerDirection = (kSlidesPerDirection + kLaneCount - 1) / kLaneCount;
constexpr int kPaddedPerDirection = kGroupsPerDirection * kLaneCount;
constexpr int kGroupCount = kDirectionCount * kGroupsPerDirection;
static_assert(kGroupCount <= 32, "one bit per group in a 32-bit half-lane");

constexpr SlideDirection direction_of(const PackedSlide& slide) {
  if (slide.shift_up == 1) return kUpOneSquare;
  if (slide.shift_down == 1) return kDownOneSquare;
  return slide.shift_up != 0 ? kUpOneRank : kDownOneRank;
}

constexpr bool along_rank(SlideDirection direction) {
  return direction == kUpOneSquare || direction == kDownOneSquare;
}

// Structure-of-arrays, so each group of moves is aligned loads. Padding lanes keep nothing,
// insert nothing and have no line of their own: they never show a line.
struct DirectionTables {
  alignas(32) std::uint64_t keep[kDirectionCount][kPaddedPerDirection]{};
  alignas(32) std::uint64_t moving[kDirectionCount][kPaddedPerDirection]{};
  alignas(32) std::uint64_t inserted[kDirectionCount][kPaddedPerDirection]{};
  alignas(32) std::uint64_t own_line[kDirectionCount][kPaddedPerDirection]{};  // rank or file
  int slide_index[kDirectionCount][kPaddedPerDirection]{};  // -1 in padding lanes
};

constexpr DirectionTables make_direction_tables() {
  DirectionTables tables;
  for (auto& direction : tables.slide_index)
    for (int& index : direction) index = -1;
  int filled[kDirectionCount] = {};
  for (int i = 0; i < kSlideCount; ++i) {
    const PackedSlide& slide = kPackedSlides[i];
    const SlideDirection direction = direction_of(slide);
    const int lane = filled[direction]++;
    const Square to = kSlides[i].to;
    tables.keep[direction][lane] = slide.keep;
    tables.moving[direction][lane] = slide.moving;
    tables.inserted[direction][lane] = slide.inserted;
    tables.own_line[direction][lane] = both_halves(
        along_rank(direction) ? kRank1 << (kBoardSize * rank_of(to)) : kFileA << file_of(to));
    tables.slide_index[direction][lane] = i;
  }
  return tables;
}
alignas(32) constexpr DirectionTables kDirectionSlides = make_direction_tables();

// The scan shifts one bit per group into each half-lane, set where that group's move made a line,
// so each half-lane ends up holding a set of groups, the last group in bit 0. These tables turn
// such a set, a byte at a time, back into slide indices.
constexpr int kGroupBytes = (kGroupCount + 7) / 8;
struct GroupToSlideTables {
  std::uint64_t slides[kLaneCount][kGroupBytes][256]{};
};

constexpr GroupToSlideTables make_group_to_slide_tables() {
  GroupToSlideTables tables;
  for (int lane = 0; lane < kLaneCount; ++lane)
    for (int byte = 0; byte < kGroupBytes; ++byte)
      for (int groups = 0; groups < 256; ++groups)
        for (int bit = 0; bit < 8; ++bit) {
          const int group = kGroupCount - 1 - (byte * 8 + bit);  // the first group shifted in
          if (!(groups >> bit & 1) || group < 0) continue;       // goes furthest up
          const int index =
              kDirectionSlides.slide_index[group / kGroupsPerDirection]
                                          [group % kGroupsPerDirection * kLaneCount + lane];
          if (index >= 0) tables.slides[lane][byte][groups] |= std::uint64_t{1} << index;
        }
  return tables;
}
constexpr GroupToSlideTables kGroupToSlides = make_group_to_slide_tables();

SlideSet slides_of_groups(int lane, std::uint32_t groups) {
  SlideSet slides = 0;
  for (int byte = 0; byte < kGroupBytes; ++byte)
    slides |= kGroupToSlides.slides[lane][byte][(groups >> (8 * byte)) & 255];
  return slides;
}

inline Lanes load_lanes(const std::uint64_t* first) {
  Lanes lanes;
  std::memcpy(&lanes, first, sizeof lanes);
  return lanes;
}

// Where a cube would complete a line: the squares whose line of the given kind (through the
// square) holds the board's cubes on its four other squares. For both packed boards at once.
//
// Files: the board rotated within each file by one to four ranks, and-ed. Each part is masked
// to its own half, as shifts by up to 20 squares reach across the gap.
constexpr PackedBoards file_holes(PackedBoards boards) {
  PackedBoards holes = both_halves(kFullBoard);
  for (int ranks = 1; ranks < kBoardSize; ++ranks) {
    const int down = kBoardSize * ranks, up = kBoardSize * (kBoardSize - ranks);
    const Bitboard first_ranks = (Bitboard{1} << down) - 1;  // the ranks that wrap around
    holes &= ((boards >> down) & both_halves(kFullBoard >> down)) |
             ((boards & both_halves(first_ranks)) << up);
  }
  return holes;
}

// Ranks: the same with rotations within each rank.
constexpr PackedBoards rank_holes(PackedBoards boards) {
  PackedBoards holes = both_halves(kFullBoard);
  for (int files = 1; files < kBoardSize; ++files) {
    Bitboard low_files = 0;  // the files that rotate down without leaving the rank
    for (int file = files; file < kBoardSize; ++file) low_files |= kFileA << file;
    holes &= ((boards & both_halves(low_files)) >> files) |
             ((boards & both_halves(kFullBoard & ~low_files)) << (kBoardSize - files));
  }
  return holes & both_halves(kFullBoard);
}

// Diagonals: the one missing square of a diagonal that has four of the board's cubes.
constexpr Bitboard diagonal_hole(Bitboard board, Bitboard diagonal) {
  const Bitboard missing = diagonal & ~board;
  return (missing & (missing - 1)) == 0 ? missing : 0;
}
constexpr PackedBoards diagonal_holes(PackedBoards boards) {
  const Bitboard low = Bitboard(boards & kPackedLow), high = Bitboard(boards >> 32);
  return pack(diagonal_hole(low, kDiagonalA1E5) | diagonal_hole(low, kDiagonalA5E1),
              diagonal_hole(high, kDiagonalA1E5) | diagonal_hole(high, kDiagonalA5E1));
}

// A move changes only the squares of its own rank or file, and the position has no line. So a
// line after the move is either that rank or file, or a line across it completed on one of its
// squares: a square of `holes` (the crossing lines' holes) now holding a cube.
template <SlideDirection direction>
inline void scan_direction(const DirectionTables& tables, Lanes boards, Lanes holes,
                           HalfLanes& no_lines) {
  for (int group = 0; group < kGroupsPerDirection; ++group) {
    const int first = group * kLaneCount;
    const Lanes moving = boards & load_lanes(&tables.moving[direction][first]);
    Lanes slid;
    if constexpr (direction == kUpOneSquare) slid = moving << 1;
    if constexpr (direction == kDownOneSquare) slid = moving >> 1;
    if constexpr (direction == kUpOneRank) slid = moving << kBoardSize;
    if constexpr (direction == kDownOneRank) slid = moving >> kBoardSize;
    const Lanes after = (boards & load_lanes(&tables.keep[direction][first])) | slid |
                        load_lanes(&tables.inserted[direction][first]);
    const HalfLanes own_line = HalfLanes(load_lanes(&tables.own_line[direction][first]));
    const HalfLanes no_line =
        (HalfLanes(after & holes) == 0) & ~((HalfLanes(after) & own_line) == own_line);
    // Shifting in one bit per group costs no constant: a mask is -1 where it holds.
    no_lines = (no_lines << 1) - no_line;
  }
}

}  // namespace

LineHoles line_holes(PackedBoards boards) {
  const PackedBoards diagonals = diagonal_holes(boards);
  return {file_holes(boards) | diagonals, rank_holes(boards) | diagonals};
}

MoveScan scan_moves(PackedBoards boards, const LineHoles& holes) {
  const DirectionTables* tables = &kDirectionSlides;
#ifdef __wasm__
  // Hides the tables' contents from the compiler, so that it loads them rather than writing
  // each mask as a 128-bit constant: V8 builds such a constant from two 64-bit immediates (five
  // instructions), and this loop is fully unrolled. Bench in Node.js: 18 % faster.
  __asm__("" : "+r"(tables));
#endif
  const Lanes board_lanes = Lanes{} + boards;
  const Lanes across_ranks = Lanes{} + holes.across_ranks;
  const Lanes across_files = Lanes{} + holes.across_files;
  HalfLanes no_lines = {};
  scan_direction<kUpOneSquare>(*tables, board_lanes, across_ranks, no_lines);
  scan_direction<kDownOneSquare>(*tables, board_lanes, across_ranks, no_lines);
  scan_direction<kUpOneRank>(*tables, board_lanes, across_files, no_lines);
  scan_direction<kDownOneRank>(*tables, board_lanes, across_files, no_lines);
  SlideSet mover_lines = 0, opponent_lines = 0;
  for (int lane = 0; lane < kLaneCount; ++lane) {
    mover_lines |= slides_of_groups(lane, ~no_lines[2 * lane]);
    opponent_lines |= slides_of_groups(lane, ~no_lines[2 * lane + 1]);
  }
  MoveScan scan;
  scan.legal = slides_from(kBorder & ~Bitboard(boards >> 32));
  scan.wins = mover_lines & ~opponent_lines & scan.legal;
  scan.losses = opponent_lines & scan.legal;
  return scan;
}

}  // namespace quixo
