// The rules a game is played under beyond those of Quixo: the ply cap, the repetition count, the
// stall timeout and adjudication from the engines' scores. Plain types, shared by the game loop
// and the tournament's configuration.
#pragma once

#include <chrono>

namespace quixo::arena {

// Adjudication from the scores the engines report with their moves (their own point of view).
// A count of 0 turns a rule off.
struct Adjudication {
  // Resign: the mover's score was at most -resign_score_cp on each of its last resign_move_count
  // moves and, when two-sided, the opponent's was at least +resign_score_cp on each of its last
  // resign_move_count moves. The mover loses.
  int resign_move_count = 0;
  int resign_score_cp = 1000;
  bool resign_two_sided = true;
  // Draw: from full move draw_move_number on, both engines' scores were within
  // +-draw_score_cp on each of their last draw_move_count moves.
  int draw_move_number = 0;
  int draw_move_count = 0;
  int draw_score_cp = 0;
};

struct GameRules {
  int max_plies = 300;  // draw when the game reaches this many plies (book plies included)
  int repetitions = 3;  // draw when a position (board and side to move) occurs this often
  // The wall-clock allowance for replies that no clock limits (fixed nodes or depth, infinite)
  // and for `isready` and the handshake: past it, the engine has stalled.
  std::chrono::milliseconds stall_timeout{10'000};
  Adjudication adjudication;
};

}  // namespace quixo::arena
