#include "ratings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace quixo::arena {
namespace {

constexpr double kInfiniteRating = std::numeric_limits<double>::infinity();
// 400 / ln 10: Elo per natural-log unit of the odds.
constexpr double kEloPerNatural = 173.71779276130073;

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
    r.result.validate();
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
  Matrix covariance = square(n, kInfiniteRating);
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
      const double sd = kEloPerNatural *
                        std::sqrt(std::max(std::isnan(variance) ? kInfiniteRating : variance, 0.0));
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