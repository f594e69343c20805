#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <numeric>
#include <stdexcept>

namespace quixo::arena {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// 400 / ln 10: Elo per natural-log unit of the odds.
constexpr double kEloPerNatural = 173.71779276130073;

// --- Discrete distributions of sample scores (fishtest's "pdf") -------------------------------

struct Distribution {
  std::vector<double> values;  // a_k: the sample's score, k / (K - 1)
  std::vector<double> probs;   // p_k, summing to 1
};

// Mean and variance (fishtest's LLRcalc.stats).
std::pair<double, double> mean_variance(const std::vector<double>& values,
                                        const std::vector<double>& probs) {
  double mean = 0.0;
  for (std::size_t k = 0; k < values.size(); ++k) mean += probs[k] * values[k];
  double variance = 0.0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    variance += probs[k] * (values[k] - mean) * (values[k] - mean);
  }
  return {mean, variance};
}

// fishtest's results_to_pdf with regularize: each zero count becomes 1e-3, N is the sum of the
// counts so changed, p_k = count_k / N.
template <std::size_t K>
Distribution regularised_distribution(const std::array<std::int64_t, K>& counts, double& total) {
  constexpr double kEpsilon = 1e-3;
  Distribution pdf;
  total = 0.0;
  for (std::size_t k = 0; k < K; ++k) {
    const double c = counts[k] == 0 ? kEpsilon : static_cast<double>(counts[k]);
    pdf.values.push_back(static_cast<double>(k) / static_cast<double>(K - 1));
    pdf.probs.push_back(c);
    total += c;
  }
  for (double& p : pdf.probs) p /= total;
  return pdf;
}

// The root x of the secular equation sum_k p_k b_k / (1 + x b_k) = 0, where min b < 0 < max b.
// The left side falls strictly from +inf at x = -1/max b to -inf at x = -1/min b, so the root is
// unique; it is found by Newton's method kept inside a shrinking bracket (bisection when a
// Newton step would leave it), to full double precision.
double solve_secular(const std::vector<double>& b, const std::vector<double>& p) {
  const double low_value = *std::min_element(b.begin(), b.end());
  const double high_value = *std::max_element(b.begin(), b.end());
  if (!(low_value < 0.0 && high_value > 0.0)) {
    throw std::domain_error(
        "GSPRT: the secular equation has no root (expected score out of range)");
  }
  double low = -1.0 / high_value;  // f > 0 just above
  double high = -1.0 / low_value;  // f < 0 just below
  double x = 0.0;                  // low < 0 < high
  for (int iteration = 0; iteration < 500; ++iteration) {
    double f = 0.0;
    double slope = 0.0;
    for (std::size_t k = 0; k < b.size(); ++k) {
      const double denominator = 1.0 + x * b[k];
      f += p[k] * b[k] / denominator;
      slope -= p[k] * b[k] * b[k] / (denominator * denominator);
    }
    if (f == 0.0) return x;
    if (f > 0.0) {
      low = x;
    } else {
      high = x;
    }
    double next = slope < 0.0 ? x - f / slope : 0.5 * (low + high);
    if (!(next > low && next < high)) next = 0.5 * (low + high);
    if (!(next > low && next < high)) return x;  // the bracket is down to adjacent doubles
    if (std::fabs(next - x) <= 1e-16 * std::max(1.0, std::fabs(x))) return next;
    x = next;
  }
  return x;
}

// fishtest's MLE_expected: the distribution on the same values closest (in likelihood) to the
// observed one whose mean is s: p_k / (1 + x (a_k - s)) with x the secular root.
std::vector<double> mle_expected(const Distribution& observed, double s) {
  std::vector<double> shifted(observed.values.size());
  for (std::size_t k = 0; k < shifted.size(); ++k) shifted[k] = observed.values[k] - s;
  const double x = solve_secular(shifted, observed.probs);
  std::vector<double> result(shifted.size());
  for (std::size_t k = 0; k < shifted.size(); ++k) {
    result[k] = observed.probs[k] / (1.0 + x * shifted[k]);
  }
  return result;
}

