// A game of either variant: the current position and the positions before it, for the parts of
// the programs that treat both variants alike (the engine's `position`, the arena's books, PGN
// and compliance checks, the GUI's game). A position's history is kept as repetition keys:
// Position::key() and Position4::key() are exact, so equal keys are equal positions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"

namespace quixo {

// The type a position of P is identified by in repetition checks (std::uint64_t, Position4Key).
template <class P>
using RepetitionKey = decltype(std::declval<const P&>().key());
// The move type of P (Move, Move4).
template <class P>
using MoveOf = std::remove_cvref_t<decltype(std::declval<const P&>().legal_moves()[0])>;

// One variant's line of play.
template <class P>
struct GameLine {
  P position;
  std::vector<RepetitionKey<P>> history;  // keys of the earlier positions, oldest first

  // How often the current position has occurred, itself included.
  [[nodiscard]] int repetition_count() const {
    int count = 1;
    for (const RepetitionKey<P>& key : history) count += key == position.key() ? 1 : 0;
    return count;
  }
  // Plays a move the caller knows is legal, keeping the position it leaves in the history.
  void play(MoveOf<P> move) {
    history.push_back(position.key());
    position = position.after(move);
  }
};

class Game {
 public:
  // The two-player start position.
  Game() : line_(GameLine<Position>{Position::start(), {}}) {}
  explicit Game(const Position& position) : line_(GameLine<Position>{position, {}}) {}
  explicit Game(const Position4& position) : line_(GameLine<Position4>{position, {}}) {}
  explicit Game(GameLine<Position> line) : line_(std::move(line)) {}
  explicit Game(GameLine<Position4> line) : line_(std::move(line)) {}

  // A position string of either variant (docs/notation.md); the variant is read from the side to
  // move. No history. Throws NotationError.
  static Game parse(std::string_view text);
  static Game start(Variant variant);

  [[nodiscard]] Variant variant() const;
  // Checks `text` against the current position with the rules core, plays it and returns its
  // canonical text. Throws NotationError (the game is then unchanged).
  std::string play(std::string_view text);
  [[nodiscard]] Outcome outcome() const;
  [[nodiscard]] bool is_game_over() const;
  // The side to move, or the team of the seat to move (X = team A, O = team B).
  [[nodiscard]] Color team_to_move() const;
  // The position string of the current position, without a move number.
  [[nodiscard]] std::string text() const;
  // Legal moves of the current position as text, in move generation order.
  [[nodiscard]] std::vector<std::string> legal_move_texts() const;
  // How often the current position has occurred in the game, itself included.
  [[nodiscard]] int repetition_count() const;

  // The line of one variant, or nullptr when the game is of the other.
  [[nodiscard]] const GameLine<Position>* two_player() const {
    return std::get_if<GameLine<Position>>(&line_);
  }
  [[nodiscard]] const GameLine<Position4>* four_player() const {
    return std::get_if<GameLine<Position4>>(&line_);
  }
  // Calls `visit(const GameLine<P>&)` with the game's line.
  template <class Visitor>
  decltype(auto) visit(Visitor&& visitor) const {
    return std::visit(std::forward<Visitor>(visitor), line_);
  }

 private:
  std::variant<GameLine<Position>, GameLine<Position4>> line_;
};

// "2p", "4p" (the command lines' and the results file's names).
std::string_view variant_name(Variant variant);

}  // namespace quixo
