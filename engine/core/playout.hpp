// Random playouts: games of uniformly random legal moves to the end, for Monte Carlo players and
// learning code (the Python package's Board.random_playout) and as a load on the rules core.
#pragma once

#include <cstdint>

#include "position.hpp"
#include "position4.hpp"
#include "types.hpp"

namespace quixo {

// Plays uniformly random legal moves from `position` until the game ends or `max_plies` have been
// played, and returns the outcome (Ongoing at the cap). The same seed plays the same game.
Outcome random_playout(const Position& position, std::uint64_t seed, int max_plies);
Outcome random_playout(const Position4& position, std::uint64_t seed, int max_plies);

}  // namespace quixo
