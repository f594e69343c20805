// The board as the engine's `d` command draws it, for a person reading the engine's output.
#pragma once

#include <string>
#include <vector>

#include "core/game.hpp"

namespace quixo::uqi {

// The `d` board: ranks 5 to 1 with labels, files a-e below, '.' for blanks; four-player cubes
// show their points (x X o O). One string per line, no newlines.
std::vector<std::string> draw_game(const Game& game);

}  // namespace quixo::uqi
