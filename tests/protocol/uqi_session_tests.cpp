// The UQI protocol end to end: the real quixo-engine binary (QUIXO_ENGINE_BINARY) driven through
// pipes the way a GUI drives it. Every bestmove is checked legal with the rules core, and every
// `go` must get exactly one bestmove, never early in infinite or ponder mode. The endgame table
// cases use the tables of the ctest fixture tb_tables (support/test_tables.hpp) as their oracle.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "core/notation.hpp"
#include "core/text_helpers.hpp"
#include "core/thread_start.hpp"
#include "search/pattern_evaluation.hpp"
#include "search/search_params.hpp"
#include "search/team_pattern_evaluation.hpp"
#include "support/child_process.hpp"
#include "support/sanitizers.hpp"
#include "support/temp_dir.hpp"
#include "support/test_tables.hpp"
#include "tb/index.hpp"
#include "tb/tablebase.hpp"
#include "tb/tb_file.hpp"
#include "tb/wdl_file.hpp"
#include "uqi_client_messages.hpp"
#include "uqi_engine_messages.hpp"
#include "uqi_session.hpp"

BOOST_AUTO_TEST_SUITE(uqi_session_tests)

namespace {

using namespace std::chrono_literals;
using quixo::testing::EngineProcess;
namespace text_helpers = quixo::text_helpers;
namespace uqi = quixo::uqi;

// The engine under test: QUIXO_ENGINE_BINARY, or the program named by the environment variable
// QUIXO_ENGINE (to run these tests against another build, e.g. a ThreadSanitizer one).
std::string engine_binary() {
  const char* const path = std::getenv("QUIXO_ENGINE");
  return path && *path ? path : QUIXO_ENGINE_BINARY;
}

// Generous: sanitizer builds and loaded machines are slow. Nothing waits this long when all is
// well, except the checks that a bestmove does NOT come (kQuiet).
constexpr auto kTimeout = 15s;
constexpr auto kQuiet = 300ms;

std::string transcript(const EngineProcess& engine) {
  std::string text;
  for (const std::string& line : engine.lines_read()) text += "  " + line.substr(0, 200) + "\n";
  return text;
}

bool starts_with(const std::string& line, std::string_view prefix) {
  return line.starts_with(prefix);
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

int count_prefix(const std::vector<std::string>& lines, std::string_view prefix) {
  int count = 0;
  for (const std::string& line : lines) count += starts_with(line, prefix);
  return count;
}

// Reads up to and including the first line starting with `prefix`; fails the test on timeout.
std::vector<std::string> expect(EngineProcess& engine, std::string_view prefix,
                                std::chrono::milliseconds timeout = kTimeout) {
  const auto lines = engine.read_until_prefix(prefix, timeout);
  BOOST_TEST_REQUIRE(lines.has_value(), "no line starting with '" << prefix << "'; transcript:\n"
                                                                  << transcript(engine));
  return *lines;
}

// isready/readyok: the lines that came before readyok.
std::vector<std::string> sync(EngineProcess& engine) {
  engine.send("isready");
  std::vector<std::string> lines = expect(engine, "readyok");
  lines.pop_back();
  return lines;
}

// The position string `d` shows.
std::string displayed_position(EngineProcess& engine) {
  engine.send("d");
  const std::vector<std::string> lines = expect(engine, "Position: ");
  return lines.back().substr(std::string_view("Position: ").size());
}

// Checks that `line` is a bestmove whose move (and ponder move) is legal in `position_text`,
// using the rules core. Returns the move.
std::string check_bestmove(const std::string& line, const std::string& position_text) {
  const auto bestmove = uqi::parse_bestmove_line(line);
  BOOST_TEST_REQUIRE(bestmove.has_value(), "not a bestmove line: " << line);
  try {
    if (quixo::variant_of(position_text) == quixo::Variant::TwoPlayer) {
      const quixo::Position position = quixo::parse_position(position_text);
      const quixo::Move move = quixo::parse_move(position, bestmove->move);
      if (bestmove->ponder) quixo::parse_move(position.after(move), *bestmove->ponder);
    } else {
      const quixo::Position4 position = quixo::parse_position4(position_text);
      const quixo::Move4 move = quixo::parse_move(position, bestmove->move);
      if (bestmove->ponder) quixo::parse_move(position.after(move), *bestmove->ponder);
    }
  } catch (const quixo::NotationError& e) {
    BOOST_ERROR("illegal " << line << " in " << position_text << ": " << e.what());
  }
  return bestmove->move;
}

// Every `info` line parses, and its pv starts with a legal move.
void check_info_lines(const std::vector<std::string>& lines, const std::string& position_text) {
  for (const std::string& line : lines) {
    if (!starts_with(line, "info ") || starts_with(line, "info string")) continue;
    const auto info = uqi::parse_info_line(line);
    BOOST_TEST_REQUIRE(info.has_value());
    BOOST_TEST(info->depth.has_value(), line);
    BOOST_TEST((info->score_cp.has_value() || info->score_mate.has_value()), line);
    if (info->pv.empty()) continue;
    if (quixo::variant_of(position_text) == quixo::Variant::TwoPlayer)
      BOOST_CHECK_NO_THROW(
          quixo::parse_move(quixo::parse_position(position_text), info->pv.front()));
    else
      BOOST_CHECK_NO_THROW(
          quixo::parse_move(quixo::parse_position4(position_text), info->pv.front()));
  }
}

// The position string after a `position` command, computed with the message library.
std::string position_after(std::string_view command_line) {
  const auto tokens = text_helpers::tokenize(command_line);
  const auto command = uqi::parse_position_command(std::span(tokens).subspan(1));
  BOOST_TEST_REQUIRE(command.game.has_value(), command.error);
  return command.game->text();
}

// Sends `go_line` and reads to its bestmove; checks the info lines and the move.
std::vector<std::string> go(EngineProcess& engine, const std::string& go_line,
                            const std::string& position_text,
                            std::chrono::milliseconds timeout = kTimeout) {
  engine.send(go_line);
  const std::vector<std::string> lines = expect(engine, "bestmove", timeout);
  check_info_lines(lines, position_text);
  check_bestmove(lines.back(), position_text);
  return lines;
}

void handshake(EngineProcess& engine) {
  engine.send("uqi");
  expect(engine, "uqiok");
  sync(engine);
}

// The engine must exit with 0 once its input ends.
void check_clean_exit(EngineProcess& engine) {
  engine.close_input();
  const auto code = engine.wait_exit(kTimeout);
  BOOST_TEST_REQUIRE(code.has_value(), "the engine did not exit at EOF; transcript:\n"
                                           << transcript(engine));
  BOOST_TEST(*code == 0);
}

std::int64_t elapsed_ms(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

}  // namespace

BOOST_AUTO_TEST_CASE(handshake_announces_identity_and_options) {
  EngineProcess engine(engine_binary());
  engine.send("uqi");
  const std::vector<std::string> lines = expect(engine, "uqiok");
  BOOST_TEST(lines.back() == "uqiok");
  BOOST_TEST(count_prefix(lines, "id name ") == 1);
  BOOST_TEST(count_prefix(lines, "id author ") == 1);
  std::vector<std::string> names;
  for (const std::string& line : lines) {
    if (!starts_with(line, "option ")) continue;
    const auto option = uqi::parse_option_line(line);
    BOOST_TEST_REQUIRE(option.has_value(), line);
    names.push_back(option->name);
    if (option->name == "Hash") {
      BOOST_TEST(option->type == "spin");
      BOOST_TEST(option->min.value_or(-1) == 1);
      BOOST_TEST(option->max.value_or(-1) == 65536);
    }
    if (option->name == "Ponder") BOOST_TEST(option->type == "check");
    if (option->name == "TablebasePath") {
      BOOST_TEST(option->type == "string");
      BOOST_TEST(option->default_value.value_or("?") == "");
    }
    if (option->name == "Evaluation") {
      BOOST_TEST(option->type == "combo");
      BOOST_TEST((option->vars == std::vector<std::string>{"hand", "learned"}));
      BOOST_TEST((option->default_value == "hand" || option->default_value == "learned"));
    }
    if (option->name == "EvalFile") BOOST_TEST(option->type == "string");
    if (option->name == "TablebaseCache") {
      BOOST_TEST(option->type == "spin");
      BOOST_TEST(option->default_value.value_or("?") == "64");
      BOOST_TEST(option->max.value_or(-1) == 65536);
    }
  }
  const std::vector<std::string> expected = {"Hash",
                                             "Threads",
                                             "MoveOverhead",
                                             "MultiPV",
                                             "Ponder",
                                             "UCI_LimitStrength",
                                             "UCI_Elo",
                                             "Skill Level",
                                             "AspirationWindows",
                                             "KillersAndHistory",
                                             "LateMoveReductions",
                                             "ThreatExtension",
                                             "ParryThreats",
                                             "SymmetricTable",
                                             "NullMovePruning",
                                             "ReverseFutility",
                                             "LateMovePruning",
                                             "InternalIterativeReduction",
                                             "ContinuationHistory",
                                             "HistoryReductions",
                                             "SingularExtension",
                                             "ThreatsUnreduced",
                                             "CutNodeReductions",
                                             "Razoring",
                                             "TimeStability",
                                             "TablebasePath",
                                             "TablebaseCache",
                                             "TablebaseCheck",
                                             "Evaluation",
                                             "EvalFile",
                                             "Player",
                                             "MctsIterations",
                                             "RandomSeed"};
  BOOST_TEST(names == expected, boost::test_tools::per_element());

  engine.send("ugi");
  const std::vector<std::string> ugi = expect(engine, "ugiok");
  BOOST_TEST(count_prefix(ugi, "id name ") == 1);
  BOOST_TEST(count_prefix(ugi, "uqiok") == 0);
  // Blank lines and '\r' are nothing.
  engine.send_raw("\n\r\n   \t \nisready\r\n");
  BOOST_TEST(expect(engine, "readyok").size() == 1u);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(feature_options_change_the_search_and_refuse_bad_values) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  // The same fixed-depth search visits a different number of nodes without move ordering.
  const auto nodes_of_search = [&engine] {
    engine.send("uqinewgame");
    engine.send("position startpos moves a1e1 a5e5");
    engine.send("go depth 6");
    std::uint64_t nodes = 0;
    for (const std::string& line : expect(engine, "bestmove"))
      if (const auto info = uqi::parse_info_line(line); info && info->nodes) nodes = *info->nodes;
    return nodes;
  };
  const std::uint64_t with_ordering = nodes_of_search();
  engine.send("setoption name KillersAndHistory value false");
  const std::uint64_t without_ordering = nodes_of_search();
  BOOST_TEST(with_ordering > 0u);
  BOOST_TEST(without_ordering != with_ordering);
  engine.send("setoption name killers and history value true");
  BOOST_TEST(nodes_of_search() == with_ordering);

  engine.send("setoption name ParryThreats value maybe");
  engine.send("isready");
  const auto lines = expect(engine, "readyok");
  BOOST_TEST(count_prefix(lines, "info string error: option ParryThreats needs the value true") ==
             1);
  check_clean_exit(engine);
}

// `quixo-engine --tune`: the search's parameters (search_params.hpp) become spin options, declared
// after the others with their defaults and ranges, by `uqi` and `ugi`. A value in range changes
// the search (the default searches as the engine without the switch), one out of range is refused
// as any spin option's is and changes nothing. Without the switch they are unknown options.
BOOST_AUTO_TEST_CASE(tune_declares_the_search_parameters_as_options) {
  const auto nodes_of_search = [](EngineProcess& engine) {
    engine.send("uqinewgame");
    engine.send("position startpos moves a1e1 a5e5");
    engine.send("go depth 7");
    std::uint64_t nodes = 0;
    for (const std::string& line : expect(engine, "bestmove"))
      if (const auto info = uqi::parse_info_line(line); info && info->nodes) nodes = *info->nodes;
    return nodes;
  };
  const auto option_lines = [](const std::vector<std::string>& lines) {
    std::vector<uqi::OptionLine> options;
    for (const std::string& line : lines) {
      if (!starts_with(line, "option ")) continue;
      const auto option = uqi::parse_option_line(line);
      BOOST_TEST_REQUIRE(option.has_value(), line);
      options.push_back(*option);
    }
    return options;
  };
  const std::size_t count = std::size(quixo::kSearchParamSpecs);

  EngineProcess plain(engine_binary());
  plain.send("uqi");
  const std::vector<uqi::OptionLine> standard = option_lines(expect(plain, "uqiok"));
  for (const uqi::OptionLine& option : standard)
    for (const quixo::SearchParamSpec& param : quixo::kSearchParamSpecs)
      BOOST_TEST(option.name != param.name);
  plain.send("setoption name AspirationDelta value 5");
  BOOST_TEST(count_prefix(sync(plain), "info string error: no such option 'AspirationDelta'") == 1);
  const std::uint64_t plain_nodes = nodes_of_search(plain);
  BOOST_TEST(plain_nodes > 0u);
  check_clean_exit(plain);

  EngineProcess engine(engine_binary(), {"--tune"});
  for (const std::string handshake : {"uqi", "ugi"}) {
    BOOST_TEST_CONTEXT(handshake) {
      engine.send(handshake);
      const std::vector<uqi::OptionLine> options = option_lines(expect(engine, handshake + "ok"));
      BOOST_TEST_REQUIRE(options.size() == standard.size() + count);
      for (std::size_t i = 0; i < standard.size(); ++i)
        BOOST_TEST(options[i].name == standard[i].name);
      const quixo::SearchParams defaults;
      for (std::size_t i = 0; i < count; ++i) {
        const quixo::SearchParamSpec& param = quixo::kSearchParamSpecs[i];
        const uqi::OptionLine& option = options[standard.size() + i];
        BOOST_TEST_CONTEXT(param.name) {
          BOOST_TEST(option.name == param.name);
          BOOST_TEST(option.type == "spin");
          BOOST_TEST(option.default_value.value_or("?") == std::to_string(defaults.*param.field));
          BOOST_TEST(option.min.value_or(-1) == param.min);
          BOOST_TEST(option.max.value_or(-1) == param.max);
        }
      }
    }
  }
  BOOST_TEST(nodes_of_search(engine) == plain_nodes);
  // Every parameter takes its range's ends and its default, quietly.
  for (const quixo::SearchParamSpec& param : quixo::kSearchParamSpecs)
    for (const int value : {param.min, param.max, quixo::SearchParams{}.*param.field})
      engine.send("setoption name " + std::string(param.name) + " value " + std::to_string(value));
  BOOST_TEST(count_prefix(sync(engine), "info string") == 0);
  BOOST_TEST(nodes_of_search(engine) == plain_nodes);

  engine.send("setoption name AspirationDelta value 5");
  BOOST_TEST(count_prefix(sync(engine), "info string") == 0);
  const std::uint64_t narrow_nodes = nodes_of_search(engine);
  BOOST_TEST(narrow_nodes != plain_nodes);
  // Names compare without case and spaces, as every option's do.
  engine.send("setoption name aspiration delta value 20");
  BOOST_TEST(nodes_of_search(engine) == plain_nodes);

  // Out of range or not a number: refused, and the value stays.
  engine.send("setoption name AspirationDelta value 4");
  engine.send("setoption name AspirationDelta value 101");
  engine.send("setoption name LmrBase value many");
  engine.send("setoption name LmrBase");
  const std::vector<std::string> refusals = sync(engine);
  BOOST_TEST(count_prefix(refusals,
                          "info string error: option AspirationDelta: '4' is out of "
                          "range (expected 5 to 100)") == 1);
  BOOST_TEST(count_prefix(refusals,
                          "info string error: option AspirationDelta: '101' is out of "
                          "range (expected 5 to 100)") == 1);
  BOOST_TEST(count_prefix(refusals,
                          "info string error: option LmrBase: 'many' is not a whole "
                          "number") == 1);
  BOOST_TEST(count_prefix(refusals, "info string error: option LmrBase needs a value") == 1);
  BOOST_TEST(nodes_of_search(engine) == plain_nodes);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(new_game_positions_with_moves_and_a_depth_search) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("uqinewgame");
  engine.send("position startpos moves a1e1 a5e5");
  BOOST_TEST(displayed_position(engine) == "4o/5/5/5/4x x");
  const auto lines = go(engine, "go depth 3", "4o/5/5/5/4x x");
  BOOST_TEST(count_prefix(lines, "info depth") >= 1);
  // Depth-limited: no info line beyond depth 3.
  for (const std::string& line : lines)
    if (const auto info = uqi::parse_info_line(line); info && info->depth)
      BOOST_TEST(*info->depth <= 3, line);

  engine.send("uginewgame");
  engine.send("position fen xo3/5/5/5/4o x 12 moves a5e5");
  BOOST_TEST(displayed_position(engine) == "o3x/5/5/5/4o o");
  go(engine, "go depth 2", "o3x/5/5/5/4o o");
  engine.send("position startpos");
  BOOST_TEST(displayed_position(engine) == "5/5/5/5/5 x");
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(every_kind_of_limited_go) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  const std::string position = "xo3/1x3/2o2/5/4o x";
  engine.send("position fen " + position);
  for (const char* line :
       {"go depth 4", "go nodes 3000", "go movetime 100",
        "go xtime 2000 otime 2000 xinc 20 oinc 20", "go xtime 1000 otime 50 movestogo 3",
        "go p1time 800 p2time 800 p1inc 5 p2inc 5", "go wtime 500 btime 500", "go xtime 0 otime 0",
        "go xtime -20 otime 100", "go depth 0", "go nodes 0", "go movetime 0",
        "go depth 2 nodes 99999999999999999999", "go depth 3 foo bar", "go depth abc nodes 500",
        "go depth movetime 50", "go movetime 50 depth 40"}) {
    BOOST_TEST_CONTEXT(line) {
      go(engine, line, position);
    }
  }
  // movetime is kept, within reason.
  auto start = std::chrono::steady_clock::now();
  go(engine, "go movetime 200", position);
  BOOST_TEST(elapsed_ms(start) >= 150);
  BOOST_TEST(elapsed_ms(start) < 5000);
  // A short clock gives a quick move.
  start = std::chrono::steady_clock::now();
  go(engine, "go xtime 300 otime 300", position);
  BOOST_TEST(elapsed_ms(start) < 5000);
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(searchmoves_and_mate) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("position startpos");
  for (int round = 0; round < 3; ++round) {
    const auto lines = go(engine, "go depth 3 searchmoves c1c5 b5b1 zzzz", "5/5/5/5/5 x");
    const std::string move = uqi::parse_bestmove_line(lines.back())->move;
    BOOST_TEST((move == "c1c5" || move == "b5b1"), move);
    BOOST_TEST(count_prefix(lines, "info string searchmoves: 'zzzz' skipped") == 1);
  }
  // X wins at once by pushing a cube in at e5: the mate search finds it.
  const std::string won = "xxxx1/5/5/5/5 x";
  engine.send("position fen " + won);
  const auto lines = go(engine, "go mate 1", won);
  const std::string move = uqi::parse_bestmove_line(lines.back())->move;
  const quixo::Position position = quixo::parse_position(won);
  BOOST_TEST((position.after(quixo::parse_move(position, move)).outcome() == quixo::Outcome::XWins),
             move);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(infinite_waits_for_stop_and_isready_is_answered_meanwhile) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  const std::string searched = position_after("position startpos moves b1b5");
  BOOST_TEST(searched == "1x3/5/5/5/5 o");
  engine.send("position startpos moves b1b5");
  engine.send("go infinite");
  BOOST_TEST(count_prefix(engine.read_for(kQuiet), "bestmove") == 0);
  const auto before_ready = sync(engine);
  BOOST_TEST(count_prefix(before_ready, "bestmove") == 0);
  BOOST_TEST(count_prefix(engine.read_for(kQuiet), "bestmove") == 0);
  engine.send("stop");
  const auto lines = expect(engine, "bestmove");
  check_bestmove(lines.back(), searched);
  // stop again, when idle: nothing.
  engine.send("stop");
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  // A depth limit does not end an infinite search either.
  engine.send("go infinite depth 1");
  BOOST_TEST(count_prefix(engine.read_for(kQuiet), "bestmove") == 0);
  engine.send("stop");
  check_bestmove(expect(engine, "bestmove").back(), searched);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(ponder_then_ponderhit_or_stop) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("setoption name Ponder value true");
  // The engine ponders on the opponent's expected reply a5e5.
  const std::string pondered = "4o/5/5/5/4x x";
  engine.send("position startpos moves a1e1 a5e5");
  engine.send("go ponder xtime 1000 otime 1000 xinc 10 oinc 10");
  BOOST_TEST(count_prefix(engine.read_for(kQuiet), "bestmove") == 0);
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  const auto start = std::chrono::steady_clock::now();
  engine.send("ponderhit");
  check_bestmove(expect(engine, "bestmove").back(), pondered);
  BOOST_TEST(elapsed_ms(start) < 5000);

  // Ponder miss: the GUI stops the ponder search and sends the real position.
  engine.send("go ponder xtime 1000 otime 1000");
  BOOST_TEST(count_prefix(engine.read_for(kQuiet), "bestmove") == 0);
  engine.send("stop");
  check_bestmove(expect(engine, "bestmove").back(), pondered);
  const std::string missed = position_after("position startpos moves a1e1 b5b1");
  BOOST_TEST(missed == "5/5/5/5/1o2x x");
  engine.send("position startpos moves a1e1 b5b1");
  go(engine, "go xtime 1000 otime 1000", missed);

  // ponderhit on a depth-limited ponder search.
  engine.send("go ponder depth 2");
  BOOST_TEST(count_prefix(engine.read_for(kQuiet), "bestmove") == 0);
  engine.send("ponderhit");
  check_bestmove(expect(engine, "bestmove").back(), missed);
  // ponderhit when not pondering: nothing happens.
  engine.send("ponderhit");
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(commands_during_a_search_stop_it_first) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  const std::string start(quixo::kStartPosition);
  engine.send("position startpos");
  // A new go: the running search answers first, then the new one.
  engine.send("go infinite");
  engine.send("go depth 2");
  auto lines = expect(engine, "bestmove");
  check_bestmove(lines.back(), start);
  lines = expect(engine, "bestmove");
  check_bestmove(lines.back(), start);
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);

  // position, setoption and new game each end the search with its bestmove.
  for (const char* command : {"position startpos moves c1c5", "setoption name Hash value 8",
                              "uqinewgame", "setoption name Threads value 2", "go perft 1"}) {
    BOOST_TEST_CONTEXT(command) {
      engine.send("position startpos");
      engine.send("go infinite");
      engine.send(command);
      lines = expect(engine, "bestmove");
      check_bestmove(lines.back(), start);
      BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
    }
  }
  // A ponder search ended by a new go.
  engine.send("position startpos");
  engine.send("go ponder xtime 5000 otime 5000");
  engine.send("go depth 1");
  BOOST_TEST(count_prefix(expect(engine, "bestmove"), "bestmove") == 1);
  BOOST_TEST(count_prefix(expect(engine, "bestmove"), "bestmove") == 1);
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(illegal_position_keeps_the_previous_one) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("position startpos moves a1e1");
  const std::string kept = displayed_position(engine);
  BOOST_TEST(kept == "5/5/5/5/4x o");
  // O may not take X's cube on e1.
  for (const char* bad :
       {"position startpos moves a1e1 e1a1", "position startpos moves a1e1 a1a1",
        "position fen 5/5/5/5/5 q", "position fen 6/5/5/5/5 x", "position fen",
        "position startpos moves b1e1X", "position startpos4 moves b1e1", "position",
        "position fen xxxxx/5/5/5/5 o moves a1e1", "position banana"}) {
    BOOST_TEST_CONTEXT(bad) {
      engine.send(bad);
      const auto lines = expect(engine, "info string error");
      BOOST_TEST(contains(lines.back(), "unchanged"), lines.back());
      BOOST_TEST(displayed_position(engine) == kept);
    }
  }
  engine.send("position startpos moves a1e1 e1a1");
  BOOST_TEST(contains(expect(engine, "info string error").back(), "'e1a1'"));
  go(engine, "go depth 2", kept);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(garbage_never_crashes_or_hangs) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  static constexpr char kBinary[] = "\x00\x01\x02\xff\xfe garbage";
  std::string huge = "position startpos moves";
  for (int i = 0; i < 20000; ++i) huge += " a1e1";
  const std::vector<std::string> garbage = {
      "frobnicate",
      "GO depth 3",
      "go depth abc",
      "go depth -5 nodes -3 movetime -1 xtime -100 otime abc movestogo -2",
      "setoption",
      "setoption name",
      "setoption name Hash",
      "setoption name Hash value",
      "setoption name Hash value abc",
      "setoption name Hash value 0",
      "setoption name Hash value 99999999999999999999999",
      "setoption name Threads value -1",
      "setoption name MultiPV value 17",
      "setoption name Ponder value maybe",
      "setoption name NoSuchOption value 1",
      "setoption value 3",
      "position fen 5/5/5/5/5",
      "position startpos moves zzzz",
      huge,
      std::string(1 << 20, 'x'),
      std::string(kBinary, sizeof kBinary - 1),
      "bestmove a1e1",
      "info depth 3",
      "ponderhit",
      "stop",
      "query",
      "query nothing",
      "debug on",
      "register later",
      "   go   ",
  };
  for (const std::string& line : garbage) {
    BOOST_TEST_CONTEXT(line.substr(0, 60)) {
      engine.send(line);
      if (line == "   go   ") engine.send("stop");
      sync(engine);
    }
  }
  // The position after all that is the last good one, and searches still work.
  engine.send("position startpos");
  go(engine, "go depth 2", "5/5/5/5/5 x");
  // Bad option values were reported as errors.
  engine.send("setoption name Hash value abc");
  BOOST_TEST(contains(expect(engine, "info string").back(), "error"));
  engine.send("setoption name MultiPV value 17");
  BOOST_TEST(contains(expect(engine, "info string").back(), "range"));
  engine.send("setoption name NoSuchOption value 1");
  BOOST_TEST(contains(expect(engine, "info string").back(), "no such option"));
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(options_are_accepted_and_used) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  for (const char* line :
       {"setoption name Hash value 32", "setoption name hash value 1",
        "setoption name HASH value 64", "setoption name Threads value 2",
        "setoption name MoveOverhead value 0", "setoption name Move Overhead value 100",
        "setoption name moveoverhead value 5000", "setoption name Ponder value true",
        "setoption name ponder value FALSE", "setoption name MultiPV value 3"}) {
    BOOST_TEST_CONTEXT(line) {
      engine.send(line);
      BOOST_TEST(count_prefix(sync(engine), "info string") == 0);
    }
  }
  engine.send("setoption name MoveOverhead value 10");
  engine.send("position startpos");
  const auto lines = go(engine, "go depth 3", "5/5/5/5/5 x");
  // MultiPV 3: three lines per depth.
  std::vector<int> multipvs;
  for (const std::string& line : lines)
    if (const auto info = uqi::parse_info_line(line); info && info->multipv)
      multipvs.push_back(*info->multipv);
  BOOST_TEST((std::find(multipvs.begin(), multipvs.end(), 3) != multipvs.end()));
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(perft_divide) {
  EngineProcess engine(engine_binary());
  engine.send("position startpos");
  engine.send("go perft 2");
  auto lines = expect(engine, "Nodes searched");
  BOOST_TEST(lines.back() == "Nodes searched: 1836");
  BOOST_TEST(lines.size() == 46u);  // 44 moves, a blank line, the total
  engine.send("position startpos4");
  engine.send("go perft 1");
  lines = expect(engine, "Nodes searched");
  BOOST_TEST(lines.back() == "Nodes searched: 88");
  BOOST_TEST(lines.size() == 90u);
  engine.send("position startpos");
  engine.send("go perft 0");
  BOOST_TEST(expect(engine, "Nodes searched").back() == "Nodes searched: 1");
  // go perft gives no bestmove.
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(four_player_positions) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("position startpos4 moves b1e1x d5a5o");
  engine.send("d");
  const auto board = expect(engine, "Legal moves");
  std::string all;
  for (const std::string& line : board) all += line + "\n";
  BOOST_TEST(contains(all, "5 | o | . | . | . | . |"), all);
  BOOST_TEST(contains(all, "1 | . | . | . | . | x |"), all);
  BOOST_TEST(contains(all, "Position: o4/5/5/5/4x 3"), all);
  BOOST_TEST(contains(all, "Seat to move: 3 (team X, places 'X' or 'x')"), all);
  const std::string position = "o4/5/5/5/4x 3";

  // A real search: one info line per depth, four-player moves in the pv, no error.
  auto lines = go(engine, "go depth 3", position);
  BOOST_TEST(count_prefix(lines, "info string") == 0);
  BOOST_TEST(count_prefix(lines, "info depth") == 3);
  BOOST_TEST(uqi::parse_bestmove_line(lines.back())->move.size() == 5u, lines.back());
  go(engine, "go xtime 100 otime 100 s1time 100 s2time 100 s3time 100 s4time 100", position);
  // searchmoves are honoured.
  lines = go(engine, "go depth 3 searchmoves a1e1X", position);
  BOOST_TEST(uqi::parse_bestmove_line(lines.back())->move == "a1e1X");
  lines = go(engine, "go depth 3 searchmoves a1e1X c1c5x zzzz", position);
  const std::string chosen = uqi::parse_bestmove_line(lines.back())->move;
  BOOST_TEST((chosen == "a1e1X" || chosen == "c1c5x"), chosen);
  BOOST_TEST(count_prefix(lines, "info string searchmoves: 'zzzz' skipped") == 1);
  BOOST_TEST(count_prefix(lines, "info string searchmoves") == 1);
  // Infinite and ponder still wait for stop / ponderhit.
  engine.send("go infinite");
  BOOST_TEST(count_prefix(engine.read_for(kQuiet), "bestmove") == 0);
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  engine.send("stop");
  check_bestmove(expect(engine, "bestmove").back(), position);
  engine.send("go ponder s1time 1000 s2time 1000 s3time 1000 s4time 1000");
  BOOST_TEST(count_prefix(engine.read_for(kQuiet), "bestmove") == 0);
  engine.send("ponderhit");
  check_bestmove(expect(engine, "bestmove").back(), position);
  // A new go ends a held infinite one.
  engine.send("go infinite");
  engine.send("go depth 1");
  BOOST_TEST(count_prefix(expect(engine, "bestmove"), "bestmove") == 1);
  BOOST_TEST(count_prefix(expect(engine, "bestmove"), "bestmove") == 1);
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  // A seat that must pass gets the pass.
  const std::string must_pass = "oXoXo/X3X/o3o/X3X/oXoXo 1";
  engine.send("position fen " + must_pass);
  BOOST_TEST(displayed_position(engine) == must_pass);
  for (const char* go_line : {"go depth 2", "go s1time 5000 s2time 5000 s3time 5000 s4time 5000",
                              "go nodes 1", "go movetime 50"}) {
    BOOST_TEST_CONTEXT(go_line) {
      lines = go(engine, go_line, must_pass);
      BOOST_TEST(uqi::parse_bestmove_line(lines.back())->move == "0000");
      for (const std::string& line : lines)
        if (const auto info = uqi::parse_info_line(line); info && !info->pv.empty())
          BOOST_TEST(info->pv.front() == "0000");
    }
  }
  // Back to two players.
  engine.send("position startpos");
  go(engine, "go depth 2", "5/5/5/5/5 x");
  check_clean_exit(engine);
}

// The four-player search through the protocol: each seat's own clock, a win in one reported as
// mate, a prompt stop, the evaluation's terms and the game history's repetitions.
BOOST_AUTO_TEST_CASE(four_player_search) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  // Seat 2 (team O) to move: its clock is s2time. With s2time short and every other clock long,
  // the move comes quickly; the other seats' clocks are not its own.
  const std::string seat2 = position_after("position startpos4 moves b1e1x");
  BOOST_TEST(seat2 == "5/5/5/5/4x 2");
  engine.send("position startpos4 moves b1e1x");
  auto start = std::chrono::steady_clock::now();
  go(engine, "go s1time 600000 s2time 300 s3time 600000 s4time 600000 s2inc 0", seat2);
  BOOST_TEST(elapsed_ms(start) < 5000);
  // A GUI that sends team clocks only: otime is seat 2's team clock.
  start = std::chrono::steady_clock::now();
  go(engine, "go xtime 600000 otime 300", seat2);
  BOOST_TEST(elapsed_ms(start) < 5000);
  // movetime is kept, within reason.
  start = std::chrono::steady_clock::now();
  go(engine, "go movetime 200", seat2);
  BOOST_TEST(elapsed_ms(start) >= 150);
  BOOST_TEST(elapsed_ms(start) < 5000);

  // Seat 4 wins at once by taking the blank e5 and pushing it in at a5 (rank 5 all O).
  const std::string win = "OoOo1/5/5/5/5 4";
  engine.send("position fen " + win);
  auto lines = go(engine, "go depth 4", win);
  const std::string move = uqi::parse_bestmove_line(lines.back())->move;
  const quixo::Position4 position = quixo::parse_position4(win);
  BOOST_TEST((position.after(quixo::parse_move(position, move)).outcome() == quixo::Outcome::OWins),
             move);
  const auto info = uqi::parse_info_line(lines[lines.size() - 2]);
  BOOST_TEST_REQUIRE(info.has_value());
  BOOST_TEST(info->score_mate.value_or(0) == 1);

  // An infinite search answers isready, waits for stop, and stops promptly.
  engine.send("position startpos4 moves b1e1x d5a5o");
  engine.send("go infinite");
  BOOST_TEST(count_prefix(engine.read_for(kQuiet), "bestmove") == 0);
  BOOST_TEST(count_prefix(sync(engine), "bestmove") == 0);
  start = std::chrono::steady_clock::now();
  engine.send("stop");
  lines = expect(engine, "bestmove");
  BOOST_TEST(elapsed_ms(start) < 2000);
  check_info_lines(lines, "o4/5/5/5/4x 3");
  check_bestmove(lines.back(), "o4/5/5/5/4x 3");

  // eval: the four-player terms, for the team to move (the learned team evaluation's by default:
  // its lines and each seat's facts).
  engine.send("eval");
  lines = sync(engine);
  BOOST_TEST(count_prefix(lines, "info string eval: learned team evaluation, phase 5") == 1);
  BOOST_TEST(count_prefix(lines, "info string eval: partner ") == 1);
  BOOST_TEST(count_prefix(lines, "info string eval: last opponent ") == 1);
  BOOST_TEST(count_prefix(lines, "info string eval: total") == 1);
  BOOST_TEST(count_prefix(lines, "info string eval: no evaluation") == 0);

  // uqinewgame, then a game with a history (seat 4 to move).
  engine.send("uqinewgame");
  engine.send("position startpos4 moves b1e1x d5a5o a1a5X");
  const std::string played = position_after("position startpos4 moves b1e1x d5a5o a1a5X");
  BOOST_TEST(played.ends_with(" 4"), played);
  go(engine, "go depth 4", played);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(finished_games_and_ugi_queries) {
  EngineProcess engine(engine_binary());
  engine.send("ugi");
  expect(engine, "ugiok");
  const auto ask = [&engine](const char* query) {
    engine.send(std::string("query ") + query);
    return expect(engine, "response").back();
  };
  engine.send("position startpos");
  BOOST_TEST(ask("p1turn") == "response true");
  BOOST_TEST(ask("gameover") == "response false");
  BOOST_TEST(ask("result") == "response none");
  engine.send("position startpos moves a1e1");
  BOOST_TEST(ask("p1turn") == "response false");
  engine.send("position fen xxxxx/5/5/5/o3o o");
  BOOST_TEST(ask("gameover") == "response true");
  BOOST_TEST(ask("result") == "response p1win");
  // No legal move in a finished game: the engine still answers, with the null move.
  engine.send("go depth 3");
  BOOST_TEST(uqi::parse_bestmove_line(expect(engine, "bestmove").back())->move == "0000");
  engine.send("position fen ooooo/5/5/5/x3x x");
  BOOST_TEST(ask("result") == "response p2win");
  // Threefold repetition: a draw.
  engine.send("position startpos moves a1e1 a5e5 e1a1 e5a5 a1e1 a5e5 e1a1 e5a5 a1e1 a5e5");
  BOOST_TEST(ask("gameover") == "response true");
  BOOST_TEST(ask("result") == "response draw");
  engine.send("position startpos4 moves b1e1x");
  BOOST_TEST(ask("p1turn") == "response false");
  BOOST_TEST(ask("result") == "response none");
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(eval_and_display) {
  EngineProcess engine(engine_binary());
  engine.send("position fen xo3/1x3/2o2/5/4o x");
  engine.send("eval");
  engine.send("isready");
  const auto lines = expect(engine, "readyok");
  BOOST_TEST(count_prefix(lines, "info string eval") >= 1);
  engine.send("d");
  const auto board = expect(engine, "Legal moves");
  BOOST_TEST(count_prefix(board, "Side to move: x") == 1);
  check_clean_exit(engine);
}

BOOST_AUTO_TEST_CASE(evaluation_options_choose_and_load_the_evaluation) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  const auto eval_lines = [&engine] {
    engine.send("eval");
    return sync(engine);
  };
  engine.send("position fen xo3/1x3/2o2/5/4o x");
  engine.send("setoption name Evaluation value hand");
  BOOST_TEST(count_prefix(eval_lines(), "info string eval: cube lead") == 1, transcript(engine));
  engine.send("setoption name Evaluation value learned");
  std::vector<std::string> lines = eval_lines();
  BOOST_TEST(
      count_prefix(lines, "info string eval: learned evaluation, phase 5 (20 blank cubes)") == 1,
      transcript(engine));
  BOOST_TEST(count_prefix(lines, "info string eval: rank 5 (edge) xo... ") == 1,
             transcript(engine));

  // Weights whose only term is a bias of 77 in every phase: every position scores 77.
  std::vector<std::int16_t> weights(quixo::patterns::kFeatureCount, 0);
  for (int phase = 0; phase < quixo::patterns::kPhases; ++phase)
    weights[std::size_t(phase * quixo::patterns::kFeaturesPerPhase +
                        quixo::patterns::kBiasFeature)] = 77;
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "quixo-uqi-session-tests-bias.qev";
  quixo::patterns::PatternWeights(weights).save(file.string());
  engine.send("setoption name EvalFile value " + file.string());
  lines = eval_lines();
  BOOST_TEST(
      count_prefix(lines, "info string evaluation weights: loaded from " + file.string()) == 1,
      transcript(engine));
  BOOST_TEST(count_prefix(lines, "info string eval: total 77 (side to move)") == 1,
             transcript(engine));
  engine.send("go depth 3");
  const auto infos = expect(engine, "bestmove");
  BOOST_TEST(infos.size() >= 2u);
  // The leaves of a depth-3 search have the other side to move: its 77 is -77 at the root.
  BOOST_TEST(count_prefix(infos, "info depth 3 seldepth 3 multipv 1 score cp -77 ") == 1,
             transcript(engine));

  // A damaged file and a bad value are refused, and the weights loaded before stay.
  std::filesystem::resize_file(file, 100);
  engine.send("setoption name EvalFile value " + file.string());
  engine.send("setoption name Evaluation value neural");
  lines = eval_lines();
  BOOST_TEST(count_prefix(lines, "info string error: option EvalFile: '" + file.string() +
                                     "': the file has 100 bytes") == 1,
             transcript(engine));
  BOOST_TEST(count_prefix(lines,
                          "info string error: option Evaluation needs the value hand or "
                          "learned, not 'neural'") == 1,
             transcript(engine));
  BOOST_TEST(count_prefix(lines, "info string eval: total 77 (side to move)") == 1,
             transcript(engine));
  // A team weights file (its magic says so) gives the team game its learned weights; the
  // two-player weights stay. Hand and learned switch both games.
  std::vector<std::int16_t> team_weights(quixo::patterns::kTeamFeatureCount, 0);
  for (int phase = 0; phase < quixo::patterns::kPhases; ++phase)
    team_weights[std::size_t(phase * quixo::patterns::kTeamFeaturesPerPhase +
                             quixo::patterns::kTeamBiasFeature)] = 55;
  const std::filesystem::path team_file =
      std::filesystem::temp_directory_path() / "quixo-uqi-session-tests-bias.qe4";
  quixo::patterns::TeamPatternWeights(team_weights).save(team_file.string());
  engine.send("setoption name EvalFile value " + team_file.string());
  engine.send("position startpos4");
  lines = eval_lines();
  BOOST_TEST(
      count_prefix(lines, "info string evaluation weights: four-player weights loaded from " +
                              team_file.string()) == 1,
      transcript(engine));
  BOOST_TEST(count_prefix(lines, "info string eval: total 55 (team to move)") == 1,
             transcript(engine));
  engine.send("go depth 1");
  BOOST_TEST(count_prefix(expect(engine, "bestmove"),
                          "info depth 1 seldepth 1 multipv 1 score cp -55 ") == 1,
             transcript(engine));
  engine.send("setoption name Evaluation value hand");
  BOOST_TEST(count_prefix(eval_lines(), "info string eval: cube lead") == 1, transcript(engine));
  engine.send("setoption name Evaluation value learned");
  BOOST_TEST(count_prefix(eval_lines(), "info string eval: total 55 (team to move)") == 1,
             transcript(engine));
  engine.send("position fen xo3/1x3/2o2/5/4o x");
  BOOST_TEST(count_prefix(eval_lines(), "info string eval: total 77 (side to move)") == 1,
             transcript(engine));
  // An empty EvalFile goes back to the weights built in, of both games.
  engine.send("setoption name EvalFile value <empty>");
  lines = eval_lines();
  BOOST_TEST(count_prefix(lines, "info string evaluation weights: built in") == 1,
             transcript(engine));
  BOOST_TEST(count_prefix(lines, "info string eval: total 77") == 0, transcript(engine));
  engine.send("position startpos4");
  BOOST_TEST(count_prefix(eval_lines(), "info string eval: total 55") == 0, transcript(engine));
  std::filesystem::remove(file);
  std::filesystem::remove(team_file);
  check_clean_exit(engine);
}

// Issue 25, item 11: an EvalFile that is a directory or a FIFO, and a table file that is one, are
// refused by name and the engine goes on. A directory was an unnamed `std::ios_failure` error; a
// FIFO hung the engine, so that isready and quit were never answered.
BOOST_AUTO_TEST_CASE(files_that_are_not_regular_files_are_refused_by_name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("quixo-uqi-special-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::filesystem::path fifo = dir / "w.qev";
  BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::filesystem::path tables = dir / "tb";
  std::filesystem::create_directories(tables);
  std::filesystem::copy_file(quixo::tb::layer_file_path(quixo::test::test_tables_dir(), 0),
                             quixo::tb::layer_file_path(tables, 0));
  std::filesystem::copy_file(quixo::tb::wdl_file_path(quixo::test::test_tables_dir(), 0),
                             quixo::tb::wdl_file_path(tables, 0));
  const std::filesystem::path fifo_layer = quixo::tb::layer_file_path(tables, 1);
  BOOST_TEST_REQUIRE(::mkfifo(fifo_layer.c_str(), 0600) == 0);

  EngineProcess engine(engine_binary());
  const std::string stay = " (the built-in weights stay)";
  engine.send("setoption name EvalFile value " + dir.string());
  engine.send("setoption name EvalFile value " + fifo.string());
  engine.send("setoption name TablebasePath value " + tables.string());
  const auto lines = sync(engine);
  BOOST_TEST_REQUIRE(lines.size() == 4u, transcript(engine));
  BOOST_TEST(lines[0] ==
             "info string error: option EvalFile: " + text_helpers::quoted(dir.string()) +
                 " is a directory, not a file" + stay);
  BOOST_TEST(lines[1] == "info string error: option EvalFile: " +
                             text_helpers::quoted(fifo.string()) + " is not a regular file" + stay);
  BOOST_TEST(lines[2] == "info string error: tablebase: refused " + fifo_layer.string() +
                             ": is not a regular file");
  BOOST_TEST(lines[3] == "info string tablebase: layers 0 loaded from " + tables.string());
  engine.send("position startpos");
  go(engine, "go depth 3", "5/5/5/5/5 x");
  check_clean_exit(engine);
  std::filesystem::remove_all(dir);
}

// Tables without their win/draw/loss files (made before there were any, or copied without them)
// are used, and the engine says which layers the search probes the slow way and how to mend it;
// a damaged win/draw/loss file is refused by name and its layer kept.
BOOST_AUTO_TEST_CASE(layers_without_win_draw_loss_files_are_named) {
  const quixo::testing::TempDir dir("quixo-uqi-wdl-");
  const std::filesystem::path tables = dir.path();
  for (int layer = 0; layer <= quixo::test::test_table_blanks(); ++layer)
    std::filesystem::copy_file(quixo::tb::layer_file_path(quixo::test::test_tables_dir(), layer),
                               quixo::tb::layer_file_path(tables, layer));
  {
    std::ofstream damaged(quixo::tb::wdl_file_path(tables, 0), std::ios::binary);
    damaged << "not a win/draw/loss file";
  }
  EngineProcess engine(engine_binary());
  engine.send("setoption name TablebasePath value " + tables.string());
  const auto lines = sync(engine);
  std::string layers = "0";
  for (int layer = 1; layer <= quixo::test::test_table_blanks(); ++layer)
    layers += " " + std::to_string(layer);
  const int top = quixo::test::test_table_blanks();
  BOOST_TEST(count_prefix(lines, "info string error: tablebase: refused " +
                                     quixo::tb::wdl_file_path(tables, 0).string() + ": ") == 1,
             transcript(engine));
  BOOST_TEST(count_prefix(lines, "info string tablebase: layers " + layers + " loaded from ") == 1,
             transcript(engine));
  BOOST_TEST(count_prefix(lines, std::string("info string tablebase: no win/draw/loss file for ") +
                                     (top == 0 ? "layer " : "layers ") + layers +
                                     ": the search probes them through the layer files") == 1,
             transcript(engine));
  engine.send("position fen " + std::string("xoxxo/ooxoo/xooxo/oxxxx/o1oxx x"));
  go(engine, "go depth 3", "xoxxo/ooxoo/xooxo/oxxxx/o1oxx x");
  check_clean_exit(engine);
}

// Issue 25, item 15: an input line longer than the bound is answered with an error naming the
// bound and skipped, and the engine reads on; a line at the bound is still read whole. An input
// line larger than memory used to end the engine silently with exit code 0.
BOOST_AUTO_TEST_CASE(an_overlong_input_line_is_refused_and_the_engine_reads_on) {
  const std::size_t bound = quixo::UqiSession::kMaxInputLineMebibytes << 20;
  std::istringstream in("isready\n" + std::string(bound, 'a') + "\n" +  // at the bound: read
                        "position startpos moves " + std::string(bound, 'b') + "\n" +  // past it
                        std::string(bound + 1, 'c') + "\nisready\n");  // one byte past it
  std::ostringstream out;
  {
    quixo::UqiSession session(out);
    session.run(in);
  }
  std::vector<std::string> lines;
  std::istringstream text(out.str());
  for (std::string line; std::getline(text, line);) lines.push_back(line.substr(0, 80));
  const std::string refused = "info string error: an input line longer than " +
                              std::to_string(quixo::UqiSession::kMaxInputLineMebibytes) +
                              " MiB was ignored";
  BOOST_TEST_REQUIRE(lines.size() == 5u, out.str().substr(0, 2000));
  BOOST_TEST(lines[0] == "readyok");
  BOOST_TEST(lines[1].starts_with("info string unknown command 'aaaa"), lines[1]);
  BOOST_TEST(lines[2] == refused);
  BOOST_TEST(lines[3] == refused);
  BOOST_TEST(lines[4] == "readyok");
}

BOOST_AUTO_TEST_CASE(eof_and_quit_end_the_process) {
  {
    EngineProcess engine(engine_binary());
    check_clean_exit(engine);
  }
  {
    // EOF during an infinite search: the search is stopped, its bestmove written, exit 0.
    EngineProcess engine(engine_binary());
    engine.send("position startpos");
    engine.send("go infinite");
    sync(engine);
    check_clean_exit(engine);
    BOOST_TEST(count_prefix(engine.read_for(1s), "bestmove") == 1);
  }
  {
    EngineProcess engine(engine_binary());
    engine.send("go ponder");
    engine.send("quit");
    const auto code = engine.wait_exit(kTimeout);
    BOOST_TEST_REQUIRE(code.has_value());
    BOOST_TEST(*code == 0);
    BOOST_TEST(count_prefix(engine.read_for(1s), "bestmove") == 1);
  }
  {
    // Input without a final newline still counts.
    EngineProcess engine(engine_binary());
    engine.send_raw("isready");
    engine.close_input();
    BOOST_TEST(expect(engine, "readyok").size() == 1u);
    BOOST_TEST(engine.wait_exit(kTimeout).value_or(-1) == 0);
  }
}

BOOST_AUTO_TEST_CASE(command_line_options_and_bench) {
  {
    EngineProcess engine(engine_binary(),
                         {"--option", "Hash=64", "--option", "Threads=2", "-o", "MultiPV=2"});
    handshake(engine);
    engine.send("position startpos");
    const auto lines = go(engine, "go depth 2", "5/5/5/5/5 x");
    BOOST_TEST(count_prefix(lines, "info depth 2 seldepth") >= 1);
    check_clean_exit(engine);
  }
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--option", "Hash"},
                                              {"--option", "Hash=0"},
                                              {"--option", "Bogus=1"},
                                              {"--option"}}) {
    EngineProcess engine(engine_binary(), bad, EngineProcess::Stderr::Discard);
    engine.close_input();
    BOOST_TEST(engine.wait_exit(kTimeout).value_or(-1) == 2, bad.back());
  }
  {
    const auto start = std::chrono::steady_clock::now();
    EngineProcess engine(engine_binary(), {"bench"});
    const auto lines = expect(engine, "Nodes searched", 120s);
    BOOST_TEST_MESSAGE("bench took " << elapsed_ms(start) << " ms");
    BOOST_TEST(engine.wait_exit(kTimeout).value_or(-1) == 0);
    BOOST_TEST(count_prefix(lines, "Position ") >= 1);
    // Both variants are in the bench, and the total is theirs together.
    BOOST_TEST(count_prefix(lines, "Four-player position ") >= 1);
    BOOST_TEST(count_prefix(lines, "Nodes/second") == 1);
    // The node count is the last line, once.
    BOOST_TEST(lines.back().starts_with("Nodes searched : "), lines.back());
    BOOST_TEST(text_helpers::parse_integer(lines.back().substr(17)).value_or(0) > 0);
    BOOST_TEST(engine.read_for(200ms).empty());
  }
}

// A seeded random GUI: commands in random order with short limits. Every go gets exactly one
// legal bestmove, in order, and the engine survives everything.
BOOST_AUTO_TEST_CASE(random_sessions) {
  std::mt19937 random(7);
  const std::vector<std::string> positions = {
      "position startpos",
      "position startpos moves a1e1 a5e5 c1c5",
      "position fen xo3/1x3/2o2/5/4o x",
      "position fen oxxox/2x1x/2oxo/o1xoo/xxoox x",
      "position startpos4 moves b1e1x",
      "position startpos moves a1e1 e1a1",  // illegal: kept the previous position
      "position fen xxxxx/5/5/5/5 o",       // finished game
  };
  const std::vector<std::string> gos = {"go depth 1",
                                        "go depth 3",
                                        "go nodes 500",
                                        "go movetime 20",
                                        "go xtime 200 otime 200",
                                        "go infinite",
                                        "go ponder depth 2",
                                        "go ponder movetime 30",
                                        "go mate 1 depth 4",
                                        "go searchmoves a1e1 c1c5 depth 2",
                                        "go perft 1"};
  const std::vector<std::string> others = {"isready",    "stop",     "ponderhit",
                                           "uqinewgame", "d",        "setoption name Hash value 2",
                                           "eval",       "nonsense", "query result"};
  int searches = 0;
  for (int session = 0; session < 6; ++session) {
    EngineProcess engine(engine_binary());
    std::optional<quixo::Game> game = quixo::Game();
    std::vector<std::string> position_at_go;  // one per go that must get a bestmove
    for (int step = 0; step < 120; ++step) {
      const int kind = int(random() % 3);
      if (kind == 0) {
        const std::string& line = positions[random() % positions.size()];
        engine.send(line);
        const auto tokens = text_helpers::tokenize(line);
        if (auto command = uqi::parse_position_command(std::span(tokens).subspan(1)); command.game)
          game = std::move(command.game);
      } else if (kind == 1) {
        const std::string& line = gos[random() % gos.size()];
        engine.send(line);
        if (line != "go perft 1") position_at_go.push_back(game->text());
      } else {
        engine.send(others[random() % others.size()]);
      }
      // Now and then a pause, so that some searches end on their own.
      if (random() % 8 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(random() % 40));
    }
    engine.send("stop");
    engine.send("ponderhit");
    engine.send("stop");
    sync(engine);
    engine.close_input();
    BOOST_TEST(engine.wait_exit(kTimeout).value_or(-1) == 0);
    engine.read_for(200ms);
    std::vector<std::string> bestmoves;
    for (const std::string& line : engine.lines_read())
      if (starts_with(line, "bestmove")) bestmoves.push_back(line);
    BOOST_TEST_REQUIRE(bestmoves.size() == position_at_go.size(), transcript(engine));
    searches += int(bestmoves.size());
    for (std::size_t i = 0; i < bestmoves.size(); ++i) {
      if (bestmoves[i] == "bestmove 0000" &&
          quixo::variant_of(position_at_go[i]) == quixo::Variant::TwoPlayer) {
        BOOST_TEST(quixo::parse_position(position_at_go[i]).legal_moves().empty());
        continue;
      }
      if (bestmoves[i] == "bestmove 0000" &&
          quixo::parse_position4(position_at_go[i]).legal_moves().empty())
        continue;
      check_bestmove(bestmoves[i], position_at_go[i]);
    }
  }
  BOOST_TEST_MESSAGE("random sessions: " << searches << " searches");
}

// Four search threads, and commands sent in bursts without waiting for answers, so that the
// command loop reads and writes while the search threads run and report: isready, setoption
// (some that stop the search, some that do not), position, d, ponderhit and stop at every stage
// of a search. Every go gets exactly one legal bestmove for its position, every isready one
// readyok (before the bestmove of an infinite search), and the engine exits with 0. Under the
// tsan preset the engine is a ThreadSanitizer build, which a data race ends with its own exit
// code (halt_on_error), so this is the race check of the session (issue 9).
BOOST_AUTO_TEST_CASE(command_bursts_during_searches_with_four_threads) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("setoption name Threads value 4");
  engine.send("setoption name Ponder value true");
  int isready_sent = 1;  // the handshake's
  sync(engine);
  ++isready_sent;
  int readyok_read = isready_sent;
  // Sends isready and reads up to its readyok (the answers to earlier ones come first): all
  // that was sent before has been answered. Returns the lines read.
  const auto drain = [&] {
    engine.send("isready");
    ++isready_sent;
    std::vector<std::string> lines;
    for (; readyok_read < isready_sent; ++readyok_read) {
      const std::vector<std::string> more = expect(engine, "readyok");
      lines.insert(lines.end(), more.begin(), more.end());
    }
    return lines;
  };
  const std::vector<std::string> positions = {
      "position startpos", "position startpos moves a1e1 a5e5 c1c5",
      "position fen xo3/1x3/2o2/5/4o x", "position fen oo2x/x3x/o1x1x/o1o2/xoo2 x",
      "position fen 1ooo1/5/5/5/1xxxx x"};
  const std::vector<std::string> gos = {
      "go infinite",    "go ponder movetime 20", "go ponder xtime 2000 otime 2000 xinc 10 oinc 10",
      "go movetime 15", "go nodes 3000",         "go depth 3"};
  std::mt19937 random(2026);
  const auto pause = [&] {
    if (random() % 3 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(random() % 25));
  };
  std::vector<std::string> position_at_go;
  for (int round = 0; round < 48; ++round) {
    const std::string& position = positions[random() % positions.size()];
    engine.send(position);  // also ends the previous round's search, if it still runs
    const std::size_t kind = std::size_t(round) % gos.size();
    if (kind == 0) drain();  // reads the previous search's bestmove
    engine.send(gos[kind]);
    position_at_go.push_back(position_after(position));
    if (kind == 0) {
      // An infinite search answers isready at once and holds its bestmove.
      BOOST_TEST(count_prefix(drain(), "bestmove") == 0, "round " << round);
    } else {
      engine.send("isready");
      ++isready_sent;
    }
    pause();
    switch (random() % 5) {
      case 0:
        engine.send("setoption name Ponder value " + std::string(round % 2 ? "true" : "false"));
        break;  // no effect on the search
      case 1:
        engine.send("setoption name MultiPV value " + std::to_string(1 + round % 3));
        break;  // a changed option stops the search first
      case 2:
        engine.send("d");
        break;
      default:
        engine.send("isready");
        ++isready_sent;
        break;
    }
    pause();
    if (kind == 1 || kind == 2) engine.send("ponderhit");
    pause();
    if (random() % 4 != 0) engine.send("stop");
    if (random() % 2 == 0) engine.send("ponderhit");  // stray: nothing happens
  }
  engine.send("stop");
  drain();
  engine.close_input();
  BOOST_TEST(engine.wait_exit(kTimeout).value_or(-1) == 0, transcript(engine));
  engine.read_for(200ms);
  std::vector<std::string> bestmoves;
  int readyoks = 0;
  for (const std::string& line : engine.lines_read()) {
    if (starts_with(line, "bestmove")) bestmoves.push_back(line);
    readyoks += line == "readyok";
  }
  BOOST_TEST(readyoks == isready_sent);
  BOOST_TEST_REQUIRE(bestmoves.size() == position_at_go.size(), transcript(engine));
  for (std::size_t i = 0; i < bestmoves.size(); ++i)
    check_bestmove(bestmoves[i], position_at_go[i]);
}

