// The table files (engine/tb/tb_file.hpp): a layer written and read back is the same; a file that
// is truncated anywhere, has a flipped byte in its header or block table, the wrong magic,
// version, layer, encoding or distance count, or is shorter than its header is refused with a
// message when opened; a corrupt block is refused when it is read, and the probe then drops the
// layer instead of answering. Works on copies of the fixture's layer 0.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/table_file_bytes.hpp"
#include "support/test_tables.hpp"
#include "tb/index.hpp"
#include "tb/tablebase.hpp"
#include "tb/tb_file.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::tb;

namespace {

using testing::Bytes;
using testing::read_bytes;
using testing::write_bytes;

const Bytes& layer0_bytes() {
  static const Bytes bytes = [] {
    test::require_test_tables();
    return read_bytes(layer_file_path(test::test_tables_dir(), 0));
  }();
  return bytes;
}

Bytes with_header_field(std::size_t offset, std::uint32_t value) {
  return testing::with_header_field(layer0_bytes(), offset, value);
}

std::string refusal(Bytes bytes, int expected_layer = 0) {
  try {
    LayerFile file(std::move(bytes), expected_layer, "copy");
  } catch (const TbFileError& error) {
    return error.what();
  }
  return "";
}

struct TemporaryDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("quixo-tb-file-" + std::to_string(::getpid()));
  TemporaryDir() {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TemporaryDir() { std::filesystem::remove_all(path); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(tb_file_tests)

BOOST_AUTO_TEST_CASE(a_layer_written_and_read_back_is_the_same) {
  const LayerFile original(layer_file_path(test::test_tables_dir(), 0), 0);
  const auto values = original.decode_all(2);
  TemporaryDir dir;
  const auto path = layer_file_path(dir.path, 0);
  const std::uint64_t size = write_layer_file(path, LayerIndex(0), values, 2, 1);
  BOOST_TEST(std::filesystem::file_size(path) == size);
  BOOST_TEST(!std::filesystem::exists(path.string() + ".tmp"));
  const LayerFile copy(path, 0);
  copy.check_file_checksum();
  BOOST_TEST(copy.info().max_distance == original.info().max_distance);
  BOOST_TEST(copy.info().sections.size() == original.info().sections.size());
  for (std::size_t m = 0; m < copy.info().sections.size(); ++m) {
    BOOST_TEST(copy.info().sections[m].wins == original.info().sections[m].wins);
    BOOST_TEST(copy.info().sections[m].draws == original.info().sections[m].draws);
  }
  BOOST_TEST((copy.decode_all(1) == values));
  BOOST_TEST((copy.info().distance_count == DistanceCount::GameEnd));
}

// What the distances count is in the header (old files' zero reads as "to the end"), and a
// folder holding a layer that counts to its exit says so: the engine refuses such tables.
BOOST_AUTO_TEST_CASE(a_layer_counting_to_its_exit_says_so_and_its_folder_too) {
  const LayerFile original(layer_file_path(test::test_tables_dir(), 0), 0);
  BOOST_TEST((original.info().distance_count == DistanceCount::GameEnd));
  TemporaryDir dir;
  const auto path = layer_file_path(dir.path, 0);
  write_layer_file(path, LayerIndex(0), original.decode_all(2), 2, 1, DistanceCount::LayerExit);
  BOOST_TEST((LayerFile(path, 0).info().distance_count == DistanceCount::LayerExit));
  Tablebase tables;
  BOOST_TEST(tables.load(dir.path).layers == std::vector<int>{0});
  BOOST_TEST(tables.layers_counting_to_exit() == std::vector<int>{0});
  BOOST_TEST(tables.describe() == "layers 0 (0 counts plies to its exit)");
  tables.load(test::test_tables_dir());
  BOOST_TEST(tables.layers_counting_to_exit().empty());
  BOOST_TEST(tables.describe().find("exit") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_fixture_file_checks_out) {
  const LayerFile file(layer0_bytes(), 0, "layer 0");
  BOOST_CHECK_NO_THROW(file.check_file_checksum());
  BOOST_TEST(file.info().layer == 0);
  BOOST_TEST(file.info().encoding == 1);
  BOOST_TEST(file.info().slot_count == std::uint64_t{1} << 25);
}

BOOST_DATA_TEST_CASE(a_truncated_file_is_refused,
                     bdata::make({0, 10, 4095, 4096, 4200, 9000, -13, -12, -1}), cut) {
  const Bytes& whole = layer0_bytes();
  const std::size_t length = cut >= 0 ? std::size_t(cut) : whole.size() - std::size_t(-cut);
  const std::string why = refusal(Bytes(whole.begin(), whole.begin() + std::ptrdiff_t(length)));
  BOOST_TEST(!why.empty());
  BOOST_TEST(
      (why.find("truncated") != std::string::npos || why.find("shorter") != std::string::npos),
      why);
}

BOOST_DATA_TEST_CASE(a_flipped_header_byte_is_refused, bdata::make({0, 9, 13, 33, 200, 4093}),
                     offset) {
  Bytes bytes = layer0_bytes();
  bytes[std::size_t(offset)] ^= 0x20;
  BOOST_TEST(!refusal(bytes).empty());
}

BOOST_AUTO_TEST_CASE(a_flipped_block_table_byte_is_refused) {
  Bytes bytes = layer0_bytes();
  bytes[kHeaderBytes + 8 * 3 + 1] ^= 1;
  BOOST_TEST(refusal(bytes).find("block table") != std::string::npos, refusal(bytes));
}

BOOST_AUTO_TEST_CASE(wrong_magic_version_layer_and_encoding_are_refused) {
  Bytes magic = layer0_bytes();
  magic[1] = 'X';
  BOOST_TEST(refusal(magic).find("magic") != std::string::npos);
  BOOST_TEST(refusal(with_header_field(8, 2)).find("version 2") != std::string::npos);
  BOOST_TEST(refusal(with_header_field(20, 7)).find("encoding 7") != std::string::npos);
  BOOST_TEST(refusal(with_header_field(16, 9)).find("index scheme") != std::string::npos);
  BOOST_TEST(refusal(with_header_field(68, 2)).find("distance count 2") != std::string::npos);
  BOOST_TEST(refusal(layer0_bytes(), 1).find("expected layer 1") != std::string::npos);
  // a layer-1 header on layer 0's data: the counts do not fit layer 1's index
  BOOST_TEST(refusal(with_header_field(12, 1), 1).find("counts") != std::string::npos);
}

// The layer is a u32 on disk: one read as a negative int once passed the "too large" check and
// reached the index, which threw std::invalid_argument (found by fuzz_tb_file).
BOOST_DATA_TEST_CASE(a_layer_past_the_last_indexed_one_is_refused,
                     bdata::make({std::uint32_t{7}, std::uint32_t{0x80000000u},
                                  std::uint32_t{0xffff0107u}, std::uint32_t{0xffffffffu}}),
                     layer) {
  const std::string why = refusal(with_header_field(12, layer), -1);
  BOOST_TEST(why.find("layer " + std::to_string(layer) + " is unknown") != std::string::npos, why);
}

BOOST_AUTO_TEST_CASE(a_corrupt_block_is_refused_when_read_and_the_probe_drops_the_layer) {
  const LayerIndex index(0);
  // a position in a block past the first few, and that block's bytes
  Slot slot = 40 * kBlockSlots;
  while (index.board_of(slot).hole) ++slot;
  const std::uint64_t block = slot / kBlockSlots;
  Bytes bytes = layer0_bytes();
  std::uint64_t begin = 0, end = 0;
  std::memcpy(&begin, bytes.data() + kHeaderBytes + block * 8, 8);
  std::memcpy(&end, bytes.data() + kHeaderBytes + (block + 1) * 8, 8);
  BOOST_TEST_REQUIRE(end > begin + 16);
  bytes[(begin + end) / 2] ^= 0x55;

  {
    const LayerFile file(bytes, 0, "copy");  // header and table are fine
    std::vector<PackedValue> out(kBlockSlots);
    BOOST_CHECK_THROW(file.decode_block(block, out), TbFileError);
    BOOST_CHECK_NO_THROW(file.decode_block(block - 1, out));
    BOOST_CHECK_THROW(file.check_file_checksum(), TbFileError);
  }

  TemporaryDir dir;
  write_bytes(layer_file_path(dir.path, 0), bytes);
  Tablebase tables;
  const auto report = tables.load(dir.path);
  BOOST_TEST(report.problems.empty());
  BOOST_TEST(tables.has_layer(0));
  const auto board = index.board_of(slot).board;
  const Position position(board.mover, board.opponent, Color::X);
  BOOST_TEST(!tables.probe(position).has_value());
  BOOST_TEST(!tables.has_layer(0));
  BOOST_TEST(tables.last_problem().find("corrupt") != std::string::npos, tables.last_problem());
}

BOOST_AUTO_TEST_CASE(loading_reports_refused_files_and_keeps_the_good_ones) {
  TemporaryDir dir;
  write_bytes(layer_file_path(dir.path, 0), layer0_bytes());
  const Bytes& whole = layer0_bytes();
  write_bytes(layer_file_path(dir.path, 1), Bytes(whole.begin(), whole.begin() + 5000));
  Tablebase tables;
  const auto report = tables.load(dir.path);
  BOOST_TEST(report.layers == std::vector<int>{0});
  BOOST_TEST_REQUIRE(report.problems.size() == 1u);
  BOOST_TEST(report.problems[0].find("quixo-b1.qtb") != std::string::npos);
  BOOST_TEST(tables.describe() == "layers 0");

  const auto missing = tables.load(dir.path / "nowhere");
  BOOST_TEST(missing.layers.empty());
  BOOST_TEST(missing.problems.size() == 1u);
  BOOST_TEST(tables.empty());
}

// Issue 25, item 11: a layer file that is a directory or a FIFO is refused by name when the
// tables are loaded (the engine's TablebasePath, the arena's --tb, quixo-tb), and the good
// layers are kept. A FIFO used to block the loader until something wrote to it; a directory was
// refused only as "cannot map: No such device".
BOOST_AUTO_TEST_CASE(a_layer_file_that_is_not_a_regular_file_is_refused_by_name) {
  TemporaryDir dir;
  write_bytes(layer_file_path(dir.path, 0), layer0_bytes());
  std::filesystem::create_directory(layer_file_path(dir.path, 1));
  BOOST_TEST_REQUIRE(::mkfifo(layer_file_path(dir.path, 2).c_str(), 0600) == 0);
  Tablebase tables;
  const auto report = tables.load(dir.path);
  BOOST_TEST(report.layers == std::vector<int>{0});
  BOOST_TEST_REQUIRE(report.problems.size() == 2u);
  BOOST_TEST(report.problems[0] ==
             layer_file_path(dir.path, 1).string() + ": is a directory, not a file");
  BOOST_TEST(report.problems[1] ==
             layer_file_path(dir.path, 2).string() + ": is not a regular file");
  BOOST_CHECK_THROW(LayerFile(layer_file_path(dir.path, 2), 2), TbFileError);
}

BOOST_AUTO_TEST_SUITE_END()
