#include "tournament.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

#include "communication_log.hpp"
#include "core/thread_start.hpp"
#include "output_files.hpp"
#include "results_store.hpp"
#include "shard_exchange.hpp"
#include "standings.hpp"
#include "tb/tablebase.hpp"
#include "tb/tb_file.hpp"
#include "tournament_worker.hpp"

namespace quixo::arena {
namespace {

// How long a crash waits for an interrupt that may have come with it.
constexpr std::chrono::milliseconds kSignalGrace{200};

// --debug: the reports go on as they were, and the log gets the arena's decisions too.
class DebugTee : public ReportSink {
 public:
  DebugTee(ReportSink& inner, CommunicationLog& log) : inner_(inner), log_(log) {}
  void tournament_started(const TournamentConfig& config, const Standings& standings) override {
    log_.note("tournament started: " + std::to_string(standings.total_games) + " games, " +
              std::to_string(standings.games) + " already played");
    inner_.tournament_started(config, standings);
  }
  void game_started(const TournamentConfig& config, const ScheduledGame& game) override {
    log_.note("game " + std::to_string(game.id + 1) + " started: " + config.engines[game.x].name +
              " (X) against " + config.engines[game.o].name + " (O) from " +
              format_opening(game.opening));
    inner_.game_started(config, game);
  }
  void game_finished(const TournamentConfig& config, const FinishedGame& game,
                     const Standings& standings) override {
    log_.note("game " + std::to_string(game.id + 1) +
              " finished: " + std::string(result_text(game.result)) + ", " +
              std::string(termination_name(game.termination)) + " (" + game.reason + ")" +
              (game.x_restarted || game.o_restarted ? ", an engine was restarted for it" : ""));
    inner_.game_finished(config, game, standings);
  }
  void game_recorded(const TournamentConfig& config, const FinishedGame& game,
                     const GameRecord& record) override {
    inner_.game_recorded(config, game, record);
  }
  void interval_report(const TournamentConfig& config, const Standings& standings) override {
    inner_.interval_report(config, standings);
  }
  void tournament_finished(const TournamentConfig& config, const Standings& standings,
                           TournamentEnd end) override {
    log_.note("tournament finished: " + std::string(end_name(end)) + " after " +
              std::to_string(standings.games) + " games");
    inner_.tournament_finished(config, standings, end);
  }
  void warning(const std::string& text) override {
    log_.note("warning: " + text);
    inner_.warning(text);
  }
  void tablebase_loaded(const TournamentConfig& config, const std::string& layers) override {
    log_.note("endgame tables: " + layers);
    inner_.tablebase_loaded(config, layers);
  }

