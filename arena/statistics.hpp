// Match statistics for the arena, as fastchess, fishtest and Ordo compute them:
//   - Elo, normalised Elo, LOS and draw ratio of one pairing from W/L/D counts (trinomial) or from
//     game-pair counts (pentanomial);
//   - the GSPRT log-likelihood ratio of fishtest (server/fishtest/stats/LLRcalc.py) for logistic
//     or normalised Elo bounds, and the SPRT decision and its one-line summary;
//   - Bradley-Terry maximum-likelihood ratings of several engines, with standard errors and a
//     likelihood-of-superiority matrix.
// All Elo here is logistic Elo: a score s means 400 * log10(s / (1 - s)). Pure functions, no I/O.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace quixo::arena {

// One game's result from one engine's point of view; the numeric value is its half points. (Not
// the core's quixo::Outcome, which is the board's verdict: X wins, O wins or the game goes on.)
enum class EngineResult { Loss = 0, Draw = 1, Win = 2 };

// Game counts of one engine against another.
struct Trinomial {
  std::int64_t losses = 0;
  std::int64_t draws = 0;
  std::int64_t wins = 0;

  std::int64_t games() const { return losses + draws + wins; }
  double points() const { return static_cast<double>(wins) + 0.5 * static_cast<double>(draws); }
  void add(EngineResult result);
  Trinomial reversed() const { return {wins, draws, losses}; }  // the opponent's view

  friend bool operator==(const Trinomial&, const Trinomial&) = default;
};

// Game-pair counts (each opening played twice, colours swapped) of one engine against another,
// by the pair's score: counts[k] is the number of pairs that scored k/4, i.e. [0] LL, [1] LD+DL,
// [2] LW+WL+DD, [3] WD+DW, [4] WW (fishtest's order).
struct Pentanomial {
  std::array<std::int64_t, 5> counts{};

  std::int64_t pairs() const;
  void add(EngineResult first_game, EngineResult second_game);
  Pentanomial reversed() const;  // the opponent's view

  friend bool operator==(const Pentanomial&, const Pentanomial&) = default;
};

// --- Scales -------------------------------------------------------------------------------------

// Normalised Elo per unit of t-value (score advantage over its standard deviation per game):
// 800 / ln 10 = 347.4355855..., as in fishtest (nelo_divided_by_nt).
inline constexpr double kNeloPerT = 347.43558552260146;

// Expected score of a logistic Elo difference: 1 / (1 + 10^(-elo/400)).
double elo_to_score(double elo);
// Its inverse, -400 * log10(1/score - 1): -inf at 0, +inf at 1, NaN outside [0, 1].
double score_to_elo(double score);

// The standard normal distribution function and its inverse (quantile), to full precision.
double normal_cdf(double x);
double normal_quantile(double p);  // p in (0, 1); -inf at 0, +inf at 1

// --- One pairing --------------------------------------------------------------------------------

// The Elo estimate of one pairing, as fastchess prints it (and fishtest's get_elo computes it when
// no count is zero). The interval is the normal interval of the mean score mapped to Elo; with a
// pentanomial the sample is a game pair, which accounts for the correlation of the two games
// played on one opening.
struct EloEstimate {
  double samples = 0;      // games (trinomial) or game pairs (pentanomial)
  double games = 0;        // games
  double score = 0.5;      // mean score per game, 0..1
  double variance = 0;     // variance of one sample's score: a game's, or a pair's mean score's
  double score_error = 0;  // standard error of the mean score: sqrt(variance / samples)
  double elo = 0;          // score_to_elo(score)
  double elo_lower = 0;    // score_to_elo(score -/+ z * score_error), the score clamped to [0, 1]
  double elo_upper = 0;
  double elo_error = 0;  // (elo_upper - elo_lower) / 2, fastchess's "+/-"
  // Normalised Elo: (score - 0.5) / sigma * 800 / ln 10, with sigma the standard deviation of a
  // game's score (for a pentanomial: sqrt(2 * variance), the per-game deviation implied by the
  // pair variance), and its error, half the width of the interval on the same scale.
  double nelo = 0;
  double nelo_error = 0;
  double los = 0.5;  // likelihood of superiority: normal_cdf((score - 0.5) / score_error)
  // Trinomial: draws / games. Pentanomial: pairs that scored 1/2 (LW+WL+DD) / pairs, as fastchess.
  double draw_ratio = 0;
};

// `confidence` is the two-sided level of the interval (0.95: z = 1.959964). With no games the
// estimate is score 0.5, Elo 0 and infinite errors; with zero variance (all games alike) the
// errors are 0 and the LOS is 0, 0.5 or 1; an Elo of a score of 0 or 1 is infinite.
EloEstimate estimate_elo(const Trinomial& results, double confidence = 0.95);
EloEstimate estimate_elo(const Pentanomial& results, double confidence = 0.95);

// The classical LOS from wins and losses only (draws carry no information):
// 0.5 * (1 + erf((wins - losses) / sqrt(2 * (wins + losses)))); 0.5 with no decisive game.
double los_from_wins_losses(std::int64_t wins, std::int64_t losses);

// --- SPRT ---------------------------------------------------------------------------------------

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
double llr_logistic(const Pentanomial& results, double elo0, double elo1);
double llr_logistic(const Trinomial& results, double elo0, double elo1);
// fishtest's LLR_normalized: the same with the t-value (score - 1/2) / sigma as the statistic
// (MLE_t_value's fixed-point iteration of secular equations); the bounds are normalised Elo,
// t = nelo / kNeloPerT per game (times sqrt 2 per pair). Throws std::domain_error should the
// equation have no root (data too extreme for the bounds).
double llr_normalized(const Pentanomial& results, double nelo0, double nelo1);
double llr_normalized(const Trinomial& results, double nelo0, double nelo1);
// fishtest's LLR_alt2, the Brownian approximation of llr_logistic:
// N * (s1 - s0) * (2 s - s0 - s1) / (2 var), with the regularised mean s and variance var.
double llr_logistic_approximate(const Pentanomial& results, double elo0, double elo1);

// The LLR in the parameters' model, with the decision: AcceptH0 when llr < lower, AcceptH1 when
// llr > upper (fishtest's strict comparisons, without its overshoot correction). Throws
// std::invalid_argument on invalid parameters.
SprtResult sprt(const Pentanomial& results, const SprtParameters& parameters);
SprtResult sprt(const Trinomial& results, const SprtParameters& parameters);

// `LLR: 2.95 (-2.94,2.94) <0.00,2.00>`: the LLR, the bounds and elo0/elo1, two decimals each.
std::string format_sprt(const SprtResult& result, const SprtParameters& parameters);

// --- Ratings of several engines -----------------------------------------------------------------

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
bool players_connected(std::size_t players, const std::vector<PairingResult>& results);

}  // namespace quixo::arena
