// The files a tournament leaves behind, kept consistent with each other after every game: the PGN
// of the games (appended and flushed to disk) and the results file, a JSON document with the
// tournament's description, every finished game, the standings and the ratings (rewritten
// through a temporary file and a rename, so it is always whole). The results file also records
// the PGN's length, so a PGN game written just before a `kill -9` but not yet in the results file
// is cut off on --resume and played again: both files then tell the same story.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "game_record.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

class ResultsStore {
 public:
  // `tablebase_layers`: the layers of the endgame tables the games are decided by (--tb), which
  // belong to the tournament's description; empty without tables.
  explicit ResultsStore(const TournamentConfig& config, std::vector<int> tablebase_layers = {});

  // Opens the files. Without config.resume (or when no results file exists yet) both files are
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

 private:
  void write_results(const Standings& standings, const std::string& status);

  const TournamentConfig& config_;
  std::vector<int> tablebase_layers_;
  std::vector<FinishedGame> games_;
  // The PGN's length after the last recorded game: what a resume cuts the PGN back to.
  std::int64_t pgn_bytes_ = 0;
};

// The results file's content for tests and tools: its games, in the order they finished.
// Throws TournamentError when the file is missing or malformed.
std::vector<FinishedGame> read_results_file(const std::string& path);

}  // namespace quixo::arena
