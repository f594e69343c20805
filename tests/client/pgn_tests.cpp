// PGN of the arena's games: format_pgn's exact text for a small game (checked against a string
// written by hand from the format in pgn_writer.hpp), the round trip format_pgn -> parse_pgn for
// games of every kind (book moves, mate, negative and missing scores, no moves at all, each
// termination and result, quotes and backslashes in names, O to move at the start), and parse_pgn's
// refusal of malformed games with a message that names the line, the game and the problem.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "game_record.hpp"
#include "pgn_reader.hpp"
#include "pgn_writer.hpp"
#include "support/game_records.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo::arena;

namespace {

// Replaces the first `from` in `text`; false when there is none.
bool replace_once(std::string& text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) return false;
  text.replace(at, from.size(), to);
  return true;
}

std::string describe(const std::optional<int>& value) {
  return value ? std::to_string(*value) : "-";
}

// Every field, so that a failed comparison shows what differs.
std::string describe(const GameRecord& game) {
  std::ostringstream out;
  out << "event=" << game.event << " site=" << game.site << " date=" << game.date
      << " round=" << game.round << " x=" << game.x_name << " o=" << game.o_name
      << " start=" << game.start_position << " tc=" << game.time_control
      << " otc=" << (game.o_time_control ? *game.o_time_control : "-")
      << " result=" << result_text(game.result)
      << " termination=" << termination_name(game.termination) << " reason=" << game.reason
      << " times=" << game.start_time << "/" << game.end_time << "/" << game.duration << "\nbook:";
  for (const std::string& move : game.opening_moves) out << ' ' << move;
  out << "\nmoves:";
  for (const MoveRecord& m : game.moves)
    out << ' ' << m.move << '(' << describe(m.score_cp) << ',' << describe(m.score_mate) << ','
        << describe(m.depth) << ',' << m.time_ms << ','
        << (m.nodes ? std::to_string(*m.nodes) : "-") << ')';
  return out.str();
}

GameRecord base_game() {
  GameRecord game;
  game.site = "localhost";
  game.date = "2026.11.26";
  game.round = "1";
  game.x_name = "alpha";
  game.o_name = "beta";
  game.start_position = "5/5/5/5/5 x";
  game.time_control = "10+0.1";
  return game;
}

// A real game won by X's line on rank 5 at ply 9, the first two plies from the book.
GameRecord x_wins_by_line() {
  GameRecord game = base_game();
  game.round = "7";
  game.x_name = "Quixo \"Dev\" 1.0";
  game.o_name = "C:\\engines\\base\\";
  game.opening_moves = {"c5a5", "b1a1"};
  game.moves = {move_record("b5e5", 35, {}, 9, 120),     move_record("e2e1", -5, {}, 8, 15),
                move_record("d5e5", 0, {}, 10, 1000),    move_record("d1e1", -120, {}, 11, 2048),
                move_record("c1c5", {}, 2, 12, 7),       move_record("e4a4", {}, -1, 3, 0),
                move_record("b1b5", {}, 1, 1, 123456789)};
  game.time_control = "40/60+0.6";
  return ended(std::move(game), GameResult::XWins, Termination::Line, "X made a line of five");
}

// A real game won by O's line at ply 10, different clocks, every move without a score.
GameRecord o_wins_by_line() {
  GameRecord game = base_game();
  for (const char* move :
       {"d5d1", "a2a1", "b5b1", "e5a5", "e2e1", "e4a4", "c5c1", "a3a5", "e3e1", "a2a1"})
    game.moves.push_back(move_record(move, {}, {}, {}, 15));
  game.moves[3].depth = 4;  // a depth without a score: written "?/4"
  game.o_time_control = "40/60+0.6";
  return ended(std::move(game), GameResult::OWins, Termination::Line, "");
}

// X crashed before its first move: no moves, no book, empty optional fields.
GameRecord crash_on_first_move() {
  GameRecord game = base_game();
  game.site = "";
  game.date = "";
  game.round = "";
  game.time_control = "";
  // A tag is one line: the newline is written as a space (see representable()).
  return ended(std::move(game), GameResult::OWins, Termination::Crash,
               "X's process exited with code 1\nbefore its first move");
}

// O to move at the start: its first move is numbered "1...".
GameRecord o_moves_first() {
  GameRecord game = base_game();
  game.start_position = "x4/5/5/5/4o o";
  game.opening_moves = {"e1a1"};
  game.moves = {move_record("b1b5", 10, {}, 5, 30), move_record("a1e1", -10, {}, 5, 31)};
  return ended(std::move(game), GameResult::XWins, Termination::TimeForfeit, "O lost on time");
}

// A book line with a move number (docs/spec.md §3.3): "x4/5/5/5/4o o 12 moves e1a1 ..." keeps it in
// the FEN tag, and the moves are numbered from it.
GameRecord numbered_start(std::string start_position) {
  GameRecord game = base_game();
  const bool o_first = start_position.find(" o ") != std::string::npos;
  game.start_position = std::move(start_position);
  game.opening_moves =
      o_first ? std::vector<std::string>{"e1a1", "b1b5"} : std::vector<std::string>{"b1b5", "e1a1"};
  game.moves = {move_record(o_first ? "a1e1" : "a5e5", 10, {}, 5, 30)};
  return ended(std::move(game), GameResult::Draw, Termination::PlyCap,
               "the ply cap of 3 was reached");
}

