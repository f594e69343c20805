// The standings of a tournament from its finished games (every engine's and pairing's results,
// the game pairs, the incidents, the SPRT) and the ratings of its engines. Below both the
// tournament that plays the games and the results store that keeps them.
#pragma once

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <vector>

#include "ratings.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

// The standings after `games`, in any order; a game naming an engine the configuration does not
// have is left out. A shard's (config.shard) total is its share of the schedule; its SPRT is its
// own games' (the tournament combines the shards' counts, shard_exchange.hpp).
[[nodiscard]] Standings compute_standings(const TournamentConfig& config,
                                          const std::vector<FinishedGame>& games);

// The SPRT of `pairs` in `test` (error cleared), or, when it cannot be computed (a statistics
// failure, which must not cost the games played), no test and why in `error`.
void sprt_or_error(const Pentanomial& pairs, const SprtParameters& parameters,
                   std::optional<SprtResult>& test, std::string& error);

// The SPRT's decision for the tournament: a match's SPRT, or in a gauntlet SPRT (one test per
// pairing of the tested engine) Continue until every pairing is decided, then AcceptH0 when any
// pairing accepted H0, else AcceptH1.
[[nodiscard]] SprtResult::Decision sprt_decision(const Standings& standings);

// The same standings, game by game: add() costs the same after the 4,000th game as after the
// first, so that a long tournament does not recount every game after each one. Games naming an
// engine the configuration does not have are left out; a pair counts once both games are in.
class StandingsTally {
 public:
  explicit StandingsTally(const TournamentConfig& config);
  void add(const FinishedGame& game);
  [[nodiscard]] const Standings& standings() const { return standings_; }
  // A knockout's schedule grows: its total and bracket as far as they are known (schedule.hpp).
  void set_knockout(std::int64_t total_games, std::vector<std::vector<KnockoutMatch>> bracket) {
    standings_.total_games = total_games;
    standings_.bracket = std::move(bracket);
  }

 private:
  [[nodiscard]] std::optional<std::size_t> pairing_index(std::size_t a, std::size_t b) const;
  void update_sprt();

  const TournamentConfig& config_;
  Standings standings_;
  std::unordered_map<int, FinishedGame> waiting_;  // games whose pair partner is not in yet
};

// Maximum-likelihood ratings of every engine from the standings (Bradley-Terry with a small
// prior so that no rating is infinite), or nullopt when the engines are not connected by games
// (or the ratings cannot be computed: a report then goes without them).
// With config.anchor, that engine's rating is its given Elo and the others' errors are relative to
// it; otherwise the mean rating is 0.
[[nodiscard]] std::optional<Ratings> rate_engines(const TournamentConfig& config,
                                                  const Standings& standings);

}  // namespace quixo::arena
