// The endgame tables the tests use: layers 0..QUIXO_TEST_TABLE_BLANKS, generated once per test
// run into QUIXO_TEST_TABLES_DIR by the ctest fixture `tb_tables` (the real quixo-tb). A suite that
// needs them and runs without them fails and says how to make them; it never passes vacuously.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "support/board_literals.hpp"
#include "tb/tablebase.hpp"
#include "tb/tb_file.hpp"

namespace quixo::test {

inline std::filesystem::path test_tables_dir() {
  return QUIXO_TEST_TABLES_DIR;
}

// The highest layer the fixture generates (0 under the sanitizers, 1 otherwise).
inline int test_table_blanks() {
  return QUIXO_TEST_TABLE_BLANKS;
}

// Fails the test unless every layer 0..test_table_blanks() is there.
inline void require_test_tables() {
  for (int k = 0; k <= test_table_blanks(); ++k)
    BOOST_TEST_REQUIRE(std::filesystem::exists(tb::layer_file_path(test_tables_dir(), k)),
                       "missing " << tb::layer_file_path(test_tables_dir(), k)
                                  << ": run the tests through ctest (fixture tb_tables), or run "
                                     "quixo-tb generate --blanks "
                                  << test_table_blanks() << " --dir " << test_tables_dir());
}

// The tables, loaded once per test process.
inline const tb::Tablebase& test_tables() {
  static tb::Tablebase tables;
  if (tables.empty()) {
    require_test_tables();
    const auto report = tables.load(test_tables_dir());
    // The message's operands are evaluated even when the check passes: no front() of nothing.
    BOOST_TEST_REQUIRE(
        report.problems.empty(),
        "tables refused: " << (report.problems.empty() ? std::string() : report.problems.front()));
  }
  return tables;
}

// Two-player positions with exactly `blanks` blank cubes (0 to 8), all on the border: a full board
// without a line (ranks 5 to 1: xxoox, ooxxo, xxoox, ooxxo, xxoox) with border cubes taken off,
// a different set for each position, each with X and with O to move. From `blanks` =
// test_table_blanks() + 1, a move that takes a blank cube reaches the tables; from
// test_table_blanks() and below, the position is in them.
inline std::vector<Position> positions_with_blanks(int blanks) {
  BOOST_TEST_REQUIRE((blanks >= 0 && blanks <= 8));
  const Bitboard x = bb("a5 b5 e5 c4 d4 a3 b3 e3 c2 d2 a1 b1 e1");
  const Bitboard o = kFullBoard & ~x;
  // The 16 border squares, each once.
  constexpr std::string_view kOrder[] = {"a1", "c5", "e3", "b1", "d5", "a4", "e2", "c1",
                                         "a2", "e4", "b5", "d1", "a5", "e1", "a3", "e5"};
  const std::size_t size = static_cast<std::size_t>(blanks);
  std::vector<Position> positions;
  for (std::size_t first = 0; first + size <= std::size(kOrder);
       first += size == 0 ? std::size(kOrder) : size) {
    Bitboard off = 0;
    for (std::size_t i = first; i < first + size; ++i) off |= bb(kOrder[i]);
    for (const Color to_move : {Color::X, Color::O})
      positions.push_back(Position(x & ~off, o & ~off, to_move));
  }
  return positions;
}

}  // namespace quixo::test
