#include "skill.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace quixo {

namespace {

// The depth limit reaches kTopDepth at full strength (the last level below it is just under),
// and the temperature, in centi-cubes, is kMiddleTemperature * (top - s) / s: infinite at 0,
// kMiddleTemperature at the middle level and 0 at full strength.
constexpr double kTopDepth = 8.0;
constexpr double kMiddleTemperature = 100.0;

// Fitted in steps: the measured Elo of the levels (a ladder of Skill Levels 0-6, 8, ..., 18, 19
// and full strength), then corrected by the measured Elo of the UCI_Elo ladder of
// scripts/calibrate-levels.sh at 1000 games a match (README "Levels"): monotonic, linear in
// between.
constexpr std::array<int, kSkillLevelMax + 1> kLevelElo = {
    0,    101,  274,  391,  492,  626,  755,  888,  1025, 1119, 1240,
    1326, 1411, 1440, 1468, 1492, 1520, 1554, 1590, 1661, 1700};

}  // namespace

const int kEloMax = kLevelElo.back();

int level_elo(int level) {
  return kLevelElo.at(std::size_t(level));
}

double elo_of_skill(double skill) {
  skill = std::clamp(skill, 0.0, double(kSkillLevelMax));
  const int low = std::min(int(skill), kSkillLevelMax - 1);
  const double fraction = skill - low;
  return kLevelElo[low] + fraction * (kLevelElo[low + 1] - kLevelElo[low]);
}

double skill_of_elo(int elo) {
  if (elo <= 0) return 0;
  if (elo >= kEloMax) return kSkillLevelMax;
  int low = 0;
  while (kLevelElo[low + 1] < elo) ++low;
  return low + double(elo - kLevelElo[low]) / double(kLevelElo[low + 1] - kLevelElo[low]);
}

double skill_of(const StrengthOptions& strength) {
  if (strength.limit_strength) return skill_of_elo(strength.elo);
  return std::clamp(double(strength.skill_level), 0.0, double(kSkillLevelMax));
}

bool full_strength(const StrengthOptions& strength) {
  return skill_of(strength) >= kSkillLevelMax;
}

double skill_depth(double skill) {
  return 1.0 + (kTopDepth - 1.0) * std::clamp(skill, 0.0, double(kSkillLevelMax)) / kSkillLevelMax;
}

double skill_temperature(double skill) {
  if (skill <= 0) return std::numeric_limits<double>::infinity();
  return kMiddleTemperature * (kSkillLevelMax - std::min(skill, double(kSkillLevelMax))) / skill;
}

SkillPlan skill_plan(double skill, std::mt19937_64& random) {
  SkillPlan plan;
  if (skill <= 0) {
    plan.random_mover = true;
    return plan;
  }
  const double depth = skill_depth(skill);
  const int floor = int(depth);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  plan.depth = floor + (unit(random) < depth - floor ? 1 : 0);
  plan.temperature = skill_temperature(skill);
  // Lines much worse than the best are seldom picked when the noise is small: a line for every
  // 8 centi-cubes of temperature, so that near full strength one line is searched, as at full
  // strength.
  plan.lines = int(std::clamp(std::ceil(plan.temperature / 8), 1.0, 1000.0));
  return plan;
}

std::size_t pick_line(std::span<const Score> scores, double temperature, std::mt19937_64& random) {
  if (scores.size() <= 1) return 0;
  const auto capped = [](Score score) {
    if (score >= kMateBound) return kSkillScoreCap;
    if (score <= -kMateBound) return -kSkillScoreCap;
    return std::clamp(score, -kSkillScoreCap + 1, kSkillScoreCap - 1);
  };
  Score best = -kSkillScoreCap;
  for (const Score score : scores) best = std::max(best, capped(score));
  std::vector<double> weights;
  weights.reserve(scores.size());
  for (const Score score : scores)
    weights.push_back(std::isinf(temperature) ? 1.0
                      : temperature <= 0      ? (capped(score) == best ? 1.0 : 0.0)
                                              : std::exp((capped(score) - best) / temperature));
  std::discrete_distribution<std::size_t> choice(weights.begin(), weights.end());
  return choice(random);
}

}  // namespace quixo
