// The static evaluation of two-player positions, from the side to move's point of view.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "board_terms.hpp"
#include "core/move_scan.hpp"
#include "core/position.hpp"
#include "evaluator.hpp"
#include "pattern_evaluation.hpp"
#include "score.hpp"

namespace quixo {

// Every weight is data, so that a tuner can change them without touching the code. The board
// features' weights are shared with the team game's evaluation (board_terms.hpp).
struct EvalWeights : eval_terms::BoardWeights {
  // Moves with which the opponent would win at once if it were its turn: the side to move must
  // meet them all. The first costs threat, each further one threat_extra.
  Score threat = 40;
  Score threat_extra = 120;
  // Bonus for having the move.
  Score tempo = 10;
};

// The terms of one evaluation, for the `eval` command.
struct EvalBreakdown : eval_terms::BoardTerms {
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

// What the two-player game gives BasicEvaluator (evaluator.hpp).
struct TwoPlayerEvaluation {
  using Weights = patterns::PatternWeights;
  static Score hand(const Position& position, SlideSet opponent_threats) {
    return evaluate(position, opponent_threats);
  }
  static std::vector<std::string> hand_breakdown_lines(const Position& position) {
    return breakdown_lines(evaluate_with_breakdown(position));
  }
  static const Weights& builtin_weights() { return patterns::builtin_weights(); }
};
// The learned evaluation won its SPRT against the hand-written one (+90 Elo at 10+0.1, README).
using Evaluator = BasicEvaluator<TwoPlayerEvaluation>;

}  // namespace quixo
