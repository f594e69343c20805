// Positions for the tests of both games (Position, Position4): the positions of seeded random
// games, for the tests that check a property over many boards (one sampler, seeded, so that every
// run checks the same positions), and a position read from its notation by type.
#pragma once

#include <random>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"

namespace quixo::test {

// The position of `text` (docs/spec.md §3.3) in the game of PositionT.
template <class PositionT>
PositionT parse_as(std::string_view text) {
  if constexpr (std::is_same_v<PositionT, Position>)
    return parse_position(text);
  else
    return parse_position4(text);
}

// Which positions of each random game are kept.
enum class Keep {
  Ongoing,        // every position after a move while the game goes on
  All,            // the start and every position after a move, the finished one too
  LastOngoing,    // one a game: its last position before it ended or ran out of plies
  AfterAllPlies,  // one a game: the position after all its plies, when the game goes on
  Last,           // one a game: its last position, finished or after all its plies
};

// How the random games are played: each lasts a number of plies drawn from [min_plies,
// max_plies] (no draw when they are equal), or less when a line ends it.
struct RandomGames {
  int min_plies = 1;
  int max_plies = 60;
  Keep keep = Keep::Ongoing;
};

// The first `count` positions that `games` keeps of seeded random games, played uniformly over
// the legal moves from the start.
template <class PositionT = Position>
std::vector<PositionT> random_positions(unsigned seed, int count, RandomGames games = {}) {
  std::mt19937 rng(seed);
  std::vector<PositionT> positions;
  while (int(positions.size()) < count) {
    PositionT position = PositionT::start();
    const int plies =
        games.min_plies == games.max_plies
            ? games.max_plies
            : games.min_plies + int(rng() % unsigned(games.max_plies - games.min_plies + 1));
    if (games.keep == Keep::All) positions.push_back(position);
    PositionT last_ongoing = position;
    for (int ply = 0; ply < plies && !position.is_game_over(); ++ply) {
      const auto moves = position.legal_moves();
      if (moves.empty()) break;
      position = position.after(moves[rng() % moves.size()]);
      if (!position.is_game_over()) last_ongoing = position;
      if (games.keep == Keep::All || (games.keep == Keep::Ongoing && !position.is_game_over()))
        positions.push_back(position);
    }
    if (games.keep == Keep::LastOngoing) positions.push_back(last_ongoing);
    if ((games.keep == Keep::AfterAllPlies && !position.is_game_over()) || games.keep == Keep::Last)
      positions.push_back(position);
  }
  positions.erase(positions.begin() + count, positions.end());
  return positions;
}

}  // namespace quixo::test
