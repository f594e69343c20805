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

// For both packed boards, the squares where a cube would complete a line that crosses the rank
// or file a move changes: across ranks, the files' and diagonals' holes; across files, the
// ranks' and diagonals'. A scan reads them; the scans of both sides of a position read the same
// holes with the halves swapped, so a search that makes both computes them once.
struct LineHoles {
  PackedBoards across_ranks = 0;
  PackedBoards across_files = 0;
};
LineHoles line_holes(PackedBoards boards);
// The holes of the boards with their halves swapped.
constexpr LineHoles swap_halves(const LineHoles& holes) {
  return {swap_halves(holes.across_ranks), swap_halves(holes.across_files)};
}

// Makes every legal move of the packed boards (mover in the low half, opponent in the high half;
// the game must be going on) and classifies each; `holes` are the boards' line_holes().
MoveScan scan_moves(PackedBoards boards, const LineHoles& holes);
inline MoveScan scan_moves(PackedBoards boards) {
  return scan_moves(boards, line_holes(boards));
}

// The position's boards as a scan takes them: the side to move's cubes in the low half.
inline PackedBoards mover_first(const Position& position) {
  const Color mover = position.side_to_move();
  return pack(position.cubes(mover), position.cubes(~mover));
}

// The same for a position; all sets are empty when the game is over.
inline MoveScan scan_moves(const Position& position) {
  if (position.is_game_over()) return {};
  return scan_moves(mover_first(position));
}

// The moves that would win for the opponent of the side to move if it were its turn: the
// threats the side to move has to meet.
inline SlideSet opponent_wins(const Position& position) {
  if (position.is_game_over()) return 0;
  return scan_moves(swap_halves(mover_first(position))).wins;
}

}  // namespace quixo
