// quixo-arena --compliance: the project's engine passes every check; quixo-mock-engine passes
// when it behaves and fails the right checks, within a bounded time, for each way it misbehaves
// (stalls, illegal moves, no handshake, crashes, a second bestmove, a late readyok, garbage); the
// command line prints one line per check and exits 0, 1 or 2.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "arena_command_line.hpp"
#include "compliance.hpp"
#include "support/arena_in_process.hpp"

BOOST_AUTO_TEST_SUITE(compliance_tests)

namespace {

namespace arena = quixo::arena;
namespace bdata = boost::unit_test::data;
using namespace std::chrono_literals;
using arena::ComplianceCheck;
using arena::ComplianceOptions;
using arena::ComplianceReport;
using Status = arena::ComplianceCheck::Status;

const std::string kEngine = QUIXO_ENGINE_BINARY;
const std::string kMock = QUIXO_MOCK_ENGINE_BINARY;

// Far above what a run takes when all is well (a few seconds), so a hang shows as a failure
// here rather than as a stuck suite, with room for sanitizer builds.
constexpr double kMaxSeconds = 60;

std::string status_name(Status status) {
  return status == Status::Pass ? "PASS" : status == Status::Fail ? "FAIL" : "SKIP";
}

arena::EngineConfig engine_config(const std::string& command, std::vector<std::string> args = {}) {
  arena::EngineConfig engine;
  engine.name = "checked";
  engine.process.command = command;
  engine.process.args = std::move(args);
  return engine;
}

struct Run {
  ComplianceReport report;
  std::vector<std::string> printed;  // format_check of each check, as it ended
  double seconds = 0;

