// A position of either variant (the two-player game or the four-player team game), for the parts
// of the arena that treat both alike: the opening book, the PGN reader and the opening generator.
// The game loops use Position and Position4 directly.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"

namespace quixo::arena {

class GamePosition {
 public:
  // The two-player start position.
  GamePosition() = default;
  explicit GamePosition(const Position& position) : position_(position) {}
  explicit GamePosition(const Position4& position) : position_(position) {}

  // A position string of either variant (docs/spec.md §3.3); the variant is read from the side to
  // move. Throws NotationError.
  static GamePosition parse(std::string_view text);
  static GamePosition start(Variant variant);

  Variant variant() const;
  // Checks `text` against this position with the rules core, plays it and returns its canonical
  // text. Throws NotationError (the position is then unchanged).
  std::string play(std::string_view text);
  Outcome outcome() const;
  bool is_game_over() const;
  // The side to move, or the team of the seat to move (X = team A, O = team B).
  Color team_to_move() const;
  // The position string without a move number.
  std::string text() const;

  const Position4* four_player() const { return std::get_if<Position4>(&position_); }

 private:
  std::variant<Position, Position4> position_;
};

// "2p", "4p" (the command line's and the results file's names).
std::string_view variant_name(Variant variant);

}  // namespace quixo::arena
