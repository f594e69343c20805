// The quixo-engine command line, end to end: the real binary (QUIXO_ENGINE_BINARY) is run
// through the shell with stdout and stderr captured separately, and its perft output is checked
// against the perft table of docs/spec.md §3.4 and the independent reference oracle. Also run
// in-process through run_engine_command_line() with string streams.
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "command_line.hpp"
#include "core/notation.hpp"
#include "core/perft.hpp"
#include "program_options_message.hpp"
#include "reference/simple_rules.hpp"
#include "search/search_params.hpp"
#include "support/sanitizers.hpp"
#include "uqi_session.hpp"

namespace {

namespace ref = quixo::reference;

struct RunResult {
  int exit_code = -1;  // -1 when the process did not exit normally
  std::string out;
  std::string err;
};

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs the real quixo-engine with `arguments` (each passed as one argv entry, quoted for the
// shell), stdin from /dev/null, and captures the exit code, stdout and stderr. `shell_prefix`
// runs before it in the same shell (e.g. a ulimit).
RunResult run_engine(const std::vector<std::string>& arguments,
                     const std::string& shell_prefix = {}) {
  static int counter = 0;
  const std::filesystem::path directory = std::filesystem::temp_directory_path();
  const std::string stem =
      "quixo_command_line_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
  const std::filesystem::path out_path = directory / (stem + ".out");
  const std::filesystem::path err_path = directory / (stem + ".err");
  std::string command = shell_prefix + shell_quoted(QUIXO_ENGINE_BINARY);
  for (const std::string& argument : arguments) {
    command += ' ';
    command += shell_quoted(argument);
  }
  command += " </dev/null >";
  command += shell_quoted(out_path.string());
  command += " 2>";
  command += shell_quoted(err_path.string());
  const int status = std::system(command.c_str());
  RunResult result;
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return result;
}

std::string describe(const std::vector<std::string>& arguments) {
  std::string text = "quixo-engine";
  for (const std::string& argument : arguments) {
    text += ' ';
    text += shell_quoted(argument);
  }
  return text;
}

std::uint64_t parse_count(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  BOOST_TEST_REQUIRE((error == std::errc() && end == text.data() + text.size() && !text.empty()),
                     "not a count: '" << text << "'");
  return value;
}

// The perft output: "move: count" lines, a blank line, "Nodes searched: N".
struct DivideOutput {
  std::vector<std::pair<std::string, std::uint64_t>> entries;
  std::uint64_t nodes = 0;
};

DivideOutput parse_divide(const std::string& out) {
  BOOST_TEST_REQUIRE((!out.empty() && out.back() == '\n'), "output does not end a line");
  std::vector<std::string> lines;
  std::istringstream stream(out);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  BOOST_TEST_REQUIRE(lines.size() >= 2u);
  const std::string prefix = "Nodes searched: ";
  BOOST_TEST_REQUIRE(lines.back().rfind(prefix, 0) == 0u, "last line: " << lines.back());
  BOOST_TEST_REQUIRE(lines[lines.size() - 2] == "");
  DivideOutput divide;
  divide.nodes = parse_count(lines.back().substr(prefix.size()));
  for (std::size_t i = 0; i + 2 < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::size_t colon = line.find(": ");
    BOOST_TEST_REQUIRE(colon != std::string::npos, "divide line: " << line);
    divide.entries.emplace_back(line.substr(0, colon), parse_count(line.substr(colon + 2)));
  }
  return divide;
}

// Checks a successful perft run against the reference: the moves are exactly the legal moves,
// each count is the reference perft below that move, and they sum to the total.
DivideOutput check_divide(const RunResult& result, const std::string& position_text, int depth) {
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.err == "");
  const DivideOutput divide = parse_divide(result.out);
  const ref::SimplePosition position = ref::parse_position(position_text);
  std::vector<std::string> moves;
  std::uint64_t sum = 0;
  for (const auto& [move, count] : divide.entries) {
    moves.push_back(move);
    BOOST_TEST(count == ref::perft(ref::apply_move(position, move), depth - 1), move);
    sum += count;
  }
  std::sort(moves.begin(), moves.end());
  BOOST_TEST(moves == (depth == 0 ? std::vector<std::string>{} : ref::legal_moves(position)));
  BOOST_TEST(divide.nodes == (depth == 0 ? 1u : sum));
  BOOST_TEST(divide.nodes == ref::perft(position, depth));
  return divide;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A failed run: the expected exit code, nothing on stdout, and a message on stderr that names
// the problem (every one of `mentions`).
void check_failure(const std::vector<std::string>& arguments, int exit_code,
                   const std::vector<std::string>& mentions) {
  const RunResult result = run_engine(arguments);
  BOOST_TEST_CONTEXT(describe(arguments) << "\nstderr: " << result.err) {
    BOOST_TEST(result.exit_code == exit_code);
    BOOST_TEST(result.out == "");
    BOOST_TEST(result.err.rfind("quixo-engine: ", 0) == 0u);
    for (const std::string& mention : mentions)
      BOOST_TEST(contains(result.err, mention), "stderr should mention '" << mention << "'");
  }
}

const std::string kMidgame = "xo3/1x2o/5/o3x/2x1o o";
const std::string kPass4 = "XoXoX/o3o/X3X/o3o/XoXoX 1";  // seat 1 has nothing to take

}  // namespace

BOOST_AUTO_TEST_SUITE(command_line_tests)

BOOST_AUTO_TEST_CASE(perft_startpos_3_divides_the_spec_count) {
  const RunResult result = run_engine({"perft", "startpos", "3"});
  const DivideOutput divide = check_divide(result, "5/5/5/5/5 x", 3);
  BOOST_TEST(divide.entries.size() == 44u);  // docs/spec.md §1: 44 moves from the start
  BOOST_TEST(divide.nodes == 76596u);        // docs/spec.md §3.4, ply 3
  BOOST_TEST(result.out.substr(result.out.size() - 23) == "\nNodes searched: 76596\n");
}

BOOST_AUTO_TEST_CASE(perft_startpos4_2_matches_reference) {
  const DivideOutput divide =
      check_divide(run_engine({"perft", "startpos4", "2"}), "5/5/5/5/5 1", 2);
  BOOST_TEST(divide.entries.size() == 88u);
}

BOOST_AUTO_TEST_CASE(perft_position_string_quoted_or_as_fields) {
  const RunResult quoted = run_engine({"perft", kMidgame, "2"});
  check_divide(quoted, kMidgame, 2);
  // The same position as separate arguments, and with a move number: the same output.
  const RunResult fields = run_engine({"perft", "xo3/1x2o/5/o3x/2x1o", "o", "2"});
  BOOST_TEST(fields.exit_code == 0);
  BOOST_TEST(fields.out == quoted.out);
  const RunResult numbered = run_engine({"perft", kMidgame + " 17", "2"});
  BOOST_TEST(numbered.exit_code == 0);
  BOOST_TEST(numbered.out == quoted.out);
  const RunResult spelled_start = run_engine({"perft", "5/5/5/5/5", "x", "2"});
  BOOST_TEST(spelled_start.out == run_engine({"perft", "startpos", "2"}).out);
  BOOST_TEST(parse_divide(spelled_start.out).nodes == 1836u);  // docs/spec.md §3.4, ply 2
}

BOOST_AUTO_TEST_CASE(perft_four_player_position_strings) {
  const DivideOutput pass = check_divide(run_engine({"perft", kPass4, "1"}), kPass4, 1);
  BOOST_TEST(pass.entries.size() == 1u);
  check_divide(run_engine({"perft", "XoXoX/o3o/X3X/o3o/XoXoX", "1", "3"}), kPass4, 3);
  const std::string midgame4 = "xO3/1X2o/2x2/O3X/1oXx1 3";
  check_divide(run_engine({"perft", midgame4, "2"}), midgame4, 2);
}

BOOST_AUTO_TEST_CASE(perft_depth_zero_and_finished_games) {
  const RunResult zero = run_engine({"perft", "startpos", "0"});
  BOOST_TEST(zero.exit_code == 0);
  BOOST_TEST(parse_divide(zero.out).entries.empty());
  BOOST_TEST(parse_divide(zero.out).nodes == 1u);
  // X has made rank 5: the game is over, no move is legal.
  const std::string finished = "xxxxx/5/5/5/5 o";
  BOOST_TEST_REQUIRE((ref::outcome(ref::parse_position(finished)) == ref::SimpleOutcome::XWins));
  const DivideOutput over = check_divide(run_engine({"perft", finished, "2"}), finished, 2);
  BOOST_TEST(over.entries.empty());
  BOOST_TEST(over.nodes == 0u);
}

// Issue 25, item 15: one perft depth range, 0 to kMaxPerftDepth, on the command line and over UQI
// (the command line took depths up to 30, `go perft` up to 12). A finished game counts at once.
BOOST_AUTO_TEST_CASE(perft_takes_one_depth_range_on_the_command_line_and_over_uqi) {
  const std::string finished = "xxxxx/5/5/5/5 o";
  const std::string max = std::to_string(quixo::kMaxPerftDepth);
  const std::string over = std::to_string(quixo::kMaxPerftDepth + 1);
  const RunResult at_max = run_engine({"perft", finished, max});
  BOOST_TEST(at_max.exit_code == 0, at_max.err);
  BOOST_TEST(parse_divide(at_max.out).nodes == 0u);
  check_failure({"perft", finished, over}, 1, {"depth", "'" + over + "'", "from 0 to " + max});
  std::ostringstream out;
  {
    quixo::UqiSession session(out);
    session.handle_line("position fen " + finished);
    session.handle_line("go perft " + max);
    session.handle_line("go perft " + over);  // waits for the perft before
    session.handle_line("quit");
  }
  BOOST_TEST(contains(out.str(), "\nNodes searched: 0\n"), out.str());
  BOOST_TEST(contains(out.str(), "info string error: perft depth " + over + " is above " + max),
             out.str());
}

// Issue 25, item 11: an EvalFile that is a directory is refused by name with exit code 2. It used
// to end the engine with `terminate ... std::__ios_failure` (rc 134).
BOOST_AUTO_TEST_CASE(an_eval_file_that_is_a_directory_is_refused) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  check_failure({"--option", "EvalFile=" + dir, "bench"}, 2,
                {"--option EvalFile=", "is a directory, not a file"});
}

