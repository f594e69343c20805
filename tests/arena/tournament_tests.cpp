// Tournaments: the schedule (pairings, game pairs with colours swapped, openings per round),
// the standings (trinomial and pentanomial counts, incidents per engine), validation of bad
// configurations, and the runner with scripted in-process engines: all games played and
// recorded in PGN and results file alike, crashes counted and restarted, SPRT stops, interrupts
// and --resume (also with a PGN game written but not recorded) reaching the same totals;
// four-player tournaments under both seatings, with an engine that crashes in one seat; and the
// endgame tables (--tb, the fixture's tables): loaded once, their games in PGN and results file,
// through a resume, refused folders and files.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/thread_start.hpp"
#include "pgn_reader.hpp"
#include "report_arena.hpp"
#include "report_styles.hpp"
#include "results_store.hpp"
#include "support/arena_printing.hpp"
#include "support/scripted_engine.hpp"
#include "support/test_tables.hpp"
#include "support/tournament_fixtures.hpp"
#include "tournament.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::arena;
using quixo::test::ScriptedPolicy;
using quixo::test::ScriptedReply;
using namespace quixo::test;

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
         "an SPRT needs two engines (the first is the one tested), or a gauntlet with one seed"},
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
  const auto ratings = rate_engines(config, standings);
  BOOST_REQUIRE(ratings);
  BOOST_TEST(ratings->elo[0] > ratings->elo[1]);
  BOOST_TEST(ratings->elo[1] > ratings->elo[2]);
  BOOST_TEST(ratings->los[0][2] > 0.9);
  // The report's LOS matrix, in rank order (a, b, c here), as Ordo's: row over column, in %.
  const std::string report = format_rating_report(config, standings);
  const std::size_t matrix = report.find("\nLOS ");
  BOOST_REQUIRE_MESSAGE(matrix != std::string::npos, report);
  std::istringstream lines(report.substr(matrix + 1));
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  BOOST_REQUIRE(rows.size() >= 4u);
  // The first row is the best engine's: "-" against itself, then its LOS over the other two.
  const auto percent = [](double likelihood) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << 100.0 * likelihood;
    return text.str();
  };
  BOOST_TEST(rows[1].starts_with(config.engines[0].name), report);
  BOOST_TEST(rows[1].find(" -") != std::string::npos, report);
  BOOST_TEST(rows[1].find(percent(ratings->los[0][1])) != std::string::npos, report);
  BOOST_TEST(rows[1].find(percent(ratings->los[0][2])) != std::string::npos, report);

  // --anchor: the named engine gets the given rating, the differences stay, and the anchor's own
  // error is zero (the others' are relative to it).
  config.anchor = RatingAnchor{config.engines[1].name, 2000.0};
  const auto anchored = rate_engines(config, standings);
  BOOST_REQUIRE(anchored);
  BOOST_TEST(anchored->elo[1] == 2000.0);
  BOOST_TEST(anchored->error[1] == 0.0);
  for (std::size_t i = 0; i < 3; ++i)
    BOOST_TEST(anchored->elo[i] - anchored->elo[1] == ratings->elo[i] - ratings->elo[1],
               boost::test_tools::tolerance(1e-6));
  config.anchor = RatingAnchor{"nobody", 0.0};
  BOOST_CHECK_THROW(validate(config), TournamentError);
}

BOOST_AUTO_TEST_CASE(a_tournament_records_every_game_in_pgn_and_results_alike) {
  TempDir dir;
  TournamentConfig config = two_engine_config(4);
  config.engines.push_back(engine("seeded-3"));
  config.concurrency = 2;
  config.report_interval = 4;
  keep_files_in(dir, config);
  RecordingSink sink;
  const TournamentOutcome outcome = play_scripted(config, sink);
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
  policies["flaky"] = [&go_total](const quixo::Game& game, int go_count) {
    ++go_total;
    if (go_count == 4) {
      ScriptedReply reply;
      reply.crash = true;
      return reply;
    }
    return quixo::test::play(game.legal_move_texts().front());
  };
  TournamentConfig config = two_engine_config(3);
  config.engines[1] = engine("flaky");
  RecordingSink sink;
  const TournamentOutcome outcome = play_scripted(config, sink, policies);
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
  config.sprt = sprt_between(0, 10);
  RecordingSink sink;
  const TournamentOutcome outcome = play_scripted(config, sink);
  BOOST_TEST((outcome.end ==
              (strong_first ? TournamentEnd::SprtAcceptedH1 : TournamentEnd::SprtAcceptedH0)));
  BOOST_TEST(outcome.standings.games < outcome.standings.total_games);
  BOOST_REQUIRE(outcome.standings.sprt);
  BOOST_TEST((outcome.standings.sprt->decision ==
              (strong_first ? SprtResult::Decision::AcceptH1 : SprtResult::Decision::AcceptH0)));
}

// A signal that stops the arena reaches its engines too (a terminal's Ctrl-C, a cluster's
// scancel): an engine that dies of it ends its game as a crash, which is not recorded but played
// again on --resume.
BOOST_AUTO_TEST_CASE(a_crash_that_comes_with_the_interrupt_is_not_recorded) {
  TempDir dir;
  TournamentConfig config = two_engine_config(3);
  config.results_path = dir.file("results.json");
  std::atomic<bool> interrupt{false};
  std::map<std::string, ScriptedPolicy> policies = kPolicies;
  // The engine "dies of the signal" on its 25th move (in the first or second game): the interrupt
  // and the crash together.
  policies["signalled"] = [&interrupt, moves = 0](const quixo::Game& game, int) mutable {
    if (++moves == 25) {
      interrupt = true;
      ScriptedReply reply;
      reply.crash = true;
      return reply;
    }
    return seeded_moves(7)(game, 0);
  };
  config.engines = {engine("seeded-1"), engine("signalled")};
  RecordingSink sink;
  const TournamentOutcome outcome =
      run_tournament(config, sink, interrupt, launcher_by_name(policies));
  BOOST_TEST((outcome.end == TournamentEnd::Interrupted));
  BOOST_TEST(outcome.standings.engines[1].crashes == 0);
  for (const FinishedGame& game : read_results_file(config.results_path))
    BOOST_TEST((game.termination != Termination::Crash));
  BOOST_TEST(sink.finished_ids.size() + 1 == static_cast<std::size_t>(sink.started));
}

namespace {

// --resume of `config`, whose run was `interrupted`, to its end: the games it recorded are kept
// and the others played.
TournamentOutcome resume_to_the_end(TournamentConfig& config,
                                    const TournamentOutcome& interrupted) {
  config.resume = true;
  RecordingSink sink;
  const TournamentOutcome outcome = play_scripted(config, sink);
  BOOST_TEST((outcome.end == TournamentEnd::Completed));
  BOOST_TEST(sink.games_at_start == interrupted.standings.games);
  return outcome;
}

}  // namespace

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
  keep_files_in(straight_dir, straight);
  RecordingSink straight_sink;
  const TournamentOutcome expected = play_scripted(straight, straight_sink);

  TempDir dir;
  TournamentConfig config = straight;
  config.concurrency = concurrency;
  keep_files_in(dir, config);
  const TournamentOutcome first = play_scripted_until(config, 7);
  BOOST_TEST(first.end == TournamentEnd::Interrupted);
  BOOST_TEST(first.standings.games >= 7);
  BOOST_TEST(first.standings.games < first.standings.total_games);
  if (torn_pgn_game) {
    // A game that reached the PGN but not the results file when the arena was killed.
    std::ofstream pgn(config.pgn_path, std::ios::app);
    pgn << "[Event \"quixo-arena\"]\n[Site \"?\"]\n[Round \"99\"]\n1. b1b5 {+0.1";
  }

  const TournamentOutcome second = resume_to_the_end(config, first);
  BOOST_TEST(second.standings.games == expected.standings.games);
  for (std::size_t i = 0; i < expected.standings.pairings.size(); ++i) {
    BOOST_CHECK(second.standings.pairings[i].results == expected.standings.pairings[i].results);
    BOOST_CHECK(second.standings.pairings[i].pairs == expected.standings.pairings[i].pairs);
  }
  const auto pgn = parse_pgn(read_file(config.pgn_path));
  BOOST_TEST(pgn.size() == static_cast<std::size_t>(expected.standings.games));
  BOOST_TEST(read_results_file(config.results_path).size() == pgn.size());
}