// A book opening of four plies and then a stall of O with zero engine moves.
GameRecord book_only() {
  GameRecord game = base_game();
  game.opening_moves = {"a1e1", "e5a5", "b1b5", "a5a1"};
  return ended(std::move(game), GameResult::XWins, Termination::Stall,
               "O did not answer `isready` within 10 s");
}

struct RoundTripSample {
  std::string name;
  GameRecord game;
};
std::ostream& operator<<(std::ostream& out, const RoundTripSample& sample) {
  return out << sample.name;
}

// Every termination other than a line, from the start position with a few moves.
GameRecord ended_by(Termination termination, GameResult result) {
  GameRecord game = base_game();
  game.opening_moves = {"a1e1"};
  game.moves = {move_record("e5a5", 12, {}, 6, 50), move_record("b1b5", -3, {}, 6, 51)};
  return ended(std::move(game), result, termination,
               "ended by " + std::string(termination_name(termination)));
}

std::vector<RoundTripSample> round_trip_samples() {
  std::vector<RoundTripSample> samples = {
      {"x wins by line", x_wins_by_line()},
      {"o wins by line", o_wins_by_line()},
      {"crash on the first move", crash_on_first_move()},
      {"o moves first", o_moves_first()},
      {"x moves first at move 7", numbered_start("x4/5/5/5/4o x 7")},
      {"o moves first at move 12", numbered_start("x4/5/5/5/4o o 12")},
      {"book only", book_only()},
      {"repetition", ended_by(Termination::Repetition, GameResult::Draw)},
      {"ply cap", ended_by(Termination::PlyCap, GameResult::Draw)},
      {"time forfeit", ended_by(Termination::TimeForfeit, GameResult::OWins)},
      {"illegal move", ended_by(Termination::IllegalMove, GameResult::XWins)},
      {"crash", ended_by(Termination::Crash, GameResult::XWins)},
      {"stall", ended_by(Termination::Stall, GameResult::OWins)},
      {"resign adjudication", ended_by(Termination::ResignAdjudication, GameResult::OWins)},
      {"draw adjudication", ended_by(Termination::DrawAdjudication, GameResult::Draw)},
      {"tablebase win", ended_by(Termination::Tablebase, GameResult::OWins)},
      {"tablebase draw", ended_by(Termination::Tablebase, GameResult::Draw)},
  };
  // The limits of the fields' types, mate 0 and a zero score still read back exactly.
  GameRecord extremes = ended_by(Termination::Repetition, GameResult::Draw);
  constexpr int kMin = std::numeric_limits<int>::min();
  constexpr int kMax = std::numeric_limits<int>::max();
  extremes.moves = {move_record("e5a5", kMin, {}, kMax, std::numeric_limits<std::int64_t>::max()),
                    move_record("b1b5", kMax, {}, 0, -1),
                    move_record("a5a1", {}, kMin, -1, std::numeric_limits<std::int64_t>::min()),
                    move_record("c1c5", {}, kMax, {}, 0),
                    move_record("a2a1", {}, 0, 1, 1),
                    move_record("d1d5", 0, {}, {}, 1)};
  samples.push_back({"extreme values", extremes});
  // The same control for both engines still round-trips as "O's given explicitly".
  GameRecord same_controls = ended_by(Termination::Repetition, GameResult::Draw);
  same_controls.o_time_control = same_controls.time_control;
  samples.push_back({"same explicit controls", same_controls});
  // The players' ratings (quixo-gui's levels, issue 26), 0 (the random mover) included.
  GameRecord rated = x_wins_by_line();
  rated.x_elo = 0;
  rated.o_elo = 2400;
  samples.push_back({"ratings", rated});
  return samples;
}

// The record as parse_pgn can give it back: PGN holds no node counts and a tag is one line.
GameRecord representable(GameRecord game) {
  for (MoveRecord& move : game.moves) move.nodes.reset();
  for (char& c : game.reason)
    if (c == '\n') c = ' ';
  return game;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pgn_tests)