BOOST_AUTO_TEST_CASE(help_exits_zero_and_mentions_perft) {
  for (const std::string option : {"--help", "-h"}) {
    const RunResult result = run_engine({option});
    BOOST_TEST(result.exit_code == 0, option);
    BOOST_TEST(contains(result.out, "perft"), option);
    BOOST_TEST(contains(result.out, "startpos"), option);
    BOOST_TEST(result.err == "", option);
  }
}

// `--print-params` prints one line per tunable parameter of search_params.hpp, in its table's
// order, as the arena's SPSA takes it: `--param NAME=value,min,max,c_end`, the value being the
// engine's (its default, or what --option gave under --tune). Without --tune the parameters are
// no options: --option refuses them like any unknown name. --help names both switches.
BOOST_AUTO_TEST_CASE(print_params_gives_the_arena_its_param_lines) {
  const auto expected_lines = [](std::string_view changed, int value) {
    std::string text;
    const quixo::SearchParams defaults;
    for (const quixo::SearchParamSpec& param : quixo::kSearchParamSpecs) {
      std::ostringstream line;
      line << "--param " << param.name << '='
           << (param.name == changed ? value : defaults.*param.field) << ',' << param.min << ','
           << param.max << ',' << param.c_end << '\n';
      text += line.str();
    }
    return text;
  };
  const std::string defaults = expected_lines("", 0);
  BOOST_TEST(defaults.find("--param AspirationDelta=20,5,100,4\n") == 0u, defaults);
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"--tune", "--print-params"}, {"--print-params"}}) {
    const RunResult result = run_engine(arguments);
    BOOST_TEST_CONTEXT(describe(arguments) << "\nstderr: " << result.err) {
      BOOST_TEST(result.exit_code == 0);
      BOOST_TEST(result.out == defaults);
      BOOST_TEST(result.err == "");
    }
  }
  const RunResult tuned = run_engine({"--tune", "--option", "LmrBase=650", "--print-params"});
  BOOST_TEST(tuned.exit_code == 0);
  BOOST_TEST(tuned.out == expected_lines("LmrBase", 650));
  check_failure({"--option", "LmrBase=650", "--print-params"}, 2,
                {"--option LmrBase=650", "no such option 'LmrBase'"});
  check_failure({"--tune", "--option", "LmrBase=1501", "--print-params"}, 2,
                {"LmrBase", "out of range"});
  const RunResult help = run_engine({"--help"});
  BOOST_TEST(contains(help.out, "--tune"));
  BOOST_TEST(contains(help.out, "--print-params"));
}

