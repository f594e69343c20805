// The Elo of one engine against another, as fastchess, fishtest and Ordo compute it: the game
// counts (trinomial W/D/L, pentanomial game pairs), the logistic and normalised Elo scales, and
// the estimate (Elo, normalised Elo, error, LOS, draw ratio) of one pairing. All Elo here is
// logistic Elo: a score s means 400 * log10(s / (1 - s)). Pure functions, no I/O.
#pragma once

#include <array>
#include <cstdint>

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
  // Throws std::invalid_argument on a negative count.
  void validate() const;
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
  // Throws std::invalid_argument on a negative count.
  void validate() const;
  Pentanomial reversed() const;  // the opponent's view

  friend bool operator==(const Pentanomial&, const Pentanomial&) = default;
};

// --- Scales -------------------------------------------------------------------------------------

// Normalised Elo per unit of t-value (score advantage over its standard deviation per game):
// 800 / ln 10 = 347.4355855..., as in fishtest (nelo_divided_by_nt).
inline constexpr double kNeloPerT = 347.43558552260146;

// Expected score of a logistic Elo difference: 1 / (1 + 10^(-elo/400)).
[[nodiscard]] double elo_to_score(double elo);
// Its inverse, -400 * log10(1/score - 1): -inf at 0, +inf at 1, NaN outside [0, 1].
[[nodiscard]] double score_to_elo(double score);

// The standard normal distribution function and its inverse (quantile), to full precision.
[[nodiscard]] double normal_cdf(double x);
[[nodiscard]] double normal_quantile(double p);  // p in (0, 1); -inf at 0, +inf at 1

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
[[nodiscard]] double los_from_wins_losses(std::int64_t wins, std::int64_t losses);

}  // namespace quixo::arena
