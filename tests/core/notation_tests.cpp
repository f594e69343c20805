// The notation of docs/spec.md §3: squares, moves and position strings of both variants, their
// round trips, the precise errors for malformed or illegal input, and robustness against garbage.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cctype>
#include <exception>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"
#include "reference/simple_rules.hpp"
#include "support/board_literals.hpp"
#include "support/random_positions.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using quixo::test::bb;
using quixo::test::sq;

namespace {

// Printable form of arbitrary input for failure messages.
std::string printable(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < 60; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isprint(c)) {
      out += char(c);
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (text.size() > 60) out += "...(" + std::to_string(text.size()) + " chars)";
  return out;
}

// Runs `parse`; returns the NotationError message, or "" when it parsed. Any other exception
// fails the test.
std::string error_of(const std::function<void()>& parse) {
  try {
    parse();
  } catch (const NotationError& error) {
    return error.what();
  } catch (const std::exception& error) {
    BOOST_ERROR("not a NotationError: " << error.what());
    return "(other exception)";
  } catch (...) {
    BOOST_ERROR("a non-standard exception");
    return "(other exception)";
  }
  return "";
}

// What the fuzz test asks of every error message: it says something, on one printable line of
// reasonable length, whatever the input was.
bool is_readable_message(std::string_view message) {
  if (message.empty() || message.size() > 1000) return false;
  for (char c : message)
    if (!std::isprint(static_cast<unsigned char>(c))) return false;
  return true;
}

constexpr std::string_view kPassBoard = "oXoXo/X3X/o3o/X3X/oXoXo";

// Every position of seeded random games of at most 150 plies (the start and the finished ones too),
// the first `count` of them; in the four-player game also a board whose only move is the pass,
// with each seat to move.
std::vector<Position> whole_games(unsigned seed, int count) {
  return test::random_positions<Position>(seed, count, {150, 150, test::Keep::All});
}
std::vector<Position4> whole_games4(unsigned seed, int count) {
  std::vector<Position4> positions =
      test::random_positions<Position4>(seed, count, {150, 150, test::Keep::All});
  for (int seat = 1; seat <= 4; ++seat) {
    // appended, not `string + " " + string`: that expression trips GCC 12's -Warray-bounds false
    // positive inside libstdc++ at -O1 (GCC bug 105651's family)
    std::string text(kPassBoard);
    text += ' ';
    text += std::to_string(seat);
    positions.push_back(parse_position4(text));
  }
  return positions;
}

// A malformed position string and a phrase its error message must contain.
struct BadPosition {
  char parser;  // '2': parse_position, '4': parse_position4, 'v': variant_of
  std::string text;
  std::string phrase;
};
std::ostream& operator<<(std::ostream& out, const BadPosition& s) {
  return out << s.parser << " '" << printable(s.text) << "'";
}

const std::vector<BadPosition> kBadPositions = {
    // empty, or no side to move
    {'2', "", "empty position string"},
    {'2', "   ", "empty position string"},
    {'4', "", "empty position string"},
    {'v', "", "empty position string"},
    {'2', "5/5/5/5/5", "no side to move"},
    {'4', "5/5/5/5/5", "no side to move"},
    {'v', "5/5/5/5/5", "no side to move"},
    // wrong number of ranks
    {'2', "5/5/5/5 x", "expected 5 ranks"},
    {'2', "5/5/5/5/5/5 x", "expected 5 ranks"},
    {'2', "5/5/5/5/5/ x", "expected 5 ranks"},
    {'2', "5 x", "expected 5 ranks"},
    {'4', "5/5/5/5 1", "expected 5 ranks"},
    {'4', "5/5/5/5/5/5 2", "expected 5 ranks"},
    // a rank too short
    {'2', "5/5/4/5/5 x", "covers 4 squares"},
    {'2', "5/5/5/5/xo x", "covers 2 squares"},
    {'2', "5/5//5/5 x", "covers 0 squares"},
    {'4', "5/5/5/xXoO/5 3", "covers 4 squares"},
    // a rank too long
    {'2', "5/5/x5/5/5 x", "more than 5 squares"},
    {'2', "5/5/5/5/xxxxxx o", "more than 5 squares"},
    {'2', "5/5/5/5/33 x", "more than 5 squares"},
    {'4', "5/5/5/5/1xXoO1 1", "more than 5 squares"},
    // bad characters
    {'2', "5/5/5/5/4z x", "bad character 'z'"},
    {'2', "5/5/5/5/4X x", "bad character 'X'"},  // four-player letter in a two-player board
    {'2', "5/5/5/5/4O o", "bad character 'O'"},
    {'2', "5/5/5/5/4. x", "bad character '.'"},
    {'2', "5\\5/5/5/5/5 x", "bad character"},
    {'4', "5/5/5/5/4z 1", "bad character 'z'"},
    {'4', "5/5/5/5/4- 2", "bad character '-'"},
    // bad run lengths
    {'2', "5/5/5/5/05 x", "bad run length '0'"},
    {'2', "6/5/5/5/5 x", "bad run length '6'"},
    {'2', "5/7/5/5/5 x", "bad run length '7'"},
    {'2', "5/5/8/5/5 o", "bad run length '8'"},
    {'2', "5/5/5/9/5 x", "bad run length '9'"},
    {'4', "5/5/5/5/x0xXoO 1", "bad run length '0'"},
    {'4', "9/5/5/5/5 4", "bad run length '9'"},
    // bad side to move
    {'2', "5/5/5/5/5 y", "bad side to move"},
    {'2', "5/5/5/5/5 X", "bad side to move"},
    {'2', "5/5/5/5/5 xo", "bad side to move"},
    {'4', "5/5/5/5/5 0", "bad side to move"},
    {'4', "5/5/5/5/5 5", "bad side to move"},
    {'4', "5/5/5/5/5 12", "bad side to move"},
    {'v', "5/5/5/5/5 -", "bad side to move"},
    {'v', "5/5/5/5/5 O", "bad side to move"},
    // the other variant's side to move
    {'2', "5/5/5/5/5 1", "four-player position"},
    {'4', "5/5/5/5/5 x", "two-player position"},
    {'4', "5/5/5/5/5 o", "two-player position"},
    // bad move number
    {'2', "5/5/5/5/5 x 0", "bad move number"},
    {'2', "5/5/5/5/5 x -1", "bad move number"},
    {'2', "5/5/5/5/5 x 1a", "bad move number"},
    {'2', "5/5/5/5/5 x 1.5", "bad move number"},
    {'2', "5/5/5/5/5 x one", "bad move number"},
    {'4', "5/5/5/5/5 1 0", "bad move number"},
    {'4', "5/5/5/5/5 2 x", "bad move number"},
    {'v', "5/5/5/5/5 x 0", "bad move number"},
    // extra tokens
    {'2', "5/5/5/5/5 x 1 2", "unexpected '2'"},
    {'2', "5/5/5/5/5 x 1 moves b1e1", "unexpected 'moves'"},
    {'4', "5/5/5/5/5 1 3 extra", "unexpected 'extra'"},
    {'v', "5/5/5/5/5 1 3 extra", "unexpected 'extra'"},
};

// A move that is malformed or illegal in a position, and a phrase its error message must contain.
struct BadMove {
  std::string position;
  std::string move;
  std::string phrase;
};
std::ostream& operator<<(std::ostream& out, const BadMove& s) {
  return out << "'" << s.position << "' " << printable(s.move);
}

const std::vector<BadMove> kBadMoves = {
    // two players: form
    {"5/5/5/5/5 x", "", "bad move"},
    {"5/5/5/5/5 x", "b1e", "bad move"},
    {"5/5/5/5/5 x", "b1e1e1", "bad move"},
    {"5/5/5/5/5 x", "b1e1x", "carries a cube letter"},
    {"5/5/5/5/5 x", "b1e1O", "carries a cube letter"},
    {"5/5/5/5/5 x", "0000", "only in the four-player game"},
    // two players: bad squares
    {"5/5/5/5/5 x", "b6e1", "bad square 'b6'"},
    {"5/5/5/5/5 x", "z1e1", "bad square 'z1'"},
    {"5/5/5/5/5 x", "b1e0", "bad square 'e0'"},
    {"5/5/5/5/5 x", "B1E1", "bad square 'B1'"},
    {"5/5/5/5/5 x", "f1a1", "bad square 'f1'"},
    // two players: geometry
    {"5/5/5/5/5 x", "c3c1", "not a border square"},
    {"5/5/5/5/5 x", "b2a2", "not a border square"},
    {"5/5/5/5/5 x", "b1c1", "not an end of the rank or file"},
    {"5/5/5/5/5 x", "b1e5", "not an end of the rank or file"},
    {"5/5/5/5/5 x", "a2a3", "not an end of the rank or file"},
    {"5/5/5/5/5 x", "a1b2", "not an end of the rank or file"},
    {"5/5/5/5/5 x", "b1b1", "the square it was taken from"},
    {"5/5/5/5/5 x", "a1a1", "the square it was taken from"},
    {"5/5/5/5/5 o", "e3e3", "the square it was taken from"},
    // two players: an opponent's cube
    {"5/5/5/5/o4 x", "a1e1", "may not take the opponent's cube"},
    {"5/5/5/5/4x o", "e1a1", "may not take the opponent's cube"},
    // two players: the game is over
    {"5/5/5/5/xxxxx o", "a5e5", "the game is over"},
    {"ooooo/5/5/5/5 x", "a1e1", "the game is over"},
    // four players: form
    {"5/5/5/5/5 1", "", "bad move"},
    {"5/5/5/5/5 1", "b1e1xx", "bad move"},
    {"5/5/5/5/5 1", "b1e", "bad move"},
    {"5/5/5/5/5 1", "b1e1", "needs the placed cube's letter"},
    {"5/5/5/5/5 2", "a5e5", "needs the placed cube's letter"},
    {"5/5/5/5/5 1", "b1e1z", "bad cube letter"},
    {"5/5/5/5/5 1", "b1e10", "bad cube letter"},
    // four players: bad squares and geometry
    {"5/5/5/5/5 1", "b6e1x", "bad square 'b6'"},
    {"5/5/5/5/5 1", "b1E1x", "bad square 'E1'"},
    {"5/5/5/5/5 1", "c3c1x", "not a border square"},
    {"5/5/5/5/5 1", "b1c1x", "not an end of the rank or file"},
    {"5/5/5/5/5 1", "b1b1x", "the square it was taken from"},
    // four players: a point toward the wrong team
    {"5/5/5/5/5 1", "b1e1o", "must point to seat 1 or 3"},
    {"5/5/5/5/5 1", "b1e1O", "must point to seat 1 or 3"},
    {"5/5/5/5/5 2", "b1e1x", "must point to seat 2 or 4"},
    {"5/5/5/5/5 4", "b1e1X", "must point to seat 4 or 2"},
    // four players: a cube pointing to the partner
    {"5/5/5/5/X4 1", "a1e1x", "pointing to seat 3"},
    {"5/5/5/5/x4 3", "a1e1X", "pointing to seat 1"},
    {"5/5/5/5/O4 2", "a1e1o", "pointing to seat 4"},
    {"5/5/5/5/o4 4", "a1e1O", "pointing to seat 2"},
    // four players: the other team's cube
    {"5/5/5/5/o4 1", "a1e1x", "other team's cube"},
    {"5/5/5/5/O4 3", "a1a5X", "other team's cube"},
    {"5/5/5/5/X4 2", "a1e1o", "other team's cube"},
    // four players: a pass when a move exists
    {"5/5/5/5/5 1", "0000", "'0000' is not legal"},
    {"oXoXo/X3X/o3o/X3X/oXoXo 2", "0000", "'0000' is not legal"},
    // four players: moves on the pass board, where every cube is off limits to seat 1
    {"oXoXo/X3X/o3o/X3X/oXoXo 1", "b1e1x", "pointing to seat 3"},
    {"oXoXo/X3X/o3o/X3X/oXoXo 1", "a1e1x", "other team's cube"},
    // four players: the game is over
    {"5/5/5/5/xXxXx 2", "a5e5o", "the game is over"},
    {"5/5/5/5/xXxXx 2", "0000", "the game is over"},
    {"ooooo/X3X/o3o/X3X/oXoXo 1", "0000", "the game is over"},
};

Move parse_move2(std::string_view position, std::string_view move) {
  return parse_move(parse_position(position), move);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(notation_tests)

BOOST_AUTO_TEST_CASE(squares) {
  BOOST_TEST(square_name(0) == "a1");
  BOOST_TEST(square_name(4) == "e1");
  BOOST_TEST(square_name(5) == "a2");
  BOOST_TEST(square_name(12) == "c3");
  BOOST_TEST(square_name(20) == "a5");
  BOOST_TEST(square_name(24) == "e5");
  for (Square s = 0; s < kSquareCount; ++s) {
    const auto parsed = parse_square(square_name(s));
    BOOST_TEST_REQUIRE(parsed.has_value());
    BOOST_TEST(*parsed == s);
  }
  for (const char* bad : {"", "a", "a0", "a6", "f1", "A1", "E5", "a11", " a1", "1a", "`1", "e:"})
    BOOST_TEST(!parse_square(bad).has_value(), "'" << bad << "' parsed");
}

BOOST_AUTO_TEST_CASE(start_positions) {
  BOOST_TEST(kStartPosition == "5/5/5/5/5 x");
  BOOST_TEST(kStartPosition4 == "5/5/5/5/5 1");
  BOOST_TEST((parse_position(kStartPosition) == Position::start()));
  BOOST_TEST((parse_position4(kStartPosition4) == Position4::start()));
  BOOST_TEST(to_string(Position::start()) == "5/5/5/5/5 x");
  BOOST_TEST(to_string(Position4::start()) == "5/5/5/5/5 1");
  BOOST_TEST((variant_of("5/5/5/5/5 x") == Variant::TwoPlayer));
  BOOST_TEST((variant_of("5/5/5/5/5 o") == Variant::TwoPlayer));
  for (const char* seat : {"1", "2", "3", "4"})
    BOOST_TEST((variant_of(std::string("5/5/5/5/5 ") + seat) == Variant::FourPlayer));
  BOOST_TEST((variant_of("xxxxx/5/5/5/5 o 40") == Variant::TwoPlayer));
}

BOOST_AUTO_TEST_CASE(position_strings_by_hand) {
  // ranks 5 down to 1, files a to e
  const Position p = parse_position("x4/5/5/5/4o o");
  BOOST_TEST(p.cubes(Color::X) == bb("a5"));
  BOOST_TEST(p.cubes(Color::O) == bb("e1"));
  BOOST_TEST((p.side_to_move() == Color::O));
  const Position q = parse_position("1x1o1/o4/2x2/3x1/xxo2 x");
  BOOST_TEST(q.cubes(Color::X) == bb("b5 c3 d2 a1 b1"));
  BOOST_TEST(q.cubes(Color::O) == bb("d5 a4 c1"));
  BOOST_TEST((q.side_to_move() == Color::X));
  BOOST_TEST(to_string(q) == "1x1o1/o4/2x2/3x1/xxo2 x");
  // runs written in several digits parse; the output merges them
  BOOST_TEST(to_string(parse_position("23/5/41/11111/5 o")) == "5/5/5/5/5 o");
  // building a position from bitboards and writing it
  BOOST_TEST(to_string(Position(bb("c3 e5"), bb("a1 b1 c1 d1"), Color::O)) == "4x/5/2x2/5/oooo1 o");
  // four players: x -> seat 1, o -> seat 2, X -> seat 3, O -> seat 4
  const Position4 f = parse_position4("xoXO1/5/5/5/4O 3");
  BOOST_TEST(f.cubes_pointing_to(0) == bb("a5"));
  BOOST_TEST(f.cubes_pointing_to(1) == bb("b5"));
  BOOST_TEST(f.cubes_pointing_to(2) == bb("c5"));
  BOOST_TEST(f.cubes_pointing_to(3) == bb("d5 e1"));
  BOOST_TEST(f.seat_to_move() == 2);
  BOOST_TEST(to_string(f) == "xoXO1/5/5/5/4O 3");
  const Bitboard by_point[kSeatCount] = {bb("c3"), bb("a1"), bb("e1"), bb("a5")};
  BOOST_TEST(to_string(Position4(by_point, 3)) == "O4/5/2x2/5/o3X 4");
}

BOOST_AUTO_TEST_CASE(move_strings_by_hand) {
  BOOST_TEST(to_string(Move(SlideIndex(slide_index(sq("b1"), sq("e1"))))) == "b1e1");
  BOOST_TEST(to_string(Move(SlideIndex(slide_index(sq("b1"), sq("b5"))))) == "b1b5");
  BOOST_TEST(to_string(Move4(SlideIndex(slide_index(sq("b1"), sq("e1"))), 2)) == "b1e1X");
  BOOST_TEST(to_string(Move4(SlideIndex(slide_index(sq("e5"), sq("a5"))), 1)) == "e5a5o");
  BOOST_TEST(to_string(Move4(SlideIndex(slide_index(sq("a3"), sq("e3"))), 3)) == "a3e3O");
  BOOST_TEST(to_string(Move4(SlideIndex(slide_index(sq("a3"), sq("e3"))), 0)) == "a3e3x");
  BOOST_TEST(to_string(Move4::pass()) == "0000");
  const Move m = parse_move2("5/5/5/5/5 x", "b1e1");
  BOOST_TEST(m.from() == sq("b1"));
  BOOST_TEST(m.to() == sq("e1"));
  const Move4 m4 = parse_move(Position4::start(), "d1d5X");
  BOOST_TEST(m4.from() == sq("d1"));
  BOOST_TEST(m4.to() == sq("d5"));
  BOOST_TEST(m4.point() == 2);
  const Move4 pass = parse_move(parse_position4(std::string(kPassBoard) + " 1"), "0000");
  BOOST_TEST(pass.is_pass());
  // the examples of docs/spec.md §3.2
  BOOST_TEST(to_string(Position::start().after(parse_move(Position::start(), "b1e1"))) ==
             "5/5/5/5/4x o");
  BOOST_TEST(to_string(Position::start().after(parse_move(Position::start(), "a1a5"))) ==
             "x4/5/5/5/5 o");
  BOOST_TEST(to_string(Position4::start().after(parse_move(Position4::start(), "b1e1X"))) ==
             "5/5/5/5/4X 2");
  // own cubes may be taken; a blank one too
  BOOST_TEST(parse_move2("5/5/5/5/x4 x", "a1e1").from() == sq("a1"));
  BOOST_TEST(parse_move(parse_position4("5/5/5/5/O4 4"), "a1e1o").point() == 1);
}

BOOST_AUTO_TEST_CASE(outcome_strings) {
  BOOST_TEST(to_string(Outcome::Ongoing) == "ongoing");
  BOOST_TEST(to_string(Outcome::XWins) == "X wins");
  BOOST_TEST(to_string(Outcome::OWins) == "O wins");
}

BOOST_AUTO_TEST_CASE(optional_move_number) {
  BOOST_TEST((parse_position("5/5/5/5/5 x 1") == Position::start()));
  BOOST_TEST((parse_position("5/5/5/5/4x o 2") == parse_position("5/5/5/5/4x o")));
  BOOST_TEST((parse_position("5/5/5/5/4x o 123456789") == parse_position("5/5/5/5/4x o")));
  BOOST_TEST((parse_position4("5/5/5/5/5 1 1") == Position4::start()));
  BOOST_TEST((parse_position4("5/5/5/5/4X 2 17") == parse_position4("5/5/5/5/4X 2")));
  BOOST_TEST((variant_of("5/5/5/5/5 3 9") == Variant::FourPlayer));
  // writing never adds one
  BOOST_TEST(to_string(parse_position("5/5/5/5/4x o 2")) == "5/5/5/5/4x o");
}

BOOST_AUTO_TEST_CASE(two_player_round_trips) {
  int moves_checked = 0;
  for (const Position& position : whole_games(101, 3000)) {
    const std::string text = to_string(position);
    BOOST_TEST_REQUIRE((parse_position(text) == position), text);
    BOOST_TEST_REQUIRE(to_string(parse_position(text)) == text);
    BOOST_TEST_REQUIRE((parse_position(text + " 42") == position), text);
    BOOST_TEST_REQUIRE((variant_of(text) == Variant::TwoPlayer));
    // the independent oracle reads and writes the same string
    BOOST_TEST_REQUIRE(reference::format_position(reference::parse_position(text)) == text);
    for (const Move move : position.legal_moves()) {
      const std::string move_text = to_string(move);
      BOOST_TEST_REQUIRE(move_text.size() == 4u);
      BOOST_TEST_REQUIRE((parse_move(position, move_text) == move), text << " " << move_text);
      ++moves_checked;
    }
  }
  BOOST_TEST(moves_checked > 10000);
}

BOOST_AUTO_TEST_CASE(four_player_round_trips) {
  int moves_checked = 0, passes = 0;
  for (const Position4& position : whole_games4(202, 1800)) {
    const std::string text = to_string(position);
    BOOST_TEST_REQUIRE((parse_position4(text) == position), text);
    BOOST_TEST_REQUIRE(to_string(parse_position4(text)) == text);
    BOOST_TEST_REQUIRE((parse_position4(text + " 7") == position), text);
    BOOST_TEST_REQUIRE((variant_of(text) == Variant::FourPlayer));
    BOOST_TEST_REQUIRE(reference::format_position(reference::parse_position(text)) == text);
    for (const Move4 move : position.legal_moves()) {
      const std::string move_text = to_string(move);
      BOOST_TEST_REQUIRE(move_text.size() == (move.is_pass() ? 4u : 5u));
      BOOST_TEST_REQUIRE((parse_move(position, move_text) == move), text << " " << move_text);
      passes += move.is_pass();
      ++moves_checked;
    }
  }
  BOOST_TEST(moves_checked > 10000);
  BOOST_TEST(passes >= 2);
}

BOOST_DATA_TEST_CASE(malformed_positions, bdata::make(kBadPositions), sample) {
  const std::string message = error_of([&] {
    switch (sample.parser) {
      case '2':
        parse_position(sample.text);
        break;
      case '4':
        parse_position4(sample.text);
        break;
      default:
        variant_of(sample.text);
        break;
    }
  });
  BOOST_TEST(!message.empty(), "accepted");
  BOOST_TEST(message.find(sample.phrase) != std::string::npos,
             "message '" << message << "' lacks '" << sample.phrase << "'");
}

BOOST_DATA_TEST_CASE(malformed_or_illegal_moves, bdata::make(kBadMoves), sample) {
  const std::string message = error_of([&] {
    if (variant_of(sample.position) == Variant::TwoPlayer)
      parse_move(parse_position(sample.position), sample.move);
    else
      parse_move(parse_position4(sample.position), sample.move);
  });
  BOOST_TEST(!message.empty(), "accepted");
  BOOST_TEST(message.find(sample.phrase) != std::string::npos,
             "message '" << message << "' lacks '" << sample.phrase << "'");
}

BOOST_AUTO_TEST_CASE(garbage_never_crashes) {
  std::mt19937 rng(31337);
  std::vector<std::string> inputs;
  // random bytes, NUL and high bytes included
  for (int i = 0; i < 2000; ++i) {
    std::string s(rng() % 40, '\0');
    for (char& c : s) c = char(rng() & 0xff);
    inputs.push_back(s);
  }
  // random mixes of valid tokens
  const std::vector<std::string> tokens = {"5",     "4",
                                           "3",     "2",
                                           "1",     "0",
                                           "6",     "9",
                                           "x",     "o",
                                           "X",     "O",
                                           "/",     "/",
                                           "/",     " ",
                                           " ",     "\t",
                                           "\n",    "z",
                                           "-",     "a1",
                                           "e5",    "b1e1",
                                           "0000",  "5/5/5/5/5",
                                           " x",    " o",
                                           " 1",    " 4",
                                           " 0",    " 12",
                                           "xxxxx", std::string(1, '\0'),
                                           "\xff",  "\x80"};
  for (int i = 0; i < 2500; ++i) {
    std::string s;
    const int count = int(rng() % 20);
    for (int t = 0; t < count; ++t) s += tokens[rng() % tokens.size()];
    inputs.push_back(s);
  }
  // valid position strings with one or two random edits
  const std::string alphabet = std::string("012345679xoXO/ \t.-", 18) + std::string(1, '\0');
  std::vector<std::string> valid;
  for (const Position& p : whole_games(303, 500)) valid.push_back(to_string(p));
  for (const Position4& p : whole_games4(404, 400)) valid.push_back(to_string(p));
  for (int i = 0; i < 2500; ++i) {
    std::string s = valid[rng() % valid.size()];
    for (int edit = 0; edit < 1 + int(rng() % 2); ++edit) {
      const std::size_t at = s.empty() ? 0 : rng() % s.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          s.insert(s.begin() + long(at), c);
          break;
        case 1:
          if (!s.empty()) s.erase(at, 1);
          break;
        default:
          if (!s.empty()) s[at] = c;
          break;
      }
    }
    inputs.push_back(s);
  }
  // very long inputs, up to 100k characters
  inputs.push_back(std::string(100000, 'x'));
  inputs.push_back(std::string(100000, ' '));
  inputs.push_back(std::string(100000, '\0'));
  inputs.push_back(std::string(100000, '5'));
  std::string slashes;
  while (slashes.size() < 100000) slashes += "5/";
  inputs.push_back(slashes + " x");
  inputs.push_back("5/5/5/5/5 x " + std::string(99980, '1'));
  inputs.push_back("5/5/5/5/5 x 1" + std::string(99980, ' ') + "2");
  inputs.push_back(std::string(99980, ' ') + "5/5/5/5/5 1");
  inputs.push_back("xxxxx/5/5/5/" + std::string(99980, 'o') + " o");
  for (int i = 0; i < 10; ++i) {
    std::string s(50000 + rng() % 50000, '\0');
    for (char& c : s) c = char(rng() & 0xff);
    inputs.push_back(s);
  }

  const Position positions2[] = {Position::start(), parse_position("o3x/o2x1/o1x2/ox3/1o3 x"),
                                 parse_position("5/5/5/5/xxxxx o")};
  const Position4 positions4[] = {
      Position4::start(), parse_position4(std::string(kPassBoard) + " 1"),
      parse_position4("5/5/5/xXoO1/oOXx1 3"), parse_position4("5/5/5/5/xXxXx 2")};
  int parsed = 0, rejected = 0;
  // Each parser either returns a result that survives a round trip or throws NotationError
  // with a readable message; anything else fails the test.
  const auto check = [&](const std::string& input, const std::function<void()>& parse) {
    const std::string message = error_of(parse);
    if (message.empty()) {
      ++parsed;
    } else {
      ++rejected;
      BOOST_TEST(is_readable_message(message),
                 "unreadable message for '" << printable(input) << "': " << printable(message));
    }
  };
  for (const std::string& input : inputs) {
    check(input, [&] {
      const Position p = parse_position(input);
      BOOST_TEST((parse_position(to_string(p)) == p), printable(input));
    });
    check(input, [&] {
      const Position4 p = parse_position4(input);
      BOOST_TEST((parse_position4(to_string(p)) == p), printable(input));
    });
    check(input, [&] { variant_of(input); });
    for (const Position& position : positions2)
      check(input, [&] {
        const Move move = parse_move(position, input);
        BOOST_TEST(position.is_legal(move), printable(input));
        BOOST_TEST(to_string(move) == input);
      });
    for (const Position4& position : positions4)
      check(input, [&] {
        const Move4 move = parse_move(position, input);
        BOOST_TEST(position.is_legal(move), printable(input));
        BOOST_TEST(to_string(move) == input);
      });
  }
  // short move-like garbage, where legal moves hide among the near misses
  const std::string move_chars = std::string("abcdef0123456xoXOz ", 19) + std::string(1, '\0');
  for (int i = 0; i < 8000; ++i) {
    std::string s(rng() % 7, ' ');
    for (char& c : s) c = move_chars[rng() % move_chars.size()];
    for (const Position& position : positions2)
      check(s, [&] {
        const Move move = parse_move(position, s);
        BOOST_TEST(position.is_legal(move), printable(s));
        BOOST_TEST(to_string(move) == s);
      });
    for (const Position4& position : positions4)
      check(s, [&] {
        const Move4 move = parse_move(position, s);
        BOOST_TEST(position.is_legal(move), printable(s));
        BOOST_TEST(to_string(move) == s);
      });
  }
  BOOST_TEST(parsed > 100);  // some inputs are valid: the round-trip checks did run
  BOOST_TEST(rejected > 5000);
}

BOOST_AUTO_TEST_SUITE_END()