// The same in-process: a UqiSession whose output goes to a buffer without a lock of its own
// (compiled with this test, so ThreadSanitizer sees every access), so that the session's output
// lock is all that keeps the search threads' info and bestmove lines from racing the command
// loop's answers. Commands come with short random pauses while two or three threads search. A
// marker (an unknown command, answered at once) after each go and its isready shows what came
// before it: that isready's readyok, and no bestmove yet from a search that holds it (infinite,
// ponder). In the end every go has exactly one legal bestmove and every isready a readyok.
namespace {
class UnguardedBuffer : public std::streambuf {
 public:
  std::string text;

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) text += traits_type::to_char_type(c);
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* data, std::streamsize count) override {
    text.append(data, std::size_t(count));
    return count;
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(an_in_process_session_guards_its_output_from_the_search_threads) {
  UnguardedBuffer buffer;
  std::ostream out(&buffer);
  const std::vector<std::string> positions = {
      "position startpos", "position startpos moves a1e1 a5e5 c1c5",
      "position fen xo3/1x3/2o2/5/4o x", "position fen 1ooo1/5/5/5/1xxxx x"};
  const std::vector<std::string> gos = {
      "go infinite",    "go ponder movetime 20", "go ponder xtime 2000 otime 2000",
      "go movetime 15", "go nodes 3000",         "go depth 3"};
  std::vector<std::string> position_at_go;
  std::vector<bool> holds;  // whether the go holds its bestmove until stop or ponderhit
  int isready_sent = 0;
  {
    quixo::UqiSession session(out);
    std::mt19937 random(99);
    const auto pause = [&] {
      if (random() % 2 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(random() % 15));
    };
    const auto send = [&](const std::string& line) { BOOST_TEST(session.handle_line(line)); };
    send("setoption name Threads value 3");
    for (int round = 0; round < 36; ++round) {
      const std::string& position = positions[random() % positions.size()];
      send(position);  // ends the previous round's search, if it still runs
      const std::size_t kind = std::size_t(round) % gos.size();
      send(gos[kind]);
      position_at_go.push_back(position_after(position));
      holds.push_back(kind <= 2);
      send("isready");
      ++isready_sent;
      send("marker-" + std::to_string(round));
      pause();
      if (round % 9 == 4) send("setoption name MultiPV value " + std::to_string(1 + round % 2));
      if (round % 9 == 8) send("setoption name Threads value " + std::to_string(2 + round % 2));
      if (kind == 1 || kind == 2) send("ponderhit");
      pause();
      if (kind != 1 || random() % 2 == 0) send("stop");
    }
    BOOST_TEST(!session.handle_line("quit"));
  }
  // The session and its threads are gone: the buffer is the test's alone.
  std::vector<std::string> bestmoves;
  int readyoks = 0;
  int readyoks_before_marker = 0;
  std::size_t round = 0;
  std::istringstream stream(buffer.text);
  for (std::string line; std::getline(stream, line);) {
    if (starts_with(line, "bestmove")) bestmoves.push_back(line);
    if (line == "readyok") {
      ++readyoks;
      ++readyoks_before_marker;
    }
    if (!contains(line, "unknown command 'marker-")) continue;
    BOOST_TEST_REQUIRE(round < holds.size());
    BOOST_TEST(contains(line, "'marker-" + std::to_string(round) + "'"), line);
    BOOST_TEST(readyoks_before_marker == 1, "round " << round);
    // Before the marker: the bestmoves of the earlier rounds (the position command ends a
    // search that still runs), and this round's only when its search does not hold it.
    if (holds[round]) BOOST_TEST(bestmoves.size() == round, "round " << round);
    if (!holds[round]) BOOST_TEST(bestmoves.size() >= round, "round " << round);
    BOOST_TEST(bestmoves.size() <= round + 1, "round " << round);
    readyoks_before_marker = 0;
    ++round;
  }
  BOOST_TEST(round == holds.size());
  BOOST_TEST(readyoks == isready_sent);
  BOOST_TEST_REQUIRE(bestmoves.size() == position_at_go.size(), buffer.text);
  for (std::size_t i = 0; i < bestmoves.size(); ++i)
    check_bestmove(bestmoves[i], position_at_go[i]);
}

// ------------------------------------------------------------------------ issue 9 regressions

// A memory limit breaks sanitizer runtimes (they reserve terabytes of address space), so the
// tests that impose one run only in plain builds.
#if defined(QUIXO_ADDRESS_SANITIZER) || defined(QUIXO_THREAD_SANITIZER)
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif

// A Hash the machine cannot give keeps the old table: a clear error, then the engine goes on.
BOOST_AUTO_TEST_CASE(hash_that_cannot_be_allocated_keeps_the_old_table) {
  if (kSanitizedBuild) return;
  EngineProcess engine("/bin/sh", {"-c", "ulimit -v 1000000 && exec " + engine_binary()});
  handshake(engine);
  engine.send("setoption name Hash value 4096");
  const auto lines = sync(engine);
  BOOST_TEST_REQUIRE(lines.size() == 1u, transcript(engine));
  BOOST_TEST(lines[0] ==
             "info string error: cannot allocate 4096 MB for the hash table; keeping 16 MB");
  engine.send("position startpos");
  go(engine, "go depth 6", "5/5/5/5/5 x");
  // A size that fits is still taken, and both variants search with it.
  engine.send("setoption name Hash value 64");
  BOOST_TEST(sync(engine).empty());
  go(engine, "go depth 5", "5/5/5/5/5 x");
  engine.send("position startpos4");
  go(engine, "go depth 4", "5/5/5/5/5 1");
  // The advertised maximum: refused the same way, never a crash.
  engine.send("setoption name Hash value 65536");
  BOOST_TEST(
      contains(sync(engine).at(0), "cannot allocate 65536 MB for the hash table; keeping 64"));
  go(engine, "go depth 4", "5/5/5/5/5 1");
  check_clean_exit(engine);
}

// Issue 25, item 14: search threads the system will not start (Threads 256 under a memory
// limit: each thread needs a stack) are reported, and the engine searches with those that
// started; it used to end with `terminate ... std::system_error` (rc 134), and a helper that
// then found no memory ended it with `std::bad_alloc`.
BOOST_AUTO_TEST_CASE(threads_the_system_will_not_start_are_reported_and_the_search_goes_on) {
  if (kSanitizedBuild) return;
  EngineProcess engine("/bin/sh", {"-c", "ulimit -v 300000 && exec " + engine_binary()});
  handshake(engine);
  engine.send("setoption name Threads value 256");
  BOOST_TEST(sync(engine).empty());
  engine.send("position startpos");
  for (const int round : {1, 2}) {
    BOOST_TEST_CONTEXT("search " << round) {
      const auto lines = go(engine, "go depth 5", "5/5/5/5/5 x");
      BOOST_TEST(
          count_prefix(lines, "info string error: option Threads: cannot start thread ") == 1,
          transcript(engine));
      // Besides: helpers that started but then found no memory stop, and say so.
      for (const std::string& line : lines)
        if (starts_with(line, "info string error"))
          BOOST_TEST(((contains(line, " of 256 (") && contains(line, "; searching with ")) ||
                      contains(line, " search thread(s) ran out of memory and stopped")),
                     line);
    }
  }
  engine.send("position startpos4");
  go(engine, "go depth 3", "5/5/5/5/5 1");
  check_clean_exit(engine);
}

// The same, deterministically and in-process: a ThreadStartLimit makes the starts fail as the
// system does. Helpers that cannot start: the search runs with those that did; no search thread
// at all: an error and the first legal move; a perft thread: an error. Then the session goes on.
BOOST_AUTO_TEST_CASE(a_thread_start_that_fails_is_named_and_the_session_goes_on) {
  std::ostringstream out;
  {
    quixo::UqiSession session(out);
    session.handle_line("setoption name Threads value 8");
    session.handle_line("position startpos");
    {
      const quixo::ThreadStartLimit limit(4);  // the search's own thread and three helpers
      session.handle_line("go depth 4");
      session.handle_line("uqinewgame");  // waits for the search: every start has been tried
    }
    session.handle_line("isready");
    {
      const quixo::ThreadStartLimit limit(0);
      session.handle_line("go depth 4");
      session.handle_line("go perft 2");
    }
    session.handle_line("go depth 3");  // no limit: a normal search
    session.handle_line("quit");
  }
  std::vector<std::string> lines;
  std::istringstream text(out.str());
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  const auto index_of = [&](std::string_view prefix) {
    const auto found = std::find_if(lines.begin(), lines.end(), [&](const std::string& line) {
      return starts_with(line, prefix);
    });
    BOOST_TEST_REQUIRE((found != lines.end()), "no line '" << prefix << "' in:\n" << out.str());
    return std::size_t(found - lines.begin());
  };
  const std::string resource =
      std::make_error_code(std::errc::resource_unavailable_try_again).message();
  const std::size_t helpers = index_of("info string error: option Threads: cannot start thread");
  BOOST_TEST(lines[helpers] == "info string error: option Threads: cannot start thread 5 of 8 (" +
                                   resource + "); searching with 4 threads");
  const std::size_t ready = index_of("readyok");
  BOOST_TEST(helpers < ready);
  BOOST_TEST(count_prefix(std::vector(lines.begin(), lines.begin() + std::ptrdiff_t(ready)),
                          "bestmove") == 1);
  BOOST_TEST(lines.at(ready + 1) ==
             "info string error: the search could not start: cannot start thread 1 of 1 (" +
                 resource + ")");
  check_bestmove(lines.at(ready + 2), "5/5/5/5/5 x");
  BOOST_TEST(lines.at(ready + 3) ==
             "info string error: perft: cannot start thread 1 of 1 (" + resource + ")");
  BOOST_TEST(count_prefix(lines, "bestmove") == 3, out.str());
  BOOST_TEST(count_prefix(lines, "Nodes searched") == 0);
  check_bestmove(lines.back(), "5/5/5/5/5 x");
}

// go perft runs like a search: isready is answered at once, stop ends it with a partial count
// said to be one, quit exits at once.
BOOST_AUTO_TEST_CASE(perft_obeys_isready_stop_and_quit) {
  for (const std::string position : {"startpos", "startpos4"}) {
    EngineProcess engine(engine_binary());
    engine.send("position " + position);
    engine.send("go perft 11");  // hours
    const auto started = std::chrono::steady_clock::now();
    sync(engine);
    BOOST_TEST(elapsed_ms(started) < 2000);
    std::this_thread::sleep_for(200ms);
    engine.send("stop");
    const auto lines = expect(engine, "info string perft stopped");
    BOOST_TEST(contains(lines.back(), "partial count"), lines.back());
    BOOST_TEST(count_prefix(lines, "Nodes searched") == 0);
    BOOST_TEST(elapsed_ms(started) < 5000);
    // The session goes on; a small perft after it is whole.
    engine.send("go perft 1");
    BOOST_TEST(starts_with(expect(engine, "Nodes searched").back(), "Nodes searched: "));
    engine.send("go perft 11");
    sync(engine);
    const auto quit_at = std::chrono::steady_clock::now();
    engine.send("quit");
    const auto code = engine.wait_exit(kTimeout);
    BOOST_TEST_REQUIRE(code.has_value());
    BOOST_TEST(*code == 0);
    BOOST_TEST(elapsed_ms(quit_at) < 3000);
  }
}

// go mate N ends by itself when there is no mate in N, after at most 2N - 1 plies.
BOOST_AUTO_TEST_CASE(go_mate_ends_without_a_mate) {
  EngineProcess engine(engine_binary());
  for (const auto& [position, text] :
       {std::pair<std::string, std::string>{"startpos", "5/5/5/5/5 x"},
        {"startpos4", "5/5/5/5/5 1"}}) {
    engine.send("position " + position);
    for (const int mate : {1, 2, 3}) {
      const auto lines = go(engine, "go mate " + std::to_string(mate), text);
      for (const std::string& line : lines)
        if (const auto info = uqi::parse_info_line(line); info && info->depth)
          BOOST_TEST(*info->depth <= 2 * mate - 1, line);
    }
  }
  // A mate that is there is still found: x wins at once on the top rank.
  engine.send("position fen xxxx1/5/5/5/ooo1o x");
  const auto lines = go(engine, "go mate 1", "xxxx1/5/5/5/ooo1o x");
  BOOST_TEST(contains(lines[lines.size() - 2], "score mate 1"), lines[lines.size() - 2]);
  check_clean_exit(engine);
}

// Unknown tokens in `position` are skipped, as UCI practice has it.
BOOST_AUTO_TEST_CASE(position_skips_unknown_tokens) {
  EngineProcess engine(engine_binary());
  engine.send("position startpos foo moves b1b5");
  const auto notes = sync(engine);
  BOOST_TEST_REQUIRE(notes.size() == 1u);
  BOOST_TEST(contains(notes[0], "ignored 'foo'"), notes[0]);
  BOOST_TEST(displayed_position(engine) == position_after("position startpos moves b1b5"));
  engine.send("position startpos4 bar baz moves b1e1x");
  sync(engine);
  BOOST_TEST(displayed_position(engine) == position_after("position startpos4 moves b1e1x"));
  check_clean_exit(engine);
}

// Whenever a search is stopped, the last info line before bestmove shows the move played.
BOOST_AUTO_TEST_CASE(last_info_agrees_with_bestmove_after_stop) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  std::mt19937 random(9);
  const std::pair<std::string, std::string> positions[] = {
      {"fen oo2x/x3x/o1x1x/o1o2/xoo2 x", "oo2x/x3x/o1x1x/o1o2/xoo2 x"},
      {"startpos", "5/5/5/5/5 x"},
      {"fen O2XO/4O/5/o3x/X2XO 3", "O2XO/4O/5/o3x/X2XO 3"},
      {"startpos4", "5/5/5/5/5 1"}};
  for (const std::string threads : {"1", "2"}) {
    engine.send("setoption name Threads value " + threads);
    for (int round = 0; round < 12; ++round) {
      const auto& [command, text] = positions[round % 4];
      engine.send("position " + command);
      engine.send("go infinite");
      std::this_thread::sleep_for(std::chrono::milliseconds(random() % 120));
      engine.send("stop");
      const auto lines = expect(engine, "bestmove");
      const std::string best = check_bestmove(lines.back(), text);
      std::optional<uqi::InfoLine> last;
      for (const std::string& line : lines)
        if (const auto info = uqi::parse_info_line(line); info && !info->pv.empty())
          if (info->multipv.value_or(1) == 1) last = info;
      BOOST_TEST_REQUIRE(last.has_value(), transcript(engine));
      BOOST_TEST(last->pv.front() == best, "round " << round << ":\n" << transcript(engine));
    }
  }
  check_clean_exit(engine);
}

