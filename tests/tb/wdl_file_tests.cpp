// The win/draw/loss files (engine/tb/wdl_file.hpp) that the search probes: the fixture's hold
// exactly the codes of their layer files and are what write_wdl_file writes again, byte for byte;
// a file that is truncated, damaged in its header, of another layer or made from another layer
// file is refused with a message when opened, and damaged codes when its checksum is read; the
// tables then keep the layer and probe it through the layer file, with the same answers; a probe
// that meets a hole drops the layer.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "support/table_file_bytes.hpp"
#include "support/temp_dir.hpp"
#include "support/test_tables.hpp"
#include "tb/index.hpp"
#include "tb/tablebase.hpp"
#include "tb/tb_file.hpp"
#include "tb/wdl_file.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::tb;

BOOST_AUTO_TEST_SUITE(wdl_file_tests)

namespace {

using testing::Bytes;
using testing::read_bytes;
using testing::TempDir;
using testing::write_bytes;

// A folder with the fixture's layer 0 and, unless null, `wdl` as its win/draw/loss file.
struct LayerZeroDir : TempDir {
  explicit LayerZeroDir(const std::optional<Bytes>& wdl) : TempDir("quixo-wdl-file-") {
    test::require_test_tables();
    std::filesystem::copy_file(layer_file_path(test::test_tables_dir(), 0),
                               layer_file_path(path(), 0));
    if (wdl) write_bytes(wdl_file_path(path(), 0), *wdl);
  }
};

const Bytes& wdl0_bytes() {
  static const Bytes bytes = [] {
    test::require_test_tables();
    return read_bytes(wdl_file_path(test::test_tables_dir(), 0));
  }();
  return bytes;
}

std::uint32_t layer0_checksum() {
  return LayerFile(layer_file_path(test::test_tables_dir(), 0), 0).file_checksum();
}

Bytes with_header_field(std::size_t offset, std::uint32_t value) {
  return testing::with_header_field(wdl0_bytes(), offset, value);
}

// Why a copy of layer 0's file holding `bytes` is refused when opened ("" when it is not).
std::string refusal(const Bytes& bytes) {
  const TempDir dir("quixo-wdl-file-");
  write_bytes(wdl_file_path(dir.path(), 0), bytes);
  try {
    WdlFile file(wdl_file_path(dir.path(), 0), 0, layer0_checksum());
  } catch (const TbFileError& error) {
    return error.what();
  }
  return "";
}

// Positions of layer 0 at every `step`-th slot that is not a hole, either side to move.
std::vector<Position> layer0_positions(Slot step) {
  const LayerIndex index(0);
  std::vector<Position> positions;
  for (Slot slot = 0; slot < index.slot_count(); slot += step) {
    const auto content = index.board_of(slot);
    if (content.hole) continue;
    positions.emplace_back(content.board.mover, content.board.opponent,
                           positions.size() % 2 ? Color::X : Color::O);
  }
  return positions;
}

}  // namespace

// Every slot of every layer the fixture makes: the code of the win/draw/loss file is the layer
// file's, holes included.
BOOST_AUTO_TEST_CASE(the_fixture_files_hold_the_codes_of_their_layer_files) {
  test::require_test_tables();
  for (int k = 0; k <= test::test_table_blanks(); ++k) {
    const LayerFile layer(layer_file_path(test::test_tables_dir(), k), k);
    const WdlFile wdl(wdl_file_path(test::test_tables_dir(), k), k, layer.file_checksum());
    BOOST_CHECK_NO_THROW(wdl.check_checksum());
    const LayerValues values = layer.decode_all(2);
    BOOST_TEST_REQUIRE(wdl.slot_count() == values.size());
    Slot wrong = 0;
    for (Slot slot = 0; slot < values.size(); ++slot)
      wrong += wdl.code(slot) != wdl_of(values[slot]);
    BOOST_TEST(wrong == 0u, "layer " << k);
    // A quarter of a byte a slot, after the header.
    BOOST_TEST(wdl.file_size() == kHeaderBytes + (values.size() + 3) / 4);
  }
}

// The file follows from the layer file alone: written again, it is the same bytes.
BOOST_AUTO_TEST_CASE(written_again_it_is_the_same_file) {
  const TempDir dir("quixo-wdl-file-");
  const LayerFile layer(layer_file_path(test::test_tables_dir(), 0), 0);
  const auto path = wdl_file_path(dir.path(), 0);
  const std::uint64_t size = write_wdl_file(path, layer, 2);
  BOOST_TEST(size == std::filesystem::file_size(path));
  BOOST_TEST(!std::filesystem::exists(path.string() + ".tmp"));
  BOOST_TEST((read_bytes(path) == wdl0_bytes()));
}

BOOST_DATA_TEST_CASE(a_truncated_or_padded_file_is_refused,
                     bdata::make({std::size_t{0}, std::size_t{100}, std::size_t{4095},
                                  std::size_t{4096}, std::size_t{1}}),
                     cut) {
  Bytes bytes = wdl0_bytes();
  if (cut == 1)
    bytes.push_back(0);  // one byte too many
  else
    bytes.resize(cut);
  const std::string why = refusal(bytes);
  BOOST_TEST(!why.empty());
  BOOST_TEST(why.find("quixo-b0.qtbw") != std::string::npos, why);
}

BOOST_DATA_TEST_CASE(a_flipped_header_byte_is_refused, bdata::make({0, 9, 13, 25, 33, 4093}),
                     offset) {
  Bytes bytes = wdl0_bytes();
  bytes[std::size_t(offset)] ^= 0x10;
  BOOST_TEST(!refusal(bytes).empty());
}

