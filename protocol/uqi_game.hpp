// The game a UQI engine is given by `position`: the current position of either variant and the
// positions before it (for repetitions), with what the engine's commands ask of it. Plain data
// over the rules core, below the `position` parser, the session and the board display.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"

namespace quixo::uqi {

// A game as set up by `position`: the current position and the positions before it, for
// repetition detection.
struct TwoPlayerGame {
  Position position;
  std::vector<std::uint64_t> history_keys;  // keys of the earlier positions, oldest first
};
struct FourPlayerGame {
  Position4 position;
  std::vector<Position4> history;  // the earlier positions, oldest first
};
using Game = std::variant<TwoPlayerGame, FourPlayerGame>;

Variant variant_of(const Game& game);
// The position string of the current position, e.g. "5/5/5/5/5 x".
std::string position_text(const Game& game);
// Legal moves of the current position as text, in move generation order.
std::vector<std::string> legal_move_texts(const Game& game);
// How often the current position has occurred in the game, itself included.
int repetition_count(const Game& game);

}  // namespace quixo::uqi
