// The evaluation a search uses, for either game: the game's hand-written evaluation or learned
// weights of it. A value that the search manager keeps, set only between searches; the weights
// are shared and never change once made, so every worker reads them without a lock.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "score.hpp"

namespace quixo {

// `Game` says what differs between the games (evaluation.hpp, team_pattern_evaluation.hpp):
//   Game::Weights                           the learned weights' type
//   Game::hand(position, facts...)          the hand-written evaluation
//   Game::hand_breakdown_lines(position)    its terms as text, for `eval`
//   Game::builtin_weights()                 the weights built into the binary
// The facts are what the search has already computed about a position (the threats of a win in
// one), passed on to whichever evaluation is chosen.
template <class Game>
class BasicEvaluator {
 public:
  using Weights = typename Game::Weights;

  BasicEvaluator() = default;  // the hand-written evaluation
  explicit BasicEvaluator(std::shared_ptr<const Weights> learned) : learned_(std::move(learned)) {}

  // The learned evaluation with the weights built into the binary.
  static BasicEvaluator builtin_learned() {
    // The built-in weights live as long as the program: the pointer owns nothing.
    return BasicEvaluator(
        std::shared_ptr<const Weights>(&Game::builtin_weights(), [](const Weights*) {}));
  }
  // The evaluation the engine plays with when nothing else is asked for, and `bench` uses: the
  // learned one, since in both games it won its SPRT against the hand-written one (README).
  static BasicEvaluator standard() { return builtin_learned(); }
  // What the options ask for: the hand-written evaluation, or the learned one with `loaded`
  // weights when a file was loaded and the built-in weights when not.
  static BasicEvaluator chosen(bool learned, std::shared_ptr<const Weights> loaded) {
    if (!learned) return BasicEvaluator();
    return loaded ? BasicEvaluator(std::move(loaded)) : builtin_learned();
  }

  template <class Position, class... Facts>
  Score operator()(const Position& position, Facts... facts) const {
    return learned_ ? learned_->evaluate(position, facts...) : Game::hand(position, facts...);
  }
  // The terms of one evaluation as text, for `eval`.
  template <class Position>
  std::vector<std::string> breakdown_lines(const Position& position) const {
    return learned_ ? learned_->breakdown_lines(position) : Game::hand_breakdown_lines(position);
  }
  [[nodiscard]] const Weights* learned() const { return learned_.get(); }
  bool operator==(const BasicEvaluator&) const = default;

 private:
  std::shared_ptr<const Weights> learned_;
};

}  // namespace quixo