// fishtest's MLE_t_value: the distribution closest to the observed one whose t-value
// (mean - ref) / sigma is t, by the same fixed-point iteration (from the uniform distribution, at
// most 10 rounds, until no probability moves by 1e-9).
std::vector<double> mle_t_value(const Distribution& observed, double ref, double t) {
  const std::size_t n = observed.values.size();
  std::vector<double> current(n, 1.0 / static_cast<double>(n));
  std::vector<double> shifted(n);
  for (int round = 0; round < 10; ++round) {
    const auto [mu, variance] = mean_variance(observed.values, current);
    const double sigma = std::sqrt(variance);
    for (std::size_t k = 0; k < n; ++k) {
      const double z = (mu - observed.values[k]) / sigma;
      shifted[k] = observed.values[k] - ref - t * sigma * (1.0 + z * z) / 2.0;
    }
    const double x = solve_secular(shifted, observed.probs);
    double change = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      const double next = observed.probs[k] / (1.0 + x * shifted[k]);
      change = std::max(change, std::fabs(next - current[k]));
      current[k] = next;
    }
    if (change < 1e-9) break;
  }
  return current;
}

// N * sum_k p_k log(p1_k / p0_k) (fishtest's N * LLR(...)).
double llr_of(const Distribution& observed, double total, const std::vector<double>& p0,
              const std::vector<double>& p1) {
  double sum = 0.0;
  for (std::size_t k = 0; k < p0.size(); ++k) {
    sum += observed.probs[k] * (std::log(p1[k]) - std::log(p0[k]));
  }
  return total * sum;
}

template <std::size_t K>
double llr_logistic_counts(const std::array<std::int64_t, K>& counts, double elo0, double elo1) {
  if (std::accumulate(counts.begin(), counts.end(), std::int64_t{0}) == 0) return 0.0;
  double total = 0.0;
  const Distribution observed = regularised_distribution(counts, total);
  return llr_of(observed, total, mle_expected(observed, elo_to_score(elo0)),
                mle_expected(observed, elo_to_score(elo1)));
}

template <std::size_t K>
double llr_normalized_counts(const std::array<std::int64_t, K>& counts, double nelo0,
                             double nelo1) {
  if (std::accumulate(counts.begin(), counts.end(), std::int64_t{0}) == 0) return 0.0;
  // A pair's score has sqrt(2) times less deviation than a game's, so its t-value is sqrt(2)
  // times larger.
  const double per_sample = K == 5 ? std::sqrt(2.0) : 1.0;
  const double t0 = nelo0 / kNeloPerT * per_sample;
  const double t1 = nelo1 / kNeloPerT * per_sample;
  double total = 0.0;
  const Distribution observed = regularised_distribution(counts, total);
  return llr_of(observed, total, mle_t_value(observed, 0.5, t0), mle_t_value(observed, 0.5, t1));
}

std::array<std::int64_t, 3> trinomial_counts(const Trinomial& results) {
  return {results.losses, results.draws, results.wins};
}

void check_counts(std::int64_t a, std::int64_t b, std::int64_t c) {
  if (a < 0 || b < 0 || c < 0) throw std::invalid_argument("statistics: negative game count");
}

// --- One pairing ----------------------------------------------------------------------------

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

// --- Small dense linear algebra for the ratings ---------------------------------------------

using Matrix = std::vector<std::vector<double>>;

Matrix square(std::size_t n, double value = 0.0) {
  return Matrix(n, std::vector<double>(n, value));
}

