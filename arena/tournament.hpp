// Tournaments: who plays whom with which opening and colour (match, gauntlet, round-robin, each
// opening as a game pair with colours swapped), the running standings of every pairing and
// engine, and the runner that plays the schedule with N games at once, records each game as it
// ends, reports through a ReportSink, stops on an SPRT decision or an interrupt, and resumes an
// interrupted tournament from its results file.
//
// A four-player tournament (variant FourPlayer) plays the team game of game4.hpp between the same
// engines (builds): in each game one engine is team A (X, seats 1 and 3) and the other team B,
// the seats filled per seat (two processes of each engine) or per team (one process each); a game
// pair swaps which engine is team A. Its results are team results, and everything after the game
// (standings, Elo, SPRT, ratings, results file, resume) treats them as two-player results.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "engine_client.hpp"
#include "game_record.hpp"
#include "game_rules.hpp"
#include "openings.hpp"
#include "statistics.hpp"
#include "time_control.hpp"

namespace quixo::arena {

enum class TournamentFormat {
  RoundRobin,  // every engine against every other; with two engines, a head-to-head match
  Gauntlet,    // the first `seeds` engines against each of the others, not among themselves
};
std::string_view format_name(TournamentFormat format);  // "round-robin", "gauntlet"

struct TournamentConfig {
  std::vector<EngineConfig> engines;
  TournamentFormat format = TournamentFormat::RoundRobin;
  int seeds = 1;                                               // gauntlet only
  int rounds = 1;                                              // game pairs per pairing of engines
  TimeControl time_control = TimeControl::clock(10'000, 100);  // unless an engine has its own
  GameRules rules;
  Variant variant = Variant::TwoPlayer;
  Seating seating = Seating::PerSeat;  // four players only
  std::vector<Opening> openings;       // empty: every game starts from the variant's start position
  OpeningOrder opening_order = OpeningOrder::Sequential;
  std::uint64_t opening_seed = 1;
  std::size_t opening_offset = 0;
  std::string openings_source;  // the book's file name, for reports
  int concurrency = 1;
  std::optional<SprtParameters> sprt;  // two engines only
  int report_interval = 10;            // games between rating reports; 0: only at the end
  std::string event = "quixo-arena";
  std::string site;
  std::string pgn_path;      // empty: no PGN
  std::string results_path;  // empty: no results file (and no resume)
  bool resume = false;
  // A run that starts afresh may replace an existing PGN or results file that is not empty;
  // otherwise it refuses to start (a resume never replaces anything).
  bool overwrite = false;
};

class TournamentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws TournamentError for a configuration that cannot run (fewer than two engines, duplicate
// names, no rounds, SPRT with other than two engines, a gauntlet without non-seeds, an opening of
// the other variant, ...).
void validate(const TournamentConfig& config);

// One game of the schedule. Games 2k and 2k+1 are a pair: the same opening, colours swapped.
struct ScheduledGame {
  int id = 0;         // 0-based position in the schedule
  int round = 0;      // 0-based
  int pair = 0;       // id / 2
  std::size_t x = 0;  // engine indices (four players: team A's and team B's engine)
  std::size_t o = 0;
  Opening opening;
};
// Round by round: in each round every pairing (first, second) plays the round's opening twice,
// first with `first` as X, then swapped. The opening of round r is the r-th of the book's
// sequence (or the start position).
std::vector<ScheduledGame> make_schedule(const TournamentConfig& config);

// One finished game as the standings and the results file keep it.
struct FinishedGame {
  int id = 0;
  int round = 0;
  std::size_t x = 0;  // four players: team A's engine
  std::size_t o = 0;  // four players: team B's engine
  GameResult result = GameResult::Draw;
  Termination termination = Termination::Repetition;
  std::string reason;
  int plies = 0;        // engine moves (book moves not included)
  std::string opening;  // format_opening of the opening
  // The engine was restarted for this game (four players per seat: one of its two processes was,
  // or both).
  bool x_restarted = false;
  bool o_restarted = false;
};

struct EngineTally {
  std::string name;
  Trinomial results;  // against everybody
  std::int64_t crashes = 0;
  std::int64_t time_forfeits = 0;
  std::int64_t illegal_moves = 0;
  std::int64_t stalls = 0;
  // Games for which it was restarted (after a crash, stall or late move); the first start of each
  // of its processes is not a restart.
  std::int64_t restarts = 0;
};

struct PairingTally {
  std::size_t first = 0;  // engine indices; counts are from `first`'s point of view
  std::size_t second = 0;
  Trinomial results;
  Pentanomial pairs;  // completed game pairs only
};

struct Standings {
  std::vector<EngineTally> engines;
  std::vector<PairingTally> pairings;
  std::int64_t games = 0;
  std::int64_t total_games = 0;            // in the schedule
  std::vector<std::int64_t> terminations;  // by Termination value
  std::optional<SprtResult> sprt;          // when the tournament runs an SPRT (and it could be
                                           // computed)
  // Why the SPRT could not be computed from these games (a statistics failure); empty otherwise.
  // The tournament goes on without a decision, and reports say why.
  std::string sprt_error;
};
Standings compute_standings(const TournamentConfig& config, const std::vector<FinishedGame>& games);

// Maximum-likelihood ratings of every engine from the standings (Bradley-Terry with a small
// prior so that no rating is infinite), or nullopt when the engines are not connected by games
// (or the ratings cannot be computed: a report then goes without them).
std::optional<Ratings> rate_engines(const Standings& standings);

// How the tournament ended; the command line maps it to its exit code. SprtUndecided: every game
// of an SPRT was played without a decision.
enum class TournamentEnd { Completed, SprtAcceptedH0, SprtAcceptedH1, SprtUndecided, Interrupted };
// "completed", "H0 accepted", "H1 accepted", "SPRT undecided", "interrupted".
std::string_view end_name(TournamentEnd end);
std::ostream& operator<<(std::ostream& out, TournamentEnd end);

// The reports of a running tournament: live progress, a periodic rating report, the final one.
// Called under the runner's lock, one call at a time.
class ReportSink {
 public:
  virtual ~ReportSink() = default;
  virtual void tournament_started(const TournamentConfig& config, const Standings& standings) = 0;
  virtual void game_started(const TournamentConfig& config, const ScheduledGame& game) = 0;
  virtual void game_finished(const TournamentConfig& config, const FinishedGame& game,
                             const Standings& standings) = 0;
  virtual void interval_report(const TournamentConfig& config, const Standings& standings) = 0;
  virtual void tournament_finished(const TournamentConfig& config, const Standings& standings,
                                   TournamentEnd end) = 0;
  // A warning that does not stop the tournament (an engine restarted, the PGN trimmed, ...).
  virtual void warning(const std::string& text) = 0;
};

// Plays the tournament. Checks first that every engine starts and completes the handshake
// (TournamentError naming the engine otherwise). With config.resume and an existing results file,
// the games recorded there are kept and only the rest are played; a results file of another
// tournament is refused with TournamentError naming the setting that differs. Without a resume,
// existing files that are not empty are refused unless config.overwrite. Each finished game is
// written to the PGN file and then the results file (atomically, see results_store.hpp) before it
// is reported. Setting `interrupt` ends the tournament between moves; games in progress are then
// not recorded and are played again on --resume. A statistics failure (an SPRT that cannot be
// computed) is reported through the sink's warning and in the standings, and the games go on.
struct TournamentOutcome {
  TournamentEnd end = TournamentEnd::Completed;
  Standings standings;
};
TournamentOutcome run_tournament(const TournamentConfig& config, ReportSink& sink,
                                 const std::atomic<bool>& interrupt,
                                 const ProcessLauncher& launcher = default_launcher());

}  // namespace quixo::arena
