// Who plays whom, with which opening and colours: the pairings of a match, gauntlet or
// round-robin, and the schedule that plays each round's opening as a game pair with colours
// swapped.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "openings.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

// One game of the schedule. Games 2k and 2k+1 are a pair: the same opening, colours swapped.
struct ScheduledGame {
  int id = 0;         // 0-based position in the schedule
  int round = 0;      // 0-based
  int pair = 0;       // id / 2
  std::size_t x = 0;  // engine indices (four players: team A's and team B's engine)
  std::size_t o = 0;
  Opening opening;
};

// The pairings of the schedule, in the order they are played in each round; the first engine of
// a pairing is the one listed first (a seed, in a gauntlet). The standings count them in this
// order. `config` is one that validate accepts.
[[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> pairings_of(
    const TournamentConfig& config);

// Round by round: in each round every pairing (first, second) plays an opening twice, first with
// `first` as X, then swapped. The opening of round r is the r-th of the book's sequence (or the
// start position); with OpeningPolicy::Encounter pairing p of round r takes the
// (r * pairings + p)-th instead.
[[nodiscard]] std::vector<ScheduledGame> make_schedule(const TournamentConfig& config);

}  // namespace quixo::arena