// Gauss-Jordan inversion with partial pivoting; nullopt when (numerically) singular.
std::optional<Matrix> invert(Matrix a) {
  const std::size_t n = a.size();
  Matrix inverse = square(n);
  for (std::size_t i = 0; i < n; ++i) inverse[i][i] = 1.0;
  double scale = 0.0;
  for (const auto& row : a) {
    for (const double v : row) scale = std::max(scale, std::fabs(v));
  }
  if (scale == 0.0 || !std::isfinite(scale)) return std::nullopt;
  for (std::size_t column = 0; column < n; ++column) {
    std::size_t pivot = column;
    for (std::size_t row = column + 1; row < n; ++row) {
      if (std::fabs(a[row][column]) > std::fabs(a[pivot][column])) pivot = row;
    }
    if (std::fabs(a[pivot][column]) <= 1e-14 * scale) return std::nullopt;
    std::swap(a[pivot], a[column]);
    std::swap(inverse[pivot], inverse[column]);
    const double divisor = a[column][column];
    for (std::size_t k = 0; k < n; ++k) {
      a[column][k] /= divisor;
      inverse[column][k] /= divisor;
    }
    for (std::size_t row = 0; row < n; ++row) {
      if (row == column || a[row][column] == 0.0) continue;
      const double factor = a[row][column];
      for (std::size_t k = 0; k < n; ++k) {
        a[row][k] -= factor * a[column][k];
        inverse[row][k] -= factor * inverse[column][k];
      }
    }
  }
  return inverse;
}

Matrix multiply(const Matrix& a, const Matrix& b) {
  const std::size_t n = a.size();
  Matrix c = square(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      if (a[i][k] == 0.0) continue;
      for (std::size_t j = 0; j < n; ++j) c[i][j] += a[i][k] * b[k][j];
    }
  }
  return c;
}