// Four-player positions: Threads works there too, and an option the team search cannot honour
// says so once instead of being ignored silently.
BOOST_AUTO_TEST_CASE(four_player_options_apply_or_say_why_not) {
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("setoption name Threads value 3");
  engine.send("setoption name MultiPV value 2");
  engine.send("setoption name ParryThreats value true");
  // Off by default and two-player only: noted. On by default, or applying to both: not.
  engine.send("setoption name LateMovePruning value true");
  engine.send("setoption name NullMovePruning value true");
  engine.send("setoption name LateMoveReductions value false");
  engine.send("position startpos4 moves b1e1x");
  const std::string text = position_after("position startpos4 moves b1e1x");
  auto lines = go(engine, "go depth 5", text);
  BOOST_TEST(count_prefix(lines, "info string option MultiPV applies to two-player") == 1);
  BOOST_TEST(count_prefix(lines, "info string option ParryThreats applies to two-player") == 1);
  BOOST_TEST(count_prefix(lines, "info string option LateMovePruning applies to two-player") == 1);
  BOOST_TEST(count_prefix(lines, "info string option") == 3);
  // Once per session.
  lines = go(engine, "go depth 4", text);
  BOOST_TEST(count_prefix(lines, "info string option") == 0);
  // Two-player positions take them without a word.
  engine.send("position startpos");
  lines = go(engine, "go depth 4", "5/5/5/5/5 x");
  BOOST_TEST(count_prefix(lines, "info string") == 0);
  check_clean_exit(engine);
}

