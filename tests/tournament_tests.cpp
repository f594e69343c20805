// Tournaments: the schedule (pairings, game pairs with colours swapped, openings per round),
// the standings (trinomial and pentanomial counts, incidents per engine), validation of bad
// configurations, and the runner with scripted in-process engines: all games played and
// recorded in PGN and results file alike, crashes counted and restarted, SPRT stops, interrupts
// and --resume (also with a PGN game written but not recorded) reaching the same totals; and
// four-player tournaments under both seatings, with an engine that crashes in one seat.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "pgn.hpp"
#include "results_store.hpp"
#include "scripted_engine.hpp"
#include "tournament.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::arena;
using quixo::test::ScriptedPolicy;
using quixo::test::ScriptedReply;

namespace {

// A sink that keeps what it is told, and can interrupt after some games.
class RecordingSink : public ReportSink {
 public:
  explicit RecordingSink(std::atomic<bool>* interrupt = nullptr, std::int64_t stop_after = -1)
      : interrupt_(interrupt), stop_after_(stop_after) {}
  void tournament_started(const TournamentConfig&, const Standings& standings) override {
    games_at_start = standings.games;
  }
  void game_started(const TournamentConfig&, const ScheduledGame&) override { ++started; }
  void game_finished(const TournamentConfig&, const FinishedGame& game,
                     const Standings& standings) override {
    finished_ids.push_back(game.id);
    if (interrupt_ && standings.games == stop_after_) *interrupt_ = true;
  }
  void interval_report(const TournamentConfig&, const Standings&) override { ++interval_reports; }
  void tournament_finished(const TournamentConfig&, const Standings&, TournamentEnd end) override {
    last_end = end;
  }
  void warning(const std::string& text) override { warnings.push_back(text); }

  std::int64_t games_at_start = -1;
  int started = 0;
  int interval_reports = 0;
  std::vector<int> finished_ids;
  std::vector<std::string> warnings;
  std::optional<TournamentEnd> last_end;

