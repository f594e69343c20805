// The shards of one tournament (--shard I/N) tell each other their SPRT counts through a folder
// they all see (--shared-dir), so that an SPRT played as N shards decides on all of its games at
// once, as one process would, and every shard stops when it is decided.
//
// Each shard writes only its own file, DIR/quixo-arena-<tournament>.shard-I-of-N.json, where
// <tournament> is a hash of the tournament's description (results_store.hpp): shards of other
// tournaments in the same folder are never counted. Race policy: a file is replaced whole, through
// a temporary file and a rename, so a reader sees the earlier or the later counts and never half
// of them; a file that is missing or cannot be read (a shard that has not started, a file system
// caught mid-rename) counts as no games and is read again after the next game. Counts only grow,
// so a reader that is one game behind delays a decision by a game and never makes a wrong one.
#pragma once

#include <string>

#include "elo.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

class ShardExchange {
 public:
  // `tournament` identifies the tournament (tournament_identity); config.shard and
  // config.shared_dir must be set.
  ShardExchange(const TournamentConfig& config, std::string tournament);

  // The file this shard writes.
  [[nodiscard]] std::string own_file() const;

  // Publishes this shard's counts (its games and the pentanomial of the SPRT's pairing) and
  // returns the sum of every shard's latest: its own from `own`, the others' from their files.
  // `shards_seen` is set to the number of shards counted (this one included). Throws
  // TournamentError when the folder cannot be written.
  Pentanomial publish_and_combine(std::int64_t games, const Pentanomial& own, int& shards_seen);

 private:
  [[nodiscard]] std::string file_of(int index) const;

  std::string dir_;
  std::string tournament_;
  Shard shard_;
};

}  // namespace quixo::arena
