// Squares and bitboards written as text in the tests ("b1", "a1 b1 c3"), decoded independently
// of the notation module so that tests of the notation and the rules core do not check the code
// with itself. A malformed literal is a mistake in the test and stops it.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <string_view>

#include "core/types.hpp"

namespace quixo::test {

// "b1" -> its square index: files a-e left to right, ranks 1-5 bottom to top (docs/spec.md §3.1).
inline Square sq(std::string_view name) {
  BOOST_REQUIRE(name.size() == 2);
  BOOST_REQUIRE(name[0] >= 'a' && name[0] <= 'e');
  BOOST_REQUIRE(name[1] >= '1' && name[1] <= '5');
  return (name[1] - '1') * 5 + (name[0] - 'a');
}

// "a1 b1 c3" -> the bitboard of those squares (any number of spaces between them).
inline Bitboard bb(std::string_view names) {
  Bitboard board = 0;
  std::size_t i = 0;
  while (i < names.size()) {
    if (names[i] == ' ') {
      ++i;
      continue;
    }
    board |= Bitboard{1} << sq(names.substr(i, 2));
    i += 2;
  }
  return board;
}

}  // namespace quixo::test