// Issue 25, item 14: a game thread the system will not start (--concurrency 1000 under a memory
// limit; here a ThreadStartLimit) stops the run with an error naming it, once the games under
// way have stopped; the games recorded stay, and --resume plays the rest to the same totals. The
// arena used to end with `terminate called without an active exception` (rc 134).
BOOST_AUTO_TEST_CASE(a_game_thread_that_cannot_start_stops_the_run_and_keeps_its_games) {
  TempDir straight_dir;
  TournamentConfig straight = two_engine_config(4);
  keep_files_in(straight_dir, straight);
  RecordingSink straight_sink;
  const TournamentOutcome expected = play_scripted(straight, straight_sink);

  TempDir dir;
  TournamentConfig config = straight;
  config.concurrency = 3;
  keep_files_in(dir, config);
  {
    const quixo::ThreadStartLimit limit(2);  // the interrupt watcher and one game thread
    RecordingSink sink;
    BOOST_CHECK_EXCEPTION(
        play_scripted(config, sink), std::runtime_error, [](const std::runtime_error& error) {
          const std::string text = error.what();
          BOOST_TEST_MESSAGE(text);
          return text.starts_with("--concurrency 3: cannot start thread 2 of 3 (") &&
                 text.find("--resume") != std::string::npos;
        });
  }
  config.resume = true;
  RecordingSink sink;
  const TournamentOutcome resumed = play_scripted(config, sink);
  BOOST_TEST((resumed.end == TournamentEnd::Completed));
  BOOST_TEST(resumed.standings.games == expected.standings.games);
  for (std::size_t i = 0; i < expected.standings.pairings.size(); ++i)
    BOOST_CHECK(resumed.standings.pairings[i].results == expected.standings.pairings[i].results);
  const auto pgn = parse_pgn(read_file(config.pgn_path));
  BOOST_TEST(pgn.size() == static_cast<std::size_t>(expected.standings.games));
  BOOST_TEST(read_results_file(config.results_path).size() == pgn.size());
}

BOOST_AUTO_TEST_CASE(resume_refuses_the_results_of_another_tournament) {
  TempDir dir;
  TournamentConfig config = two_engine_config(2);
  config.results_path = dir.file("results.json");
  RecordingSink sink;
  play_scripted(config, sink);
  config.rounds = 1;  // more rounds would extend it
  config.resume = true;
  BOOST_CHECK_EXCEPTION(
      play_scripted(config, sink), TournamentError, [](const TournamentError& error) {
        return std::string(error.what()).find("another tournament") != std::string::npos;
      });
}

