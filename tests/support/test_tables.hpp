// The endgame tables the tests use: layers 0..QUIXO_TEST_TABLE_BLANKS, generated once per test
// run into QUIXO_TEST_TABLES_DIR by the ctest fixture `tb_tables` (the real quixo-tb). A suite that
// needs them and runs without them fails and says how to make them; it never passes vacuously.
#pragma once

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>

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

}  // namespace quixo::test
