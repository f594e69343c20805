// The generator's tables (the fixture's layers 0..QUIXO_TEST_TABLE_BLANKS, made by the real
// quixo-tb): the per-class counts equal the published ones row for row, the longest wins are 70
// and 75 plies, every stored value passes the forward-only verifier, the verifier catches one
// changed value of each kind, and the values do not depend on the number of threads.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "support/sanitizers.hpp"
#include "support/temp_dir.hpp"
#include "support/test_tables.hpp"
#include "tb/gen/generator.hpp"
#include "tb/gen/verify.hpp"
#include "tb/index.hpp"
#include "tb/tb_file.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::tb;

namespace {

const char* const kReferenceFiles[] = {"published_5x5_full_layer.txt", "published_5x5_b1_layer.txt",
                                       "published_5x5_b2_layer.txt", "published_5x5_b3_layer.txt",
                                       "published_5x5_b4_layer.txt"};

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The rows of a reference file without its comment lines.
std::string reference_rows(int layer) {
  std::istringstream in(read_text(std::filesystem::path(QUIXO_SOURCE_DIR) / "tests/data/reference" /
                                  kReferenceFiles[layer]));
  std::string line, rows;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') rows += line + "\n";
  return rows;
}

LayerValues layer_values(int layer) {
  test::require_test_tables();
  return LayerFile(layer_file_path(test::test_tables_dir(), layer), layer).decode_all(2);
}

// The slots the verifier checks in every_stored_value_is_the_best_over_its_moves. Release checks
// all of layer 0 (33 M slots) and every 4th slot of layer 1 (100 M; all of them took 26 s of both
// cores in CI, and the published counts, equal row for row, already pin the layer down); under a
// sanitizer, which looks for memory errors and races rather than wrong values, every 8th slot of
// layer 0. `quixo-tb verify` checks every slot of a layer.
SlotSelection verified_slots(int layer) {
#if defined(QUIXO_ADDRESS_SANITIZER) || defined(QUIXO_THREAD_SANITIZER)
  static_cast<void>(layer);
  return {0, ~Slot{0}, 8};
#else
  return {0, ~Slot{0}, Slot(layer == 0 ? 1 : 4)};
#endif
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tb_generate_tests)

BOOST_DATA_TEST_CASE(the_reference_copies_equal_the_shared_originals, bdata::make({0, 1, 2, 3, 4}),
                     layer) {
  const auto original =
      std::filesystem::path(QUIXO_SOURCE_DIR) / "../shared/reference" / kReferenceFiles[layer];
  const auto copy =
      std::filesystem::path(QUIXO_SOURCE_DIR) / "tests/data/reference" / kReferenceFiles[layer];
  BOOST_TEST_REQUIRE(std::filesystem::exists(copy));
  if (std::filesystem::exists(original)) BOOST_TEST(read_text(copy) == read_text(original));
  BOOST_TEST(reference_rows(layer).size() > 100u);
}

BOOST_AUTO_TEST_CASE(counts_equal_the_published_counts_row_for_row) {
  for (int layer = 0; layer <= test::test_table_blanks(); ++layer) {
    BOOST_TEST_CONTEXT("layer " << layer) {
      const auto values = layer_values(layer);
      const std::string counted = format_stats(layer_stats(LayerIndex(layer), values, 2));
      BOOST_TEST(counted == reference_rows(layer));
    }
  }
}

BOOST_AUTO_TEST_CASE(the_longest_wins_are_those_published) {
  const int longest[] = {70, 75};
  for (int layer = 0; layer <= test::test_table_blanks(); ++layer) {
    const LayerFile file(layer_file_path(test::test_tables_dir(), layer), layer);
    BOOST_TEST(file.info().max_distance == longest[layer]);
    file.check_file_checksum();
  }
}

BOOST_AUTO_TEST_CASE(every_stored_value_is_the_best_over_its_moves) {
  LayerValues lower;
  std::unique_ptr<LayerIndex> lower_index;
  for (int layer = 0; layer <= test::test_table_blanks(); ++layer) {
    auto index = std::make_unique<LayerIndex>(layer);
    auto values = layer_values(layer);
    const SlotSelection selection = verified_slots(layer);
    const VerifyReport report =
        verify_layer(*index, values, lower_index.get(), lower, 2, selection);
    BOOST_TEST(report.checked == (index->slot_count() + selection.step - 1) / selection.step);
    BOOST_TEST(report.failures == 0u);
    for (const auto& error : report.first_errors) BOOST_TEST_MESSAGE(error);
    lower = std::move(values);
    lower_index = std::move(index);
  }
}

BOOST_AUTO_TEST_CASE(the_verifier_catches_one_changed_value) {
  const LayerIndex index(0);
  auto values = layer_values(0);
  // find a won position, a lost one and a draw, and change each in a copy
  Slot win = 0, loss = 0, draw = 0;
  for (Slot slot = 0; slot < values.size() && (!win || !loss || !draw); ++slot) {
    const TbValue value = unpack_value(values[slot]);
    if (value.wdl == Wdl::Win && value.distance > 2 && !win) win = slot;
    if (value.wdl == Wdl::Loss && value.distance > 2 && !loss) loss = slot;
    if (value.wdl == Wdl::Draw && !draw) draw = slot;
  }
  BOOST_TEST_REQUIRE((win && loss && draw));
  const std::pair<Slot, PackedValue> changes[] = {
      {win, PackedValue(values[win] + 2)},    // a win two plies longer
      {loss, PackedValue(values[loss] - 2)},  // a loss two plies shorter
      {draw, pack_value(Wdl::Win, 9)},        // a draw claimed as a win
  };
  // The slots around each change: the whole layer is the previous case's work (most of a minute
  // per pass under a sanitizer), and a verifier that finds the change there finds it anywhere.
  for (const auto& [slot, changed] : changes) {
    BOOST_TEST_CONTEXT("slot " << slot) {
      const SlotSelection around{slot - std::min<Slot>(slot, 5000), slot + 5000, 1};
      BOOST_TEST(verify_layer(index, values, nullptr, {}, 2, around).failures == 0u);
      const PackedValue stored = values[slot];
      values[slot] = changed;
      const VerifyReport report = verify_layer(index, values, nullptr, {}, 2, around);
      values[slot] = stored;
      BOOST_TEST(report.checked == std::min<Slot>(around.end, values.size()) - around.begin);
      BOOST_TEST(report.failures >= 1u);
      BOOST_TEST(!report.first_errors.empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_selection_checks_its_slots_only) {
  const LayerIndex index(0);
  const auto values = layer_values(0);
  const Slot size = values.size();
  // every 1000th slot: the count rounds up; past the end: clipped, nothing left; the largest step
  // checks the first slot only
  BOOST_TEST(verify_layer(index, values, nullptr, {}, 2, {0, ~Slot{0}, 1000}).checked ==
             (size + 999) / 1000);
  BOOST_TEST(verify_layer(index, values, nullptr, {}, 1, {size - 10, size + 10, 3}).checked == 4u);
  BOOST_TEST(verify_layer(index, values, nullptr, {}, 1, {size + 1, size + 5, 1}).checked == 0u);
  BOOST_TEST(verify_layer(index, values, nullptr, {}, 1, {5, ~Slot{0}, ~Slot{0}}).checked == 1u);
  BOOST_CHECK_THROW(verify_layer(index, values, nullptr, {}, 1, {0, 10, 0}), std::invalid_argument);
}

// The fixture was made with 2 threads; solving again with 3 must give the same values. Release
// only: the fixture's own two-thread generation is the sanitizers' run of the solver, and a
// second whole-layer solve under ASan took 50 to 80 s of CI for a property of the values, which
// release checks.
#if !defined(QUIXO_THREAD_SANITIZER) && !defined(QUIXO_ADDRESS_SANITIZER)
BOOST_AUTO_TEST_CASE(values_do_not_depend_on_the_number_of_threads) {
  const LayerIndex index(0);
  const auto from_file = layer_values(0);
  // An odd number of threads, so that the slots split unevenly: one solve is enough (a
  // one-thread solve, which release also ran, cost 9 s of CI and could only agree with it).
  BOOST_TEST((solve_layer(index, nullptr, {}, 3) == from_file));
}
#endif

BOOST_AUTO_TEST_CASE(a_layer_needs_the_one_below) {
  const LayerIndex index(1);
  BOOST_CHECK_THROW(solve_layer(index, nullptr, {}, 1), std::invalid_argument);
  BOOST_CHECK_THROW(solve_component(index, {1, 3, 21}, nullptr, {}, 1), std::invalid_argument);
  // the layer below's whole values where only its two sections belong
  const LayerIndex lower(0);
  const auto below = layer_values(0);
  BOOST_CHECK_THROW(solve_component(index, {1, 3, 21}, &lower, below, 1), std::invalid_argument);
}

// In-layer moves keep both cube counts, so the components {m, cubes - m} split every layer's
// slots between them, each slot in exactly one.
BOOST_DATA_TEST_CASE(the_components_split_the_layer, bdata::xrange(0, 5), layer) {
  const LayerIndex index(layer);
  Slot slots = 0;
  int sections = 0;
  for (const Component& component : layer_components(layer)) {
    BOOST_TEST(component.layer == layer);
    BOOST_TEST(component.low <= component.high);
    BOOST_TEST(component.low + component.high == index.cube_count());
    const SectionPair pair(index, component.low, component.high);
    slots += pair.size();
    sections += component.low == component.high ? 1 : 2;
    for (const Slot local : {Slot{0}, pair.size() / 2, pair.size() - 1}) {
      BOOST_TEST(pair.local(pair.global(local)) == local);
      BOOST_TEST(pair.contains(pair.global(local)));
    }
  }
  BOOST_TEST(slots == index.slot_count());
  BOOST_TEST(sections == index.section_count());
}

BOOST_AUTO_TEST_CASE(a_component_is_named_by_its_cube_counts) {
  BOOST_TEST((parse_component("10,11", 4) == Component{4, 10, 11}));
  BOOST_TEST((parse_component("11,10", 4) == Component{4, 10, 11}));
  BOOST_TEST((parse_component("0,25", 0) == Component{0, 0, 25}));
  BOOST_TEST(component_name(parse_component("13,12", 0)) == "{12,13}");
  for (const char* wrong : {"10,10", "10", "10,11,", "a,b", "-1,22", "10 11", ""})
    BOOST_CHECK_THROW(parse_component(wrong, 4), std::invalid_argument);
}

// One component solved on its own gives the fixture's values of its slots (a small one, so that
// the sanitizers run it too); in release also one of layer 1, which reads two sections of layer 0.
BOOST_AUTO_TEST_CASE(a_component_alone_has_the_values_of_the_whole_layer) {
  const int top = test::test_table_blanks();
  for (int layer = 0; layer <= top; ++layer) {
    const LayerIndex index(layer);
    const Component component{layer, 5, index.cube_count() - 5};
    const auto whole = layer_values(layer);
    LayerValues lower;
    std::unique_ptr<LayerIndex> lower_index;
    if (layer > 0) {
      lower_index = std::make_unique<LayerIndex>(layer - 1);
      const auto below = layer_values(layer - 1);
      const SectionPair lower_pair(*lower_index, component.low, component.high);
      for (Slot local = 0; local < lower_pair.size(); ++local)
        lower.push_back(below[lower_pair.global(local)]);
    }
    const auto values = solve_component(index, component, lower_index.get(), lower, 2);
    const SectionPair pair(index, component.low, component.high);
    BOOST_TEST_REQUIRE(values.size() == pair.size());
    Slot differences = 0;
    for (Slot local = 0; local < pair.size(); ++local)
      differences += values[local] != whole[pair.global(local)];
    BOOST_TEST(differences == 0u, "layer " << layer);
  }
}

// Counted to the layer's exit, a component keeps the tables' values, no distance gets longer, and
// every distance is the best over the moves for the forward-only verifier told that the layer
// counts to its exit (each position below ends the count, its distance 0): a win is the fewest
// plies to a blank taken (or a line) that the winner can force, a loss the most the loser can hold
// out.
BOOST_AUTO_TEST_CASE(distances_counted_to_the_layers_exit_are_the_best_over_the_moves) {
  const LayerIndex index(1), lower_index(0);
  const Component component{1, 5, 19};
  const SectionPair pair(index, component.low, component.high);
  const SectionPair lower_pair(lower_index, component.low, component.high);
  // Layer 1's own values, where the fixture has them (not in the presets of layer 0 alone).
  const bool compare = test::test_table_blanks() >= 1;
  const auto whole = compare ? layer_values(1) : LayerValues{};
  const auto below = layer_values(0);
  LayerValues lower;
  for (Slot local = 0; local < lower_pair.size(); ++local)
    lower.push_back(below[lower_pair.global(local)]);
  const auto values =
      solve_component(index, component, &lower_index, lower, 2, {}, DistanceCount::LayerExit);
  BOOST_TEST_REQUIRE(values.size() == pair.size());
  // The verifier reads whole layers: this component's slots in place (its moves stay in it).
  LayerValues layer(index.slot_count(), pack_value(Wdl::Draw, 0));
  Slot other_value = 0, longer = 0, shorter = 0;
  for (Slot local = 0; local < pair.size(); ++local) {
    const PackedValue exit = values[local];
    layer[pair.global(local)] = exit;
    if (!compare) continue;
    const PackedValue end = whole[pair.global(local)];
    other_value += wdl_of(end) != wdl_of(exit);
    longer += distance_of(exit) > distance_of(end);
    shorter += distance_of(exit) < distance_of(end);
  }
  if (compare) {
    BOOST_TEST(other_value == 0u);
    BOOST_TEST(longer == 0u);
    BOOST_TEST(shorter > 0u);
  }
  std::uint64_t failures_counted_to_the_end = 0;
  for (const int section : {component.low, component.high}) {
    const SlotSelection slots{index.section_begin(section), index.section_end(section), 1};
    const VerifyReport report =
        verify_layer(index, layer, &lower_index, below, 2, slots, DistanceCount::LayerExit);
    BOOST_TEST(report.checked == index.section_end(section) - index.section_begin(section));
    BOOST_TEST(report.failures == 0u, "section " << section);
    for (const auto& error : report.first_errors) BOOST_TEST_MESSAGE(error);
    failures_counted_to_the_end +=
        verify_layer(index, layer, &lower_index, below, 2, slots).failures;
  }
  // The same distances read as plies to the end of the game are wrong wherever a move takes a
  // blank: the check depends on the count it is told.
  BOOST_TEST(failures_counted_to_the_end > 0u);
}

// A layer solved over separate runs, one component first as a cluster job does, then the rest
// (a damaged part file among them solved again), is the fixture's file byte for byte: a file
// holds only values, so no run leaves a trace in it. Release only: it solves all of layer 0
// again (5 s here; under ASan the fixture's own generation already runs these paths).
#if !defined(QUIXO_THREAD_SANITIZER) && !defined(QUIXO_ADDRESS_SANITIZER)
// Options that solve one component of layer 0 into `dir`'s part files, as a cluster job does.
GenerateOptions one_component_of_layer0(const testing::TempDir& dir) {
  test::require_test_tables();
  GenerateOptions options;
  options.dir = dir.path();
  options.blanks = 0;
  options.threads = 2;
  options.only_component = Component{0, 12, 13};
  return options;
}

BOOST_AUTO_TEST_CASE(a_layer_generated_in_pieces_is_the_file_of_one_run) {
  const testing::TempDir dir("quixo-tb-components-");
  GenerateOptions options = one_component_of_layer0(dir);
  auto reports = generate_tables(options);
  BOOST_TEST_REQUIRE(reports.size() == 1u);
  BOOST_TEST(reports[0].components_solved == 1);
  BOOST_TEST(!reports[0].written);
  BOOST_TEST(!std::filesystem::exists(layer_file_path(options.dir, 0)));
  BOOST_TEST(std::filesystem::exists(section_part_path(options.dir, 0, 12)));
  BOOST_TEST(std::filesystem::exists(section_part_path(options.dir, 0, 13)));
  // a part that is not whole (here: cut short) is not trusted
  std::ofstream(section_part_path(options.dir, 0, 3), std::ios::binary) << "QXPART1";

  options.only_component.reset();
  reports = generate_tables(options);
  BOOST_TEST(reports[0].components_reused == 1);
  BOOST_TEST(reports[0].components_solved == 12);
  BOOST_TEST(reports[0].written);
  BOOST_TEST(!std::filesystem::exists(section_part_path(options.dir, 0, 0).parent_path()));
  const bool same = read_text(layer_file_path(options.dir, 0)) ==
                    read_text(layer_file_path(test::test_tables_dir(), 0));
  BOOST_TEST(same, "the layer file differs from the fixture's");

  // a component of a layer whose layer below is missing is refused, naming it
  options.blanks = 2;
  options.only_component = Component{2, 11, 12};
  BOOST_CHECK_EXCEPTION(generate_tables(options), std::runtime_error,
                        [](const std::runtime_error& error) {
                          return std::string(error.what()).find("layer 1") != std::string::npos;
                        });
}

// Generated to count to its exit, layer 0 (whose only exits are the ends of games) has the
// fixture's values under a header that says so; a part of the other count is solved again, not
// reused; and a layer file of the other count is refused, not overwritten.
BOOST_AUTO_TEST_CASE(a_layer_generated_to_count_to_its_exit_says_so) {
  const testing::TempDir dir("quixo-tb-exit-");
  GenerateOptions options = one_component_of_layer0(dir);
  generate_tables(options);
  options.only_component.reset();
  options.top_layer_distance = DistanceCount::LayerExit;
  const auto reports = generate_tables(options);
  BOOST_TEST_REQUIRE(reports.size() == 1u);
  BOOST_TEST(reports[0].components_reused == 0);
  BOOST_TEST(reports[0].components_solved == 13);
  const LayerFile file(layer_file_path(options.dir, 0), 0);
  BOOST_TEST((file.info().distance_count == DistanceCount::LayerExit));
  BOOST_TEST((file.decode_all(2) == layer_values(0)));
  const std::string before = read_text(layer_file_path(options.dir, 0));
  options.top_layer_distance = DistanceCount::GameEnd;
  BOOST_CHECK_EXCEPTION(
      generate_tables(options), std::runtime_error, [](const std::runtime_error& error) {
        return std::string(error.what()).find("to the layer's exit, not as asked") !=
               std::string::npos;
      });
  BOOST_TEST(read_text(layer_file_path(options.dir, 0)) == before);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
