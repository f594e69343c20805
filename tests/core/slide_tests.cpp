// The 44 slide geometries, applying a slide to bitboards (single and packed) and line detection.
// Every expectation here is worked out by hand from docs/spec.md §1 and §3, or from a
// deliberately naive re-statement of the rule inside the test (never from the engine's output).
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/move_scan.hpp"
#include "core/slide.hpp"
#include "core/types.hpp"
#include "support/board_literals.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using quixo::test::bb;
using quixo::test::sq;

namespace {

// The 12 lines of five, written out square by square.
const std::array<Bitboard, 12>& all_lines() {
  static const std::array<Bitboard, 12> lines = {
      bb("a1 b1 c1 d1 e1"), bb("a2 b2 c2 d2 e2"), bb("a3 b3 c3 d3 e3"), bb("a4 b4 c4 d4 e4"),
      bb("a5 b5 c5 d5 e5"), bb("a1 a2 a3 a4 a5"), bb("b1 b2 b3 b4 b5"), bb("c1 c2 c3 c4 c5"),
      bb("d1 d2 d3 d4 d5"), bb("e1 e2 e3 e4 e5"), bb("a1 b2 c3 d4 e5"), bb("a5 b4 c3 d2 e1"),
  };
  return lines;
}

// The obviously correct line test: is one of the 12 lines entirely inside `cubes`?
bool naive_has_line(Bitboard cubes) {
  for (Bitboard line : all_lines())
    if ((cubes & line) == line) return true;
  return false;
}

// Where a cube on `square` ends up after taking `from` and pushing in at `to`, by the rule of
// docs/spec.md §1 stated with coordinates: -1 if it is the taken cube, the square one step toward
// `from` if it lies between `from` (excluded) and `to` (included), otherwise unchanged.
Square naive_destination(Square from, Square to, Square square) {
  if (square == from) return -1;
  const int ff = from % 5, fr = from / 5, tf = to % 5, tr = to / 5;
  const int sf = square % 5, sr = square / 5;
  if (fr == tr && sr == fr) {  // a slide along the rank
    const int lo = ff < tf ? ff : tf, hi = ff < tf ? tf : ff;
    if (sf < lo || sf > hi) return square;
    return sr * 5 + (tf > ff ? sf - 1 : sf + 1);
  }
  if (ff == tf && sf == ff) {  // a slide along the file
    const int lo = fr < tr ? fr : tr, hi = fr < tr ? tr : fr;
    if (sr < lo || sr > hi) return square;
    return (tr > fr ? sr - 1 : sr + 1) * 5 + sf;
  }
  return square;
}

Bitboard naive_apply(Square from, Square to, Bitboard cubes) {
  Bitboard out = 0;
  for (Square s = 0; s < 25; ++s) {
    if (!(cubes & (Bitboard{1} << s))) continue;
    const Square d = naive_destination(from, to, s);
    if (d >= 0) out |= Bitboard{1} << d;
  }
  return out;
}

const Slide& slide_of(std::string_view from, std::string_view to) {
  const int index = slide_index(sq(from), sq(to));
  BOOST_REQUIRE_MESSAGE(index >= 0, "no slide " << from << to);
  return slide_at(SlideIndex(index));
}

struct DestinationSample {
  std::string from;
  std::string destinations;  // space-separated, empty for inner squares
};
std::ostream& operator<<(std::ostream& out, const DestinationSample& s) {
  return out << s.from << " -> {" << s.destinations << "}";
}

// The whole table worked out by hand: the ends of the rank and of the file, minus the square.
const std::vector<DestinationSample> kDestinations = {
    {"a1", "a5 e1"}, {"b1", "a1 e1 b5"}, {"c1", "a1 e1 c5"}, {"d1", "a1 e1 d5"},
    {"e1", "a1 e5"}, {"a2", "a1 a5 e2"}, {"b2", ""},         {"c2", ""},
    {"d2", ""},      {"e2", "e1 e5 a2"}, {"a3", "a1 a5 e3"}, {"b3", ""},
    {"c3", ""},      {"d3", ""},         {"e3", "e1 e5 a3"}, {"a4", "a1 a5 e4"},
    {"b4", ""},      {"c4", ""},         {"d4", ""},         {"e4", "e1 e5 a4"},
    {"a5", "a1 e5"}, {"b5", "b1 a5 e5"}, {"c5", "c1 a5 e5"}, {"d5", "d1 a5 e5"},
    {"e5", "e1 a5"},
};

struct ApplySample {
  std::string from, to;
  std::string before, after;  // square lists; `after` leaves out the inserted cube
};
std::ostream& operator<<(std::ostream& out, const ApplySample& s) {
  return out << s.from << s.to << ": {" << s.before << "} -> {" << s.after << "}";
}

// Worked by hand: the cubes from the taken square's neighbour up to `to` move one step toward
// the taken square; the taken cube disappears from these boards; everything else stays.
const std::vector<ApplySample> kApplyExamples = {
    // rank 1, pushed in at the high end: c1 d1 e1 slide toward b1
    {"b1", "e1", "a1 c1 e1 c3", "a1 b1 d1 c3"},
    {"b1", "e1", "b1 d1", "c1"},
    // rank 1, pushed in at the low end: a1 b1 c1 slide toward d1, e1 stays
    {"d1", "a1", "a1 c1 d1 e1", "b1 d1 e1"},
    // rank 3 both ways: neighbouring ranks (a4, e2) must not be touched
    {"e3", "a3", "a3 b3 e3 a4 e2", "b3 c3 a4 e2"},
    {"a3", "e3", "a3 b3 e3 e2 a4", "a3 d3 e2 a4"},
    // rank 5, low end to high end and back
    {"a5", "e5", "b5 c5 d5 e5 e4", "a5 b5 c5 d5 e4"},
    {"e5", "a5", "a5 b5 e5 a4", "b5 c5 a4"},
    // file b pushed in at the top: b2..b5 slide down toward b1
    {"b1", "b5", "b2 b4 b5 c2 a5", "b1 b3 b4 c2 a5"},
    // file c pushed in at the bottom: c1..c4 slide up toward c5
    {"c5", "c1", "c1 c3 c5 d5 a1", "c2 c4 d5 a1"},
    // file a and file e, corner to corner
    {"a1", "a5", "a1 a2 a5 b1", "a1 a4 b1"},
    {"e5", "e1", "e1 e4 e5 d5", "e2 e5 d5"},
    // edge squares of the files pushed along their rank
    {"a2", "e2", "a2 c2 e2 e1 a3", "b2 d2 e1 a3"},
    {"e4", "a4", "a4 d4 e4 e5 a3", "b4 e4 e5 a3"},
    // edge squares of the files pushed to the far corner of their own file
    {"a3", "a1", "a1 a2 a3 a4", "a2 a3 a4"},
    {"e2", "e5", "e3 e5 d5", "e2 e4 d5"},
};

std::string names_of(Bitboard board) {
  std::string out;
  for (Square s = 0; s < 25; ++s)
    if (board & (Bitboard{1} << s)) {
      if (!out.empty()) out += ' ';
      out += char('a' + s % 5);
      out += char('1' + s / 5);
    }
  return out;
}

// Five squares starting at `start`, `stride` apart in bit index (may leave the board: returns 0).
Bitboard window(int start, int stride) {
  Bitboard w = 0;
  for (int i = 0; i < 5; ++i) {
    const int bit = start + i * stride;
    if (bit < 0 || bit >= 25) return 0;
    w |= Bitboard{1} << bit;
  }
  return w;
}

bool is_one_of_the_lines(Bitboard board) {
  for (Bitboard line : all_lines())
    if (board == line) return true;
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(slide_tests)

BOOST_AUTO_TEST_CASE(board_masks_match_the_definitions) {
  BOOST_TEST(std::popcount(kBorder) == 16);
  BOOST_TEST(std::popcount(kCorners) == 4);
  BOOST_TEST(std::popcount(kEdges) == 12);
  BOOST_TEST(kCorners == bb("a1 e1 a5 e5"));
  BOOST_TEST(kBorder == bb("a1 b1 c1 d1 e1 a2 e2 a3 e3 a4 e4 a5 b5 c5 d5 e5"));
  BOOST_TEST(kFullBoard == (Bitboard{1} << 25) - 1);
  BOOST_TEST(kFileA == bb("a1 a2 a3 a4 a5"));
  BOOST_TEST(kRank1 == bb("a1 b1 c1 d1 e1"));
  BOOST_TEST(kDiagonalA1E5 == bb("a1 b2 c3 d4 e5"));
  BOOST_TEST(kDiagonalA5E1 == bb("a5 b4 c3 d2 e1"));
  BOOST_TEST(make_square(1, 0) == sq("b1"));
  BOOST_TEST(make_square(4, 4) == sq("e5"));
  BOOST_TEST(file_of(sq("d2")) == 3);
  BOOST_TEST(rank_of(sq("d2")) == 1);
}

BOOST_DATA_TEST_CASE(destinations_of_each_square, bdata::make(kDestinations), sample) {
  const Square from = sq(sample.from);
  const Bitboard expected = bb(sample.destinations);
  const int expected_count = std::popcount(expected);
  // 2 for a corner, 3 for another border square, 0 for an inner square
  BOOST_TEST(expected_count == (is_corner(from) ? 2 : is_border(from) ? 3 : 0));
  Bitboard found = 0;
  for (Square to = 0; to < 25; ++to) {
    const int index = slide_index(from, to);
    if (index < 0) continue;
    BOOST_TEST(index < kSlideCount);
    BOOST_TEST(slide_at(SlideIndex(index)).from == from);
    BOOST_TEST(slide_at(SlideIndex(index)).to == to);
    found |= Bitboard{1} << to;
  }
  BOOST_TEST(names_of(found) == names_of(expected));
  BOOST_TEST(slide_count(Bitboard{1} << from) == expected_count);
  BOOST_TEST(slide_index(from, from) == -1);
}

BOOST_AUTO_TEST_CASE(the_44_slides_are_distinct_and_indexed) {
  BOOST_TEST(kSlideCount == 44);
  std::set<int> indices;
  std::set<std::pair<Square, Square>> pairs;
  for (Square from = 0; from < 25; ++from)
    for (Square to = 0; to < 25; ++to) {
      const int index = slide_index(from, to);
      if (index >= 0) {
        indices.insert(index);
        pairs.insert({from, to});
      }
    }
  BOOST_TEST(indices.size() == 44u);
  BOOST_TEST(pairs.size() == 44u);
  BOOST_TEST(*indices.begin() == 0);
  BOOST_TEST(*indices.rbegin() == 43);
  for (int i = 0; i < kSlideCount; ++i) {
    const Slide& slide = slide_at(SlideIndex(i));
    BOOST_TEST(slide_index(slide.from, slide.to) == i);
    BOOST_TEST(is_border(slide.from));
    BOOST_TEST(is_border(slide.to));
    BOOST_TEST(slide.from != slide.to);
    // the destination shares the rank or the file of the taken square, and is an end of it
    const bool same_rank = rank_of(slide.from) == rank_of(slide.to);
    const bool same_file = file_of(slide.from) == file_of(slide.to);
    BOOST_TEST((same_rank || same_file));
    if (same_rank) BOOST_TEST((file_of(slide.to) == 0 || file_of(slide.to) == 4));
    if (same_file) BOOST_TEST((rank_of(slide.to) == 0 || rank_of(slide.to) == 4));
  }
  BOOST_TEST(slide_count(kBorder) == 44);
  BOOST_TEST(slide_count(kFullBoard) == 44);  // inner squares add nothing
  BOOST_TEST(slide_count(0) == 0);
  BOOST_TEST(slide_count(bb("a1 b1 c3")) == 5);
}

BOOST_AUTO_TEST_CASE(slide_index_rejects_everything_else) {
  BOOST_TEST(slide_index(-1, 0) == -1);
  BOOST_TEST(slide_index(0, -1) == -1);
  BOOST_TEST(slide_index(25, 20) == -1);
  BOOST_TEST(slide_index(20, 25) == -1);
  BOOST_TEST(slide_index(1000, 0) == -1);
  BOOST_TEST(slide_index(sq("c3"), sq("c1")) == -1);  // inner square
  BOOST_TEST(slide_index(sq("b2"), sq("a2")) == -1);  // inner square
  BOOST_TEST(slide_index(sq("b1"), sq("c1")) == -1);  // not an end of rank 1
  BOOST_TEST(slide_index(sq("b1"), sq("b4")) == -1);  // not an end of file b
  BOOST_TEST(slide_index(sq("b1"), sq("e5")) == -1);  // not on its rank or file
  BOOST_TEST(slide_index(sq("a1"), sq("e5")) == -1);  // diagonal
  BOOST_TEST(slide_index(sq("a1"), sq("a1")) == -1);  // back on its own square
  BOOST_TEST(slide_index(sq("b1"), sq("b2")) == -1);  // toward the inside
}

BOOST_AUTO_TEST_CASE(slide_masks_by_hand) {
  const Slide& right = slide_of("b1", "e1");
  BOOST_TEST(right.inserted == bb("e1"));
  BOOST_TEST(right.moving == bb("c1 d1 e1"));
  BOOST_TEST(right.keep == (kFullBoard & ~bb("b1 c1 d1 e1")));
  const Slide& left = slide_of("b1", "a1");
  BOOST_TEST(left.inserted == bb("a1"));
  BOOST_TEST(left.moving == bb("a1"));
  BOOST_TEST(left.keep == (kFullBoard & ~bb("a1 b1")));
  const Slide& up = slide_of("b1", "b5");
  BOOST_TEST(up.inserted == bb("b5"));
  BOOST_TEST(up.moving == bb("b2 b3 b4 b5"));
  const Slide& down = slide_of("e4", "e1");
  BOOST_TEST(down.moving == bb("e1 e2 e3"));
  BOOST_TEST(down.keep == (kFullBoard & ~bb("e1 e2 e3 e4")));
  for (const Slide& slide : kSlides) {
    BOOST_TEST(slide.inserted == (Bitboard{1} << slide.to));
    BOOST_TEST((slide.keep & slide.moving) == 0u);
    BOOST_TEST((slide.keep | slide.moving | (Bitboard{1} << slide.from)) == kFullBoard);
    BOOST_TEST((slide.moving & (Bitboard{1} << slide.from)) == 0u);
  }
}

BOOST_DATA_TEST_CASE(apply_examples_by_hand, bdata::make(kApplyExamples), sample) {
  const Slide& slide = slide_of(sample.from, sample.to);
  const Bitboard before = bb(sample.before);
  BOOST_TEST(names_of(slide.apply(before)) == names_of(bb(sample.after)));
  // the naive coordinate rule agrees with the hand-worked answer
  BOOST_TEST(names_of(naive_apply(sq(sample.from), sq(sample.to), before)) ==
             names_of(bb(sample.after)));
  // packed: the same board in either half, the other half empty
  BOOST_TEST(slide.apply(pack(before, 0)) == pack(bb(sample.after), 0));
  BOOST_TEST(slide.apply(pack(0, before)) == pack(0, bb(sample.after)));
}

BOOST_AUTO_TEST_CASE(apply_on_empty_full_and_single_cubes) {
  for (const Slide& slide : kSlides) {
    BOOST_TEST(slide.apply(Bitboard{0}) == 0u);
    // a full board keeps every square but the destination, which waits for the inserted cube
    BOOST_TEST(slide.apply(kFullBoard) == (kFullBoard & ~slide.inserted));
    BOOST_TEST(slide.apply(Bitboard{1} << slide.from) == 0u);
    // every single cube, by the coordinate rule
    for (Square s = 0; s < 25; ++s) {
      const Bitboard single = Bitboard{1} << s;
      BOOST_TEST_CONTEXT("slide " << names_of(Bitboard{1} << slide.from) << "->"
                                  << names_of(slide.inserted) << " cube " << names_of(single)) {
        BOOST_TEST(names_of(slide.apply(single)) ==
                   names_of(naive_apply(slide.from, slide.to, single)));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(apply_agrees_with_the_naive_rule_on_random_boards) {
  std::mt19937 rng(20240601);
  for (int trial = 0; trial < 2000; ++trial) {
    const Bitboard cubes = Bitboard(rng()) & kFullBoard;
    for (const Slide& slide : kSlides) {
      const Bitboard expected = naive_apply(slide.from, slide.to, cubes);
      BOOST_TEST_REQUIRE(slide.apply(cubes) == expected);
      const int taken = (cubes >> slide.from) & 1;
      BOOST_TEST_REQUIRE(std::popcount(slide.apply(cubes)) == std::popcount(cubes) - taken);
    }
  }
}

BOOST_AUTO_TEST_CASE(packed_apply_is_two_separate_applies) {
  std::mt19937 rng(777);
  for (int trial = 0; trial < 3000; ++trial) {
    const Bitboard low = Bitboard(rng()) & kFullBoard;
    // sometimes disjoint (as two players' boards are), sometimes arbitrary
    const Bitboard high = (Bitboard(rng()) & kFullBoard) & (trial % 2 ? ~low : kFullBoard);
    for (const Slide& slide : kSlides) {
      const PackedBoards result = slide.apply(pack(low, high));
      BOOST_TEST_REQUIRE(result == pack(slide.apply(low), slide.apply(high)));
      BOOST_TEST_REQUIRE((result & ~(both_halves(kFullBoard))) == 0u);  // nothing in the gap
    }
  }
  // full boards in both halves: the gap and the bits above stay empty
  for (const Slide& slide : kSlides)
    BOOST_TEST(slide.apply(pack(kFullBoard, kFullBoard)) ==
               pack(kFullBoard & ~slide.inserted, kFullBoard & ~slide.inserted));
}

BOOST_AUTO_TEST_CASE(pack_layout) {
  BOOST_TEST(pack(1, 0) == 1u);
  BOOST_TEST(pack(0, 1) == (std::uint64_t{1} << 32));
  BOOST_TEST(pack(kFullBoard, kFullBoard) ==
             (std::uint64_t{kFullBoard} | std::uint64_t{kFullBoard} << 32));
  BOOST_TEST(kPackedLow == std::uint64_t{kFullBoard});
}

BOOST_DATA_TEST_CASE(each_of_the_12_lines, bdata::make({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
                     index) {
  const Bitboard line = all_lines()[index];
  BOOST_TEST_CONTEXT("line " << names_of(line)) {
    BOOST_TEST(std::popcount(line) == 5);
    BOOST_TEST(has_line(line));
    BOOST_TEST(has_line(kFullBoard));
    BOOST_TEST(has_line_in_either(pack(line, 0)));
    BOOST_TEST(has_line_in_either(pack(0, line)));
    BOOST_TEST(has_line_in_either(pack(line, line)));
    BOOST_TEST(has_line_in_either(pack(line, kFullBoard & ~line)));
    BOOST_TEST(has_line_in_either(pack(kFullBoard & ~line & ~bb("c3 a1 e5 a5 e1"), line)));
    // near-lines: four of the five, alone and with the rest of the board elsewhere empty
    for (Square s = 0; s < 25; ++s) {
      if (!(line & (Bitboard{1} << s))) continue;
      const Bitboard near = line & ~(Bitboard{1} << s);
      BOOST_TEST(!has_line(near));
      BOOST_TEST(!has_line_in_either(pack(near, 0)));
      BOOST_TEST(!has_line_in_either(pack(0, near)));
      BOOST_TEST(!has_line_in_either(pack(near, near)));
      // the missing cube sits in the other half: still no line in either
      BOOST_TEST(!has_line_in_either(pack(near, Bitboard{1} << s)));
      BOOST_TEST(!has_line_in_either(pack(Bitboard{1} << s, near)));
    }
  }
}

BOOST_AUTO_TEST_CASE(dense_boards_without_a_line) {
  // Full board minus the a1-e5 diagonal: every rank, file and the other diagonal miss a cube.
  const Bitboard no_main = kFullBoard & ~bb("a1 b2 c3 d4 e5");
  BOOST_TEST(std::popcount(no_main) == 20);
  BOOST_TEST(!has_line(no_main));
  const Bitboard no_anti = kFullBoard & ~bb("a5 b4 c3 d2 e1");
  BOOST_TEST(!has_line(no_anti));
  BOOST_TEST(!has_line_in_either(pack(no_main, no_anti)));
  BOOST_TEST(!has_line_in_either(pack(no_anti, no_main)));
  // One square back and lines appear: a1 completes rank 1 and file a.
  BOOST_TEST(has_line(no_main | bb("a1")));
  BOOST_TEST(has_line(no_anti | bb("a5 b4 c3 d2 e1")));
}

// Runs of five bits at every start and stride that line masks are built from: 1 (ranks),
// 5 (files), 6 (a1-e5 diagonal), 4 (a5-e1 diagonal). Only the 12 true lines may count; the
// others cross a rank boundary or wrap around the board edge.
BOOST_DATA_TEST_CASE(bit_runs_that_are_not_lines, bdata::make({1, 4, 5, 6}), stride) {
  int true_lines = 0;
  for (int start = 0; start < 25; ++start) {
    const Bitboard run = window(start, stride);
    if (run == 0) continue;
    const bool expected = is_one_of_the_lines(run);
    true_lines += expected;
    BOOST_TEST_CONTEXT("stride " << stride << " run " << names_of(run)) {
      BOOST_TEST(has_line(run) == expected);
      BOOST_TEST(has_line_in_either(pack(run, 0)) == expected);
      BOOST_TEST(has_line_in_either(pack(0, run)) == expected);
      BOOST_TEST(has_line_in_either(pack(run, run)) == expected);
    }
  }
  // stride 1: the 5 ranks; 4: the a5-e1 diagonal; 5: the 5 files; 6: the a1-e5 diagonal
  BOOST_TEST(true_lines == (stride == 1 || stride == 5 ? 5 : 1));
}

BOOST_AUTO_TEST_CASE(patterns_that_would_fool_wrong_masks) {
  // five consecutive bits across a rank boundary: d1 e1 a2 b2 c2
  BOOST_TEST(!has_line(bb("d1 e1 a2 b2 c2")));
  BOOST_TEST(!has_line_in_either(pack(bb("d1 e1 a2 b2 c2"), 0)));
  BOOST_TEST(!has_line_in_either(pack(0, bb("d1 e1 a2 b2 c2"))));
  // the top rank of the low board followed by the bottom of the high board
  BOOST_TEST(!has_line_in_either(pack(bb("c5 d5 e5"), bb("a1 b1"))));
  BOOST_TEST(!has_line_in_either(pack(bb("d5 e5"), bb("a1 b1 c1"))));
  // a file that runs off the top of the low board into the high board
  BOOST_TEST(!has_line_in_either(pack(bb("c4 c5"), bb("c1 c2 c3"))));
  BOOST_TEST(!has_line_in_either(pack(bb("a3 a4 a5"), bb("a1 a2"))));
  // a diagonal continued in the other half
  BOOST_TEST(!has_line_in_either(pack(bb("c3 d4 e5"), bb("a1 b2"))));
  BOOST_TEST(!has_line_in_either(pack(bb("a1 b2 c3"), bb("d4 e5"))));
  BOOST_TEST(!has_line_in_either(pack(bb("b4 a5"), bb("e1 d2 c3"))));
  // anti-diagonal steps that wrap: e4 a4 b3 c2 d1 and b1 a2 e2 d3 c4
  BOOST_TEST(!has_line(bb("d1 c2 b3 a4 e4")));
  BOOST_TEST(!has_line(bb("b1 a2 e2 d3 c4")));
  BOOST_TEST(!has_line_in_either(pack(bb("d1 c2 b3 a4 e4"), bb("b1 a2 e2 d3 c4"))));
  // diagonal steps (+6 bits) that wrap from file e to file a of the next rank but one
  BOOST_TEST(!has_line(bb("b1 c2 d3 e4 a5")));
  BOOST_TEST(!has_line(bb("a2 b3 c4 d5 e1")));
  BOOST_TEST(!has_line_in_either(pack(bb("b1 c2 d3 e4 a5"), bb("a2 b3 c4 d5 e1"))));
  // a rank made of the wrapping end of one rank and the start of the next
  BOOST_TEST(!has_line(bb("e2 a3 b3 c3 d3")));
  // a line in the high half only, with a near-line in the low half
  BOOST_TEST(has_line_in_either(pack(bb("a1 b1 c1 d1"), bb("e1 e2 e3 e4 e5"))));
  BOOST_TEST(has_line_in_either(pack(bb("a1 b2 c3 d4"), bb("a5 b4 c3 d2 e1"))));
  BOOST_TEST(has_line_in_either(pack(0, bb("a5 b5 c5 d5 e5"))));
  BOOST_TEST(has_line_in_either(pack(0, bb("a1 b2 c3 d4 e5"))));
}

BOOST_AUTO_TEST_CASE(has_line_on_every_board) {
  // All 2^25 boards against the naive test.
  std::uint64_t mismatches = 0;
  std::uint64_t with_line = 0;
  for (Bitboard cubes = 0; cubes <= kFullBoard; ++cubes) {
    const bool expected = naive_has_line(cubes);
    with_line += expected;
    mismatches += has_line(cubes) != expected;
  }
  BOOST_TEST(mismatches == 0u);
  BOOST_TEST(with_line > 0u);
}

BOOST_AUTO_TEST_CASE(has_line_in_either_on_random_pairs) {
  std::mt19937 rng(4242);
  std::bernoulli_distribution coin(0.5);
  int mismatches = 0, pairs_with_line = 0;
  std::string first_mismatch;
  for (int trial = 0; trial < 300000; ++trial) {
    // dense boards make lines likely: OR of two or three random words
    Bitboard low = Bitboard(rng()) | Bitboard(rng());
    Bitboard high = Bitboard(rng()) | Bitboard(rng());
    if (coin(rng)) low |= Bitboard(rng());
    if (coin(rng)) high |= Bitboard(rng());
    low &= kFullBoard;
    high &= kFullBoard;
    if (trial % 3 == 0) high &= ~low;  // disjoint, as two players' boards are
    const bool low_line = naive_has_line(low), high_line = naive_has_line(high);
    pairs_with_line += low_line || high_line;
    const bool ok = has_line_in_either(pack(low, high)) == (low_line || high_line) &&
                    has_line_in_either(pack(low, 0)) == low_line &&
                    has_line_in_either(pack(0, high)) == high_line;
    if (!ok && mismatches++ == 0)
      first_mismatch = "low {" + names_of(low) + "} high {" + names_of(high) + "}";
  }
  BOOST_TEST(mismatches == 0, "first mismatch: " << first_mismatch);
  BOOST_TEST(pairs_with_line > 1000);  // the sample really exercises lines
}

// scan_moves against the rule itself: each legal move made square by square, then the lines
// looked for one by one. Boards from sparse to nearly full, so that lines four-fifths done
// across the moved rank or file, and on both diagonals, are common.
BOOST_AUTO_TEST_CASE(scan_moves_agrees_with_the_naive_rule_on_random_positions) {
  std::mt19937 rng(20261128);
  int positions = 0, wins = 0, losses = 0;
  while (positions < 20000) {
    const int blanks_in_eight = int(rng() % 8);  // 0/8 to 7/8 of the squares blank on average
    Bitboard mover = 0, opponent = 0;
    for (Square s = 0; s < 25; ++s) {
      if (int(rng() % 8) < blanks_in_eight) continue;
      (rng() % 2 ? mover : opponent) |= Bitboard{1} << s;
    }
    if (naive_has_line(mover) || naive_has_line(opponent)) continue;
    ++positions;
    MoveScan expected;
    for (int i = 0; i < kSlideCount; ++i) {
      const Slide& slide = kSlides[i];
      if (opponent & (Bitboard{1} << slide.from)) continue;
      const SlideSet bit = SlideSet{1} << i;
      expected.legal |= bit;
      const bool mover_line =
          naive_has_line(naive_apply(slide.from, slide.to, mover) | (Bitboard{1} << slide.to));
      const bool opponent_line = naive_has_line(naive_apply(slide.from, slide.to, opponent));
      if (opponent_line) expected.losses |= bit;
      if (mover_line && !opponent_line) expected.wins |= bit;
    }
    const MoveScan scan = scan_moves(pack(mover, opponent));
    // The other side's scan from this side's holes, halves swapped, as the search makes it.
    const MoveScan other =
        scan_moves(pack(opponent, mover), swap_halves(line_holes(pack(mover, opponent))));
    const MoveScan other_expected = scan_moves(pack(opponent, mover));
    BOOST_TEST_CONTEXT("mover {" << names_of(mover) << "} opponent {" << names_of(opponent)
                                 << "}") {
      BOOST_TEST_REQUIRE(scan.legal == expected.legal);
      BOOST_TEST_REQUIRE(scan.wins == expected.wins);
      BOOST_TEST_REQUIRE(scan.losses == expected.losses);
      BOOST_TEST_REQUIRE(other.legal == other_expected.legal);
      BOOST_TEST_REQUIRE(other.wins == other_expected.wins);
      BOOST_TEST_REQUIRE(other.losses == other_expected.losses);
    }
    wins += std::popcount(expected.wins);
    losses += std::popcount(expected.losses);
  }
  BOOST_TEST(wins > 5000);  // the sample really exercises both kinds of line
  BOOST_TEST(losses > 3000);
}

BOOST_AUTO_TEST_CASE(outcome_of_from_lines_and_side) {
  const Bitboard line = bb("a2 b2 c2 d2 e2");
  const Bitboard near = bb("a4 b4 c4 d4");
  // nobody has a line
  BOOST_TEST((outcome_of(near, bb("a1"), Color::X) == Outcome::Ongoing));
  // the side that just moved made its own line: it wins
  BOOST_TEST((outcome_of(near, line, Color::X) == Outcome::OWins));
  BOOST_TEST((outcome_of(near, line, Color::O) == Outcome::XWins));
  // the side that just moved made the line of the side to move: the side to move wins
  BOOST_TEST((outcome_of(line, near, Color::X) == Outcome::XWins));
  BOOST_TEST((outcome_of(line, near, Color::O) == Outcome::OWins));
  // both lines: the side that just moved loses
  BOOST_TEST((outcome_of(line, bb("a1 b1 c1 d1 e1"), Color::X) == Outcome::XWins));
  BOOST_TEST((outcome_of(line, bb("a1 b1 c1 d1 e1"), Color::O) == Outcome::OWins));
  BOOST_TEST((~Color::X == Color::O));
  BOOST_TEST((~Color::O == Color::X));
  BOOST_TEST((win_for(Color::X) == Outcome::XWins));
  BOOST_TEST((win_for(Color::O) == Outcome::OWins));
}

BOOST_AUTO_TEST_SUITE_END()
