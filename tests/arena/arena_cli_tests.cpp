// quixo-arena end to end: the real binary (QUIXO_ARENA_BINARY) run as a user or a script runs it,
// against the real engine (QUIXO_ENGINE_BINARY) and against quixo-mock-engine's misbehaving modes
// (QUIXO_MOCK_ENGINE_BINARY). What is checked is what they see: the exit code, the one-line error
// on stderr, the report on stdout, the JSON results file and the PGN (read back with parse_pgn),
// --resume after kill -9 and after Ctrl-C, the SPRT's exit codes and the config file's precedence.
// Each test works in a fresh temporary directory, so the suite can run in parallel with itself.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/game.hpp"
#include "engine_spec.hpp"
#include "game_record.hpp"
#include "openings.hpp"
#include "pgn_reader.hpp"
#include "program_options_message.hpp"
#include "results_store.hpp"
#include "support/arena_printing.hpp"
#include "support/child_process.hpp"
#include "support/temp_dir.hpp"
#include "support/test_tables.hpp"

BOOST_AUTO_TEST_SUITE(arena_cli_tests)

namespace {

namespace arena = quixo::arena;
namespace bdata = boost::unit_test::data;
namespace fs = std::filesystem;
namespace json = boost::json;
using namespace std::chrono_literals;
using quixo::testing::EngineProcess;
using Args = std::vector<std::string>;

// Generous: sanitizer builds on a loaded two-core machine are slow. Nothing waits this long when
// all is well.
constexpr auto kRunTimeout = 120s;

const std::string kArena = QUIXO_ARENA_BINARY;
const std::string kEngine = QUIXO_ENGINE_BINARY;
const std::string kMock = QUIXO_MOCK_ENGINE_BINARY;
const std::string kOpenings = QUIXO_OPENINGS_BINARY;

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::string& path, std::string_view text, bool append = false) {
  std::ofstream out(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  out << text;
  BOOST_TEST_REQUIRE(static_cast<bool>(out.flush()), "cannot write " << path);
}

using TempDir = quixo::testing::TempDir;

struct ArenaRun {
  std::optional<int> exit_code;  // nullopt: still running at the deadline (and then killed)
  std::string out;
  std::string err;
  double seconds = 0;
  int code() const { return exit_code.value_or(-1); }
};

std::ostream& operator<<(std::ostream& out, const ArenaRun& run) {
  out << "exit " << (run.exit_code ? std::to_string(*run.exit_code) : "none (timed out)")
      << " after " << run.seconds << " s\n--- stderr:\n"
      << run.err << "--- stdout (end):\n"
      << (run.out.size() > 3000 ? run.out.substr(run.out.size() - 3000) : run.out);
  return out;
}

// Runs `program` (quixo-arena, or quixo-openings to make a book) to the end. Its stdout is read as
// it comes, so a long report never blocks it on a full pipe; its stderr goes to a file in `dir`,
// so the two can be told apart.
ArenaRun run_program(const std::string& program, const Args& args, const TempDir& dir,
                     std::chrono::milliseconds timeout) {
  static int runs = 0;
  const std::string err_path = dir.file("arena-stderr-" + std::to_string(++runs) + ".txt");
  const auto start = std::chrono::steady_clock::now();
  ArenaRun run;
  {
    EngineProcess process(program, args, EngineProcess::Stderr::File, err_path);
    process.close_input();
    process.read_for(timeout);  // returns when the output ends, i.e. when the arena exits
    run.exit_code = process.wait_exit(5s);
    for (const std::string& line : process.lines_read()) run.out += line + "\n";
  }  // a process still running is killed here
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.err = read_text(err_path);
  // A sanitizer build reports undefined behaviour on stderr and carries on with the same exit
  // code, so only this catches it.
  BOOST_TEST(!contains(run.err, "runtime error:"), run);
  BOOST_TEST(!contains(run.err, "Sanitizer"), run);
  return run;
}

ArenaRun run_arena(const Args& args, const TempDir& dir,
                   std::chrono::milliseconds timeout = kRunTimeout) {
  return run_program(kArena, args, dir, timeout);
}

ArenaRun run_openings_tool(const Args& args, const TempDir& dir) {
  return run_program(kOpenings, args, dir, kRunTimeout);
}

// `--engine name=NAME cmd=MOCK args="ARGS" KEYS...` as separate words, the way a shell passes them.
Args mock(const std::string& name, const std::string& mock_args, const Args& keys = {}) {
  Args words = {"--engine", "name=" + name, "cmd=" + kMock, "args=" + mock_args};
  words.insert(words.end(), keys.begin(), keys.end());
  return words;
}

Args join(std::initializer_list<Args> parts) {
  Args all;
  for (const Args& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Two well-behaved mocks that play deterministic (seeded) but different moves.
Args two_normal_mocks() {
  return join(
      {mock("a", "--mode normal --random-seed 3"), mock("b", "--mode normal --random-seed 5")});
}

// Positions from `quixo-openings` and one line with book moves. Any legal
// openings would do, as long as the rounds do not all replay the same game.
constexpr std::string_view kBook =
    "# a small book for the tests\n"
    "x3o/4x/4o/5/1o2x x\n"
    "5/o3x/1x2x/2o2/x1o2 x\n"
    "xx3/5/o4/5/o4 x\n"
    "ox2x/5/5/x4/o1oox x\n"
    "oo1xx/5/5/x4/4o o\n"
    "4x/x4/4o/5/o4 x\n"
    "startpos moves a1e1 e5a5\n"
    "x4/5/4o/4x/1x1oo o\n";

// ------------------------------------------------------------------------- the results file

json::object load_results(const std::string& path) {
  const std::string text = read_text(path);
  boost::system::error_code error;
  json::value value = json::parse(text, error);
  BOOST_TEST_REQUIRE(!error, path << " is not JSON (" << error.message() << "):\n" << text);
  BOOST_TEST_REQUIRE(value.is_object());
  return std::move(value.as_object());
}

std::int64_t integer(const json::value& object, std::string_view key) {
  return object.at(key).to_number<std::int64_t>();
}

std::string text(const json::value& object, std::string_view key) {
  return std::string(object.at(key).as_string());
}

const json::array& games_of(const json::object& results) {
  return results.at("games").as_array();
}

// The standings entry of the engine named `name`.
const json::value& tally_of(const json::object& results, std::string_view name) {
  const json::value* found = nullptr;
  for (const json::value& engine : results.at("standings").at("engines").as_array())
    if (engine.at("name").as_string() == name) found = &engine;
  BOOST_TEST_REQUIRE(found != nullptr, "no engine " << name << " in the standings");
  return *found;
}

// The standings add up to `games`: each game is counted for both of its engines, once in its
// pairing, and every pair of the pentanomial is two of them.
void check_standings_add_up(const json::object& results, std::int64_t games) {
  const json::value& standings = results.at("standings");
  BOOST_TEST(integer(standings, "games") == games);
  BOOST_TEST(static_cast<std::int64_t>(games_of(results).size()) == games);
  std::int64_t engine_games = 0;
  std::int64_t wins = 0;
  std::int64_t losses = 0;
  for (const json::value& engine : standings.at("engines").as_array()) {
    BOOST_TEST(integer(engine, "games") ==
               integer(engine, "wins") + integer(engine, "losses") + integer(engine, "draws"));
    engine_games += integer(engine, "games");
    wins += integer(engine, "wins");
    losses += integer(engine, "losses");
  }
  BOOST_TEST(engine_games == 2 * games);
  BOOST_TEST(wins == losses);
  std::int64_t pairing_games = 0;
  std::int64_t pairs = 0;
  for (const json::value& pairing : standings.at("pairings").as_array()) {
    pairing_games +=
        integer(pairing, "wins") + integer(pairing, "losses") + integer(pairing, "draws");
    for (const json::value& count : pairing.at("pentanomial").as_array())
      pairs += count.to_number<std::int64_t>();
  }
  BOOST_TEST(pairing_games == games);
  BOOST_TEST(pairs == games / 2);
}

// Every game id of the schedule, 0 to total - 1, is in the results file exactly once.
void check_every_game_recorded(const json::object& results, std::int64_t total) {
  std::multiset<std::int64_t> ids;
  for (const json::value& game : games_of(results)) ids.insert(integer(game, "id"));
  BOOST_TEST(static_cast<std::int64_t>(ids.size()) == total);
  for (std::int64_t id = 0; id < total; ++id) BOOST_TEST(ids.count(id) == 1u, "game id " << id);
}

// --------------------------------------------------------------------------------- the PGN

std::vector<arena::GameRecord> load_pgn(const std::string& path) {
  try {
    return arena::parse_pgn(read_text(path));
  } catch (const arena::PgnError& error) {
    BOOST_FAIL(path << " does not parse: " << error.what());
  }
  return {};
}

std::map<std::string, arena::GameRecord> by_round(const std::vector<arena::GameRecord>& games) {
  std::map<std::string, arena::GameRecord> rounds;
  for (const arena::GameRecord& game : games)
    BOOST_TEST(rounds.emplace(game.round, game).second, "two PGN games of round " << game.round);
  return rounds;
}

// The PGN holds the games of the results file and nothing else: matched by the Round tag (the
// game's id + 1), with the same engines, result, ending, reason, opening and number of moves.
void check_pgn_matches_results(const std::vector<arena::GameRecord>& pgn,
                               const json::object& results) {
  BOOST_TEST(pgn.size() == games_of(results).size());
  const auto rounds = by_round(pgn);
  for (const json::value& game : games_of(results)) {
    const std::string round = std::to_string(integer(game, "id") + 1);
    const auto found = rounds.find(round);
    BOOST_TEST_REQUIRE((found != rounds.end()), "no PGN game with Round " << round);
    const arena::GameRecord& record = found->second;
    BOOST_TEST_CONTEXT("game " << round) {
      BOOST_TEST(record.x_name == text(game, "x"));
      BOOST_TEST(record.o_name == text(game, "o"));
      BOOST_TEST(std::string(arena::result_text(record.result)) == text(game, "result"));
      BOOST_TEST(std::string(arena::termination_name(record.termination)) ==
                 text(game, "termination"));
      BOOST_TEST(record.reason == text(game, "reason"));
      BOOST_TEST(static_cast<std::int64_t>(record.moves.size()) == integer(game, "plies"));
      BOOST_TEST(arena::format_opening({record.start_position, record.opening_moves}) ==
                 text(game, "opening"));
    }
  }
}

// --------------------------------------------------------------------------- bad input

// An argument list that must be refused. In args and files, @MOCK@ stands for the mock engine
// and @DIR@ for the test's directory.
struct BadInput {
  std::string name;
  Args args;
  std::vector<std::pair<std::string, std::string>> files;  // written to @DIR@ first
  std::string expected;                                    // part of the message
};

std::ostream& operator<<(std::ostream& out, const BadInput& input) {
  return out << input.name;
}

std::string substitute(std::string text, const TempDir& dir) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"@MOCK@", kMock},
                                 std::pair<std::string, std::string>{"@DIR@", dir.path()}}) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at))
      text.replace(at, from.size(), to);
  }
  return text;
}