  Status status(std::string_view name) const {
    for (const ComplianceCheck& check : report.checks)
      if (check.name == name) return check.status;
    BOOST_FAIL("no check named " << name);
    return Status::Fail;
  }
  std::string text() const {
    std::string all;
    for (const std::string& line : printed) all += line + "\n";
    return all;
  }
};

Run check(const arena::EngineConfig& engine, const ComplianceOptions& options) {
  Run run;
  const auto start = std::chrono::steady_clock::now();
  run.report = arena::run_compliance(engine, options, [&run](const ComplianceCheck& check) {
    run.printed.push_back(arena::format_check(check));
  });
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

// Mocks answer at once, so short waits keep the failing runs short; the margin leaves room for
// sanitizer builds on a loaded machine.
ComplianceOptions mock_options() {
  ComplianceOptions options;
  options.timeout = 700ms;
  options.time_margin = 150ms;
  options.positions = 12;
  return options;
}

Run check_mock(const std::string& mode) {
  return check(engine_config(kMock, {"--mode", mode}), mock_options());
}

struct Fault {
  std::string mode;
  std::vector<std::string> failing;  // checks that must fail
  std::vector<std::string> passing;  // checks that must still pass
  std::string line;                  // a line that must be printed: the reason of one failure
};

std::ostream& operator<<(std::ostream& out, const Fault& fault) {
  return out << fault.mode;
}

const std::vector<Fault> kFaults = {
    {"stall",
     {"newgame", "stop", "legal-moves", "clock"},
     {"handshake", "options", "isready"},
     "FAIL stop: no bestmove after `stop` of `go infinite` within 700 ms"},
    {"illegal",
     {"newgame", "legal-moves", "four-player"},
     {"handshake", "options", "isready"},
     "FAIL legal-moves: position startpos moves "},
    {"malformed", {"legal-moves"}, {"handshake", "isready"}, "`bestmove zz9`: "},
    {"no-handshake",
     {"handshake", "options", "legal-moves", "quit"},
     {},
     "FAIL options: not run: the engine could not be started again (no uqiok after `uqi` "
     "within 700 ms)"},
    // The mock exits at once, so `uqi` may reach a closed pipe ("the engine exited before `uqi`")
    // or be written before it dies ("... before uqiok after `uqi`"): both are the right reason.
    {"crash-on-start", {"handshake", "isready", "quit"}, {}, "FAIL handshake: the engine exited "},
    {"crash-on-go",
     {"newgame", "legal-moves", "stop"},
     {"handshake", "options", "isready", "quit"},
     "FAIL newgame: after uqinewgame: the engine exited (or closed its output) after `go "
     "movetime 50`"},
    {"double-bestmove",
     {"newgame", "one-bestmove-per-go"},
     {"handshake", "isready", "quit"},
     "FAIL one-bestmove-per-go: a second bestmove (`bestmove "},
    {"no-readyok-while-searching",
     {"isready-while-searching"},
     {"handshake", "isready", "stop", "one-bestmove-per-go", "legal-moves", "quit"},
     "FAIL isready-while-searching: no readyok while searching (`go infinite`) within 700 ms"},
    {"garbage",
     {"info-lines"},
     {"handshake", "legal-moves", "finished-positions", "quit"},
     "FAIL info-lines: `info depth banana score cp nodes -`: `depth` is not followed by a whole "
     "number"},
};

}  // namespace

BOOST_AUTO_TEST_CASE(the_project_engine_passes_every_check) {
  ComplianceOptions options;
  options.positions = 24;
  // Room for sanitizer builds; an engine that read the wrong clock would still overrun by
  // seconds.
  options.time_margin = 250ms;
  const Run run = check(engine_config(kEngine), options);
  BOOST_TEST(run.report.all_passed(), run.text());
  // It has the Ponder option, so nothing is skipped.
  BOOST_TEST(run.report.count(Status::Pass) == static_cast<int>(run.report.checks.size()),
             run.text());
  BOOST_TEST(run.seconds < kMaxSeconds);
  // Every check ran and was printed, in the documented order.
  std::vector<std::string> names;
  for (const ComplianceCheck& c : run.report.checks) names.push_back(c.name);
  BOOST_TEST(names == arena::compliance_check_names(), boost::test_tools::per_element());
  BOOST_TEST(run.printed.size() == names.size());
  BOOST_TEST(run.printed.front() == "PASS handshake");
  BOOST_TEST(arena::format_summary(run.report) ==
             "compliance: PASS (" + std::to_string(names.size()) + " passed, 0 failed, 0 skipped)");
}

BOOST_AUTO_TEST_CASE(the_project_engine_passes_under_ugi) {
  arena::EngineConfig engine = engine_config(kEngine);
  engine.protocol = arena::Protocol::Ugi;
  ComplianceOptions options;
  options.positions = 8;
  options.time_margin = 250ms;
  const Run run = check(engine, options);
  BOOST_TEST(run.report.all_passed(), run.text());
}

BOOST_DATA_TEST_CASE(a_misbehaving_mock_fails_the_right_checks, bdata::make(kFaults), fault) {
  const Run run = check_mock(fault.mode);
  BOOST_TEST_MESSAGE(run.text());
  BOOST_TEST(!run.report.all_passed(), run.text());
  for (const std::string& name : fault.failing)
    BOOST_TEST(status_name(run.status(name)) == "FAIL", name << "\n" << run.text());
  for (const std::string& name : fault.passing)
    BOOST_TEST(status_name(run.status(name)) == "PASS", name << "\n" << run.text());
  // Every check ran, whatever the engine did, and none hung.
  BOOST_TEST(run.report.checks.size() == arena::compliance_check_names().size());
  BOOST_TEST(run.seconds < kMaxSeconds);
  // A failure says why.
  for (const ComplianceCheck& c : run.report.checks)
    if (c.status == Status::Fail) BOOST_TEST(!c.reason.empty(), c.name);
  BOOST_TEST(run.text().find(fault.line) != std::string::npos, fault.line << "\n" << run.text());
}

BOOST_AUTO_TEST_CASE(the_command_line_exits_0_1_and_2) {
  const auto run = quixo::test::run_arena_in_process;
  std::string out;
  std::string err;
  const std::vector<std::string> quick = {"--timeout", "700",         "--timemargin",
                                          "150",       "--positions", "6"};
  std::vector<std::string> words = {"--compliance", "--engine",   "name=mock",
                                    "cmd=" + kMock, "arg=--mode", "arg=normal"};
  words.insert(words.end(), quick.begin(), quick.end());
  // A well-behaved mock passes every check but ponder: it has no Ponder option.
  BOOST_TEST(run(words, out, err) == arena::kExitCompleted, out << err);
  BOOST_TEST(
      out.find("Checking engine \"mock\" (" + kMock + ", uqi) against SPEC section 5\n") == 0, out);
  BOOST_TEST(out.find("\nPASS legal-moves\n") != std::string::npos, out);
  BOOST_TEST(out.find("\nSKIP ponder: ") != std::string::npos, out);
  BOOST_TEST(out.ends_with("compliance: PASS (15 passed, 0 failed, 1 skipped)\n"), out);

  words = {"--engine", "cmd=" + kMock, "arg=--mode", "arg=illegal", "--compliance"};
  words.insert(words.end(), quick.begin(), quick.end());
  BOOST_TEST(run(words, out, err) == arena::kExitComplianceFailed, out << err);
  BOOST_TEST(out.find("\nFAIL legal-moves: ") != std::string::npos, out);
  BOOST_TEST(out.find("\ncompliance: FAIL (") != std::string::npos, out);

  // Usage errors: no engine, two engines, a command that does not exist, a tournament option.
  BOOST_TEST(run({"--compliance"}, out, err) == arena::kExitUsage);
  BOOST_TEST(err.find("--compliance needs the engine to check") != std::string::npos, err);
  BOOST_TEST(run({"--compliance", "--engine", "cmd=" + kMock, "--engine", "cmd=" + kEngine}, out,
                 err) == arena::kExitUsage);
  BOOST_TEST(err.find("checks one engine, not 2") != std::string::npos, err);
  BOOST_TEST(run({"--compliance", "--engine", "cmd=/nonexistent/quixo-engine"}, out, err) ==
             arena::kExitUsage);
  BOOST_TEST(err.find("could not start") != std::string::npos, err);
  BOOST_TEST(run({"--compliance", "--engine", "cmd=" + kMock, "--rounds", "2"}, out, err) ==
             arena::kExitUsage);
  BOOST_TEST(run({"--compliance", "--help"}, out, err) == arena::kExitCompleted);
  BOOST_TEST(out.find("Usage: quixo-arena --compliance") == 0, out);
}

BOOST_AUTO_TEST_SUITE_END()
