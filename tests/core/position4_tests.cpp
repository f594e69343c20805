// Four-player team rules of docs/spec.md §2: seats, points, what a seat may take, the pass and
// team results. In notation, x = X pointing to seat 1, o = O to seat 2, X = X to seat 3,
// O = O to seat 4; inside the program seats are 0..3. Every expectation is worked out by hand
// from docs/spec.md, or checked against the independent reference oracle.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstdint>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/notation.hpp"
#include "core/position4.hpp"
#include "reference/simple_rules.hpp"
#include "support/board_literals.hpp"
#include "support/rules_samples.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::test;

BOOST_AUTO_TEST_SUITE(position4_tests)

namespace {

// The seat (0..3) a cube letter points to, by docs/spec.md §3.3.
Seat seat_of_letter(char letter) {
  switch (letter) {
    case 'x':
      return 0;
    case 'o':
      return 1;
    case 'X':
      return 2;
    case 'O':
      return 3;
  }
  BOOST_FAIL("bad letter " << letter);
  return -1;
}

// "b1e1X" -> the move, built from the slide table (so illegal moves can be built too);
// "0000" -> the pass.
Move4 mv(std::string_view text) {
  if (text == "0000") return Move4::pass();
  BOOST_REQUIRE(text.size() == 5);
  const int index = slide_index(sq(text.substr(0, 2)), sq(text.substr(2, 2)));
  BOOST_REQUIRE_MESSAGE(index >= 0, "no geometry " << text);
  return Move4(SlideIndex(index), seat_of_letter(text[4]));
}

Position4 pos(std::string_view text) {
  return parse_position4(text);
}

const std::vector<MoveSample> kMoveExamples = {
    // from the start, seat 1 points the cube to itself or to its partner, seat 3
    {"5/5/5/5/5 1", "b1e1x", "5/5/5/5/4x 2", "ongoing"},
    {"5/5/5/5/5 1", "b1e1X", "5/5/5/5/4X 2", "ongoing"},
    {"5/5/5/5/5 1", "a1a5X", "X4/5/5/5/5 2", "ongoing"},
    // seat 2 places an O pointing to seat 2 or seat 4
    {"5/5/5/5/4x 2", "a5e5o", "4o/5/5/5/4x 3", "ongoing"},
    {"5/5/5/5/4x 2", "a5e5O", "4O/5/5/5/4x 3", "ongoing"},
    // a seat takes its own pointed cube and may point it to the partner
    {"5/5/5/5/x4 1", "a1e1X", "5/5/5/5/4X 2", "ongoing"},
    {"5/5/5/5/x4 1", "a1a5x", "x4/5/5/5/5 2", "ongoing"},
    {"5/5/5/5/X4 3", "a1e1x", "5/5/5/5/4x 4", "ongoing"},
    {"5/5/5/5/4O 4", "e1a1O", "5/5/5/5/O4 1", "ongoing"},
    {"5/5/5/5/4O 4", "e1a1o", "5/5/5/5/o4 1", "ongoing"},
    // sliding cubes keep their points, along a rank and along a file
    {"5/5/5/5/1xoXO 1", "a1e1x", "5/5/5/5/xoXOx 2", "ongoing"},
    {"O4/o4/X4/x4/5 2", "a1a5o", "o4/O4/o4/X4/x4 3", "ongoing"},
    {"O4/o4/X4/x4/5 2", "a1a5O", "O4/O4/o4/X4/x4 3", "ongoing"},
    // a team line wins whatever the points
    {"5/5/5/5/1xXxX 1", "a1e1x", "5/5/5/5/xXxXx 2", "X wins"},
    {"5/5/5/5/1xXxX 1", "a1e1X", "5/5/5/5/xXxXX 2", "X wins"},
    {"X4/x4/X4/x4/5 3", "b1a1X", "X4/x4/X4/x4/X4 4", "X wins"},
    {"5/1o3/2O2/3o1/4O 4", "b5a5O", "O4/1o3/2O2/3o1/4O 1", "O wins"},
    {"5/1o3/2O2/3o1/4O 2", "b5a5o", "o4/1o3/2O2/3o1/4O 3", "O wins"},
    // seat 2 (team O) slides X cubes into a line of X: the mover's team loses, team X wins
    {"5/5/5/x4/oXXXX 2", "a1a5o", "o4/5/5/5/xXXXX 3", "X wins"},
    {"5/5/5/x4/oXXXX 2", "a1a5O", "O4/5/5/5/xXXXX 3", "X wins"},
    // seat 3 (team X) slides O cubes into a line of O: team O wins
    {"5/5/5/o4/XoOoO 3", "a1a5X", "X4/5/5/5/ooOoO 4", "O wins"},
    // both lines at once: the mover's team loses
    {"1oOoO/5/5/x4/oXXXX 2", "a1a5o", "ooOoO/5/5/5/xXXXX 3", "X wins"},
    {"1xXxX/5/5/o4/XoOoO 3", "a1a5x", "xxXxX/5/5/5/ooOoO 4", "O wins"},
};

const std::vector<OutcomeSample> kOutcomes = {
    {"5/5/5/5/5 1", "ongoing"},
    {"5/5/5/5/5 3", "ongoing"},
    {"xXxXo/5/5/5/5 2", "ongoing"},
    {"xXxXx/5/5/5/5 2", "X wins"},
    {"xXxXx/5/5/5/5 1", "X wins"},
    {"XXXXX/5/5/5/5 4", "X wins"},
    {"x4/x4/X4/X4/x4 4", "X wins"},
    {"O4/1o3/2O2/3o1/4O 1", "O wins"},
    {"o4/1O3/2o2/3O1/4o 3", "O wins"},
    {"4o/4O/4o/4O/4o 2", "O wins"},
    // both lines: the side to move is the team whose line the previous seat made
    {"oOoOo/5/5/5/xXxXx 2", "O wins"},
    {"oOoOo/5/5/5/xXxXx 1", "X wins"},
    {"oOoOo/5/5/5/xXxXx 4", "O wins"},
    {"oOoOo/5/5/5/xXxXx 3", "X wins"},
};

// Every marked border cube of the pass position is the other team's or points to the partner.
constexpr std::string_view kNoCubeBoard = "oXoXo/X3X/o3o/X3X/oXoXo";

}  // namespace