// Issue 25, item 15: a game recorded twice in a results file (an edit, files joined by hand) was
// reported as "not in this tournament's schedule". It is named as what it is, with its entries.
BOOST_AUTO_TEST_CASE(a_game_recorded_twice_is_named_as_such) {
  TempDir dir;
  TournamentConfig config = two_engine_config(2);
  config.results_path = dir.file("results.json");
  RecordingSink sink;
  play_scripted(config, sink);
  boost::json::object file = boost::json::parse(read_file(config.results_path)).as_object();
  boost::json::array& games = file.at("games").as_array();
  BOOST_REQUIRE(games.size() == 4u);
  const auto third_id = games[2].at("id").to_number<int>();
  games.push_back(games[2]);
  {
    std::ofstream out(config.results_path, std::ios::binary | std::ios::trunc);
    out << boost::json::serialize(file);
  }
  const std::string expected = "results file " + config.results_path + ": game " +
                               std::to_string(third_id + 1) +
                               " is recorded twice (entries 3 and 5 of its \"games\")";
  const auto names_it = [&](const TournamentError& error) {
    BOOST_TEST_MESSAGE(error.what());
    return std::string(error.what()).find(expected) != std::string::npos;
  };
  BOOST_CHECK_EXCEPTION((void)read_results_file(config.results_path), TournamentError, names_it);
  config.resume = true;
  BOOST_CHECK_EXCEPTION(play_scripted(config, sink), TournamentError, names_it);
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
  return [crash](const quixo::Game& game, int go_count) {
    if (go_count == 2) {
      ScriptedReply reply;
      reply.crash = crash;
      return reply;
    }
    return quixo::test::play(game.legal_move_texts().front());
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
  keep_files_in(dir, config);
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
  RecordingSink sink;
  BOOST_TEST(play_scripted(config, sink).end == TournamentEnd::Completed);
  config.resume = true;
  // The same tournament resumes (and has nothing left to play).
  RecordingSink again;
  BOOST_TEST(play_scripted(config, again).standings.games == 2);
  BOOST_TEST(again.started == 0);
  const auto refused = [](const TournamentError& error) {
    return std::string(error.what()).find("another tournament") != std::string::npos;
  };
  config.seating = Seating::PerTeam;
  BOOST_CHECK_EXCEPTION(play_scripted(config, sink), TournamentError, refused);
  TournamentConfig two_player = two_engine_config(1);
  two_player.results_path = config.results_path;
  two_player.resume = true;
  BOOST_CHECK_EXCEPTION(play_scripted(two_player, sink), TournamentError, refused);
}

// ------------------------------------------- SPRT bounds, statistics failures, files, identity

namespace {

namespace json = boost::json;

json::object load_json(const std::string& path) {
  return json::parse(read_file(path)).as_object();
}

std::string json_text(const json::value& value) {
  return value.is_string() ? std::string(value.get_string()) : json::serialize(value);
}

// A number of the results file is the double the arena computed (to the last bit or two: Boost
// 1.81's parser may be an ulp off); infinite ones are null.
bool same_number(const json::value& value, double expected) {
  if (!std::isfinite(expected)) return value.is_null();
  if (!value.is_number()) return false;
  const double read = value.to_number<double>();
  return std::fabs(read - expected) <= 1e-14 * std::max(1.0, std::fabs(expected));
}

#define CHECK_NUMBER(object, key, expected)                                                  \
  BOOST_TEST(same_number((object).at(key), (expected)),                                      \
             key << ": the file has " << json::serialize((object).at(key)) << ", the arena " \
                 << std::setprecision(17) << (expected))

FinishedGame finished_game(int id, std::size_t x, GameResult result) {
  FinishedGame game;
  game.id = id;
  game.round = id / 2;
  game.x = x;
  game.o = 1 - x;
  game.result = result;
  game.termination = result == GameResult::Draw ? Termination::Repetition : Termination::Line;
  return game;
}

}  // namespace

// Issue 9, defect 7: --sprt elo0=300 elo1=400 (normalised) ran the first pair and then aborted
// on "the secular equation has no root", leaving the results file "running". Such bounds are
// refused before any engine plays, naming them and the bounds the model accepts.
BOOST_AUTO_TEST_CASE(sprt_bounds_the_model_cannot_test_are_refused_before_the_first_game) {
  TempDir dir;
  TournamentConfig config = two_engine_config(2);
  config.sprt = sprt_between(300, 400, EloModel::Normalized);
  keep_files_in(dir, config);
  RecordingSink sink;
  BOOST_CHECK_EXCEPTION(play_scripted(config, sink), TournamentError,
                        [](const TournamentError& error) {
                          const std::string what = error.what();
                          BOOST_TEST_MESSAGE(what);
                          return what.find("elo0=300 elo1=400") != std::string::npos &&
                                 what.find("between -231.6 and 231.6 nElo") != std::string::npos;
                        });
  BOOST_TEST(sink.started == 0);
  BOOST_TEST(!std::filesystem::exists(config.pgn_path));
  BOOST_TEST(!std::filesystem::exists(config.results_path));
}

// Issue 9, defect 7: should the SPRT still fail (here on bounds that never met validate, which
// made the GSPRT throw after the first pair and the run abort), the standings say why instead of
// throwing, and the results file records the games and the reason: no statistics failure costs
// a tournament its games.
BOOST_AUTO_TEST_CASE(a_statistics_failure_is_reported_and_the_games_are_kept) {
  TempDir dir;
  TournamentConfig config = two_engine_config(2);
  config.sprt = sprt_between(300, 400, EloModel::Normalized);
  config.results_path = dir.file("results.json");
  const std::vector<FinishedGame> games = {finished_game(0, 0, GameResult::XWins),
                                           finished_game(1, 1, GameResult::Draw)};
  Standings standings;
  BOOST_REQUIRE_NO_THROW(standings = compute_standings(config, games));
  BOOST_TEST(standings.games == 2);
  BOOST_TEST(standings.pairings.front().pairs.pairs() == 1);
  BOOST_TEST(!standings.sprt.has_value());
  BOOST_TEST(standings.sprt_error.find("elo0=300 elo1=400") != std::string::npos,
             standings.sprt_error);
  const std::string report = format_rating_report(config, standings);
  BOOST_TEST(report.find("LLR: unavailable (" + standings.sprt_error + ")") != std::string::npos,
             report);

  ResultsStore store(config);
  BOOST_REQUIRE(store.open().empty());
  BOOST_REQUIRE_NO_THROW(
      store.record(games[0], GameRecord{}, compute_standings(config, {games[0]})));
  BOOST_REQUIRE_NO_THROW(store.record(games[1], GameRecord{}, standings));
  const json::object file = load_json(config.results_path);
  BOOST_TEST(json_text(file.at("status")) == "running");
  const json::value& sprt = file.at("standings").at("sprt");
  BOOST_TEST(json_text(sprt.at("decision")) == "unavailable");
  BOOST_TEST(sprt.at("llr").is_null());
  BOOST_TEST(json_text(sprt.at("error")) == standings.sprt_error);
  CHECK_NUMBER(sprt.as_object(), "upper", config.sprt->upper_bound());
  BOOST_TEST(read_results_file(config.results_path).size() == 2u);
  BOOST_REQUIRE_NO_THROW(store.finish(standings, TournamentEnd::SprtUndecided));
  BOOST_TEST(json_text(load_json(config.results_path).at("status")) == "SPRT undecided");
}

// Issue 9, defect 13: all rounds played without a decision is not "completed": the tournament
// ends undecided (exit code 3), in the outcome, the results file and the final report.
BOOST_AUTO_TEST_CASE(an_sprt_without_a_decision_ends_undecided) {
  TempDir dir;
  TournamentConfig config = two_engine_config(1);
  config.sprt = sprt_between(0, 10, EloModel::Normalized);
  config.results_path = dir.file("results.json");
  RecordingSink sink;
  const TournamentOutcome outcome = play_scripted(config, sink);
  BOOST_TEST(outcome.end == TournamentEnd::SprtUndecided);
  BOOST_TEST((sink.last_end == TournamentEnd::SprtUndecided));
  BOOST_TEST(outcome.standings.games == 2);
  BOOST_TEST(json_text(load_json(config.results_path).at("status")) == "SPRT undecided");

  std::ostringstream out;
  make_text_report(out, out, "arena", false)
      ->tournament_finished(config, outcome.standings, outcome.end);
  BOOST_TEST(out.str().find("SPRT undecided after 2 games") != std::string::npos, out.str());
  BOOST_TEST(out.str().find("Tournament completed") == std::string::npos, out.str());
}

// Issue 9, defect 11: the results file rounded every number to two decimals (an LOS of 0.0106
// became 0.01, the LLR bounds -2.944 became -2.94). It keeps them whole; reports round.
BOOST_AUTO_TEST_CASE(the_results_file_keeps_every_number_to_full_precision) {
  TempDir dir;
  TournamentConfig config = two_engine_config(6);
  SprtParameters sprt;
  sprt.elo0 = -1.234;
  sprt.elo1 = 5.678;
  sprt.beta = 0.1;
  config.sprt = sprt;
  config.results_path = dir.file("results.json");
  RecordingSink sink;
  const TournamentOutcome outcome = play_scripted(config, sink);
  const Standings& standings = outcome.standings;
  BOOST_REQUIRE(standings.sprt);
  const json::object file = load_json(config.results_path);
  const json::object& entry = file.at("standings").at("sprt").as_object();
  CHECK_NUMBER(entry, "lower", std::log(0.1 / 0.95));  // -2.2512917986064953
  CHECK_NUMBER(entry, "upper", std::log(0.9 / 0.05));  // 2.8903717578961645
  CHECK_NUMBER(entry, "llr", standings.sprt->llr);
  CHECK_NUMBER(entry, "elo0", -1.234);
  CHECK_NUMBER(entry, "elo1", 5.678);

  const PairingTally& pairing = standings.pairings.front();
  const json::object& written = file.at("standings").at("pairings").as_array().at(0).as_object();
  for (const auto& [key, estimate] :
       {std::pair{"pentanomial_estimate", estimate_elo(pairing.pairs)},
        std::pair{"trinomial_estimate", estimate_elo(pairing.results)}}) {
    BOOST_TEST_CONTEXT(key) {
      const json::object& e = written.at(key).as_object();
      CHECK_NUMBER(e, "elo", estimate.elo);
      CHECK_NUMBER(e, "elo_error", estimate.elo_error);
      CHECK_NUMBER(e, "elo_lower", estimate.elo_lower);
      CHECK_NUMBER(e, "elo_upper", estimate.elo_upper);
      CHECK_NUMBER(e, "nelo", estimate.nelo);
      CHECK_NUMBER(e, "nelo_error", estimate.nelo_error);
      CHECK_NUMBER(e, "los", estimate.los);
      CHECK_NUMBER(e, "draw_ratio", estimate.draw_ratio);
      CHECK_NUMBER(e, "score", estimate.score);
    }
  }
  const std::optional<Ratings> ratings = rate_engines(config, standings);
  BOOST_REQUIRE(ratings);
  for (std::size_t i = 0; i < 2; ++i) {
    const json::object& tally = file.at("standings").at("engines").as_array().at(i).as_object();
    CHECK_NUMBER(tally, "rating", ratings->elo[i]);
    CHECK_NUMBER(tally, "rating_error", 1.959964 * ratings->error[i]);
    CHECK_NUMBER(tally.at("los").as_object(), config.engines[1 - i].name, ratings->los[i][1 - i]);
    CHECK_NUMBER(tally, "points", standings.engines[i].results.points());
  }
}

namespace {

// A change to a tournament before --resume, and what the refusal must name.
struct IdentityChange {
  std::string name;
  std::function<void(TournamentConfig&)> change;
  std::string named;
};
std::ostream& operator<<(std::ostream& out, const IdentityChange& change) {
  return out << change.name;
}

const std::vector<IdentityChange> kIdentityChanges = {
    {"SPRT elo1", [](TournamentConfig& c) { c.sprt->elo1 = 5; },
     "--sprt differs (the file has elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized, this "
     "run elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized)"},
    {"SPRT model", [](TournamentConfig& c) { c.sprt->model = EloModel::Logistic; },
     "--sprt differs"},
    {"SPRT alpha", [](TournamentConfig& c) { c.sprt->alpha = 0.1; }, "--sprt differs"},
    {"no SPRT", [](TournamentConfig& c) { c.sprt.reset(); },
     "--sprt differs (the file has elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized, this "
     "run none)"},
    {"resign score", [](TournamentConfig& c) { c.rules.adjudication.resign_score_cp = 600; },
     "--resign differs (the file has movecount=3 score=500 twosided=true, this run movecount=3 "
     "score=600 twosided=true)"},
    {"one-sided resign", [](TournamentConfig& c) { c.rules.adjudication.resign_two_sided = false; },
     "--resign differs"},
    {"no resign", [](TournamentConfig& c) { c.rules.adjudication.resign_move_count = 0; },
     "--resign differs (the file has movecount=3 score=500 twosided=true, this run none)"},
    {"draw move number", [](TournamentConfig& c) { c.rules.adjudication.draw_move_number = 30; },
     "--draw differs (the file has movenumber=20 movecount=4 score=10, this run movenumber=30 "
     "movecount=4 score=10)"},
    {"no draw", [](TournamentConfig& c) { c.rules.adjudication.draw_move_count = 0; },
     "--draw differs"},
    {"ply cap", [](TournamentConfig& c) { c.rules.max_plies = 50; },
     "--max-plies differs (the file has 40, this run 50)"},
    {"repetitions", [](TournamentConfig& c) { c.rules.repetitions = 4; },
     "--repetitions differs (the file has 3, this run 4)"},
    {"an engine's option",
     [](TournamentConfig& c) {
       c.engines[1].options = {{"Hash", "16"}};
     },
     "engine 2 (seeded-2)'s option.NAME differs (the file has none, this run Hash=16)"},
    {"an engine's init strings",
     [](TournamentConfig& c) { c.engines[0].init_strings = {"setoption name Hash value 8"}; },
     "engine 1 (seeded-1)'s initstr differs (the file has none, this run setoption name Hash "
     "value 8)"},
};

}  // namespace

// Issue 9, defect 12: --resume took other SPRT and adjudication settings as the same tournament.
// They are part of its identity like the engines and the time control, and a refusal names the
// setting that differs, before any game.
BOOST_DATA_TEST_CASE(resume_refuses_a_change_to_the_tournaments_identity,
                     bdata::make(kIdentityChanges), change) {
  TempDir dir;
  TournamentConfig config = two_engine_config(1);
  config.sprt = sprt_between(0, 10, EloModel::Normalized);
  Adjudication& adjudication = config.rules.adjudication;
  adjudication.resign_move_count = 3;
  adjudication.resign_score_cp = 500;
  adjudication.draw_move_number = 20;
  adjudication.draw_move_count = 4;
  adjudication.draw_score_cp = 10;
  keep_files_in(dir, config);
  RecordingSink sink;
  BOOST_TEST(play_scripted(config, sink).standings.games == 2);
  config.resume = true;
  // Unchanged, it is the same tournament, with nothing left to play.
  RecordingSink same;
  BOOST_TEST(play_scripted(config, same).standings.games == 2);
  BOOST_TEST(same.started == 0);
  const std::string results_before = read_file(config.results_path);
  const std::string pgn_before = read_file(config.pgn_path);

  change.change(config);
  RecordingSink changed;
  BOOST_CHECK_EXCEPTION(
      play_scripted(config, changed), TournamentError, [&](const TournamentError& error) {
        const std::string what = error.what();
        BOOST_TEST_MESSAGE(what);
        return what.find("another tournament: " + change.named) != std::string::npos;
      });
  BOOST_TEST(changed.started == 0);
  BOOST_TEST(read_file(config.results_path) == results_before);
  BOOST_TEST(read_file(config.pgn_path) == pgn_before);
}

namespace {

// A file in the way of a tournament that starts afresh.
struct ExistingFile {
  std::string name;
  bool pgn;  // the PGN, or the results file
  std::string content;
  bool resume;
  bool overwrite;
  bool refused;
};
std::ostream& operator<<(std::ostream& out, const ExistingFile& existing) {
  return out << existing.name;
}

const std::vector<ExistingFile> kExistingFiles = {
    {"a PGN", true, "[Event \"my own games\"]\n", false, false, true},
    {"a results file", false, "{\"mine\": true}\n", false, false, true},
    {"a PGN on a resume without a results file", true, "[Event \"mine\"]\n", true, false, true},
    {"a PGN with --overwrite", true, "[Event \"my own games\"]\n", false, true, false},
    {"a results file with --overwrite", false, "{\"mine\": true}\n", false, true, false},
    {"an empty PGN", true, "", false, false, false},
    {"an empty results file", false, "", false, false, false},
};

}  // namespace

// Issue 9, defect 9: a tournament that starts afresh emptied an existing --pgn file (and results
// file) without a word. It refuses, naming the file and the ways on, unless told to overwrite;
// an empty file holds nothing to lose.
BOOST_DATA_TEST_CASE(a_new_tournament_replaces_a_file_only_when_told_to,
                     bdata::make(kExistingFiles), existing) {
  TempDir dir;
  TournamentConfig config = two_engine_config(1);
  keep_files_in(dir, config);
  config.resume = existing.resume;
  config.overwrite = existing.overwrite;
  const std::string& path = existing.pgn ? config.pgn_path : config.results_path;
  const std::string& other = existing.pgn ? config.results_path : config.pgn_path;
  {
    std::ofstream out(path, std::ios::binary);
    out << existing.content;
  }
  RecordingSink sink;
  if (existing.refused) {
    BOOST_CHECK_EXCEPTION(play_scripted(config, sink), TournamentError,
                          [&](const TournamentError& error) {
                            const std::string what = error.what();
                            BOOST_TEST_MESSAGE(what);
                            return what.find(path) != std::string::npos &&
                                   what.find("--overwrite") != std::string::npos;
                          });
    BOOST_TEST(sink.started == 0);
    BOOST_TEST(read_file(path) == existing.content);
    BOOST_TEST(!std::filesystem::exists(other));
  } else {
    const TournamentOutcome outcome = play_scripted(config, sink);
    BOOST_TEST(outcome.standings.games == 2);
    BOOST_TEST(parse_pgn(read_file(config.pgn_path)).size() == 2u);
    BOOST_TEST(read_results_file(config.results_path).size() == 2u);
  }
}

namespace {

struct HeaderCase {
  std::string name;
  std::optional<std::string> first_control;  // the engines' own time controls
  std::optional<std::string> second_control;
  std::string common_control;  // --tc
  std::string expected;
  std::string absent;
};
std::ostream& operator<<(std::ostream& out, const HeaderCase& header) {
  return out << header.name;
}

const std::vector<HeaderCase> kHeaderCases = {
    {"one time control", std::nullopt, std::nullopt, "nodes=100",
     ", time control nodes=100, concurrency 1\nOpenings:", "Time controls"},
    {"each engine its own", "nodes=5000", "10+0.1", "nodes=100",
     ", time control per engine, concurrency 1\nTime controls: seeded-1=nodes=5000, "
     "seeded-2=10+0.1\n",
     "nodes=100"},
    {"one engine its own", "nodes=5000", std::nullopt, "10+0.1",
     "Time controls: seeded-1=nodes=5000, seeded-2=10+0.1\n", "time control 10+0.1"},
    {"own controls that agree", "depth=3", "depth=3", "10+0.1",
     ", time control depth=3, concurrency 1\n", "10+0.1"},
};

}  // namespace

// Issue 9, defect 13: the report's header showed --tc (10+0.1 by default) even when every engine
// played under its own control. It shows the control the engines play under: the common one, or
// each engine's.
BOOST_DATA_TEST_CASE(the_header_shows_the_time_controls_the_engines_play_under,
                     bdata::make(kHeaderCases), header) {
  TournamentConfig config = two_engine_config(1);
  config.time_control = TimeControl::parse(header.common_control);
  if (header.first_control)
    config.engines[0].time_control = TimeControl::parse(*header.first_control);
  if (header.second_control)
    config.engines[1].time_control = TimeControl::parse(*header.second_control);
  std::ostringstream out;
  make_text_report(out, out, "arena", false)
      ->tournament_started(config, compute_standings(config, {}));
  BOOST_TEST(out.str().find(header.expected) != std::string::npos, out.str());
  BOOST_TEST(out.str().find(header.absent) == std::string::npos, out.str());
}

// Two games at once between real engine processes that search with two threads each, on a move
// time, so that helper threads are stopped by the clock in every move (issue 9; under the tsan
// preset the runner, its Asio pipes and the engines are all ThreadSanitizer builds, and a race
// ends an engine with TSan's exit code, which the arena counts as a crash). Every game ends by
// the rules, none by a fault of an engine.
BOOST_AUTO_TEST_CASE(real_engines_with_two_threads_play_two_games_at_once) {
  TournamentConfig config;
  for (const std::string name : {"smp-a", "smp-b"}) {
    EngineConfig real;
    real.name = name;
    real.process.command = QUIXO_ENGINE_BINARY;
    real.options = {{"Threads", "2"}, {"Hash", "4"}};
    config.engines.push_back(real);
  }
  config.rounds = 2;
  config.concurrency = 2;
  // A margin far above any scheduling delay: a loaded machine must not lose a game on time.
  config.time_control = TimeControl::fixed_time(30).with_margin(5000);
  config.rules.max_plies = 24;
  config.rules.stall_timeout = std::chrono::seconds(30);
  config.openings = small_book();
  config.report_interval = 0;
  std::atomic<bool> interrupt{false};
  RecordingSink sink;
  const TournamentOutcome outcome = run_tournament(config, sink, interrupt);
  BOOST_TEST(outcome.end == TournamentEnd::Completed);
  BOOST_TEST(outcome.standings.games == 4);
  BOOST_TEST(sink.finished_ids.size() == 4u);
  BOOST_TEST(sink.warnings.empty());
  for (const EngineTally& tally : outcome.standings.engines) {
    BOOST_TEST_CONTEXT(tally.name) {
      BOOST_TEST(tally.results.games() == 4);
      BOOST_TEST(tally.crashes == 0);
      BOOST_TEST(tally.time_forfeits == 0);
      BOOST_TEST(tally.illegal_moves == 0);
      BOOST_TEST(tally.stalls == 0);
      BOOST_TEST(tally.restarts == 0);
    }
  }
}

// ------------------------------------------------------------- the endgame tables (--tb)

namespace {

// Positions one layer above the tables, so not in them: a game reaches them when a move takes
// one of their blank cubes.
std::vector<Opening> book_above_tables() {
  std::vector<Opening> book;
  for (const Position& position :
       quixo::test::positions_with_blanks(quixo::test::test_table_blanks() + 1))
    book.push_back({to_string(position), {}});
  return book;
}

// Each game ends by the tables exactly when its last position is in them (and none before it
// was), with the result they give it; returns how many did.
std::int64_t check_table_endings(const std::vector<GameRecord>& games) {
  const tb::Tablebase& tables = quixo::test::test_tables();
  const auto in_tables = [&](const Position& position) {
    return position.outcome() == Outcome::Ongoing && tables.probe(position).has_value();
  };
  std::int64_t ended = 0;
  for (const GameRecord& game : games) {
    BOOST_TEST_CONTEXT("round " << game.round << " from " << game.start_position) {
      Position position = parse_position(game.start_position);
      std::vector<std::string> plies = game.opening_moves;
      for (const MoveRecord& move : game.moves) plies.push_back(move.move);
      for (const std::string& move : plies) {
        BOOST_TEST(!in_tables(position), "in the tables before " << move);
        position = position.after(parse_move(position, move));
      }
      const bool ends_in_tables = in_tables(position);
      BOOST_TEST(ends_in_tables == (game.termination == Termination::Tablebase), game.reason);
      if (!ends_in_tables) continue;
      ++ended;
      const tb::TbValue value = tables.probe(position).value();
      const bool x_to_move = position.side_to_move() == Color::X;
      const GameResult expected = value.wdl == tb::Wdl::Draw                 ? GameResult::Draw
                                  : (value.wdl == tb::Wdl::Win) == x_to_move ? GameResult::XWins
                                                                             : GameResult::OWins;
      BOOST_TEST(game.result == expected, game.reason);
      BOOST_TEST(game.reason.starts_with("tablebase: "), game.reason);
    }
  }
  return ended;
}

std::int64_t tablebase_endings(const Standings& standings) {
  return standings.terminations.at(static_cast<std::size_t>(Termination::Tablebase));
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_tables_end_the_games_that_reach_them_in_pgn_results_and_a_resume) {
  TempDir straight_dir;
  TournamentConfig straight = two_engine_config(static_cast<int>(book_above_tables().size()));
  straight.openings = book_above_tables();
  straight.tablebase_path = quixo::test::test_tables_dir().string();
  keep_files_in(straight_dir, straight);
  RecordingSink straight_sink;
  const TournamentOutcome expected = play_scripted(straight, straight_sink);
  BOOST_TEST(expected.end == TournamentEnd::Completed);
  BOOST_TEST(straight_sink.warnings.empty());
  BOOST_TEST(straight_sink.tablebase_layers.value_or("none") ==
             quixo::test::test_tables().describe());
  const std::int64_t ended = tablebase_endings(expected.standings);
  BOOST_TEST(ended > 0);
  const std::vector<GameRecord> pgn = parse_pgn(read_file(straight.pgn_path));
  BOOST_TEST(pgn.size() == static_cast<std::size_t>(expected.standings.games));
  BOOST_TEST(check_table_endings(pgn) == ended);
  // The results file says the same, and describes the tables by their layers.
  std::map<int, Termination> pgn_endings;
  for (const GameRecord& game : pgn) pgn_endings[std::stoi(game.round) - 1] = game.termination;
  const std::vector<FinishedGame> recorded = read_results_file(straight.results_path);
  BOOST_TEST(recorded.size() == pgn.size());
  for (const FinishedGame& game : recorded) BOOST_TEST(game.termination == pgn_endings.at(game.id));
  std::string layers;
  for (int k = 0; k <= quixo::test::test_table_blanks(); ++k)
    layers += (k == 0 ? "" : ",") + std::to_string(k);
  BOOST_TEST(read_file(straight.results_path).find("\"tablebase\":{\"layers\":[" + layers + "]}") !=
             std::string::npos);

  // Interrupted and resumed, the games recorded before are kept as they were.
  TempDir dir;
  TournamentConfig config = straight;
  keep_files_in(dir, config);
  const TournamentOutcome first = play_scripted_until(config, 5);
  BOOST_TEST(first.end == TournamentEnd::Interrupted);
  const TournamentOutcome second = resume_to_the_end(config, first);
  BOOST_TEST(second.standings.terminations == expected.standings.terminations);
  BOOST_CHECK(second.standings.pairings[0].results == expected.standings.pairings[0].results);
  BOOST_TEST(check_table_endings(parse_pgn(read_file(config.pgn_path))) == ended);

  // Without the tables it is another tournament.
  config.tablebase_path.clear();
  RecordingSink refused;
  BOOST_CHECK_EXCEPTION(play_scripted(config, refused), TournamentError,
                        [](const TournamentError& error) {
                          BOOST_TEST_MESSAGE(error.what());
                          return std::string(error.what())
                                     .find(
                                         "another tournament: --tb (the layers of its tables) "
                                         "differs") != std::string::npos;
                        });
}

// A layer file that fails its checks is refused and reported; the other layers are used. A folder
// without a valid layer, or no folder, stops the tournament before it starts.
BOOST_AUTO_TEST_CASE(a_refused_layer_file_is_reported_and_the_others_are_used) {
  TempDir dir;
  const std::filesystem::path good = tb::layer_file_path(quixo::test::test_tables_dir(), 0);
  quixo::test::require_test_tables();
  std::filesystem::create_symlink(good, tb::layer_file_path(dir.path, 0));
  // Layer 1: the start of a real file, cut off.
  const std::string truncated = read_file(good.string()).substr(0, 5000);
  const std::filesystem::path broken = tb::layer_file_path(dir.path, 1);
  std::ofstream(broken, std::ios::binary) << truncated;

  TournamentConfig config = two_engine_config(2);
  config.openings.clear();
  for (const Position& position : quixo::test::positions_with_blanks(1))
    config.openings.push_back({to_string(position), {}});
  config.tablebase_path = dir.path.string();
  config.pgn_path = dir.file("games.pgn");
  RecordingSink sink;
  const TournamentOutcome outcome = play_scripted(config, sink);
  BOOST_TEST(outcome.end == TournamentEnd::Completed);
  BOOST_TEST(sink.tablebase_layers.value_or("none") == "layers 0");
  BOOST_TEST_REQUIRE(sink.warnings.size() == 1u);
  BOOST_TEST(sink.warnings[0].starts_with("--tb: refused " + broken.string() + ": "),
             sink.warnings[0]);
  // Only layer 0 decides: the games from layer 1 go on until a move takes their last blank cube.
  for (const GameRecord& game : parse_pgn(read_file(config.pgn_path))) {
    if (game.termination != Termination::Tablebase) continue;
    Position position = parse_position(game.start_position);
    for (const MoveRecord& move : game.moves)
      position = position.after(parse_move(position, move.move));
    BOOST_TEST(position.blanks() == Bitboard{0}, game.reason);
  }

  std::filesystem::remove(tb::layer_file_path(dir.path, 0));
  RecordingSink none;
  BOOST_CHECK_EXCEPTION(
      play_scripted(config, none), TournamentError, [&](const TournamentError& error) {
        const std::string what = error.what();
        BOOST_TEST_MESSAGE(what);
        return what.starts_with(
            "--tb " + dir.path.string() +
            ": no valid endgame table in the folder (refused: " + broken.string() + ": ");
      });
  BOOST_TEST(none.started == 0);

  config.tablebase_path = dir.file("missing");
  BOOST_CHECK_EXCEPTION(
      play_scripted(config, none), TournamentError, [&](const TournamentError& error) {
        return std::string(error.what()) == "--tb " + dir.file("missing") + ": no such folder";
      });
  BOOST_TEST(none.started == 0);
}

// There are no four-player tables: a four-player tournament says so and plays on without them.
BOOST_AUTO_TEST_CASE(a_four_player_tournament_does_not_use_the_tables) {
  TournamentConfig config = two_engine_config(2);
  config.variant = Variant::FourPlayer;
  config.openings = small_book4();
  config.tablebase_path = quixo::test::test_tables_dir().string();
  RecordingSink sink;
  const TournamentOutcome outcome = play_scripted(config, sink);
  BOOST_TEST(outcome.end == TournamentEnd::Completed);
  BOOST_TEST(outcome.standings.games == 4);
  BOOST_TEST(!sink.tablebase_layers.has_value());
  BOOST_TEST_REQUIRE(sink.warnings.size() == 1u);
  BOOST_TEST(sink.warnings[0].find("no four-player endgame tables") != std::string::npos);
  BOOST_TEST(tablebase_endings(outcome.standings) == 0);
}

// restart=on (cutechess's): a new process for each game of that engine, not counted as a restart;
// the other engine keeps its one process.
BOOST_AUTO_TEST_CASE(restart_on_starts_the_engine_afresh_for_every_game) {
  TournamentConfig config = two_engine_config(3);
  config.engines[1].restart = true;
  auto launches = std::make_shared<LaunchCounts>();
  std::atomic<bool> interrupt{false};
  RecordingSink sink;
  const TournamentOutcome outcome =
      run_tournament(config, sink, interrupt, counting(launcher_by_name(kPolicies), launches));
  BOOST_TEST((outcome.end == TournamentEnd::Completed));
  // The handshake probe before the games starts each engine once more.
  BOOST_TEST(launches->by_command["seeded-1"] == 1 + 1);
  BOOST_TEST(launches->by_command["seeded-2"] == 1 + 6);
  BOOST_TEST(outcome.standings.engines[1].restarts == 0);
}

// --wait N: each game slot waits N ms between games (and not after the last).
BOOST_AUTO_TEST_CASE(wait_spaces_the_games) {
  TournamentConfig config = two_engine_config(2);
  config.wait_ms = 150;
  RecordingSink sink;
  const auto start = std::chrono::steady_clock::now();
  BOOST_TEST((play_scripted(config, sink).end == TournamentEnd::Completed));
  const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  BOOST_TEST(elapsed.count() >= 3 * 150);
}

// --rounds may grow on --resume: the finished run goes on to the new total, and its games are
// those of a run that had the larger number of rounds from the start.
BOOST_AUTO_TEST_CASE(more_rounds_on_resume_extend_a_finished_run) {
  TempDir straight_dir;
  TournamentConfig straight = two_engine_config(5);
  keep_files_in(straight_dir, straight);
  RecordingSink straight_sink;
  (void)play_scripted(straight, straight_sink);

  TempDir dir;
  TournamentConfig config = two_engine_config(2);
  keep_files_in(dir, config);
  RecordingSink first;
  BOOST_TEST((play_scripted(config, first).end == TournamentEnd::Completed));
  config.rounds = 5;
  config.resume = true;
  RecordingSink second;
  const TournamentOutcome extended = play_scripted(config, second);
  BOOST_TEST((extended.end == TournamentEnd::Completed));
  BOOST_TEST(second.games_at_start == 4);
  BOOST_TEST(second.finished_ids == (std::vector<int>{4, 5, 6, 7, 8, 9}),
             boost::test_tools::per_element());
  BOOST_TEST(parse_pgn(read_file(config.pgn_path)).size() == 10u);
  const auto games = read_results_file(config.results_path);
  const auto expected = read_results_file(straight.results_path);
  BOOST_REQUIRE(games.size() == expected.size());
  for (std::size_t i = 0; i < games.size(); ++i) {
    BOOST_TEST(games[i].id == expected[i].id);
    BOOST_TEST((games[i].result == expected[i].result));
    BOOST_TEST(games[i].plies == expected[i].plies);
    BOOST_TEST(games[i].opening == expected[i].opening);
  }
  // Fewer rounds than recorded is another tournament.
  config.rounds = 3;
  RecordingSink third;
  BOOST_CHECK_EXCEPTION(
      (void)play_scripted(config, third), TournamentError, [](const TournamentError& error) {
        return std::string(error.what()).find("--rounds differs (the file has 5, this run 3)") !=
               std::string::npos;
      });
}

// The results file is rewritten every so many games (64 at first, then a quarter of the games);
// the games between are lines of its journal, which every reader takes in, and the end leaves
// everything in the results file and the journal empty.
BOOST_AUTO_TEST_CASE(the_journal_holds_the_games_between_rewrites) {
  TempDir dir;
  TournamentConfig config = two_engine_config(40);
  keep_files_in(dir, config);
  const std::string journal = config.results_path + ".journal";
  // After game 70, the file was last rewritten at game 64.
  struct Peeking : RecordingSink {
    std::string results, journal;
    std::size_t in_file = 0, read = 0;
    void game_finished(const TournamentConfig& c, const FinishedGame& game,
                       const Standings& standings) override {
      RecordingSink::game_finished(c, game, standings);
      if (standings.games != 70) return;
      in_file = boost::json::parse(read_file(results)).at("games").as_array().size();
      read = read_results_file(results).size();
    }
  } sink;
  sink.results = config.results_path;
  BOOST_TEST((play_scripted(config, sink).end == TournamentEnd::Completed));
  BOOST_TEST(sink.in_file == 64u);
  BOOST_TEST(sink.read == 70u);
  BOOST_TEST(boost::json::parse(read_file(config.results_path)).at("games").as_array().size() ==
             80u);
  BOOST_TEST(read_file(journal).empty());
  BOOST_TEST(read_results_file(config.results_path).size() == 80u);

  // A journal line of a game already in the file (a rewrite not followed by emptying the journal,
  // when the run was killed in between) counts once.
  const boost::json::value file = boost::json::parse(read_file(config.results_path));
  const boost::json::object line = {{"game", file.at("games").as_array()[5]},
                                    {"pgn_bytes", file.at("pgn_bytes")}};
  std::ofstream(journal) << boost::json::serialize(line) << "\n";
  BOOST_TEST(read_results_file(config.results_path).size() == 80u);
}

// A kill -9 while a journal line is written leaves it cut short: that game was never recorded,
// and --resume plays it again. A bad line before the last is damage, and refused.
BOOST_AUTO_TEST_CASE(a_torn_last_journal_line_is_a_game_never_recorded) {
  TempDir dir;
  TournamentConfig config = two_engine_config(2);
  keep_files_in(dir, config);
  BOOST_TEST((play_scripted_until(config, 2).end == TournamentEnd::Interrupted));
  // What a kill -9 would have left: the two games in the journal only (the end of the run moved
  // them into the file).
  const std::string journal = config.results_path + ".journal";
  boost::json::value file = boost::json::parse(read_file(config.results_path));
  std::string lines;
  for (const boost::json::value& game : file.at("games").as_array()) {
    const boost::json::object line = {
        {"game", game},
        {"pgn_bytes", game.at("pgn_offset").as_int64() + game.at("pgn_length").as_int64()}};
    lines += boost::json::serialize(line) + "\n";
  }
  file.as_object()["games"] = boost::json::array();
  file.as_object()["pgn_bytes"] = 0;
  std::ofstream(config.results_path, std::ios::trunc) << boost::json::serialize(file);
  std::ofstream(journal, std::ios::trunc) << lines;
  BOOST_TEST(std::count(lines.begin(), lines.end(), '\n') == 2);
  std::ofstream(journal, std::ios::app) << lines.substr(0, lines.find('\n') / 2);
  BOOST_TEST(read_results_file(config.results_path).size() == 2u);

  config.resume = true;
  RecordingSink resumed;
  const TournamentOutcome outcome = play_scripted(config, resumed);
  BOOST_TEST((outcome.end == TournamentEnd::Completed));
  BOOST_TEST(resumed.games_at_start == 2);
  BOOST_TEST(read_results_file(config.results_path).size() == 4u);
  BOOST_TEST(parse_pgn(read_file(config.pgn_path)).size() == 4u);

  std::ofstream(journal) << "not json\n" << lines;
  BOOST_CHECK_EXCEPTION((void)read_results_file(config.results_path), TournamentError,
                        [](const TournamentError& error) {
                          return std::string(error.what()).find("is damaged at line 1") !=
                                 std::string::npos;
                        });
}

// policy=encounter: each game pair takes the next opening; policy=round (the default): every
// pairing of a round plays the round's. It is part of the tournament's identity.
BOOST_AUTO_TEST_CASE(the_encounter_policy_gives_each_game_pair_its_opening) {
  TournamentConfig config = two_engine_config(2);
  config.engines.push_back(engine("seeded-3"));  // three pairings
  config.openings.clear();
  for (const char* position : {"5/5/5/5/5 x", "5/5/2x2/5/5 o", "5/5/2o2/5/5 x", "x4/5/5/5/5 o",
                               "o4/5/5/5/5 x", "5/5/5/5/x4 o", "5/5/5/5/o4 x"})
    config.openings.push_back({position, {}});
  const std::vector<ScheduledGame> by_round = make_schedule(config);
  config.opening_policy = OpeningPolicy::Encounter;
  const std::vector<ScheduledGame> by_encounter = make_schedule(config);
  BOOST_REQUIRE(by_round.size() == 12u);
  BOOST_REQUIRE(by_encounter.size() == 12u);
  for (std::size_t id = 0; id < 12; ++id) {
    BOOST_TEST(by_round[id].opening.position ==
               config.openings[static_cast<std::size_t>(by_round[id].round)].position);
    BOOST_TEST(by_encounter[id].opening.position ==
               config.openings[(id / 2) % config.openings.size()].position);
  }
  // Another policy is another tournament on --resume.
  TempDir dir;
  config.results_path = dir.file("results.json");
  config.opening_policy = OpeningPolicy::Round;
  RecordingSink sink;
  (void)play_scripted(config, sink);
  config.opening_policy = OpeningPolicy::Encounter;
  config.resume = true;
  BOOST_CHECK_EXCEPTION(
      (void)play_scripted(config, sink), TournamentError, [](const TournamentError& error) {
        return std::string(error.what()).find("--openings policy= differs") != std::string::npos;
      });
}

// A gauntlet SPRT: the seed is tested against each other engine, one test per pairing. A pairing
// whose test is decided plays no more games; the tournament is decided when every test is, H0
// when any accepted H0.
struct GauntletSprtSample {
  const char* name;
  std::vector<std::string> engines;
  int rounds;
  TournamentEnd end;
  std::vector<SprtResult::Decision> decisions;
};
std::ostream& operator<<(std::ostream& out, const GauntletSprtSample& sample) {
  return out << sample.name;
}
const std::vector<GauntletSprtSample> kGauntletSprtSamples = {
    {"passes against both",
     {"seeded-1", "illegal", "illegal-2"},
     500,
     TournamentEnd::SprtAcceptedH1,
     {SprtResult::Decision::AcceptH1, SprtResult::Decision::AcceptH1}},
    {"fails against both",
     {"illegal", "seeded-1", "seeded-2"},
     500,
     TournamentEnd::SprtAcceptedH0,
     {SprtResult::Decision::AcceptH0, SprtResult::Decision::AcceptH0}},
    // Against its twin every pair scores 1 of 2: no gain, H0.
    {"passes against one, fails against its twin",
     {"seeded-1", "illegal", "seeded-1-twin"},
     500,
     TournamentEnd::SprtAcceptedH0,
     {SprtResult::Decision::AcceptH1, SprtResult::Decision::AcceptH0}},
    {"undecided when the rounds run out",
     {"seeded-1", "illegal", "illegal-2"},
     20,
     TournamentEnd::SprtUndecided,
     {SprtResult::Decision::Continue, SprtResult::Decision::Continue}},
};

BOOST_DATA_TEST_CASE(a_gauntlet_sprt_tests_each_pairing, bdata::make(kGauntletSprtSamples),
                     sample) {
  TournamentConfig config = two_engine_config(sample.rounds);
  config.engines.clear();
  for (const std::string& name : sample.engines) config.engines.push_back(engine(name));
  config.format = TournamentFormat::Gauntlet;
  config.seeds = 1;
  config.sprt = sprt_between(0, 10);
  BOOST_REQUIRE_NO_THROW(validate(config));
  std::map<std::string, ScriptedPolicy> policies = kPolicies;
  policies["illegal-2"] = policies.at("illegal");
  policies["seeded-1-twin"] = policies.at("seeded-1");
  RecordingSink sink;
  const TournamentOutcome outcome = play_scripted(config, sink, policies);
  BOOST_TEST((outcome.end == sample.end));
  BOOST_REQUIRE(outcome.standings.pairings.size() == 2u);
  for (std::size_t p = 0; p < 2; ++p) {
    const PairingTally& pairing = outcome.standings.pairings[p];
    BOOST_REQUIRE(pairing.sprt);
    BOOST_TEST((pairing.sprt->decision == sample.decisions[p]), "pairing " << p);
    // A decided pairing stopped early: fewer games than its share.
    if (sample.decisions[p] != SprtResult::Decision::Continue)
      BOOST_TEST(pairing.results.games() < 2 * sample.rounds, "pairing " << p);
    else
      BOOST_TEST(pairing.results.games() == 2 * sample.rounds, "pairing " << p);
  }
  const SprtResult::Decision expected =
      sample.end == TournamentEnd::SprtAcceptedH1   ? SprtResult::Decision::AcceptH1
      : sample.end == TournamentEnd::SprtAcceptedH0 ? SprtResult::Decision::AcceptH0
                                                    : SprtResult::Decision::Continue;
  BOOST_TEST((sprt_decision(outcome.standings) == expected));
  // Still one SPRT per tournament otherwise: a round-robin of three engines is refused.
  config.format = TournamentFormat::RoundRobin;
  BOOST_CHECK_THROW(validate(config), TournamentError);
}

// A knockout played on paper: every game's result follows from who plays X and O by `rule`, the
// schedule grows stage by stage through next_stage until it is empty.
enum class KnockoutRule { LowerIndexWins, HigherIndexWins, AllDraws, XWins };
struct KnockoutSample {
  int engines;
  int rounds;
  KnockoutRule rule;
};
std::ostream& operator<<(std::ostream& out, const KnockoutSample& s) {
  return out << s.engines << " engines, " << s.rounds << " rounds, rule "
             << static_cast<int>(s.rule);
}
std::vector<KnockoutSample> knockout_samples() {
  std::vector<KnockoutSample> samples;
  for (int engines = 2; engines <= 9; ++engines)
    for (const int rounds : {1, 2})
      for (const KnockoutRule rule : {KnockoutRule::LowerIndexWins, KnockoutRule::HigherIndexWins,
                                      KnockoutRule::AllDraws, KnockoutRule::XWins})
        samples.push_back({engines, rounds, rule});
  return samples;
}

BOOST_DATA_TEST_CASE(a_knockout_grows_stage_by_stage_to_one_winner, bdata::make(knockout_samples()),
                     sample) {
  TournamentConfig config = two_engine_config(sample.rounds);
  config.format = TournamentFormat::Knockout;
  config.engines.clear();
  for (int i = 0; i < sample.engines; ++i)
    config.engines.push_back(engine("e" + std::to_string(i)));
  validate(config);
  const auto result_of = [&](const ScheduledGame& game) {
    switch (sample.rule) {
      case KnockoutRule::LowerIndexWins:
        return game.x < game.o ? GameResult::XWins : GameResult::OWins;
      case KnockoutRule::HigherIndexWins:
        return game.x > game.o ? GameResult::XWins : GameResult::OWins;
      case KnockoutRule::AllDraws:
        return GameResult::Draw;
      case KnockoutRule::XWins:
        break;
    }
    return GameResult::XWins;
  };
  std::vector<ScheduledGame> schedule = make_schedule(config);
  BOOST_TEST(known_total_games(config, schedule) == 2 * sample.rounds * (sample.engines - 1));
  std::vector<std::optional<GameResult>> results;
  int stages = 1;
  while (true) {
    BOOST_REQUIRE(stages < 100);
    for (const ScheduledGame& game : schedule) {
      BOOST_TEST(game.id >= 0);
      BOOST_TEST(static_cast<std::size_t>(game.id) <= results.size());
      BOOST_TEST(game.pair == game.id / 2);
      if (game.id % 2 == 1) {  // a pair: the same opening and engines, colours swapped
        const ScheduledGame& first = schedule[static_cast<std::size_t>(game.id - 1)];
        BOOST_TEST(game.x == first.o);
        BOOST_TEST(game.o == first.x);
        BOOST_TEST(game.opening.position == first.opening.position);
      }
      if (static_cast<std::size_t>(game.id) >= results.size()) results.push_back(result_of(game));
    }
    // Nothing more until every game scheduled has a result.
    std::vector<std::optional<GameResult>> one_missing = results;
    one_missing.back().reset();
    BOOST_TEST(next_stage(config, schedule, one_missing).empty());
    std::vector<ScheduledGame> stage = next_stage(config, schedule, results);
    if (stage.empty()) break;
    BOOST_TEST(stage.front().id == static_cast<int>(schedule.size()));
    schedule.insert(schedule.end(), stage.begin(), stage.end());
    ++stages;
  }
  const auto bracket = knockout_bracket(config, schedule, results);
  BOOST_TEST(known_total_games(config, schedule) == static_cast<std::int64_t>(schedule.size()));
  // log2 of the bracket's size rounds, halving to the final; N - 1 matches with games.
  std::size_t size = 1;
  while (size < static_cast<std::size_t>(sample.engines)) size *= 2;
  std::size_t matches = 0;
  for (std::size_t round = 0; round < bracket.size(); ++round) {
    BOOST_TEST(bracket[round].size() == size >> (round + 1));
    for (const KnockoutMatch& match : bracket[round]) {
      BOOST_TEST(match.winner.has_value());
      BOOST_TEST(match.first < match.second.value_or(config.engines.size()));
      if (!match.second) continue;
      ++matches;
      BOOST_TEST(match.games == match.scheduled_games);
      BOOST_TEST(match.first_points + match.second_points == static_cast<double>(match.games));
    }
  }
  BOOST_TEST(bracket.back().size() == 1u);
  BOOST_TEST(matches == static_cast<std::size_t>(sample.engines - 1));
  const std::size_t champion = *bracket.back().front().winner;
  const std::size_t base = static_cast<std::size_t>(2 * sample.rounds) * matches;
  switch (sample.rule) {
    case KnockoutRule::LowerIndexWins:
      BOOST_TEST(champion == 0u);
      BOOST_TEST(schedule.size() == base);
      break;
    case KnockoutRule::HigherIndexWins:
      BOOST_TEST(champion == static_cast<std::size_t>(sample.engines - 1));
      BOOST_TEST(schedule.size() == base);
      break;
    case KnockoutRule::AllDraws:
    case KnockoutRule::XWins:
      // Every match tied, tiebreaks too: twice its games, and the higher seed goes on, so seed
      // 1 wins.
      BOOST_TEST(champion == 0u);
      BOOST_TEST(schedule.size() == 2 * base);
      for (const auto& round : bracket)
        for (const KnockoutMatch& match : round)
          BOOST_TEST(match.by_seed == match.second.has_value());
      break;
  }
}

BOOST_AUTO_TEST_CASE(a_knockout_seeds_the_top_engines_apart_and_gives_them_the_byes) {
  TournamentConfig config = two_engine_config(1);
  config.format = TournamentFormat::Knockout;
  config.engines.clear();
  for (int i = 0; i < 6; ++i) config.engines.push_back(engine("e" + std::to_string(i)));
  const auto bracket = knockout_bracket(config, make_schedule(config), {});
  BOOST_REQUIRE(bracket.size() == 1u);
  // Seeds in bracket order 1 8 4 5 2 7 3 6: seeds 7 and 8 are byes.
  const std::vector<std::pair<std::size_t, std::optional<std::size_t>>> expected = {
      {0, std::nullopt}, {3, 4}, {1, std::nullopt}, {2, 5}};
  BOOST_REQUIRE(bracket[0].size() == expected.size());
  for (std::size_t m = 0; m < expected.size(); ++m) {
    BOOST_TEST(bracket[0][m].first == expected[m].first);
    BOOST_TEST((bracket[0][m].second == expected[m].second));
  }
  // The first stage plays the two real matches, the byes none.
  const auto schedule = make_schedule(config);
  BOOST_TEST(schedule.size() == 4u);
  BOOST_TEST(schedule[0].x == 3u);
  BOOST_TEST(schedule[2].x == 2u);
}

BOOST_AUTO_TEST_CASE(a_knockout_refuses_an_sprt_and_shards) {
  TournamentConfig config = two_engine_config(1);
  config.format = TournamentFormat::Knockout;
  config.engines.push_back(engine("seeded-3"));
  validate(config);
  config.sprt = SprtParameters{};
  BOOST_CHECK_THROW(validate(config), TournamentError);
  config.sprt.reset();
  config.shard = parse_shard("1/2");
  BOOST_CHECK_THROW(validate(config), TournamentError);
}

// The runner: a knockout of four scripted engines (one plays illegal moves, so it loses its first
// match) to its final, interrupted and resumed to the same bracket.
BOOST_DATA_TEST_CASE(a_knockout_plays_to_its_final_and_resumes_to_the_same_bracket,
                     bdata::make({1, 2}), concurrency) {
  TempDir straight_dir;
  TournamentConfig straight = two_engine_config(1);
  straight.format = TournamentFormat::Knockout;
  straight.engines = {engine("seeded-1"), engine("seeded-2"), engine("seeded-3"),
                      engine("illegal")};
  straight.concurrency = concurrency;
  keep_files_in(straight_dir, straight);
  RecordingSink straight_sink;
  const TournamentOutcome expected = play_scripted(straight, straight_sink);
  BOOST_TEST((expected.end == TournamentEnd::Completed));
  const auto& bracket = expected.standings.bracket;
  BOOST_REQUIRE(bracket.size() == 2u);
  BOOST_REQUIRE(bracket[0].size() == 2u);
  // Seed 1 against seed 4 (illegal, which forfeits every game), seed 2 against seed 3.
  BOOST_TEST(bracket[0][0].first == 0u);
  BOOST_TEST((bracket[0][0].second == std::optional<std::size_t>(3)));
  BOOST_TEST((bracket[0][0].winner == std::optional<std::size_t>(0)));
  BOOST_TEST(bracket[0][0].first_points == 2.0);
  BOOST_REQUIRE(bracket[1].size() == 1u);
  BOOST_TEST(bracket[1][0].first == 0u);
  BOOST_TEST(bracket[1][0].winner.has_value());
  BOOST_TEST(expected.standings.games == expected.standings.total_games);
  BOOST_TEST(expected.standings.games >= 6);
  const auto pgn = parse_pgn(read_file(straight.pgn_path));
  BOOST_TEST(pgn.size() == static_cast<std::size_t>(expected.standings.games));
  const std::string report = format_rating_report(straight, expected.standings);
  BOOST_TEST(report.find("Round 1: seeded-1 2.0 - 0.0 illegal, seeded-1 goes on") !=
             std::string::npos);
  BOOST_TEST(report.find("Knockout winner: " + straight.engines[*bracket[1][0].winner].name) !=
             std::string::npos);

  for (const int stop_after : {2, 5}) {
    TempDir dir;
    TournamentConfig config = straight;
    keep_files_in(dir, config);
    const TournamentOutcome first = play_scripted_until(config, stop_after);
    BOOST_TEST((first.end == TournamentEnd::Interrupted));
    const TournamentOutcome second = resume_to_the_end(config, first);
    BOOST_TEST(second.standings.games == expected.standings.games);
    BOOST_REQUIRE(second.standings.bracket.size() == bracket.size());
    for (std::size_t round = 0; round < bracket.size(); ++round)
      for (std::size_t m = 0; m < bracket[round].size(); ++m) {
        BOOST_TEST((second.standings.bracket[round][m].winner == bracket[round][m].winner));
        BOOST_TEST(second.standings.bracket[round][m].games == bracket[round][m].games);
      }
    auto games = read_results_file(config.results_path);
    auto straight_games = read_results_file(straight.results_path);
    const auto by_id = [](const FinishedGame& a, const FinishedGame& b) { return a.id < b.id; };
    std::sort(games.begin(), games.end(), by_id);
    std::sort(straight_games.begin(), straight_games.end(), by_id);
    BOOST_REQUIRE(games.size() == straight_games.size());
    for (std::size_t i = 0; i < games.size(); ++i) {
      BOOST_TEST(games[i].id == straight_games[i].id);
      BOOST_TEST(games[i].x == straight_games[i].x);
      BOOST_TEST(games[i].o == straight_games[i].o);
      BOOST_TEST((games[i].result == straight_games[i].result));
    }
    // The rounds of a knockout do not grow on a resume.
    config.rounds = 2;
    RecordingSink third;
    BOOST_CHECK_THROW((void)play_scripted(config, third), TournamentError);
  }
}

BOOST_AUTO_TEST_SUITE_END()
