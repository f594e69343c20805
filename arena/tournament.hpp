// Tournaments: the runner that plays the schedule (schedule.hpp: who plays whom with which
// opening and colour) with N games at once (tournament_worker.hpp), keeps the running standings
// (standings.hpp), records each game as it ends (results_store.hpp), reports through a
// ReportSink, stops on an SPRT decision or an interrupt, and resumes an interrupted tournament
// from its results file.
//
// A four-player tournament (variant FourPlayer) plays the team game of game4.hpp between the same
// engines (builds): in each game one engine is team A (X, seats 1 and 3) and the other team B,
// the seats filled per seat (two processes of each engine) or per team (one process each); a game
// pair swaps which engine is team A. Its results are team results, and everything after the game
// (standings, Elo, SPRT, ratings, results file, resume) treats them as two-player results.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "engine_client.hpp"
#include "schedule.hpp"
#include "standings.hpp"
#include "tournament_types.hpp"

namespace quixo::tb {
class Tablebase;
}

namespace quixo::arena {

// The reports of a running tournament: live progress, a periodic rating report, the final one.
// Called under the runner's lock, one call at a time.
class ReportSink {
 public:
  virtual ~ReportSink() = default;
  virtual void tournament_started(const TournamentConfig& config, const Standings& standings) = 0;
  virtual void game_started(const TournamentConfig& config, const ScheduledGame& game) = 0;
  virtual void game_finished(const TournamentConfig& config, const FinishedGame& game,
                             const Standings& standings) = 0;
  // The finished game's whole record (every move with its reply time), told just before
  // game_finished, for the sinks that show more than the standings keep (the HTML report's time
  // per move): the results file does not hold the moves, and the PGN only with --pgn. Ignored
  // unless overridden.
  virtual void game_recorded(const TournamentConfig& /*config*/, const FinishedGame& /*game*/,
                             const GameRecord& /*record*/) {}
  virtual void interval_report(const TournamentConfig& config, const Standings& standings) = 0;
  virtual void tournament_finished(const TournamentConfig& config, const Standings& standings,
                                   TournamentEnd end) = 0;
  // A warning that does not stop the tournament (an engine restarted, the PGN trimmed, a layer
  // file of the endgame tables refused, ...).
  virtual void warning(const std::string& text) = 0;
  // The endgame tables (--tb) decide the two-player games that reach them: `layers` says which
  // are loaded, as Tablebase::describe() does ("layers 0 1"). Told once, after
  // tournament_started.
  virtual void tablebase_loaded(const TournamentConfig& config, const std::string& layers) = 0;
};

// Loads the endgame tables of --tb into `tables` and returns the files refused: a folder that is
// missing, or that holds no layer file the tables accept, is the user's error (TournamentError)
// and stops the run before it starts. Tournaments and tuning runs (tune.hpp) share it.
std::vector<std::string> load_tables(const std::string& dir, tb::Tablebase& tables);

// Plays the tournament. Checks first that the endgame tables of config.tablebase_path load (a
// two-player tournament; TournamentError when the folder is missing or holds no layer file that
// passes its checks; refused files are warnings) and that every engine starts and completes the
// handshake (TournamentError naming the engine otherwise). The tables are loaded once and shared
// by every game; a layer found corrupt while probing is dropped with a warning. With config.resume
// and an existing results file, the games recorded there are kept and only the rest are played; a
// results file of another tournament is refused with TournamentError naming the setting that
// differs. Without a resume, existing files that are not empty are refused unless config.overwrite.
// Each finished game is written to the PGN file and then the results file (atomically, see
// results_store.hpp) before it is reported. Setting `interrupt` ends the tournament between moves;
// games in progress are then not recorded and are played again on --resume, and so is a game
// that an engine's crash ended as the interrupt came (the signal reached the engines too).
// With config.shard only the shard's game pairs are played; with config.shared_dir the shards'
// counts are exchanged there (shard_exchange.hpp) and the SPRT decides on all of them. A statistics
// failure (an SPRT that cannot be computed) is reported through the sink's warning and in the
// standings, and the games go on. Before the first game every engine is started once: one that
// cannot start, or whose option.NAME=VALUE does not fit the options it declares (check_options;
// an undeclared name is only a warning with config.allow_unknown_options), stops the run with a
// TournamentError; an `info string` error it answers to its options is a warning.
struct TournamentOutcome {
  TournamentEnd end = TournamentEnd::Completed;
  Standings standings;
};
TournamentOutcome run_tournament(const TournamentConfig& config, ReportSink& sink,
                                 const std::atomic<bool>& interrupt,
                                 const ProcessLauncher& launcher = default_launcher());

}  // namespace quixo::arena
