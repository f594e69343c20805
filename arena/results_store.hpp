// The files a tournament leaves behind, kept consistent with each other after every game: the PGN
// of the games (appended and flushed to disk) and the results file, a JSON document with the
// tournament's description, every finished game, the standings and the ratings (rewritten
// through a temporary file and a rename, so it is always whole). Rewriting it after every game
// would make each game cost more than the one before, so a game is recorded by one line appended
// (and flushed) to the journal beside it, RESULTS.journal, and the results file is rewritten,
// and the journal emptied, every so many games and at the end. Every reader here (resume, merge,
// read_results_file) reads the journal too. The results file and each journal line also record
// the PGN's length, so a PGN game written just before a `kill -9` but not yet recorded is cut off
// on --resume and played again: both files then tell the same story.
#pragma once

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "game_record.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

// Where one game's text is in the PGN file (bytes); a zero length when there is no PGN.
struct PgnSpan {
  std::int64_t offset = 0;
  std::int64_t length = 0;
};

class ResultsStore {
 public:
  // `tablebase_layers`: the layers of the endgame tables the games are decided by (--tb), which
  // belong to the tournament's description; empty without tables.
  explicit ResultsStore(const TournamentConfig& config, std::vector<int> tablebase_layers = {});

  // Opens the files. A shard's results file records its shard, and a resume checks it.
  // Without config.resume (or when no results file exists yet) both files are
  // started afresh. With it, returns the games recorded by the earlier run and trims the PGN to
  // them. Throws TournamentError when the results file cannot be read, is not a results file, or
  // describes another tournament (other engines, format, rounds, time control, openings, rules,
  // tables, SPRT).
  [[nodiscard]] std::vector<FinishedGame> open();

  // Appends the game's PGN, then rewrites the results file with all games so far and the
  // standings. Throws TournamentError when a file cannot be written.
  void record(const FinishedGame& game, const GameRecord& record, const Standings& standings);

  // Rewrites the results file with the final standings and how the tournament ended.
  void finish(const Standings& standings, TournamentEnd end);

  // The run's id, once open() has run: config.run_id; on a resume without it, the results
  // file's; on a fresh start without it, one made up (16 random hex digits).
  [[nodiscard]] const std::string& run_id() const { return run_id_; }

 private:
  // --epd-out: the final positions of the PGN's games.
  void write_final_positions() const;
  // Rewrites the results file with every game, then empties the journal.
  void write_results(const Standings& standings, const std::string& status);
  // Games between rewrites of the results file: a quarter of the games so far, at least
  // kMinJournalGames.
  [[nodiscard]] std::size_t compaction_interval() const;
  static constexpr std::size_t kMinJournalGames = 64;

  const TournamentConfig& config_;
  std::vector<int> tablebase_layers_;
  std::vector<FinishedGame> games_;
  std::vector<PgnSpan> spans_;     // games_'s PGN
  std::size_t journal_games_ = 0;  // games in the journal, not in the results file yet
  // The PGN's length after the last recorded game: what a resume cuts the PGN back to.
  std::int64_t pgn_bytes_ = 0;
  std::string run_id_;
};

// The largest results file read (--resume, merge): far above a real tournament's (a game is a
// few hundred bytes), and a bound for a file that never ends.
inline constexpr std::size_t kResultsFileMaxMebibytes = 1024;

// The results file's content for tests and tools: its games, in the order they finished.
// Throws TournamentError when the file is missing or malformed.
std::vector<FinishedGame> read_results_file(const std::string& path);

// What identifies a tournament across processes (its shards): a hash of its description, the
// settings that a resume checks, as 16 hex digits.
[[nodiscard]] std::string tournament_identity(const TournamentConfig& config,
                                              const std::vector<int>& tablebase_layers);

// A results file read back whole, for merging shards (merge.hpp).
struct RecordedResults {
  std::string path;
  boost::json::value description;  // the tournament's, as written
  // The configuration rebuilt from the description, as far as standings and reports need it
  // (engines with their options and the defaults they declared, format, seeds, rounds, time
  // control, variant, SPRT); not the book's positions.
  TournamentConfig config;
  std::vector<FinishedGame> games;
  std::vector<PgnSpan> spans;  // games's PGN in pgn_path
  std::string pgn_path;
  std::int64_t pgn_bytes = 0;
  std::optional<Shard> shard;
  std::string status;  // "running", or end_name of how it ended
  std::string run_id;  // empty in a file written before runs had ids
  // The SPRT decision the pieces of a run recorded in --shared-dir, when this one ended on it.
  std::optional<SharedDecision> shared_decision;
};
// Throws TournamentError when the file is missing or malformed.
[[nodiscard]] RecordedResults read_recorded_results(const std::string& path);

// Why two descriptions are of different tournaments, naming the option ("--rounds differs (the
// file has 4, this run 8)"); empty when they are the same.
[[nodiscard]] std::string tournament_difference(const boost::json::value& recorded,
                                                const boost::json::value& other);

// Writes a results file (through a temporary file and a rename) for `results` with these
// standings, computed by the caller from results.config and results.games.
void write_results_file(const std::string& path, const RecordedResults& results,
                        const Standings& standings);

}  // namespace quixo::arena
