// The standings of a tournament from its finished games (every engine's and pairing's results,
// the game pairs, the incidents, the SPRT) and the ratings of its engines. Below both the
// tournament that plays the games and the results store that keeps them.
#pragma once

#include <optional>
#include <vector>

#include "ratings.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

// The standings after `games`, in any order; a game naming an engine the configuration does not
// have is left out. A shard's (config.shard) total is its share of the schedule; its SPRT is its
// own games' (the tournament combines the shards' counts, shard_exchange.hpp).
[[nodiscard]] Standings compute_standings(const TournamentConfig& config,
                                          const std::vector<FinishedGame>& games);

// Maximum-likelihood ratings of every engine from the standings (Bradley-Terry with a small
// prior so that no rating is infinite), or nullopt when the engines are not connected by games
// (or the ratings cannot be computed: a report then goes without them).
[[nodiscard]] std::optional<Ratings> rate_engines(const Standings& standings);

}  // namespace quixo::arena
