// The index of an endgame-table layer: every board with k blank cubes, seen from the side to move,
// maps to one slot, and the 8 symmetric forms of a board map to the same slot.
//
// slot = section_begin(m) + orbit * C(25-k, m) + rank, where m is the number of the mover's cubes,
// `orbit` numbers the blank set's class under the 8 symmetries, and `rank` is the colex rank of
// the mover's cubes among the 25-k squares that are not blank, after the symmetry that maps the
// blank set onto its class's representative. When that representative has symmetries of its own
// (its stabiliser), the smallest rank over them is the canonical one; the other colourings of
// such a blank set are "holes": slots that no board maps to. Sections by m follow from the rules:
// a move that takes one's own cube keeps both cube counts and swaps the sides, so the in-layer
// game graph never leaves the sections m and 25-k-m. docs/design/endgame-tables.md has the why.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/bit_gather.hpp"
#include "core/symmetry.hpp"
#include "core/types.hpp"

namespace quixo::tb {

using Slot = std::uint64_t;

// Tables exist for layers 0..kMaxIndexedLayer; the generator and the probe refuse larger ones.
inline constexpr int kMaxIndexedLayer = 6;

// C(n, r) for 0 <= n, r <= 25 (0 when r > n).
std::uint64_t binomial(int n, int r);

// Fast whole-board symmetry: four byte look-ups.
Bitboard transform_fast(Symmetry symmetry, Bitboard cubes);

// Colex rank of a set of bits (its rank among the sets of the same size in numeric order), and
// the set of `count` bits with a given rank.
std::uint64_t colex_rank(Bitboard bits);
Bitboard colex_unrank(std::uint64_t rank, int count);

// A board as the tables see it: the side to move's cubes and the other side's cubes.
struct TbBoard {
  Bitboard mover = 0;
  Bitboard opponent = 0;
  constexpr bool operator==(const TbBoard&) const = default;
};

class LayerIndex {
 public:
  explicit LayerIndex(int blanks);

  int blanks() const { return blanks_; }
  int cube_count() const { return kSquareCount - blanks_; }
  int orbit_count() const { return int(orbits_.size()); }
  Slot slot_count() const { return section_begin_.back(); }
  // Sections are numbered by the mover's cube count m = 0 .. cube_count().
  int section_count() const { return cube_count() + 1; }
  Slot section_begin(int mover_cubes) const { return section_begin_[mover_cubes]; }
  Slot section_end(int mover_cubes) const { return section_begin_[mover_cubes + 1]; }
  // The section holding `slot`.
  int section_of(Slot slot) const;

  // The slot of a board of this layer (its blank count must be blanks()).
  Slot slot_of(TbBoard board) const;

  // The board stored in `slot` (in the representative's frame), and whether the slot is a hole.
  struct SlotContent {
    TbBoard board;
    bool hole = false;
  };
  SlotContent board_of(Slot slot) const;

  // The number of distinct boards in the class of `board` (8 / the size of its stabiliser): what
  // one slot counts for in the published per-board statistics.
  int class_size(TbBoard board) const;

  // For sweeps over one orbit block of a section: the blank set of an orbit's representative.
  Bitboard orbit_blanks(int orbit) const { return orbits_[orbit].blanks; }

 private:
  struct BlankSetEntry {
    std::uint32_t orbit = 0;
    Symmetry to_representative = Symmetry::Identity;
  };
  struct Orbit {
    Bitboard blanks = 0;
    Bitboard free = 0;                  // squares that hold cubes: the complement of `blanks`
    std::uint8_t stabiliser_count = 0;  // symmetries other than the identity that fix `blanks`
    std::array<Symmetry, kSymmetryCount> stabiliser{};
  };

  // A board's blank-set orbit and its mover's cubes in the frame of the orbit's representative.
  struct Frame {
    std::uint32_t orbit;
    Bitboard mover;
  };
  Frame frame_of(TbBoard board) const;
  std::uint64_t canonical_rank(const Orbit& orbit, Bitboard mover_in_frame) const;

  int blanks_;
  std::vector<BlankSetEntry> blank_sets_;  // indexed by the colex rank of the blank set
  std::vector<Orbit> orbits_;
  std::vector<Slot> section_begin_;  // section_count() + 1 entries
};

}  // namespace quixo::tb
