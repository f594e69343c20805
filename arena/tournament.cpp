#include "tournament.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <set>
#include <thread>

#include "core/notation.hpp"
#include "results_store.hpp"
#include "tournament_worker.hpp"

namespace quixo::arena {

void validate(const TournamentConfig& config) {
  const std::size_t count = config.engines.size();
  if (count < 2) throw TournamentError("a tournament needs at least two engines");
  std::set<std::string> names;
  for (const EngineConfig& engine : config.engines) {
    if (engine.name.empty()) throw TournamentError("every engine needs a name");
    if (engine.process.command.empty())
      throw TournamentError("engine \"" + engine.name + "\" has no command");
    if (!names.insert(engine.name).second)
      throw TournamentError("two engines are named \"" + engine.name + "\"; names must be unique");
  }
  if (config.rounds < 1) throw TournamentError("rounds must be at least 1");
  if (config.concurrency < 1) throw TournamentError("concurrency must be at least 1");
  if (config.report_interval < 0) throw TournamentError("the report interval cannot be negative");
  if (config.format == TournamentFormat::Gauntlet &&
      (config.seeds < 1 || static_cast<std::size_t>(config.seeds) >= count))
    throw TournamentError("a gauntlet needs 1 to " + std::to_string(count - 1) + " seeds for " +
                          std::to_string(count) + " engines");
  if (config.sprt) {
    if (count != 2)
      throw TournamentError(
          "an SPRT needs exactly two engines (the first is the one tested), not " +
          std::to_string(count));
    try {
      config.sprt->validate();
    } catch (const std::invalid_argument& error) {
      throw TournamentError(error.what());  // "SPRT: ..." with the values and what is accepted
    }
  }
  if (config.rules.repetitions < 2) throw TournamentError("repetitions must be at least 2");
  if (config.rules.max_plies < 0) throw TournamentError("the ply cap cannot be negative");
  if (config.rules.stall_timeout.count() < 1)
    throw TournamentError("the stall timeout must be at least 1 ms");
  // A book of the other variant cannot be played; say which opening and which option.
  const bool four_players = config.variant == Variant::FourPlayer;
  for (std::size_t i = 0; i < config.openings.size(); ++i) {
    if ((variant_of(config.openings[i].position) == Variant::FourPlayer) == four_players) continue;
    throw TournamentError(
        "opening " + std::to_string(i + 1) +
        (config.openings_source.empty() ? std::string() : " of " + config.openings_source) + " (" +
        format_opening(config.openings[i]) + ") is a " +
        (four_players ? "two-player position, but the tournament plays the four-player game "
                        "(--variant 4p)"
                      : "four-player position, but the tournament plays the two-player game "
                        "(use --variant 4p)"));
  }
}

TournamentOutcome run_tournament(const TournamentConfig& config, ReportSink& sink,
                                 const std::atomic<bool>& interrupt,
                                 const ProcessLauncher& launcher) {
  validate(config);
  const std::vector<ScheduledGame> schedule = make_schedule(config);

  // Fail before the first game, with the engine's own complaint, when an engine cannot run at
  // all (a wrong path, a binary that is not an engine); later failures only lose games.
  for (const EngineConfig& engine : config.engines) {
    EngineClient probe(engine, launcher);
    if (!probe.start(config.rules.stall_timeout)) throw TournamentError(probe.last_error());
    probe.quit();
  }

  ResultsStore store(config);
  std::vector<FinishedGame> finished = store.open();
  std::vector<bool> done(schedule.size(), false);
  for (const FinishedGame& game : finished) {
    if (game.id < 0 || static_cast<std::size_t>(game.id) >= schedule.size())
      throw TournamentError("the results file holds game " + std::to_string(game.id + 1) +
                            ", which is not in this tournament's schedule");
    done[static_cast<std::size_t>(game.id)] = true;
  }

  TournamentOutcome outcome;
  outcome.standings = compute_standings(config, finished);
  sink.tournament_started(config, outcome.standings);
  // A statistics failure is told once (and again should its reason change), not after every game.
  std::string told_sprt_error;
  const auto tell_sprt_error = [&](const Standings& standings) {
    if (standings.sprt_error.empty() || standings.sprt_error == told_sprt_error) return;
    told_sprt_error = standings.sprt_error;
    sink.warning("the SPRT cannot be computed after " + std::to_string(standings.games) +
                 " games (" + standings.sprt_error +
                 "); the games go on and are recorded, without an SPRT decision while this lasts");
  };
  tell_sprt_error(outcome.standings);

  std::mutex lock;
  std::atomic<bool> halt{false};
  std::exception_ptr failure;
  const auto decide = [&](const Standings& standings) {
    if (!standings.sprt) return;
    if (standings.sprt->decision == SprtResult::Decision::AcceptH0) {
      outcome.end = TournamentEnd::SprtAcceptedH0;
      halt = true;
    } else if (standings.sprt->decision == SprtResult::Decision::AcceptH1) {
      outcome.end = TournamentEnd::SprtAcceptedH1;
      halt = true;
    }
  };
  decide(outcome.standings);

  std::size_t next = 0;
  const auto run_worker = [&] {
    TournamentWorker worker(config, launcher);
    try {
      while (true) {
        const ScheduledGame* game = nullptr;
        {
          std::lock_guard guard(lock);
          while (next < schedule.size() && done[next]) ++next;
          if (halt || interrupt || next == schedule.size()) break;
          game = &schedule[next++];
          sink.game_started(config, *game);
        }
        const std::optional<PlayedGame> played = worker.play(*game, halt);
        if (!played) break;

        std::lock_guard guard(lock);
        finished.push_back(played->finished);
        done[static_cast<std::size_t>(game->id)] = true;
        outcome.standings = compute_standings(config, finished);
        store.record(played->finished, played->record, outcome.standings);
        sink.game_finished(config, played->finished, outcome.standings);
        tell_sprt_error(outcome.standings);
        if (config.report_interval > 0 && outcome.standings.games % config.report_interval == 0 &&
            outcome.standings.games < outcome.standings.total_games)
          sink.interval_report(config, outcome.standings);
        if (outcome.end == TournamentEnd::Completed) decide(outcome.standings);
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
  std::thread watcher([&] {
    while (!workers_done) {
      if (interrupt) halt = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  std::vector<std::thread> workers;
  for (int index = 0; index < config.concurrency; ++index) workers.emplace_back(run_worker);
  for (std::thread& thread : workers) thread.join();
  workers_done = true;
  watcher.join();
  if (failure) std::rethrow_exception(failure);

  if (outcome.end == TournamentEnd::Completed &&
      std::find(done.begin(), done.end(), false) != done.end())
    outcome.end = TournamentEnd::Interrupted;
  // Every game played and no decision: the tournament did not complete what it was for.
  if (outcome.end == TournamentEnd::Completed && config.sprt)
    outcome.end = TournamentEnd::SprtUndecided;
  store.finish(outcome.standings, outcome.end);
  sink.tournament_finished(config, outcome.standings, outcome.end);
  return outcome;
}

}  // namespace quixo::arena
