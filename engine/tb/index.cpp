#include "tb/index.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace quixo::tb {

namespace {

struct Binomials {
  std::array<std::array<std::uint64_t, 33>, 33> value{};
  constexpr Binomials() {
    for (int n = 0; n <= 32; ++n) {
      value[n][0] = 1;
      for (int r = 1; r <= n; ++r)
        value[n][r] = value[n - 1][r - 1] + (r < n ? value[n - 1][r] : 0);
    }
  }
};
constexpr Binomials kBinomials;

// rank_part[chunk][bits below the chunk][byte]: the colex rank's terms C(position, index + 1) of
// the set bits of one byte, given how many set bits the lower bytes hold.
struct RankTables {
  std::array<std::array<std::array<std::uint32_t, 256>, 26>, 4> part{};
  constexpr RankTables() {
    for (int chunk = 0; chunk < 4; ++chunk)
      for (int below = 0; below < 26; ++below)
        for (int byte = 0; byte < 256; ++byte) {
          std::uint64_t sum = 0;
          int index = below;
          for (int bit = 0; bit < 8; ++bit)
            if (byte & (1 << bit)) {
              const int position = chunk * 8 + bit;
              if (position <= 32 && index + 1 <= 32) sum += kBinomials.value[position][index + 1];
              ++index;
            }
          part[chunk][below][byte] = std::uint32_t(sum);
        }
  }
};
// Built at start-up: clang's constant evaluator gives up on this many steps.
const RankTables kRankTables;

// image[symmetry][chunk][byte]: the squares that the set bits of one byte of a board go to.
struct TransformTables {
  std::array<std::array<std::array<Bitboard, 256>, 4>, kSymmetryCount> image{};
  constexpr TransformTables() {
    for (int s = 0; s < kSymmetryCount; ++s)
      for (int chunk = 0; chunk < 4; ++chunk)
        for (int byte = 0; byte < 256; ++byte) {
          Bitboard bits = 0;
          for (int bit = 0; bit < 8; ++bit) {
            const Square square = chunk * 8 + bit;
            if ((byte & (1 << bit)) && square < kSquareCount)
              bits |= square_bb(transform(kAllSymmetries[s], square));
          }
          image[s][chunk][byte] = bits;
        }
  }
};
const TransformTables kTransformTables;

}  // namespace

std::uint64_t binomial(int n, int r) {
  if (n < 0 || r < 0 || r > n || n > 32) return 0;
  return kBinomials.value[n][r];
}

Bitboard transform_fast(Symmetry symmetry, Bitboard cubes) {
  const auto& image = kTransformTables.image[int(symmetry)];
  return image[0][cubes & 0xff] | image[1][(cubes >> 8) & 0xff] | image[2][(cubes >> 16) & 0xff] |
         image[3][(cubes >> 24) & 0xff];
}

std::uint64_t colex_rank(Bitboard bits) {
  const int below1 = std::popcount(bits & 0xffu);
  const int below2 = below1 + std::popcount(bits & 0xff00u);
  const int below3 = below2 + std::popcount(bits & 0xff0000u);
  return std::uint64_t(kRankTables.part[0][0][bits & 0xff]) +
         kRankTables.part[1][below1][(bits >> 8) & 0xff] +
         kRankTables.part[2][below2][(bits >> 16) & 0xff] +
         kRankTables.part[3][below3][(bits >> 24) & 0xff];
}

Bitboard colex_unrank(std::uint64_t rank, int count) {
  Bitboard bits = 0;
  int position = 31;
  for (int index = count; index >= 1; --index) {
    // the largest position with C(position, index) <= rank
    while (position >= 0 && kBinomials.value[position][index] > rank) --position;
    rank -= kBinomials.value[position][index];
    bits |= square_bb(position);
    --position;
  }
  return bits;
}

