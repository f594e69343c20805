// Positions of random games for the tests that check a property over many boards.
#pragma once

#include <random>
#include <vector>

#include "core/position.hpp"

namespace quixo::test {

// Positions of random games (seeded), each taken while the game is still going on.
inline std::vector<Position> random_positions(unsigned seed, int count) {
  std::mt19937 rng(seed);
  std::vector<Position> positions;
  while (int(positions.size()) < count) {
    Position position = Position::start();
    const int plies = 1 + int(rng() % 60);
    for (int ply = 0; ply < plies && !position.is_game_over(); ++ply) {
      const MoveList2 moves = position.legal_moves();
      position = position.after(moves[rng() % moves.size()]);
      if (!position.is_game_over()) positions.push_back(position);
    }
  }
  positions.resize(std::size_t(count));
  return positions;
}

}  // namespace quixo::test