BOOST_AUTO_TEST_CASE(bad_positions_fail_with_a_message) {
  check_failure({"perft", "5/5/5/5 x", "2"}, 1, {"rank", "5/5/5/5"});
  check_failure({"perft", "5/5/5/5/5/5 x", "2"}, 1, {"rank"});
  check_failure({"perft", "5/5/5/5/4z x", "2"}, 1, {"character", "z"});
  check_failure({"perft", "5/5/5/5/4X x", "2"}, 1, {"character", "X"});  // four-player letter
  check_failure({"perft", "5/5/5/5/6 x", "2"}, 1, {"6"});
  check_failure({"perft", "5/5/5/5/xxxxxx x", "2"}, 1, {"rank 1"});
  check_failure({"perft", "5/5/5/5/4 x", "2"}, 1, {"rank 1"});
  check_failure({"perft", "5/5/5/5/5 z", "2"}, 1, {"side", "z"});
  check_failure({"perft", "5/5/5/5/5 5", "2"}, 1, {"side", "5"});
  check_failure({"perft", "5/5/5/5/5", "2"}, 1, {"side"});
  check_failure({"perft", "5/5/5/5/5 x 0", "2"}, 1, {"move number"});
  check_failure({"perft", "", "2"}, 1, {"position"});
}

BOOST_AUTO_TEST_CASE(bad_depths_fail_with_a_message) {
  for (const std::string depth : {"abc", "99", "", "2.5", "3x", "1e3"})
    check_failure({"perft", "startpos", depth}, 1, {"depth", "'" + depth + "'"});
  check_failure({"perft", "startpos4", "abc"}, 1, {"depth", "abc"});
  // After "--" a negative number is an argument: a bad depth.
  check_failure({"perft", "startpos", "--", "-1"}, 1, {"depth", "-1"});
  // Without "--" too: a negative number is an argument, not an option, so a bad depth.
  check_failure({"perft", "startpos", "-1"}, 1, {"depth", "'-1'"});
  check_failure({"perft", "5/5/5/5/5 x", "-12"}, 1, {"depth", "'-12'"});
}

