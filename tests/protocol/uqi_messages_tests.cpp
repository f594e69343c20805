// The UQI message layer on its own, both sides of it: tokenizing (text_helpers), the engine's
// `go`, `position` and `setoption` parsers and output formatters (uqi_engine_messages), and a
// GUI's reverse parsers of that output (uqi_client_messages, which the arena uses). Every parser
// is fed garbage too: it must never throw.

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <climits>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "board_display.hpp"
#include "core/notation.hpp"
#include "core/text_helpers.hpp"
#include "support/go_command_format.hpp"
#include "support/search_limits.hpp"
#include "uqi_client_messages.hpp"
#include "uqi_engine_messages.hpp"

// Printable bounds for the data-driven cases (found by argument-dependent lookup).
namespace quixo {
inline std::ostream& operator<<(std::ostream& out, Bound bound) {
  return out << "bound " << int(bound);
}
}  // namespace quixo

namespace bdata = boost::unit_test::data;
namespace text_helpers = quixo::text_helpers;
namespace uqi = quixo::uqi;

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

uqi::GoCommand go(std::string_view line) {
  const auto tokens = text_helpers::tokenize(line);
  return uqi::parse_go_command(std::span(tokens).subspan(1));
}

uqi::GoCommand go(std::string_view line, const quixo::Game& game) {
  const auto tokens = text_helpers::tokenize(line);
  return uqi::parse_go_command(std::span(tokens).subspan(1), game);
}

uqi::PositionCommand position(std::string_view line) {
  const auto tokens = text_helpers::tokenize(line);
  return uqi::parse_position_command(std::span(tokens).subspan(1));
}

