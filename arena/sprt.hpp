// The sequential probability ratio test of fishtest (server/fishtest/stats/LLRcalc.py): the
// generalised log-likelihood ratio for logistic or normalised Elo bounds, the decision and its
// one-line summary. Pure functions, no I/O.
#pragma once

#include <string>

#include "elo.hpp"

namespace quixo::arena {

enum class EloModel { Logistic, Normalized };

// The widest bounds each model can test. Logistic: |elo| <= 4000, where the expected score is
// within 1e-10 of 0 or 1 (beyond about 6380 it rounds to 0 or 1 and no test is possible).
// Normalised: |nelo| <= 231.6, just inside 2/3 * kNeloPerT = 231.62 nElo, a t-value of
// 2 sqrt(2) / 3 per game pair: fishtest's MLE_t_value starts from the uniform distribution of the
// five pair scores, and at that t-value or beyond its first secular equation has no root,
// whatever the games were. Inside these limits the LLR is defined for every sample (checked on
// millions of count vectors).
inline constexpr double kMaxLogisticSprtBound = 4000.0;
inline constexpr double kMaxNormalizedSprtBound = 231.6;

// H0: elo = elo0 against H1: elo = elo1, in the model's units; alpha is the false positive rate
// (accepting H1 when elo = elo0), beta the false negative rate.
struct SprtParameters {
  double elo0 = 0.0;
  double elo1 = 2.0;
  double alpha = 0.05;
  double beta = 0.05;
  EloModel model = EloModel::Logistic;

  // Throws std::invalid_argument, naming the values and what is accepted, unless 0 < alpha,
  // 0 < beta, alpha + beta < 1, elo0 < elo1, and both bounds are within the model's limits
  // (|elo| <= kMaxLogisticSprtBound, |nelo| <= kMaxNormalizedSprtBound).
  void validate() const;
  double lower_bound() const;  // log(beta / (1 - alpha)), -2.944 for 0.05/0.05
  double upper_bound() const;  // log((1 - beta) / alpha), 2.944 for 0.05/0.05
};

struct SprtResult {
  enum class Decision { Continue, AcceptH0, AcceptH1 };
  double llr = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  Decision decision = Decision::Continue;
};

// fishtest's generalised log-likelihood ratio, LLR_logistic: each count of zero is replaced by
// 1e-3 (fishtest's regularisation), then N * sum_k p_k * log(p1_k / p0_k), where p is the
// empirical distribution of the sample scores and p0, p1 the maximum-likelihood distributions
// with expected score L(elo0), L(elo1), found by solving the secular equation
// sum_k p_k (a_k - s) / (1 + x (a_k - s)) = 0 (MLE_expected). 0 with no games.
[[nodiscard]] double llr_logistic(const Pentanomial& results, double elo0, double elo1);
[[nodiscard]] double llr_logistic(const Trinomial& results, double elo0, double elo1);
// fishtest's LLR_normalized: the same with the t-value (score - 1/2) / sigma as the statistic
// (MLE_t_value's fixed-point iteration of secular equations); the bounds are normalised Elo,
// t = nelo / kNeloPerT per game (times sqrt 2 per pair). Throws std::domain_error should the
// equation have no root (data too extreme for the bounds).
[[nodiscard]] double llr_normalized(const Pentanomial& results, double nelo0, double nelo1);
[[nodiscard]] double llr_normalized(const Trinomial& results, double nelo0, double nelo1);

// The LLR in the parameters' model, with the decision: AcceptH0 when llr < lower, AcceptH1 when
// llr > upper (fishtest's strict comparisons, without its overshoot correction). Throws
// std::invalid_argument on invalid parameters.
[[nodiscard]] SprtResult sprt(const Pentanomial& results, const SprtParameters& parameters);
[[nodiscard]] SprtResult sprt(const Trinomial& results, const SprtParameters& parameters);

// `LLR: 2.95 (-2.94,2.94) <0.00,2.00>`: the LLR, the bounds and elo0/elo1, two decimals each.
[[nodiscard]] std::string format_sprt(const SprtResult& result, const SprtParameters& parameters);

}  // namespace quixo::arena
