// The tournament's vocabulary: its configuration, the schedule's and the results file's games,
// the standings of every engine and pairing, and how a tournament ends. Plain types (and their
// names), below everything that plays, keeps or reports a tournament.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/notation.hpp"
#include "elo.hpp"
#include "engine_client.hpp"
#include "game_record.hpp"
#include "game_rules.hpp"
#include "openings.hpp"
#include "pgn_writer.hpp"
#include "sprt.hpp"
#include "time_control.hpp"

namespace quixo::arena {

enum class TournamentFormat {
  RoundRobin,  // every engine against every other; with two engines, a head-to-head match
  Gauntlet,    // the first `seeds` engines against each of the others, not among themselves
  Knockout,    // a bracket seeded in the engines' order; each match's winner goes on (schedule.hpp)
};
// "round-robin", "gauntlet", "knockout"
[[nodiscard]] std::string_view format_name(TournamentFormat format);
// Those names, and "match" (a round-robin of two); nullopt for any other.
[[nodiscard]] std::optional<TournamentFormat> parse_format(std::string_view name);

// --shard I/N: one of N processes that share a tournament's schedule. Game pair p (games 2p and
// 2p+1) belongs to shard p % N + 1, so every shard plays pairs from every round and pairing, and
// the shards' early games together are the tournament's early games.
// --chunk I/N: one of N contiguous ranges of the schedule's P pairs, chunk I the pairs
// (I - 1) * P / N to I * P / N - 1 (rounded down), meant to be many more than the nodes that play
// them, handed out by the scheduler (a Slurm job array) to whichever node is free. Either way the
// game a pair plays depends only on its index, so the pieces merge into the single run's games.
struct Shard {
  int index = 1;  // 1 to count
  int count = 1;
  bool chunk = false;  // --chunk (a contiguous range) rather than --shard (every N-th pair)
  // Whether pair `pair` of a schedule of `pairs` pairs is this piece's.
  [[nodiscard]] bool owns_pair(std::int64_t pair, std::int64_t pairs) const {
    if (!chunk) return pair % count == index - 1;
    return pair >= chunk_start(index, pairs) && pair < chunk_start(index + 1, pairs);
  }
  // How many of the pairs 0 .. pairs - 1 are this piece's.
  [[nodiscard]] std::int64_t pairs_owned(std::int64_t pairs) const {
    if (chunk) return chunk_start(index + 1, pairs) - chunk_start(index, pairs);
    return pairs / count + (pairs % count >= index ? 1 : 0);
  }
  bool operator==(const Shard&) const = default;

 private:
  // The first pair of chunk `piece` (1 to count + 1, the last one past the end).
  [[nodiscard]] std::int64_t chunk_start(int piece, std::int64_t pairs) const {
    return (piece - 1) * pairs / count;
  }
};
// "2/4"; parse_shard reads it back (a chunk's when `chunk`) and throws std::invalid_argument with
// the reason otherwise.
[[nodiscard]] std::string shard_name(const Shard& shard);
[[nodiscard]] Shard parse_shard(std::string_view text, bool chunk = false);
// "shard 2/4" or "chunk 2/64", as messages name it.
[[nodiscard]] std::string shard_label(const Shard& shard);
// A piece's own file beside the tournament's: "out/games.pgn" -> "out/games.shard-2-of-4.pgn"
// ("out/games.chunk-2-of-64.pgn" for a chunk).
[[nodiscard]] std::string shard_file_path(const std::string& path, const Shard& shard);
// The piece whose own file `path` is (shard_file_path's name read back); nullopt when it is not
// such a name.
[[nodiscard]] std::optional<Shard> shard_of_file_path(const std::string& path);

// --anchor NAME=ELO: the rating list gives that engine this rating.
struct RatingAnchor {
  std::string name;
  double elo = 0.0;
};

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
  OpeningPolicy opening_policy = OpeningPolicy::Round;
  std::uint64_t opening_seed = 1;
  std::size_t opening_offset = 0;
  std::string openings_source;  // the book's file name, for reports
  int concurrency = 1;
  std::int64_t wait_ms = 0;            // --wait: what each game slot waits between games
  std::optional<SprtParameters> sprt;  // two engines only
  std::optional<RatingAnchor> anchor;
  int report_interval = 10;  // games between rating reports; 0: only at the end
  std::string event = "quixo-arena";
  std::string site;
  // --tb: the folder of the endgame tables (quixo-tb's layer files), loaded once by
  // run_tournament and shared by every game; a two-player game ends when it reaches a position
  // they hold. Empty: no tables. The four-player game has none and does not use them.
  std::string tablebase_path;
  // --log: every line to and from the engines (communication_log.hpp), bounded to about
  // 2 * log_max_bytes; --debug adds the arena's own decisions. Empty: no log.
  std::string log_path;
  std::int64_t log_max_bytes = std::int64_t{64} << 20;
  bool debug = false;
  std::string pgn_path;  // empty: no PGN
  // --epd-out: the final position of every game, one line each, written from the PGN at the end
  // of the run (so it never disagrees with it). Empty: none.
  std::string epd_path;
  PgnStyle pgn_style = PgnStyle::Full;
  std::string results_path;  // empty: no results file (and no resume)
  bool resume = false;
  // The files the reports write (--report-html FILE): the option's name without "--", and the
  // file; checked and locked with the other outputs (output_files.hpp). The sinks write them.
  std::vector<std::pair<std::string, std::string>> report_files;
  // A run that starts afresh may replace an existing output that is not empty; otherwise it
  // refuses to start (a resume continues its files, output_files.hpp).
  bool overwrite = false;
  // This process plays only its shard or chunk of the schedule (pgn_path and results_path are
  // then its own files); nullopt: all of it.
  std::optional<Shard> shard;
  // --run-id: what tells this run from another run of the same tournament (a rerun after
  // rebuilding an engine at the same path). Written into the results file and the shared counts;
  // the pieces of one run share it, and counts or decisions of other runs are not counted. Empty:
  // a resume keeps the results file's, a fresh run makes one up (results_store.hpp).
  std::string run_id;
  // --shared-dir: a folder every shard sees. Each shard publishes its counts there after every
  // game, and with an SPRT decides on the counts of all shards together. Empty: none.
  std::string shared_dir;
  // --allow-unknown-options: an option.NAME that an engine does not declare is sent with a
  // warning (for engines that take options they do not announce) instead of stopping the run.
  bool allow_unknown_options = false;
};

class TournamentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws TournamentError for a configuration that cannot run (fewer than two engines, duplicate
// names, no rounds, SPRT with other than two engines, a gauntlet without non-seeds, an opening of
// the other variant, ...).
void validate(const TournamentConfig& config);

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

// How a finished game ended, in the words cutechess-cli and fastchess use for their result
// comments: "X loses on time: <reason>", "O makes an illegal move: <reason>", "X disconnects:
// <reason>", "O's connection stalls: <reason>", "X wins by adjudication: <reason>" (resign and
// tablebase adjudication), "Draw by adjudication: <reason>" (draw adjudication, tablebase draw,
// ply cap), "Draw by repetition: <reason>", and for a line the reason alone; the first letter is
// a capital, as cutechess makes it. The sides are X and O, in the four-player game the teams A
// and B. Scripts that look for "loses on time" or "disconnects" find them.
[[nodiscard]] std::string result_description(Variant variant, const FinishedGame& game);

struct EngineTally {
  std::string name;
  Trinomial results;    // against everybody
  Trinomial x_results;  // its games as X (PGN's White; team A); results - x_results: as O
  std::int64_t crashes = 0;
  std::int64_t time_forfeits = 0;
  std::int64_t illegal_moves = 0;
  std::int64_t stalls = 0;
  // Games for which it was restarted (after a crash, stall or late move); the first start of each
  // of its processes is not a restart.
  std::int64_t restarts = 0;
  // Its games by how they ended, as cutechess-cli counts them: a draw under its
  // result_description, a win as "Win: " and a loss as "Loss: " before it.
  std::map<std::string, std::int64_t> outcomes;
};

struct PairingTally {
  std::size_t first = 0;  // engine indices; counts are from `first`'s point of view
  std::size_t second = 0;
  Trinomial results;
  Pentanomial pairs;  // completed game pairs only
  // Of the pairs that scored 1/2 (pairs.counts[2]), those of a win and a loss; the others were
  // two draws (fastchess's WL/DD ratio tells them apart).
  std::int64_t win_loss_pairs = 0;
  // The pairing's own SPRT (config.sprt): in a match it is the tournament's; in a gauntlet SPRT
  // each pairing of the tested engine has its own. sprt_error says why it could not be computed.
  std::optional<SprtResult> sprt;
  std::string sprt_error;
};

// One match of a knockout's bracket (schedule.hpp): who plays, the score so far, and who goes on.
struct KnockoutMatch {
  int round = 0;                      // 0-based
  std::size_t first = 0;              // the higher seed
  std::optional<std::size_t> second;  // nullopt: a bye, which `first` wins without a game
  double first_points = 0.0;
  double second_points = 0.0;
  int games = 0;            // finished
  int scheduled_games = 0;  // finished, being played or waiting
  std::optional<std::size_t> winner;
  bool by_seed = false;  // still tied after every tiebreak pair: the higher seed went on
};

// An SPRT decision of a sharded match, taken by the first piece that saw it and recorded once in
// --shared-dir (shard_exchange.hpp): every piece and the merge report it, and the counts it was
// taken on, whatever games were played after it.
struct SharedDecision {
  SprtResult::Decision decision = SprtResult::Decision::Continue;
  Pentanomial counts;  // every piece's counts that the decision was taken on
  int shards = 0;      // how many pieces those counts came from
  Shard by;            // the piece that took it
  bool operator==(const SharedDecision&) const = default;
};

struct Standings {
  std::vector<EngineTally> engines;
  std::vector<PairingTally> pairings;
  std::int64_t games = 0;
  // In the schedule; in a knockout, as far as it is known (the games scheduled so far, and
  // config.rounds pairs for each match to come).
  std::int64_t total_games = 0;
  // A knockout's bracket, round by round, each round's matches in bracket order (empty otherwise).
  std::vector<std::vector<KnockoutMatch>> bracket;
  std::vector<std::int64_t> terminations;  // by Termination value
  // A match's SPRT (pairing 0's, or with --shared-dir all shards' together), when it could be
  // computed; a gauntlet SPRT has one per pairing instead (PairingTally::sprt).
  std::optional<SprtResult> sprt;
  // Why the SPRT could not be computed from these games (a statistics failure); empty otherwise.
  // The tournament goes on without a decision, and reports say why.
  std::string sprt_error;
  // The shards whose counts the SPRT adds up (--shared-dir), this one included; 0 when the SPRT is
  // of this process's games alone.
  int sprt_shards = 0;
  // The decision recorded in --shared-dir (or in the pieces' results files, for a merge); `sprt`
  // is then the SPRT of its counts.
  std::optional<SharedDecision> shared_decision;
};

// How the tournament ended; the command line maps it to its exit code. SprtUndecided: every game
// of an SPRT was played without a decision.
enum class TournamentEnd { Completed, SprtAcceptedH0, SprtAcceptedH1, SprtUndecided, Interrupted };
// "completed", "H0 accepted", "H1 accepted", "SPRT undecided", "interrupted".
[[nodiscard]] std::string_view end_name(TournamentEnd end);

}  // namespace quixo::arena