bool any_note_contains(const uqi::GoCommand& command, std::string_view text) {
  for (const std::string& note : command.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

quixo::Game game_of(std::string_view line) {
  const uqi::PositionCommand command = position(line);
  BOOST_TEST_REQUIRE(command.game.has_value(), "position failed: " << command.error);
  return *command.game;
}

// A go-line field and the value the parser must give it.
struct GoCase {
  std::string line;
  std::int64_t x_time;
  std::int64_t o_time;
  std::int64_t x_inc;
  std::int64_t o_inc;
  int moves_to_go;
  int depth;
  std::uint64_t nodes;
  std::int64_t move_time;
  std::size_t notes;
};
std::ostream& operator<<(std::ostream& out, const GoCase& c) {
  return out << "'" << c.line << "'";
}

const GoCase kGoCases[] = {
    {"go", -1, -1, 0, 0, 0, 0, 0, 0, 0},
    {"go xtime 1000 otime 2000 xinc 10 oinc 20", 1000, 2000, 10, 20, 0, 0, 0, 0, 0},
    {"go p1time 1000 p2time 2000 p1inc 10 p2inc 20", 1000, 2000, 10, 20, 0, 0, 0, 0, 0},
    {"go wtime 5 btime 6 winc 7 binc 8 movestogo 9", 5, 6, 7, 8, 9, 0, 0, 0, 0},
    {"go  \t depth   7 \r", -1, -1, 0, 0, 0, 7, 0, 0, 0},
    {"go nodes 12345 movetime 250", -1, -1, 0, 0, 0, 0, 12345, 250, 0},
    // Negative clocks: the time is gone.
    {"go xtime -50 otime 100 xinc -5", 0, 100, 0, 0, 0, 0, 0, 0, 2},
    // Zero or negative limits stay limits.
    {"go depth 0", -1, -1, 0, 0, 0, 1, 0, 0, 1},
    {"go depth -4 nodes -1 movetime 0", -1, -1, 0, 0, 0, 1, 1, 1, 3},
    {"go movestogo -3", -1, -1, 0, 0, 0, 0, 0, 0, 1},
    // Huge values clamp to their type.
    {"go xtime 99999999999999999999999999 depth 123456789012", kInt64Max, -1, 0, 0, 0, INT_MAX, 0,
     0, 0},
    {"go nodes 18446744073709551615 movetime 9223372036854775807", -1, -1, 0, 0, 0, 0,
     std::uint64_t(kInt64Max), kInt64Max, 0},
    {"go xtime -99999999999999999999", 0, -1, 0, 0, 0, 0, 0, 0, 1},
    // Missing values: the next keyword is not eaten.
    {"go depth", -1, -1, 0, 0, 0, 0, 0, 0, 1},
    {"go depth movetime 100", -1, -1, 0, 0, 0, 0, 0, 100, 1},
    {"go xtime otime 5", -1, 5, 0, 0, 0, 0, 0, 0, 1},
    // Non-numeric values are eaten and ignored.
    {"go depth abc nodes 10", -1, -1, 0, 0, 0, 0, 10, 0, 1},
    {"go xtime 1e3 otime 10.5 depth 3x", -1, -1, 0, 0, 0, 0, 0, 0, 3},
    {"go movetime +40", -1, -1, 0, 0, 0, 0, 0, 40, 0},
    // Unknown tokens are skipped one by one.
    {"go foo depth 3 bar baz", -1, -1, 0, 0, 0, 3, 0, 0, 3},
    {"go DEPTH 3", -1, -1, 0, 0, 0, 0, 0, 0, 2},
};

// ------------------------------------------------------------------------- go (a GUI's side)

using uqi::GoLimits;
using uqi::GoRequest;
using uqi::GoRequest4;
using uqi::Protocol;
// The limit builders of the search suites, for GoLimits (the same field names).
using quixo::test::depth_limit;
using quixo::test::infinite;
using quixo::test::move_time;
using quixo::test::node_limit;
using quixo::test::pondering;

GoLimits clock_limits(std::int64_t time_ms, std::int64_t increment_ms,
                      std::optional<int> moves_to_go = std::nullopt) {
  GoLimits limits;
  limits.time_ms = time_ms;
  limits.increment_ms = increment_ms;
  limits.moves_to_go = moves_to_go;
  return limits;
}

struct GoSample {
  std::string label;
  Protocol protocol;
  bool mover_is_x;
  GoLimits own;
  GoLimits other;
  std::string expected;
};
std::ostream& operator<<(std::ostream& out, const GoSample& sample) {
  return out << sample.label;
}

const std::vector<GoSample> kGoSamples = {
    {"uqi clock, X to move", Protocol::Uqi, true, clock_limits(9000, 100, 12),
     clock_limits(8000, 50), "go xtime 9000 otime 8000 xinc 100 oinc 50 movestogo 12"},
    // The mover's own clock is O's: it goes to otime, the opponent's to xtime.
    {"uqi clock, O to move", Protocol::Uqi, false, clock_limits(9000, 100, 12),
     clock_limits(8000, 50), "go xtime 8000 otime 9000 xinc 50 oinc 100 movestogo 12"},
    {"ugi clock, X to move", Protocol::Ugi, true, clock_limits(9000, 100, 12),
     clock_limits(8000, 50), "go p1time 9000 p2time 8000 p1inc 100 p2inc 50 movestogo 12"},
    {"ugi clock, O to move", Protocol::Ugi, false, clock_limits(9000, 100, 12),
     clock_limits(8000, 50), "go p1time 8000 p2time 9000 p1inc 50 p2inc 100 movestogo 12"},
    {"uqi sudden death, O to move", Protocol::Uqi, false, clock_limits(1000, 0),
     clock_limits(2500, 0), "go xtime 2500 otime 1000 xinc 0 oinc 0"},
    {"ugi sudden death, X to move", Protocol::Ugi, true, clock_limits(1000, 0),
     clock_limits(2500, 0), "go p1time 1000 p2time 2500 p1inc 0 p2inc 0"},
    {"uqi movetime", Protocol::Uqi, true, move_time<GoLimits>(500), {}, "go movetime 500"},
    {"ugi movetime, O", Protocol::Ugi, false, move_time<GoLimits>(500), {}, "go movetime 500"},
    {"uqi nodes, O", Protocol::Uqi, false, node_limit<GoLimits>(20000), {}, "go nodes 20000"},
    {"ugi nodes", Protocol::Ugi, true, node_limit<GoLimits>(20000), {}, "go nodes 20000"},
    {"uqi depth", Protocol::Uqi, true, depth_limit<GoLimits>(8), {}, "go depth 8"},
    {"ugi depth, O", Protocol::Ugi, false, depth_limit<GoLimits>(8), {}, "go depth 8"},
    {"uqi infinite", Protocol::Uqi, true, infinite<GoLimits>(), {}, "go infinite"},
    {"ugi infinite, O", Protocol::Ugi, false, infinite<GoLimits>(), clock_limits(5, 5),
     "go infinite"},
    {"uqi ponder, O", Protocol::Uqi, false, pondering(clock_limits(900, 10)), clock_limits(700, 10),
     "go ponder xtime 700 otime 900 xinc 10 oinc 10"},
    {"ugi ponder movetime",
     Protocol::Ugi,
     true,
     pondering(move_time<GoLimits>(300)),
     {},
     "go ponder movetime 300"},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(uqi_messages_tests)

BOOST_AUTO_TEST_CASE(tokenize_splits_on_any_whitespace) {
  const auto tokens = text_helpers::tokenize("  go\tdepth  3 \r\n");
  BOOST_TEST_REQUIRE(tokens.size() == 3u);
  BOOST_TEST(tokens[0] == "go");
  BOOST_TEST(tokens[1] == "depth");
  BOOST_TEST(tokens[2] == "3");
  BOOST_TEST(text_helpers::tokenize("").empty());
  BOOST_TEST(text_helpers::tokenize(" \r\t\n ").empty());
  BOOST_TEST(text_helpers::tokenize("isready\r").size() == 1u);
  BOOST_TEST(text_helpers::tokenize("isready\r")[0] == "isready");
}

BOOST_DATA_TEST_CASE(
    parse_integer_table,
    bdata::make(std::vector<std::string>{"0", "42", "-42", "+7", "007", "9223372036854775807",
                                         "9223372036854775808", "123456789012345678901234567890",
                                         "-9223372036854775808", "-9223372036854775809",
                                         "-99999999999999999999999"}) ^
        bdata::make(std::vector<std::int64_t>{0, 42, -42, 7, 7, kInt64Max, kInt64Max, kInt64Max,
                                              kInt64Min, kInt64Min, kInt64Min}),
    text, expected) {
  const auto value = text_helpers::parse_integer(text);
  BOOST_TEST_REQUIRE(value.has_value());
  BOOST_TEST(*value == expected);
}

BOOST_DATA_TEST_CASE(parse_integer_rejects_non_numbers,
                     bdata::make(std::vector<std::string>{"", "-", "+", "abc", "1e3", "10.5", "3x",
                                                          " 3", "3 ", "--3", "+-3", "0x10",
                                                          "\xff"}),
                     text) {
  BOOST_TEST(!text_helpers::parse_integer(text).has_value());
}

BOOST_DATA_TEST_CASE(go_table, bdata::make(kGoCases), c) {
  const uqi::GoCommand command = go(c.line);
  const quixo::SearchLimits& limits = command.limits;
  BOOST_TEST(limits.time_ms[0] == c.x_time);
  BOOST_TEST(limits.time_ms[1] == c.o_time);
  BOOST_TEST(limits.increment_ms[0] == c.x_inc);
  BOOST_TEST(limits.increment_ms[1] == c.o_inc);
  BOOST_TEST(limits.moves_to_go == c.moves_to_go);
  BOOST_TEST(limits.depth == c.depth);
  BOOST_TEST(limits.nodes == c.nodes);
  BOOST_TEST(limits.move_time_ms == c.move_time);
  BOOST_TEST(command.notes.size() == c.notes);
  BOOST_TEST(!limits.infinite);
  BOOST_TEST(!limits.ponder);
  BOOST_TEST(!command.perft_depth.has_value());
}

BOOST_AUTO_TEST_CASE(go_flags_mate_and_perft) {
  auto command = go("go infinite");
  BOOST_TEST(command.limits.infinite);
  BOOST_TEST(!command.limits.ponder);
  command = go("go ponder xtime 100 otime 100");
  BOOST_TEST(command.limits.ponder);
  BOOST_TEST(command.limits.uses_clock());
  command = go("go mate 3");
  BOOST_TEST(command.limits.mate == 3);
  command = go("go mate -3");
  BOOST_TEST(command.limits.mate == 1);
  command = go("go perft 4");
  BOOST_TEST_REQUIRE(command.perft_depth.has_value());
  BOOST_TEST(*command.perft_depth == 4);
  command = go("go perft 0");
  BOOST_TEST(*command.perft_depth == 0);
  command = go("go perft -1");
  BOOST_TEST(!command.perft_depth.has_value());
  command = go("go perft");
  BOOST_TEST(!command.perft_depth.has_value());
  BOOST_TEST(any_note_contains(command, "perft needs a value"));
}

BOOST_AUTO_TEST_CASE(go_four_player_clocks) {
  const auto command =
      go("go s1time 100 s2time 200 s3time 300 s4time 400 s1inc 1 s2inc 2 s3inc 3 s4inc 4");
  for (int seat = 0; seat < 4; ++seat) {
    BOOST_TEST(command.seat_time_ms[seat] == 100 * (seat + 1));
    BOOST_TEST(command.seat_increment_ms[seat] == seat + 1);
  }
  BOOST_TEST(!command.limits.uses_clock());
  BOOST_TEST(command.notes.empty());
  const auto negative = go("go s3time -1 s4inc x");
  BOOST_TEST(negative.seat_time_ms[2] == 0);
  BOOST_TEST(negative.seat_increment_ms[3] == 0);
  BOOST_TEST(negative.notes.size() == 2u);
}

BOOST_AUTO_TEST_CASE(go_searchmoves_two_player) {
  const quixo::Game game = game_of("position startpos moves b1e1");  // O to move, e1 holds x
  const auto command = go("go searchmoves a1a5 e1a1 a1a5 zz depth 2", game);
  BOOST_TEST(command.search_move_texts.size() == 4u);
  // a1a5 once (duplicates dropped); e1a1 takes an X cube; zz is no move.
  BOOST_TEST_REQUIRE(command.limits.search_moves.size() == 1u);
  BOOST_TEST(quixo::to_string(command.limits.search_moves[0]) == "a1a5");
  BOOST_TEST(command.limits.depth == 2);
  BOOST_TEST(any_note_contains(command, "'e1a1' skipped"));
  BOOST_TEST(any_note_contains(command, "'zz' skipped"));

  const auto none_legal = go("go searchmoves e1a1 infinite", game);
  BOOST_TEST(none_legal.limits.search_moves.empty());
  BOOST_TEST(none_legal.limits.infinite);
  BOOST_TEST(any_note_contains(none_legal, "searching all moves"));

  const auto empty = go("go searchmoves", game);
  BOOST_TEST(any_note_contains(empty, "without moves"));
}

BOOST_AUTO_TEST_CASE(go_searchmoves_four_player) {
  const quixo::Game game = game_of("position startpos4");
  const auto command = go("go searchmoves b1e1x b1e1X b1e1o b1e1 0000", game);
  BOOST_TEST(command.search_moves4.size() == 2u);
  BOOST_TEST(command.limits.search_moves.empty());
  BOOST_TEST(command.notes.size() == 3u);
}

BOOST_AUTO_TEST_CASE(go_round_trip) {
  const std::string line =
      "go xtime 1000 otime 900 xinc 10 oinc 20 s1time 5 s3time 7 s1inc 1 movestogo 30 depth 9 "
      "nodes 100000 mate 4 movetime 2000 infinite ponder searchmoves a1e1 b1b5";
  const auto command = go(line);
  BOOST_TEST(command.notes.empty());
  BOOST_TEST(uqi::format_go_command(command) == line);
  BOOST_TEST(uqi::format_go_command(go("go perft 3")) == "go perft 3");
}

// ------------------------------------------------------------------------------- position

BOOST_AUTO_TEST_CASE(position_start_positions) {
  const auto start = position("position startpos");
  BOOST_TEST_REQUIRE(start.game.has_value());
  BOOST_TEST((start.game->variant() == quixo::Variant::TwoPlayer));
  BOOST_TEST(start.game->text() == "5/5/5/5/5 x");
  BOOST_TEST(start.game->two_player()->history.empty());

  const auto start4 = position("position startpos4");
  BOOST_TEST_REQUIRE(start4.game.has_value());
  BOOST_TEST((start4.game->variant() == quixo::Variant::FourPlayer));
  BOOST_TEST(start4.game->text() == "5/5/5/5/5 1");
  BOOST_TEST(start4.game->legal_move_texts().size() == 88u);
}

// Unknown tokens between startpos and moves are skipped with a note, as UCI practice has it.
BOOST_AUTO_TEST_CASE(position_skips_unknown_tokens_after_startpos) {
  const auto command = position("position startpos foo moves b1b5");
  BOOST_TEST_REQUIRE(command.game.has_value(), command.error);
  BOOST_TEST(command.game->text() == position("position startpos moves b1b5").game->text());
  BOOST_TEST_REQUIRE(command.notes.size() == 1u);
  BOOST_TEST(command.notes[0].find("ignored 'foo'") != std::string::npos, command.notes[0]);
  const auto four = position("position startpos4 5 x moves b1e1x");
  BOOST_TEST_REQUIRE(four.game.has_value(), four.error);
  BOOST_TEST(four.game->text() == position("position startpos4 moves b1e1x").game->text());
  // Without moves too; and a clean command has no notes.
  BOOST_TEST(position("position startpos 5").game.has_value());
  BOOST_TEST(position("position startpos moves b1b5").notes.empty());
  // An illegal move is still refused whole.
  BOOST_TEST(!position("position startpos foo moves b1b5 zz").game.has_value());
}

BOOST_AUTO_TEST_CASE(position_fen_with_and_without_move_number) {
  for (const char* line :
       {"position fen xo3/5/5/5/4o x moves a5e5", "position fen xo3/5/5/5/4o x 17 moves a5e5",
        "  position   fen xo3/5/5/5/4o x 17   moves a5e5 \r"}) {
    const auto command = position(line);
    BOOST_TEST_REQUIRE(command.game.has_value(), line << ": " << command.error);
    BOOST_TEST(command.game->text() == "o3x/5/5/5/4o o", line);
    const auto& game = *command.game->two_player();
    BOOST_TEST(game.history.size() == 1u);
    BOOST_TEST(game.history[0] == quixo::parse_position("xo3/5/5/5/4o x").key());
  }
  const auto four = position("position fen xoXO1/5/5/5/5 3 moves e5a5X");
  BOOST_TEST_REQUIRE(four.game.has_value(), four.error);
  BOOST_TEST(four.game->text() == "XxoXO/5/5/5/5 4");
  BOOST_TEST(four.game->four_player()->history.size() == 1u);
}

BOOST_AUTO_TEST_CASE(position_history_and_repetitions) {
  // X shuttles a cube between e1 and a1, O between e5 and a5: every four plies the board of
  // ply 2 (x on e1, o on e5, X to move) returns.
  const std::string shuttle = "a1e1 a5e5 e1a1 e5a5 a1e1 a5e5 e1a1 e5a5 a1e1 a5e5";
  const auto command = position("position startpos moves " + shuttle);
  BOOST_TEST_REQUIRE(command.game.has_value(), command.error);
  BOOST_TEST(command.game->text() == "4o/5/5/5/4x x");
  const auto& game = *command.game->two_player();
  BOOST_TEST(game.history.size() == 10u);
  BOOST_TEST(game.history.front() == quixo::Position::start().key());
  BOOST_TEST(command.game->repetition_count() == 3);
  const auto twice = position("position startpos moves a1e1 a5e5 e1a1 e5a5 a1e1 a5e5");
  BOOST_TEST_REQUIRE(twice.game.has_value());
  BOOST_TEST(twice.game->repetition_count() == 2);
  // An empty moves list and plain startpos agree.
  const auto bare = position("position startpos moves");
  BOOST_TEST_REQUIRE(bare.game.has_value());
  BOOST_TEST(bare.game->text() == "5/5/5/5/5 x");
  BOOST_TEST(bare.game->repetition_count() == 1);
}

struct BadPosition {
  std::string line;
  std::string error_part;
};
std::ostream& operator<<(std::ostream& out, const BadPosition& c) {
  return out << "'" << c.line << "'";
}

const BadPosition kBadPositions[] = {
    {"position", "startpos"},
    {"position moves a1e1", "no position"},
    {"position fen", "missing"},
    {"position fen moves a1e1", "missing"},
    {"position fen 5/5/5/5 x", "ranks"},
    {"position fen 5/5/5/5/5 q", "side to move"},
    {"position fen 5/5/5/5/6 x", "run length"},
    {"position fen 5/5/5/5/5", "no side to move"},
    {"position fen 5/5/5/5/5 x 0", "move number"},
    {"position fen 5/5/5/5/5 x 12 13", "unexpected"},
    {"position start", "expected 'startpos'"},
    {"position startpos moves a1e1 a1e1 c3c5", "illegal move 'c3c5' (move 3"},
    {"position startpos moves b1e1x", "illegal move 'b1e1x'"},
    {"position startpos4 moves b1e1", "letter"},
    {"position startpos moves b1e1 e1a1", "may not take"},
    {"position fen xxxxx/5/5/5/5 o moves a1e1", "game is over"},
    {"position startpos moves \xff\xfe",
     "illegal move '?"
     "?'"},
};

BOOST_DATA_TEST_CASE(position_errors_name_the_problem, bdata::make(kBadPositions), c) {
  const auto command = position(c.line);
  BOOST_TEST(!command.game.has_value());
  BOOST_TEST(command.error.find(c.error_part) != std::string::npos, command.error);
}

// --------------------------------------------------------------------------------- setoption

BOOST_AUTO_TEST_CASE(setoption_parsing) {
  const auto parse = [](std::string_view line) {
    const auto tokens = text_helpers::tokenize(line);
    return uqi::parse_setoption_command(std::span(tokens).subspan(1));
  };
  auto command = parse("setoption name Hash value 64");
  BOOST_TEST_REQUIRE(command.has_value());
  BOOST_TEST(command->name == "Hash");
  BOOST_TEST(command->value.value_or("?") == "64");
  command = parse("setoption  name  Move   Overhead value  100 \r");
  BOOST_TEST_REQUIRE(command.has_value());
  BOOST_TEST(command->name == "Move Overhead");
  BOOST_TEST(command->value.value_or("?") == "100");
  command = parse("setoption name Clear Hash");
  BOOST_TEST_REQUIRE(command.has_value());
  BOOST_TEST(command->name == "Clear Hash");
  BOOST_TEST(!command->value.has_value());
  command = parse("setoption name Hash value");
  BOOST_TEST_REQUIRE(command.has_value());
  BOOST_TEST(command->value.value_or("?") == "");
  BOOST_TEST(!parse("setoption").has_value());
  BOOST_TEST(!parse("setoption name").has_value());
  BOOST_TEST(!parse("setoption value 3").has_value());
  BOOST_TEST(!parse("setoption name value 3").has_value());
  BOOST_TEST(uqi::format_setoption_command({"Hash", "64"}) == "setoption name Hash value 64");
  BOOST_TEST(uqi::format_setoption_command({"Clear Hash", std::nullopt}) ==
             "setoption name Clear Hash");
}

// ----------------------------------------------------------------------------- engine output

BOOST_AUTO_TEST_CASE(option_and_id_lines) {
  const uqi::OptionLine hash{"Hash", "spin", "16", 1, 65536, {}};
  const std::string line = uqi::format_option_line(hash);
  BOOST_TEST(line == "option name Hash type spin default 16 min 1 max 65536");
  const auto parsed = uqi::parse_option_line(line);
  BOOST_TEST_REQUIRE(parsed.has_value());
  BOOST_TEST(parsed->name == "Hash");
  BOOST_TEST(parsed->type == "spin");
  BOOST_TEST(parsed->default_value.value_or("?") == "16");
  BOOST_TEST(parsed->min.value_or(-1) == 1);
  BOOST_TEST(parsed->max.value_or(-1) == 65536);

  const auto combo =
      uqi::parse_option_line("option name Eval File type combo default a b var a b var c\r");
  BOOST_TEST_REQUIRE(combo.has_value());
  BOOST_TEST(combo->name == "Eval File");
  BOOST_TEST(combo->default_value.value_or("?") == "a b");
  BOOST_TEST(combo->vars.size() == 2u);
  const auto empty_string = uqi::parse_option_line("option name Path type string default <empty>");
  BOOST_TEST_REQUIRE(empty_string.has_value());
  BOOST_TEST(empty_string->default_value.value_or("?") == "");
  BOOST_TEST(!uqi::parse_option_line("option").has_value());
  BOOST_TEST(!uqi::parse_option_line("option name").has_value());
  BOOST_TEST(!uqi::parse_option_line("id name x").has_value());

  const auto id = uqi::parse_id_line("id name Quixo  0.1 \r");
  BOOST_TEST_REQUIRE(id.has_value());
  BOOST_TEST(id->field == "name");
  BOOST_TEST(id->value == "Quixo  0.1");
  BOOST_TEST(!uqi::parse_id_line("id").has_value());
  BOOST_TEST(!uqi::parse_id_line("uqiok").has_value());
}

BOOST_AUTO_TEST_CASE(score_formatting) {
  BOOST_TEST(uqi::format_score(0) == "cp 0");
  BOOST_TEST(uqi::format_score(-35) == "cp -35");
  BOOST_TEST(uqi::format_score(quixo::mate_in(1)) == "mate 1");
  BOOST_TEST(uqi::format_score(quixo::mate_in(3)) == "mate 2");
  BOOST_TEST(uqi::format_score(quixo::mated_in(2)) == "mate -1");
  BOOST_TEST(uqi::format_score(12, quixo::Bound::Lower) == "cp 12 lowerbound");
  BOOST_TEST(uqi::format_score(12, quixo::Bound::Upper) == "cp 12 upperbound");
}

// The bound a GUI reads for the engine's search bound (the GUI side has its own type, as it
// links no search).
uqi::ScoreBound reported(quixo::Bound bound) {
  if (bound == quixo::Bound::Lower) return uqi::ScoreBound::Lower;
  if (bound == quixo::Bound::Upper) return uqi::ScoreBound::Upper;
  return uqi::ScoreBound::Exact;
}

// Scores to round-trip through format_info and parse_info_line, with the expected cp or mate.
BOOST_DATA_TEST_CASE(info_round_trip,
                     bdata::make({0, 57, -1200, quixo::mate_in(1), quixo::mate_in(5),
                                  quixo::mated_in(0), quixo::mated_in(4)}) *
                         bdata::make({quixo::Bound::Exact, quixo::Bound::Lower,
                                      quixo::Bound::Upper}),
                     score, bound) {
  quixo::SearchInfo info;
  info.depth = 12;
  info.selective_depth = 19;
  info.time_ms = 1234;
  info.nodes = 98765432109ull;
  info.nodes_per_second = 5000000;
  info.hashfull = 421;
  info.tb_hits = 31415926535ull;
  info.score = score;
  info.bound = bound;
  info.multipv = 2;
  const quixo::Position start = quixo::Position::start();
  const quixo::Move first = start.legal_moves()[0];
  info.pv = {first, start.after(first).legal_moves()[3]};
  const std::string line = uqi::format_info(info);
  const auto parsed = uqi::parse_info_line(line);
  BOOST_TEST_REQUIRE(parsed.has_value());
  BOOST_TEST(parsed->depth.value_or(-1) == 12);
  BOOST_TEST(parsed->selective_depth.value_or(-1) == 19);
  BOOST_TEST(parsed->time_ms.value_or(-1) == 1234);
  BOOST_TEST(parsed->nodes.value_or(0) == 98765432109ull);
  BOOST_TEST(parsed->nodes_per_second.value_or(0) == 5000000u);
  BOOST_TEST(parsed->hashfull.value_or(-1) == 421);
  BOOST_TEST(parsed->tbhits.value_or(0) == 31415926535ull);
  BOOST_TEST(parsed->multipv.value_or(-1) == 2);
  BOOST_TEST((parsed->bound == reported(bound)));
  if (quixo::is_mate_score(score)) {
    BOOST_TEST(!parsed->score_cp.has_value());
    BOOST_TEST(parsed->score_mate.value_or(9999) == quixo::mate_moves(score));
  } else {
    BOOST_TEST(!parsed->score_mate.has_value());
    BOOST_TEST(parsed->score_cp.value_or(9999) == score);
  }
  BOOST_TEST_REQUIRE(parsed->pv.size() == 2u);
  BOOST_TEST(parsed->pv[0] == quixo::to_string(info.pv[0]));
  BOOST_TEST(parsed->pv[1] == quixo::to_string(info.pv[1]));
  BOOST_TEST(!parsed->string.has_value());
}

BOOST_AUTO_TEST_CASE(info_parsing_of_foreign_and_partial_lines) {
  auto info = uqi::parse_info_line(
      "info depth 3 currmove b1e1 currmovenumber 7 tbhits 0 wdl 1 2 3 score lowerbound cp 20 "
      "pv a1e1 c1c5 string not a keyword");
  BOOST_TEST_REQUIRE(info.has_value());
  BOOST_TEST(info->depth.value_or(-1) == 3);
  BOOST_TEST(info->currmove.value_or("?") == "b1e1");
  BOOST_TEST(info->currmovenumber.value_or(-1) == 7);
  BOOST_TEST(info->tbhits.value_or(99) == 0u);
  BOOST_TEST(info->score_cp.value_or(-1) == 20);
  BOOST_TEST((info->bound == uqi::ScoreBound::Lower));
  BOOST_TEST(info->pv.size() == 2u);
  BOOST_TEST(info->string.value_or("?") == "not a keyword");

  info = uqi::parse_info_line("info string  hello   world \r");
  BOOST_TEST_REQUIRE(info.has_value());
  BOOST_TEST(info->string.value_or("?") == "hello   world");
  BOOST_TEST(!info->depth.has_value());

  info = uqi::parse_info_line("info string");
  BOOST_TEST_REQUIRE(info.has_value());
  BOOST_TEST(info->string.value_or("?") == "");

  // Missing and bad values leave the field unset; the next keyword is still read.
  info = uqi::parse_info_line("info depth nodes x score cp pv time 5 nps -3 seldepth");
  BOOST_TEST_REQUIRE(info.has_value());
  BOOST_TEST(!info->depth.has_value());
  BOOST_TEST(!info->nodes.has_value());
  BOOST_TEST(!info->score_cp.has_value());
  BOOST_TEST(!info->score_mate.has_value());
  BOOST_TEST(info->pv.empty());
  BOOST_TEST(info->time_ms.value_or(-1) == 5);
  BOOST_TEST(!info->nodes_per_second.has_value());
  BOOST_TEST(!info->selective_depth.has_value());

  info = uqi::parse_info_line("info nodes 99999999999999999999999 depth 99999999999");
  BOOST_TEST_REQUIRE(info.has_value());
  BOOST_TEST(info->nodes.value_or(0) == std::numeric_limits<std::uint64_t>::max());
  BOOST_TEST(info->depth.value_or(0) == INT_MAX);

  info = uqi::parse_info_line("info score mate -3 upperbound");
  BOOST_TEST_REQUIRE(info.has_value());
  BOOST_TEST(info->score_mate.value_or(0) == -3);
  BOOST_TEST((info->bound == uqi::ScoreBound::Upper));

  BOOST_TEST(uqi::parse_info_line("info").has_value());
  BOOST_TEST(!uqi::parse_info_line("").has_value());
  BOOST_TEST(!uqi::parse_info_line("information depth 3").has_value());
  BOOST_TEST(!uqi::parse_info_line("bestmove a1e1").has_value());
}

BOOST_AUTO_TEST_CASE(bestmove_round_trip) {
  const quixo::Position start = quixo::Position::start();
  for (const quixo::Move move : start.legal_moves()) {
    const quixo::Move reply = start.after(move).legal_moves()[0];
    const auto parsed = uqi::parse_bestmove_line(uqi::format_bestmove(move, reply));
    BOOST_TEST_REQUIRE(parsed.has_value());
    BOOST_TEST(parsed->move == quixo::to_string(move));
    BOOST_TEST(parsed->ponder.value_or("?") == quixo::to_string(reply));
    const auto alone = uqi::parse_bestmove_line(uqi::format_bestmove(move));
    BOOST_TEST_REQUIRE(alone.has_value());
    BOOST_TEST(!alone->ponder.has_value());
  }
  BOOST_TEST(uqi::format_bestmove(quixo::Move::none()) == "bestmove 0000");
  BOOST_TEST(uqi::format_bestmove("") == "bestmove 0000");
  BOOST_TEST(uqi::format_bestmove("b1e1X", "0000") == "bestmove b1e1X ponder 0000");

  const auto spaced = uqi::parse_bestmove_line("  bestmove   a1e1   ponder  a5e5 \r");
  BOOST_TEST_REQUIRE(spaced.has_value());
  BOOST_TEST(spaced->move == "a1e1");
  BOOST_TEST(spaced->ponder.value_or("?") == "a5e5");
  const auto no_ponder_move = uqi::parse_bestmove_line("bestmove a1e1 ponder");
  BOOST_TEST_REQUIRE(no_ponder_move.has_value());
  BOOST_TEST(!no_ponder_move->ponder.has_value());
  BOOST_TEST(!uqi::parse_bestmove_line("bestmove").has_value());
  BOOST_TEST(!uqi::parse_bestmove_line("bestmoves a1e1").has_value());
  BOOST_TEST(!uqi::parse_bestmove_line("").has_value());
}

BOOST_AUTO_TEST_CASE(response_lines) {
  BOOST_TEST(uqi::parse_response_line("response true").value_or("?") == "true");
  BOOST_TEST(uqi::parse_response_line("response p1win\r").value_or("?") == "p1win");
  BOOST_TEST(uqi::parse_response_line("response").value_or("?") == "");
  BOOST_TEST(!uqi::parse_response_line("responses true").has_value());
}

BOOST_AUTO_TEST_CASE(board_drawing) {
  const auto two = uqi::draw_game(game_of("position fen xo3/5/2x2/5/4o o"));
  std::string all;
  for (const std::string& line : two) all += line + "\n";
  BOOST_TEST(all.find("5 | x | o | . | . | . |") != std::string::npos, all);
  BOOST_TEST(all.find("3 | . | . | x | . | . |") != std::string::npos, all);
  BOOST_TEST(all.find("1 | . | . | . | . | o |") != std::string::npos, all);
  BOOST_TEST(all.find("    a   b   c   d   e") != std::string::npos, all);
  BOOST_TEST(all.find("Position: xo3/5/2x2/5/4o o") != std::string::npos, all);
  BOOST_TEST(all.find("Side to move: o") != std::string::npos, all);
  BOOST_TEST(all.find("Legal moves: ") != std::string::npos, all);

  const auto four = uqi::draw_game(game_of("position fen xoXO1/5/5/5/5 2"));
  all.clear();
  for (const std::string& line : four) all += line + "\n";
  BOOST_TEST(all.find("5 | x | o | X | O | . |") != std::string::npos, all);
  BOOST_TEST(all.find("Seat to move: 2") != std::string::npos, all);
  BOOST_TEST(all.find("Legal moves: ") != std::string::npos, all);
}

// Random bytes and random mixes of keywords: no parser may throw or hang.
BOOST_AUTO_TEST_CASE(parsers_survive_garbage) {
  std::mt19937 random(20240601);
  const std::vector<std::string> words = {
      "go",       "position", "startpos",   "startpos4", "fen",
      "moves",    "depth",    "nodes",      "xtime",     "searchmoves",
      "info",     "score",    "cp",         "mate",      "pv",
      "bestmove", "ponder",   "string",     "-1",        "999999999999999999999",
      "a1e1",     "b1e1x",    "0000",       "5/5/5/5/5", "x",
      "1",        "\r",       "option",     "name",      "type",
      "value",    "perft",    "lowerbound", "\xff",      "s1time",
      "id",       "response", "setoption",  "e5a5",      "c3c5"};
  for (int round = 0; round < 3000; ++round) {
    std::string line;
    const int length = int(random() % 12);
    for (int i = 0; i < length; ++i) {
      if (random() % 5 == 0) {
        const int bytes = int(random() % 6);
        for (int b = 0; b < bytes; ++b) line += char(random() % 256);
      } else {
        line += words[random() % words.size()];
      }
      line += random() % 3 ? " " : "\t";
    }
    const auto tokens = text_helpers::tokenize(line);
    const std::span<const std::string_view> args =
        tokens.empty() ? std::span<const std::string_view>() : std::span(tokens).subspan(1);
    BOOST_CHECK_NO_THROW(uqi::parse_go_command(args));
    const auto command = uqi::parse_position_command(args);
    BOOST_CHECK(command.game.has_value() != !command.error.empty());
    if (command.game) BOOST_CHECK_NO_THROW(uqi::parse_go_command(args, *command.game));
    BOOST_CHECK_NO_THROW(uqi::parse_setoption_command(args));
    BOOST_CHECK_NO_THROW(uqi::parse_info_line(line));
    BOOST_CHECK_NO_THROW(uqi::parse_bestmove_line(line));
    BOOST_CHECK_NO_THROW(uqi::parse_option_line(line));
    BOOST_CHECK_NO_THROW(uqi::parse_id_line(line));
    BOOST_CHECK_NO_THROW(uqi::parse_response_line(line));
  }
}

BOOST_DATA_TEST_CASE(format_go_names_the_clocks_by_colour, bdata::make(kGoSamples), sample) {
  GoRequest request;
  request.own = sample.own;
  request.other = sample.other;
  request.mover_is_x = sample.mover_is_x;
  BOOST_TEST(uqi::format_go(request, sample.protocol) == sample.expected);
}

BOOST_AUTO_TEST_CASE(format_go4_sends_every_seat_clock_and_the_movers_limits) {
  GoRequest4 request;
  for (std::size_t seat = 0; seat < 4; ++seat) {
    request.seats[seat].time_ms = 1000 * static_cast<std::int64_t>(seat + 1);
    request.seats[seat].increment_ms = 10 * static_cast<std::int64_t>(seat + 1);
  }
  request.seats[2].moves_to_go = 7;
  request.mover = 2;
  BOOST_TEST(uqi::format_go4(request) ==
             "go s1time 1000 s2time 2000 s3time 3000 s4time 4000 s1inc 10 s2inc 20 s3inc 30 "
             "s4inc 40 movestogo 7");
  request.mover = 0;  // seat 1 has no moves to go
  BOOST_TEST(uqi::format_go4(request) ==
             "go s1time 1000 s2time 2000 s3time 3000 s4time 4000 s1inc 10 s2inc 20 s3inc 30 "
             "s4inc 40");
  GoRequest4 nodes;
  for (GoLimits& limits : nodes.seats) limits.nodes = 500;
  nodes.mover = 3;
  BOOST_TEST(uqi::format_go4(nodes) == "go nodes 500");
  nodes.seats[3] = GoLimits{};
  nodes.seats[3].infinite = true;
  BOOST_TEST(uqi::format_go4(nodes) == "go infinite");
  request.seats[0].ponder = true;
  BOOST_TEST(uqi::format_go4(request) ==
             "go ponder s1time 1000 s2time 2000 s3time 3000 s4time 4000 s1inc 10 s2inc 20 "
             "s3inc 30 s4inc 40");
}

BOOST_AUTO_TEST_SUITE_END()
