// The static evaluation of two-player positions, from the side to move's point of view.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "board_terms.hpp"
#include "core/move_scan.hpp"
#include "core/position.hpp"
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

// The evaluation a search uses: the hand-written one above, or learned pattern weights
// (pattern_evaluation.hpp). A value that the search manager keeps, set only between searches;
// the weights are shared and never change once made, so every worker reads them without a lock.
class Evaluator {
 public:
  Evaluator() = default;  // the hand-written evaluation
  explicit Evaluator(std::shared_ptr<const patterns::PatternWeights> learned)
      : learned_(std::move(learned)) {}
  // The learned evaluation with the weights built into the binary.
  static Evaluator builtin_learned();
  // The evaluation the engine plays with when nothing else is asked for, and `bench` uses: the
  // learned one, since it won its SPRT against the hand-written one (+90 Elo at 10+0.1, README).
  static Evaluator standard() { return builtin_learned(); }

  Score operator()(const Position& position, SlideSet opponent_threats) const {
    return learned_ ? learned_->evaluate(position, opponent_threats)
                    : evaluate(position, opponent_threats);
  }
  // The terms of one evaluation as text, for `eval`.
  std::vector<std::string> breakdown_lines(const Position& position) const {
    return learned_ ? learned_->breakdown_lines(position)
                    : quixo::breakdown_lines(evaluate_with_breakdown(position));
  }
  [[nodiscard]] const patterns::PatternWeights* learned() const { return learned_.get(); }
  bool operator==(const Evaluator&) const = default;

 private:
  std::shared_ptr<const patterns::PatternWeights> learned_;
};

}  // namespace quixo
