// What the Elo, SPRT and ratings tests share: a tolerance comparison that treats infinities as
// equal only to themselves, and short constructors of the count types.
#pragma once

#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "elo.hpp"

namespace quixo::arena::statistics_test {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline bool close(double a, double b, double tolerance) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= tolerance;
}

inline Pentanomial penta(const std::array<std::int64_t, 5>& counts) {
  return Pentanomial{counts};
}

// Losses, draws, wins.
inline Trinomial tri(const std::array<std::int64_t, 3>& ldw) {
  return Trinomial{ldw[0], ldw[1], ldw[2]};
}

}  // namespace quixo::arena::statistics_test

#define CHECK_CLOSE(a, b, tolerance)                                      \
  BOOST_TEST(quixo::arena::statistics_test::close((a), (b), (tolerance)), \
             #a " = " << (a) << ", expected " << (b))
