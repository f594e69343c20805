// Who plays whom, with which opening and colours: the pairings of a match, gauntlet, round-robin
// or knockout, and the schedule that plays each opening as a game pair with colours swapped.
//
// A knockout's schedule grows as its matches are decided. Its bracket has a place for each engine,
// seeded in the engines' order (seed 1 is the first engine), its size the next power of two: in
// the first round seed s meets seed size + 1 - s, so the top seeds draw the byes and seeds 1 and 2
// can meet only in the final. A match is config.rounds game pairs; a match tied after them plays
// one more pair at a time, at most config.rounds more, and one still tied then sends the higher
// seed through. The schedule grows in stages: when every game scheduled has a result, the tied
// matches of the current round get their next pair, or, when the round is decided, the next
// round's matches get theirs. So game ids follow from the results alone, whatever order the games
// finished in, and --resume rebuilds the same schedule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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
// order. A knockout's are every pair of engines, since any two may meet. `config` is one that
// validate accepts.
[[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> pairings_of(
    const TournamentConfig& config);

// Round by round: in each round every pairing (first, second) plays an opening twice, first with
// `first` as X, then swapped. The opening of round r is the r-th of the book's sequence (or the
// start position); with OpeningPolicy::Encounter pairing p of round r takes the
// (r * pairings + p)-th instead. A knockout's is its first stage (next_stage of nothing).
[[nodiscard]] std::vector<ScheduledGame> make_schedule(const TournamentConfig& config);

// The games that follow `schedule` once each of its games has a result (results[id]; nullopt, or
// an id past the end, for one not finished): in a knockout, the next stage (empty once the final
// is decided); the other formats are scheduled whole by make_schedule, so nothing. A knockout's
// match pair j (0-based, tiebreaks included) plays the j-th opening of the book's sequence with
// OpeningPolicy::Round, and the knockout's k-th pair overall the k-th with Encounter.
[[nodiscard]] std::vector<ScheduledGame> next_stage(
    const TournamentConfig& config, const std::vector<ScheduledGame>& schedule,
    const std::vector<std::optional<GameResult>>& results);

// A knockout's bracket as far as the results decide it: the rounds so far, a round added once
// every match of the one before has a winner. Empty for the other formats.
[[nodiscard]] std::vector<std::vector<KnockoutMatch>> knockout_bracket(
    const TournamentConfig& config, const std::vector<ScheduledGame>& schedule,
    const std::vector<std::optional<GameResult>>& results);

// The number of games as far as it is known: the schedule's, and in a knockout config.rounds
// pairs more for each match not yet scheduled (a knockout of N engines has N - 1 matches).
[[nodiscard]] std::int64_t known_total_games(const TournamentConfig& config,
                                             const std::vector<ScheduledGame>& schedule);

}  // namespace quixo::arena
