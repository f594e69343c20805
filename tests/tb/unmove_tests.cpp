// Moves played backwards (engine/tb/gen/unmove.hpp), which the retrograde generator trusts to
// find every predecessor: each of the 44 un-slides undoes its forward slide, and on sampled
// boards the un-moves find exactly the in-layer positions that have a move to the board, as the
// forward generator (Position::legal_moves, after) sees them.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <bit>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "tb/gen/unmove.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::tb;

namespace {

// A random unfinished position with X to move and about `blanks` blank squares.
Position random_position(std::mt19937_64& random, int blanks) {
  for (;;) {
    Bitboard x = 0, o = 0;
    for (Square s = 0; s < kSquareCount; ++s) {
      const auto roll = int(random() % 25);
      if (roll < blanks) continue;
      (random() % 2 ? x : o) |= square_bb(s);
    }
    const Position position(x, o, Color::X);
    if (!position.is_game_over()) return position;
  }
}

std::vector<int> all_slide_indices() {
  std::vector<int> indices;
  for (int i = 0; i < kSlideCount; ++i) indices.push_back(i);
  return indices;
}

using Boards = std::pair<Bitboard, Bitboard>;  // (side that moved, side to move)

// Every in-layer predecessor of `child` (the side to move is X there, O just moved) found by the
// un-moves, as (O's cubes, X's cubes) before O's move.
std::set<Boards> unmove_predecessors(const Position& child) {
  std::set<Boards> found;
  const Bitboard moved = child.cubes(Color::O), to_move = child.cubes(Color::X);
  for (const UnSlide& u : kUnSlides) {
    if (!(moved & u.required)) continue;
    const UnmovedBoards before = unmove(u, moved, to_move);
    if (has_line_in_either(pack(before.moved_side, before.other_side))) continue;
    found.insert({before.moved_side, before.other_side});
  }
  return found;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(unmove_tests)

BOOST_DATA_TEST_CASE(every_unslide_undoes_its_slide, bdata::make(all_slide_indices()), index) {
  const Slide& slide = kSlides[index];
  const UnSlide& u = kUnSlides[index];
  std::mt19937_64 random(std::uint64_t(index) + 1);
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    const Position before = random_position(random, 3);
    // an in-layer move: the mover takes its own cube from the slide's square
    if (!(before.cubes(Color::X) & square_bb(slide.from))) continue;
    const Position after = before.after(Move(SlideIndex(index)));
    const Bitboard moved = after.cubes(Color::X), other = after.cubes(Color::O);
    BOOST_TEST_REQUIRE((moved & u.required) != 0u);
    const UnmovedBoards undone = unmove(u, moved, other);
    BOOST_TEST(undone.moved_side == before.cubes(Color::X));
    BOOST_TEST(undone.other_side == before.cubes(Color::O));
    ++checked;
  }
  BOOST_TEST(checked > 50);
}

BOOST_DATA_TEST_CASE(unmoves_find_exactly_the_positions_that_move_here, bdata::make({0, 1, 2, 3}),
                     blanks) {
  std::mt19937_64 random(std::uint64_t(blanks) * 31 + 7);
  for (int i = 0; i < 300; ++i) {
    // Sound: each predecessor found has a legal in-layer move to the child.
    const Position child = random_position(random, blanks);
    for (const auto& [o_cubes, x_cubes] : unmove_predecessors(child)) {
      const Position parent(x_cubes, o_cubes, Color::O);
      BOOST_TEST_REQUIRE(!parent.is_game_over());
      BOOST_TEST(std::popcount(parent.blanks()) == std::popcount(child.blanks()));
      bool reaches = false;
      for (const Move move : parent.legal_moves()) reaches = reaches || parent.after(move) == child;
      BOOST_TEST(reaches, to_string(parent) << " has no move to " << to_string(child));
    }
    // Complete: every in-layer move of a random parent is undone by some un-move.
    const Position parent = random_position(random, blanks);
    const Position as_o(parent.cubes(Color::X), parent.cubes(Color::O), Color::O);
    for (const Move move : as_o.legal_moves()) {
      if (!(as_o.cubes(Color::O) & square_bb(move.from()))) continue;  // took a blank
      const Position next = as_o.after(move);
      if (next.is_game_over()) continue;  // finished boards are never propagated from
      BOOST_TEST(
          unmove_predecessors(next).count({as_o.cubes(Color::O), as_o.cubes(Color::X)}) == 1u,
          to_string(next) << " misses its predecessor " << to_string(as_o));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