// log(1 + e^x) without overflow.
double softplus(double x) {
  return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// Probability that a player rated theta_i (natural units) beats one rated theta_j.
double win_probability(double theta_i, double theta_j) {
  return 1.0 / (1.0 + std::exp(theta_j - theta_i));
}

// Whether every node reaches every other along `edge(i, j)` (and, when `both_ways`, back).
template <typename Edge>
bool reaches_all(std::size_t n, Edge edge) {
  std::vector<bool> seen(n, false);
  std::vector<std::size_t> stack{0};
  seen[0] = true;
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    for (std::size_t j = 0; j < n; ++j) {
      if (!seen[j] && edge(i, j)) {
        seen[j] = true;
        stack.push_back(j);
      }
    }
  }
  return std::all_of(seen.begin(), seen.end(), [](bool b) { return b; });
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
  check_counts(results.losses, results.draws, results.wins);
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
  for (const std::int64_t c : results.counts) check_counts(c, 0, 0);
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

// --- SPRT ---------------------------------------------------------------------------------------

void SprtParameters::validate() const {
  // Six significant digits, as the user typed them ("300", "0.05").
  const auto shown = [](double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return std::string(buffer);
  };
  const std::string given = "elo0=" + shown(elo0) + " elo1=" + shown(elo1);
  if (!(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0)) {
    throw std::invalid_argument("SPRT: alpha and beta must be positive with alpha + beta < 1, " +
                                ("not alpha=" + shown(alpha)) + " beta=" + shown(beta));
  }
  if (model == EloModel::Normalized) {
    // NaN fails these comparisons too.
    if (!(std::fabs(elo0) <= kMaxNormalizedSprtBound && std::fabs(elo1) <= kMaxNormalizedSprtBound))
      throw std::invalid_argument(
          "SPRT: " + given +
          " is beyond what the normalized model can test: its bounds must lie between -231.6 "
          "and 231.6 nElo; use smaller bounds, or model=logistic (bounds in Elo, up to +-4000)");
  } else if (!(std::fabs(elo0) <= kMaxLogisticSprtBound &&
               std::fabs(elo1) <= kMaxLogisticSprtBound)) {
    throw std::invalid_argument("SPRT: " + given +
                                " is beyond what the logistic model can test: its bounds must lie "
                                "between -4000 and 4000 Elo");
  }
  if (!(elo0 < elo1)) throw std::invalid_argument("SPRT: elo0 must be below elo1, not " + given);
}

double SprtParameters::lower_bound() const {
  return std::log(beta / (1.0 - alpha));
}
double SprtParameters::upper_bound() const {
  return std::log((1.0 - beta) / alpha);
}

double llr_logistic(const Pentanomial& results, double elo0, double elo1) {
  for (const std::int64_t c : results.counts) check_counts(c, 0, 0);
  return llr_logistic_counts(results.counts, elo0, elo1);
}

double llr_logistic(const Trinomial& results, double elo0, double elo1) {
  check_counts(results.losses, results.draws, results.wins);
  return llr_logistic_counts(trinomial_counts(results), elo0, elo1);
}

double llr_normalized(const Pentanomial& results, double nelo0, double nelo1) {
  for (const std::int64_t c : results.counts) check_counts(c, 0, 0);
  return llr_normalized_counts(results.counts, nelo0, nelo1);
}

double llr_normalized(const Trinomial& results, double nelo0, double nelo1) {
  check_counts(results.losses, results.draws, results.wins);
  return llr_normalized_counts(trinomial_counts(results), nelo0, nelo1);
}

double llr_logistic_approximate(const Pentanomial& results, double elo0, double elo1) {
  for (const std::int64_t c : results.counts) check_counts(c, 0, 0);
  if (results.pairs() == 0) return 0.0;
  double total = 0.0;
  const Distribution observed = regularised_distribution(results.counts, total);
  const auto [s, variance] = mean_variance(observed.values, observed.probs);
  const double s0 = elo_to_score(elo0);
  const double s1 = elo_to_score(elo1);
  return total * (s1 - s0) * (2.0 * s - s0 - s1) / variance / 2.0;
}

namespace {

SprtResult decide(double llr, const SprtParameters& parameters) {
  SprtResult result;
  result.llr = llr;
  result.lower = parameters.lower_bound();
  result.upper = parameters.upper_bound();
  if (llr < result.lower) {
    result.decision = SprtResult::Decision::AcceptH0;
  } else if (llr > result.upper) {
    result.decision = SprtResult::Decision::AcceptH1;
  }
  return result;
}

}  // namespace

SprtResult sprt(const Pentanomial& results, const SprtParameters& parameters) {
  parameters.validate();
  return decide(parameters.model == EloModel::Logistic
                    ? llr_logistic(results, parameters.elo0, parameters.elo1)
                    : llr_normalized(results, parameters.elo0, parameters.elo1),
                parameters);
}

SprtResult sprt(const Trinomial& results, const SprtParameters& parameters) {
  parameters.validate();
  return decide(parameters.model == EloModel::Logistic
                    ? llr_logistic(results, parameters.elo0, parameters.elo1)
                    : llr_normalized(results, parameters.elo0, parameters.elo1),
                parameters);
}

std::string format_sprt(const SprtResult& result, const SprtParameters& parameters) {
  // Two decimals, and never "-0.00".
  const auto two = [](double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    std::string text = buffer;
    if (text == "-0.00") text = "0.00";
    return text;
  };
  return "LLR: " + two(result.llr) + " (" + two(result.lower) + "," + two(result.upper) + ") <" +
         two(parameters.elo0) + "," + two(parameters.elo1) + ">";
}

// --- Ratings of several engines -----------------------------------------------------------------

bool players_connected(std::size_t players, const std::vector<PairingResult>& results) {
  if (players <= 1) return true;
  Matrix played = square(players);
  for (const PairingResult& r : results) {
    if (r.first >= players || r.second >= players) {
      throw std::invalid_argument("ratings: player index out of range");
    }
    if (r.result.games() > 0) {
      played[r.first][r.second] = 1.0;
      played[r.second][r.first] = 1.0;
    }
  }
  return reaches_all(players, [&](std::size_t i, std::size_t j) { return played[i][j] > 0.0; });
}

Ratings bradley_terry(std::size_t players, const std::vector<PairingResult>& results,
                      const RatingOptions& options) {
  const std::size_t n = players;
  if (options.prior_draws < 0.0 || !std::isfinite(options.prior_draws)) {
    throw std::invalid_argument("ratings: the prior must be a non-negative number of draws");
  }
  if (options.anchor && *options.anchor >= n) {
    throw std::invalid_argument("ratings: anchor index out of range");
  }

  // Per ordered pair, from the first's view: wins, draws, losses.
  std::vector<std::vector<Trinomial>> table(n, std::vector<Trinomial>(n));
  for (const PairingResult& r : results) {
    if (r.first >= n || r.second >= n)
      throw std::invalid_argument("ratings: player index out of range");
    if (r.first == r.second) throw std::invalid_argument("ratings: a player paired with itself");
    check_counts(r.result.losses, r.result.draws, r.result.wins);
    Trinomial& forward = table[r.first][r.second];
    forward.wins += r.result.wins;
    forward.draws += r.result.draws;
    forward.losses += r.result.losses;
    Trinomial& backward = table[r.second][r.first];
    backward.wins += r.result.losses;
    backward.draws += r.result.draws;
    backward.losses += r.result.wins;
  }

  Ratings ratings;
  ratings.points.assign(n, 0.0);
  ratings.games.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      ratings.points[i] += table[i][j].points();
      ratings.games[i] += static_cast<double>(table[i][j].games());
    }
  }
  if (n <= 1) {  // nobody to compare with
    ratings.elo.assign(n, options.anchor_elo);
    ratings.error.assign(n, 0.0);
    ratings.difference_error = square(n);
    ratings.los = square(n, 0.5);
    ratings.converged = true;
    return ratings;
  }
  if (!players_connected(n, results)) {
    throw std::invalid_argument(
        "ratings: the players are not connected by games, their relative ratings are undetermined");
  }

  // Games and points with the prior draws mixed in.
  Matrix games = square(n);
  Matrix points = square(n);  // points[i][j]: i's points against j
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const Trinomial& t = table[i][j];
      if (i == j || t.games() == 0) continue;
      games[i][j] = static_cast<double>(t.games()) + options.prior_draws;
      points[i][j] = t.points() + options.prior_draws / 2.0;
    }
  }

  const std::size_t reference = options.anchor.value_or(0);
  std::vector<double> theta(n, 0.0);  // natural units: elo = kEloPerNatural * theta

  const auto log_likelihood = [&](const std::vector<double>& t) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (points[i][j] > 0.0) sum -= points[i][j] * softplus(t[j] - t[i]);
      }
    }
    return sum;
  };
  // The negative Hessian (the Fisher information of the model) at theta.
  const auto information = [&](const std::vector<double>& t) {
    Matrix h = square(n);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (i == j || games[i][j] == 0.0) continue;
        const double p = win_probability(t[i], t[j]);
        const double w = games[i][j] * p * (1.0 - p);
        h[i][i] += w;
        h[i][j] -= w;
      }
    }
    return h;
  };

  // The others, in the order of the reduced system (the reference player is held at 0).
  std::vector<std::size_t> free_players;
  for (std::size_t i = 0; i < n; ++i) {
    if (i != reference) free_players.push_back(i);
  }
  const std::size_t m = free_players.size();

  bool settled = false;
  double current = log_likelihood(theta);
  constexpr int kMaxIterations = 200;
  while (!settled && ratings.iterations < kMaxIterations) {
    ++ratings.iterations;
    std::vector<double> gradient(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (i == j || games[i][j] == 0.0) continue;
        gradient[i] += points[i][j] - games[i][j] * win_probability(theta[i], theta[j]);
      }
    }
    const Matrix h = information(theta);
    Matrix reduced = square(m);
    for (std::size_t a = 0; a < m; ++a) {
      for (std::size_t b = 0; b < m; ++b) reduced[a][b] = h[free_players[a]][free_players[b]];
    }
    const std::optional<Matrix> inverse = invert(reduced);
    if (!inverse) break;  // the information vanished: ratings running off to infinity
    std::vector<double> step(n, 0.0);
    double largest = 0.0;
    for (std::size_t a = 0; a < m; ++a) {
      double s = 0.0;
      for (std::size_t b = 0; b < m; ++b) s += (*inverse)[a][b] * gradient[free_players[b]];
      step[free_players[a]] = s;
      largest = std::max(largest, std::fabs(s));
    }
    // Halve the step until the likelihood does not fall (it is concave, so this ends).
    double factor = 1.0;
    std::vector<double> trial(n);
    double value = current;
    for (int halving = 0; halving < 60; ++halving) {
      for (std::size_t i = 0; i < n; ++i) trial[i] = theta[i] + factor * step[i];
      value = log_likelihood(trial);
      if (value >= current - 1e-12 * std::fabs(current)) break;
      factor /= 2.0;
    }
    theta = trial;
    current = value;
    if (factor * largest < 1e-11) settled = true;
  }

  // The maximum exists only when, for every split of the players into two groups, each group
  // scored something against the other (Hunter's condition): the "scored against" graph is
  // strongly connected.
  const bool finite =
      reaches_all(n, [&](std::size_t i, std::size_t j) { return points[i][j] > 0.0; }) &&
      reaches_all(n, [&](std::size_t i, std::size_t j) { return points[j][i] > 0.0; });
  ratings.converged = settled && finite;

  // Covariance of theta under the chosen constraint.
  const Matrix h = information(theta);
  Matrix meat = square(n);
  if (options.robust_errors) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (i == j || games[i][j] == 0.0) continue;
        const double p = win_probability(theta[i], theta[j]);
        const Trinomial& t = table[i][j];
        // Sum over games of (score - p)^2, the prior draws counted as draws.
        const double v =
            static_cast<double>(t.wins) * (1.0 - p) * (1.0 - p) +
            (static_cast<double>(t.draws) + options.prior_draws) * (0.5 - p) * (0.5 - p) +
            static_cast<double>(t.losses) * p * p;
        meat[i][i] += v;
        meat[i][j] -= v;
      }
    }
  }
  Matrix covariance = square(n, kInfinity);
  if (options.anchor) {
    Matrix reduced = square(m);
    Matrix reduced_meat = square(m);
    for (std::size_t a = 0; a < m; ++a) {
      for (std::size_t b = 0; b < m; ++b) {
        reduced[a][b] = h[free_players[a]][free_players[b]];
        reduced_meat[a][b] = meat[free_players[a]][free_players[b]];
      }
    }
    if (const std::optional<Matrix> inverse = invert(reduced)) {
      const Matrix c =
          options.robust_errors ? multiply(multiply(*inverse, reduced_meat), *inverse) : *inverse;
      covariance = square(n);
      for (std::size_t a = 0; a < m; ++a) {
        for (std::size_t b = 0; b < m; ++b) covariance[free_players[a]][free_players[b]] = c[a][b];
      }
    }
  } else {
    // Pseudo-inverse of the Laplacian-like information: (H + 11'/n)^-1 - 11'/n.
    Matrix shifted = h;
    const double share = 1.0 / static_cast<double>(n);
    for (auto& row : shifted) {
      for (double& v : row) v += share;
    }
    if (const std::optional<Matrix> inverse = invert(shifted)) {
      Matrix pseudo = *inverse;
      for (auto& row : pseudo) {
        for (double& v : row) v -= share;
      }
      covariance = options.robust_errors ? multiply(multiply(pseudo, meat), pseudo) : pseudo;
    }
  }

  const double shift =
      options.anchor ? theta[reference]
                     : std::accumulate(theta.begin(), theta.end(), 0.0) / static_cast<double>(n);
  ratings.elo.resize(n);
  ratings.error.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    ratings.elo[i] = options.anchor_elo + kEloPerNatural * (theta[i] - shift);
    ratings.error[i] = kEloPerNatural * std::sqrt(std::max(covariance[i][i], 0.0));
  }
  ratings.difference_error = square(n);
  ratings.los = square(n, 0.5);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const double variance = covariance[i][i] + covariance[j][j] - 2.0 * covariance[i][j];
      const double sd =
          kEloPerNatural * std::sqrt(std::max(std::isnan(variance) ? kInfinity : variance, 0.0));
      ratings.difference_error[i][j] = sd;
      const double difference = ratings.elo[i] - ratings.elo[j];
      if (sd > 0.0 && std::isfinite(sd)) {
        ratings.los[i][j] = normal_cdf(difference / sd);
      } else if (sd == 0.0) {
        ratings.los[i][j] = difference > 0.0 ? 1.0 : (difference < 0.0 ? 0.0 : 0.5);
      }
    }
  }
  return ratings;
}

}  // namespace quixo::arena