BOOST_AUTO_TEST_CASE(bad_commands_fail_with_a_message) {
  check_failure({"frobnicate"}, 2, {"unknown command", "frobnicate"});
  check_failure({"PERFT", "startpos", "1"}, 2, {"unknown command", "PERFT"});
  check_failure({"perft"}, 2, {"perft"});
  check_failure({"perft", "startpos"}, 2, {"perft"});
  check_failure({"--bogus"}, 2, {"bogus"});
  // Found by fuzz_arena_config: Boost.Program_options' own message put an argument that holds
  // its own placeholder into itself for ever (the engine hung, its memory growing).
  check_failure({"--x%original_token%"}, 2, {"'--x%original_token%'"});
}

BOOST_AUTO_TEST_CASE(in_process_command_line) {
  const auto run = [](std::vector<const char*> argv, std::string& out, std::string& err) {
    std::ostringstream out_stream, err_stream;
    const int code =
        quixo::run_engine_command_line(int(argv.size()), argv.data(), out_stream, err_stream);
    out = out_stream.str();
    err = err_stream.str();
    return code;
  };
  std::string out, err;
  BOOST_TEST(run({"quixo-engine", "perft", "startpos", "2"}, out, err) == 0);
  BOOST_TEST(err == "");
  const DivideOutput divide = parse_divide(out);
  BOOST_TEST(divide.entries.size() == 44u);
  std::uint64_t sum = 0;
  for (const auto& entry : divide.entries) sum += entry.second;
  BOOST_TEST(sum == 1836u);  // docs/spec.md §3.4, ply 2
  BOOST_TEST(divide.nodes == 1836u);
  // The in-process output is the binary's output.
  BOOST_TEST(out == run_engine({"perft", "startpos", "2"}).out);

  BOOST_TEST(run({"quixo-engine", "perft", "startpos", "abc"}, out, err) == 1);
  BOOST_TEST(out == "");
  BOOST_TEST(contains(err, "depth"));
  BOOST_TEST(run({"quixo-engine", "perft", "5/5/5/5/5 q", "1"}, out, err) == 1);
  BOOST_TEST(out == "");
  BOOST_TEST(contains(err, "side"));
  BOOST_TEST(run({"quixo-engine", "nonsense"}, out, err) == 2);
  BOOST_TEST(out == "");
  BOOST_TEST(contains(err, "nonsense"));
  BOOST_TEST(run({"quixo-engine", "--help"}, out, err) == 0);
  BOOST_TEST(contains(out, "perft"));
}

