#include "elo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <stdexcept>

namespace quixo::arena {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double z_for(double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument(
        "statistics: the confidence level must lie strictly between 0 and 1");
  }
  return normal_quantile(1.0 - (1.0 - confidence) / 2.0);
}

// Fills everything from the per-sample mean, variance and the per-game deviation.
EloEstimate finish_estimate(double samples, double games, double score, double variance,
                            double game_sigma, double draw_ratio, double confidence) {
  const double z = z_for(confidence);
  EloEstimate e;
  e.samples = samples;
  e.games = games;
  e.draw_ratio = draw_ratio;
  if (samples <= 0.0) {
    e.score = 0.5;
    e.score_error = kInfinity;
    e.elo_lower = -kInfinity;
    e.elo_upper = kInfinity;
    e.elo_error = kInfinity;
    e.nelo_error = kInfinity;
    return e;
  }
  e.score = score;
  e.variance = variance;
  e.score_error = std::sqrt(variance / samples);
  e.elo = score_to_elo(score);
  e.elo_lower = score_to_elo(std::clamp(score - z * e.score_error, 0.0, 1.0));
  e.elo_upper = score_to_elo(std::clamp(score + z * e.score_error, 0.0, 1.0));
  e.elo_error = (e.elo_upper - e.elo_lower) / 2.0;
  if (std::isnan(e.elo_error)) e.elo_error = kInfinity;  // both ends infinite
  if (game_sigma > 0.0) {
    e.nelo = (score - 0.5) / game_sigma * kNeloPerT;
    e.nelo_error = z * e.score_error / game_sigma * kNeloPerT;
  } else {
    e.nelo = score == 0.5 ? 0.0 : (score > 0.5 ? kInfinity : -kInfinity);
    e.nelo_error = score == 0.5 ? 0.0 : kInfinity;
  }
  if (e.score_error > 0.0) {
    e.los = normal_cdf((score - 0.5) / e.score_error);
  } else {
    e.los = score > 0.5 ? 1.0 : (score < 0.5 ? 0.0 : 0.5);
  }
  return e;
}

}  // namespace

// --- Counts -------------------------------------------------------------------------------------

void Trinomial::add(EngineResult result) {
  switch (result) {
    case EngineResult::Loss:
      ++losses;
      break;
    case EngineResult::Draw:
      ++draws;
      break;
    case EngineResult::Win:
      ++wins;
      break;
  }
}

void Trinomial::validate() const {
  if (losses < 0 || draws < 0 || wins < 0)
    throw std::invalid_argument("statistics: negative game count");
}

std::int64_t Pentanomial::pairs() const {
  return std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
}

void Pentanomial::add(EngineResult first_game, EngineResult second_game) {
  ++counts[static_cast<std::size_t>(first_game) + static_cast<std::size_t>(second_game)];
}

Pentanomial Pentanomial::reversed() const {
  Pentanomial r;
  for (std::size_t k = 0; k < 5; ++k) r.counts[k] = counts[4 - k];
  return r;
}

void Pentanomial::validate() const {
  for (const std::int64_t count : counts)
    if (count < 0) throw std::invalid_argument("statistics: negative game count");
}

// --- Scales -------------------------------------------------------------------------------------

double elo_to_score(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

double score_to_elo(double score) {
  if (std::isnan(score) || score < 0.0 || score > 1.0)
    return std::numeric_limits<double>::quiet_NaN();
  if (score == 0.0) return -kInfinity;
  if (score == 1.0) return kInfinity;
  return -400.0 * std::log10(1.0 / score - 1.0);
}

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

double normal_quantile(double p) {
  if (std::isnan(p) || p < 0.0 || p > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0.0) return -kInfinity;
  if (p == 1.0) return kInfinity;
  // Acklam's rational approximation (relative error below 1.2e-9), then one Halley step on
  // normal_cdf, which brings it to full double precision.
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  double x = 0.0;
  if (p < kLow) {
    const double q = std::sqrt(-2.0 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  } else if (p <= 1.0 - kLow) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
  } else {
    const double q = std::sqrt(-2.0 * std::log1p(-p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  }
  // Halley: e = Phi(x) - p, u = e / phi(x); the upper tail is done on the complement to keep
  // its precision.
  const double e = p > 0.5 ? -(0.5 * std::erfc(x / std::sqrt(2.0)) - (1.0 - p)) : normal_cdf(x) - p;
  const double u = e * std::sqrt(2.0 * std::numbers::pi) * std::exp(x * x / 2.0);
  return x - u / (1.0 + x * u / 2.0);
}

// --- One pairing --------------------------------------------------------------------------------

EloEstimate estimate_elo(const Trinomial& results, double confidence) {
  results.validate();
  const double n = static_cast<double>(results.games());
  if (n == 0.0) return finish_estimate(0.0, 0.0, 0.5, 0.0, 0.0, 0.0, confidence);
  const double w = static_cast<double>(results.wins) / n;
  const double d = static_cast<double>(results.draws) / n;
  const double l = static_cast<double>(results.losses) / n;
  // From the integer half-points, so that an even match scores exactly 1/2.
  const double score = static_cast<double>(2 * results.wins + results.draws) / (2.0 * n);
  const double variance =
      w * (1.0 - score) * (1.0 - score) + d * (0.5 - score) * (0.5 - score) + l * score * score;
  return finish_estimate(n, n, score, variance, std::sqrt(variance), d, confidence);
}

EloEstimate estimate_elo(const Pentanomial& results, double confidence) {
  results.validate();
  const double n = static_cast<double>(results.pairs());
  if (n == 0.0) return finish_estimate(0.0, 0.0, 0.5, 0.0, 0.0, 0.0, confidence);
  // From the integer quarter-points, so that an even match scores exactly 1/2.
  std::int64_t quarters = 0;
  for (std::size_t k = 0; k < 5; ++k) quarters += results.counts[k] * static_cast<std::int64_t>(k);
  const double score = static_cast<double>(quarters) / (4.0 * n);
  double variance = 0.0;
  for (std::size_t k = 0; k < 5; ++k) {
    const double deviation = static_cast<double>(k) / 4.0 - score;
    variance += static_cast<double>(results.counts[k]) / n * deviation * deviation;
  }
  const double draw_ratio = static_cast<double>(results.counts[2]) / n;
  return finish_estimate(n, 2.0 * n, score, variance, std::sqrt(2.0 * variance), draw_ratio,
                         confidence);
}

double los_from_wins_losses(std::int64_t wins, std::int64_t losses) {
  if (wins < 0 || losses < 0) throw std::invalid_argument("statistics: negative game count");
  if (wins + losses == 0) return 0.5;
  const double w = static_cast<double>(wins);
  const double l = static_cast<double>(losses);
  return 0.5 * (1.0 + std::erf((w - l) / std::sqrt(2.0 * (w + l))));
}

}  // namespace quixo::arena