BOOST_AUTO_TEST_CASE(wrong_magic_version_and_layer_are_refused) {
  BOOST_TEST(refusal(with_header_field(0, 0x12345678)).find("bad magic") != std::string::npos);
  BOOST_TEST(refusal(with_header_field(8, 7)).find("file version 7") != std::string::npos);
  BOOST_TEST(refusal(with_header_field(12, 1)).find("holds layer 1, expected layer 0") !=
             std::string::npos);
  BOOST_TEST(refusal(with_header_field(16, 9)).find("index scheme") != std::string::npos);
}

// A file left beside a layer file generated again (its values changed or not) is refused: it
// names the layer file it was made from by that file's checksum.
BOOST_AUTO_TEST_CASE(a_file_made_from_another_layer_file_is_refused) {
  const std::string why = refusal(with_header_field(32, layer0_checksum() ^ 1));
  BOOST_TEST(why.find("was made from another quixo-b0.qtb") != std::string::npos, why);
  BOOST_TEST(why.find("quixo-tb generate") != std::string::npos, why);
}

// Damaged codes are found by the checksum (TablebaseCheck), not when opened.
BOOST_AUTO_TEST_CASE(damaged_codes_fail_the_checksum) {
  Bytes bytes = wdl0_bytes();
  bytes[kHeaderBytes + bytes.size() / 3] ^= 0x04;
  BOOST_TEST(refusal(bytes).empty());
  const TempDir dir("quixo-wdl-file-");
  write_bytes(wdl_file_path(dir.path(), 0), bytes);
  const WdlFile file(wdl_file_path(dir.path(), 0), 0, layer0_checksum());
  BOOST_CHECK_THROW(file.check_checksum(), TbFileError);
}

// With and without the win/draw/loss file, probe_wdl answers what probe does.
BOOST_AUTO_TEST_CASE(the_tables_probe_the_file_and_answer_as_the_layer_file) {
  const std::vector<Position> positions = layer0_positions(997);
  BOOST_TEST_REQUIRE(positions.size() > 1000u);
  for (const bool with_file : {true, false}) {
    const LayerZeroDir dir(with_file ? std::optional(wdl0_bytes()) : std::nullopt);
    Tablebase tables;
    const auto report = tables.load(dir.path());
    BOOST_TEST(report.problems.empty());
    BOOST_TEST((report.wdl_layers == (with_file ? std::vector<int>{0} : std::vector<int>{})));
    BOOST_TEST(tables.has_wdl_file(0) == with_file);
    int wins = 0, losses = 0, draws = 0;
    for (const Position& position : positions) {
      const auto value = tables.probe(position);
      const auto wdl = tables.probe_wdl(position);
      BOOST_TEST_REQUIRE(value.has_value());
      BOOST_TEST_REQUIRE(wdl.has_value());
      BOOST_TEST((*wdl == value->wdl), to_string(position));
      wins += *wdl == Wdl::Win;
      losses += *wdl == Wdl::Loss;
      draws += *wdl == Wdl::Draw;
    }
    BOOST_TEST((wins > 0 && losses > 0 && draws > 0));
  }
}

// A damaged file costs its layer nothing but speed: reported by name, and the layer probed
// through the layer file. Damaged codes are refused so only when the checksums are checked.
BOOST_AUTO_TEST_CASE(a_refused_file_is_reported_and_its_layer_kept) {
  const Bytes& whole = wdl0_bytes();
  const LayerZeroDir truncated(Bytes(whole.begin(), whole.end() - 1));
  Bytes damaged = whole;
  damaged[kHeaderBytes + 12345] ^= 0x01;
  const LayerZeroDir flipped(damaged);
  const Position position = layer0_positions(100003).front();
  for (const auto& [dir, check] : {std::pair{&truncated, false}, std::pair{&flipped, true}}) {
    Tablebase tables;
    const auto report = tables.load(dir->path(), 64u << 20, check);
    BOOST_TEST((report.layers == std::vector<int>{0}));
    BOOST_TEST(report.wdl_layers.empty());
    BOOST_TEST_REQUIRE(report.problems.size() == 1u);
    BOOST_TEST(report.problems[0].find(wdl_file_path(dir->path(), 0).string()) != std::string::npos,
               report.problems[0]);
    BOOST_TEST(report.problems[0].find("probed without it") != std::string::npos,
               report.problems[0]);
    BOOST_TEST(!tables.has_wdl_file(0));
    BOOST_TEST(tables.probe_wdl(position).has_value());
  }
  // Unchecked, the damaged file is used.
  Tablebase unchecked;
  BOOST_TEST((unchecked.load(flipped.path()).wdl_layers == std::vector<int>{0}));
}

// A probe that meets a hole's code, which no position maps to, finds the file corrupt: the layer
// is dropped and the reason kept, as for a corrupt block of a layer file.
BOOST_AUTO_TEST_CASE(a_probe_that_meets_a_hole_drops_the_layer) {
  const Position position = layer0_positions(100003).at(3);
  const LayerIndex index(0);
  const Color mover = position.side_to_move();
  const Slot slot = index.slot_of({position.cubes(mover), position.cubes(~mover)});
  Bytes bytes = wdl0_bytes();
  bytes[kHeaderBytes + slot / 4] |= std::uint8_t(3 << (2 * (slot % 4)));
  const LayerZeroDir dir(bytes);
  Tablebase tables;
  BOOST_TEST((tables.load(dir.path()).wdl_layers == std::vector<int>{0}));
  BOOST_TEST(!tables.probe_wdl(position).has_value());
  BOOST_TEST(!tables.has_layer(0));
  BOOST_TEST(tables.last_problem().find("hole") != std::string::npos, tables.last_problem());
  BOOST_TEST(tables.last_problem().find("layer 0 dropped") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
