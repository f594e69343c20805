#include "move_scan.hpp"

#include <array>
#include <cstring>

namespace quixo {

namespace {

// Four moves at a time: GCC vector extensions (AVX2 with -march=native, SSE2 or scalar code
// elsewhere) make and check all 44 geometries of a position, and the legal ones are kept through
// the legal mask; that is cheaper than walking the legal moves one by one. Tables are laid out
// structure-of-arrays so each group of four moves is five aligned loads.
using Lanes = std::uint64_t __attribute__((vector_size(32)));
constexpr int kLaneCount = 4;
constexpr int kSlideGroups = (kSlideCount + kLaneCount - 1) / kLaneCount;
constexpr int kPaddedSlides = kSlideGroups * kLaneCount;
using LaneTable = std::array<std::uint64_t, kPaddedSlides>;

struct LaneSlideTables {
  alignas(32) LaneTable keep{};
  alignas(32) LaneTable moving{};
  alignas(32) LaneTable inserted{};
  alignas(32) LaneTable shift_up{};
  alignas(32) LaneTable shift_down{};
};

constexpr LaneSlideTables make_lane_slide_tables() {
  LaneSlideTables tables;
  for (int i = 0; i < kSlideCount; ++i) {
    const PackedSlide& slide = kPackedSlides[i];
    tables.keep[i] = slide.keep;
    tables.moving[i] = slide.moving;
    tables.inserted[i] = slide.inserted;
    tables.shift_up[i] = slide.shift_up;
    tables.shift_down[i] = slide.shift_down;
  }
  return tables;
}
alignas(32) constexpr LaneSlideTables kLaneSlides = make_lane_slide_tables();

inline Lanes load_lanes(const LaneTable& table, int group) {
  Lanes lanes;
  std::memcpy(&lanes, table.data() + group * kLaneCount, sizeof lanes);
  return lanes;
}

// The line-start bits of has_line_in_either(), four boards at once: nonzero in the low half of
// a lane where the low board has a line, in the high half where the high board has one.
inline Lanes line_starts(Lanes b) {
  Lanes ranks = b & (b >> 1);
  ranks &= (ranks >> 2) & (b >> 4);
  Lanes files = b & (b >> 5);
  files &= (files >> 10) & (b >> 20);
  Lanes diagonal = b & (b >> 6);
  diagonal &= (diagonal >> 12) & (b >> 24);
  Lanes anti_diagonal = b & (b >> 4);
  anti_diagonal &= (anti_diagonal >> 8) & (b >> 16);
  return (ranks & both_halves(kFileA)) | files | diagonal | (anti_diagonal & both_halves(1u << 4));
}

}  // namespace

MoveScan scan_moves(PackedBoards boards) {
  const Lanes board_lanes = Lanes{} + boards;
  const Lanes first_lane_bits = {1, 2, 4, 8};
  Lanes wins = {}, losses = {};
  for (int group = 0; group < kSlideGroups; ++group) {
    const Lanes after = (board_lanes & load_lanes(kLaneSlides.keep, group)) |
                        (((board_lanes & load_lanes(kLaneSlides.moving, group))
                          << load_lanes(kLaneSlides.shift_up, group)) >>
                         load_lanes(kLaneSlides.shift_down, group)) |
                        load_lanes(kLaneSlides.inserted, group);
    const Lanes lines = line_starts(after);
    const Lanes mover_line = (lines & kPackedLow) != 0;  // ~0 where true
    const Lanes opponent_line = (lines >> 32) != 0;
    const Lanes lane_bits = first_lane_bits << (group * kLaneCount);
    wins |= mover_line & ~opponent_line & lane_bits;
    losses |= opponent_line & lane_bits;
  }
  MoveScan scan;
  scan.legal = slides_from(kBorder & ~Bitboard(boards >> 32));
  scan.wins = (wins[0] | wins[1] | wins[2] | wins[3]) & scan.legal;
  scan.losses = (losses[0] | losses[1] | losses[2] | losses[3]) & scan.legal;
  return scan;
}

}  // namespace quixo