// Options from a config file are applied, and the command line's win over the file's:
// MultiPV shows in the highest `multipv` of the info lines.
BOOST_AUTO_TEST_CASE(config_file_options_and_command_line_override) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("quixo_config_" + std::to_string(::getpid()) + ".ini");
  {
    std::ofstream file(path);
    file << "# a comment\noption = MultiPV=3\noption = Hash=8\n";
  }
  // The real binary in a shell pipeline: its input ends a second after `go`, when the search
  // (depth 2) is long over, so EOF does not cut it short.
  const auto highest_multipv = [&](const std::vector<std::string>& arguments) {
    const std::filesystem::path out_path = std::filesystem::temp_directory_path() /
                                           ("quixo_config_" + std::to_string(::getpid()) + ".out");
    std::string command = "{ printf 'position startpos\\ngo depth 2\\n'; sleep 1; } | " +
                          shell_quoted(QUIXO_ENGINE_BINARY);
    for (const std::string& argument : arguments) command += " " + shell_quoted(argument);
    command += " >" + shell_quoted(out_path.string()) + " 2>&1";
    BOOST_TEST(std::system(command.c_str()) == 0);
    int highest = 0;
    std::istringstream lines(read_file(out_path));
    std::filesystem::remove(out_path);
    for (std::string line; std::getline(lines, line);) {
      const std::size_t at = line.find(" multipv ");
      if (line.rfind("info depth", 0) == 0 && at != std::string::npos)
        highest = std::max(highest, std::stoi(line.substr(at + 9)));
    }
    return highest;
  };
  const std::string config = path.string();
  BOOST_TEST(highest_multipv({"--config", config}) == 3);
  BOOST_TEST(highest_multipv({"--config", config, "--option", "MultiPV=2"}) == 2);
  BOOST_TEST(highest_multipv({}) == 1);

  check_failure({"--config", "/nonexistent/quixo.ini"}, 2, {"/nonexistent/quixo.ini"});
  // Read as an empty file, a directory would silently drop every option of the intended config;
  // a device or FIFO may never end.
  check_failure({"--config", path.parent_path().string()}, 2,
                {path.parent_path().string(), "is a directory, not a file"});
  check_failure({"--config", "/dev/zero"}, 2, {"/dev/zero", "is not a regular file"});
  {
    std::ofstream file(path);
    file << std::string((quixo::kConfigFileMaxMebibytes << 20) + 1, '#');
  }
  check_failure({"--config", config}, 2, {config, "is larger than 1 MiB"});
  {
    std::ofstream file(path);
    file << "bogus = 1\n";
  }
  check_failure({"--config", config}, 2, {config, "bogus"});
  {
    std::ofstream file(path);
    file << "option = Hash=lots\n";
  }
  check_failure({"--config", config}, 2, {"Hash", "lots"});
  std::filesystem::remove(path);
}

BOOST_AUTO_TEST_CASE(print_perft_divide_throws_before_printing) {
  std::ostringstream out;
  BOOST_CHECK_THROW(quixo::print_perft_divide("5/5/5/5/5 q", "2", out), quixo::NotationError);
  BOOST_CHECK_THROW(quixo::print_perft_divide("5/5/5/5 x", "2", out), quixo::NotationError);
  BOOST_CHECK_THROW(quixo::print_perft_divide("startpos", "x", out), std::invalid_argument);
  BOOST_CHECK_THROW(quixo::print_perft_divide("startpos4", "-1", out), std::invalid_argument);
  BOOST_TEST(out.str() == "");
  quixo::print_perft_divide("startpos4", "1", out);
  const DivideOutput divide = parse_divide(out.str());
  BOOST_TEST(divide.entries.size() == 88u);
  BOOST_TEST(divide.nodes == 88u);
}

// A Hash the machine cannot give is an error of the run (exit 1, the reason on stderr), not a
// crash. A memory limit breaks sanitizer runtimes, so this runs in plain builds only.
BOOST_AUTO_TEST_CASE(hash_that_cannot_be_allocated_exits_1) {
#if !defined(QUIXO_ADDRESS_SANITIZER) && !defined(QUIXO_THREAD_SANITIZER)
  for (const std::string size : {"4096", "65536"}) {
    const RunResult result =
        run_engine({"--option", "Hash=" + size, "bench"}, "ulimit -v 1000000 && exec ");
    BOOST_TEST_CONTEXT("Hash=" << size << "\nstderr: " << result.err) {
      BOOST_TEST(result.exit_code == 1);
      BOOST_TEST(result.out == "");
      BOOST_TEST(contains(result.err,
                          "cannot allocate " + size + " MB for the hash table; keeping 16 MB"));
    }
  }
#endif
  // A size that fits runs the bench.
  const RunResult fits = run_engine({"--option", "Hash=8", "bench"});
  BOOST_TEST(fits.exit_code == 0);
  BOOST_TEST(contains(fits.out, "Nodes searched"));
}

BOOST_AUTO_TEST_SUITE_END()
