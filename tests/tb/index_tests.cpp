// The endgame tables' index (engine/tb/index.hpp): colex ranks are a bijection, the 8 symmetric
// images of a board share its slot, a slot's board maps back to it, and the classes (non-hole
// slots) and blank-set orbits are exactly as many as Burnside's lemma counts, computed here from
// the cycles of the core's square symmetries rather than from the index's own tables.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "core/symmetry.hpp"
#include "support/sanitizers.hpp"
#include "tb/index.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::tb;

namespace {

// The cycle lengths of a symmetry acting on the 25 squares.
std::vector<int> cycle_lengths(Symmetry g) {
  std::vector<int> lengths;
  std::vector<bool> seen(kSquareCount, false);
  for (Square start = 0; start < kSquareCount; ++start) {
    if (seen[start]) continue;
    int length = 0;
    for (Square s = start; !seen[s]; s = transform(g, s)) {
      seen[s] = true;
      ++length;
    }
    lengths.push_back(length);
  }
  return lengths;
}

// Burnside: the number of classes of colourings with exactly `blanks` blank squares, where every
// other square takes one of `colours` colours (1: blank sets only; 2: mover or opponent).
std::uint64_t burnside(int blanks, int colours) {
  std::uint64_t fixed_total = 0;
  for (Symmetry g : kAllSymmetries) {
    // coefficient of t^blanks in the product over cycles of (t^length + colours)
    std::vector<std::uint64_t> poly(kSquareCount + 1, 0);
    poly[0] = 1;
    for (int length : cycle_lengths(g)) {
      std::vector<std::uint64_t> next(kSquareCount + 1, 0);
      for (int d = 0; d <= kSquareCount; ++d) {
        if (!poly[d]) continue;
        next[d] += poly[d] * std::uint64_t(colours);
        if (d + length <= kSquareCount) next[d + length] += poly[d];
      }
      poly = next;
    }
    fixed_total += poly[blanks];
  }
  return fixed_total / kSymmetryCount;
}

// A random board with exactly `blanks` blank squares.
TbBoard random_board(std::mt19937_64& random, int blanks) {
  std::vector<Square> squares(kSquareCount);
  for (Square s = 0; s < kSquareCount; ++s) squares[s] = s;
  std::shuffle(squares.begin(), squares.end(), random);
  const int mover_count = int(random() % std::uint64_t(kSquareCount - blanks + 1));
  TbBoard board;
  for (int i = blanks; i < kSquareCount; ++i)
    (i - blanks < mover_count ? board.mover : board.opponent) |= square_bb(squares[i]);
  return board;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(index_tests)

BOOST_AUTO_TEST_CASE(burnside_counts_are_those_of_the_design) {
  // docs/design/endgame-tables.md, section 1
  const std::uint64_t orbits[] = {1, 6, 49, 319, 1666};
  const std::uint64_t classes[] = {4211744, 52470288, 314701824, 1206090752, 3316532832};
  for (int k = 0; k <= 4; ++k) {
    BOOST_TEST(burnside(k, 1) == orbits[k]);
    BOOST_TEST(burnside(k, 2) == classes[k]);
  }
}

BOOST_DATA_TEST_CASE(colex_rank_and_unrank_are_inverse,
                     bdata::make({0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                  13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25}),
                     count) {
  std::mt19937_64 random(std::uint64_t(count) + 11);
  const std::uint64_t total = binomial(25, count);
  std::vector<std::uint64_t> ranks = {0, total - 1, total / 2};
  for (int i = 0; i < 200; ++i) ranks.push_back(random() % total);
  for (const std::uint64_t rank : ranks) {
    const Bitboard bits = colex_unrank(rank, count);
    BOOST_TEST(std::popcount(bits) == count);
    BOOST_TEST((bits & ~kFullBoard) == 0u);
    BOOST_TEST(colex_rank(bits) == rank);
  }
  // colex order is numeric order: consecutive ranks give increasing sets
  if (total > 1) BOOST_TEST(colex_unrank(0, count) < colex_unrank(1, count));
}

BOOST_AUTO_TEST_CASE(bit_gather_and_scatter_are_inverse) {
  std::mt19937_64 random(5);
  for (int i = 0; i < 1000; ++i) {
    const auto mask = Bitboard(random()) & kFullBoard;
    const auto value = Bitboard(random()) & mask;
    const Bitboard gathered = extract_bits(value, mask);
    BOOST_TEST(gathered < (Bitboard{1} << std::popcount(mask)));
    BOOST_TEST(deposit_bits(gathered, mask) == value);
  }
}

BOOST_DATA_TEST_CASE(fast_transform_matches_the_core, bdata::make({0, 1, 2, 3, 4, 5, 6, 7}),
                     index) {
  const Symmetry g = kAllSymmetries[index];
  std::mt19937_64 random{std::uint64_t(index)};
  for (int i = 0; i < 500; ++i) {
    const auto board = Bitboard(random()) & kFullBoard;
    BOOST_TEST(transform_fast(g, board) == transform(g, board));
  }
}

BOOST_DATA_TEST_CASE(orbits_and_slot_counts, bdata::make({0, 1, 2, 3, 4}), blanks) {
  const LayerIndex index(blanks);
  BOOST_TEST(std::uint64_t(index.orbit_count()) == burnside(blanks, 1));
  BOOST_TEST(index.slot_count() == std::uint64_t(index.orbit_count()) << (25 - blanks));
  BOOST_TEST(index.section_count() == 26 - blanks);
  for (int m = 0; m < index.section_count(); ++m) {
    BOOST_TEST(index.section_end(m) - index.section_begin(m) ==
               std::uint64_t(index.orbit_count()) * binomial(25 - blanks, m));
    BOOST_TEST(index.section_of(index.section_begin(m)) == m);
  }
}

BOOST_DATA_TEST_CASE(symmetric_boards_share_a_slot_that_maps_back,
                     bdata::make({0, 1, 2, 3, 4, 5, 6}), blanks) {
  const LayerIndex index(blanks);
  std::mt19937_64 random(std::uint64_t(blanks) * 977 + 3);
  for (int i = 0; i < 2000; ++i) {
    const TbBoard board = random_board(random, blanks);
    const Slot slot = index.slot_of(board);
    BOOST_TEST_REQUIRE(slot < index.slot_count());
    BOOST_TEST(index.section_of(slot) == std::popcount(board.mover));
    for (Symmetry g : kAllSymmetries)
      BOOST_TEST(index.slot_of({transform(g, board.mover), transform(g, board.opponent)}) == slot);
    const auto content = index.board_of(slot);
    BOOST_TEST(!content.hole);
    BOOST_TEST(index.slot_of(content.board) == slot);
    // the slot's board is one of the images of the board
    bool is_image = false;
    for (Symmetry g : kAllSymmetries)
      is_image = is_image || (TbBoard{transform(g, board.mover), transform(g, board.opponent)} ==
                              content.board);
    BOOST_TEST(is_image);
  }
}

BOOST_AUTO_TEST_CASE(every_class_of_layer_0_has_exactly_one_slot) {
  const LayerIndex index(0);
  std::uint64_t classes = 0, weighted = 0;
  // Counted, not asserted slot by slot: a Boost.Test assertion for each of the 33 M slots took 9
  // of the case's 16 s.
  std::uint64_t holes_claiming_their_slot = 0;
  for (Slot slot = 0; slot < index.slot_count(); ++slot) {
    const auto content = index.board_of(slot);
    if (content.hole) {
      holes_claiming_their_slot += index.slot_of(content.board) == slot;
      continue;
    }
    ++classes;
    weighted += std::uint64_t(index.class_size(content.board));
  }
  BOOST_TEST(holes_claiming_their_slot == 0u);
  BOOST_TEST(classes == burnside(0, 2));
  BOOST_TEST(weighted == std::uint64_t{1} << 25);  // every board counted once
}

#if !defined(QUIXO_ADDRESS_SANITIZER) && !defined(QUIXO_THREAD_SANITIZER)
// 100 M slots: release builds only.
BOOST_AUTO_TEST_CASE(every_class_of_layer_1_has_exactly_one_slot) {
  const LayerIndex index(1);
  std::uint64_t classes = 0, weighted = 0;
  for (Slot slot = 0; slot < index.slot_count(); ++slot) {
    const auto content = index.board_of(slot);
    if (content.hole) continue;
    ++classes;
    weighted += std::uint64_t(index.class_size(content.board));
  }
  BOOST_TEST(classes == burnside(1, 2));
  BOOST_TEST(weighted == 25 * (std::uint64_t{1} << 24));
}
#endif

BOOST_AUTO_TEST_CASE(layers_beyond_the_index_are_refused) {
  BOOST_CHECK_THROW(LayerIndex(-1), std::invalid_argument);
  BOOST_CHECK_THROW(LayerIndex(kMaxIndexedLayer + 1), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