BOOST_AUTO_TEST_CASE(seats_and_teams) {
  BOOST_TEST((team_of(0) == Color::X));
  BOOST_TEST((team_of(1) == Color::O));
  BOOST_TEST((team_of(2) == Color::X));
  BOOST_TEST((team_of(3) == Color::O));
  BOOST_TEST(partner_of(0) == 2);
  BOOST_TEST(partner_of(1) == 3);
  BOOST_TEST(partner_of(2) == 0);
  BOOST_TEST(partner_of(3) == 1);
  BOOST_TEST(next_seat(0) == 1);
  BOOST_TEST(next_seat(1) == 2);
  BOOST_TEST(next_seat(2) == 3);
  BOOST_TEST(next_seat(3) == 0);
  BOOST_TEST(cube_letter(0) == 'x');
  BOOST_TEST(cube_letter(1) == 'o');
  BOOST_TEST(cube_letter(2) == 'X');
  BOOST_TEST(cube_letter(3) == 'O');
}

BOOST_AUTO_TEST_CASE(eighty_eight_moves_from_the_start) {
  const Position4 start = Position4::start();
  BOOST_TEST(start.seat_to_move() == 0);
  BOOST_TEST((start.team_to_move() == Color::X));
  BOOST_TEST(start.blanks() == kFullBoard);
  BOOST_TEST((start.outcome() == Outcome::Ongoing));
  const MoveList4 moves = start.legal_moves();
  BOOST_TEST(moves.size() == 88u);
  BOOST_TEST(start.legal_move_count() == 88);
  const std::set<std::string> names = move_names(start);
  BOOST_TEST(names.size() == 88u);
  // each of the 44 geometries once with 'x' (seat 1) and once with 'X' (seat 3)
  std::set<std::string> geometries;
  for (const std::string& name : names) {
    BOOST_TEST((name[4] == 'x' || name[4] == 'X'));
    geometries.insert(name.substr(0, 4));
  }
  BOOST_TEST(geometries.size() == 44u);
  for (const std::string& geometry : geometries) {
    BOOST_TEST(names.count(geometry + 'x') == 1u);
    BOOST_TEST(names.count(geometry + 'X') == 1u);
  }
  for (const Move4 move : moves) {
    BOOST_TEST(start.is_legal(move));
    BOOST_TEST(!move.is_pass());
  }
  BOOST_TEST(!start.is_legal(Move4::pass()));
  BOOST_TEST(!start.is_legal(Move4::none()));
  BOOST_TEST(!start.is_legal(Move4(SlideIndex(kSlideCount), 0)));
  // a point that names no seat of the mover's team, or no seat at all
  BOOST_TEST(!start.is_legal(Move4(SlideIndex(0), 5)));
  // pointing to a seat of the other team is not a move
  BOOST_TEST(!start.is_legal(mv("b1e1o")));
  BOOST_TEST(!start.is_legal(mv("b1e1O")));
  const std::vector<std::string> oracle =
      reference::legal_moves(reference::parse_position("5/5/5/5/5 1"));
  BOOST_TEST(std::set<std::string>(oracle.begin(), oracle.end()) == names,
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(every_seat_has_88_moves_on_an_empty_board) {
  for (Seat seat = 0; seat < kSeatCount; ++seat) {
    const Bitboard none[kSeatCount] = {0, 0, 0, 0};
    const Position4 position(none, seat);
    BOOST_TEST(position.legal_move_count() == 88);
    for (const Move4 move : position.legal_moves())
      BOOST_TEST((move.point() == seat || move.point() == partner_of(seat)));
  }
}

BOOST_DATA_TEST_CASE(hand_worked_moves, bdata::make(kMoveExamples), sample) {
  const Position4 before = pos(sample.before);
  const Move4 move = mv(sample.move);
  const Position4 after = check_move_sample<Position4>(sample, move);
  BOOST_TEST(after.seat_to_move() == next_seat(before.seat_to_move()));
  // the placed cube is on the destination and points to the chosen seat
  BOOST_TEST((after.cubes_pointing_to(move.point()) & square_bb(move.to())) != 0u);
}

BOOST_DATA_TEST_CASE(what_each_seat_may_take, bdata::make({0, 1, 2, 3}), seat) {
  // a1 x (seat 1's), b1 o (seat 2's), c1 X (seat 3's), d1 O (seat 4's), every other border
  // square blank
  const std::string text = "5/5/5/5/xoXO1 " + std::to_string(seat + 1);
  const Position4 position = pos(text);
  BOOST_TEST(position.seat_to_move() == seat);
  const char* own_square[kSeatCount] = {"a1", "b1", "c1", "d1"};
  const Bitboard blank_border = kBorder & ~bb("a1 b1 c1 d1");
  BOOST_TEST(std::popcount(blank_border) == 12);
  BOOST_TEST(position.takeable() == (blank_border | bb(own_square[seat])));
  // blank border: e1, a5, e5 (corners, 2 each) and 9 edges (3 each) = 33 geometries; the own
  // cube adds 2 (a1, a corner) or 3; every geometry has 2 points
  const int expected = 2 * (33 + (seat == 0 ? 2 : 3));
  BOOST_TEST(position.legal_move_count() == expected);
  BOOST_TEST(position.legal_moves().size() == std::size_t(expected));
  const std::string mine(1, cube_letter(seat)), partner(1, cube_letter(partner_of(seat)));
  for (Seat owner = 0; owner < kSeatCount; ++owner) {
    const std::string from = own_square[owner];
    const std::string to = owner == 0 ? "e1" : "a1";
    const bool allowed = owner == seat;
    BOOST_TEST_CONTEXT("seat " << seat + 1 << " takes " << from) {
      BOOST_TEST(position.is_legal(mv(from + to + mine)) == allowed);
      BOOST_TEST(position.is_legal(mv(from + to + partner)) == allowed);
    }
  }
  // pointing the placed cube to the other team is never legal
  const std::string other(1, cube_letter(next_seat(seat)));
  BOOST_TEST(!position.is_legal(mv("e3a3" + other)));
  BOOST_TEST(position.is_legal(mv("e3a3" + mine)));
  BOOST_TEST(!position.is_legal(Move4::pass()));
  const std::vector<std::string> oracle = reference::legal_moves(reference::parse_position(text));
  BOOST_TEST(std::set<std::string>(oracle.begin(), oracle.end()) == move_names(position),
             boost::test_tools::per_element());
}

BOOST_DATA_TEST_CASE(a_seat_without_cubes_passes, bdata::make({0, 1, 2, 3}), seat) {
  const std::string text = std::string(kNoCubeBoard) + " " + std::to_string(seat + 1);
  const Position4 position = pos(text);
  BOOST_TEST((position.outcome() == Outcome::Ongoing));
  // seats 1 and 4 have nothing to take; seat 2 takes its 8 o cubes (4 corners, 4 edges),
  // seat 3 its 8 X cubes (all edges)
  const Bitboard o_cubes = bb("a1 c1 e1 e3 e5 c5 a5 a3");
  const Bitboard big_x_cubes = bb("b1 d1 e2 e4 d5 b5 a4 a2");
  const Bitboard expected_takeable[kSeatCount] = {0, o_cubes, big_x_cubes, 0};
  const int expected_moves[kSeatCount] = {1, 2 * (4 * 2 + 4 * 3), 2 * 8 * 3, 1};
  BOOST_TEST(position.takeable() == expected_takeable[seat]);
  BOOST_TEST(position.legal_move_count() == expected_moves[seat]);
  BOOST_TEST(position.legal_moves().size() == std::size_t(expected_moves[seat]));
  const bool passes = expected_takeable[seat] == 0;
  BOOST_TEST(position.is_legal(Move4::pass()) == passes);
  if (passes) {
    BOOST_TEST(position.legal_moves()[0].is_pass());
    BOOST_TEST(to_string(position.legal_moves()[0]) == "0000");
    // the pass changes only the seat to move
    const Position4 after = position.after(Move4::pass());
    for (Seat s = 0; s < kSeatCount; ++s)
      BOOST_TEST(after.cubes_pointing_to(s) == position.cubes_pointing_to(s));
    BOOST_TEST(after.seat_to_move() == next_seat(seat));
    BOOST_TEST(to_string(after) ==
               std::string(kNoCubeBoard) + " " + std::to_string(next_seat(seat) + 1));
  } else {
    for (const Move4 move : position.legal_moves()) BOOST_TEST(!move.is_pass());
  }
  const std::vector<std::string> oracle = reference::legal_moves(reference::parse_position(text));
  BOOST_TEST(std::set<std::string>(oracle.begin(), oracle.end()) == move_names(position),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(seats_rotate_clockwise_including_passes) {
  // 1 -> 2 -> 3 -> 4 -> 1 over moves
  Position4 position = Position4::start();
  const char* moves[] = {"b1e1x", "a5e5o", "c1c5X", "e3a3O", "d1d5x"};
  const Seat expected[] = {1, 2, 3, 0, 1};
  for (int i = 0; i < 5; ++i) {
    position = position.after(mv(moves[i]));
    BOOST_TEST(position.seat_to_move() == expected[i]);
  }
  // and over passes: seat 4 passes on the pass board, seat 1 is next (and passes too)
  Position4 passing = pos(std::string(kNoCubeBoard) + " 4");
  passing = passing.after(Move4::pass());
  BOOST_TEST(passing.seat_to_move() == 0);
  BOOST_TEST(passing.legal_moves()[0].is_pass());
  passing = passing.after(Move4::pass());
  BOOST_TEST(passing.seat_to_move() == 1);
  BOOST_TEST(!passing.is_legal(Move4::pass()));
}

BOOST_DATA_TEST_CASE(outcomes_of_hand_made_positions, bdata::make(kOutcomes), sample) {
  check_outcome_sample<Position4>(sample);
}

BOOST_AUTO_TEST_CASE(finished_games_have_no_moves_not_even_a_pass) {
  // the second one: seat 1 would have nothing to take, but the game is over, so no pass
  for (const char* text : {"5/5/5/5/xXxXx 2", "ooooo/X3X/o3o/X3X/oXoXo 1", "oOoOo/5/5/5/xXxXx 3",
                           "x4/x4/X4/X4/x4 4"}) {
    BOOST_TEST_CONTEXT(text) {
      const Position4 position = pos(text);
      BOOST_TEST(position.is_game_over());
      BOOST_TEST(position.legal_moves().empty());
      BOOST_TEST(position.legal_move_count() == 0);
      BOOST_TEST(!position.is_legal(Move4::pass()));
      for (int i = 0; i < kSlideCount; ++i)
        for (Seat point = 0; point < kSeatCount; ++point)
          BOOST_TEST(!position.is_legal(Move4(SlideIndex(i), point)));
    }
  }
}

BOOST_AUTO_TEST_CASE(random_games_follow_the_rules) {
  const int finished = play_beside_the_oracle<Position4>(
      4444, 40, [](const Position4& position, Move4 move, const Position4& next) {
        const Seat seat = position.seat_to_move();
        for (const Move4 legal : position.legal_moves()) {
          if (legal.is_pass()) continue;
          // only blank cubes or the team's cubes pointing to this seat; points within the team
          const Bitboard from = square_bb(legal.from());
          BOOST_TEST_REQUIRE(((position.blanks() | position.cubes_pointing_to(seat)) & from) != 0u);
          BOOST_TEST_REQUIRE((legal.point() == seat || legal.point() == partner_of(seat)));
        }
        BOOST_TEST_REQUIRE(next.seat_to_move() == next_seat(seat));
        Bitboard all = 0;
        for (Seat s = 0; s < kSeatCount; ++s) {
          BOOST_TEST_REQUIRE((all & next.cubes_pointing_to(s)) == 0u);
          all |= next.cubes_pointing_to(s);
        }
        if (!move.is_pass())
          BOOST_TEST_REQUIRE((next.cubes_pointing_to(move.point()) & square_bb(move.to())) != 0u);
      });
  BOOST_TEST(finished > 0);
}

// The key is the exact identity the search's table and repetition check compare: equal
// positions have equal keys, and a different point, cube or seat to move gives another key.
BOOST_AUTO_TEST_CASE(keys_identify_positions_exactly) {
  std::mt19937_64 random(4);
  std::set<std::pair<std::uint64_t, std::uint64_t>> keys;
  std::set<std::string> positions;
  Position4 position;
  for (int ply = 0; ply < 4000; ++ply) {
    if (position.is_game_over()) position = Position4::start();
    const Position4Key key = position.key();
    BOOST_TEST_REQUIRE((key == parse_position4(to_string(position)).key()));
    BOOST_TEST_REQUIRE(Position4::blank_count_of(key) == std::popcount(position.blanks()));
    // A new position gives a new key, a position seen before the key it had then.
    const bool new_position = positions.insert(to_string(position)).second;
    BOOST_TEST_REQUIRE(keys.insert({key.low, key.high}).second == new_position);
    const MoveList4 moves = position.legal_moves();
    position = position.after(moves[random() % moves.size()]);
  }
  // The same cubes with the other point, or the other seat to move, are other positions.
  const Position4 a = parse_position4("x4/5/5/5/5 1");
  const Position4 b = parse_position4("X4/5/5/5/5 1");
  const Position4 c = parse_position4("x4/5/5/5/5 3");
  BOOST_TEST(!(a.key() == b.key()));
  BOOST_TEST(!(a.key() == c.key()));
}

BOOST_AUTO_TEST_SUITE_END()