// ------------------------------------------------------------------------ endgame tables

namespace {

// A layer-0 position (no blank cube) where the game goes on and whose value is `wanted`, from a
// seeded random board.
quixo::Position layer0_position(quixo::tb::Wdl wanted, std::uint32_t seed) {
  const quixo::tb::Tablebase& tables = quixo::test::test_tables();
  std::mt19937 random(seed);
  for (int tries = 0; tries < 400000; ++tries) {
    quixo::Bitboard x = 0;
    for (int square = 0; square < quixo::kSquareCount; ++square)
      if (random() % 2) x |= quixo::square_bb(square);
    const quixo::Position position(x, quixo::kFullBoard & ~x,
                                   random() % 2 ? quixo::Color::X : quixo::Color::O);
    if (position.is_game_over()) continue;
    const auto value = tables.probe(position);
    BOOST_TEST_REQUIRE(value.has_value());
    if (value->wdl == wanted && (wanted == quixo::tb::Wdl::Draw || value->distance > 2))
      return position;
  }
  BOOST_FAIL("no layer-0 position of the wanted value");
  return {};
}

// The `tablebase: ...` line that loading the fixture's tables reports.
std::string loaded_line(const std::filesystem::path& dir) {
  std::string layers = "layers";
  for (int k = 0; k <= quixo::test::test_table_blanks(); ++k) layers += " " + std::to_string(k);
  return "info string tablebase: " + layers + " loaded from " + dir.string();
}

// A folder removed at the end of the test.
struct TemporaryFolder {
  std::filesystem::path path;
  explicit TemporaryFolder(std::string_view name)
      : path(std::filesystem::temp_directory_path() /
             (std::string(name) + "-" + std::to_string(std::random_device{}()))) {
    std::filesystem::create_directories(path);
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// The value of each move of `position`'s `tb` report, checked against the tables: the first line
// is the position's value, then every legal move once with the value Tablebase::probe_moves
// gives it, the best first.
void check_tb_report(const std::vector<std::string>& lines, const quixo::Position& position) {
  const quixo::tb::Tablebase& tables = quixo::test::test_tables();
  std::vector<std::string> report;
  for (const std::string& line : lines)
    if (starts_with(line, "info string tb: ")) report.push_back(line.substr(16));
  const auto moves = tables.probe_moves(position);
  BOOST_TEST_REQUIRE(moves.has_value());
  BOOST_TEST_REQUIRE(report.size() == moves->size() + 1);
  BOOST_TEST(report[0] == quixo::tb::to_string(*tables.probe(position)));
  std::vector<std::string> expected, reported(report.begin() + 1, report.end());
  for (const quixo::tb::MoveValue& entry : *moves)
    expected.push_back(quixo::to_string(entry.move) + " " + quixo::tb::to_string(entry.value));
  // Best first: wins by increasing distance, draws, losses by decreasing distance.
  const auto rank = [&](const std::string& line) {
    for (const quixo::tb::MoveValue& entry : *moves)
      if (line == quixo::to_string(entry.move) + " " + quixo::tb::to_string(entry.value))
        return entry.value.wdl == quixo::tb::Wdl::Win    ? 1000 - entry.value.distance
               : entry.value.wdl == quixo::tb::Wdl::Draw ? 0
                                                         : -1000 + entry.value.distance;
    return -100000;
  };
  for (std::size_t i = 1; i < reported.size(); ++i)
    BOOST_TEST(rank(reported[i - 1]) >= rank(reported[i]), reported[i - 1] << " / " << reported[i]);
  std::sort(expected.begin(), expected.end());
  std::sort(reported.begin(), reported.end());
  BOOST_TEST(reported == expected, boost::test_tools::per_element());
}

// The last info line with a score before the bestmove.
uqi::InfoLine last_scored_info(const std::vector<std::string>& lines) {
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (!starts_with(*it, "info ") || starts_with(*it, "info string")) continue;
    const auto info = uqi::parse_info_line(*it);
    if (info && (info->score_cp || info->score_mate)) return *info;
  }
  BOOST_FAIL("no info line with a score");
  return {};
}

}  // namespace

// TablebasePath loads the tables (and says which layers), `tb` reports a position as
// Tablebase::probe_moves values it, a search of a position in the tables plays a move that keeps
// the value with `score mate (distance + 1) / 2` and tbhits, and an empty value unloads.
BOOST_AUTO_TEST_CASE(tablebase_path_tb_and_a_search_in_the_tables) {
  quixo::test::require_test_tables();
  const quixo::tb::Tablebase& tables = quixo::test::test_tables();
  const std::filesystem::path dir = quixo::test::test_tables_dir();
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("setoption name TablebasePath value " + dir.string());
  auto lines = sync(engine);
  BOOST_TEST(count_prefix(lines, loaded_line(dir)) == 1, transcript(engine));
  BOOST_TEST(count_prefix(lines, "info string error") == 0);

  for (const auto wanted : {quixo::tb::Wdl::Win, quixo::tb::Wdl::Loss, quixo::tb::Wdl::Draw}) {
    const quixo::Position position = layer0_position(wanted, 11 + int(wanted));
    const std::string text = quixo::to_string(position);
    const quixo::tb::TbValue value = *tables.probe(position);
    BOOST_TEST_CONTEXT(text << " (" << quixo::tb::to_string(value) << ")") {
      engine.send("position fen " + text);
      engine.send("tb");
      check_tb_report(sync(engine), position);
      lines = go(engine, "go nodes 2000", text);
      const uqi::InfoLine info = last_scored_info(lines);
      BOOST_TEST(info.tbhits.value_or(0) > 0u);
      if (wanted == quixo::tb::Wdl::Draw) {
        BOOST_TEST(info.score_cp.value_or(-1) == 0);
      } else {
        const int moves = (value.distance + 1) / 2;
        BOOST_TEST(info.score_mate.value_or(0) == (wanted == quixo::tb::Wdl::Win ? moves : -moves));
      }
      const quixo::Move best =
          quixo::parse_move(position, uqi::parse_bestmove_line(lines.back())->move);
      const auto move_values = tables.probe_moves(position);
      for (const quixo::tb::MoveValue& entry : *move_values)
        if (entry.move == best)
          BOOST_TEST(quixo::tb::to_string(entry.value) == quixo::tb::to_string(value));
    }
  }
  // Every info line of a search far from the tables has tbhits, 0 here.
  engine.send("position startpos");
  for (const std::string& line : go(engine, "go depth 3", "5/5/5/5/5 x"))
    if (starts_with(line, "info depth"))
      BOOST_TEST(uqi::parse_info_line(line)->tbhits.value_or(1) == 0u, line);

  // A new cache size loads the tables again; a bad one is refused and changes nothing.
  engine.send("setoption name TablebaseCache value 2");
  lines = sync(engine);
  BOOST_TEST(count_prefix(lines, loaded_line(dir)) == 1, transcript(engine));
  engine.send("setoption name TablebaseCache value 0");
  lines = sync(engine);
  BOOST_TEST(
      count_prefix(lines, "info string error: option TablebaseCache: '0' is out of range") == 1,
      transcript(engine));
  const quixo::Position won = layer0_position(quixo::tb::Wdl::Win, 5);
  engine.send("position fen " + quixo::to_string(won));
  BOOST_TEST(
      last_scored_info(go(engine, "go nodes 2000", quixo::to_string(won))).tbhits.value_or(0) > 0u);

  engine.send("setoption name TablebasePath value");
  engine.send("tb");
  lines = sync(engine);
  BOOST_TEST(count_prefix(lines, "info string tablebase: unloaded") == 1);
  BOOST_TEST(count_prefix(lines, "info string tb: no tables loaded") == 1);
  check_clean_exit(engine);
}

// `tb` outside the tables, in the four-player game and after the game's end says so; a bad
// TablebasePath (no folder, no table in it, a file that is not a table) is an error that keeps
// the tables loaded before, and the engine goes on.
BOOST_AUTO_TEST_CASE(tb_outside_the_tables_and_bad_tablebase_paths) {
  quixo::test::require_test_tables();
  const std::filesystem::path dir = quixo::test::test_tables_dir();
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("tb");
  BOOST_TEST(count_prefix(sync(engine), "info string tb: no tables loaded") == 1);
  engine.send("setoption name TablebasePath value " + dir.string());
  BOOST_TEST(count_prefix(sync(engine), loaded_line(dir)) == 1);
  engine.send("position startpos");
  engine.send("tb");
  BOOST_TEST(count_prefix(sync(engine), "info string tb: position not in the tables") == 1);
  engine.send("position startpos4");
  engine.send("tb");
  BOOST_TEST(count_prefix(sync(engine), "info string tb: the four-player game has no tables") == 1);
  engine.send("position fen xxxxx/oooo1/5/5/5 o");
  engine.send("tb");
  BOOST_TEST(count_prefix(sync(engine), "info string tb: the game is over") == 1);

  const TemporaryFolder empty("quixo-no-tables");
  const TemporaryFolder garbage("quixo-bad-tables");
  std::ofstream(quixo::tb::layer_file_path(garbage.path, 0)) << "not a table\n";
  // Tables whose distances count to the layer's exit are for training: the search's scores and
  // fastest wins would read them as plies to the end.
  const TemporaryFolder training("quixo-exit-tables");
  quixo::tb::write_layer_file(
      quixo::tb::layer_file_path(training.path, 0), quixo::tb::LayerIndex(0),
      quixo::tb::LayerFile(quixo::tb::layer_file_path(dir, 0), 0).decode_all(2), 2, 1,
      quixo::tb::DistanceCount::LayerExit);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"/nonexistent/quixo-tables", "is not a folder"},
      {empty.path.string(), "no usable table file"},
      {garbage.path.string(), "no usable table file"},
      {training.path.string(), "layer 0 counts plies to a blank cube taken"}};
  for (const auto& [path, why] : bad) {
    engine.send("setoption name TablebasePath value " + path);
    const auto lines = sync(engine);
    BOOST_TEST_CONTEXT(path) {
      BOOST_TEST(count_prefix(lines, "info string error: option TablebasePath: ") == 1);
      BOOST_TEST(contains(lines.back(), why), lines.back());
      if (path == garbage.path.string())
        BOOST_TEST(count_prefix(lines, "info string error: tablebase: refused ") == 1);
    }
  }
  // The tables loaded before are still there, and the engine still plays.
  const quixo::Position position = layer0_position(quixo::tb::Wdl::Win, 3);
  engine.send("position fen " + quixo::to_string(position));
  engine.send("tb");
  check_tb_report(sync(engine), position);
  engine.send("position startpos moves a1e1");
  go(engine, "go depth 2", position_after("position startpos moves a1e1"));
  check_clean_exit(engine);
}

