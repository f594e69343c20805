// Playing strength below full: the levels a person chooses (`Skill Level`, `UCI_LimitStrength`
// with `UCI_Elo`), as plain functions of one fractional skill, below the search that applies them.
//
// A skill s runs from 0 (the weakest) to kSkillLevelMax (full strength: the search as it plays,
// untouched). Below full strength the engine
//   - at s = 0 plays a uniformly random legal move: the anchor of the Elo scale (UCI_Elo 0);
//   - above it searches the root's best lines (MultiPV: every root move at the low levels, the
//     moves that lose at once included, fewer as s rises), to a small depth that grows with s and
//     within kSkillNodes nodes, so that it answers at once and plays alike at any time control;
//   - then picks one line at random, weighting each by exp(score / temperature): the best lines
//     are the likeliest, a worse line is chosen less often the worse it is, and the temperature
//     (the noise) grows as s falls, without bound as s nears 0.
// The mistakes are thus those of a shallow look at the board, more of them the weaker the
// level, not random blunders among perfect moves. A fractional s plays between its two integer
// levels: the depth is its floor or ceiling at random, the temperature continuous.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>

#include "score.hpp"

namespace quixo {

// `Skill Level` runs 0..kSkillLevelMax; its maximum is full strength (the default).
inline constexpr int kSkillLevelMax = 20;
// The Elo of each integer skill level 0..kSkillLevelMax, measured at the calibration time control
// with the random mover as 0 (scripts/calibrate-levels.sh, README "Levels"), strictly rising;
// the last is full strength. UCI_Elo runs 0 (the uniformly random mover) .. kEloMax.
int level_elo(int level);
extern const int kEloMax;

// The strength options as set, and the fractional skill they ask for: UCI_LimitStrength with
// UCI_Elo takes precedence over Skill Level, as in Stockfish.
struct StrengthOptions {
  bool limit_strength = false;
  int elo = kEloMax;
  int skill_level = kSkillLevelMax;
  // The seed of every random choice (the levels', Player::Mcts's, Player::Random's; option
  // RandomSeed), taken when it changes and again at each new game, so that a game with the
  // same moves of the other side repeats; 0: a seed from the system when the engine starts (two
  // games never repeat).
  std::uint64_t random_seed = 0;
  bool operator==(const StrengthOptions&) const = default;
};

// The calibrated Elo of a fractional skill (piecewise linear through the measured levels) and
// its inverse; both monotonic. skill_of_elo(0) = 0, skill_of_elo(kEloMax) = kSkillLevelMax.
double elo_of_skill(double skill);
double skill_of_elo(int elo);

// The fractional skill the options ask for, in [0, kSkillLevelMax].
double skill_of(const StrengthOptions& strength);
// True when the options leave the engine at full strength.
bool full_strength(const StrengthOptions& strength);

// How a weakened search plays at skill s (0 <= s < kSkillLevelMax).
struct SkillPlan {
  bool random_mover = false;  // s = 0: no search, a uniformly random legal move
  int depth = 1;              // the search's depth limit (floor or ceiling of the fractional one)
  int lines = 1;              // the lines searched (MultiPV), at most the root's moves
  double temperature = 0;     // in centi-cubes: the noise of the pick
};
// The nodes a search below full strength takes at most (fewer when `go` says so).
inline constexpr std::uint64_t kSkillNodes = 20000;
SkillPlan skill_plan(double skill, std::mt19937_64& random);

// The fractional depth and the temperature of skill s, before the random rounding.
double skill_depth(double skill);
double skill_temperature(double skill);

// The line to play among lines with these scores (best first or in any order): index i with
// probability proportional to exp((clamp(score_i) - best) / temperature), where mate scores
// count as +-kSkillScoreCap and evaluations are clamped into that range.
inline constexpr Score kSkillScoreCap = 1000;
std::size_t pick_line(std::span<const Score> scores, double temperature, std::mt19937_64& random);

}  // namespace quixo