Args with_two_engines(const Args& more) {
  Args args = {"--engine", "name=a", "cmd=@MOCK@", "--engine", "name=b", "cmd=@MOCK@"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

const std::vector<BadInput> kBadInputs = {
    {"unknown option", {"--bogus"}, {}, "unrecognised option '--bogus'"},
    // --tb: the endgame tables are checked before any engine starts.
    {"--tb without a folder", with_two_engines({"--tb", ""}), {}, "--tb needs the folder"},
    {"--tb a missing folder",
     with_two_engines({"--tb", "@DIR@/none"}),
     {},
     "--tb @DIR@/none: no such folder"},
    {"--tb a file",
     with_two_engines({"--tb", "@DIR@/book.txt"}),
     {{"book.txt", "startpos\n"}},
     "--tb @DIR@/book.txt: not a folder"},
    {"--tb a folder without tables",
     with_two_engines({"--tb", "@DIR@"}),
     {},
     "--tb @DIR@: no valid endgame table in the folder (no layer file quixo-b0.qtb, ...; "
     "quixo-tb generate makes them)"},
    {"--tb a corrupt layer file",
     with_two_engines({"--tb", "@DIR@"}),
     {{"quixo-b0.qtb", "not a table\n"}},
     "--tb @DIR@: no valid endgame table in the folder (refused: @DIR@/quixo-b0.qtb: "},
    {"option without its value", with_two_engines({"--rounds"}), {}, "'--rounds' is missing"},
    {"bad --tc", with_two_engines({"--tc", "banana"}), {}, "invalid time control 'banana'"},
    {"unknown format",
     with_two_engines({"--tournament", "swiss"}),
     {},
     "--tournament: expected round-robin, match, gauntlet or knockout, not \"swiss\""},
    {"knockout with an SPRT",
     with_two_engines({"--tournament", "knockout", "--sprt", "elo0=0 elo1=10"}),
     {},
     "a knockout has no SPRT"},
    {"--tc inf", with_two_engines({"--tc", "inf"}), {}, "has no limit"},
    {"bad engine tc",
     {"--engine", "name=a", "cmd=@MOCK@", "tc=1+x", "--engine", "name=b", "cmd=@MOCK@"},
     {},
     "invalid time control '1+x'"},
    {"unknown engine key",
     {"--engine", "name=a", "cmd=@MOCK@", "colour=red", "--engine", "name=b", "cmd=@MOCK@"},
     {},
     "unknown engine key \"colour\""},
    {"engine without cmd",
     {"--engine", "name=a", "--engine", "name=b", "cmd=@MOCK@"},
     {},
     "engine \"a\" has no command"},
    {"one engine", {"--engine", "name=a", "cmd=@MOCK@"}, {}, "at least two engines"},
    {"no engine", {"--rounds", "2"}, {}, "at least two engines"},
    {"duplicate engine names",
     {"--engine", "name=a", "cmd=@MOCK@", "--engine", "name=a", "cmd=@MOCK@"},
     {},
     "two engines are named \"a\""},
    {"nonexistent engine binary",
     {"--engine", "name=a", "cmd=@DIR@/no-such-engine", "--engine", "name=b", "cmd=@MOCK@"},
     {},
     "@DIR@/no-such-engine"},
    {"engine that exits at once",
     {"--engine", "name=a", "cmd=@MOCK@", "args=--mode crash-on-start", "--engine", "name=b",
      "cmd=@MOCK@"},
     {},
     "engine \"a\""},
    {"engine without handshake",
     {"--engine", "name=b", "cmd=@MOCK@", "--engine", "name=silent", "cmd=@MOCK@",
      "args=--mode no-handshake", "--stall-timeout", "300"},
     {},
     "engine \"silent\": no uqiok within 300 ms"},
    {"unknown --sprt key",
     with_two_engines({"--sprt", "elo0=0", "elo1=10", "colour=red"}),
     {},
     "--sprt: unknown key or value \"colour=red\""},
    {"unknown --sprt model",
     with_two_engines({"--sprt", "elo0=0", "elo1=10", "model=foo"}),
     {},
     "--sprt: model must be normalized or logistic, not \"foo\""},
    {"--sprt elo0 above elo1",
     with_two_engines({"--sprt", "elo0=10", "elo1=0"}),
     {},
     "elo0 must be below elo1"},
    // from_chars reads "nan" as a number; a NaN bound would make every LLR comparison false.
    {"--sprt bound that is not a number",
     with_two_engines({"--sprt", "elo0=nan", "elo1=10"}),
     {},
     "bad value \"nan\" for sprt elo0"},
    {"--resign score that is not a whole number",
     with_two_engines({"--resign", "movecount=3", "score=4.5"}),
     {},
     "bad value \"4.5\" for resign score"},
    {"--sprt with three engines",
     with_two_engines({"--engine", "name=c", "cmd=@MOCK@", "--sprt", "elo0=0", "elo1=5"}),
     {},
     "an SPRT needs two engines (the first is the one tested), or a gauntlet with one seed"},
    {"missing config file", {"--config", "@DIR@/missing.conf"}, {}, "@DIR@/missing.conf"},
    // A directory read as an empty config (its options silently missing), a device for ever.
    {"config file that is a directory", {"--config", "@DIR@"}, {}, "is a directory, not a file"},
    {"config file that is a device", {"--config", "/dev/zero"}, {}, "is not a regular file"},
    {"config file over the size bound",
     {"--config", "@DIR@/big.conf"},
     {{"big.conf", std::string((quixo::kConfigFileMaxMebibytes << 20) + 1, '#')}},
     "is larger than 1 MiB"},
    {"unknown key in the config file",
     {"--config", "@DIR@/bad.conf"},
     {{"bad.conf", "rounds = 2\ncolour = red\n"}},
     "unrecognised option 'colour'"},
    // Found by fuzz_arena_config: Boost.Program_options' own message put an argument that holds
    // its own placeholder into itself for ever (the arena hung, its memory growing).
    {"placeholder in a value",
     {"--rounds", "%value%"},
     {},
     "the argument ('%value%') for option '--rounds' is invalid"},
    {"placeholder in an option", {"--x%original_token%"}, {}, "option '--x%original_token%'"},
    {"placeholder in a config file line",
     {"--config", "@DIR@/bad.conf"},
     {{"bad.conf", "%invalid_line%\n"}},
     "invalid line '%invalid_line%'"},
    {"illegal move in the openings",
     with_two_engines({"--openings", "@DIR@/book.txt"}),
     {{"book.txt", "startpos\nstartpos moves a1e1 c3c1\n"}},
     "@DIR@/book.txt:2:"},
    {"missing openings file",
     with_two_engines({"--openings", "@DIR@/none.txt"}),
     {},
     "@DIR@/none.txt"},
    {"--resume without --results",
     with_two_engines({"--resume"}),
     {},
     "--resume needs the results file"},
    {"gauntlet without opponents",
     with_two_engines({"--tournament", "gauntlet", "--seeds", "2"}),
     {},
     "a gauntlet needs"},
    {"zero rounds", with_two_engines({"--rounds", "0"}), {}, "rounds must be at least 1"},
    // An unsigned option read "-1" as its largest value, and the run started far into the book.
    {"negative --openings-offset",
     with_two_engines({"--openings-offset", "-1"}),
     {},
     "the argument ('-1') for option '--openings-offset' is invalid"},
    {"signed --openings-seed",
     with_two_engines({"--openings-seed", "+3"}),
     {},
     "the argument ('+3') for option '--openings-seed' is invalid"},
    {"PGN in a missing directory",
     with_two_engines({"--pgn", "@DIR@/none/games.pgn"}),
     {},
     "@DIR@/none/games.pgn"},
    {"results in a missing directory",
     with_two_engines({"--results", "@DIR@/none/r.json"}),
     {},
     "@DIR@/none/r.json"},
    {"--resume from a file that is not JSON",
     with_two_engines({"--results", "@DIR@/r.json", "--resume"}),
     {{"r.json", "{\"format\": \"quixo-arena results\", \"games\": [\n"}},
     "@DIR@/r.json is not valid JSON"},
    {"--resume from another program's JSON",
     with_two_engines({"--results", "@DIR@/r.json", "--resume"}),
     {{"r.json", "{\"format\": \"something else\"}\n"}},
     "@DIR@/r.json is not a quixo-arena results file"},
    {"unknown --variant",
     with_two_engines({"--variant", "3p"}),
     {},
     "--variant: expected 2p or 4p"},
    {"unknown --seating",
     with_two_engines({"--variant", "4p", "--seating", "conferring"}),
     {},
     "--seating: expected per-seat or per-team, not \"conferring\""},
    {"two-player book for the four-player game",
     with_two_engines({"--variant", "4p", "--openings", "@DIR@/book.txt"}),
     {{"book.txt", "startpos4\nstartpos moves a1e1\n"}},
     "opening 2 of @DIR@/book.txt (5/5/5/5/5 x moves a1e1) is a two-player position"},
    {"four-player book for the two-player game",
     with_two_engines({"--openings", "@DIR@/book.txt"}),
     {{"book.txt", "startpos4 moves b1b5X\n"}},
     "is a four-player position, but the tournament plays the two-player game (use --variant 4p)"},
    {"illegal four-player move in the openings",
     with_two_engines({"--variant", "4p", "--openings", "@DIR@/book.txt"}),
     {{"book.txt", "startpos4 moves b1b5x b5b1o\n"}},
     "@DIR@/book.txt:1: move 2 'b5b1o'"},
    // Issue 9, defect 7: bounds the GSPRT cannot test, refused before the first game.
    {"--sprt bounds beyond the normalized model",
     with_two_engines({"--sprt", "elo0=300", "elo1=400"}),
     {},
     "SPRT: elo0=300 elo1=400 is beyond what the normalized model can test: its bounds must lie "
     "between -231.6 and 231.6 nElo"},
    {"--sprt bounds beyond the logistic model",
     with_two_engines({"--sprt", "elo0=0", "elo1=5000", "model=logistic"}),
     {},
     "its bounds must lie between -4000 and 4000 Elo"},
    // Issue 9, defect 9: a new tournament does not empty the user's files.
    {"an existing PGN without --overwrite",
     with_two_engines({"--pgn", "@DIR@/games.pgn"}),
     {{"games.pgn", "[Event \"mine\"]\n"}},
     "the PGN file @DIR@/games.pgn (15 bytes) already exists and a new tournament would replace "
     "it; give --overwrite"},
    {"an existing results file without --overwrite",
     with_two_engines({"--results", "@DIR@/r.json"}),
     {{"r.json", "{}\n"}},
     "the results file @DIR@/r.json (3 bytes) already exists"},
    // Issue 25, item 12: two outputs on one file (--pgn x --epd-out x left a PGN with 0 games),
    // by the same name, another spelling of it, or a file another writes beside itself.
    {"--pgn and --epd-out on one file",
     with_two_engines({"--pgn", "@DIR@/x", "--epd-out", "@DIR@/x"}),
     {},
     "--epd-out @DIR@/x is the same file as --pgn @DIR@/x; give each output a file of its own"},
    {"--results and --report-html on one file by two spellings",
     with_two_engines({"--results", "@DIR@/r.json", "--report-html", "@DIR@/./r.json"}),
     {},
     "--report-html @DIR@/./r.json is the same file as --results @DIR@/r.json"},
    {"--log on the results file's journal",
     with_two_engines({"--results", "@DIR@/r.json", "--log", "@DIR@/r.json.journal"}),
     {},
     "--log @DIR@/r.json.journal is the same file as @DIR@/r.json.journal (which --results "
     "@DIR@/r.json writes beside it)"},
    {"an engine's stderr on the PGN",
     {"--engine", "name=a", "cmd=@MOCK@", "stderr=@DIR@/g.pgn", "--engine", "name=b", "cmd=@MOCK@",
      "--pgn", "@DIR@/g.pgn"},
     {},
     "engine \"a\"'s stderr=@DIR@/g.pgn is the same file as --pgn @DIR@/g.pgn"},
    {"a folder as --epd-out",
     with_two_engines({"--pgn", "@DIR@/g.pgn", "--epd-out", "@DIR@"}),
     {},
     "--epd-out @DIR@ is a folder, not a regular file"},
    // Issue 25, item 11: the engines file and the results files read are regular files within
    // a bound.
    {"an engines file that is a folder",
     {"--engines-file", "@DIR@", "--engine", "conf=a", "--engine", "conf=b"},
     {},
     "--engines-file @DIR@ is a directory, not a file"},
    {"an engines file over the size bound",
     {"--engines-file", "@DIR@/e.json", "--engine", "conf=a", "--engine", "conf=b"},
     {{"e.json", std::string((arena::kEnginesFileMaxMebibytes << 20) + 1, ' ')}},
     "--engines-file @DIR@/e.json is larger than 1 MiB"},
    {"merge into one of its shards",
     {"merge", "--results", "@DIR@/s.json", "@DIR@/s.json"},
     {},
     "--results @DIR@/s.json is the same file as @DIR@/s.json, which this run reads"},
    {"merge of a folder",
     {"merge", "--results", "@DIR@/m.json", "@DIR@"},
     {},
     "results file @DIR@ is a directory, not a file"},
    // Shards.
    {"a shard beyond N", with_two_engines({"--shard", "5/4"}), {}, "--shard: expected I/N"},
    {"--shared-dir without --shard",
     with_two_engines({"--shared-dir", "@DIR@"}),
     {},
     "--shared-dir is where shards meet: it needs --shard"},
    {"a missing --shared-dir",
     with_two_engines({"--shard", "1/2", "--shared-dir", "@DIR@/none"}),
     {},
     "--shared-dir @DIR@/none: no such folder"},
    // Issue 25, items 6 and 10: runs and chunks.
    {"a chunk beyond N", with_two_engines({"--chunk", "5/4"}), {}, "--chunk: expected I/N"},
    {"--shard and --chunk",
     with_two_engines({"--shard", "1/2", "--chunk", "1/8"}),
     {},
     "--shard and --chunk are two ways to split a tournament: give one"},
    {"--shared-dir without --run-id",
     with_two_engines({"--chunk", "1/8", "--shared-dir", "@DIR@"}),
     {},
     "--shared-dir needs --run-id ID, the same for every piece of this run"},
    {"a --run-id that cannot name a file",
     with_two_engines({"--run-id", "a/b"}),
     {},
     "--run-id \"a/b\": at most 64 letters, digits, '-', '_' and '.'"},
    {"merge without --results", {"merge", "@DIR@/r.json"}, {}, "merge needs --results"},
    {"merge without shards", {"merge", "--results", "@DIR@/m.json"}, {}, "the shards' results"},
    {"merge of a missing file",
     {"merge", "--results", "@DIR@/m.json", "@DIR@/none.json"},
     {},
     "cannot read results file @DIR@/none.json"},
    // Engine keys and options of the fastchess and cutechess users.
    {"a negative timemargin",
     with_two_engines({"--each", "timemargin=-5"}),
     {},
     "timemargin must be milliseconds >= 0, not \"-5\""},
    {"restart neither on nor off",
     with_two_engines({"--each", "restart=sometimes"}),
     {},
     "restart must be on or off, not \"sometimes\""},
    {"a negative --wait", with_two_engines({"--wait", "-1"}), {}, "--wait cannot be negative"},
    {"--debug without --log", with_two_engines({"--debug"}), {}, "--debug writes to the log"},
    {"an unknown book format",
     with_two_engines({"--openings", "file=@DIR@/b.txt", "format=bin"}),
     {},
     "--openings format: expected text, epd or pgn, not \"bin\""},
    {"plies for a book that is not PGN",
     with_two_engines({"--openings", "file=@DIR@/b.txt", "plies=4"}),
     {},
     "--openings plies= cuts the games of a PGN book (format=pgn)"},
    {"an unknown book policy",
     with_two_engines({"--openings", "file=@DIR@/b.txt", "policy=pair"}),
     {},
     "--openings policy: expected round or encounter, not \"pair\""},
    {"a bad EPD book",
     with_two_engines({"--openings", "file=@DIR@/b.epd", "format=epd"}),
     {{"b.epd", "5/5/5/5/5 x ; fine\n5/5 x ; not fine\n"}},
     "@DIR@/b.epd:2: "},
    // Engines files and conf=NAME.
    {"conf without an engines file",
     {"--engine", "conf=a", "--engine", "conf=b"},
     {},
     "conf=a needs an engines file (--engines-file)"},
    {"conf of no engine in the file",
     {"--engines-file", "@DIR@/e.json", "--engine", "conf=a", "--engine", "conf=c"},
     {{"e.json", "[{\"name\": \"a\", \"command\": \"@MOCK@\"}]"}},
     "conf=c: the engines file has no engine named \"c\""},
    {"an engines file that is not JSON",
     {"--engines-file", "@DIR@/e.json", "--engine", "conf=a"},
     {{"e.json", "[{\"name\": \"a\","}},
     "--engines-file @DIR@/e.json is not valid JSON"},
    {"an engine twice in the engines file",
     {"--engines-file", "@DIR@/e.json", "--engine", "conf=a"},
     {{"e.json", "[{\"name\": \"a\", \"cmd\": \"x\"}, {\"name\": \"a\", \"cmd\": \"y\"}]"}},
     "two engines are named \"a\""},
    {"an unknown key in the engines file",
     {"--engines-file", "@DIR@/e.json", "--engine", "conf=a"},
     {{"e.json", "[{\"name\": \"a\", \"cmd\": \"x\", \"pondr\": true}]"}},
     "engine 1 (a): unknown key \"pondr\""},
    // Issue 25, item 2: every option.NAME=VALUE is checked against the options the engine
    // declares (the normal mock declares Hash, a spin from 1 to 16; the options mode more).
    {"an option the engine does not declare",
     with_two_engines({"--each", "option.NoSuchOption=1"}),
     {},
     "engine \"a\": option.NoSuchOption=1: the engine declares no option NoSuchOption (it "
     "declares Hash) (--allow-unknown-options sends it anyway)"},
    {"a spin option's value that is no number",
     with_two_engines({"--each", "option.Hash=abc"}),
     {},
     "engine \"a\": option.Hash=abc: Hash is a spin option, which takes a whole number from 1 to "
     "16"},
    {"a spin option's value above its max",
     with_two_engines({"--engine", "name=c", "cmd=@MOCK@", "option.hash=17"}),
     {},
     "engine \"c\": option.hash=17: Hash is a spin option, which takes a whole number from 1 to "
     "16"},
    {"a check option's value that is not true or false",
     with_two_engines({"--each", "args=--mode options", "option.Ponder=off"}),
     {},
     "engine \"a\": option.Ponder=off: Ponder is a check option, which takes true or false"},
    {"a combo option's value that is not one of its vars",
     with_two_engines({"--each", "args=--mode options", "option.Style=wild"}),
     {},
     "engine \"a\": option.Style=wild: Style is a combo option, which takes one of solid, sharp"},
    {"--anchor without an Elo",
     with_two_engines({"--anchor", "a"}),
     {},
     "--anchor: expected NAME=ELO"},
    {"--anchor of no engine",
     with_two_engines({"--anchor", "c=2000"}),
     {},
     "--anchor names \"c\", which is not an engine of the tournament"},
    {"a log that cannot be written",
     with_two_engines({"--log", "@DIR@/none/log.txt"}),
     {},
     "--log: cannot write @DIR@/none/log.txt"},
};

}  // namespace

// ----------------------------------------------------------------------- help and bad input

BOOST_DATA_TEST_CASE(help_lists_every_option_group, bdata::make(Args{"--help", "-h"}), flag) {
  TempDir dir;
  const ArenaRun run = run_arena({flag}, dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  BOOST_TEST(run.err.empty(), run);
  const Args headings = {
      "Usage: quixo-arena", "Exit codes:", "Engines:", "Tournament:", "Openings:", "Output:"};
  const Args options = {"--engine",    "--each",          "--tc",     "--rounds",   "--concurrency",
                        "--max-plies", "--stall-timeout", "--sprt",   "--openings", "--pgn",
                        "--results",   "--resume",        "--config", "--tb"};
  for (const std::string& part : join({headings, options}))
    BOOST_TEST(contains(run.out, part), "--help does not mention " << part);
  // Books are made by quixo-openings (tools/): the arena, which links no search, offers no
  // generator.
  BOOST_TEST(!contains(run.out, "generate"), run);
  // Each group's heading once, and no empty group: no heading without options under it and no
  // run of blank lines where one was left out.
  std::vector<std::string> lines;
  std::istringstream stream(run.out);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  for (const std::string heading : {"Engines:", "Tournament:", "Openings:", "Output:"})
    BOOST_TEST(std::count(lines.begin(), lines.end(), heading) == 1, heading);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    BOOST_TEST(lines[i].size() <= 100u, "help line longer than 100 columns: " << lines[i]);
    if (i + 1 == lines.size()) continue;
    const bool heading = !lines[i].empty() && lines[i].back() == ':' && lines[i][0] != ' ';
    BOOST_TEST(!(heading && lines[i + 1].empty()), "empty group " << lines[i] << "\n" << run.out);
    BOOST_TEST(!(lines[i].empty() && lines[i + 1].empty()), "two blank lines after line "
                                                                << i << "\n"
                                                                << run.out);
  }
}

BOOST_DATA_TEST_CASE(bad_input_exits_2_with_one_line_on_stderr, bdata::make(kBadInputs), input) {
  TempDir dir;
  for (const auto& [name, content] : input.files)
    write_text(dir.file(name), substitute(content, dir));
  Args args;
  for (const std::string& arg : input.args) args.push_back(substitute(arg, dir));
  const ArenaRun run = run_arena(args, dir);
  BOOST_TEST(run.code() == 2, run);  // not a signal (128 + n), not another code
  BOOST_TEST(run.err.starts_with("quixo-arena: "), run);
  BOOST_TEST(std::count(run.err.begin(), run.err.end(), '\n') == 1, run);
  BOOST_TEST(run.err.ends_with("\n"), run);
  BOOST_TEST(contains(run.err, substitute(input.expected, dir)), run);
  BOOST_TEST(run.out.empty(), run);  // nothing started, nothing to report
  BOOST_TEST(run.seconds < 10.0, run);
}

// --------------------------------------------------------------------- the real engine

BOOST_AUTO_TEST_CASE(real_engines_play_a_match_at_fixed_nodes) {
  TempDir dir;
  // The repository's book when there is one (tests/ is next to configs/), else one the arena's
  // opening generator makes, which checks the generator on the way.
  std::string book = (fs::path(QUIXO_SOURCE_DIR) / "configs" / "openings.txt").string();
  if (!fs::exists(book)) {
    book = dir.file("book.txt");
    const ArenaRun made =
        run_openings_tool({"--output", book, "--count", "6", "--depth", "2"}, dir);
    BOOST_TEST_REQUIRE(made.code() == 0, made);
    BOOST_TEST_REQUIRE(contains(made.out, "Wrote 6 openings"), made);
  }
  const std::string pgn = dir.file("games.pgn");
  const std::string results = dir.file("results.json");
  const Args args =
      join({{"--engine", "name=full", "cmd=" + kEngine},
            {"--engine", "name=no-killers", "cmd=" + kEngine, "option.KillersAndHistory=false"},
            {"--each", "tc=nodes=3000", "option.Hash=8"},
            {"--rounds", "3", "--concurrency", "2", "--max-plies", "150"},
            {"--openings", book, "--pgn", pgn, "--results", results}});
  const ArenaRun run = run_arena(args, dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  BOOST_TEST(run.err.empty(), run);
  BOOST_TEST(contains(run.out, "Elo:"), run);
  BOOST_TEST(contains(run.out, "Ptnml(0-2):"), run);
  // fastchess's lines (the default style): the last rating block counts all 6 games.
  BOOST_TEST(contains(run.out, "Games: 6, Wins: "), run);
  BOOST_TEST(contains(run.out, "\nFinished match\n"), run);

  const json::object file = load_results(results);
  BOOST_TEST(text(file, "status") == "completed");
  BOOST_TEST(integer(file.at("standings"), "total_games") == 6);
  check_standings_add_up(file, 6);
  check_every_game_recorded(file, 6);
  for (const std::string name : {"full", "no-killers"}) {
    const json::value& tally = tally_of(file, name);
    for (const std::string_view counter :
         {"crashes", "time_forfeits", "illegal_moves", "stalls", "restarts"})
      BOOST_TEST(integer(tally, counter) == 0, name << " " << counter);
  }
  // Games 2k and 2k+1 are a pair: one opening, colours swapped.
  std::map<std::int64_t, const json::value*> by_id;
  for (const json::value& game : games_of(file)) by_id[integer(game, "id")] = &game;
  for (std::int64_t id = 0; id < 6; id += 2) {
    const json::value& first = *by_id.at(id);
    const json::value& second = *by_id.at(id + 1);
    BOOST_TEST(text(first, "opening") == text(second, "opening"));
    BOOST_TEST(text(first, "x") == text(second, "o"));
    BOOST_TEST(text(first, "o") == text(second, "x"));
  }

  const std::vector<arena::GameRecord> games = load_pgn(pgn);
  BOOST_TEST(games.size() == 6u);
  check_pgn_matches_results(games, file);
  for (const arena::GameRecord& game : games) {
    BOOST_TEST(game.time_control == "nodes=3000");
    // The real engine reports a depth and a score with every move, and the PGN keeps them.
    for (const arena::MoveRecord& move : game.moves) {
      BOOST_TEST(move.depth.has_value(), "round " << game.round << " " << move.move);
      BOOST_TEST((move.score_cp.has_value() || move.score_mate.has_value()),
                 "round " << game.round << " " << move.move);
    }
  }
}

// What fastchess and cutechess users reach for: `--pgn FILE min` (the short form: no comments,
// no clock tags), the game times in the full form, restart=on, timemargin=MS and --wait.
BOOST_AUTO_TEST_CASE(short_pgn_restarts_margins_and_waits) {
  TempDir dir;
  const Args common = {
      "--engine",    "name=a",    "cmd=" + kMock, "args=--mode normal --random-seed 1",
      "--engine",    "name=b",    "cmd=" + kMock, "args=--mode normal --random-seed 2",
      "--each",      "tc=1+0.01", "restart=on",   "timemargin=20",
      "--rounds",    "2",         "--wait",       "20",
      "--max-plies", "30"};
  const ArenaRun short_run = run_arena(
      join({common, {"--pgn", dir.file("short.pgn"), "min", "--results", dir.file("s.json")}}),
      dir);
  BOOST_TEST_REQUIRE(short_run.code() == 0, short_run);
  const std::string short_text = read_text(dir.file("short.pgn"));
  BOOST_TEST(!contains(short_text, "{"));
  BOOST_TEST(!contains(short_text, "[GameStartTime"));
  BOOST_TEST(!contains(short_text, "[TimeControl"));
  const std::vector<arena::GameRecord> short_games = load_pgn(dir.file("short.pgn"));
  BOOST_TEST(short_games.size() == 4u);
  const json::object file = load_results(dir.file("s.json"));
  check_every_game_recorded(file, 4);
  // restart=on starts each engine for every game, which is not a restart after a failure; the
  // margin is the engine's own, in its time control.
  for (const std::string name : {"a", "b"})
    BOOST_TEST(integer(tally_of(file, name), "restarts") == 0);
  BOOST_TEST(contains(json::serialize(file.at("tournament")), "\"timemargin\":20"),
             json::serialize(file.at("tournament")));

  const ArenaRun full_run = run_arena(
      join({common, {"--pgn", dir.file("full.pgn"), "--epd-out", dir.file("final.epd")}}), dir);
  BOOST_TEST_REQUIRE(full_run.code() == 0, full_run);
  const std::string full_text = read_text(dir.file("full.pgn"));
  for (const char* tag : {"[GameStartTime \"", "[GameEndTime \"", "[GameDuration \"00:00:"})
    BOOST_TEST(contains(full_text, tag), tag);
  const std::vector<arena::GameRecord> full_games = load_pgn(dir.file("full.pgn"));
  for (const arena::GameRecord& game : full_games) {
    BOOST_TEST(game.start_time.ends_with(" +0000"));
    BOOST_TEST(game.start_time <= game.end_time);
  }
  // --epd-out: each game's final position, its result and number, in the PGN's order.
  std::istringstream epd(read_text(dir.file("final.epd")));
  std::size_t index = 0;
  for (std::string line; std::getline(epd, line); ++index) {
    BOOST_REQUIRE(index < full_games.size());
    const arena::GameRecord& game = full_games[index];
    quixo::Game position = quixo::Game::parse(game.start_position);
    for (const arena::MoveRecord& move : game.moves) position.play(move.move);
    BOOST_TEST(line == position.text() + " ; result \"" +
                           std::string(arena::result_text(game.result)) + "\" ; game " +
                           game.round + " ; termination \"" +
                           std::string(arena::termination_name(game.termination)) + "\"");
  }
  BOOST_TEST(index == 4u);

  // Both files serve as books: the PGN's games cut to 4 plies, the final positions as EPD.
  for (const Args& book :
       {Args{"file=" + dir.file("full.pgn"), "format=pgn", "plies=4", "policy=encounter"},
        Args{"file=" + dir.file("final.epd"), "format=epd", "order=random"}}) {
    const ArenaRun from_book =
        run_arena(join({{"--engine", "name=a", "cmd=" + kMock, "--engine", "name=b", "cmd=" + kMock,
                         "--each", "tc=nodes=10", "--max-plies", "30", "--results",
                         dir.file("book-" + std::to_string(book.size()) + ".json"), "--openings"},
                        book}),
                  dir);
    BOOST_TEST_REQUIRE(from_book.code() == 0, from_book);
    const json::object book_file =
        load_results(dir.file("book-" + std::to_string(book.size()) + ".json"));
    BOOST_TEST(integer(book_file.at("tournament").at("openings"), "count") == 4);
    if (book.size() == 4)
      for (const json::value& game : games_of(book_file))
        BOOST_TEST(contains(text(game, "opening"), " moves "), text(game, "opening"));
  }
}

// --engines-file with cutechess's names and ours, and conf=NAME with keys after it that win.
BOOST_AUTO_TEST_CASE(engines_come_from_an_engines_file_by_name) {
  TempDir dir;
  write_text(dir.file("engines.json"),
             substitute("[{\"name\": \"strong\", \"command\": \"@MOCK@\", \"args\": [\"--mode\", "
                        "\"normal\"], \"options\": [{\"name\": \"Hash\", \"value\": 8}]},\n"
                        " {\"name\": \"weak\", \"cmd\": \"@MOCK@\", \"args\": \"--mode illegal\", "
                        "\"options\": {\"Hash\": 4}, \"tc\": \"nodes=20\"}]\n",
                        dir));
  const ArenaRun run = run_arena({"--engines-file", dir.file("engines.json"), "--engine",
                                  "conf=strong", "--engine", "conf=weak", "name=weaker", "--each",
                                  "tc=nodes=10", "--rounds", "1", "--results", dir.file("r.json")},
                                 dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const json::object file = load_results(dir.file("r.json"));
  const std::string description = json::serialize(file.at("tournament"));
  BOOST_TEST(contains(description, "\"name\":\"strong\""), description);
  BOOST_TEST(contains(description, "\"name\":\"weaker\""), description);
  BOOST_TEST(contains(description, "[\"Hash\",\"8\"]"), description);
  BOOST_TEST(contains(description, "[\"Hash\",\"4\"]"), description);
  // The entry's own tc wins over --each, which comes before it.
  BOOST_TEST(contains(description, "\"time_control\":\"nodes=20\""), description);
  BOOST_TEST(integer(tally_of(file, "weaker"), "illegal_moves") == 2);
}

// Issue 25, item 1: a JSON boolean in an engines file is an option's value as a check option
// takes it, `false`, not `off` (which the engine refused while the run went on).
BOOST_AUTO_TEST_CASE(a_json_boolean_option_is_sent_as_true_or_false) {
  TempDir dir;
  write_text(dir.file("engines.json"),
             substitute("[{\"name\": \"a\", \"cmd\": \"@MOCK@\", \"args\": \"--mode options\", "
                        "\"options\": {\"Ponder\": false}},\n"
                        " {\"name\": \"b\", \"cmd\": \"@MOCK@\", \"args\": \"--mode options\", "
                        "\"options\": [{\"name\": \"Ponder\", \"value\": true}]}]\n",
                        dir));
  const ArenaRun run =
      run_arena({"--engines-file", dir.file("engines.json"), "--engine", "conf=a",
                 "stderr=" + dir.file("a.err"), "--engine", "conf=b", "stderr=" + dir.file("b.err"),
                 "--each", "tc=nodes=10", "--rounds", "1", "--results", dir.file("r.json")},
                dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const std::string description =
      json::serialize(load_results(dir.file("r.json")).at("tournament"));
  BOOST_TEST(contains(description, "[\"Ponder\",\"false\"]"), description);
  BOOST_TEST(contains(description, "[\"Ponder\",\"true\"]"), description);
  BOOST_TEST(contains(read_text(dir.file("a.err")), "quixo-mock-engine: set Ponder=false\n"));
  BOOST_TEST(contains(read_text(dir.file("b.err")), "quixo-mock-engine: set Ponder=true\n"));
  BOOST_TEST(!contains(run.out + run.err, "Warning"), run);
}

// Issue 25, item 3: an engines.json as cutechess writes it: its command a command line with
// arguments, every key it writes, options with their declarations, a button among them (not
// pressed), "" for no folder and no stderr file. The keys that mean nothing here are named once.
BOOST_AUTO_TEST_CASE(a_cutechess_engines_file_is_read_as_cutechess_writes_it) {
  TempDir dir;
  write_text(dir.file("engines.json"), substitute(R"([
    {
        "command": "@MOCK@ --mode options",
        "initStrings": [
            "setoption name Threads value 2"
        ],
        "name": "mock-a",
        "options": [
            {"alias": "", "default": 16, "max": 64, "min": 1, "name": "Hash", "type": "spin",
             "value": 32},
            {"alias": "", "default": false, "name": "Ponder", "type": "check", "value": false},
            {"alias": "", "choices": ["solid", "sharp"], "default": "solid", "name": "Style",
             "type": "combo", "value": "sharp"},
            {"alias": "", "name": "Clear Hash", "type": "button"}
        ],
        "ponder": true,
        "protocol": "uqi",
        "restart": "auto",
        "stderrFile": "",
        "timeoutScaleFactor": 1,
        "validateClaims": false,
        "variants": ["standard"],
        "whitepov": true,
        "workingDirectory": ""
    },
    {
        "command": "@MOCK@ --mode options",
        "name": "mock-b",
        "protocol": "uqi",
        "stderrFile": "",
        "timeoutScaleFactor": 1.5,
        "workingDirectory": ""
    }
]
)",
                                                  dir));
  const ArenaRun run =
      run_arena({"--engines-file", dir.file("engines.json"), "--engine", "conf=mock-a",
                 "stderr=" + dir.file("a.err"), "--engine", "conf=mock-b", "--each", "tc=nodes=10",
                 "--rounds", "1", "--results", dir.file("r.json")},
                dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  // One warning, naming the keys that are ignored.
  BOOST_TEST(run.err == "quixo-arena: warning: --engines-file " + dir.file("engines.json") +
                            ": ignored ponder, timeoutScaleFactor, validateClaims, variants, "
                            "whitepov (cutechess keys that mean nothing here)\n",
             run);
  const std::string description =
      json::serialize(load_results(dir.file("r.json")).at("tournament"));
  BOOST_TEST(contains(description, "\"args\":[\"--mode\",\"options\"]"), description);
  BOOST_TEST(
      contains(description, "[[\"Hash\",\"32\"],[\"Ponder\",\"false\"],[\"Style\",\"sharp\"]]"),
      description);
  BOOST_TEST(!contains(description, "Clear Hash"), description);
  // The init string went to the engine, before the options.
  const std::string engine_err = read_text(dir.file("a.err"));
  BOOST_TEST(contains(engine_err, "set Threads=2\nquixo-mock-engine: set Hash=32\n"), engine_err);
}

// Issue 25, item 2: --allow-unknown-options sends an option the engine does not declare, with a
// warning, and what the engine answers to it (`info string error: ...`) is shown.
BOOST_AUTO_TEST_CASE(allow_unknown_options_sends_them_and_shows_the_engines_answer) {
  TempDir dir;
  const ArenaRun run = run_arena(join({mock("a", "--mode options", {"option.NoSuchOption=1"}),
                                       mock("b", "--mode options"),
                                       {"--each", "tc=nodes=10", "--rounds", "1",
                                        "--allow-unknown-options", "--output", "cutechess"}}),
                                 dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  BOOST_TEST(contains(run.err,
                      "Warning: engine \"a\": option.NoSuchOption=1: the engine declares no option "
                      "NoSuchOption (it declares Threads, Hash, Ponder, Style, Book, Clear Hash); "
                      "sent anyway (--allow-unknown-options)\n"),
             run);
  BOOST_TEST(contains(run.err,
                      "Warning: engine \"a\" answered its options: error: no such option "
                      "'NoSuchOption'\n"),
             run);
  BOOST_TEST(!contains(run.err, "engine \"b\""), run);
}

// Issue 25, items 17 and 9: the fastchess report's threads and hash are the engines' declared
// defaults when no option sets them (the options mock declares Threads 1 and Hash 16), and a
// merge of shards prints what the single run prints.
BOOST_AUTO_TEST_CASE(fastchess_threads_and_hash_come_from_the_engines_and_survive_a_merge) {
  TempDir dir;
  const Args engines = join({mock("a", "--mode options --random-seed 3"),
                             mock("b", "--mode options --random-seed 5", {"option.Hash=32"}),
                             {"--each", "tc=nodes=10", "--rounds", "2", "--output", "fastchess"}});
  const ArenaRun single = run_arena(join({engines, {"--results", dir.file("single.json")}}), dir);
  BOOST_TEST_REQUIRE(single.code() == 0, single);
  BOOST_TEST(contains(single.out, "Results of a vs b (10 nodes, 1t, 16MB - 32MB):\n"), single);
  Args shards;
  for (const std::string shard : {"1/2", "2/2"}) {
    const ArenaRun run = run_arena(
        join({engines, {"--results", dir.file("r.json"), "--shard", shard, "--run-id", "one-run"}}),
        dir);
    BOOST_TEST_REQUIRE(run.code() == 0, run);
    shards.push_back(arena::shard_file_path(dir.file("r.json"), arena::parse_shard(shard)));
  }
  const ArenaRun merged = run_arena(
      join({{"merge", "--results", dir.file("merged.json"), "--output", "fastchess"}, shards}),
      dir);
  BOOST_TEST_REQUIRE(merged.code() == 0, merged);
  BOOST_TEST(contains(merged.out, "Results of a vs b (10 nodes, 1t, 16MB - 32MB):\n"), merged);
}

// --log FILE --debug: every line to and from each engine with its game, the engines' stderr
// beside it, and the arena's decisions.
BOOST_AUTO_TEST_CASE(the_log_has_every_engine_line_and_the_arenas_decisions) {
  TempDir dir;
  const std::string log = dir.file("arena.log");
  Args args;
  for (const std::string& arg :
       with_two_engines({"--each", "args=--mode normal", "tc=nodes=10", "--rounds", "1",
                         "--max-plies", "20", "--log", log, "--debug"}))
    args.push_back(substitute(arg, dir));
  const ArenaRun run = run_arena(args, dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const std::string text = read_text(log);
  for (const std::string part :
       {" game 0 a > uqi\n", " game 0 b < uqiok\n", " game 1 a > uqinewgame\n",
        " game 2 b < bestmove ", " game 1 a > go ", " arena: game 1 started: a (X) against b (O)",
        " arena: game 2 finished: ", " arena: tournament finished: completed after 2 games\n"})
    BOOST_TEST(contains(text, part), part);
  // The engines' stderr, one file each beside the log.
  BOOST_TEST(contains(read_text(log + ".a.stderr"), "quixo-mock-engine: mode normal"));
  BOOST_TEST(contains(read_text(log + ".b.stderr"), "quixo-mock-engine: mode normal"));
}

namespace {

// The rating blocks a report style prints over 12 games: interim ones and the final one.
struct IntervalCase {
  Args options;
  std::string block;  // the line that starts each block
  std::ptrdiff_t blocks;
};
std::ostream& operator<<(std::ostream& out, const IntervalCase& interval) {
  for (const std::string& option : interval.options) out << option << " ";
  return out;
}
const std::vector<IntervalCase> kIntervals = {
    // cutechess-cli's -ratinginterval is 0: only the final ranking.
    {{"--output", "cutechess"}, "Elo difference: ", 1},
    {{"--output", "cutechess", "--report-interval", "4"}, "Elo difference: ", 3},
    // fastchess's -ratinginterval is 10.
    {{"--output", "fastchess"}, "Results of a vs b ", 2},
    {{"--output", "fastchess", "--report-interval", "0"}, "Results of a vs b ", 1},
};

}  // namespace

// Issue 25, item 17: the cutechess style printed a ranking every 10 games, where cutechess-cli
// prints none unless -ratinginterval is given. Each style's default interval is its tool's.
BOOST_DATA_TEST_CASE(each_style_reports_at_its_tools_default_interval, bdata::make(kIntervals),
                     interval) {
  TempDir dir;
  const ArenaRun run = run_arena(join({two_normal_mocks(),
                                       {"--tc", "nodes=100", "--max-plies", "30", "--rounds", "6"},
                                       interval.options}),
                                 dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  std::ptrdiff_t blocks = 0;
  for (std::size_t at = run.out.find(interval.block); at != std::string::npos;
       at = run.out.find(interval.block, at + 1))
    ++blocks;
  BOOST_TEST(blocks == interval.blocks, run);
}

// ----------------------------------------------------------------- the endgame tables (--tb)

// `tb = DIR` in a config file, as --tb: games from a book one layer above the tables end when a
// move takes a blank cube, with the tables' result, in the report, the PGN and the results file;
// a --resume of the finished run keeps them.
BOOST_AUTO_TEST_CASE(the_tables_end_the_games_that_reach_them) {
  TempDir dir;
  quixo::test::require_test_tables();
  std::string book;
  for (const quixo::Position& position :
       quixo::test::positions_with_blanks(quixo::test::test_table_blanks() + 1))
    book += quixo::to_string(position) + "\n";
  write_text(dir.file("book.txt"), book);
  const std::string config = dir.file("arena.ini");
  write_text(config, "tb = " + quixo::test::test_tables_dir().string() + "\n");
  const std::string pgn = dir.file("games.pgn");
  const std::string results = dir.file("results.json");
  const Args args = join({{"--config", config},
                          two_normal_mocks(),
                          {"--tc", "nodes=100", "--rounds", "8", "--openings", dir.file("book.txt"),
                           "--pgn", pgn, "--results", results, "--output", "arena"}});
  const ArenaRun run = run_arena(args, dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  BOOST_TEST(run.err.empty(), run);
  BOOST_TEST(contains(run.out, "Tablebases: " + quixo::test::test_tables().describe() + " from " +
                                   quixo::test::test_tables_dir().string()),
             run);
  BOOST_TEST(contains(run.out, "{tablebase: "), run);

  const json::object file = load_results(results);
  check_every_game_recorded(file, 16);
  const std::vector<arena::GameRecord> games = load_pgn(pgn);
  check_pgn_matches_results(games, file);
  std::int64_t ended = 0;
  for (const arena::GameRecord& game : games) {
    if (game.termination != arena::Termination::Tablebase) continue;
    ++ended;
    quixo::Position position = quixo::parse_position(game.start_position);
    for (const arena::MoveRecord& move : game.moves)
      position = position.after(quixo::parse_move(position, move.move));
    const std::optional<quixo::tb::TbValue> value = quixo::test::test_tables().probe(position);
    BOOST_TEST_REQUIRE(value.has_value(), "round " << game.round);
    const bool x_to_move = position.side_to_move() == quixo::Color::X;
    const arena::GameResult expected = value->wdl == quixo::tb::Wdl::Draw ? arena::GameResult::Draw
                                       : (value->wdl == quixo::tb::Wdl::Win) == x_to_move
                                           ? arena::GameResult::XWins
                                           : arena::GameResult::OWins;
    BOOST_TEST(game.result == expected, "round " << game.round << ": " << game.reason);
  }
  BOOST_TEST(ended > 0);
  BOOST_TEST(integer(file.at("standings").at("terminations"), "tablebase") == ended);
  BOOST_TEST(contains(run.out, "tablebase " + std::to_string(ended)), run);

  // Resumed when finished: nothing to play, the games as they were.
  const ArenaRun resumed = run_arena(join({args, {"--resume"}}), dir);
  BOOST_TEST_REQUIRE(resumed.code() == 0, resumed);
  const json::object again = load_results(results);
  BOOST_TEST(json::serialize(again.at("games")) == json::serialize(file.at("games")));
  BOOST_TEST(load_pgn(pgn).size() == games.size());
}

// ------------------------------------------------------------------- misbehaving engines

BOOST_AUTO_TEST_CASE(misbehaving_engines_lose_their_games_and_the_gauntlet_goes_on) {
  TempDir dir;
  const std::string pgn = dir.file("games.pgn");
  const std::string results = dir.file("results.json");
  const ArenaRun run =
      run_arena(join({{"--tournament", "gauntlet", "--seeds", "1"},
                      mock("normal", "--mode normal --random-seed 7"),
                      mock("crash", "--mode crash-on-go --after 2"),
                      mock("stall", "--mode stall --after 1"),
                      mock("illegal", "--mode illegal --after 3"),
                      mock("malformed", "--mode malformed"),
                      mock("garbage", "--mode garbage --random-seed 5"),
                      mock("slow", "--mode slow-start --delay-ms 200"),
                      // A stall timeout well above the slow starter's 200 ms, so that a loaded
                      // machine (ctest -j) does not turn its start into a stall.
                      {"--tc", "nodes=100", "--stall-timeout", "1000", "--max-plies", "40",
                       "--rounds", "2", "--pgn", pgn, "--results", results}}),
                dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  BOOST_TEST(contains(run.out, "Started game 24 of 24 ("), run);
  BOOST_TEST(contains(run.out, "\nFinished match\n"), run);

  const json::object file = load_results(results);
  BOOST_TEST(text(file, "status") == "completed");
  check_every_game_recorded(file, 24);  // 6 opponents x 2 rounds x 2 colours
  check_standings_add_up(file, 24);
  check_pgn_matches_results(load_pgn(pgn), file);

  // How each engine's games must end. The faulty mocks misbehave before either side can make a
  // line (a crash on the 3rd move at the latest, an illegal move on the 4th), so every game of
  // theirs ends by their fault; the stalling and crashing ones run a fresh process each game.
  struct Expectation {
    std::string name;
    std::string termination;  // of every game it plays, which it loses; empty: none of the faults
    std::string counter;      // the standings counter that counts those games
    bool restarted;
  };
  const std::vector<Expectation> expectations = {
      {"normal", "", "", false},
      {"crash", "crash", "crashes", true},
      {"stall", "stall", "stalls", true},
      {"illegal", "illegal move", "illegal_moves", false},
      {"malformed", "illegal move", "illegal_moves", false},
      {"garbage", "", "", false},
      {"slow", "", "", false},
  };
  const std::set<std::string> faults = {"crash", "stall", "illegal move", "time forfeit"};
  for (const Expectation& expected : expectations) {
    BOOST_TEST_CONTEXT("engine " << expected.name) {
      const json::value& tally = tally_of(file, expected.name);
      const std::int64_t games = integer(tally, "games");
      BOOST_TEST(games == (expected.name == "normal" ? 24 : 4));
      for (const std::string_view counter : {"crashes", "stalls", "illegal_moves"})
        BOOST_TEST(integer(tally, counter) == (counter == expected.counter ? games : 0), counter);
      BOOST_TEST(integer(tally, "time_forfeits") == 0);  // no clock: nodes=100
      if (expected.restarted)
        // One game at a time, so every game after the first needs a fresh process.
        BOOST_TEST(integer(tally, "restarts") == games - 1);
      else if (expected.termination.empty())
        BOOST_TEST(integer(tally, "restarts") == 0);
      for (const json::value& game : games_of(file)) {
        const bool as_x = text(game, "x") == expected.name;
        if (!as_x && text(game, "o") != expected.name) continue;
        BOOST_TEST_CONTEXT("game " << integer(game, "id") + 1 << ": " << text(game, "reason")) {
          if (expected.termination.empty()) {
            // A game it lost did not end by its fault; one it won may end by the opponent's.
            const bool lost = text(game, "result") == (as_x ? "0-1" : "1-0");
            BOOST_TEST(!(lost && faults.contains(text(game, "termination"))));
          } else {
            BOOST_TEST(text(game, "termination") == expected.termination);
            BOOST_TEST(text(game, "result") == (as_x ? "0-1" : "1-0"));
          }
        }
      }
    }
  }
}

// Issue 9, defect 10: an engine that closes its stdout and lives on loses by a crash at once,
// not by a stall or a time loss after the deadline, also with two games at once (whose engines
// must not hold each other's pipes).
BOOST_AUTO_TEST_CASE(an_engine_that_closes_its_stdout_crashes_at_once_with_two_games_at_once) {
  TempDir dir;
  const std::string results = dir.file("results.json");
  const std::string pgn = dir.file("games.pgn");
  // A stall would cost 20 s a game: 8 of them, two at a time, 80 s.
  const ArenaRun run =
      run_arena(join({two_normal_mocks(),
                      mock("closer", "--mode close-stdout --after 1"),
                      {"--tc", "nodes=100", "--stall-timeout", "20000", "--max-plies", "40",
                       "--rounds", "2", "--concurrency", "2", "--pgn", pgn, "--results", results}}),
                dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  BOOST_TEST(run.seconds < 30.0, run);
  const json::object file = load_results(results);
  check_every_game_recorded(file, 12);
  check_standings_add_up(file, 12);
  check_pgn_matches_results(load_pgn(pgn), file);
  const json::value& closer = tally_of(file, "closer");
  BOOST_TEST(integer(closer, "games") == 8);
  BOOST_TEST(integer(closer, "crashes") == 8);
  BOOST_TEST(integer(closer, "stalls") == 0);
  BOOST_TEST(integer(closer, "time_forfeits") == 0);
  for (const json::value& game : games_of(file)) {
    const bool as_x = text(game, "x") == "closer";
    if (!as_x && text(game, "o") != "closer") continue;
    BOOST_TEST_CONTEXT("game " << integer(game, "id") + 1 << ": " << text(game, "reason")) {
      BOOST_TEST(text(game, "termination") == "crash");
      BOOST_TEST(text(game, "result") == (as_x ? "0-1" : "1-0"));
      BOOST_TEST(contains(text(game, "reason"), "closed its output during its search"));
    }
  }
}

// Issue 9, defect 14: the engine as one quoted string of key=value words, as the README says
// (quotes inside group a value with blanks); --each the same way.
BOOST_AUTO_TEST_CASE(an_engine_given_as_one_quoted_string_is_read_key_by_key) {
  TempDir dir;
  const std::string results = dir.file("results.json");
  const ArenaRun run =
      run_arena({"--engine", "name=a cmd=" + kMock + " args=\"--mode normal --random-seed 3\"",
                 "--engine", "name=b cmd=" + kMock, "--each", "tc=nodes=100 option.Hash=1",
                 "--max-plies", "30", "--results", results},
                dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const json::object file = load_results(results);
  check_standings_add_up(file, 2);
  BOOST_TEST(integer(tally_of(file, "a"), "games") == 2);
  BOOST_TEST(integer(tally_of(file, "b"), "games") == 2);
  for (const json::value& game : games_of(file)) {
    BOOST_TEST(text(game, "termination") != "crash", text(game, "reason"));
    BOOST_TEST(text(game, "termination") != "illegal move", text(game, "reason"));
  }
}

// Issue 9, defect 13: a relative cmd is taken from the engine's dir; stderr=FILE keeps the
// engine's stderr; a book line's move number stays in the PGN's FEN and numbers the moves.
BOOST_AUTO_TEST_CASE(cmd_is_found_in_dir_stderr_goes_to_its_file_and_the_move_number_stays) {
  TempDir dir;
  fs::create_directory(dir.file("engines"));
  fs::create_symlink(kMock, dir.file("engines/mock"));
  write_text(dir.file("book.txt"), "x4/5/5/5/o4 x 12 moves b1b5\n");
  const std::string pgn = dir.file("games.pgn");
  const std::string results = dir.file("results.json");
  const std::string engines = dir.file("engines");
  const ArenaRun run = run_arena(
      join({{"--engine", "name=a", "cmd=./mock", "dir=" + engines, "stderr=" + dir.file("a.err"),
             "args=--mode normal --random-seed 3"},
            {"--engine", "name=b", "cmd=mock", "dir=" + engines, "stderr=" + dir.file("b.err")},
            {"--tc", "nodes=100", "--max-plies", "30", "--openings", dir.file("book.txt")},
            {"--pgn", pgn, "--results", results}}),
      dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const json::object file = load_results(results);
  check_standings_add_up(file, 2);
  for (const std::string name : {"a", "b"}) {
    const std::string log = read_text(dir.file(name + ".err"));
    // The check before the first game and the game's own process(es) each wrote their line.
    BOOST_TEST(contains(log, "quixo-mock-engine: mode normal\n"), name << ": " << log);
    BOOST_TEST(std::count(log.begin(), log.end(), '\n') >= 2, name << ": " << log);
  }
  const std::string pgn_text = read_text(pgn);
  BOOST_TEST(contains(pgn_text, "[FEN \"x4/5/5/5/o4 x 12\"]"), pgn_text);
  BOOST_TEST(contains(pgn_text, "\n12. b1b5 {book} 12... "), pgn_text);
  const std::vector<arena::GameRecord> games = load_pgn(pgn);
  BOOST_TEST(games.size() == 2u);
  check_pgn_matches_results(games, file);
  for (const json::value& game : games_of(file))
    BOOST_TEST(text(game, "opening") == "x4/5/5/5/o4 x 12 moves b1b5");
}

BOOST_AUTO_TEST_CASE(an_engine_that_overruns_its_clock_loses_on_time) {
  TempDir dir;
  const std::string results = dir.file("results.json");
  // The overrunning mock answers after 400 ms with 300 ms for the whole game; the normal one
  // answers at once and has 2 s.
  const ArenaRun run = run_arena(
      join({mock("normal", "--mode normal --random-seed 7", {"tc=2+0"}),
            mock("overrun", "--mode overrun --delay-ms 400"),
            {"--tc", "0.3+0", "--max-plies", "40", "--rounds", "1", "--results", results}}),
      dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const json::object file = load_results(results);
  check_standings_add_up(file, 2);
  BOOST_TEST(integer(tally_of(file, "overrun"), "time_forfeits") == 2);
  BOOST_TEST(integer(tally_of(file, "normal"), "time_forfeits") == 0);
  BOOST_TEST(integer(tally_of(file, "normal"), "wins") == 2);
  for (const json::value& game : games_of(file))
    BOOST_TEST(text(game, "termination") == "time forfeit", text(game, "reason"));
}

// ---------------------------------------------------------------------------- resume

namespace {

// A tournament of two deterministic mocks: the same command gives the same games in every run.
Args deterministic_tournament(const TempDir& dir) {
  return join({two_normal_mocks(),
               {"--tc", "nodes=100", "--rounds", "30", "--max-plies", "60", "--openings",
                dir.file("book.txt"), "--pgn", dir.file("games.pgn"), "--results",
                dir.file("results.json")}});
}

// The recorded games, or none while the file does not exist yet.
std::size_t recorded_games(const std::string& results) {
  try {
    return arena::read_results_file(results).size();
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(resume_after_kill_9_gives_the_games_of_an_uninterrupted_run) {
  TempDir whole;
  TempDir killed;
  write_text(whole.file("book.txt"), kBook);
  write_text(killed.file("book.txt"), kBook);
  const ArenaRun reference = run_arena(deterministic_tournament(whole), whole);
  BOOST_TEST_REQUIRE(reference.code() == 0, reference);

  // Kill the arena without warning once at least 3 games are recorded.
  const Args args = deterministic_tournament(killed);
  {
    EngineProcess process(kArena, args, EngineProcess::Stderr::File, killed.file("stderr.txt"));
    process.close_input();
    const auto deadline = std::chrono::steady_clock::now() + kRunTimeout;
    while (recorded_games(killed.file("results.json")) < 3) {
      BOOST_TEST_REQUIRE(!process.wait_exit(0ms).has_value(),
                         "the arena ended before it could be killed; make the tournament longer");
      BOOST_TEST_REQUIRE((std::chrono::steady_clock::now() < deadline), "no 3 games recorded");
      process.read_for(2ms);  // keeps its stdout flowing
    }
    ::kill(process.pid(), SIGKILL);
    BOOST_TEST_REQUIRE(process.wait_exit(10s).value_or(-1) == 128 + SIGKILL);
  }
  BOOST_TEST(read_text(killed.file("stderr.txt")).empty());  // no complaint before the kill
  const std::size_t at_kill = recorded_games(killed.file("results.json"));
  BOOST_TEST_REQUIRE(at_kill < 60u, "the tournament was over before the kill");
  BOOST_TEST(text(load_results(killed.file("results.json")), "status") == "running");
  // As if a game had been written to the PGN but the kill came before the results file recorded
  // it: --resume must cut it off.
  write_text(killed.file("games.pgn"),
             "[Event \"quixo-arena\"]\n[Site \"?\"]\n[Round \"999\"]\n[White \"a\"]\n\n1. a1e1 "
             "{0.00/1",
             true);

  Args resume_args = args;
  resume_args.push_back("--resume");
  const ArenaRun resumed = run_arena(resume_args, killed);
  BOOST_TEST_REQUIRE(resumed.code() == 0, resumed);
  // Only the games not recorded are played again (one game at a time: the first at_kill are in).
  BOOST_TEST(contains(resumed.out, "Started game " + std::to_string(at_kill + 1) + " of 60 ("),
             resumed);
  BOOST_TEST(!contains(resumed.out, "Started game 1 of 60 ("), resumed);

  const json::object expected = load_results(whole.file("results.json"));
  const json::object actual = load_results(killed.file("results.json"));
  BOOST_TEST(text(actual, "status") == "completed");
  check_every_game_recorded(actual, 60);
  check_standings_add_up(actual, 60);
  const json::array& expected_pairings = expected.at("standings").at("pairings").as_array();
  const json::array& actual_pairings = actual.at("standings").at("pairings").as_array();
  BOOST_TEST_REQUIRE(actual_pairings.size() == expected_pairings.size());
  for (std::size_t i = 0; i < actual_pairings.size(); ++i)
    for (const std::string_view key : {"first", "second", "wins", "losses", "draws", "pentanomial"})
      BOOST_TEST(actual_pairings[i].at(key) == expected_pairings[i].at(key), key);

  const std::vector<arena::GameRecord> expected_pgn = load_pgn(whole.file("games.pgn"));
  const std::vector<arena::GameRecord> actual_pgn = load_pgn(killed.file("games.pgn"));
  check_pgn_matches_results(expected_pgn, expected);
  check_pgn_matches_results(actual_pgn, actual);
  const auto expected_rounds = by_round(expected_pgn);
  for (const auto& [round, game] : by_round(actual_pgn)) {
    const auto found = expected_rounds.find(round);
    BOOST_TEST_REQUIRE((found != expected_rounds.end()), "round " << round);
    BOOST_TEST_CONTEXT("round " << round) {
      BOOST_TEST(game.x_name == found->second.x_name);
      BOOST_TEST(game.result == found->second.result);
      BOOST_TEST(game.termination == found->second.termination);
      BOOST_TEST(game.start_position == found->second.start_position);
      std::vector<std::string> moves;
      std::vector<std::string> expected_moves;
      for (const arena::MoveRecord& move : game.moves) moves.push_back(move.move);
      for (const arena::MoveRecord& move : found->second.moves) expected_moves.push_back(move.move);
      BOOST_TEST(moves == expected_moves, boost::test_tools::per_element());
    }
  }

  // Resuming a finished tournament plays nothing and changes nothing.
  const std::string pgn_before = read_text(killed.file("games.pgn"));
  const ArenaRun again = run_arena(resume_args, killed);
  BOOST_TEST(again.code() == 0, again);
  BOOST_TEST(!contains(again.out, "Started game"), again);
  BOOST_TEST(!contains(again.out, "Finished game"), again);
  BOOST_TEST(contains(again.out, "Games: 60, "), again);
  BOOST_TEST(read_text(killed.file("games.pgn")) == pgn_before);
  const json::object after = load_results(killed.file("results.json"));
  BOOST_TEST(games_of(after) == games_of(actual));
}

BOOST_AUTO_TEST_CASE(an_interrupt_stops_with_exit_4_and_resume_finishes) {
  TempDir dir;
  write_text(dir.file("book.txt"), kBook);
  const Args args = deterministic_tournament(dir);
  std::optional<int> code;
  {
    EngineProcess process(kArena, args, EngineProcess::Stderr::File, dir.file("stderr.txt"));
    process.close_input();
    const auto deadline = std::chrono::steady_clock::now() + kRunTimeout;
    while (recorded_games(dir.file("results.json")) < 1) {
      BOOST_TEST_REQUIRE(!process.wait_exit(0ms).has_value(), "the arena ended too soon");
      BOOST_TEST_REQUIRE((std::chrono::steady_clock::now() < deadline), "no game recorded");
      process.read_for(2ms);
    }
    ::kill(process.pid(), SIGINT);  // Ctrl-C: the arena stops between moves, saving what it has
    process.read_for(kRunTimeout);
    code = process.wait_exit(5s);
    std::string out;
    for (const std::string& line : process.lines_read()) out += line + "\n";
    // Issue 25, item 17: fastchess says how to resume; the arena names --resume.
    BOOST_TEST(contains(out, "Tournament was interrupted. Its games are kept in " +
                                 dir.file("results.json") +
                                 ": to play the rest, run the same command again with "
                                 "--resume.\nFinished match\n"),
               out);
  }
  BOOST_TEST_REQUIRE(code.value_or(-1) == 4);
  BOOST_TEST(read_text(dir.file("stderr.txt")).empty());  // an interrupt is no error
  const json::object interrupted = load_results(dir.file("results.json"));
  BOOST_TEST(text(interrupted, "status") == "interrupted");
  const auto games = static_cast<std::int64_t>(games_of(interrupted).size());
  BOOST_TEST((games >= 1 && games < 60));
  BOOST_TEST(static_cast<std::int64_t>(load_pgn(dir.file("games.pgn")).size()) == games);

  Args resume_args = args;
  resume_args.push_back("--resume");
  const ArenaRun resumed = run_arena(resume_args, dir);
  BOOST_TEST_REQUIRE(resumed.code() == 0, resumed);
  const json::object file = load_results(dir.file("results.json"));
  BOOST_TEST(text(file, "status") == "completed");
  check_every_game_recorded(file, 60);
  check_pgn_matches_results(load_pgn(dir.file("games.pgn")), file);
}

namespace {

// A change to the command line on --resume, and whether it makes another tournament.
struct ResumeChange {
  std::string name;
  std::string option;
  std::string value;
  bool refused;
};
std::ostream& operator<<(std::ostream& out, const ResumeChange& change) {
  return out << change.name;
}
const std::vector<ResumeChange> kResumeChanges = {
    // More rounds extend the run instead (tournament_tests).
    {"fewer rounds", "--rounds", "1", true},
    {"another ply cap", "--max-plies", "50", true},
    {"another time control", "--tc", "nodes=200", true},
    {"more games at once", "--concurrency", "2", false},
    {"another report interval", "--report-interval", "1", false},
    // Issue 9, defect 12: the SPRT and adjudication are part of the tournament too.
    {"an SPRT", "--sprt", "elo1=5", true},
    {"resign adjudication", "--resign", "movecount=3", true},
    {"draw adjudication", "--draw", "movecount=2", true},
    {"another repetition count", "--repetitions", "4", true},
};

// `args` with `option`'s value replaced, or the option added.
Args with_option(Args args, const std::string& option, const std::string& value) {
  const auto found = std::find(args.begin(), args.end(), option);
  if (found == args.end() || found + 1 == args.end()) return join({args, {option, value}});
  *(found + 1) = value;
  return args;
}

}  // namespace

BOOST_DATA_TEST_CASE(resume_refuses_the_results_of_another_tournament, bdata::make(kResumeChanges),
                     change) {
  TempDir dir;
  const Args args = join({two_normal_mocks(),
                          {"--tc", "nodes=100", "--rounds", "2", "--max-plies", "40", "--pgn",
                           dir.file("games.pgn"), "--results", dir.file("results.json")}});
  const ArenaRun first = run_arena(args, dir);
  BOOST_TEST_REQUIRE(first.code() == 0, first);
  const std::string results_before = read_text(dir.file("results.json"));
  const std::string pgn_before = read_text(dir.file("games.pgn"));

  const ArenaRun run =
      run_arena(with_option(join({args, {"--resume"}}), change.option, change.value), dir);
  if (change.refused) {
    BOOST_TEST(run.code() == 2, run);
    BOOST_TEST(contains(run.err, "another tournament: " + change.option + " differs"), run);
    BOOST_TEST(std::count(run.err.begin(), run.err.end(), '\n') == 1, run);
  } else {
    BOOST_TEST(run.code() == 0, run);
    BOOST_TEST(contains(run.out, "Finished match"), run);
    BOOST_TEST(!contains(run.out, "Finished game"), run);
  }
  // Either way the earlier run's files are as they were.
  BOOST_TEST(read_text(dir.file("results.json")) == results_before);
  BOOST_TEST(read_text(dir.file("games.pgn")) == pgn_before);
}

// The same engine and book reached by other paths (relative where the first run had absolute ones)
// are the same tournament; another file, even a copy, is not.
BOOST_AUTO_TEST_CASE(resume_accepts_the_same_files_by_other_paths) {
  TempDir dir;
  write_text(dir.file("book.txt"), kBook);
  const auto engines = [](const std::string& command) {
    return Args{"--engine", "name=a", "cmd=" + command, "args=--mode normal --random-seed 3",
                "--engine", "name=b", "cmd=" + command, "args=--mode normal --random-seed 5"};
  };
  // Two rounds first; the resume extends them to three, so that it plays with the new paths.
  const auto settings = [&](const std::string& book, bool resume) {
    Args words = {"--tc", "nodes=100",  "--rounds", resume ? "3" : "2", "--max-plies",
                  "40",   "--openings", book,       "--results",        dir.file("results.json")};
    if (resume) words.push_back("--resume");
    return words;
  };
  const std::string absolute_book = std::filesystem::absolute(dir.file("book.txt")).string();
  const ArenaRun first = run_arena(join({engines(kMock), settings(absolute_book, false)}), dir);
  BOOST_TEST_REQUIRE(first.code() == 0, first);

  // A copy of the mock is another engine for all the resume can tell.
  const std::string copy = dir.file("mock-copy");
  std::filesystem::copy_file(kMock, copy);
  const ArenaRun refused = run_arena(join({engines(copy), settings(absolute_book, true)}), dir);
  BOOST_TEST(refused.code() == 2, refused);
  BOOST_TEST(contains(refused.err, "another tournament: engine 1 (a)'s cmd differs"), refused);

  // "./" first, so that the command is a path even from the mock's own folder, not a name that
  // the arena would look up in PATH.
  const std::string relative_mock =
      (std::filesystem::path(".") / std::filesystem::relative(kMock)).string();
  const std::string relative_book = std::filesystem::relative(absolute_book).string();
  const ArenaRun resumed =
      run_arena(join({engines(relative_mock), settings(relative_book, true)}), dir);
  BOOST_TEST_REQUIRE(resumed.code() == 0, resumed);
  const json::object file = load_results(dir.file("results.json"));
  BOOST_TEST(text(file, "status") == "completed");
  check_every_game_recorded(file, 6);
}

// The results file records how long the PGN was, so that --resume can cut off a game written
// just before a kill. That length belongs to one file: a resume without --pgn, or with another,
// must not record or trim anything, or a later resume would cut earlier games off the PGN.
BOOST_AUTO_TEST_CASE(a_resume_without_the_pgn_does_not_cost_the_pgn_its_games) {
  TempDir dir;
  const std::string pgn = dir.file("games.pgn");
  const Args args = join({two_normal_mocks(),
                          {"--tc", "nodes=100", "--rounds", "1", "--max-plies", "40", "--results",
                           dir.file("results.json")}});
  const ArenaRun first = run_arena(join({args, {"--pgn", pgn}}), dir);
  BOOST_TEST_REQUIRE(first.code() == 0, first);
  BOOST_TEST_REQUIRE(load_pgn(pgn).size() == 2u);
  // The earlier run wrote a PGN: resuming without it (or with another) is refused, naming it.
  const ArenaRun without_pgn = run_arena(join({args, {"--resume"}}), dir);
  BOOST_TEST(without_pgn.code() == 2, without_pgn);
  BOOST_TEST(contains(without_pgn.err, pgn), without_pgn);
  const ArenaRun other_pgn =
      run_arena(join({args, {"--pgn", dir.file("other.pgn"), "--resume"}}), dir);
  BOOST_TEST(other_pgn.code() == 2, other_pgn);

  const ArenaRun with_pgn = run_arena(join({args, {"--pgn", pgn, "--resume"}}), dir);
  BOOST_TEST(with_pgn.code() == 0, with_pgn);
  BOOST_TEST(load_pgn(pgn).size() == 2u,
             "the PGN was cut to " << read_text(pgn).size() << " bytes; " << with_pgn);
}

BOOST_AUTO_TEST_CASE(a_pgn_shorter_than_the_results_file_records_is_refused) {
  TempDir dir;
  const std::string pgn = dir.file("games.pgn");
  const Args args = join({two_normal_mocks(),
                          {"--tc", "nodes=100", "--rounds", "1", "--max-plies", "40", "--pgn", pgn,
                           "--results", dir.file("results.json")}});
  const ArenaRun first = run_arena(args, dir);
  BOOST_TEST_REQUIRE(first.code() == 0, first);
  std::string text = read_text(pgn);
  text.resize(text.size() - 10);  // edited after the run: the last game's end is gone
  write_text(pgn, text);

  const ArenaRun run = run_arena(join({args, {"--resume"}}), dir);
  BOOST_TEST(run.code() == 2, run);
  BOOST_TEST(contains(run.err, "shorter"), run);
  BOOST_TEST(read_text(pgn) == text);  // left for the user to look at
}

// ------------------------------------------------------------------------------ SPRT

namespace {

struct SprtCase {
  std::string name;
  Args engines;
  std::string rounds;
  std::string model;
  int exit_code;
  std::string status;    // of the results file
  std::string decision;  // standings.sprt.decision
};
std::ostream& operator<<(std::ostream& out, const SprtCase& sprt) {
  return out << sprt.name;
}

// The first engine is the one tested. A mock that always plays an illegal move loses every game.
const std::vector<SprtCase> kSprtCases = {
    {"better first engine, logistic",
     join({mock("good", "--mode normal --random-seed 3"), mock("bad", "--mode illegal")}), "200",
     "logistic", 0, "H1 accepted", "H1"},
    {"better first engine, normalized",
     join({mock("good", "--mode normal --random-seed 3"), mock("bad", "--mode illegal")}), "200",
     "normalized", 0, "H1 accepted", "H1"},
    {"worse first engine, logistic",
     join({mock("bad", "--mode illegal"), mock("good", "--mode normal --random-seed 3")}), "200",
     "logistic", 1, "H0 accepted", "H0"},
    {"worse first engine, normalized",
     join({mock("bad", "--mode illegal"), mock("good", "--mode normal --random-seed 3")}), "200",
     "normalized", 1, "H0 accepted", "H0"},
    {"equal engines, too few games", two_normal_mocks(), "2", "normalized", 3, "SPRT undecided",
     "continue"},
};

}  // namespace

BOOST_DATA_TEST_CASE(sprt_decisions_set_the_exit_code, bdata::make(kSprtCases), sprt) {
  TempDir dir;
  const std::string results = dir.file("results.json");
  const ArenaRun run = run_arena(
      join({sprt.engines,
            {"--tc", "nodes=100", "--max-plies", "40", "--rounds", sprt.rounds, "--sprt", "elo0=0",
             "elo1=10", "alpha=0.05", "beta=0.05", "model=" + sprt.model, "--results", results}}),
      dir);
  BOOST_TEST_REQUIRE(run.code() == sprt.exit_code, run);
  BOOST_TEST(contains(run.out, "LLR: "), run);
  const json::object file = load_results(results);
  BOOST_TEST(text(file, "status") == sprt.status);
  const json::value& standings = file.at("standings");
  BOOST_TEST(text(standings.at("sprt"), "decision") == sprt.decision);
  const std::int64_t games = integer(standings, "games");
  const std::int64_t total = integer(standings, "total_games");
  if (sprt.decision == "continue") {
    BOOST_TEST(games == total);
    // Issue 9, defect 13: not "completed" when what it was for is undecided.
    BOOST_TEST(!contains(run.out, "was accepted"), run);
    BOOST_TEST(contains(run.out, "Finished match"), run);
  } else {
    BOOST_TEST(games < total, "a decision must stop the tournament early");
    // fastchess's end of an SPRT, after the last rating block.
    BOOST_TEST(contains(run.out, "--\nSPRT ([0.00, 10.00]) completed - " + sprt.decision +
                                     " was accepted\n"),
               run);
  }
  check_standings_add_up(file, games);
}

// ------------------------------------------------------------------------- config file

namespace {

std::string config_file(const TempDir& dir, std::string_view extra = "") {
  const std::string path = dir.file("arena.conf");
  write_text(path,
             "# engines and settings; the command line wins\n"
             "engine = name=file-a cmd=" +
                 kMock +
                 " args=\"--mode normal --random-seed 1\"\n"
                 "engine = name=file-b cmd=" +
                 kMock +
                 " args=\"--mode normal --random-seed 2\"\n"
                 "rounds = 1\n"
                 "tc = nodes=100\n"
                 "max-plies = 30\n" +
                 std::string(extra));
  return path;
}

std::vector<std::string> engine_names(const json::object& results) {
  std::vector<std::string> names;
  for (const json::value& engine : results.at("tournament").at("engines").as_array())
    names.push_back(text(engine, "name"));
  return names;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_command_line_wins_over_the_config_file) {
  TempDir dir;
  const std::string results = dir.file("results.json");
  const ArenaRun run =
      run_arena({"--config", config_file(dir), "--rounds", "2", "--results", results}, dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const json::object file = load_results(results);
  check_every_game_recorded(file, 4);  // the command line's 2 rounds, not the file's 1
  BOOST_TEST(integer(file.at("tournament"), "rounds") == 2);
  BOOST_TEST(text(file.at("tournament"), "time_control") == "nodes=100");  // from the file
  BOOST_TEST(engine_names(file) == (std::vector<std::string>{"file-a", "file-b"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(engines_on_the_command_line_replace_the_config_files) {
  TempDir dir;
  const std::string results = dir.file("results.json");
  const ArenaRun run = run_arena(join({{"--config", config_file(dir)},
                                       mock("cli-a", "--mode normal --random-seed 3"),
                                       mock("cli-b", "--mode normal --random-seed 4"),
                                       {"--results", results}}),
                                 dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const json::object file = load_results(results);
  BOOST_TEST(engine_names(file) == (std::vector<std::string>{"cli-a", "cli-b"}),
             boost::test_tools::per_element());
  check_every_game_recorded(file, 2);  // the file's rounds = 1 still applies
  BOOST_TEST(!contains(run.out, "file-a"), run);
}

// --each keys: an engine's own beat --each, and the command line's --each beats the file's.
BOOST_AUTO_TEST_CASE(each_on_the_command_line_wins_over_the_config_files_each) {
  TempDir dir;
  const std::string results = dir.file("results.json");
  const ArenaRun run =
      run_arena(join({{"--config", config_file(dir, "each = tc=nodes=111\n")},
                      mock("cli-a", "--mode normal --random-seed 3", {"tc=nodes=333"}),
                      mock("cli-b", "--mode normal --random-seed 4"),
                      {"--each", "tc=nodes=222", "--results", results}}),
                dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const json::object file = load_results(results);
  const json::array& engines = file.at("tournament").at("engines").as_array();
  BOOST_TEST_REQUIRE(engines.size() == 2u);
  BOOST_TEST(engines[0].at("time_control") == json::value("nodes=333"));
  BOOST_TEST(engines[1].at("time_control") == json::value("nodes=222"),
             "the config file's `each` overrode the command line's --each");
}

// Issue 9, defect 9: a new tournament emptied an existing --pgn file without a word. An existing
// PGN or results file is refused (exit 2, left as it was) unless --overwrite is given, on the
// command line or as `overwrite = true` in a config file.
BOOST_DATA_TEST_CASE(existing_files_are_replaced_only_with_overwrite, bdata::make({false, true}),
                     in_config_file) {
  TempDir dir;
  const std::string pgn = dir.file("games.pgn");
  const std::string results = dir.file("results.json");
  const std::string my_pgn = "[Event \"my own games\"]\n";
  const std::string my_results = "{\"mine\": true}\n";
  write_text(pgn, my_pgn);
  write_text(results, my_results);
  const Args args = {"--config", config_file(dir), "--pgn", pgn, "--results", results};
  const ArenaRun refused = run_arena(args, dir);
  BOOST_TEST(refused.code() == 2, refused);
  BOOST_TEST(contains(refused.err, pgn + " (23 bytes) already exists"), refused);
  BOOST_TEST(contains(refused.err, "give --overwrite (overwrite = true in a config file)"),
             refused);
  BOOST_TEST(refused.out.empty(), refused);
  BOOST_TEST(read_text(pgn) == my_pgn);
  BOOST_TEST(read_text(results) == my_results);

  const ArenaRun replaced = in_config_file
                                ? run_arena({"--config", config_file(dir, "overwrite = true\n"),
                                             "--pgn", pgn, "--results", results},
                                            dir)
                                : run_arena(join({args, {"--overwrite"}}), dir);
  BOOST_TEST_REQUIRE(replaced.code() == 0, replaced);
  const json::object file = load_results(results);
  check_every_game_recorded(file, 2);
  check_pgn_matches_results(load_pgn(pgn), file);
}

namespace {

// An output option of the arena and the file it names in a test's directory.
struct Output {
  std::string option;
  std::string file;
  std::string what;  // as the refusal names it
};
std::ostream& operator<<(std::ostream& out, const Output& output) {
  return out << output.option;
}
const std::vector<Output> kOutputs = {{"--pgn", "games.pgn", "PGN file"},
                                      {"--results", "results.json", "results file"},
                                      {"--epd-out", "final.epd", "EPD file"},
                                      {"--report-html", "report.html", "report file"},
                                      {"--log", "arena.log", "log file"}};

// A short tournament of two mocks that writes every output into `dir`.
Args every_output(const TempDir& dir) {
  Args args = join({two_normal_mocks(), {"--tc", "nodes=100", "--max-plies", "30"}});
  for (const Output& output : kOutputs) args = join({args, {output.option, dir.file(output.file)}});
  return args;
}

}  // namespace

// Issue 25, item 12: --epd-out, --report-html (and --log) replaced an existing file where --pgn
// and --results refused. Every output follows one policy: a new tournament refuses an existing
// one that is not empty (exit 2, the file left as it was, nothing written) unless --overwrite.
BOOST_DATA_TEST_CASE(every_existing_output_is_replaced_only_with_overwrite, bdata::make(kOutputs),
                     output) {
  TempDir dir;
  const std::string path = dir.file(output.file);
  const std::string mine = "my own file\n";
  write_text(path, mine);
  const ArenaRun refused = run_arena(every_output(dir), dir);
  BOOST_TEST(refused.code() == 2, refused);
  BOOST_TEST(contains(refused.err, "the " + output.what + " " + path +
                                       " (12 bytes) already exists and a new tournament would "
                                       "replace it; give --overwrite"),
             refused);
  BOOST_TEST(read_text(path) == mine);
  for (const Output& other : kOutputs)
    if (other.file != output.file) BOOST_TEST(!fs::exists(dir.file(other.file)), other.file);

  const ArenaRun replaced = run_arena(join({every_output(dir), {"--overwrite"}}), dir);
  BOOST_TEST_REQUIRE(replaced.code() == 0, replaced);
  BOOST_TEST(!contains(read_text(path), mine), path);
  check_every_game_recorded(load_results(dir.file("results.json")), 2);
}

// Issue 25, item 12: an output that is not a regular file is refused before anything is written:
// a FIFO (or a device) was replaced by a regular file (--results, --epd-out, --report-html) or
// blocked the run for ever (--pgn, --log).
BOOST_DATA_TEST_CASE(an_output_that_is_not_a_regular_file_is_refused, bdata::make(kOutputs),
                     output) {
  TempDir dir;
  const std::string fifo = dir.file("fifo");
  BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  Args args = join({two_normal_mocks(), {"--tc", "nodes=100", output.option, fifo}});
  if (output.option == "--epd-out") args = join({args, {"--pgn", dir.file("games.pgn")}});
  const ArenaRun run = run_arena(args, dir, 30s);
  BOOST_TEST(run.code() == 2, run);
  BOOST_TEST(contains(run.err, output.option + " " + fifo + " is a FIFO, not a regular file"), run);
  BOOST_TEST(fs::is_fifo(fifo));
}

// Issue 25, item 13: a run and its --resume started 2 s apart both completed, and the PGN held
// their rounds twice. Every output is locked for the length of a run (FILE.lock, holding the
// process id): a second run is refused, naming the first one's process; a lock left by a killed
// run does not stand in the way of the next.
BOOST_AUTO_TEST_CASE(a_second_run_on_the_same_outputs_is_refused_naming_the_first) {
  TempDir dir;
  write_text(dir.file("book.txt"), kBook);
  // Slot waits of a minute between games keep the first run going while the second starts.
  const Args args = join({deterministic_tournament(dir), {"--wait", "60000"}});
  const std::string lock = dir.file("results.json.lock");
  {
    EngineProcess first(kArena, args, EngineProcess::Stderr::File, dir.file("stderr.txt"));
    first.close_input();
    const auto deadline = std::chrono::steady_clock::now() + kRunTimeout;
    while (recorded_games(dir.file("results.json")) < 1) {
      BOOST_TEST_REQUIRE(!first.wait_exit(0ms).has_value(), "the first run ended too soon");
      BOOST_TEST_REQUIRE((std::chrono::steady_clock::now() < deadline), "no game recorded");
      first.read_for(2ms);
    }
    BOOST_TEST(read_text(lock).starts_with(std::to_string(first.pid()) + " "), read_text(lock));
    for (const Args& second : {join({args, {"--resume"}}), join({args, {"--overwrite"}})}) {
      const ArenaRun refused = run_arena(second, dir);
      BOOST_TEST(refused.code() == 2, refused);
      BOOST_TEST(contains(refused.err, "--pgn " + dir.file("games.pgn") +
                                           " is in use by another run (process " +
                                           std::to_string(first.pid()) + " on "),
                 refused);
      BOOST_TEST(refused.out.empty(), refused);
    }
    BOOST_TEST(fs::exists(lock));  // the refused runs left the first one's lock alone
    ::kill(first.pid(), SIGKILL);
    BOOST_TEST(first.wait_exit(kRunTimeout).has_value());
  }
  BOOST_TEST(fs::exists(lock));  // left by the killed run, and no longer locked
  const ArenaRun resumed = run_arena(join({deterministic_tournament(dir), {"--resume"}}), dir);
  BOOST_TEST_REQUIRE(resumed.code() == 0, resumed);
  check_every_game_recorded(load_results(dir.file("results.json")), 60);
  BOOST_TEST(!fs::exists(lock));  // removed at the end of the run
  BOOST_TEST(!fs::exists(dir.file("games.pgn.lock")));
}

// ------------------------------------------------------------------------------ four players

namespace {

const auto kSeatings = bdata::make({std::string("per-seat"), std::string("per-team")});

// The repository's four-player book (tests/ is next to configs/).
std::string four_player_book() {
  return (fs::path(QUIXO_SOURCE_DIR) / "configs" / "openings4.txt").string();
}

// Every PGN game is a four-player game of the seating, its seats filled by its teams' engines.
void check_four_player_pgn(const std::vector<arena::GameRecord>& games,
                           const std::string& seating) {
  for (const arena::GameRecord& game : games) {
    BOOST_TEST_CONTEXT("round " << game.round) {
      BOOST_TEST_REQUIRE(game.four_player.has_value());
      BOOST_TEST(std::string(arena::seating_name(game.four_player->seating)) == seating);
      const auto& seats = game.four_player->names;
      BOOST_TEST(seats[0] == game.x_name);
      BOOST_TEST(seats[2] == game.x_name);
      BOOST_TEST(seats[1] == game.o_name);
      BOOST_TEST(seats[3] == game.o_name);
      BOOST_TEST((quixo::variant_of(game.start_position) == quixo::Variant::FourPlayer));
    }
  }
}

}  // namespace

BOOST_DATA_TEST_CASE(misbehaving_engines_lose_four_player_games_for_their_team, kSeatings,
                     seating) {
  TempDir dir;
  const std::string pgn = dir.file("games.pgn");
  const std::string results = dir.file("results.json");
  const ArenaRun run = run_arena(
      join({{"--variant", "4p", "--seating", seating, "--tournament", "gauntlet", "--seeds", "1"},
            mock("normal", "--mode normal --random-seed 7"),
            mock("crash", "--mode crash-on-go --after 2"),
            mock("stall", "--mode stall --after 1"),
            mock("illegal", "--mode illegal --after 1"),
            mock("malformed", "--mode malformed"),
            mock("overrun", "--mode overrun --delay-ms 400", {"tc=0.3+0"}),
            {"--tc", "nodes=100", "--stall-timeout", "1000", "--max-plies", "60", "--rounds", "1",
             "--openings", four_player_book(), "--pgn", pgn, "--results", results}}),
      dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  BOOST_TEST(contains(run.out, "Started game 10 of 10 ("), run);
  BOOST_TEST(contains(run.out, "\nFinished match\n"), run);
  BOOST_TEST(contains(run.out, "(A: normal vs B: crash)"), run);

  const json::object file = load_results(results);
  BOOST_TEST(text(file.at("tournament"), "variant") == "4p");
  BOOST_TEST(text(file.at("tournament"), "seating") == seating);
  check_every_game_recorded(file, 10);
  check_standings_add_up(file, 10);
  const std::vector<arena::GameRecord> games = load_pgn(pgn);
  check_pgn_matches_results(games, file);
  check_four_player_pgn(games, seating);

  // Each faulty engine misbehaves within its team's first five moves, before any line can be
  // made, so it loses every game, on its own fault, whichever team it plays. The reason names
  // the seat and the engine.
  struct Expectation {
    std::string name;
    std::string termination;
    std::string counter;
  };
  const std::vector<Expectation> expectations = {
      {"crash", "crash", "crashes"},
      {"stall", "stall", "stalls"},
      {"illegal", "illegal move", "illegal_moves"},
      {"malformed", "illegal move", "illegal_moves"},
      {"overrun", "time forfeit", "time_forfeits"},
  };
  for (const Expectation& expected : expectations) {
    BOOST_TEST_CONTEXT("engine " << expected.name) {
      const json::value& tally = tally_of(file, expected.name);
      BOOST_TEST(integer(tally, "games") == 2);
      BOOST_TEST(integer(tally, "losses") == 2);
      BOOST_TEST(integer(tally, expected.counter) == 2);
      for (const json::value& game : games_of(file)) {
        const bool as_x = text(game, "x") == expected.name;
        if (!as_x && text(game, "o") != expected.name) continue;
        BOOST_TEST_CONTEXT("game " << integer(game, "id") + 1 << ": " << text(game, "reason")) {
          BOOST_TEST(text(game, "termination") == expected.termination);
          BOOST_TEST(text(game, "result") == (as_x ? "0-1" : "1-0"));
          BOOST_TEST(contains(text(game, "reason"), "seat "));
          BOOST_TEST(contains(text(game, "reason"), expected.name));
        }
      }
    }
  }
  const json::value& normal = tally_of(file, "normal");
  BOOST_TEST(integer(normal, "wins") == 10);
  for (const std::string_view counter :
       {"crashes", "time_forfeits", "illegal_moves", "stalls", "restarts"})
    BOOST_TEST(integer(normal, counter) == 0, counter);
  // The crashed and the stalled process is started again for the engine's second game.
  BOOST_TEST(integer(tally_of(file, "crash"), "restarts") == 1);
  BOOST_TEST(integer(tally_of(file, "stall"), "restarts") == 1);
}

BOOST_AUTO_TEST_CASE(the_four_player_variant_and_seating_come_from_the_config_file) {
  TempDir dir;
  const std::string results = dir.file("results.json");
  const std::string pgn = dir.file("games.pgn");
  const ArenaRun run =
      run_arena({"--config", config_file(dir, "variant = 4p\nseating = per-team\n"), "--rounds",
                 "2", "--results", results, "--pgn", pgn},
                dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const json::object file = load_results(results);
  BOOST_TEST(text(file.at("tournament"), "variant") == "4p");
  BOOST_TEST(text(file.at("tournament"), "seating") == "per-team");
  check_every_game_recorded(file, 4);
  // Without a book every game starts from the four-player start.
  for (const json::value& game : games_of(file)) BOOST_TEST(text(game, "opening") == "5/5/5/5/5 1");
  const std::vector<arena::GameRecord> games = load_pgn(pgn);
  check_pgn_matches_results(games, file);
  check_four_player_pgn(games, "per-team");
  // The command line wins over the file here too (in the same results file, which it replaces).
  const ArenaRun two_player = run_arena({"--config", config_file(dir, "variant = 4p\n"),
                                         "--variant", "2p", "--results", results, "--overwrite"},
                                        dir);
  BOOST_TEST_REQUIRE(two_player.code() == 0, two_player);
  BOOST_TEST(!load_results(results).at("tournament").as_object().contains("variant"));
}

BOOST_AUTO_TEST_CASE(the_generator_makes_a_four_player_book_that_a_tournament_plays) {
  TempDir dir;
  const std::string book = dir.file("book4.txt");
  const ArenaRun made =
      run_openings_tool({"--variant", "4p", "--output", book, "--count", "12", "--seed", "5"}, dir);
  BOOST_TEST_REQUIRE(made.code() == 0, made);
  BOOST_TEST(contains(made.out, "Wrote 12 openings"), made);
  const std::vector<arena::Opening> openings = arena::load_openings(book);
  BOOST_TEST(openings.size() == 12u);
  for (const arena::Opening& opening : openings)
    BOOST_TEST((quixo::variant_of(opening.position) == quixo::Variant::FourPlayer),
               opening.position);
  BOOST_TEST(contains(read_text(book), "--variant 4p"));

  const std::string results = dir.file("results.json");
  const ArenaRun run =
      run_arena(join({two_normal_mocks(),
                      {"--variant", "4p", "--tc", "nodes=100", "--max-plies", "40", "--rounds", "3",
                       "--openings", book, "--openings-order", "random", "--results", results}}),
                dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  const json::object file = load_results(results);
  check_every_game_recorded(file, 6);
  std::set<std::string> books;
  for (const arena::Opening& opening : openings) books.insert(arena::format_opening(opening));
  for (const json::value& game : games_of(file)) BOOST_TEST(books.contains(text(game, "opening")));
}

// Team results feed the SPRT as two-player results do: the engine whose seats play illegal moves
// loses every game, and the test stops early with H1 for the other.
BOOST_AUTO_TEST_CASE(an_sprt_decides_a_four_player_match) {
  TempDir dir;
  const std::string results = dir.file("results.json");
  const ArenaRun run =
      run_arena(join({mock("good", "--mode normal --random-seed 3"),
                      mock("bad", "--mode illegal"),
                      {"--variant", "4p", "--seating", "per-team", "--tc", "nodes=100",
                       "--max-plies", "40", "--rounds", "200", "--sprt", "elo0=0", "elo1=10",
                       "model=logistic", "--results", results}}),
                dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  BOOST_TEST(contains(run.out, "LLR: "), run);
  const json::object file = load_results(results);
  BOOST_TEST(text(file, "status") == "H1 accepted");
  const std::int64_t games = integer(file.at("standings"), "games");
  BOOST_TEST(games < integer(file.at("standings"), "total_games"));
  check_standings_add_up(file, games);
  BOOST_TEST(integer(tally_of(file, "bad"), "illegal_moves") == games);
}

BOOST_DATA_TEST_CASE(real_engines_play_four_player_games, kSeatings, seating) {
  TempDir dir;
  const std::string pgn = dir.file("games.pgn");
  const std::string results = dir.file("results.json");
  const Args args = join({{"--variant", "4p", "--seating", seating},
                          {"--engine", "name=full", "cmd=" + kEngine},
                          {"--engine", "name=other", "cmd=" + kEngine, "option.Hash=4"},
                          {"--each", "tc=nodes=2000", "option.Hash=8"},
                          {"--rounds", "1", "--concurrency", "2", "--max-plies", "80"},
                          {"--openings", four_player_book(), "--pgn", pgn, "--results", results}});
  const ArenaRun run = run_arena(args, dir);
  BOOST_TEST_REQUIRE(run.code() == 0, run);
  BOOST_TEST(run.err.empty(), run);
  const json::object file = load_results(results);
  check_every_game_recorded(file, 2);
  check_standings_add_up(file, 2);
  for (const std::string name : {"full", "other"}) {
    const json::value& tally = tally_of(file, name);
    for (const std::string_view counter :
         {"crashes", "time_forfeits", "illegal_moves", "stalls", "restarts"})
      BOOST_TEST(integer(tally, counter) == 0, name << " " << counter);
  }
  const std::vector<arena::GameRecord> games = load_pgn(pgn);
  check_pgn_matches_results(games, file);
  check_four_player_pgn(games, seating);
}

BOOST_AUTO_TEST_SUITE_END()