// A block that turns out corrupt during a search: the engine says so once and plays on; with
// TablebaseCheck on, the file is refused when it loads.
BOOST_AUTO_TEST_CASE(a_corrupt_block_is_reported_once) {
  quixo::test::require_test_tables();
  const TemporaryFolder folder("quixo-corrupt-tables");
  const std::filesystem::path file = quixo::tb::layer_file_path(folder.path, 0);
  std::filesystem::copy_file(quixo::tb::layer_file_path(quixo::test::test_tables_dir(), 0), file);
  {
    // The blocks lie between the block table (its offset at byte 48 of the header, then one u64
    // per block and one more, then a CRC-32) and the trailer (its offset at byte 56): overwrite
    // them all, leaving what is checked when the file is opened intact (tb_file.hpp).
    std::fstream bytes(file, std::ios::in | std::ios::out | std::ios::binary);
    const auto read_u64 = [&](std::streamoff at) {
      std::uint64_t value = 0;
      bytes.seekg(at);
      bytes.read(reinterpret_cast<char*>(&value), sizeof value);
      return value;
    };
    const std::uint64_t block_count = read_u64(40);
    const std::uint64_t blocks_begin = read_u64(48) + (block_count + 1) * 8 + 4;
    const std::uint64_t trailer = read_u64(56);
    BOOST_TEST_REQUIRE(blocks_begin < trailer);
    bytes.seekp(std::streamoff(blocks_begin));
    const std::string junk(trailer - blocks_begin, '\x5a');
    bytes.write(junk.data(), std::streamsize(junk.size()));
    BOOST_TEST_REQUIRE(bytes.good());
  }
  EngineProcess engine(engine_binary());
  handshake(engine);
  engine.send("setoption name TablebasePath value " + folder.path.string());
  BOOST_TEST(count_prefix(sync(engine), "info string tablebase: layers 0 loaded") == 1);
  const std::string text = quixo::to_string(layer0_position(quixo::tb::Wdl::Win, 8));
  engine.send("position fen " + text);
  auto lines = go(engine, "go depth 2", text);
  BOOST_TEST(count_prefix(lines, "info string error: tablebase: ") == 1, transcript(engine));
  lines = go(engine, "go depth 2", text);
  BOOST_TEST(count_prefix(lines, "info string error: tablebase: ") == 0);

  // With TablebaseCheck the files are read against their checksums when they load: switched on,
  // it loads the tables again and refuses this one by name; sound tables load as before.
  engine.send("setoption name TablebaseCheck value true");
  lines = sync(engine);
  BOOST_TEST(count_prefix(lines, "info string error: tablebase: refused " + file.string() +
                                     ": file checksum mismatch") == 1,
             transcript(engine));
  engine.send("setoption name TablebasePath value " + quixo::test::test_tables_dir().string());
  BOOST_TEST(count_prefix(sync(engine), loaded_line(quixo::test::test_tables_dir())) == 1,
             transcript(engine));
  engine.send("setoption name TablebaseCheck value maybe");
  BOOST_TEST(count_prefix(sync(engine),
                          "info string error: option TablebaseCheck needs the value "
                          "true or false, not 'maybe'") == 1,
             transcript(engine));
  check_clean_exit(engine);
}

