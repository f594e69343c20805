// Bradley-Terry maximum-likelihood ratings of several engines (as Ordo computes them), with
// standard errors and a likelihood-of-superiority matrix. Pure functions, no I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "elo.hpp"

namespace quixo::arena {

// Games between two players, counted from `first`'s point of view. A pair of players may appear
// in several entries (in either order); they are summed.
struct PairingResult {
  std::size_t first = 0;
  std::size_t second = 0;
  Trinomial result;
};

struct RatingOptions {
  // When set, this player's rating is fixed at anchor_elo and errors are relative to it;
  // otherwise the mean rating is anchor_elo and errors are relative to the pool's mean.
  std::optional<std::size_t> anchor;
  double anchor_elo = 0.0;
  // Virtual draws added to every pairing that was played (BayesElo's prior), which keeps all
  // ratings finite when an engine won or lost everything. 0 is Ordo's pure maximum likelihood.
  double prior_draws = 0.0;
  // true: the sandwich (robust) covariance H^-1 J H^-1, J from the observed variance of the game
  // scores around the fitted expectation, so draws shrink the errors as they do in the pairing
  // statistics (for two players it is exactly the delta-method error of their score); false: the
  // inverse Fisher information H^-1 of the Bradley-Terry model, which treats every game as a
  // win or loss (wider with many draws).
  bool robust_errors = true;
};

struct Ratings {
  std::vector<double> elo;    // logistic Elo
  std::vector<double> error;  // standard error (one sigma) in Elo, relative to anchor or mean
  // difference_error[i][j]: standard error of elo[i] - elo[j] (the same for any anchoring)
  std::vector<std::vector<double>> difference_error;
  // los[i][j]: likelihood that i is stronger than j, normal_cdf((elo[i] - elo[j]) /
  // difference_error[i][j]); 0.5 on the diagonal.
  std::vector<std::vector<double>> los;
  std::vector<double> points;  // points scored, without prior draws
  std::vector<double> games;   // games played, without prior draws
  int iterations = 0;          // Newton iterations
  // false when the maximum-likelihood ratings do not exist (some group of players never scored
  // against the rest or never conceded anything, so their ratings run off to infinity; a prior
  // fixes that) or the iteration did not settle; the numbers are then the last iterate.
  bool converged = false;
};

// Bradley-Terry maximum-likelihood ratings (draws as half a win and half a loss, as Ordo does):
// P(i beats j) = elo_to_score(elo[i] - elo[j]), maximised by Newton's method with step halving on
// the concave log-likelihood. Throws std::invalid_argument on an index out of range, a player
// paired with itself, a negative count, a negative prior, an anchor out of range, or when the
// players do not form one connected group through the games played (their relative ratings
// would be undetermined); see players_connected.
Ratings bradley_terry(std::size_t players, const std::vector<PairingResult>& results,
                      const RatingOptions& options = {});

// Whether every player is linked to every other through pairings with at least one game.
[[nodiscard]] bool players_connected(std::size_t players,
                                     const std::vector<PairingResult>& results);

}  // namespace quixo::arena
