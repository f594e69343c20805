// Two-player rules of docs/spec.md §1: move generation, move application and results.
// Positions are written in the notation of docs/spec.md §3 for readability; every expected
// position and result is worked out by hand from the rules, or checked against the independent
// reference oracle.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "reference/simple_rules.hpp"
#include "support/board_literals.hpp"
#include "support/random_positions.hpp"
#include "support/rules_samples.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::test;

namespace {

// A move from its squares, built from the slide table (not from the notation parser, so that
// illegal moves can be built too).
Move mv(std::string_view text) {
  BOOST_REQUIRE(text.size() == 4);
  const int index = slide_index(sq(text.substr(0, 2)), sq(text.substr(2, 2)));
  BOOST_REQUIRE_MESSAGE(index >= 0, "no geometry " << text);
  return Move(SlideIndex(index));
}

Position pos(std::string_view text) {
  return parse_position(text);
}

// Each worked by hand from docs/spec.md §1.
const std::vector<MoveSample> kMoveExamples = {
    // from the start (the examples of the brief and of docs/spec.md §3.2)
    {"5/5/5/5/5 x", "b1e1", "5/5/5/5/4x o", "ongoing"},
    {"5/5/5/5/5 x", "a1a5", "x4/5/5/5/5 o", "ongoing"},
    {"5/5/5/5/5 x", "b1b5", "1x3/5/5/5/5 o", "ongoing"},
    {"5/5/5/5/5 x", "e3a3", "5/5/x4/5/5 o", "ongoing"},
    // cubes slide toward the hole, on a rank and on a file, both ways
    {"5/5/5/5/xo1x1 o", "c1a1", "5/5/5/5/oxox1 x", "ongoing"},
    {"5/5/5/5/xo1x1 o", "b1e1", "5/5/5/5/x1x1o x", "ongoing"},
    {"1o3/1x3/5/1x3/1x3 x", "b1b5", "1x3/1o3/1x3/5/1x3 o", "ongoing"},
    {"1o3/1x3/5/1x3/1x3 o", "b5b1", "1x3/5/1x3/1x3/1o3 x", "ongoing"},
    // an own cube taken and pushed back in
    {"5/5/5/5/1x3 x", "b1a1", "5/5/5/5/x4 o", "ongoing"},
    // own cube pushed along a line of own cubes: the board does not change, the side does
    {"5/5/5/5/xx3 x", "b1a1", "5/5/5/5/xx3 o", "ongoing"},
    {"5/5/5/x4/x4 x", "a2a1", "5/5/5/x4/x4 o", "ongoing"},
    {"5/5/5/5/3oo o", "d1e1", "5/5/5/5/3oo x", "ongoing"},
    {"5/5/5/5/xxxx1 x", "d1a1", "5/5/5/5/xxxx1 o", "ongoing"},
    {"o4/o4/o4/o4/5 o", "a2a5", "o4/o4/o4/o4/5 x", "ongoing"},
    // making only one's own line wins
    {"5/5/5/5/1xxxx x", "a1e1", "5/5/5/5/xxxxx o", "X wins"},
    {"4x/3x1/2x2/1x3/5 x", "e1a1", "4x/3x1/2x2/1x3/x4 o", "X wins"},
    {"5/1o3/2o2/3o1/4o o", "b5a5", "o4/1o3/2o2/3o1/4o x", "O wins"},
    {"4o/4o/4o/4o/5 o", "e1e5", "4o/4o/4o/4o/4o x", "O wins"},
    // making only the opponent's line loses
    {"5/5/5/o4/xoooo x", "a1a5", "x4/5/5/5/ooooo o", "O wins"},
    {"5/5/5/x4/oxxxx o", "a1a5", "o4/5/5/5/xxxxx x", "X wins"},
    // making both lines at once loses (docs/spec.md §1: even if the mover also made its own line)
    {"1xxxx/5/5/o4/xoooo x", "a1a5", "xxxxx/5/5/5/ooooo o", "O wins"},
    {"1oooo/5/5/x4/oxxxx o", "a1a5", "ooooo/5/5/5/xxxxx x", "X wins"},
    // the same position: one push makes X's diagonal, another O's file
    {"o3x/o2x1/o1x2/ox3/1o3 x", "c1a1", "o3x/o2x1/o1x2/ox3/x1o2 o", "X wins"},
    {"o3x/o2x1/o1x2/ox3/1o3 x", "a1e1", "o3x/o2x1/o1x2/ox3/o3x o", "O wins"},
};

const std::vector<OutcomeSample> kOutcomes = {
    {"5/5/5/5/5 x", "ongoing"},
    {"5/5/5/5/5 o", "ongoing"},
    {"xxxx1/5/5/5/5 o", "ongoing"},                  // four of five
    {"xxoox/ooxxo/xxoox/ooxxo/xxoox x", "ongoing"},  // full board, no line
    {"xxoox/ooxxo/xxoox/ooxxo/xxoox o", "ongoing"},
    {"xxxxx/5/5/5/5 o", "X wins"},  // X just made it
    {"xxxxx/5/5/5/5 x", "X wins"},  // O just made X's line
    {"5/5/5/5/ooooo x", "O wins"},
    {"5/5/5/5/ooooo o", "O wins"},
    {"o4/o4/o4/o4/o4 x", "O wins"},       // file a
    {"4x/4x/4x/4x/4x o", "X wins"},       // file e
    {"2x2/2x2/2x2/2x2/2x2 o", "X wins"},  // file c
    {"x4/1x3/2x2/3x1/4x o", "X wins"},    // a1-e5 diagonal
    {"4o/3o1/2o2/1o3/o4 x", "O wins"},    // a5-e1 diagonal
    {"4o/3o1/2x2/1o3/o4 x", "ongoing"},
    // both lines: the side that just moved made the line of the side to move and loses
    {"ooooo/5/5/5/xxxxx x", "X wins"},
    {"ooooo/5/5/5/xxxxx o", "O wins"},
    {"x3o/x3o/x3o/x3o/x3o o", "O wins"},
    {"x3o/x3o/x3o/x3o/x3o x", "X wins"},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(position_tests)

BOOST_AUTO_TEST_CASE(start_position) {
  const Position start = Position::start();
  BOOST_TEST(start.cubes(Color::X) == 0u);
  BOOST_TEST(start.cubes(Color::O) == 0u);
  BOOST_TEST(start.blanks() == kFullBoard);
  BOOST_TEST((start.side_to_move() == Color::X));
  BOOST_TEST((start.outcome() == Outcome::Ongoing));
  BOOST_TEST(!start.is_game_over());
  BOOST_TEST(start.takeable() == kBorder);
  BOOST_TEST((start == Position()));
}

BOOST_AUTO_TEST_CASE(forty_four_moves_from_the_start) {
  const Position start = Position::start();
  const MoveList2 moves = start.legal_moves();
  BOOST_TEST(moves.size() == 44u);
  BOOST_TEST(start.legal_move_count() == 44);
  // each (from, to) exactly once, from a border square, to an end of its rank or file
  std::set<std::pair<Square, Square>> seen;
  for (const Move move : moves) {
    BOOST_TEST(start.is_legal(move));
    BOOST_TEST(is_border(move.from()));
    BOOST_TEST(move.from() != move.to());
    const bool same_rank = rank_of(move.from()) == rank_of(move.to());
    const bool same_file = file_of(move.from()) == file_of(move.to());
    BOOST_TEST((same_rank || same_file));
    seen.insert({move.from(), move.to()});
  }
  BOOST_TEST(seen.size() == 44u);
  // the full list, by hand: 2 per corner, 3 per other border square
  const std::set<std::string> expected = {
      "a1a5", "a1e1", "b1a1", "b1e1", "b1b5", "c1a1", "c1e1", "c1c5", "d1a1", "d1e1", "d1d5",
      "e1a1", "e1e5", "a2a1", "a2a5", "a2e2", "e2e1", "e2e5", "e2a2", "a3a1", "a3a5", "a3e3",
      "e3e1", "e3e5", "e3a3", "a4a1", "a4a5", "a4e4", "e4e1", "e4e5", "e4a4", "a5a1", "a5e5",
      "b5b1", "b5a5", "b5e5", "c5c1", "c5a5", "c5e5", "d5d1", "d5a5", "d5e5", "e5e1", "e5a5"};
  BOOST_TEST(expected.size() == 44u);
  BOOST_TEST(move_names(start) == expected, boost::test_tools::per_element());
  // the reference oracle lists the same moves
  const std::vector<std::string> oracle =
      reference::legal_moves(reference::parse_position("5/5/5/5/5 x"));
  BOOST_TEST(std::set<std::string>(oracle.begin(), oracle.end()) == expected,
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(corner_and_edge_moves) {
  const Position start = Position::start();
  std::map<Square, std::set<Square>> destinations;
  for (const Move move : start.legal_moves()) destinations[move.from()].insert(move.to());
  BOOST_TEST(destinations.size() == 16u);
  BOOST_TEST((destinations[sq("a1")] == std::set<Square>{sq("a5"), sq("e1")}));
  BOOST_TEST((destinations[sq("e1")] == std::set<Square>{sq("a1"), sq("e5")}));
  BOOST_TEST((destinations[sq("a5")] == std::set<Square>{sq("a1"), sq("e5")}));
  BOOST_TEST((destinations[sq("e5")] == std::set<Square>{sq("e1"), sq("a5")}));
  BOOST_TEST((destinations[sq("c1")] == std::set<Square>{sq("a1"), sq("e1"), sq("c5")}));
  BOOST_TEST((destinations[sq("a3")] == std::set<Square>{sq("a1"), sq("a5"), sq("e3")}));
  for (const auto& [from, tos] : destinations)
    BOOST_TEST(tos.size() == (is_corner(from) ? 2u : 3u));
}

BOOST_AUTO_TEST_CASE(no_move_goes_back_to_its_own_square) {
  for (Square s = 0; s < kSquareCount; ++s) BOOST_TEST(slide_index(s, s) == -1);
  for (const Position& position : random_positions<Position>(11, 1600, {80, 80, Keep::All}))
    for (const Move move : position.legal_moves()) BOOST_TEST_REQUIRE(move.from() != move.to());
}

BOOST_DATA_TEST_CASE(hand_worked_moves, bdata::make(kMoveExamples), sample) {
  const Position before = pos(sample.before);
  const Move move = mv(sample.move);
  // the oracle agrees on the board and the result
  const Position after = check_move_sample<Position>(sample, move);
  BOOST_TEST((after.side_to_move() == ~before.side_to_move()));
  // the mover's cube is on the destination square
  BOOST_TEST((after.cubes(before.side_to_move()) & square_bb(move.to())) != 0u);
}

BOOST_AUTO_TEST_CASE(unchanged_board_still_changes_the_side) {
  const Position before = pos("5/5/5/5/xx3 x");
  const Position after = before.after(mv("b1a1"));
  BOOST_TEST(after.cubes(Color::X) == before.cubes(Color::X));
  BOOST_TEST(after.cubes(Color::O) == before.cubes(Color::O));
  BOOST_TEST((after.side_to_move() == Color::O));
  BOOST_TEST(!(after == before));
  BOOST_TEST(after.key() != before.key());
  // and back: O has no cube to disturb it; X again moving it leaves the same board
  const Position again = after.after(mv("e5a5")).after(mv("b1a1"));
  BOOST_TEST(to_string(again) == "o4/5/5/5/xx3 o");
}

BOOST_AUTO_TEST_CASE(opponent_cubes_are_never_taken) {
  // O holds most of the border without a line; X may take only b5, a3 (its own) and e3, d1.
  const Position position = pos("oxooo/o3o/x4/o3o/ooo1o x");
  BOOST_TEST((position.outcome() == Outcome::Ongoing));
  BOOST_TEST(position.takeable() == bb("b5 a3 e3 d1"));
  BOOST_TEST(position.legal_move_count() == 12);
  const std::set<std::string> expected = {"b5b1", "b5a5", "b5e5", "a3a1", "a3a5", "a3e3",
                                          "e3e1", "e3e5", "e3a3", "d1a1", "d1e1", "d1d5"};
  BOOST_TEST(move_names(position) == expected, boost::test_tools::per_element());
  BOOST_TEST(!position.is_legal(mv("a1a5")));
  BOOST_TEST(!position.is_legal(mv("c5c1")));
  BOOST_TEST(!position.is_legal(mv("e1a1")));
  // The same board with O to move: O may take every border cube but the X ones.
  const Position o_to_move = pos("oxooo/o3o/x4/o3o/ooo1o o");
  BOOST_TEST(o_to_move.takeable() == (kBorder & ~bb("b5 a3")));
  BOOST_TEST(!o_to_move.is_legal(mv("b5b1")));
  BOOST_TEST(!o_to_move.is_legal(mv("a3e3")));
  // In random games, no generated move takes an opponent cube.
  for (const Position& p : random_positions<Position>(12, 2000, {100, 100, Keep::All}))
    for (const Move move : p.legal_moves())
      BOOST_TEST_REQUIRE((p.cubes(~p.side_to_move()) & square_bb(move.from())) == 0u);
}

BOOST_AUTO_TEST_CASE(finished_games_have_no_moves) {
  for (const char* text : {"5/5/5/5/xxxxx o", "5/5/5/5/xxxxx x", "ooooo/5/5/5/xxxxx o",
                           "x4/1x3/2x2/3x1/4x o", "4o/3o1/2o2/1o3/o4 x", "o4/o4/o4/o4/o4 o"}) {
    BOOST_TEST_CONTEXT(text) {
      const Position position = pos(text);
      BOOST_TEST(position.is_game_over());
      BOOST_TEST(position.legal_moves().empty());
      BOOST_TEST(position.legal_move_count() == 0);
      BOOST_TEST(position.takeable() == 0u);
      for (int i = 0; i < kSlideCount; ++i) BOOST_TEST(!position.is_legal(Move(SlideIndex(i))));
    }
  }
  BOOST_TEST(!Position::start().is_legal(Move::none()));
  // slide numbers past the 44 geometries are not moves either
  BOOST_TEST(!Position::start().is_legal(Move(SlideIndex(kSlideCount))));
  BOOST_TEST(!Position::start().is_legal(Move(SlideIndex(0xfe))));
}

BOOST_DATA_TEST_CASE(outcomes_of_hand_made_positions, bdata::make(kOutcomes), sample) {
  check_outcome_sample<Position>(sample);
}

BOOST_AUTO_TEST_CASE(keys_identify_positions) {
  // the same board with the other side to move is a different position
  const Position x = pos("5/5/2x2/5/1o3 x");
  const Position o = pos("5/5/2x2/5/1o3 o");
  BOOST_TEST(x.key() != o.key());
  // swapping the colours of the cubes gives another key
  BOOST_TEST(pos("5/5/2o2/5/1x3 x").key() != x.key());
  BOOST_TEST(pos("5/5/5/5/5 x").key() != pos("5/5/5/5/5 o").key());
  // key equality exactly when positions are equal, over many positions of random games
  std::map<std::uint64_t, Position> by_key;
  int duplicates = 0;
  for (const Position& position : random_positions<Position>(13, 2500, {60, 60, Keep::All})) {
    const auto [it, inserted] = by_key.emplace(position.key(), position);
    BOOST_TEST_REQUIRE(Position::blank_count_of(position.key()) ==
                       std::popcount(position.blanks()));
    if (!inserted) {
      ++duplicates;
      BOOST_TEST_REQUIRE((it->second == position), "same key for " << to_string(it->second)
                                                                   << " and "
                                                                   << to_string(position));
    }
  }
  BOOST_TEST(by_key.size() > 2000u);
  // and all distinct positions have distinct keys: the map size equals the number of distinct
  // notation strings
  std::set<std::string> texts;
  for (const auto& [key, position] : by_key) texts.insert(to_string(position));
  BOOST_TEST(texts.size() == by_key.size());
  BOOST_TEST(duplicates > 0);  // the start position repeats: the check above did run
}

BOOST_AUTO_TEST_CASE(random_games_follow_the_rules) {
  // Along random games: the side alternates; the cube count never falls; the inserted cube is
  // the mover's; the move list matches the oracle's; results match the oracle.
  const int finished = play_beside_the_oracle<Position>(
      2025, 40, [](const Position& position, Move move, const Position& next) {
        const Color mover = position.side_to_move();
        BOOST_TEST_REQUIRE((next.side_to_move() == ~mover));
        BOOST_TEST_REQUIRE((next.cubes(Color::X) & next.cubes(Color::O)) == 0u);
        BOOST_TEST_REQUIRE(std::popcount(next.cubes(mover)) >=
                           std::popcount(position.cubes(mover)));
        BOOST_TEST_REQUIRE(std::popcount(next.cubes(~mover)) ==
                           std::popcount(position.cubes(~mover)));
        BOOST_TEST_REQUIRE((next.cubes(mover) & square_bb(move.to())) != 0u);
      });
  BOOST_TEST(finished > 0);
}

BOOST_AUTO_TEST_SUITE_END()