BOOST_AUTO_TEST_CASE(a_small_game_has_the_exact_text) {
  GameRecord game = base_game();
  game.round = "3";
  game.o_name = "beta \"B\" \\2";
  game.opening_moves = {"a1e1"};
  game.moves = {move_record("e5a5", 35, {}, 9, 120), move_record("b1b5", {}, {}, {}, 15),
                move_record("a5a1", {}, -2, 7, 1500), move_record("c1c5", -7, {}, 12, 2),
                move_record("a2a1", {}, 3, 5, 99999)};
  game.moves[1].nodes = 12345;  // not written
  game.result = GameResult::Draw;
  game.termination = Termination::PlyCap;
  game.reason = "the ply cap of 6 plies was reached";
  const std::string expected =
      "[Event \"quixo-arena\"]\n"
      "[Site \"localhost\"]\n"
      "[Date \"2026.11.26\"]\n"
      "[Round \"3\"]\n"
      "[White \"alpha\"]\n"
      "[Black \"beta \\\"B\\\" \\\\2\"]\n"
      "[Result \"1/2-1/2\"]\n"
      "[Variant \"quixo\"]\n"
      "[SetUp \"1\"]\n"
      "[FEN \"5/5/5/5/5 x\"]\n"
      "[TimeControl \"10+0.1\"]\n"
      "[Termination \"adjudication\"]\n"
      "[QuixoTermination \"ply cap\"]\n"
      "[Reason \"the ply cap of 6 plies was reached\"]\n"
      "[PlyCount \"6\"]\n"
      "\n"
      "1. a1e1 {book} 1... e5a5 {+0.35/9 0.120s} 2. b1b5 {0.015s}\n"
      "2... a5a1 {-M2/7 1.500s} 3. c1c5 {-0.07/12 0.002s} 3... a2a1 {+M3/5 99.999s}\n"
      "1/2-1/2\n"
      "\n";
  BOOST_TEST(format_pgn(game) == expected);
  // The hand-written text is a legal game that reads back to the record (without the nodes).
  const std::vector<GameRecord> games = parse_pgn(expected);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  BOOST_TEST(describe(games[0]) == describe(representable(game)));
}

// Issue 9, defect 13: the FEN tag keeps the book line's move number and the movetext goes on
// from it, as in chess PGN.
BOOST_AUTO_TEST_CASE(the_fen_keeps_the_move_number_and_the_moves_are_numbered_from_it) {
  const std::string o_first = format_pgn(numbered_start("x4/5/5/5/4o o 12"));
  BOOST_TEST(o_first.find("[FEN \"x4/5/5/5/4o o 12\"]\n") != std::string::npos, o_first);
  BOOST_TEST(
      o_first.find("\n12... e1a1 {book} 13. b1b5 {book} 13... a1e1 {+0.10/5 0.030s} 1/2-1/2\n") !=
          std::string::npos,
      o_first);
  const std::string x_first = format_pgn(numbered_start("x4/5/5/5/4o x 7"));
  BOOST_TEST(x_first.find("\n7. b1b5 {book} 7... e1a1 {book} 8. a5e5 {+0.10/5 0.030s} 1/2-1/2\n") !=
                 std::string::npos,
             x_first);
  // A reader that numbered from 1 would refuse these numbers.
  std::string wrong = x_first;
  BOOST_REQUIRE(replace_once(wrong, "7. b1b5", "1. b1b5"));
  BOOST_CHECK_THROW(parse_pgn(wrong), PgnError);
}

// Found by fuzz_pgn: the move number after a blank other than ' ' and '\t' (here '\r' and '\v',
// which the notation takes as blanks too) was not seen by the writer, which numbered from 1,
// while the reader of the written text (the tag turns control characters into spaces) expected
// the FEN's number and refused the game.
BOOST_AUTO_TEST_CASE(a_move_number_after_any_blank_numbers_the_moves) {
  const std::string text = format_pgn(numbered_start("x4/5/5/5/4o x\r\v7"));
  BOOST_TEST(text.find("[FEN \"x4/5/5/5/4o x  7\"]\n") != std::string::npos, text);
  BOOST_TEST(text.find("\n7. b1b5 {book} 7... e1a1 {book} 8. a5e5 ") != std::string::npos, text);
  std::vector<GameRecord> games;
  BOOST_REQUIRE_NO_THROW(games = parse_pgn(text));
  BOOST_REQUIRE(games.size() == 1u);
  BOOST_TEST(games[0].start_position == "x4/5/5/5/4o x  7");
  BOOST_TEST(format_pgn(games[0]) == text);
}

