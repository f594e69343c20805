// quixo-arena merge: the results files of a tournament's shards (--shard I/N) made into one PGN,
// one results file and one report, as if one process had played every game.
#pragma once

#include <string>
#include <vector>

#include "tournament.hpp"

namespace quixo::arena {

struct MergeOutcome {
  // Completed, SprtAcceptedH0/H1 or SprtUndecided as a single run would end; Interrupted when
  // games are missing without an SPRT decision (a shard still running, or stopped: resume it).
  TournamentEnd end = TournamentEnd::Completed;
  Standings standings;
};

// Reads the shards' results files (and the PGN files they name, when `pgn_path` is not empty),
// checks that they are the shards of one tournament (the same description and shard count, each
// shard once) and that each game is in its own shard's file once and as scheduled, then writes
// the merged results file and PGN (games in schedule order) and reports the merged standings
// through `sink` (warnings for what is missing, then tournament_finished). A tournament still
// running merges as far as it has got. Throws TournamentError, naming the file, for what cannot
// be merged.
MergeOutcome merge_shards(const std::vector<std::string>& shard_files,
                          const std::string& results_path, const std::string& pgn_path,
                          ReportSink& sink);

}  // namespace quixo::arena
