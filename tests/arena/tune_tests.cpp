// SPSA tuning (arena/spsa.hpp, arena/tune.hpp, `quixo-arena tune`): fishtest's schedules and
// update, the journal that a run resumes from, and, end to end with quixo-mock-engine's tunable
// mode (whose strength falls with the distance of its options TuneA and TuneB from a secret
// optimum), that SPSA finds that optimum, resumes after kill -9 and shares one theta between
// shards.
#include <signal.h>
#include <unistd.h>

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "spsa.hpp"
#include "support/child_process.hpp"
#include "support/sanitizers.hpp"
#include "support/temp_dir.hpp"
#include "tune.hpp"

BOOST_AUTO_TEST_SUITE(tune_tests)

namespace {

namespace arena = quixo::arena;
namespace bdata = boost::unit_test::data;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Args = std::vector<std::string>;
using quixo::testing::EngineProcess;

const std::string kArena = QUIXO_ARENA_BINARY;
const std::string kMock = QUIXO_MOCK_ENGINE_BINARY;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

using TempDir = quixo::testing::TempDir;

struct Run {
  int code = -1;
  std::string out, err;
};

std::ostream& operator<<(std::ostream& out, const Run& run) {
  return out << "exit " << run.code << "\n--- stderr:\n" << run.err << "--- stdout:\n" << run.out;
}

Run run_arena(const Args& args, const TempDir& dir, const std::string& name = "run") {
  Run run;
  {
    EngineProcess process(kArena, args, EngineProcess::Stderr::File, dir.file(name + ".err"));
    process.close_input();
    process.read_for(120s);
    run.code = process.wait_exit(5s).value_or(-1);
    for (const std::string& line : process.lines_read()) run.out += line + "\n";
  }
  run.err = read_text(dir.file(name + ".err"));
  BOOST_TEST(!contains(run.err, "runtime error:"), run);
  BOOST_TEST(!contains(run.err, "Sanitizer"), run);
  return run;
}

// A tuning run of the mock: TuneA and TuneB from 100, the mock's optimum (150, 50). `mock_seed`
// fixes the mock's choices; with one pair at a time the run is then the same every time.
Args tune_args(const TempDir& dir, int iterations, const Args& more = {},
               const std::string& concurrency = "2", const std::string& mock_seed = "") {
  Args args = {"tune",
               "--engine",
               "cmd=" + kMock,
               "args=--mode tunable" + (mock_seed.empty() ? "" : " --random-seed " + mock_seed),
               "--tc",
               "nodes=1",
               "--param",
               "TuneA=100,0,200,10,0.025",
               "--param",
               "TuneB=100,0,200,10,0.025",
               "--iterations",
               std::to_string(iterations),
               "--concurrency",
               concurrency,
               "--state",
               dir.file("state.jsonl"),
               "--report-interval",
               "0"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<double> final_values(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  std::vector<double> values;
  std::istringstream fields(last);
  std::string field;
  for (int column = 0; std::getline(fields, field, ','); ++column)
    if (column >= 3) values.push_back(std::stod(field));
  return values;
}

std::size_t report_lines(const std::string& path) {
  const std::string text = read_text(path);
  std::size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines == 0 ? 0 : lines - 1;  // the header
}

arena::Spsa two_parameter_spsa(std::int64_t iterations = 1000) {
  return arena::Spsa({arena::parse_spsa_parameter("A=100,0,200,10,0.05"),
                      arena::parse_spsa_parameter("B=50,0,100,4")},
                     arena::SpsaSchedule{iterations, -1, 0.602, 0.101});
}

struct BadParameter {
  const char* text;
  const char* says;
};
std::ostream& operator<<(std::ostream& out, const BadParameter& bad) {
  return out << bad.text;
}

const BadParameter kBadParameters[] = {
    {"Threads", "expected NAME=start"},
    {"=1,0,2,1", "name is empty"},
    {"X=1,0,2", "expected start,min,max,c_end"},
    {"X=1,0,2,1,0.1,7", "expected start,min,max,c_end"},
    {"X=one,0,2,1", "start must be a number"},
    {"X=1,2,2,1", "min must be below max"},
    {"X=5,0,2,1", "outside [0, 2]"},
    {"X=1,0,20,0.2", "c_end must be at least 0.5"},
    {"X=1,0,2,3", "wider than [min, max]"},
    {"X=1,0,20,1,0", "r_end must be positive"},
    {"X=1,0,20,1,nan", "r_end must be a number"},
};

}  // namespace

BOOST_AUTO_TEST_CASE(a_parameter_is_read_in_fishtests_form) {
  const arena::SpsaParameter parameter = arena::parse_spsa_parameter("Aspiration Delta=20,5,60,4");
  BOOST_TEST(parameter.name == "Aspiration Delta");
  BOOST_TEST(parameter.start == 20);
  BOOST_TEST(parameter.min == 5);
  BOOST_TEST(parameter.max == 60);
  BOOST_TEST(parameter.c_end == 4);
  BOOST_TEST(parameter.r_end == 0.002);  // fishtest's default
  BOOST_TEST(arena::parse_spsa_parameter("X=1.5,0,3,0.5,0.01").r_end == 0.01);
  // What the run prints to go on from is read back as it was.
  BOOST_TEST((arena::parse_spsa_parameter(arena::format_spsa_parameter(parameter, 23.25)) ==
              arena::SpsaParameter{"Aspiration Delta", 23.25, 5, 60, 4, 0.002}));
}

BOOST_DATA_TEST_CASE(a_bad_parameter_is_refused_saying_why, bdata::make(kBadParameters), bad) {
  try {
    static_cast<void>(arena::parse_spsa_parameter(bad.text));
    BOOST_FAIL("accepted " << bad.text);
  } catch (const std::invalid_argument& error) {
    BOOST_TEST(contains(error.what(), bad.says), error.what());
  }
}

BOOST_AUTO_TEST_CASE(the_schedules_end_at_c_end_and_r_end) {
  const arena::Spsa spsa = two_parameter_spsa(1000);
  BOOST_TEST(spsa.stability_constant() == 100.0);  // a tenth of the iterations
  for (std::size_t i = 0; i < 2; ++i) {
    const arena::SpsaParameter& parameter = spsa.parameters()[i];
    BOOST_TEST(spsa.c_at(i, 1000) == parameter.c_end, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(spsa.a_at(i, 1000) / std::pow(spsa.c_at(i, 1000), 2) == parameter.r_end,
               boost::test_tools::tolerance(1e-9));
    BOOST_TEST(spsa.c_at(i, 1) == parameter.c_end * std::pow(1000.0, 0.101),
               boost::test_tools::tolerance(1e-9));
    // a_1 / a_N = ((A + N) / (A + 1))^alpha
    BOOST_TEST(spsa.a_at(i, 1) / spsa.a_at(i, 1000) == std::pow(1100.0 / 101.0, 0.602),
               boost::test_tools::tolerance(1e-9));
  }
}

BOOST_AUTO_TEST_CASE(a_report_moves_theta_along_its_flips_and_stays_in_range) {
  const arena::Spsa spsa = two_parameter_spsa(1000);
  std::vector<double> theta = spsa.start();
  const arena::SpsaReport report{10, {1, -1}, 2, 2, 0, 0, 0, 0};
  spsa.apply(theta, report);
  BOOST_TEST(theta[0] == 100 + spsa.a_at(0, 10) / spsa.c_at(0, 10) * 2,
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(theta[1] == 50 - spsa.a_at(1, 10) / spsa.c_at(1, 10) * 2,
             boost::test_tools::tolerance(1e-12));
  // A draw on both games moves nothing; the range holds theta however far the steps go.
  const std::vector<double> before = theta;
  spsa.apply(theta, arena::SpsaReport{11, {1, 1}, 0, 1, 1, 0, 0, 1});
  BOOST_TEST(theta == before);
  for (int i = 0; i < 5000; ++i) spsa.apply(theta, arena::SpsaReport{1, {1, -1}, 2, 2, 0, 0, 0, 0});
  BOOST_TEST(theta[0] == 200.0);
  BOOST_TEST(theta[1] == 0.0);
  // The probes: theta +- c_k * flip, clamped.
  std::mt19937_64 random(3);
  const arena::SpsaProbe probe = spsa.probe(theta, 1, random);
  for (std::size_t i = 0; i < 2; ++i) {
    const double c = spsa.c_at(i, 1);
    const arena::SpsaParameter& parameter = spsa.parameters()[i];
    BOOST_TEST(probe.plus[i] ==
               std::clamp(theta[i] + c * probe.flips[i], parameter.min, parameter.max));
    BOOST_TEST(probe.minus[i] ==
               std::clamp(theta[i] - c * probe.flips[i], parameter.min, parameter.max));
  }
}

BOOST_AUTO_TEST_CASE(shards_that_see_the_same_reports_agree_on_theta) {
  const arena::Spsa spsa = two_parameter_spsa(1000);
  std::vector<arena::SpsaReport> reports;
  std::mt19937_64 random(9);
  for (int serial = 0; serial < 300; ++serial) {
    const int result = int(random() % 5) - 2;
    reports.push_back({std::int64_t(1 + serial / 3),
                       {(random() & 1) ? 1 : -1, -1},
                       result,
                       std::max(result, 0),
                       std::max(-result, 0),
                       2 - std::abs(result),
                       int(serial % 3),
                       serial});
  }
  std::vector<arena::SpsaReport> shuffled = reports;
  std::shuffle(shuffled.begin(), shuffled.end(), random);
  arena::sort_reports(shuffled);
  arena::sort_reports(reports);
  BOOST_TEST((shuffled == reports));
  BOOST_TEST((spsa.replay(shuffled) == spsa.replay(reports)));
}

BOOST_AUTO_TEST_CASE(the_journal_keeps_whole_lines_and_drops_a_cut_one) {
  const TempDir dir;
  const arena::Spsa spsa = two_parameter_spsa(50);
  const arena::SpsaReport first{1, {1, -1}, 1, 1, 0, 1, 0, 0};
  const arena::SpsaReport second{2, {-1, -1}, -2, 0, 2, 0, 0, 1};
  {
    std::ofstream out(dir.file("j"), std::ios::binary);
    out << arena::tune_header_line(spsa) << arena::tune_report_line(first)
        << arena::tune_report_line(second) << R"({"k":3,"flips":"+)";  // killed mid-line
  }
  const auto journal = arena::read_tune_journal(dir.file("j"), 0);
  BOOST_TEST_REQUIRE(journal.has_value());
  BOOST_TEST((journal->parameters == spsa.parameters()));
  BOOST_TEST((journal->schedule == spsa.schedule()));
  BOOST_TEST_REQUIRE(journal->reports.size() == 2u);
  BOOST_TEST((journal->reports[0] == first));
  BOOST_TEST((journal->reports[1] == second));
  BOOST_TEST(!arena::read_tune_journal(dir.file("missing"), 0).has_value());
  // A whole line that is not a report names the file and the line.
  {
    std::ofstream out(dir.file("bad"), std::ios::binary);
    out << arena::tune_header_line(spsa) << arena::tune_report_line(first)
        << R"({"k":2,"flips":"+-","result":2,"wins":0,"losses":0,"draws":2,"serial":1})"
        << "\n";
  }
  try {
    static_cast<void>(arena::read_tune_journal(dir.file("bad"), 0));
    BOOST_FAIL("a report whose result is not its wins less its losses was read");
  } catch (const std::runtime_error& error) {
    BOOST_TEST(contains(error.what(), "line 3"), error.what());
  }
}

BOOST_AUTO_TEST_CASE(the_csv_and_the_page_follow_theta) {
  const arena::Spsa spsa = two_parameter_spsa(50);
  const std::vector<arena::SpsaReport> reports = {{1, {1, -1}, 2, 2, 0, 0, 0, 0},
                                                  {2, {1, 1}, -1, 0, 1, 1, 0, 1}};
  const std::string csv = arena::tune_csv(spsa, reports);
  BOOST_TEST(csv.starts_with("iteration,k,result,A,B\n0,0,0,100.0000,50.0000\n"));
  const std::vector<double> last = final_values(csv);
  const std::vector<double> theta = spsa.replay(reports);
  BOOST_TEST_REQUIRE(last.size() == 2u);
  for (std::size_t i = 0; i < 2; ++i) BOOST_TEST(std::abs(last[i] - theta[i]) < 1e-4);
  const std::string page = arena::tune_html(spsa, reports, "engine <1>");
  BOOST_TEST(contains(page, "engine &lt;1&gt;"));
  std::size_t lines = 0;
  for (std::size_t at = page.find("<polyline"); at != std::string::npos;
       at = page.find("<polyline", at + 1))
    ++lines;
  BOOST_TEST(lines == 2u);  // one trajectory per parameter
  BOOST_TEST(contains(page, "data-values=\"0:100.000 1:"));
}

// SPSA finds the mock's optimum: from (100, 100), 71 from (150, 50), 1000 pairs end within 25
// of it. The run is made repeatable (the mock's seed, one pair at a time) so that the test
// cannot fail by chance; over 20 runs with other seeds and two pairs at a time the ends were 1 to
// 23 away (README). Under a sanitizer the run is short and only its mechanics are checked.
BOOST_AUTO_TEST_CASE(spsa_finds_the_optimum_of_a_mock_engine) {
  const TempDir dir;
#if defined(QUIXO_ADDRESS_SANITIZER) || defined(QUIXO_THREAD_SANITIZER)
  const int iterations = 30;
#else
  const int iterations = 1000;
#endif
  const Run run = run_arena(
      tune_args(dir, iterations, {"--report-html", dir.file("tune.html")}, "1", "1"), dir);
  BOOST_TEST_REQUIRE(run.code == 0, run);
  BOOST_TEST(contains(run.out, "Finished after " + std::to_string(iterations) + " of " +
                                   std::to_string(iterations) + " game pairs"),
             run);
  BOOST_TEST(report_lines(dir.file("state.jsonl")) == std::size_t(iterations));
  const std::string csv = read_text(dir.file("state.jsonl.csv"));
  const std::vector<double> theta = final_values(csv);
  BOOST_TEST_REQUIRE(theta.size() == 2u, csv.substr(0, 200));
  BOOST_TEST(contains(run.out, "option.TuneA=" + std::to_string(std::llround(theta[0]))), run);
  BOOST_TEST(contains(read_text(dir.file("tune.html")), "<polyline"));
#if !defined(QUIXO_ADDRESS_SANITIZER) && !defined(QUIXO_THREAD_SANITIZER)
  const double distance = std::hypot(theta[0] - 150, theta[1] - 50);
  BOOST_TEST(distance < 25.0, "theta ended at (" << theta[0] << ", " << theta[1] << ")");
#endif
}

BOOST_AUTO_TEST_CASE(a_run_killed_with_sigkill_resumes_from_its_state_file) {
  const TempDir dir;
  const int iterations = 300;
  {
    EngineProcess process(kArena, tune_args(dir, iterations), EngineProcess::Stderr::File,
                          dir.file("killed.err"));
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (report_lines(dir.file("state.jsonl")) < 40) {
      BOOST_TEST_REQUIRE(!process.wait_exit(0ms).has_value(), "the run ended before the kill");
      BOOST_TEST_REQUIRE((std::chrono::steady_clock::now() < deadline), "no 40 pairs recorded");
      process.read_for(1ms);
    }
    ::kill(process.pid(), SIGKILL);
    BOOST_TEST_REQUIRE(process.wait_exit(10s).value_or(-1) == 128 + SIGKILL);
  }
  const std::size_t at_kill = report_lines(dir.file("state.jsonl"));
  BOOST_TEST_REQUIRE(at_kill < std::size_t(iterations), "the run was over before the kill");
  // As if the kill had cut a line in half.
  {
    std::ofstream out(dir.file("state.jsonl"), std::ios::binary | std::ios::app);
    out << R"({"k":99,"fli)";
  }
  const Run resumed = run_arena(tune_args(dir, iterations), dir);
  BOOST_TEST_REQUIRE(resumed.code == 0, resumed);
  BOOST_TEST(contains(resumed.out, "resumed after " + std::to_string(at_kill)), resumed);
  const auto journal = arena::read_tune_journal(dir.file("state.jsonl"), 0);
  BOOST_TEST_REQUIRE(journal.has_value());
  BOOST_TEST(journal->reports.size() == std::size_t(iterations));
  std::set<std::int64_t> serials;
  for (const arena::SpsaReport& report : journal->reports) serials.insert(report.serial);
  BOOST_TEST(serials.size() == std::size_t(iterations));  // nothing counted twice
  // A finished run, run again, plays nothing.
  const Run again = run_arena(tune_args(dir, iterations), dir, "again");
  BOOST_TEST(again.code == 0, again);
  BOOST_TEST(contains(again.out, "(0 played now)"), again);
}

// Two shards on one state path play around one theta: each hands out its pairs at the iteration
// that every shard's reports have reached, so a shard's iteration numbers run past its own count.
BOOST_AUTO_TEST_CASE(shards_share_one_theta_through_their_state_files) {
  const TempDir dir;
  const int iterations = 200;
  std::vector<std::unique_ptr<EngineProcess>> shards;
  for (int shard = 1; shard <= 2; ++shard)
    shards.push_back(std::make_unique<EngineProcess>(
        kArena, tune_args(dir, iterations, {"--shard", std::to_string(shard) + "/2"}),
        EngineProcess::Stderr::File, dir.file("shard" + std::to_string(shard) + ".err")));
  for (auto& shard : shards) {
    shard->read_for(60s);
    BOOST_TEST(shard->wait_exit(5s).value_or(-1) == 0,
               read_text(dir.file("shard1.err")) + read_text(dir.file("shard2.err")));
  }
  std::size_t total = 0;
  for (int shard = 1; shard <= 2; ++shard) {
    const std::string path = dir.file("state.shard-" + std::to_string(shard) + "-of-2.jsonl");
    const auto journal = arena::read_tune_journal(path, shard);
    BOOST_TEST_REQUIRE(journal.has_value(), path);
    BOOST_TEST(!journal->reports.empty());
    std::int64_t highest = 0;
    for (const arena::SpsaReport& report : journal->reports) highest = std::max(highest, report.k);
    BOOST_TEST(highest > std::int64_t(journal->reports.size()), "shard " << shard);
    total += journal->reports.size();
  }
  // Together they played the run, and at most the pairs in play at its end beyond it.
  BOOST_TEST(total >= std::size_t(iterations));
  BOOST_TEST(total <= std::size_t(iterations) + 4);
  BOOST_TEST(fs::exists(dir.file("state.jsonl.shard-1-of-2.csv")));
}

BOOST_AUTO_TEST_CASE(a_run_that_cannot_tune_says_why) {
  const TempDir dir;
  // An option the engine does not declare.
  Run run = run_arena(
      {"tune", "--engine", "cmd=" + kMock, "args=--mode tunable", "--tc", "nodes=1", "--param",
       "NoSuch=5,0,10,1", "--iterations", "10", "--state", dir.file("a.jsonl")},
      dir, "undeclared");
  BOOST_TEST(run.code == 2, run);
  BOOST_TEST(contains(run.err, "NoSuch: the engine \"quixo-mock-engine\" declares no such option"),
             run);
  // A range wider than the engine's.
  run = run_arena(
      {"tune", "--engine", "cmd=" + kMock, "args=--mode tunable", "--tc", "nodes=1", "--param",
       "TuneA=100,0,500,10", "--iterations", "10", "--state", dir.file("b.jsonl")},
      dir, "range");
  BOOST_TEST(run.code == 2, run);
  BOOST_TEST(contains(run.err, "wider than the engine's [0, 200]"), run);
  // Another run's state file.
  run = run_arena(tune_args(dir, 5), dir, "first");
  BOOST_TEST_REQUIRE(run.code == 0, run);
  run = run_arena(tune_args(dir, 6), dir, "other");
  BOOST_TEST(run.code == 2, run);
  BOOST_TEST(contains(run.err, "is another tuning run's"), run);
  // What the command line lacks or does not take.
  run = run_arena({"tune", "--engine", "cmd=" + kMock, "--param", "TuneA=100,0,200,10"}, dir,
                  "no-iterations");
  BOOST_TEST(run.code == 2, run);
  BOOST_TEST(contains(run.err, "tune needs --iterations N"), run);
  run = run_arena({"tune", "--engine", "cmd=" + kMock, "--param", "TuneA=100,0,200,10",
                   "--iterations", "5", "--state", dir.file("c.jsonl"), "--sprt", "elo0=0 elo1=5"},
                  dir, "sprt");
  BOOST_TEST(run.code == 2, run);
  BOOST_TEST(contains(run.err, "tune takes no --sprt"), run);
}

BOOST_AUTO_TEST_SUITE_END()
