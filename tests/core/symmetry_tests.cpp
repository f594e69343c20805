// The 8 symmetries of the board: a group of square permutations that maps the border to the
// border and lines to lines, and with which move generation, move application, results, perft
// and canonical forms all commute.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/notation.hpp"
#include "core/perft.hpp"
#include "core/symmetry.hpp"
#include "support/board_literals.hpp"
#include "support/random_positions.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using quixo::test::bb;
using quixo::test::sq;

namespace {

const std::array<Bitboard, 12> kLines = {
    bb("a1 b1 c1 d1 e1"), bb("a2 b2 c2 d2 e2"), bb("a3 b3 c3 d3 e3"), bb("a4 b4 c4 d4 e4"),
    bb("a5 b5 c5 d5 e5"), bb("a1 a2 a3 a4 a5"), bb("b1 b2 b3 b4 b5"), bb("c1 c2 c3 c4 c5"),
    bb("d1 d2 d3 d4 d5"), bb("e1 e2 e3 e4 e5"), bb("a1 b2 c3 d4 e5"), bb("a5 b4 c3 d2 e1"),
};

static_assert(kSymmetryCount == 8);  // the data sets below list indices 0-7

Symmetry symmetry_at(int index) {
  return kAllSymmetries[std::size_t(index)];
}

using Permutation = std::array<Square, kSquareCount>;

Permutation permutation_of(Symmetry symmetry) {
  Permutation p{};
  for (Square s = 0; s < kSquareCount; ++s) p[std::size_t(s)] = transform(symmetry, s);
  return p;
}

// The image of a board computed square by square, as the definition of a board transform.
Bitboard transform_by_squares(Symmetry symmetry, Bitboard cubes) {
  Bitboard image = 0;
  for (Square s = 0; s < kSquareCount; ++s)
    if (cubes & square_bb(s)) image |= square_bb(transform(symmetry, s));
  return image;
}

// The first `count` positions of seeded random games of at most `max_plies` plies (the start and
// the finished ones too); in the four-player game also a position whose only move is the pass.
template <class PositionT>
std::vector<PositionT> whole_games(unsigned seed, int count, int max_plies) {
  std::vector<PositionT> positions =
      test::random_positions<PositionT>(seed, count, {max_plies, max_plies, test::Keep::All});
  if constexpr (std::is_same_v<PositionT, Position4>)
    positions.push_back(parse_position4("oXoXo/X3X/o3o/X3X/oXoXo 1"));
  return positions;
}

// The positions the perft invariance is checked on: early and late middle games.
// Mid-game positions where the game goes on, taken `plies` moves into seeded random games.
template <class PositionT>
std::vector<PositionT> mid_game(unsigned seed, int count, int plies) {
  return test::random_positions<PositionT>(seed, count, {plies, plies, test::Keep::AfterAllPlies});
}

std::vector<Position> perft_positions() {
  std::vector<Position> positions = mid_game<Position>(70, 3, 10);
  for (const Position& p : mid_game<Position>(71, 5, 24)) positions.push_back(p);
  return positions;
}

std::vector<Position4> perft_positions4() {
  std::vector<Position4> positions = mid_game<Position4>(73, 3, 12);
  for (const Position4& p : mid_game<Position4>(72, 5, 30)) positions.push_back(p);
  positions.push_back(parse_position4("oXoXo/X3X/o3o/X3X/oXoXo 4"));  // starts with a pass
  return positions;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(symmetry_tests)

BOOST_AUTO_TEST_CASE(transforms_by_hand) {
  using enum Symmetry;
  // Rotate90 is clockwise: the top-left corner goes to the top-right
  BOOST_TEST(transform(Rotate90, sq("a5")) == sq("e5"));
  BOOST_TEST(transform(Rotate90, sq("e5")) == sq("e1"));
  BOOST_TEST(transform(Rotate90, sq("e1")) == sq("a1"));
  BOOST_TEST(transform(Rotate90, sq("a1")) == sq("a5"));
  BOOST_TEST(transform(Rotate90, sq("b1")) == sq("a4"));
  BOOST_TEST(transform(Rotate180, sq("b1")) == sq("d5"));
  BOOST_TEST(transform(Rotate270, sq("a5")) == sq("a1"));
  BOOST_TEST(transform(MirrorFiles, sq("a1")) == sq("e1"));
  BOOST_TEST(transform(MirrorFiles, sq("b3")) == sq("d3"));
  BOOST_TEST(transform(MirrorRanks, sq("a1")) == sq("a5"));
  BOOST_TEST(transform(MirrorRanks, sq("b2")) == sq("b4"));
  BOOST_TEST(transform(MainDiagonal, sq("b1")) == sq("a2"));
  BOOST_TEST(transform(MainDiagonal, sq("d4")) == sq("d4"));
  BOOST_TEST(transform(AntiDiagonal, sq("a1")) == sq("e5"));
  BOOST_TEST(transform(AntiDiagonal, sq("b1")) == sq("e4"));
  BOOST_TEST(transform(AntiDiagonal, sq("b4")) == sq("b4"));
  for (Symmetry symmetry : kAllSymmetries) BOOST_TEST(transform(symmetry, sq("c3")) == sq("c3"));
  for (Square s = 0; s < kSquareCount; ++s) BOOST_TEST(transform(Identity, s) == s);
  // boards
  BOOST_TEST(transform(Rotate90, bb("a1 b1 c1 d1 e1")) == bb("a1 a2 a3 a4 a5"));
  BOOST_TEST(transform(MirrorRanks, bb("a1 b2 c3")) == bb("a5 b4 c3"));
  BOOST_TEST(transform(MainDiagonal, bb("b1 c1 e2")) == bb("a2 a3 b5"));
}

BOOST_AUTO_TEST_CASE(transforms_form_a_group) {
  std::set<Permutation> all;
  for (Symmetry s : kAllSymmetries) {
    const Permutation p = permutation_of(s);
    // a bijection of the 25 squares
    BOOST_TEST(std::set<Square>(p.begin(), p.end()).size() == 25u);
    all.insert(p);
    // the inverse undoes it, both ways
    BOOST_TEST((inverse(inverse(s)) == s));
    for (Square sqr = 0; sqr < kSquareCount; ++sqr) {
      BOOST_TEST(transform(inverse(s), transform(s, sqr)) == sqr);
      BOOST_TEST(transform(s, transform(inverse(s), sqr)) == sqr);
    }
    // a rigid motion: distances between squares are kept
    for (Square a = 0; a < kSquareCount; ++a)
      for (Square b = 0; b < kSquareCount; ++b) {
        const Square ta = transform(s, a), tb = transform(s, b);
        const int before = std::abs(file_of(a) - file_of(b)) + std::abs(rank_of(a) - rank_of(b));
        const int after = std::abs(file_of(ta) - file_of(tb)) + std::abs(rank_of(ta) - rank_of(tb));
        BOOST_TEST_REQUIRE(before == after);
      }
  }
  BOOST_TEST(all.size() == 8u);  // 8 distinct symmetries
  // closed under composition: each composite is exactly one of the 8
  for (Symmetry s : kAllSymmetries)
    for (Symmetry t : kAllSymmetries) {
      Permutation composite{};
      for (Square sqr = 0; sqr < kSquareCount; ++sqr)
        composite[std::size_t(sqr)] = transform(t, transform(s, sqr));
      BOOST_TEST(all.count(composite) == 1u);
    }
  // four rotations by 90 degrees give the identity; the mirrors are involutions
  for (Square sqr = 0; sqr < kSquareCount; ++sqr) {
    Square r = sqr;
    for (int i = 0; i < 4; ++i) r = transform(Symmetry::Rotate90, r);
    BOOST_TEST(r == sqr);
    BOOST_TEST(transform(Symmetry::Rotate90, transform(Symmetry::Rotate90, sqr)) ==
               transform(Symmetry::Rotate180, sqr));
    BOOST_TEST(transform(Symmetry::Rotate180, transform(Symmetry::Rotate90, sqr)) ==
               transform(Symmetry::Rotate270, sqr));
  }
}

BOOST_DATA_TEST_CASE(squares_and_lines_keep_their_kind, bdata::make({0, 1, 2, 3, 4, 5, 6, 7}),
                     index) {
  const Symmetry s = symmetry_at(index);
  for (Square sqr = 0; sqr < kSquareCount; ++sqr) {
    BOOST_TEST(is_border(transform(s, sqr)) == is_border(sqr));
    BOOST_TEST(is_corner(transform(s, sqr)) == is_corner(sqr));
  }
  BOOST_TEST(transform(s, kBorder) == kBorder);
  BOOST_TEST(transform(s, kCorners) == kCorners);
  BOOST_TEST(transform(s, kFullBoard) == kFullBoard);
  BOOST_TEST(transform(s, Bitboard{0}) == 0u);
  // the 12 lines map onto the 12 lines
  std::set<Bitboard> images;
  for (Bitboard line : kLines) images.insert(transform(s, line));
  BOOST_TEST(images == std::set<Bitboard>(kLines.begin(), kLines.end()),
             boost::test_tools::per_element());
  // each slide geometry maps to a slide geometry
  for (int i = 0; i < kSlideCount; ++i) {
    const Slide& slide = slide_at(SlideIndex(i));
    BOOST_TEST(slide_index(transform(s, slide.from), transform(s, slide.to)) >= 0);
  }
  // boards: the table-driven transform is the square-by-square one
  std::mt19937 rng(unsigned(index) + 90);
  for (int trial = 0; trial < 2000; ++trial) {
    const Bitboard cubes = Bitboard(rng()) & kFullBoard;
    BOOST_TEST_REQUIRE(transform(s, cubes) == transform_by_squares(s, cubes));
    BOOST_TEST_REQUIRE(transform(inverse(s), transform(s, cubes)) == cubes);
    BOOST_TEST_REQUIRE(has_line(transform(s, cubes)) == has_line(cubes));
  }
}

BOOST_DATA_TEST_CASE(moves_transform_square_by_square, bdata::make({0, 1, 2, 3, 4, 5, 6, 7}),
                     index) {
  const Symmetry s = symmetry_at(index);
  for (int i = 0; i < kSlideCount; ++i) {
    const Move move{SlideIndex(i)};
    const Move image = transform(s, move);
    BOOST_TEST(image.from() == transform(s, move.from()));
    BOOST_TEST(image.to() == transform(s, move.to()));
    BOOST_TEST((transform(inverse(s), image) == move));
    for (Seat point = 0; point < kSeatCount; ++point) {
      const Move4 move4(SlideIndex(i), point);
      const Move4 image4 = transform(s, move4);
      BOOST_TEST(image4.from() == transform(s, move.from()));
      BOOST_TEST(image4.to() == transform(s, move.to()));
      BOOST_TEST(image4.point() == point);  // the board turns, the seats do not
    }
  }
  BOOST_TEST(transform(s, Move4::pass()).is_pass());
  BOOST_TEST(transform(s, Move::none()).is_none());
  BOOST_TEST(transform(s, Move4::none()).is_none());
}

BOOST_DATA_TEST_CASE(two_player_rules_commute, bdata::make({0, 1, 2, 3, 4, 5, 6, 7}), index) {
  const Symmetry s = symmetry_at(index);
  int moves_checked = 0;
  for (const Position& position : whole_games<Position>(500 + unsigned(index), 600, 120)) {
    const Position image = transform(s, position);
    BOOST_TEST_REQUIRE((transform(inverse(s), image) == position));
    BOOST_TEST_REQUIRE((image.side_to_move() == position.side_to_move()));
    BOOST_TEST_REQUIRE((image.outcome() == position.outcome()), to_string(position));
    BOOST_TEST_REQUIRE(image.legal_move_count() == position.legal_move_count());
    std::set<SlideIndex> mapped, generated;
    for (const Move move : position.legal_moves()) {
      const Move move_image = transform(s, move);
      BOOST_TEST_REQUIRE(image.is_legal(move_image));
      BOOST_TEST_REQUIRE((image.after(move_image) == transform(s, position.after(move))),
                         to_string(position) << " " << to_string(move));
      mapped.insert(move_image.slide());
      ++moves_checked;
    }
    for (const Move move : image.legal_moves()) generated.insert(move.slide());
    BOOST_TEST_REQUIRE((mapped == generated));
  }
  BOOST_TEST(moves_checked > 1000);
}

BOOST_DATA_TEST_CASE(four_player_rules_commute, bdata::make({0, 1, 2, 3, 4, 5, 6, 7}), index) {
  const Symmetry s = symmetry_at(index);
  int moves_checked = 0;
  for (const Position4& position : whole_games<Position4>(600 + unsigned(index), 300, 120)) {
    const Position4 image = transform(s, position);
    BOOST_TEST_REQUIRE((transform(inverse(s), image) == position));
    BOOST_TEST_REQUIRE(image.seat_to_move() == position.seat_to_move());
    BOOST_TEST_REQUIRE((image.outcome() == position.outcome()), to_string(position));
    BOOST_TEST_REQUIRE(image.legal_move_count() == position.legal_move_count());
    for (Seat seat = 0; seat < kSeatCount; ++seat)
      BOOST_TEST_REQUIRE(image.cubes_pointing_to(seat) ==
                         transform(s, position.cubes_pointing_to(seat)));
    std::set<std::string> mapped, generated;
    for (const Move4 move : position.legal_moves()) {
      const Move4 move_image = transform(s, move);
      BOOST_TEST_REQUIRE(image.is_legal(move_image));
      BOOST_TEST_REQUIRE((image.after(move_image) == transform(s, position.after(move))),
                         to_string(position) << " " << to_string(move));
      mapped.insert(to_string(move_image));
      ++moves_checked;
    }
    for (const Move4 move : image.legal_moves()) generated.insert(to_string(move));
    BOOST_TEST_REQUIRE((mapped == generated));
  }
  BOOST_TEST(moves_checked > 1000);
}

// A game's history is kept as keys: the image of a key is the key of the image, in both games.
BOOST_DATA_TEST_CASE(keys_transform_as_their_positions, bdata::make({0, 1, 2, 3, 4, 5, 6, 7}),
                     index) {
  const Symmetry s = symmetry_at(index);
  int checked = 0;
  for (const Position& position : whole_games<Position>(700 + unsigned(index), 600, 120)) {
    BOOST_TEST_REQUIRE(transform_key(s, position.key()) == transform(s, position).key(),
                       to_string(position));
    ++checked;
  }
  for (const Position4& position : whole_games<Position4>(800 + unsigned(index), 300, 120)) {
    BOOST_TEST_REQUIRE((transform_key(s, position.key()) == transform(s, position).key()),
                       to_string(position));
    ++checked;
  }
  BOOST_TEST(checked > 800);
}

BOOST_AUTO_TEST_CASE(two_player_perft_is_invariant) {
  for (const Position& position : perft_positions()) {
    const PerftCounts counts = perft_every_leaf(position, 3);
    BOOST_TEST(counts.leaves > 0u);
    for (Symmetry s : kAllSymmetries) {
      const Position image = transform(s, position);
      BOOST_TEST_CONTEXT(to_string(position) << " under symmetry " << int(s)) {
        BOOST_TEST(perft(image, 3) == counts.leaves);
        const PerftCounts image_counts = perft_every_leaf(image, 3);
        BOOST_TEST(image_counts.leaves == counts.leaves);
        BOOST_TEST(image_counts.decisive_leaves == counts.decisive_leaves);
        // per move: the subtree below a move is the subtree below its image
        std::map<SlideIndex, std::uint64_t> below;
        for (const auto& [move, count] : divide(image, 2)) below[move.slide()] = count;
        for (const auto& [move, count] : divide(position, 2))
          BOOST_TEST(below[transform(s, move).slide()] == count);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(four_player_perft_is_invariant) {
  for (const Position4& position : perft_positions4()) {
    const PerftCounts counts = perft_every_leaf(position, 3);
    BOOST_TEST(counts.leaves > 0u);
    for (Symmetry s : kAllSymmetries) {
      const Position4 image = transform(s, position);
      BOOST_TEST_CONTEXT(to_string(position) << " under symmetry " << int(s)) {
        BOOST_TEST(perft(image, 3) == counts.leaves);
        const PerftCounts image_counts = perft_every_leaf(image, 3);
        BOOST_TEST(image_counts.leaves == counts.leaves);
        BOOST_TEST(image_counts.decisive_leaves == counts.decisive_leaves);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(perft_sample_has_decisive_leaves) {
  // The invariance tests above are only as strong as their positions: make sure at least one
  // of them has game-ending leaves at depth 3, so results matter in the comparison.
  std::uint64_t decisive = 0;
  for (const Position& position : perft_positions())
    decisive += perft_every_leaf(position, 3).decisive_leaves;
  std::uint64_t decisive4 = 0;
  for (const Position4& position : perft_positions4())
    decisive4 += perft_every_leaf(position, 3).decisive_leaves;
  BOOST_TEST(decisive > 0u);
  BOOST_TEST(decisive4 > 0u);
}

BOOST_AUTO_TEST_CASE(outcomes_are_invariant) {
  const char* finished[] = {"xxxxx/5/5/5/5 o",     "ooooo/5/5/5/xxxxx x",   "x4/1x3/2x2/3x1/4x o",
                            "4o/3o1/2o2/1o3/o4 x", "2x2/2x2/2x2/2x2/2x2 o", "5/5/5/5/5 x"};
  for (const char* text : finished) {
    const Position position = parse_position(text);
    for (Symmetry s : kAllSymmetries)
      BOOST_TEST((transform(s, position).outcome() == position.outcome()), text);
  }
  const char* finished4[] = {"xXxXx/5/5/5/5 2", "oOoOo/5/5/5/xXxXx 3", "O4/1o3/2O2/3o1/4O 1"};
  for (const char* text : finished4) {
    const Position4 position = parse_position4(text);
    for (Symmetry s : kAllSymmetries)
      BOOST_TEST((transform(s, position).outcome() == position.outcome()), text);
  }
}

BOOST_AUTO_TEST_CASE(canonical_forms) {
  for (const Position& position : whole_games<Position>(800, 900, 60)) {
    const Position canon = canonical(position);
    bool is_an_image = false;
    for (Symmetry s : kAllSymmetries) {
      const Position image = transform(s, position);
      BOOST_TEST_REQUIRE((canonical(image) == canon), to_string(position) << " " << int(s));
      BOOST_TEST_REQUIRE(canon.key() <= image.key());
      is_an_image = is_an_image || image == canon;
    }
    BOOST_TEST_REQUIRE(is_an_image);
    BOOST_TEST_REQUIRE((canonical(canon) == canon));
  }
  // positions that are not symmetric to each other keep different canonical forms
  const Position corner = parse_position("5/5/5/5/x4 o");
  const Position edge = parse_position("5/5/5/5/1x3 o");
  const Position middle = parse_position("5/5/5/5/2x2 o");
  BOOST_TEST(!(canonical(corner) == canonical(edge)));
  BOOST_TEST(!(canonical(edge) == canonical(middle)));
  BOOST_TEST((canonical(parse_position("5/5/5/5/4x o")) == canonical(corner)));
  BOOST_TEST((canonical(parse_position("x4/5/5/5/5 o")) == canonical(corner)));
  BOOST_TEST(!(canonical(parse_position("5/5/5/5/1x3 x")) == canonical(edge)));  // other side
  // b1 is symmetric to d1, a2, a4, b5, d5, e2, e4: eight images, one canonical form
  for (const char* text : {"5/5/5/5/3x1 o", "5/5/5/x4/5 o", "5/x4/5/5/5 o", "1x3/5/5/5/5 o",
                           "3x1/5/5/5/5 o", "5/5/5/4x/5 o", "5/4x/5/5/5 o"})
    BOOST_TEST((canonical(parse_position(text)) == canonical(edge)), text);
}

BOOST_AUTO_TEST_SUITE_END()
