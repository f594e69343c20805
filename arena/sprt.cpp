#include "sprt.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

namespace quixo::arena {
namespace {

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

// The counts an LLR is computed from, by score (losses first), of results that pass their
// validate() (which throws otherwise).
std::array<std::int64_t, 3> validated_counts(const Trinomial& results) {
  results.validate();
  return {results.losses, results.draws, results.wins};
}
const std::array<std::int64_t, 5>& validated_counts(const Pentanomial& results) {
  results.validate();
  return results.counts;
}

}  // namespace

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
  return llr_logistic_counts(validated_counts(results), elo0, elo1);
}

double llr_logistic(const Trinomial& results, double elo0, double elo1) {
  return llr_logistic_counts(validated_counts(results), elo0, elo1);
}

double llr_normalized(const Pentanomial& results, double nelo0, double nelo1) {
  return llr_normalized_counts(validated_counts(results), nelo0, nelo1);
}

double llr_normalized(const Trinomial& results, double nelo0, double nelo1) {
  return llr_normalized_counts(validated_counts(results), nelo0, nelo1);
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

// The SPRT of pentanomial or trinomial results.
template <class Results>
SprtResult sprt_of(const Results& results, const SprtParameters& parameters) {
  parameters.validate();
  return decide(parameters.model == EloModel::Logistic
                    ? llr_logistic(results, parameters.elo0, parameters.elo1)
                    : llr_normalized(results, parameters.elo0, parameters.elo1),
                parameters);
}

}  // namespace

SprtResult sprt(const Pentanomial& results, const SprtParameters& parameters) {
  return sprt_of(results, parameters);
}

SprtResult sprt(const Trinomial& results, const SprtParameters& parameters) {
  return sprt_of(results, parameters);
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

}  // namespace quixo::arena
