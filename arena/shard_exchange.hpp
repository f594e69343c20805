// The pieces of one run of a tournament (--shard I/N or --chunk I/N) tell each other their SPRT
// counts through a folder they all see (--shared-dir), so that an SPRT played in pieces decides
// on all of its games at once, as one process would, and every piece stops when it is decided.
//
// Each piece writes only its own file, DIR/quixo-arena-<tournament>-<run>.shard-I-of-N.json
// (.chunk-I-of-N for a chunk), where <tournament> is a hash of the tournament's description
// (results_store.hpp) and <run> the run's id (--run-id): pieces of other tournaments, and of
// other runs of this one (an earlier run of the same engines' paths), are never counted. Race
// policy: a file is replaced whole, through a temporary file and a rename, so a reader sees the
// earlier or the later counts and never half of them; a file that is missing or cannot be read (a
// piece that has not started, a file system caught mid-rename) counts as no games and is read
// again after the next game. Counts only grow, so a reader that is one game behind delays a
// decision by a game and never makes a wrong one.
//
// The first piece to see a decision records it, with the counts it was taken on, in
// DIR/quixo-arena-<tournament>-<run>.decision.json. That file is written once: written whole
// beside it, then hard-linked to its name, which fails when it exists, so of two pieces deciding
// at once the first link wins and the other takes its decision. Every piece reads it after every
// game (and before its first), and stops on it with that decision and those counts.
#pragma once

#include <boost/json/value.hpp>
#include <optional>
#include <string>

#include "elo.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

class ShardExchange {
 public:
  // `tournament` identifies the tournament (tournament_identity); config.shard,
  // config.shared_dir and config.run_id must be set.
  ShardExchange(const TournamentConfig& config, std::string tournament);

  // The file this piece writes, and the run's decision file.
  [[nodiscard]] std::string own_file() const;
  [[nodiscard]] std::string decision_file() const;

  // Publishes this piece's counts (its games and the pentanomial of the SPRT's pairing) and
  // returns the sum of every piece's latest: its own from `own`, the others' from their files.
  // `shards_seen` is set to the number of pieces counted (this one included). Throws
  // TournamentError when the folder cannot be written.
  Pentanomial publish_and_combine(std::int64_t games, const Pentanomial& own, int& shards_seen);

  // The decision recorded for this run, if any. Throws TournamentError when the file is there
  // but damaged (it is written whole, so it never is half written).
  [[nodiscard]] std::optional<SharedDecision> recorded_decision() const;

  // Records `decision` unless a decision is recorded already, and returns the one that stands:
  // `decision`, or the one recorded first. Throws TournamentError when the folder cannot be
  // written.
  SharedDecision record_decision(const SharedDecision& decision);

 private:
  [[nodiscard]] std::string file_of(int index) const;
  [[nodiscard]] std::string prefix() const;

  std::string dir_;
  std::string tournament_;
  std::string run_;
  Shard shard_;
};

// A decision as the decision file and the results files write it, and read back (throws
// std::runtime_error when it is not one).
[[nodiscard]] boost::json::object shared_decision_json(const SharedDecision& decision);
[[nodiscard]] SharedDecision parse_shared_decision(const boost::json::value& value);

// "H1 accepted by shard 2/4 on the counts of 4 shards: 212 pairs (pentanomial 3 12 90 80 27)".
[[nodiscard]] std::string describe_shared_decision(const SharedDecision& decision);

}  // namespace quixo::arena