 private:
  ReportSink& inner_;
  CommunicationLog& log_;
};

}  // namespace

std::vector<std::string> load_tables(const std::string& dir, tb::Tablebase& tables) {
  std::error_code error;
  if (!std::filesystem::exists(dir, error))
    throw TournamentError("--tb " + dir + ": no such folder");
  if (!std::filesystem::is_directory(dir, error))
    throw TournamentError("--tb " + dir + ": not a folder");
  tb::Tablebase::LoadReport report = tables.load(dir);
  if (report.layers.empty()) {
    std::string why;
    for (const std::string& problem : report.problems) why += (why.empty() ? "" : "; ") + problem;
    throw TournamentError("--tb " + dir + ": no valid endgame table in the folder (" +
                          (why.empty() ? "no layer file " + tb::layer_file_path("", 0).string() +
                                             ", ...; quixo-tb generate makes them"
                                       : "refused: " + why) +
                          ")");
  }
  return std::move(report.problems);
}

TournamentOutcome run_tournament(const TournamentConfig& given, ReportSink& report_sink,
                                 const std::atomic<bool>& interrupt,
                                 const ProcessLauncher& launcher) {
  validate(given);
  // The configuration with what the engines declare (their options' defaults), which the reports
  // and the results file show.
  TournamentConfig config = given;
  // The endgame tables, loaded once for every game (probing them is thread-safe), and before the
  // outputs are claimed: a wrong input is named before an output's state is.
  tb::Tablebase tables;
  const bool use_tables = !config.tablebase_path.empty() && config.variant == Variant::TwoPlayer;
  std::vector<std::string> refused_tables;
  if (use_tables) refused_tables = load_tables(config.tablebase_path, tables);
  // Checked and locked for the whole run, before anything is written.
  const ClaimedOutputs outputs(config);
  std::optional<CommunicationLog> log;
  if (!config.log_path.empty()) {
    try {
      log.emplace(config.log_path, config.log_max_bytes, continues_earlier_run(config));
    } catch (const std::runtime_error& error) {
      throw TournamentError(error.what());
    }
  }
  std::optional<DebugTee> debug_tee;
  if (log && config.debug) debug_tee.emplace(report_sink, *log);
  ReportSink& sink = debug_tee ? static_cast<ReportSink&>(*debug_tee) : report_sink;
  // A knockout's grows as its matches are decided (schedule.hpp); the others' are whole.
  std::vector<ScheduledGame> schedule = make_schedule(config);

  std::vector<int> table_layers;
  for (int layer = 0; layer <= tb::kMaxIndexedLayer; ++layer)
    if (tables.has_layer(layer)) table_layers.push_back(layer);

  // Fail before the first game, with the engine's own complaint, when an engine cannot run at
  // all (a wrong path, a binary that is not an engine) or is given an option it does not declare
  // or a value its option does not take; later failures only lose games. What the engine answers
  // to its options is told once, after the start.
  std::vector<std::string> option_warnings;
  for (EngineConfig& engine : config.engines) {
    const std::atomic<int> before_the_games{0};
    const EngineProbe probe = probe_engine(
        engine, log ? logged_launcher(launcher, *log, engine.name, before_the_games) : launcher,
        config.rules.stall_timeout);
    if (!probe.error.empty()) throw TournamentError(probe.error);
    for (const OptionProblem& problem : probe.option_problems) {
      if (!problem.undeclared || !config.allow_unknown_options)
        throw TournamentError(problem.message + (problem.undeclared
                                                     ? " (--allow-unknown-options sends it anyway)"
                                                     : ""));
      option_warnings.push_back(problem.message + "; sent anyway (--allow-unknown-options)");
    }
    for (const std::string& error : probe.option_errors)
      option_warnings.push_back("engine \"" + engine.name + "\" answered its options: " + error);
    engine.declared_defaults.clear();
    for (const uqi::OptionLine& option : probe.declared_options)
      if (option.default_value)
        engine.declared_defaults.emplace_back(option.name, *option.default_value);
  }

  ResultsStore store(config, table_layers);
  std::vector<FinishedGame> finished = store.open();
  // Each game's result by id, which a knockout's later stages follow from.
  std::vector<std::optional<GameResult>> results;
  for (const FinishedGame& game : finished)
    if (game.id >= 0) {
      if (static_cast<std::size_t>(game.id) >= results.size()) results.resize(game.id + 1);
      results[static_cast<std::size_t>(game.id)] = game.result;
    }
  // The stages that the recorded games decided, as the run that played them scheduled them.
  for (std::vector<ScheduledGame> stage = next_stage(config, schedule, results); !stage.empty();
       stage = next_stage(config, schedule, results))
    schedule.insert(schedule.end(), stage.begin(), stage.end());
  // A shard plays its own pairs only: the others' count as done.
  std::vector<bool> done(schedule.size(), false);
  if (config.shard) {
    const auto pairs = static_cast<std::int64_t>(schedule.size()) / 2;
    for (const ScheduledGame& game : schedule)
      done[game.id] = !config.shard->owns_pair(game.pair, pairs);
  }
  for (const FinishedGame& game : finished) {
    const auto id = static_cast<std::size_t>(game.id);
    if (game.id < 0 || id >= schedule.size() || done[id] ||
        std::minmax(game.x, game.o) != std::minmax(schedule[id].x, schedule[id].o))
      throw TournamentError(
          "the results file holds game " + std::to_string(game.id + 1) + ", which is not in this " +
          (config.shard ? std::string(config.shard->chunk ? "chunk" : "shard") + "'s share of the "
                        : "") +
          "tournament's schedule");
    done[id] = true;
  }

  // With --shared-dir the shards publish their counts after every game, and the SPRT decides on
  // all of them.
  std::optional<ShardExchange> exchange;
  if (!config.shared_dir.empty())
    exchange.emplace(config, tournament_identity(config, table_layers));
  // The standings grow game by game, at the same cost after every game however many came before.
  StandingsTally tally(config);
  for (const FinishedGame& game : finished) tally.add(game);
  const bool knockout = config.format == TournamentFormat::Knockout;
  const auto update_knockout = [&] {
    if (knockout)
      tally.set_knockout(known_total_games(config, schedule),
                         knockout_bracket(config, schedule, results));
  };
  update_knockout();
  const auto current_standings = [&] {
    Standings standings = tally.standings();
    if (!exchange) return standings;
    const Pentanomial own =
        standings.pairings.empty() ? Pentanomial{} : standings.pairings.front().pairs;
    const Pentanomial combined =
        exchange->publish_and_combine(standings.games, own, standings.sprt_shards);
    if (!config.sprt) {
      standings.sprt_shards = 0;
      return standings;
    }
    // The decision of the first piece that saw one stands, with the counts it was taken on.
    std::optional<SharedDecision> decided = exchange->recorded_decision();
    if (!decided) {
      sprt_or_error(combined, *config.sprt, standings.sprt, standings.sprt_error);
      if (standings.sprt && standings.sprt->decision != SprtResult::Decision::Continue)
        decided = exchange->record_decision(
            {standings.sprt->decision, combined, standings.sprt_shards, *config.shard});
    }
    if (decided) {
      standings.shared_decision = decided;
      standings.sprt_shards = decided->shards;
      standings.sprt.reset();
      standings.sprt_error.clear();
      sprt_or_error(decided->counts, *config.sprt, standings.sprt, standings.sprt_error);
      if (standings.sprt) standings.sprt->decision = decided->decision;
    }
    return standings;
  };

  TournamentOutcome outcome;
  outcome.standings = current_standings();
  sink.tournament_started(config, outcome.standings);
  for (const std::string& warning : option_warnings) sink.warning(warning);
  if (use_tables) {
    sink.tablebase_loaded(config, tables.describe());
    for (const std::string& problem : refused_tables)
      sink.warning("--tb: refused " + problem + "; the other layers are used");
  } else if (!config.tablebase_path.empty()) {
    sink.warning("--tb " + config.tablebase_path +
                 ": there are no four-player endgame tables, so this tournament does not use it");
  }
  // A layer found corrupt while probing is dropped (its games go on without it): told once.
  std::string told_table_problem;
  const auto tell_table_problem = [&] {
    if (!use_tables) return;
    const std::string problem = tables.last_problem();
    if (problem.empty() || problem == told_table_problem) return;
    told_table_problem = problem;
    sink.warning("--tb: " + problem + "; the games go on without it");
  };
  // A statistics failure is told once (and again should its reason change), not after every game.
  std::string told_sprt_error;
  const auto tell_sprt_error = [&](const Standings& standings) {
    std::string error = standings.sprt_error;
    for (const PairingTally& pairing : standings.pairings)
      if (error.empty()) error = pairing.sprt_error;
    if (error.empty() || error == told_sprt_error) return;
    told_sprt_error = error;
    sink.warning("the SPRT cannot be computed after " + std::to_string(standings.games) +
                 " games (" + error +
                 "); the games go on and are recorded, without an SPRT decision while this lasts");
  };
  tell_sprt_error(outcome.standings);
  // The shared SPRT decision, told once (whichever piece took it).
  bool told_decision = false;
  const auto tell_decision = [&](const Standings& standings) {
    if (told_decision || !standings.shared_decision) return;
    told_decision = true;
    sink.warning("the SPRT is decided: " + describe_shared_decision(*standings.shared_decision) +
                 " (recorded in " + exchange->decision_file() + "); this " +
                 (config.shard->chunk ? "chunk" : "shard") + " stops on it");
  };
  tell_decision(outcome.standings);

  std::mutex lock;
  // A knockout's worker that finds no game waits for the games in progress: their results may
  // call for more. (In the other formats it ends, and its engines quit, as soon as the schedule
  // has no game left for it.)
  std::condition_variable game_ended;
  int in_progress = 0;
  std::vector<bool> pairing_stopped(outcome.standings.pairings.size(), false);
  std::atomic<bool> halt{false};
  std::exception_ptr failure;
  const auto decide = [&](const Standings& standings) {
    if (!config.sprt) return;
    // A gauntlet SPRT: a pairing whose test is decided plays no more games (they count as done;
    // the schedule plays pairing p's pairs at p, p + P, p + 2P, ... for P pairings).
    const std::size_t pairings = standings.pairings.size();
    if (pairings > 1)
      for (std::size_t p = 0; p < pairings; ++p) {
        const std::optional<SprtResult>& test = standings.pairings[p].sprt;
        if (pairing_stopped[p] || !test || test->decision == SprtResult::Decision::Continue)
          continue;
        pairing_stopped[p] = true;
        for (std::size_t pair = p; 2 * pair + 1 < done.size(); pair += pairings)
          done[2 * pair] = done[2 * pair + 1] = true;
      }
    const SprtResult::Decision decision = sprt_decision(standings);
    if (decision == SprtResult::Decision::AcceptH0) {
      outcome.end = TournamentEnd::SprtAcceptedH0;
      halt = true;
    } else if (decision == SprtResult::Decision::AcceptH1) {
      outcome.end = TournamentEnd::SprtAcceptedH1;
      halt = true;
    }
  };
  decide(outcome.standings);

  std::size_t next = 0;
  const auto run_worker = [&] {
    TournamentWorker worker(config, launcher, use_tables ? &tables : nullptr,
                            log ? &*log : nullptr);
    try {
      while (true) {
        std::optional<ScheduledGame> game;
        {
          std::unique_lock guard(lock);
          while (!game) {
            while (next < schedule.size() && done[next]) ++next;
            if (halt || interrupt) break;
            if (next < schedule.size()) {
              game = schedule[next++];
            } else if (knockout && in_progress > 0) {
              game_ended.wait_for(guard, std::chrono::milliseconds(20));
            } else {
              std::vector<ScheduledGame> stage = next_stage(config, schedule, results);
              if (stage.empty()) break;
              schedule.insert(schedule.end(), stage.begin(), stage.end());
              done.resize(schedule.size(), false);
              update_knockout();
            }
          }
          if (!game) break;
          ++in_progress;
          sink.game_started(config, *game);
        }
        const std::optional<PlayedGame> played = worker.play(*game, halt);
        const auto game_over = [&] {
          --in_progress;
          game_ended.notify_all();
        };
        if (!played) {
          std::lock_guard guard(lock);
          game_over();
          break;
        }
        if (!played) break;
        // A signal that stops the arena (Ctrl-C in a terminal, scancel on a cluster) usually
        // reaches its engines too, and may end one of them a moment before the arena's own
        // handler runs. A crash that comes with an interrupt is not the engine's fault: the game
        // is not recorded, and --resume plays it again.
        if (played->finished.termination == Termination::Crash && !interrupt)
          std::this_thread::sleep_for(kSignalGrace);
        if (played->finished.termination == Termination::Crash && interrupt) {
          std::lock_guard guard(lock);
          game_over();
          break;
        }

        std::unique_lock guard(lock);
        game_over();
        const auto id = static_cast<std::size_t>(game->id);
        done[id] = true;
        if (id >= results.size()) results.resize(id + 1);
        results[id] = played->finished.result;
        tally.add(played->finished);
        update_knockout();
        outcome.standings = current_standings();
        store.record(played->finished, played->record, outcome.standings);
        sink.game_recorded(config, played->finished, played->record);
        sink.game_finished(config, played->finished, outcome.standings);
        tell_sprt_error(outcome.standings);
        tell_decision(outcome.standings);
        tell_table_problem();
        if (config.report_interval > 0 && outcome.standings.games % config.report_interval == 0 &&
            outcome.standings.games < outcome.standings.total_games)
          sink.interval_report(config, outcome.standings);
        if (outcome.end == TournamentEnd::Completed) decide(outcome.standings);
        const bool more_games = std::find(done.begin() + static_cast<std::ptrdiff_t>(next),
                                          done.end(), false) != done.end();
        if (config.wait_ms > 0 && more_games) {
          // --wait, interrupted by a stop; outside the lock, so other slots go on meanwhile.
          guard.unlock();
          const auto until =
              std::chrono::steady_clock::now() + std::chrono::milliseconds(config.wait_ms);
          while (!halt && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
      }
    } catch (...) {
      std::lock_guard guard(lock);
      if (!failure) failure = std::current_exception();
      halt = true;
    }
  };

  // The interrupt is the caller's flag; games watch `halt`, which also stops them on an SPRT
  // decision, so a small watcher forwards one to the other.
  std::atomic<bool> workers_done{false};
  auto watch = [&] {
    while (!workers_done) {
      if (interrupt) halt = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  };
  // A thread the system cannot start (--concurrency above what it gives) stops the run as an
  // interrupt does: the games under way are left unrecorded, those recorded stay (--resume).
  std::string start_failure;
  std::thread watcher;
  std::vector<std::thread> workers;
  workers.reserve(std::size_t(std::max(config.concurrency, 0)));
  try {
    watcher = start_thread(watch);
  } catch (const std::system_error& error) {
    start_failure = thread_start_failure(0, 1, error) + " to watch for interrupts";
  }
  for (int index = 0; start_failure.empty() && index < config.concurrency; ++index) {
    try {
      workers.push_back(start_thread(run_worker));
    } catch (const std::system_error& error) {
      start_failure = "--concurrency " + std::to_string(config.concurrency) + ": " +
                      thread_start_failure(index, config.concurrency, error) +
                      "; the games recorded so far are kept (--resume goes on from them)";
      halt = true;
    }
  }
  for (std::thread& thread : workers) thread.join();
  workers_done = true;
  if (watcher.joinable()) watcher.join();
  if (!start_failure.empty()) throw std::runtime_error(start_failure);
  if (failure) std::rethrow_exception(failure);

  // A knockout is over when the final is decided, not when the games scheduled so far are.
  if (outcome.end == TournamentEnd::Completed &&
      (std::find(done.begin(), done.end(), false) != done.end() ||
       !next_stage(config, schedule, results).empty()))
    outcome.end = TournamentEnd::Interrupted;
  // Every game played and no decision: the tournament did not complete what it was for.
  if (outcome.end == TournamentEnd::Completed && config.sprt)
    outcome.end = TournamentEnd::SprtUndecided;
  store.finish(outcome.standings, outcome.end);
  sink.tournament_finished(config, outcome.standings, outcome.end);
  return outcome;
}

}  // namespace quixo::arena