// --option TablebasePath=DIR works as setoption does (a folder that is not there is a bad command
// line), and bench, the search's signature, ignores the tables.
BOOST_AUTO_TEST_CASE(tablebase_path_on_the_command_line_and_bench) {
  quixo::test::require_test_tables();
  const std::filesystem::path dir = quixo::test::test_tables_dir();
  {
    EngineProcess engine(engine_binary(), {"--option", "TablebasePath=" + dir.string()});
    BOOST_TEST(count_prefix(sync(engine), loaded_line(dir)) == 1);
    const quixo::Position position = layer0_position(quixo::tb::Wdl::Loss, 4);
    engine.send("position fen " + quixo::to_string(position));
    engine.send("tb");
    check_tb_report(sync(engine), position);
    check_clean_exit(engine);
  }
  {
    EngineProcess engine(engine_binary(), {"--option", "TablebasePath=/nonexistent/quixo-tables"},
                         EngineProcess::Stderr::Discard);
    engine.close_input();
    BOOST_TEST(engine.wait_exit(kTimeout).value_or(-1) == 2);
  }
  const auto bench_nodes = [](const std::vector<std::string>& options) {
    EngineProcess engine(engine_binary(), options);
    const auto lines = expect(engine, "Nodes searched", 300s);
    BOOST_TEST(engine.wait_exit(kTimeout).value_or(-1) == 0);
    return lines.back();
  };
  const std::string plain = bench_nodes({"bench"});
  BOOST_TEST(starts_with(plain, "Nodes searched : "), plain);
  BOOST_TEST(bench_nodes({"--option", "TablebasePath=" + dir.string(), "bench"}) == plain);
}

BOOST_AUTO_TEST_SUITE_END()