LayerIndex::LayerIndex(int blanks) : blanks_(blanks) {
  if (blanks < 0 || blanks > kMaxIndexedLayer)
    throw std::invalid_argument("no table index for " + std::to_string(blanks) + " blank cubes");
  // Blank sets in colex order; a set's orbit is numbered when its smallest member is met, and
  // that member (the smallest bitboard of the orbit, met first in numeric order) represents it.
  blank_sets_.resize(binomial(kSquareCount, blanks));
  std::vector<bool> seen(blank_sets_.size(), false);
  const Bitboard first = blanks == 0 ? 0 : (Bitboard{1} << blanks) - 1;
  for (Bitboard set = first;;) {
    const std::uint64_t rank = colex_rank(set);
    if (!seen[rank]) {
      Orbit orbit;
      orbit.blanks = set;
      orbit.free = kFullBoard & ~set;
      for (Symmetry g : kAllSymmetries) {
        const Bitboard image = transform_fast(g, set);
        if (g != Symmetry::Identity && image == set) orbit.stabiliser[orbit.stabiliser_count++] = g;
        const std::uint64_t image_rank = colex_rank(image);
        if (!seen[image_rank]) {
          seen[image_rank] = true;
          blank_sets_[image_rank] = {std::uint32_t(orbits_.size()), inverse(g)};
        }
      }
      orbits_.push_back(orbit);
    }
    if (set == 0) break;
    // next set of the same size in numeric order (Gosper's hack); stop past 25 squares
    const Bitboard lowest = set & -set;
    const Bitboard ripple = set + lowest;
    const Bitboard next = (((ripple ^ set) >> 2) / lowest) | ripple;
    if (next > kFullBoard || next < set) break;
    set = next;
  }
  section_begin_.resize(section_count() + 1);
  Slot begin = 0;
  for (int m = 0; m <= cube_count(); ++m) {
    section_begin_[m] = begin;
    begin += Slot(orbits_.size()) * binomial(cube_count(), m);
  }
  section_begin_.back() = begin;
}

int LayerIndex::section_of(Slot slot) const {
  const auto it = std::upper_bound(section_begin_.begin(), section_begin_.end(), slot);
  return int(it - section_begin_.begin()) - 1;
}

std::uint64_t LayerIndex::canonical_rank(const Orbit& orbit, Bitboard mover_in_frame) const {
  std::uint64_t best = colex_rank(extract_bits(mover_in_frame, orbit.free));
  for (int i = 0; i < orbit.stabiliser_count; ++i)
    best = std::min(best, colex_rank(extract_bits(
                              transform_fast(orbit.stabiliser[i], mover_in_frame), orbit.free)));
  return best;
}

LayerIndex::Frame LayerIndex::frame_of(TbBoard board) const {
  const Bitboard blank_set = kFullBoard & ~(board.mover | board.opponent);
  const BlankSetEntry& entry = blank_sets_[colex_rank(blank_set)];
  return {entry.orbit, transform_fast(entry.to_representative, board.mover)};
}

Slot LayerIndex::slot_of(TbBoard board) const {
  const auto [orbit_number, mover] = frame_of(board);
  const Orbit& orbit = orbits_[orbit_number];
  const int m = std::popcount(board.mover);
  return section_begin_[m] + Slot(orbit_number) * binomial(cube_count(), m) +
         canonical_rank(orbit, mover);
}

LayerIndex::SlotContent LayerIndex::board_of(Slot slot) const {
  const int m = section_of(slot);
  const std::uint64_t per_orbit = binomial(cube_count(), m);
  const Slot offset = slot - section_begin_[m];
  const Orbit& orbit = orbits_[offset / per_orbit];
  const std::uint64_t rank = offset % per_orbit;
  const Bitboard mover = deposit_bits(colex_unrank(rank, m), orbit.free);
  SlotContent content;
  content.board = {mover, orbit.free & ~mover};
  content.hole = canonical_rank(orbit, mover) != rank;
  return content;
}

int LayerIndex::class_size(TbBoard board) const {
  const auto [orbit_number, mover] = frame_of(board);
  const Orbit& orbit = orbits_[orbit_number];
  int fixed = 1;
  for (int i = 0; i < orbit.stabiliser_count; ++i)
    fixed += transform_fast(orbit.stabiliser[i], mover) == mover;
  return kSymmetryCount / fixed;
}

}  // namespace quixo::tb
