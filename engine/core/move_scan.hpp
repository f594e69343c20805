// Fast two-player move sets: every legal move of a position made at once and classified as
// winning, losing or neither. Perft's leaf ply and the search's tactics share this.
#pragma once

#include <cstdint>

#include "packed_slides.hpp"
#include "position.hpp"
#include "slide.hpp"
#include "types.hpp"

namespace quixo {

// A set of moves as bits over slide indices: bit i is the move kSlides[i].
using SlideSet = std::uint64_t;

struct MoveScan {
  SlideSet legal = 0;
  SlideSet wins = 0;    // the mover makes its line and not the opponent's
  SlideSet losses = 0;  // the mover makes the opponent's line (whatever else it makes)
};

// Makes every legal move of the packed boards (mover in the low half, opponent in the high half;
// the game must be going on) and classifies each.
MoveScan scan_moves(PackedBoards boards);

// The same for a position; all sets are empty when the game is over.
inline MoveScan scan_moves(const Position& position) {
  if (position.is_game_over()) return {};
  const Color mover = position.side_to_move();
  return scan_moves(pack(position.cubes(mover), position.cubes(~mover)));
}

// The moves that would win for the opponent of the side to move if it were its turn: the
// threats the side to move has to meet.
inline SlideSet opponent_wins(const Position& position) {
  if (position.is_game_over()) return 0;
  const Color mover = position.side_to_move();
  return scan_moves(pack(position.cubes(~mover), position.cubes(mover))).wins;
}

}  // namespace quixo
