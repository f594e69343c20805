#include "evaluation.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "board_terms.hpp"

namespace quixo {

namespace {

Score threat_score(int threats, const EvalWeights& weights) {
  if (threats == 0) return 0;
  return -(weights.threat + weights.threat_extra * (std::min(threats, 3) - 1));
}

EvalBreakdown breakdown_of(const Position& position, SlideSet opponent_threats,
                           const EvalWeights& weights) {
  const Color mover = position.side_to_move();
  const Bitboard own = position.cubes(mover), opponent = position.cubes(~mover);
  EvalBreakdown terms;
  static_cast<eval_terms::BoardTerms&>(terms) = eval_terms::board_terms(own, opponent, weights);
  terms.opponent_wins = std::popcount(opponent_threats);
  terms.threats = threat_score(terms.opponent_wins, weights);
  terms.tempo = weights.tempo;
  terms.total = terms.sum() + terms.threats + terms.tempo;
  return terms;
}

}  // namespace

const EvalWeights& default_weights() {
  static const EvalWeights weights;
  return weights;
}

Score evaluate(const Position& position, SlideSet opponent_threats, const EvalWeights& weights) {
  return breakdown_of(position, opponent_threats, weights).total;
}

EvalBreakdown evaluate_with_breakdown(const Position& position, const EvalWeights& weights) {
  EvalBreakdown terms = breakdown_of(position, opponent_wins(position), weights);
  terms.own_wins = std::popcount(scan_moves(position).wins);
  return terms;
}

std::vector<std::string> breakdown_lines(const EvalBreakdown& terms) {
  const auto number = [](Score value) { return std::to_string(value); };
  return {"lines " + number(terms.lines),
          "border " + number(terms.border),
          "centre " + number(terms.centre),
          "cube lead " + number(terms.cube_lead),
          "threats " + number(terms.threats) +
              " (opponent wins in one: " + number(terms.opponent_wins) + ")",
          "tempo " + number(terms.tempo),
          "immediate wins for the side to move: " + number(terms.own_wins),
          "total " + number(terms.total) + " (side to move)"};
}

}  // namespace quixo
