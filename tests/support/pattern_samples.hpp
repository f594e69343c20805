// What the tests of the learned pattern evaluation and of quixo-train share: weights drawn at
// random (seeded), so that no property holds by an accident of the values, and positions of every
// phase.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "core/position.hpp"
#include "search/pattern_evaluation.hpp"
#include "support/random_positions.hpp"

namespace quixo::test {

// kFeatureCount weights in [-300, 300].
inline std::vector<std::int16_t> random_pattern_weights(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-300, 300);
  std::vector<std::int16_t> weights(patterns::kFeatureCount);
  for (std::int16_t& weight : weights) weight = std::int16_t(value(rng));
  return weights;
}

// Random games' positions, whose blanks seldom fall below 7, and the last positions of long
// random games, which mostly have 0-6 blanks (the phases with pairs): `count` in all.
inline std::vector<Position> positions_of_every_phase(unsigned seed, int count) {
  std::vector<Position> positions = random_positions(seed, count / 2);
  for (const Position& position :
       random_positions(seed, count - count / 2, {100, 300, Keep::LastOngoing}))
    positions.push_back(position);
  return positions;
}

}  // namespace quixo::test