 private:
  std::atomic<bool>* interrupt_;
  std::int64_t stop_after_;
};

// A pseudo-random legal move that depends only on the position and a seed, so that games vary
// from opening to opening but a replay gives the same game.
ScriptedPolicy seeded_moves(std::uint64_t seed) {
  return [seed](const uqi::Game& game, int) {
    const auto moves = uqi::legal_move_texts(game);
    std::uint64_t hash = seed * 0x9E3779B97F4A7C15ULL;
    for (const char c : uqi::position_text(game))
      hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
    return quixo::test::play(moves[hash % moves.size()]);
  };
}

ScriptedPolicy illegal_moves() {
  return [](const uqi::Game&, int) {
    ScriptedReply reply;
    reply.lines = {"bestmove c3c1"};
    return reply;
  };
}

// Every engine's process is scripted by its name.
ProcessLauncher launcher_by_name(std::map<std::string, ScriptedPolicy> policies) {
  return [policies](const ProcessSpec& spec) -> std::unique_ptr<EngineProcess> {
    return std::make_unique<quixo::test::ScriptedProcess>(policies.at(spec.command));
  };
}

EngineConfig engine(const std::string& name) {
  EngineConfig config;
  config.name = name;
  config.process.command = name;  // the launcher picks the script by it
  return config;
}

std::vector<Opening> small_book() {
  return {{std::string(kStartPosition), {"b1b5"}},
          {std::string(kStartPosition), {"a1e1", "e5a5"}},
          {"5/5/2x2/5/5 o", {}},
          {std::string(kStartPosition), {"c1c5"}}};
}

std::vector<Opening> small_book4() {
  return {{std::string(kStartPosition4), {"b1b5x"}},
          {std::string(kStartPosition4), {"a1e1X", "e5a5o"}},
          {"5/5/2X2/5/5 2", {}},
          {std::string(kStartPosition4), {}}};
}

TournamentConfig two_engine_config(int rounds) {
  TournamentConfig config;
  config.engines = {engine("seeded-1"), engine("seeded-2")};
  config.rounds = rounds;
  config.time_control = TimeControl::fixed_nodes(100);
  config.rules.max_plies = 40;
  config.rules.stall_timeout = std::chrono::milliseconds(200);
  config.openings = small_book();
  config.report_interval = 0;
  return config;
}

const std::map<std::string, ScriptedPolicy> kPolicies = {
    {"seeded-1", seeded_moves(1)},
    {"seeded-2", seeded_moves(2)},
    {"seeded-3", seeded_moves(3)},
    {"illegal", illegal_moves()},
};

// A scratch folder, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int counter = 0;
    path =
        std::filesystem::temp_directory_path() /
        ("quixo-tournament-tests-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tournament_tests)

struct ScheduleSample {
  int engines;
  TournamentFormat format;
  int seeds;
  int rounds;
  std::size_t pairings;
};
std::ostream& operator<<(std::ostream& out, const ScheduleSample& s) {
  return out << s.engines << " engines, " << format_name(s.format) << ", " << s.rounds << " rounds";
}

BOOST_DATA_TEST_CASE(schedules_pair_every_opening_with_colours_swapped,
                     bdata::make(std::vector<ScheduleSample>{
                         {2, TournamentFormat::RoundRobin, 1, 3, 1},
                         {3, TournamentFormat::RoundRobin, 1, 2, 3},
                         {5, TournamentFormat::RoundRobin, 1, 1, 10},
                         {4, TournamentFormat::Gauntlet, 1, 2, 3},
                         {5, TournamentFormat::Gauntlet, 2, 1, 6}}),
                     sample) {
  TournamentConfig config;
  for (int i = 0; i < sample.engines; ++i)
    config.engines.push_back(engine("e" + std::to_string(i)));
  config.format = sample.format;
  config.seeds = sample.seeds;
  config.rounds = sample.rounds;
  config.openings = small_book();
  BOOST_REQUIRE_NO_THROW(validate(config));
  const auto schedule = make_schedule(config);
  BOOST_REQUIRE(schedule.size() == 2 * sample.pairings * static_cast<std::size_t>(sample.rounds));
  std::map<std::pair<std::size_t, std::size_t>, int> games_per_pairing;
  for (std::size_t i = 0; i < schedule.size(); i += 2) {
    const ScheduledGame& first = schedule[i];
    const ScheduledGame& second = schedule[i + 1];
    BOOST_TEST(first.id == static_cast<int>(i));
    BOOST_TEST(first.pair == second.pair);
    BOOST_TEST(first.x == second.o);
    BOOST_TEST(first.o == second.x);
    BOOST_TEST(format_opening(first.opening) == format_opening(second.opening));
    BOOST_TEST(format_opening(first.opening) ==
               format_opening(small_book()[static_cast<std::size_t>(first.round) % 4]));
    games_per_pairing[{std::min(first.x, first.o), std::max(first.x, first.o)}] += 2;
    if (sample.format == TournamentFormat::Gauntlet) {
      // Every game has exactly one seed in it.
      const auto seeds = static_cast<std::size_t>(sample.seeds);
      BOOST_TEST(((first.x < seeds) != (first.o < seeds)));
    }
  }
  BOOST_TEST(games_per_pairing.size() == sample.pairings);
  for (const auto& [pairing, games] : games_per_pairing) BOOST_TEST(games == 2 * sample.rounds);
}

BOOST_AUTO_TEST_CASE(without_a_book_every_game_starts_from_the_start_position) {
  TournamentConfig config = two_engine_config(2);
  config.openings.clear();
  for (const ScheduledGame& game : make_schedule(config)) {
    BOOST_TEST(game.opening.position == std::string(kStartPosition));
    BOOST_TEST(game.opening.moves.empty());
  }
}

// A configuration change that must be refused, and a word of the message.
struct BadConfig {
  std::string what;
  std::function<void(TournamentConfig&)> change;
  std::string message;
};
std::ostream& operator<<(std::ostream& out, const BadConfig& bad) {
  return out << bad.what;
}

BOOST_DATA_TEST_CASE(
    bad_configurations_are_refused,
    bdata::make(std::vector<BadConfig>{
        {"one engine", [](TournamentConfig& c) { c.engines.pop_back(); }, "two engines"},
        {"same names", [](TournamentConfig& c) { c.engines[1].name = c.engines[0].name; },
         "unique"},
        {"no command", [](TournamentConfig& c) { c.engines[0].process.command.clear(); },
         "no command"},
        {"no name", [](TournamentConfig& c) { c.engines[0].name.clear(); }, "name"},
        {"zero rounds", [](TournamentConfig& c) { c.rounds = 0; }, "rounds"},
        {"zero concurrency", [](TournamentConfig& c) { c.concurrency = 0; }, "concurrency"},
        {"gauntlet of seeds only",
         [](TournamentConfig& c) {
           c.format = TournamentFormat::Gauntlet;
           c.seeds = 2;
         },
         "seeds"},
        {"sprt with three engines",
         [](TournamentConfig& c) {
           c.engines.push_back(engine("seeded-3"));
           c.sprt = SprtParameters{};
         },
         "exactly two"},
        {"sprt bounds reversed",
         [](TournamentConfig& c) {
           c.sprt = SprtParameters{};
           c.sprt->elo0 = 5;
           c.sprt->elo1 = 0;
         },
         "SPRT"},
        {"repetitions 1", [](TournamentConfig& c) { c.rules.repetitions = 1; }, "repetitions"},
        {"four-player opening in a two-player tournament",
         [](TournamentConfig& c) {
           c.openings.push_back({std::string(kStartPosition4), {}});
         },
         "opening 5 (5/5/5/5/5 1) is a four-player position"},
        {"two-player book in a four-player tournament",
         [](TournamentConfig& c) { c.variant = Variant::FourPlayer; },
         "opening 1 (5/5/5/5/5 x moves b1b5) is a two-player position"},
    }),
    bad) {
  TournamentConfig config = two_engine_config(1);
  bad.change(config);
  try {
    validate(config);
    BOOST_ERROR("accepted: " << bad.what);
  } catch (const TournamentError& error) {
    BOOST_TEST(std::string(error.what()).find(bad.message) != std::string::npos, error.what());
  }
}

BOOST_AUTO_TEST_CASE(standings_count_games_pairs_and_incidents) {
  TournamentConfig config = two_engine_config(3);
  // Pair 0: first engine wins both (WW); pair 1: win and draw (WD); pair 2: only one game in.
  const std::vector<FinishedGame> games = {
      {0, 0, 0, 1, GameResult::XWins, Termination::Line, "", 10, "", false, false},
      {1, 0, 1, 0, GameResult::OWins, Termination::Crash, "", 3, "", false, false},
      {2, 1, 0, 1, GameResult::Draw, Termination::Repetition, "", 20, "", false, false},
      {3, 1, 1, 0, GameResult::OWins, Termination::TimeForfeit, "", 5, "", false, true},
      {4, 2, 0, 1, GameResult::XWins, Termination::IllegalMove, "", 7, "", true, false},
  };
  const Standings standings = compute_standings(config, games);
  BOOST_TEST(standings.games == 5);
  BOOST_TEST(standings.total_games == 6);
  BOOST_REQUIRE(standings.pairings.size() == 1u);
  const PairingTally& pairing = standings.pairings.front();
  BOOST_TEST(pairing.results.wins == 4);
  BOOST_TEST(pairing.results.draws == 1);
  BOOST_TEST(pairing.results.losses == 0);
  BOOST_TEST(pairing.pairs.counts[4] == 1);  // WW
  BOOST_TEST(pairing.pairs.counts[3] == 1);  // WD
  BOOST_TEST(pairing.pairs.pairs() == 2);
  const EngineTally& loser = standings.engines[1];
  BOOST_TEST(loser.crashes == 1);
  BOOST_TEST(loser.time_forfeits == 1);
  BOOST_TEST(loser.illegal_moves == 1);
  BOOST_TEST(loser.stalls == 0);
  BOOST_TEST(standings.engines[0].restarts == 2);
  BOOST_TEST(standings.engines[0].crashes == 0);
  BOOST_TEST(standings.terminations[static_cast<std::size_t>(Termination::Line)] == 1);
}

BOOST_AUTO_TEST_CASE(ratings_rank_three_engines) {
  TournamentConfig config;
  config.engines = {engine("a"), engine("b"), engine("c")};
  std::vector<FinishedGame> games;
  int id = 0;
  // a beats b and c, b beats c, with a few draws for finite ratings.
  const auto add = [&](std::size_t x, std::size_t o, GameResult result) {
    games.push_back({id++, 0, x, o, result, Termination::Line, "", 1, "", false, false});
  };
  for (int i = 0; i < 4; ++i) {
    add(0, 1, GameResult::XWins);
    add(2, 0, GameResult::OWins);
    add(1, 2, GameResult::XWins);
    add(1, 0, GameResult::Draw);
    add(2, 1, GameResult::Draw);
  }
  const Standings standings = compute_standings(config, games);
  const auto ratings = rate_engines(standings);
  BOOST_REQUIRE(ratings);
  BOOST_TEST(ratings->elo[0] > ratings->elo[1]);
  BOOST_TEST(ratings->elo[1] > ratings->elo[2]);
  BOOST_TEST(ratings->los[0][2] > 0.9);
}

BOOST_AUTO_TEST_CASE(a_tournament_records_every_game_in_pgn_and_results_alike) {
  TempDir dir;
  TournamentConfig config = two_engine_config(4);
  config.engines.push_back(engine("seeded-3"));
  config.concurrency = 2;
  config.report_interval = 4;
  config.pgn_path = dir.file("games.pgn");
  config.results_path = dir.file("results.json");
  std::atomic<bool> interrupt{false};
  RecordingSink sink;
  const TournamentOutcome outcome =
      run_tournament(config, sink, interrupt, launcher_by_name(kPolicies));
  BOOST_TEST(outcome.end == TournamentEnd::Completed);
  BOOST_TEST(outcome.standings.games == 24);
  BOOST_TEST(sink.finished_ids.size() == 24u);
  BOOST_TEST(sink.interval_reports == 5);  // after 4, 8, ..., 20 games; the final report is apart
  const auto recorded = read_results_file(config.results_path);
  const auto pgn = parse_pgn(read_file(config.pgn_path));
  BOOST_REQUIRE(recorded.size() == 24u);
  BOOST_REQUIRE(pgn.size() == 24u);
  std::map<int, GameResult> results_by_id;
  for (const FinishedGame& game : recorded) results_by_id[game.id] = game.result;
  for (const GameRecord& game : pgn) {
    const int id = std::stoi(game.round) - 1;
    BOOST_TEST(game.result == results_by_id.at(id));
    BOOST_TEST(game.x_name ==
               config.engines[make_schedule(config)[static_cast<std::size_t>(id)].x].name);
  }
  std::int64_t points_total = 0;
  for (const EngineTally& tally : outcome.standings.engines) points_total += tally.results.games();
  BOOST_TEST(points_total == 48);
}

BOOST_AUTO_TEST_CASE(an_engine_that_crashes_is_restarted_and_counted) {
  int go_total = 0;
  std::map<std::string, ScriptedPolicy> policies = kPolicies;
  // Crashes on every fifth `go` of its process; a restarted process counts afresh.
  policies["flaky"] = [&go_total](const uqi::Game& game, int go_count) {
    ++go_total;
    if (go_count == 4) {
      ScriptedReply reply;
      reply.crash = true;
      return reply;
    }
    return quixo::test::play(uqi::legal_move_texts(game).front());
  };
  TournamentConfig config = two_engine_config(3);
  config.engines[1] = engine("flaky");
  std::atomic<bool> interrupt{false};
  RecordingSink sink;
  const TournamentOutcome outcome =
      run_tournament(config, sink, interrupt, launcher_by_name(policies));
  BOOST_TEST(outcome.end == TournamentEnd::Completed);
  BOOST_TEST(outcome.standings.games == 6);
  const EngineTally& flaky = outcome.standings.engines[1];
  BOOST_TEST(flaky.crashes > 0);
  // Each crash but perhaps the last (after which no game was left) is followed by a restart.
  BOOST_TEST(flaky.restarts <= flaky.crashes);
  BOOST_TEST(flaky.restarts >= flaky.crashes - 1);
  BOOST_TEST(outcome.standings.engines[0].crashes == 0);
  BOOST_TEST(go_total > 0);
}

BOOST_DATA_TEST_CASE(sprt_stops_the_tournament_with_a_decision, bdata::make({true, false}),
                     strong_first) {
  TournamentConfig config = two_engine_config(500);
  config.engines = strong_first ? std::vector{engine("seeded-1"), engine("illegal")}
                                : std::vector{engine("illegal"), engine("seeded-1")};
  SprtParameters sprt;
  sprt.elo0 = 0;
  sprt.elo1 = 10;
  sprt.model = EloModel::Logistic;
  config.sprt = sprt;
  std::atomic<bool> interrupt{false};
  RecordingSink sink;
  const TournamentOutcome outcome =
      run_tournament(config, sink, interrupt, launcher_by_name(kPolicies));
  BOOST_TEST((outcome.end ==
              (strong_first ? TournamentEnd::SprtAcceptedH1 : TournamentEnd::SprtAcceptedH0)));
  BOOST_TEST(outcome.standings.games < outcome.standings.total_games);
  BOOST_REQUIRE(outcome.standings.sprt);
  BOOST_TEST((outcome.standings.sprt->decision ==
              (strong_first ? SprtResult::Decision::AcceptH1 : SprtResult::Decision::AcceptH0)));
}

BOOST_DATA_TEST_CASE(an_interrupted_tournament_resumes_to_the_same_totals,
                     bdata::make({1, 2}) * bdata::make({false, true}) * bdata::make({false, true}),
                     concurrency, torn_pgn_game, four_players) {
  TempDir straight_dir;
  TournamentConfig straight = two_engine_config(6);
  straight.engines.push_back(engine("seeded-3"));
  if (four_players) {
    straight.variant = Variant::FourPlayer;
    straight.seating = concurrency == 1 ? Seating::PerSeat : Seating::PerTeam;
    straight.openings = small_book4();
  }
  straight.pgn_path = straight_dir.file("games.pgn");
  straight.results_path = straight_dir.file("results.json");
  std::atomic<bool> no_interrupt{false};
  RecordingSink straight_sink;
  const TournamentOutcome expected =
      run_tournament(straight, straight_sink, no_interrupt, launcher_by_name(kPolicies));

  TempDir dir;
  TournamentConfig config = straight;
  config.concurrency = concurrency;
  config.pgn_path = dir.file("games.pgn");
  config.results_path = dir.file("results.json");
  std::atomic<bool> interrupt{false};
  RecordingSink first_sink(&interrupt, 7);
  const TournamentOutcome first =
      run_tournament(config, first_sink, interrupt, launcher_by_name(kPolicies));
  BOOST_TEST(first.end == TournamentEnd::Interrupted);
  BOOST_TEST(first.standings.games >= 7);
  BOOST_TEST(first.standings.games < first.standings.total_games);
  if (torn_pgn_game) {
    // A game that reached the PGN but not the results file when the arena was killed.
    std::ofstream pgn(config.pgn_path, std::ios::app);
    pgn << "[Event \"quixo-arena\"]\n[Site \"?\"]\n[Round \"99\"]\n1. b1b5 {+0.1";
  }

  config.resume = true;
  std::atomic<bool> still{false};
  RecordingSink second_sink;
  const TournamentOutcome second =
      run_tournament(config, second_sink, still, launcher_by_name(kPolicies));
  BOOST_TEST(second.end == TournamentEnd::Completed);
  BOOST_TEST(second_sink.games_at_start == first.standings.games);
  BOOST_TEST(second.standings.games == expected.standings.games);
  for (std::size_t i = 0; i < expected.standings.pairings.size(); ++i) {
    BOOST_CHECK(second.standings.pairings[i].results == expected.standings.pairings[i].results);
    BOOST_CHECK(second.standings.pairings[i].pairs == expected.standings.pairings[i].pairs);
  }
  const auto pgn = parse_pgn(read_file(config.pgn_path));
  BOOST_TEST(pgn.size() == static_cast<std::size_t>(expected.standings.games));
  BOOST_TEST(read_results_file(config.results_path).size() == pgn.size());
}

BOOST_AUTO_TEST_CASE(resume_refuses_the_results_of_another_tournament) {
  TempDir dir;
  TournamentConfig config = two_engine_config(1);
  config.results_path = dir.file("results.json");
  std::atomic<bool> interrupt{false};
  RecordingSink sink;
  run_tournament(config, sink, interrupt, launcher_by_name(kPolicies));
  config.rounds = 2;
  config.resume = true;
  BOOST_CHECK_EXCEPTION(run_tournament(config, sink, interrupt, launcher_by_name(kPolicies)),
                        TournamentError, [](const TournamentError& error) {
                          return std::string(error.what()).find("another tournament") !=
                                 std::string::npos;
                        });
}

BOOST_AUTO_TEST_CASE(an_engine_that_cannot_start_stops_the_tournament_before_it_begins) {
  TournamentConfig config = two_engine_config(1);
  std::atomic<bool> interrupt{false};
  RecordingSink sink;
  const ProcessLauncher broken = [](const ProcessSpec& spec) -> std::unique_ptr<EngineProcess> {
    if (spec.command == "seeded-2") throw ProcessStartError("seeded-2: no such file");
    return std::make_unique<quixo::test::ScriptedProcess>(seeded_moves(1));
  };
  BOOST_CHECK_EXCEPTION(run_tournament(config, sink, interrupt, broken), TournamentError,
                        [](const TournamentError& error) {
                          return std::string(error.what()).find("seeded-2") != std::string::npos;
                        });
  BOOST_TEST(sink.started == 0);
}

// ------------------------------------------------------------------------------ four players

namespace {

TournamentConfig four_player_config(int rounds, Seating seating) {
  TournamentConfig config = two_engine_config(rounds);
  config.variant = Variant::FourPlayer;
  config.seating = seating;
  config.openings = small_book4();
  return config;
}

// Counts the processes launched for each engine.
struct LaunchCounts {
  std::mutex mutex;
  std::map<std::string, int> by_command;
};
ProcessLauncher counting(ProcessLauncher launcher, std::shared_ptr<LaunchCounts> counts) {
  return [launcher, counts](const ProcessSpec& spec) {
    {
      std::lock_guard guard(counts->mutex);
      ++counts->by_command[spec.command];
    }
    return launcher(spec);
  };
}

// Crashes (or falls silent, a stall under a node limit) on the third `go` of each of its
// processes.
ScriptedPolicy fails_on_third_move(bool crash) {
  return [crash](const uqi::Game& game, int go_count) {
    if (go_count == 2) {
      ScriptedReply reply;
      reply.crash = crash;
      return reply;
    }
    return quixo::test::play(uqi::legal_move_texts(game).front());
  };
}

}  // namespace

BOOST_DATA_TEST_CASE(four_player_schedules_start_from_the_four_player_start,
                     bdata::make({Seating::PerSeat, Seating::PerTeam}), seating) {
  TournamentConfig config = four_player_config(2, seating);
  config.openings.clear();
  BOOST_REQUIRE_NO_THROW(validate(config));
  const auto schedule = make_schedule(config);
  BOOST_REQUIRE(schedule.size() == 4u);
  for (const ScheduledGame& game : schedule) BOOST_TEST(game.opening.position == "5/5/5/5/5 1");
  // A pair swaps which engine is team A.
  BOOST_TEST(schedule[0].x == schedule[1].o);
  BOOST_TEST(schedule[0].o == schedule[1].x);
}

BOOST_DATA_TEST_CASE(a_four_player_tournament_survives_a_failing_seat,
                     bdata::make({Seating::PerSeat, Seating::PerTeam}) * bdata::make({1, 2}) *
                         bdata::make({true, false}),
                     seating, concurrency, crash) {
  TempDir dir;
  TournamentConfig config = four_player_config(4, seating);
  config.engines[1] = engine("flaky");
  config.concurrency = concurrency;
  config.pgn_path = dir.file("games.pgn");
  config.results_path = dir.file("results.json");
  std::map<std::string, ScriptedPolicy> policies = kPolicies;
  policies["flaky"] = fails_on_third_move(crash);
  const auto launches = std::make_shared<LaunchCounts>();
  std::atomic<bool> interrupt{false};
  RecordingSink sink;
  const TournamentOutcome outcome =
      run_tournament(config, sink, interrupt, counting(launcher_by_name(policies), launches));
  BOOST_TEST(outcome.end == TournamentEnd::Completed);
  BOOST_TEST(outcome.standings.games == 8);

  // Every game ends the same way: flaky's seat (or team process) fails on its third move and its
  // team loses. Games go on after each failure, with the failed process restarted.
  const auto recorded = read_results_file(config.results_path);
  BOOST_REQUIRE(recorded.size() == 8u);
  for (const FinishedGame& game : recorded) {
    BOOST_TEST_CONTEXT("game " << game.id + 1 << ": " << game.reason) {
      BOOST_TEST(game.termination == (crash ? Termination::Crash : Termination::Stall));
      BOOST_TEST(game.result == (game.x == 1 ? GameResult::OWins : GameResult::XWins));
      BOOST_TEST(game.reason.find("flaky") != std::string::npos);
      BOOST_TEST(game.reason.find("seat ") != std::string::npos);
    }
  }
  const EngineTally& flaky = outcome.standings.engines[1];
  BOOST_TEST(flaky.results.losses == 8);
  BOOST_TEST((crash ? flaky.crashes : flaky.stalls) == 8);
  BOOST_TEST(outcome.standings.engines[0].crashes == 0);
  BOOST_TEST(outcome.standings.engines[0].stalls == 0);
  BOOST_TEST(outcome.standings.engines[0].restarts == 0);
  // Each failure ends one process of flaky; the next game of that worker restarts it.
  BOOST_TEST(flaky.restarts >= 8 - concurrency);
  BOOST_TEST(flaky.restarts <= 8);
  // Per seat, each worker runs two processes of each engine; per team, one. The probe before the
  // tournament starts one more. (A worker may find no game left to play when it starts.)
  const int per_worker = seating == Seating::PerSeat ? 2 : 1;
  BOOST_TEST(launches->by_command["seeded-1"] >= 1 + per_worker);
  BOOST_TEST(launches->by_command["seeded-1"] <= 1 + per_worker * concurrency);
  BOOST_TEST(launches->by_command["flaky"] ==
             launches->by_command["seeded-1"] + static_cast<int>(flaky.restarts));

  // The PGN holds the same games, as four-player team games.
  const auto pgn = parse_pgn(read_file(config.pgn_path));
  BOOST_REQUIRE(pgn.size() == 8u);
  const std::vector<ScheduledGame> schedule = make_schedule(config);
  for (const GameRecord& game : pgn) {
    const ScheduledGame& scheduled =
        schedule.at(static_cast<std::size_t>(std::stoi(game.round) - 1));
    const std::string& a = config.engines[scheduled.x].name;
    const std::string& b = config.engines[scheduled.o].name;
    BOOST_REQUIRE(game.four_player.has_value());
    BOOST_TEST(game.four_player->seating == seating);
    BOOST_TEST((game.four_player->names == std::array<std::string, 4>{a, b, a, b}));
    BOOST_TEST(game.x_name == a);
    BOOST_TEST(game.o_name == b);
    BOOST_TEST(game.start_position == scheduled.opening.position);
  }
}

BOOST_AUTO_TEST_CASE(four_player_results_refuse_a_resume_with_another_seating_or_variant) {
  TempDir dir;
  TournamentConfig config = four_player_config(1, Seating::PerSeat);
  config.results_path = dir.file("results.json");
  std::atomic<bool> interrupt{false};
  RecordingSink sink;
  BOOST_TEST(run_tournament(config, sink, interrupt, launcher_by_name(kPolicies)).end ==
             TournamentEnd::Completed);
  config.resume = true;
  // The same tournament resumes (and has nothing left to play).
  RecordingSink again;
  BOOST_TEST(
      run_tournament(config, again, interrupt, launcher_by_name(kPolicies)).standings.games == 2);
  BOOST_TEST(again.started == 0);
  const auto refused = [](const TournamentError& error) {
    return std::string(error.what()).find("another tournament") != std::string::npos;
  };
  config.seating = Seating::PerTeam;
  BOOST_CHECK_EXCEPTION(run_tournament(config, sink, interrupt, launcher_by_name(kPolicies)),
                        TournamentError, refused);
  TournamentConfig two_player = two_engine_config(1);
  two_player.results_path = config.results_path;
  two_player.resume = true;
  BOOST_CHECK_EXCEPTION(run_tournament(two_player, sink, interrupt, launcher_by_name(kPolicies)),
                        TournamentError, refused);
}

BOOST_AUTO_TEST_SUITE_END()
