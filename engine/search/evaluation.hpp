// The static evaluation of two-player positions, from the side to move's point of view.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/move_scan.hpp"
#include "core/position.hpp"
#include "score.hpp"

namespace quixo {

// Every weight is data, so that a tuner can change them without touching the code.
struct EvalWeights {
  // A line (rank, file or long diagonal) holding k cubes of one side and none of the other:
  // open_line[k] for the side to move, the same subtracted for the opponent.
  std::array<Score, 5> open_line = {0, 1, 6, 24, 60};
  // A line holding k cubes of one side and some of the other: it can still turn over, since
  // cubes slide, but it is worth less.
  std::array<Score, 5> contested_line = {0, 0, 2, 8, 20};
  // Own cubes on the border: they can be taken again, while the opponent's block our choices.
  Score border_cube = 4;
  // Cubes on the centre square and the inner ring: part of more lines, and hard to move.
  Score centre_cube = 6;
  Score inner_cube = 2;
  // The side to move with more cubes on the board than its opponent (up to 3).
  Score cube_lead = 8;
  // Moves with which the opponent would win at once if it were its turn: the side to move must
  // meet them all. The first costs threat, each further one threat_extra.
  Score threat = 40;
  Score threat_extra = 120;
  // Bonus for having the move.
  Score tempo = 10;
};

// The terms of one evaluation, for the `eval` command.
struct EvalBreakdown {
  Score lines = 0;
  Score border = 0;
  Score centre = 0;
  Score cube_lead = 0;
  Score threats = 0;
  Score tempo = 0;
  Score total = 0;
  int own_wins = 0;       // immediate wins of the side to move
  int opponent_wins = 0;  // immediate wins the opponent threatens
};

const EvalWeights& default_weights();

// `opponent_threats`: the opponent's winning moves if it were its turn (opponent_wins()).
Score evaluate(const Position& position, SlideSet opponent_threats,
               const EvalWeights& weights = default_weights());

EvalBreakdown evaluate_with_breakdown(const Position& position,
                                      const EvalWeights& weights = default_weights());

// The breakdown as text, one line per term (no line breaks), for `eval`.
std::vector<std::string> breakdown_lines(const EvalBreakdown& breakdown);

}  // namespace quixo
