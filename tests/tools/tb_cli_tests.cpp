// quixo-tb's command line (tools/tb_command_line.hpp), in-process and through the real binary:
// probe prints the value then every legal move with the value it leads to, best first, as the
// tables say; malformed, finished and out-of-table positions are one-line errors with exit 1;
// stats prints the published layout; verify passes good files and fails a corrupt one; usage
// errors exit 2.
#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/thread_start.hpp"
#include "support/child_process.hpp"
#include "support/table_file_bytes.hpp"
#include "support/test_tables.hpp"
#include "tb/index.hpp"
#include "tb/tablebase.hpp"
#include "tb/tb_file.hpp"
#include "tb_command_line.hpp"

using namespace quixo;
using namespace quixo::tb;

BOOST_AUTO_TEST_SUITE(tb_cli_tests)

namespace {

struct Run {
  int code = 0;
  std::string out;
  std::string err;
};

Run run(std::vector<std::string> arguments, const std::string& input = "") {
  arguments.insert(arguments.begin(), "quixo-tb");
  std::vector<const char*> argv;
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  std::istringstream in(input);
  std::ostringstream out, err;
  Run result;
  result.code = run_tb_command_line(int(argv.size()), argv.data(), in, out, err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A layer-0 position (X to move) the tables call `wdl` with a distance of at least `min_distance`.
Position table_position(Wdl wdl, int min_distance) {
  const LayerIndex index(0);
  const auto& tables = test::test_tables();
  for (Slot slot = 12345;; slot += 7919) {
    const auto content = index.board_of(slot % index.slot_count());
    if (content.hole) continue;
    const Position position(content.board.mover, content.board.opponent, Color::X);
    if (position.is_game_over()) continue;
    const auto value = tables.probe(position);
    if (value && value->wdl == wdl && value->distance >= min_distance) return position;
  }
}

struct TemporaryDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("quixo-tb-cli-" + std::to_string(::getpid()));
  TemporaryDir() {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TemporaryDir() { std::filesystem::remove_all(path); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(probe_prints_the_value_then_every_move_best_first) {
  const std::string dir = test::test_tables_dir().string();
  for (const auto& [wdl, distance] : {std::pair{Wdl::Win, 5}, {Wdl::Loss, 4}, {Wdl::Draw, 0}}) {
    const Position position = table_position(wdl, distance);
    const Run result = run({"probe", "--dir", dir, to_string(position)});
    BOOST_TEST_REQUIRE(result.code == 0, result.err);
    const auto lines = lines_of(result.out);
    BOOST_TEST_REQUIRE(lines.size() == std::size_t(position.legal_move_count()) + 1);
    const TbValue value = *test::test_tables().probe(position);
    BOOST_TEST(lines[0] == to_string(value));
    // each move line: the move, then the value of the position it leads to for the mover,
    // worked out here from the rules and the probe of the child
    int best_rank = 1000000;
    bool first = true, sorted = true;
    for (std::size_t i = 1; i < lines.size(); ++i) {
      std::istringstream in(lines[i]);
      std::string move_text;
      in >> move_text;
      const Move move = parse_move(position, move_text);
      const Position child = position.after(move);
      TbValue expected;
      if (child.outcome() == Outcome::XWins)
        expected = {Wdl::Win, 1};
      else if (child.outcome() == Outcome::OWins)
        expected = {Wdl::Loss, 1};
      else
        expected = test::test_tables().probe(child)->before_move();
      BOOST_TEST(lines[i] == move_text + " " + to_string(expected));
      const int rank = expected.wdl == Wdl::Win    ? 100000 - expected.distance
                       : expected.wdl == Wdl::Draw ? 0
                                                   : -100000 + expected.distance;
      if (first) BOOST_TEST(expected == value);  // the best move keeps the value
      sorted = sorted && rank <= best_rank;
      best_rank = rank;
      first = false;
    }
    BOOST_TEST(sorted);
  }
}

// A folder whose layer counts its distances to the layer's exit (generate --distance-to exit) is
// probed as any other, with a line on stderr that says what its distances count; the fixture's
// folder has none.
BOOST_AUTO_TEST_CASE(probe_says_when_a_layer_counts_to_its_exit) {
  TemporaryDir dir;
  write_layer_file(layer_file_path(dir.path, 0), LayerIndex(0),
                   LayerFile(layer_file_path(test::test_tables_dir(), 0), 0).decode_all(2), 2, 1,
                   DistanceCount::LayerExit);
  const Position position = table_position(Wdl::Win, 5);
  const std::string text = to_string(position);
  const Run single = run({"probe", "--dir", dir.path.string(), text});
  const Run batch = run({"probe", "--dir", dir.path.string(), "--batch"}, text + "\n");
  for (const Run& result : {single, batch}) {
    BOOST_TEST(result.code == 0, result.err);
    BOOST_TEST(lines_of(result.out).at(0) == to_string(*test::test_tables().probe(position)));
    BOOST_TEST(result.err.find("(0 counts plies to its exit): there a distance is the plies to "
                               "a blank cube taken") != std::string::npos,
               result.err);
  }
  const Run plain = run({"probe", "--dir", test::test_tables_dir().string(), text});
  BOOST_TEST(plain.code == 0);
  BOOST_TEST(plain.err.empty(), plain.err);
}

BOOST_AUTO_TEST_CASE(probe_refuses_what_it_cannot_answer) {
  const std::string dir = test::test_tables_dir().string();
  const Run malformed = run({"probe", "--dir", dir, "xxxxx/ooooo"});
  BOOST_TEST(malformed.code == 1);
  BOOST_TEST(malformed.err.find("malformed position") != std::string::npos, malformed.err);
  // a line of five X cubes: finished
  const Run finished = run({"probe", "--dir", dir, "xxxxx/ooxoo/oxoxo/xoxox/ooxxo x"});
  BOOST_TEST(finished.code == 1);
  BOOST_TEST(finished.err.find("game is over") != std::string::npos, finished.err);
  // the start position has 25 blank cubes
  const Run outside = run({"probe", "--dir", dir, to_string(Position::start())});
  BOOST_TEST(outside.code == 1);
  BOOST_TEST(outside.err.find("25 blank cubes") != std::string::npos, outside.err);
  BOOST_TEST(lines_of(outside.err).size() == 1u);
  const Run no_tables =
      run({"probe", "--dir", dir + "/missing", to_string(table_position(Wdl::Win, 1))});
  BOOST_TEST(no_tables.code == 1);
}

// probe --batch: one answer line per input line, in order, the tables' value or "error: <why>";
// exit 0 when every line had a value, else 1 with a count on stderr.
BOOST_AUTO_TEST_CASE(probe_batch_answers_every_line_in_order) {
  const std::string dir = test::test_tables_dir().string();
  const Position win = table_position(Wdl::Win, 5), loss = table_position(Wdl::Loss, 4),
                 draw = table_position(Wdl::Draw, 0);
  std::string input;
  for (const Position& position : {win, loss, draw}) input += to_string(position) + "\n";
  const Run good = run({"probe", "--dir", dir, "--batch"}, input);
  BOOST_TEST(good.code == 0, good.err);
  const auto values = lines_of(good.out);
  BOOST_TEST_REQUIRE(values.size() == 3u);
  BOOST_TEST(values[0] == to_string(*test::test_tables().probe(win)));
  BOOST_TEST(values[0].rfind("win ", 0) == 0u);
  BOOST_TEST(values[1] == to_string(*test::test_tables().probe(loss)));
  BOOST_TEST(values[2] == "draw");

  // malformed, empty, finished, outside the tables, then a good one again (with a CRLF ending)
  input = "xxxxx/ooooo\n\nxxxxx/ooxoo/oxoxo/xoxox/ooxxo x\n" + to_string(Position::start()) + "\n" +
          to_string(draw) + "\r\n";
  const Run mixed = run({"probe", "--dir", dir, "--batch"}, input);
  BOOST_TEST(mixed.code == 1);
  const auto answers = lines_of(mixed.out);
  BOOST_TEST_REQUIRE(answers.size() == 5u);
  BOOST_TEST(answers[0].rfind("error: malformed position", 0) == 0u, answers[0]);
  BOOST_TEST(answers[1].rfind("error: malformed position", 0) == 0u, answers[1]);
  BOOST_TEST(answers[2].rfind("error: the game is over", 0) == 0u, answers[2]);
  BOOST_TEST(answers[3].rfind("error: 25 blank cubes", 0) == 0u, answers[3]);
  BOOST_TEST(answers[4] == "draw");
  BOOST_TEST(mixed.err.find("4 of 5 positions had no value") != std::string::npos, mixed.err);

  BOOST_TEST(run({"probe", "--dir", dir, "--batch", to_string(draw)}).code == 2);
  BOOST_TEST(run({"probe", "--dir", dir + "/missing", "--batch"}, input).code == 2);
  BOOST_TEST(run({"stats", "--dir", dir, "--blanks", "0", "--batch"}).code == 2);
}

// Issue 25, item 15: a block found corrupt by the probe is named (its file, its number, the layer
// dropped), as the engine and the arena name it, not "holds no layers".
BOOST_AUTO_TEST_CASE(probe_names_a_corrupt_block) {
  TemporaryDir dir;
  const auto copy = layer_file_path(dir.path, 0);
  std::filesystem::copy_file(layer_file_path(test::test_tables_dir(), 0), copy);
  const LayerIndex index(0);
  // A position whose slot is in a block past the first few (board_of gives its slot's board).
  Slot slot = 40 * kBlockSlots;
  Position position;
  for (;; ++slot) {
    const auto content = index.board_of(slot);
    if (content.hole) continue;
    position = Position(content.board.mover, content.board.opponent, Color::X);
    if (!position.is_game_over()) break;
  }
  const std::uint64_t block = slot / kBlockSlots;
  std::string bytes;
  {
    std::ifstream in(copy, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::uint64_t begin = 0, end = 0;
  std::memcpy(&begin, bytes.data() + kHeaderBytes + block * 8, 8);
  std::memcpy(&end, bytes.data() + kHeaderBytes + (block + 1) * 8, 8);
  BOOST_TEST_REQUIRE(end > begin + 16);
  bytes[(begin + end) / 2] ^= 0x55;
  {
    std::ofstream out(copy, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
  }
  const Run result = run({"probe", "--dir", dir.path.string(), to_string(position)});
  BOOST_TEST(result.code == 1);
  BOOST_TEST(result.out.empty(), result.out);
  BOOST_TEST(result.err.starts_with("quixo-tb: " + copy.string() + ": block " +
                                    std::to_string(block) + " is corrupt"),
             result.err);
  BOOST_TEST(result.err.find("layer 0 dropped") != std::string::npos, result.err);
  BOOST_TEST(result.err.find("no layers") == std::string::npos, result.err);
}

BOOST_AUTO_TEST_CASE(stats_prints_the_published_layout) {
  const Run result = run({"stats", "--blanks", "0", "--dir", test::test_tables_dir().string()});
  BOOST_TEST_REQUIRE(result.code == 0, result.err);
  const auto lines = lines_of(result.out);
  BOOST_TEST_REQUIRE(lines.size() == 27u);
  BOOST_TEST(lines[0].front() == '#');
  BOOST_TEST(lines[1] == "25 0 0 1 0");
  BOOST_TEST(lines[26] == "0 25 1 0 0");
}

BOOST_AUTO_TEST_CASE(verify_passes_a_good_file_and_fails_a_corrupt_one) {
  TemporaryDir dir;
  const auto original = layer_file_path(test::test_tables_dir(), 0);
  const auto copy = layer_file_path(dir.path, 0);
  std::filesystem::copy_file(original, copy);
  // every 97th slot: the command line's part (the file, the options, the report); every slot of
  // every layer is tb_generate_tests' check, a pass of most of a minute under a sanitizer
  const Run good = run({"verify", "--blanks", "0", "--dir", dir.path.string(), "--every", "97"});
  BOOST_TEST(good.code == 0, good.err);
  const std::string checked = std::to_string(((std::uint64_t{1} << 25) + 96) / 97);
  BOOST_TEST(good.out.find(": " + checked + " slots checked, 0 wrong") != std::string::npos,
             good.out);

  // one byte of one block changed: its checksum no longer matches
  std::vector<char> bytes;
  {
    std::ifstream in(copy, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() / 2] ^= 1;
  {
    std::ofstream out(copy, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
  }
  const Run corrupt = run({"verify", "--blanks", "0", "--dir", dir.path.string()});
  BOOST_TEST(corrupt.code == 1);
  BOOST_TEST(corrupt.err.find("corrupt") != std::string::npos, corrupt.err);
}

// verify checks a layer counting to its exit (generate --distance-to exit) as one: the header's
// count decides how the children below are read. Layer 0's distances read the same either way (its
// only exit is the game's end); layer 1's fixture, counting to the end, relabelled as counting to
// its exit, fails wherever a move takes a blank; and a layer counting to the end cannot be checked
// above one counting to its exit.
BOOST_AUTO_TEST_CASE(verify_checks_a_layer_counting_to_its_exit_as_one) {
  TemporaryDir dir;
  const auto fixture = [](int layer) {
    return testing::read_bytes(layer_file_path(test::test_tables_dir(), layer));
  };
  testing::write_bytes(layer_file_path(dir.path, 0),
                       testing::with_layer_header_field(fixture(0), 68, 1));
  const Run exit0 = run({"verify", "--blanks", "0", "--dir", dir.path.string(), "--every", "97"});
  BOOST_TEST(exit0.code == 0, exit0.err);
  BOOST_TEST(exit0.out.find(" 0 wrong (") != std::string::npos, exit0.out);
  BOOST_TEST(exit0.out.find("; distances counted to its exit)") != std::string::npos, exit0.out);
  if (test::test_table_blanks() < 1) return;  // the sanitizer presets generate layer 0 only

  testing::write_bytes(layer_file_path(dir.path, 1), fixture(1));
  const Run above = run({"verify", "--blanks", "1", "--dir", dir.path.string(), "--every", "997"});
  BOOST_TEST(above.code == 1);
  BOOST_TEST(above.out.find("layer 1: not checked: layer 0 below counts its distances to its "
                            "exit") != std::string::npos,
             above.out);

  testing::write_bytes(layer_file_path(dir.path, 0), fixture(0));
  testing::write_bytes(layer_file_path(dir.path, 1),
                       testing::with_layer_header_field(fixture(1), 68, 1));
  const Run relabelled =
      run({"verify", "--blanks", "1", "--dir", dir.path.string(), "--every", "997"});
  BOOST_TEST(relabelled.code == 1);
  const auto layer1 = relabelled.out.find("layer 1: ");
  BOOST_TEST_REQUIRE(layer1 != std::string::npos, relabelled.out);
  BOOST_TEST(relabelled.out.find(" 0 wrong") < layer1, relabelled.out);  // layer 0 passes
  BOOST_TEST(relabelled.out.find(" 0 wrong", layer1) == std::string::npos, relabelled.out);
  BOOST_TEST(relabelled.out.find("; distances counted to its exit)", layer1) != std::string::npos);
}

// Issue 25, item 14: a thread the system will not start (--threads 1000 under a memory limit;
// here a ThreadStartLimit) stops generate with a one-line error naming it and exit 2; the layer
// already written stays as it was, and no file of the layer it was making is left. It used to
// end with `terminate called without an active exception` (rc 134).
BOOST_AUTO_TEST_CASE(generate_stops_cleanly_when_a_thread_cannot_start) {
  TemporaryDir dir;
  const auto layer0 = layer_file_path(dir.path, 0);
  std::filesystem::copy_file(layer_file_path(test::test_tables_dir(), 0), layer0);
  const auto read_bytes = [](const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string before = read_bytes(layer0);
  Run result;
  {
    const ThreadStartLimit limit(1);
    result = run({"generate", "--blanks", "1", "--dir", dir.path.string(), "--threads", "4"});
  }
  BOOST_TEST(result.code == 2, result.err);
  const auto lines = lines_of(result.err);
  BOOST_TEST_REQUIRE(!lines.empty());
  BOOST_TEST(lines.back().starts_with("quixo-tb: cannot start thread 3 of 4 ("), result.err);
  BOOST_TEST(read_bytes(layer0) == before);
  BOOST_TEST(!std::filesystem::exists(layer_file_path(dir.path, 1)));
  BOOST_TEST(result.out.empty(), result.out);
}

BOOST_AUTO_TEST_CASE(sample_prints_distinct_positions_with_the_value_asked_for) {
  const std::vector<std::string> arguments = {"sample",
                                              "--blanks",
                                              "0",
                                              "--dir",
                                              test::test_tables_dir().string(),
                                              "--value",
                                              "loss",
                                              "--min-distance",
                                              "10",
                                              "--max-distance",
                                              "20",
                                              "--count",
                                              "12",
                                              "--seed",
                                              "5"};
  const Run result = run(arguments);
  BOOST_TEST_REQUIRE(result.code == 0, result.err);
  const auto lines = lines_of(result.out);
  BOOST_TEST_REQUIRE(lines.size() == 13u);
  BOOST_TEST(lines[0].front() == '#');
  std::set<std::string> seen;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const Position position = parse_position(lines[i]);
    BOOST_TEST((position.side_to_move() == Color::X));
    const TbValue value = *test::test_tables().probe(position);
    BOOST_TEST((value.wdl == Wdl::Loss && value.distance >= 10 && value.distance <= 20), value);
    seen.insert(lines[i]);
  }
  BOOST_TEST(seen.size() == 12u);
  BOOST_TEST(run(arguments).out == result.out);  // the same seed, the same positions
}

// --off-border keeps, of the same shuffled positions, those with that many blank cubes on the nine
// inner squares: the positions printed are the first ones of the unfiltered sample that have them.
BOOST_AUTO_TEST_CASE(sample_off_border_keeps_the_positions_with_that_many_inner_blanks) {
  if (test::test_table_blanks() < 1) return;  // the sanitizer presets generate layer 0 only
  const auto positions = [](const std::vector<std::string>& extra, int count) {
    std::vector<std::string> arguments = {"sample",
                                          "--blanks",
                                          "1",
                                          "--dir",
                                          test::test_tables_dir().string(),
                                          "--value",
                                          "win",
                                          "--seed",
                                          "9",
                                          "--count",
                                          std::to_string(count)};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    const Run result = run(arguments);
    BOOST_TEST_REQUIRE(result.code == 0, result.err);
    auto lines = lines_of(result.out);
    BOOST_TEST_REQUIRE(!lines.empty());
    const bool filtered = !extra.empty();
    BOOST_TEST((lines[0].find(" --off-border ") != std::string::npos) == filtered, lines[0]);
    lines.erase(lines.begin());
    return lines;
  };
  const auto inner_blanks = [](const std::string& text) {
    return std::popcount(parse_position(text).blanks() & ~kBorder);
  };
  const auto unfiltered = positions({}, 600);
  for (const int inside : {0, 1}) {
    std::vector<std::string> expected;
    for (const std::string& text : unfiltered)
      if (inner_blanks(text) == inside && expected.size() < 20) expected.push_back(text);
    BOOST_TEST_REQUIRE(expected.size() == 20u);  // both kinds are common among 600
    BOOST_TEST(positions({"--off-border", std::to_string(inside)}, 20) == expected,
               boost::test_tools::per_element());
  }
  const Run beyond = run(
      {"sample", "--blanks", "1", "--dir", test::test_tables_dir().string(), "--off-border", "2"});
  BOOST_TEST(beyond.code == 2);
  BOOST_TEST(beyond.err.find("--off-border must be 0..1 (the layer's blank cubes), not 2") !=
                 std::string::npos,
             beyond.err);
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2_with_one_line) {
  for (const auto& arguments : std::vector<std::vector<std::string>>{
           {},
           {"solve"},
           {"generate", "--dir", "x"},
           {"generate", "--blanks", "9", "--dir", "x"},
           {"stats", "--blanks", "0"},
           {"sample", "--blanks", "0", "--dir", "x", "--value", "maybe"},
           {"verify", "--blanks", "zero", "--dir", "x"},
           {"verify", "--blanks", "0", "--dir", "x", "--every", "0"},
           // read as the largest number before, so each layer was checked at its slot 0 alone
           {"verify", "--blanks", "0", "--dir", test::test_tables_dir().string(), "--every", "-1"},
           {"generate", "--blanks", "3", "--dir", "/nonexistent-quixo", "--memory", "100"},
           {"generate", "--blanks", "0", "--dir", "x", "--distance-to", "fill"}}) {
    const Run result = run(arguments);
    BOOST_TEST(result.code == 2);
    BOOST_TEST(result.err.rfind("quixo-tb: ", 0) == 0u, result.err);
  }
  BOOST_TEST(run({"--help"}).code == 0);
}

BOOST_AUTO_TEST_CASE(the_real_binary_probes) {
  const Position position = table_position(Wdl::Win, 3);
  testing::EngineProcess tool(
      QUIXO_TB_BINARY, {"probe", "--dir", test::test_tables_dir().string(), to_string(position)});
  const auto first = tool.read_line(std::chrono::seconds(20));
  BOOST_TEST_REQUIRE(first.has_value());
  BOOST_TEST(*first == to_string(*test::test_tables().probe(position)));
  BOOST_TEST(tool.wait_exit(std::chrono::seconds(20)).value_or(-1) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