BOOST_AUTO_TEST_CASE(a_game_without_moves_has_only_the_result) {
  const std::string text = format_pgn(crash_on_first_move());
  BOOST_TEST(text.find("[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n") !=
             std::string::npos);
  BOOST_TEST(text.find("[TimeControl \"?\"]\n") != std::string::npos);
  BOOST_TEST(text.find("[Reason \"X's process exited with code 1 before its first move\"]\n") !=
             std::string::npos);
  BOOST_TEST(text.find("[PlyCount \"0\"]\n\n0-1\n\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(different_controls_get_white_and_black_tags) {
  const std::string text = format_pgn(o_wins_by_line());
  BOOST_TEST(text.find("[TimeControl \"10+0.1\"]\n[WhiteTimeControl \"10+0.1\"]\n"
                       "[BlackTimeControl \"40/60+0.6\"]\n") != std::string::npos);
  BOOST_TEST(text.find("{?/4 0.015s}") != std::string::npos);
  BOOST_TEST(format_pgn(x_wins_by_line()).find("WhiteTimeControl") == std::string::npos);
}

BOOST_DATA_TEST_CASE(round_trip, bdata::make(round_trip_samples()), sample) {
  const std::string text = format_pgn(sample.game);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) BOOST_TEST(line.size() <= 80u, line);
  BOOST_TEST(text.ends_with("\n\n"));
  const std::vector<GameRecord> games = parse_pgn(text);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  const GameRecord expected = representable(sample.game);
  BOOST_TEST(describe(games[0]) == describe(expected));
  BOOST_TEST((games[0] == expected));
  // Writing the parsed record again gives the same text.
  BOOST_TEST(format_pgn(games[0]) == text);
}

BOOST_AUTO_TEST_CASE(the_game_times_follow_the_ply_count_and_read_back) {
  GameRecord game = x_wins_by_line();
  game.start_time = "2026-11-27T05:50:25 +0000";
  game.end_time = "2026-11-27T05:51:30 +0000";
  game.duration = "00:01:05";
  const std::string text = format_pgn(game);
  BOOST_TEST(text.find("\"]\n[GameStartTime \"2026-11-27T05:50:25 +0000\"]\n"
                       "[GameEndTime \"2026-11-27T05:51:30 +0000\"]\n"
                       "[GameDuration \"00:01:05\"]\n\n") != std::string::npos);
  BOOST_TEST(text.find("[PlyCount") < text.find("[GameStartTime"));
  const std::vector<GameRecord> games = parse_pgn(text);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  BOOST_TEST(describe(games[0]) == describe(representable(game)));
  // Without them (a record from elsewhere), no tags.
  BOOST_TEST(format_pgn(x_wins_by_line()).find("GameStartTime") == std::string::npos);
}

// Found by fuzz_pgn (a harness that did not know these tags): a game time read from a PGN may
// hold a control character; written again it is a space, as in every tag, and reads back so.
BOOST_AUTO_TEST_CASE(a_control_character_in_a_game_time_becomes_a_space) {
  GameRecord game = x_wins_by_line();
  game.end_time = "1\x03";
  const std::string text = format_pgn(game);
  BOOST_TEST(text.find("[GameEndTime \"1 \"]\n") != std::string::npos, text);
  const std::vector<GameRecord> games = parse_pgn(text);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  BOOST_TEST(games[0].end_time == "1 ");
  BOOST_TEST(format_pgn(games[0]) == text);
}

// --pgn FILE min: no comments and no tags beyond what a reader needs, and every game reads back
// with its moves (book moves as engine moves), start, players, result and ending.
BOOST_DATA_TEST_CASE(the_short_form_reads_back_with_its_moves, bdata::make(round_trip_samples()),
                     sample) {
  GameRecord game = sample.game;
  game.start_time = "2026-11-27T05:50:25 +0000";
  const std::string text = format_pgn(game, PgnStyle::Min);
  BOOST_TEST(text.find('{') == std::string::npos);
  for (const char* tag : {"[TimeControl", "[Reason", "[PlyCount", "[GameStartTime"})
    BOOST_TEST(text.find(tag) == std::string::npos, tag);
  const std::vector<GameRecord> games = parse_pgn(text);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  const GameRecord& read = games[0];
  std::vector<std::string> expected_moves = game.opening_moves;
  for (const MoveRecord& move : game.moves) expected_moves.push_back(move.move);
  std::vector<std::string> read_moves;
  for (const MoveRecord& move : read.moves) read_moves.push_back(move.move);
  BOOST_TEST(read.opening_moves.empty());
  BOOST_TEST(read_moves == expected_moves, boost::test_tools::per_element());
  BOOST_TEST(read.start_position == game.start_position);
  BOOST_TEST(read.x_name == representable(game).x_name);
  BOOST_TEST((read.result == game.result));
  BOOST_TEST((read.termination == game.termination));
  BOOST_TEST((read.four_player.has_value() == game.four_player.has_value()));
  // Writing it short again gives the same text.
  BOOST_TEST(format_pgn(read, PgnStyle::Min) == format_pgn(representable(game), PgnStyle::Min));
}

BOOST_AUTO_TEST_CASE(many_games_in_one_text) {
  std::string text;
  std::vector<GameRecord> expected;
  for (const RoundTripSample& sample : round_trip_samples()) {
    text += format_pgn(sample.game);
    expected.push_back(representable(sample.game));
  }
  const std::vector<GameRecord> games = parse_pgn(text);
  BOOST_TEST_REQUIRE(games.size() == expected.size());
  for (std::size_t i = 0; i < games.size(); ++i)
    BOOST_TEST(describe(games[i]) == describe(expected[i]), "game " << i + 1);
  BOOST_TEST(parse_pgn("").empty());
  BOOST_TEST(parse_pgn(" \n\n").empty());
}

// Other writers break lines elsewhere, glue the number to the move or the comment to the move, and
// put "%" escape lines between games: the reader takes the same game from any of these layouts.
BOOST_AUTO_TEST_CASE(the_layout_of_the_movetext_does_not_matter) {
  const GameRecord game = ended_by(Termination::Repetition, GameResult::Draw);
  std::string text = format_pgn(game);
  BOOST_TEST_REQUIRE(
      replace_once(text, "1. a1e1 {book} 1... e5a5 {+0.12/6 0.050s} 2. b1b5 {-0.03/6 0.051s}",
                   "1.a1e1\n{book}\n\n1...e5a5 {+0.12/6\n0.050s}   2.\tb1b5{-0.03/6 0.051s}"));
  const std::vector<GameRecord> games = parse_pgn("% an escaped line\n" + text);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  BOOST_TEST(describe(games[0]) == describe(game));
}

namespace {

// The small game of a_small_game_has_the_exact_text, to be broken in one place.
const std::string kValidGame =
    "[Event \"quixo-arena\"]\n"
    "[Site \"localhost\"]\n"
    "[Date \"2026.11.26\"]\n"
    "[Round \"3\"]\n"
    "[White \"alpha\"]\n"
    "[Black \"beta\"]\n"
    "[Result \"1/2-1/2\"]\n"
    "[Variant \"quixo\"]\n"
    "[SetUp \"1\"]\n"
    "[FEN \"5/5/5/5/5 x\"]\n"
    "[TimeControl \"10+0.1\"]\n"
    "[Termination \"adjudication\"]\n"
    "[QuixoTermination \"ply cap\"]\n"
    "[PlyCount \"4\"]\n"
    "\n"
    "1. a1e1 {book} 1... e5a5 {+0.35/9 0.120s} 2. b1b5 {0.015s}\n"
    "2... a5a1 {-M2/7 1.500s} 1/2-1/2\n"
    "\n";

struct MalformedSample {
  std::string name;
  std::string from;  // replaced in kValidGame...
  std::string to;    // ...by this
  std::string line;  // the message names this line of the text...
  std::string what;  // ...and says this
};
std::ostream& operator<<(std::ostream& out, const MalformedSample& sample) {
  return out << sample.name;
}

const std::vector<MalformedSample> kMalformed = {
    {"illegal move", "1... e5a5", "1... e1a1", "16", "illegal move 1... e1a1: e1 holds an X cube"},
    {"impossible geometry", "b1b5", "b1c3", "16", "illegal move 2. b1c3: c3 is not an end"},
    {"bad square", "2... a5a1 {-M2/7 1.500s}", "2... a5a1 {-M2/7 1.500s} 3. z9z9 {0.001s}", "17",
     "illegal move 3. z9z9: bad square 'z9'"},
    {"not a move", "2... a5a1", "2... !!", "17", "illegal move 2... !!: bad move '!!'"},
    {"missing FEN", "[FEN \"5/5/5/5/5 x\"]\n", "", "16", "missing tag [FEN"},
    {"bad FEN", "[FEN \"5/5/5/5/5 x\"]", "[FEN \"5/5/5/5 x\"]", "10", "bad FEN '5/5/5/5 x'"},
    {"missing White", "[White \"alpha\"]\n", "", "16", "missing tag [White"},
    {"missing QuixoTermination", "[QuixoTermination \"ply cap\"]\n", "", "16",
     "missing tag [QuixoTermination"},
    {"bad result tag", "[Result \"1/2-1/2\"]", "[Result \"2-0\"]", "7", "bad result '2-0'"},
    {"unfinished by the tag only", " 1/2-1/2\n", " *\n", "17",
     "the movetext ends in '*' but the Result tag says '1/2-1/2'"},
    {"unterminated with a result", "[QuixoTermination \"ply cap\"]",
     "[QuixoTermination \"unterminated\"]", "13",
     "QuixoTermination 'unterminated' does not fit the result 1/2-1/2"},
    {"result disagrees", " 1/2-1/2\n", " 1-0\n", "17",
     "the movetext ends in '1-0' but the Result tag says '1/2-1/2'"},
    {"no result", " 1/2-1/2\n", "\n", "19", "the movetext ends without a result"},
    {"bad move number", "2. b1b5", "3. b1b5", "16", "move number '3.' where '2.' was expected"},
    {"O numbered as X", "1... e5a5", "1. e5a5", "16", "move number '1.' where '1...' was expected"},
    {"number without a move", " 1/2-1/2\n", " 3. 1/2-1/2\n", "17",
     "a move number without its move"},
    {"X move without a number", "2. b1b5", "b1b5", "16", "X's move b1b5 has no move number"},
    {"bad score", "{+0.35/9 0.120s}", "{+0.3x/9 0.120s}", "16", "bad score '+0.3x'"},
    {"three decimals of pawns", "{+0.35/9 0.120s}", "{+0.355/9 0.120s}", "16", "bad score"},
    {"bad depth", "{+0.35/9 0.120s}", "{+0.35/x 0.120s}", "16", "bad depth 'x'"},
    {"bad mate", "{-M2/7 1.500s}", "{-Mx/7 1.500s}", "17", "bad mate score '-Mx'"},
    {"four decimals of seconds", "{0.015s}", "{0.0151s}", "16", "bad time '0.0151s'"},
    {"time without unit", "{0.015s}", "{0.015}", "16", "does not end in 's'"},
    {"lone unknown score", "{0.015s}", "{? 0.015s}", "16", "'?' is written only before a depth"},
    {"comment of three words", "{0.015s}", "{0.015s and more}", "16",
     "bad comment {0.015s and more} after move 2. b1b5"},
    {"missing comment", "b1b5 {0.015s}", "b1b5", "16",
     "move 2. b1b5 has no comment: in a game with comments each move carries"},
    {"two comments", "{0.015s}", "{0.015s} {0.015s}", "16", "a second comment after move b1b5"},
    {"book after engine moves", "b1b5 {0.015s}", "b1b5 {book}", "16",
     "book move 2. b1b5 after the engines' moves"},
    {"comment before the first move", "1. a1e1", "{hello} 1. a1e1", "16",
     "a comment before the first move"},
    {"unclosed comment", "{-M2/7 1.500s}", "{-M2/7 1.500s", "17", "a comment '{' is never closed"},
    {"variation", "2. b1b5", "(2. b1c1) 2. b1b5", "16", "variations"},
    {"wrong ply count", "[PlyCount \"4\"]", "[PlyCount \"5\"]", "14",
     "PlyCount 5 but the movetext has 4 plies"},
    {"unknown termination", "[QuixoTermination \"ply cap\"]", "[QuixoTermination \"boredom\"]",
     "13", "unknown QuixoTermination 'boredom'"},
    {"termination disagrees", "[Termination \"adjudication\"]", "[Termination \"normal\"]", "12",
     "Termination 'normal' disagrees with QuixoTermination 'ply cap'"},
    {"line without a line", "[Termination \"adjudication\"]\n[QuixoTermination \"ply cap\"]",
     "[Termination \"normal\"]\n[QuixoTermination \"line\"]", "17",
     "the game ended by a line, but no line is on the board"},
    {"tablebase termination disagrees",
     "[Termination \"adjudication\"]\n[QuixoTermination \"ply cap\"]",
     "[Termination \"normal\"]\n[QuixoTermination \"tablebase\"]", "12",
     "Termination 'normal' disagrees with QuixoTermination 'tablebase' (expected 'adjudication')"},
    {"other variant", "[Variant \"quixo\"]", "[Variant \"chess\"]", "8",
     "Variant 'chess' is not quixo"},
    {"repeated tag", "[Round \"3\"]", "[Round \"3\"]\n[Round \"4\"]", "5", "tag Round is repeated"},
    {"unclosed tag value", "[Site \"localhost\"]", "[Site \"localhost]", "2",
     "the value of tag Site has no closing quote"},
    {"tag without value", "[Site \"localhost\"]", "[Site localhost]", "2",
     "tag Site has no quoted value"},
    {"no tags", kValidGame.substr(0, kValidGame.find("\n\n1.") + 2), "", "1",
     "expected a tag pair"},
    {"next game too early", " 1/2-1/2\n", "\n[Event \"x\"]\n", "18",
     "the next game's tags begin before this game's result"},
};

}  // namespace

BOOST_AUTO_TEST_CASE(the_valid_game_of_the_malformed_cases_parses) {
  const std::vector<GameRecord> games = parse_pgn(kValidGame);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  BOOST_TEST(games[0].opening_moves.size() == 1u);
  BOOST_TEST(games[0].moves.size() == 3u);
  BOOST_TEST(describe(games[0].moves[2].score_mate) == "-2");
}

// A game saved while it goes on (quixo-gui) is "*", with the standard Termination "unterminated".
BOOST_AUTO_TEST_CASE(an_unfinished_game_is_a_star_and_reads_back) {
  std::string text = kValidGame;
  BOOST_TEST_REQUIRE(replace_once(text, "[Result \"1/2-1/2\"]", "[Result \"*\"]"));
  BOOST_TEST_REQUIRE(replace_once(text, " 1/2-1/2\n", " *\n"));
  BOOST_TEST_REQUIRE(
      replace_once(text, "[Termination \"adjudication\"]\n[QuixoTermination \"ply cap\"]",
                   "[Termination \"unterminated\"]\n[QuixoTermination \"unterminated\"]"));
  const std::vector<GameRecord> games = parse_pgn(text);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  BOOST_TEST((games[0].result == GameResult::Unfinished));
  BOOST_TEST((games[0].termination == Termination::Unterminated));
  BOOST_TEST(format_pgn(games[0]) == text);
}

BOOST_AUTO_TEST_CASE(a_rating_is_a_whole_number_or_unknown) {
  std::string text = kValidGame;
  BOOST_TEST_REQUIRE(
      replace_once(text, "[Result ", "[WhiteElo \"?\"]\n[BlackElo \"1850\"]\n[Result "));
  const std::vector<GameRecord> games = parse_pgn(text);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  BOOST_TEST(!games[0].x_elo.has_value());
  BOOST_TEST(games[0].o_elo.value_or(-1) == 1850);
  BOOST_TEST_REQUIRE(replace_once(text, "\"1850\"", "\"strong\""));
  BOOST_CHECK_EXCEPTION(parse_pgn(text), PgnError, [](const PgnError& error) {
    return std::string(error.what()).find("tag BlackElo must be a rating") != std::string::npos;
  });
}

BOOST_DATA_TEST_CASE(malformed_games_are_refused, bdata::make(kMalformed), sample) {
  std::string text = kValidGame;
  BOOST_TEST_REQUIRE(replace_once(text, sample.from, sample.to));
  try {
    parse_pgn(text);
    BOOST_ERROR("no PgnError for:\n" << text);
  } catch (const PgnError& error) {
    const std::string message = error.what();
    BOOST_TEST(message.starts_with("PGN line " + sample.line + ", game 1"), message);
    BOOST_TEST(message.find(sample.what) != std::string::npos, message);
  }
}

// The message names the game in a file of many, with its round and players.
BOOST_AUTO_TEST_CASE(an_error_names_the_game) {
  std::string bad = format_pgn(x_wins_by_line());
  BOOST_TEST_REQUIRE(replace_once(bad, "[PlyCount \"9\"]", "[PlyCount \"8\"]"));
  try {
    parse_pgn(format_pgn(o_wins_by_line()) + bad);
    BOOST_ERROR("no PgnError");
  } catch (const PgnError& error) {
    const std::string message = error.what();
    BOOST_TEST(message.find(", game 2 (Round 7, Quixo \"Dev\" 1.0 - C:\\engines\\base\\): "
                            "PlyCount 8 but the movetext has 9 plies") != std::string::npos,
               message);
  }
}

// The endgame tables (--tb) end a game that is still going: as cutechess-cli writes its tablebase
// adjudication, Termination "adjudication", and QuixoTermination "tablebase" with the reason.
BOOST_AUTO_TEST_CASE(a_tablebase_ending_is_written_as_an_adjudication_and_read_back) {
  GameRecord game = ended_by(Termination::Tablebase, GameResult::XWins);
  game.reason = "tablebase: X (alpha) wins in 17 plies";
  const std::string text = format_pgn(game);
  BOOST_TEST(text.find("[Termination \"adjudication\"]\n[QuixoTermination \"tablebase\"]\n"
                       "[Reason \"tablebase: X (alpha) wins in 17 plies\"]\n") != std::string::npos,
             text);
  const std::vector<GameRecord> games = parse_pgn(text);
  BOOST_TEST_REQUIRE(games.size() == 1u);
  BOOST_TEST(termination_name(games[0].termination) == "tablebase");
  BOOST_TEST(games[0].reason == game.reason);
  BOOST_TEST(describe(games[0]) == describe(representable(game)));
}

// The tables decide only games that are not over: with a line on the board, the line ended it.
BOOST_AUTO_TEST_CASE(a_tablebase_ending_with_a_line_on_the_board_is_refused) {
  GameRecord game = x_wins_by_line();
  game.termination = Termination::Tablebase;
  BOOST_CHECK_EXCEPTION(parse_pgn(format_pgn(game)), PgnError, [](const PgnError& error) {
    return std::string(error.what())
               .find("the game ended by the endgame tables, but a line is on the board") !=
           std::string::npos;
  });
}

// There are no four-player tables.
BOOST_AUTO_TEST_CASE(a_four_player_game_ended_by_the_tables_is_refused) {
  GameRecord game = base_game();
  game.start_position = "5/5/5/5/5 1";
  game.four_player = FourPlayerSeats{Seating::PerSeat, {"alpha", "beta", "alpha", "beta"}};
  game.termination = Termination::Tablebase;
  BOOST_CHECK_EXCEPTION(parse_pgn(format_pgn(game)), PgnError, [](const PgnError& error) {
    return std::string(error.what()).find("a four-player game cannot end by the endgame tables") !=
           std::string::npos;
  });
}

// No move is legal once a line is on the board: a move after the winning one is refused.
BOOST_AUTO_TEST_CASE(a_move_after_the_end_is_refused) {
  std::string text = format_pgn(x_wins_by_line());
  const std::string last = "5. b1b5 {+M1/1 123456.789s}";
  BOOST_TEST_REQUIRE(replace_once(text, last, last + " 5... a2a1 {0.001s}"));
  BOOST_TEST_REQUIRE(replace_once(text, "[PlyCount \"9\"]", "[PlyCount \"10\"]"));
  BOOST_CHECK_EXCEPTION(parse_pgn(text), PgnError, [](const PgnError& error) {
    return std::string(error.what())
               .find(
                   "illegal move 5... a2a1: no move is legal: the game is "
                   "over (X wins)") != std::string::npos;
  });
}

// quixo-gui's studies: a person's comments and variations (MoveRecord::comment, ::variations)
// are written after the move, "{...}" and "( ... )" with the variation's moves numbered from
// their ply, and read back by the annotated reading; the arena's strict reading refuses them.
BOOST_AUTO_TEST_CASE(variations_and_comments_round_trip_in_the_annotated_reading) {
  GameRecord game = base_game();
  game.result = GameResult::Unfinished;
  game.termination = Termination::Unterminated;
  const auto move = [](std::string text, std::int64_t time_ms) {
    MoveRecord record;
    record.move = std::move(text);
    record.time_ms = time_ms;
    return record;
  };
  game.moves = {move("a1e1", 100), move("e5a5", 200), move("b1b5", 300)};
  game.moves[1].comment = "the usual reply";
  MoveRecord alternative = move("a5e5", 5);
  alternative.variations = {{move("b5b1", 6)}};  // nested: instead of the variation's first move
  game.moves[1].variations = {{alternative, move("b1b5", 7)}, {move("e5e1", 8)}};
  const std::string text = format_pgn(game);
  const std::string movetext = text.substr(text.find("\n\n") + 2);
  BOOST_TEST(movetext ==
                 "1. a1e1 {0.100s} 1... e5a5 {0.200s} {the usual reply} (1... a5e5 {0.005s}\n"
                 "(1... b5b1 {0.006s}) 2. b1b5 {0.007s}) (1... e5e1 {0.008s}) 2. b1b5 {0.300s} *\n"
                 "\n",
             text);
  BOOST_CHECK_THROW(parse_pgn(text), PgnError);
  const std::vector<GameRecord> read = parse_pgn(text, PgnReading::Annotated);
  BOOST_TEST_REQUIRE(read.size() == 1u);
  BOOST_TEST((read[0] == game));
  // Without annotations the text is the arena's, whichever reading reads it.
  GameRecord plain = game;
  plain.moves[1].comment.clear();
  plain.moves[1].variations.clear();
  BOOST_TEST(format_pgn(plain).find("(") == std::string::npos);
  BOOST_TEST(
      (parse_pgn(format_pgn(plain), PgnReading::Annotated)[0] == parse_pgn(format_pgn(plain))[0]));
}

// A study from elsewhere: free comments in place of the engine comments, moves without any.
BOOST_AUTO_TEST_CASE(a_study_with_free_comments_and_variations_is_read) {
  const std::string text =
      "[Event \"study\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"a\"]\n"
      "[Black \"b\"]\n[Result \"*\"]\n[FEN \"5/5/5/5/5 x\"]\n"
      "[QuixoTermination \"unterminated\"]\n\n"
      "1. a1e1 {a good start} (1. b1b5 {also fine} 1... e5a5) 1... e5a5 2. b1b5 *\n";
  const std::vector<GameRecord> read = parse_pgn(text, PgnReading::Annotated);
  BOOST_TEST_REQUIRE(read.size() == 1u);
  BOOST_TEST_REQUIRE(read[0].moves.size() == 3u);
  BOOST_TEST(read[0].moves[0].comment == "a good start");
  BOOST_TEST_REQUIRE(read[0].moves[0].variations.size() == 1u);
  BOOST_TEST_REQUIRE(read[0].moves[0].variations[0].size() == 2u);
  BOOST_TEST(read[0].moves[0].variations[0][0].comment == "also fine");
  BOOST_TEST(read[0].moves[0].variations[0][1].move == "e5a5");
}

const std::vector<MalformedSample> kMalformedVariations = {
    {"unclosed variation", "2. b1b5 {0.015s}", "2. b1b5 {0.015s} (2. b1c1 {0.001s}", "17",
     "the result inside a variation"},
    {"closed without opening", "2. b1b5 {0.015s}", "2. b1b5 {0.015s} )", "16",
     "a ')' without its '('"},
    {"illegal move in a variation", "2. b1b5 {0.015s}", "2. b1b5 {0.015s} (2. b1c3)", "16",
     "illegal move 2. b1c3 in a variation of 2. b1b5: c3 is not an end"},
    {"variation of a book move", "1. a1e1 {book}", "1. a1e1 {book} (1. b1b5)", "16",
     "a variation of the book move 1. a1e1"},
    {"empty variation", "2. b1b5 {0.015s}", "2. b1b5 {0.015s} ( )", "16", "an empty variation"},
    {"variation first", "1. a1e1", "(1. a1e1) 1. a1e1", "16", "a variation '(' before the first"},
    {"bad number in a variation", "2. b1b5 {0.015s}", "2. b1b5 {0.015s} (3. b1c1)", "16",
     "move number '3.' where '2.' was expected"},
    {"variations nested too deep", "2. b1b5 {0.015s}",
     [] {
       std::string deep = "2. b1b5 {0.015s}";
       for (int i = 0; i < 70; ++i) deep += " (2. b1b5";
       return deep;
     }(),
     "16", "variations nested deeper than 64"},
};

BOOST_DATA_TEST_CASE(malformed_variations_are_refused, bdata::make(kMalformedVariations), sample) {
  std::string text = kValidGame;
  BOOST_TEST_REQUIRE(replace_once(text, sample.from, sample.to));
  try {
    parse_pgn(text, PgnReading::Annotated);
    BOOST_ERROR("no PgnError for:\n" << text);
  } catch (const PgnError& error) {
    const std::string message = error.what();
    BOOST_TEST(message.starts_with("PGN line " + sample.line + ", game 1"), message);
    BOOST_TEST(message.find(sample.what) != std::string::npos, message);
  }
}

BOOST_AUTO_TEST_SUITE_END()
