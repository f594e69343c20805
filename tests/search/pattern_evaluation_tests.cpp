// The learned pattern evaluation: a line's content is read cell by cell as the rules draw it, a
// content and its reverse share one weight, the score is blind to the 8 symmetries of the board
// and equals the sum of the weights of the features the trainer sees, the weights file refuses
// every kind of damage, and a search runs with the learned evaluation as it does with the
// hand-written one.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/binary_io.hpp"
#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "core/symmetry.hpp"
#include "core/text_helpers.hpp"
#include "search/evaluation.hpp"
#include "search/pattern_evaluation.hpp"
#include "support/pattern_samples.hpp"
#include "support/random_positions.hpp"
#include "support/search.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::patterns;

namespace {

// The squares of each line written out, in the order of increasing square index.
const std::array<std::array<const char*, 5>, kLineCount> kLineSquares = {{
    {"a1", "b1", "c1", "d1", "e1"},
    {"a2", "b2", "c2", "d2", "e2"},
    {"a3", "b3", "c3", "d3", "e3"},
    {"a4", "b4", "c4", "d4", "e4"},
    {"a5", "b5", "c5", "d5", "e5"},
    {"a1", "a2", "a3", "a4", "a5"},
    {"b1", "b2", "b3", "b4", "b5"},
    {"c1", "c2", "c3", "c4", "c5"},
    {"d1", "d2", "d3", "d4", "d5"},
    {"e1", "e2", "e3", "e4", "e5"},
    {"a1", "b2", "c3", "d4", "e5"},
    {"e1", "d2", "c3", "b4", "a5"},
}};

Square square_named(const char* name) {
  return make_square(name[0] - 'a', name[1] - '1');
}

// A line's content from the square names: digit i is cell i, 1 the mover's and 2 the other's.
int reference_content(const Position& position, int line) {
  const Bitboard mover = position.cubes(position.side_to_move());
  const Bitboard opponent = position.cubes(~position.side_to_move());
  int content = 0, power = 1;
  for (const char* name : kLineSquares[line]) {
    const Bitboard bit = square_bb(square_named(name));
    content += power * ((mover & bit) ? 1 : (opponent & bit) ? 2 : 0);
    power *= 3;
  }
  return content;
}

std::vector<std::byte> read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::transform(chars.begin(), chars.end(), bytes.begin(), [](char c) { return std::byte(c); });
  return bytes;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pattern_evaluation_tests)

BOOST_AUTO_TEST_CASE(contents_and_their_reverses_make_135_classes) {
  std::set<int> classes;
  for (int content = 0; content < kLineContents; ++content) {
    const int reversed = reversed_content(content);
    BOOST_TEST(reversed_content(reversed) == content);
    BOOST_TEST(canonical_content(content) == canonical_content(reversed));
    classes.insert(canonical_content(content));
  }
  BOOST_TEST(classes.size() == std::size_t(kCanonicalContents));
  BOOST_TEST(*classes.begin() == 0);
  BOOST_TEST(*classes.rbegin() == kCanonicalContents - 1);
  // Two contents that are not each other's reverse never share a class: 27 palindromes (cells
  // 0-1-2 free, 3-4 mirrored) and 108 pairs make 243.
  int palindromes = 0;
  for (int content = 0; content < kLineContents; ++content)
    palindromes += reversed_content(content) == content;
  BOOST_TEST(palindromes == 27);
}

BOOST_AUTO_TEST_CASE(pair_contents_and_their_reverses_make_their_classes) {
  // A pair content is the outer line's content times 243 plus the inner line's; reading both
  // lines backwards gives its twin. 27 * 27 pairs of palindromes are their own twins.
  std::vector<int> members(kCanonicalPairContents, 0);
  for (int content = 0; content < kPairContents; ++content) {
    const int twin = reversed_content(content / kLineContents) * kLineContents +
                     reversed_content(content % kLineContents);
    BOOST_TEST_REQUIRE(canonical_pair_content(content) == canonical_pair_content(twin));
    BOOST_TEST_REQUIRE(canonical_pair_content(content) >= 0);
    BOOST_TEST_REQUIRE(canonical_pair_content(content) < kCanonicalPairContents);
    ++members[std::size_t(canonical_pair_content(content))];
  }
  BOOST_TEST(std::count(members.begin(), members.end(), 1) == 27 * 27);
  BOOST_TEST(std::count(members.begin(), members.end(), 2) == kCanonicalPairContents - 27 * 27);
}

BOOST_DATA_TEST_CASE(line_contents_read_the_squares_the_rules_name, bdata::make({0, 1, 2, 3}),
                     seed) {
  for (const Position& position : test::random_positions(100u + unsigned(seed), 200)) {
    const Bitboard mover = position.cubes(position.side_to_move());
    const Bitboard opponent = position.cubes(~position.side_to_move());
    for (int line = 0; line < kLineCount; ++line)
      BOOST_TEST(line_content(mover, opponent, line) == reference_content(position, line),
                 to_string(position) << " line " << line);
  }
}

BOOST_AUTO_TEST_CASE(phases_follow_the_blank_counts) {
  const std::array<int, 26> expected = {0, 1, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4,
                                        5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
  for (int blanks = 0; blanks <= kSquareCount; ++blanks)
    BOOST_TEST(phase_of(blanks) == expected[blanks], "blanks " << blanks);
}

BOOST_DATA_TEST_CASE(the_score_is_the_sum_of_the_active_features_weights, bdata::make({0, 1, 2, 3}),
                     seed) {
  const std::vector<std::int16_t> weights = test::random_pattern_weights(7u + unsigned(seed));
  const PatternWeights pattern(weights);
  std::array<int, kPhases> seen{};
  for (const Position& position : test::positions_of_every_phase(200u + unsigned(seed), 600)) {
    ++seen[std::size_t(phase_of(std::popcount(position.blanks())))];
    const SlideSet threats = opponent_wins(position);
    const ActiveFeatures features = active_features(position, threats);
    int sum = weights[features.bias];
    for (const std::uint32_t line : features.lines) sum += weights[line];
    for (int pair = 0; pair < features.pair_count; ++pair) sum += weights[features.pairs[pair]];
    if (features.threat >= 0) sum += weights[features.threat];
    BOOST_TEST(pattern.evaluate(position, threats) == sum, to_string(position));
    // Every feature belongs to the position's phase, and the threat feature is there exactly
    // when the opponent threatens a win.
    const int phase = phase_of(std::popcount(position.blanks()));
    BOOST_TEST(features.phase == phase);
    BOOST_TEST(features.bias == phase * kFeaturesPerPhase + kBiasFeature);
    for (const std::uint32_t line : features.lines) {
      BOOST_TEST(line >= phase * kFeaturesPerPhase);
      BOOST_TEST(line < phase * kFeaturesPerPhase + kThreatFeature);
    }
    BOOST_TEST(features.pair_count == (phase < kPairPhases ? kPairCount : 0));
    for (int pair = 0; pair < features.pair_count; ++pair) {
      BOOST_TEST(features.pairs[pair] >= kPairFeature + phase * kPairFeaturesPerPhase);
      BOOST_TEST(features.pairs[pair] < kPairFeature + (phase + 1) * kPairFeaturesPerPhase);
    }
    BOOST_TEST((features.threat >= 0) == (threats != 0));
  }
  // Random games reach phases with pairs and without (how far down they go varies with the seed).
  BOOST_TEST(std::accumulate(seen.begin(), seen.begin() + kPairPhases, 0) > 0);
  BOOST_TEST(std::accumulate(seen.begin() + kPairPhases, seen.end(), 0) > 0);
}

BOOST_DATA_TEST_CASE(the_score_is_blind_to_the_symmetries_of_the_board,
                     bdata::make({0, 1, 2, 3, 4, 5, 6, 7}), index) {
  const PatternWeights pattern(test::random_pattern_weights(31u));
  const Symmetry symmetry = kAllSymmetries[std::size_t(index)];
  for (const Position& position : test::positions_of_every_phase(300u + unsigned(index), 400)) {
    const Position image = transform(symmetry, position);
    BOOST_TEST(pattern.evaluate(image, opponent_wins(image)) ==
                   pattern.evaluate(position, opponent_wins(position)),
               to_string(position) << " under symmetry " << index);
  }
}

BOOST_AUTO_TEST_CASE(the_weights_file_round_trips) {
  const PatternWeights pattern(test::random_pattern_weights(5u));
  const PatternWeights again = PatternWeights::parse(pattern.serialize());
  BOOST_TEST(std::equal(pattern.weights().begin(), pattern.weights().end(), again.weights().begin(),
                        again.weights().end()));
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "quixo-pattern-evaluation-tests.qev";
  pattern.save(file.string());
  const PatternWeights loaded = PatternWeights::load(file.string());
  BOOST_TEST(std::equal(pattern.weights().begin(), pattern.weights().end(),
                        loaded.weights().begin(), loaded.weights().end()));
  BOOST_TEST(read_bytes(file) == pattern.serialize());
  std::filesystem::remove(file);
}

// Each damage, and the words the refusal must contain.
struct Damage {
  const char* name;
  void (*apply)(std::vector<std::byte>&);
  const char* message;
};
std::ostream& operator<<(std::ostream& out, const Damage& damage) {
  return out << damage.name;
}
const Damage kDamages[] = {
    {"empty", [](std::vector<std::byte>& bytes) { bytes.clear(); }, "not a quixo evaluation"},
    {"magic", [](std::vector<std::byte>& bytes) { bytes[0] = std::byte('Z'); },
     "not a quixo evaluation"},
    {"version", [](std::vector<std::byte>& bytes) { bytes[4] = std::byte(9); }, "version 9"},
    {"layout", [](std::vector<std::byte>& bytes) { bytes[8] = std::byte(5); }, "another layout"},
    {"truncated",
     [](std::vector<std::byte>& bytes) {
       for (int i = 0; i < 3; ++i) bytes.pop_back();
     },
     "expected"},
    {"longer", [](std::vector<std::byte>& bytes) { bytes.push_back(std::byte(0)); }, "expected"},
    {"weight", [](std::vector<std::byte>& bytes) { bytes[100] ^= std::byte(1); }, "checksum"},
    {"checksum", [](std::vector<std::byte>& bytes) { bytes.back() ^= std::byte(0x80); },
     "checksum"},
};

BOOST_DATA_TEST_CASE(a_damaged_weights_file_is_refused_with_the_reason, bdata::make(kDamages),
                     damage) {
  std::vector<std::byte> bytes = PatternWeights(test::random_pattern_weights(9u)).serialize();
  damage.apply(bytes);
  try {
    (void)PatternWeights::parse(bytes);
    BOOST_FAIL("a file with damage '" << damage.name << "' was accepted");
  } catch (const WeightsFileError& error) {
    BOOST_TEST(std::string(error.what()).find(damage.message) != std::string::npos, error.what());
  }
}

BOOST_AUTO_TEST_CASE(a_format_1_file_evaluates_as_its_four_phases_did) {
  // A file of the layout before the pairs, written byte by byte: four phases of 0-2, 3-6, 7-12
  // and 13-25 blanks, each with 4 x 135 line weights, 3 threat weights and a bias.
  constexpr int old_phases = 4, per_phase = kLineClasses * kCanonicalContents + 3 + 1;
  std::mt19937 rng(21u);
  std::uniform_int_distribution<int> value(-300, 300);
  std::vector<int> old_weights(old_phases * per_phase);
  for (int& weight : old_weights) weight = value(rng);
  std::vector<std::byte> bytes;
  for (const char c : {'Q', 'X', 'E', 'V'}) bytes.push_back(std::byte(c));
  for (const std::uint32_t word : {1u, 4u, 4u, 135u, 3u}) binary_io::put(bytes, word, 4);
  for (const int weight : old_weights) binary_io::put(bytes, std::uint16_t(weight), 2);
  binary_io::put(bytes, binary_io::fnv1a(bytes), 8);

  const PatternWeights pattern = PatternWeights::parse(bytes);
  std::set<int> old_phases_seen;
  for (const Position& position : test::positions_of_every_phase(22u, 400)) {
    const int blanks = std::popcount(position.blanks());
    const int old_phase = blanks <= 2 ? 0 : blanks <= 6 ? 1 : blanks <= 12 ? 2 : 3;
    old_phases_seen.insert(old_phase);
    const int* w = old_weights.data() + old_phase * per_phase;
    const SlideSet threats = opponent_wins(position);
    int expected = w[per_phase - 1];
    for (int line = 0; line < kLineCount; ++line)
      expected += w[kLineClass[line] * kCanonicalContents +
                    canonical_content(reference_content(position, line))];
    if (threats != 0)
      expected += w[kLineClasses * kCanonicalContents + std::min(std::popcount(threats), 3) - 1];
    BOOST_TEST(pattern.evaluate(position, threats) == expected, to_string(position));
  }
  BOOST_TEST(old_phases_seen.size() == 4u);
  // Written back, it is a file of today's format, which reads back the same.
  const PatternWeights again = PatternWeights::parse(pattern.serialize());
  BOOST_TEST(std::equal(pattern.weights().begin(), pattern.weights().end(), again.weights().begin(),
                        again.weights().end()));
  // A damaged one is refused like any other.
  bytes[40] ^= std::byte(1);
  BOOST_CHECK_EXCEPTION((void)PatternWeights::parse(bytes), WeightsFileError,
                        [](const WeightsFileError& error) {
                          return std::string(error.what()).find("checksum") != std::string::npos;
                        });
}

BOOST_AUTO_TEST_CASE(a_missing_file_is_refused_with_its_name) {
  try {
    (void)PatternWeights::load("/nonexistent/weights.qev");
    BOOST_FAIL("a missing file was accepted");
  } catch (const WeightsFileError& error) {
    BOOST_TEST(std::string(error.what()).find("/nonexistent/weights.qev") != std::string::npos);
  }
}

// Issue 25, item 11: a directory, a FIFO or a file over the bound is refused by name, with the
// bound. A directory used to throw std::ios_failure (which ended the engine on the command line),
// and a FIFO blocked the engine until something wrote to it.
BOOST_AUTO_TEST_CASE(a_weights_file_that_is_not_a_regular_file_or_too_large_is_refused) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("quixo-pattern-evaluation-tests-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::filesystem::path fifo = dir / "fifo.qev";
  BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::filesystem::path large = dir / "large.qev";
  std::ofstream(large).put('x');
  std::filesystem::resize_file(large, (PatternWeights::kMaxFileMebibytes << 20) + 1);
  const std::string max = std::to_string(PatternWeights::kMaxFileMebibytes) + " MiB";
  for (const auto& [path, why] : {std::pair{dir, std::string("is a directory, not a file")},
                                  {fifo, std::string("is not a regular file")},
                                  {large, "is larger than " + max}}) {
    try {
      (void)PatternWeights::load(path.string());
      BOOST_ERROR(path << " was accepted");
    } catch (const WeightsFileError& error) {
      BOOST_TEST(error.what() == text_helpers::quoted(path.string()) + " " + why);
    }
  }
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(the_evaluator_chooses_between_hand_and_learned) {
  auto weights = std::make_shared<const PatternWeights>(test::random_pattern_weights(13u));
  const Evaluator hand, learned(weights);
  BOOST_TEST(!hand.learned());
  BOOST_TEST(learned.learned() == weights.get());
  int differ = 0;
  for (const Position& position : test::random_positions(17u, 100)) {
    const SlideSet threats = opponent_wins(position);
    BOOST_TEST(hand(position, threats) == evaluate(position, threats));
    BOOST_TEST(learned(position, threats) == weights->evaluate(position, threats));
    differ += hand(position, threats) != learned(position, threats);
  }
  BOOST_TEST(differ > 50);
  // The breakdown of the learned evaluation names every line and ends with its total.
  const Position position = parse_position("xo3/1x3/2o2/5/4o x");
  const std::vector<std::string> lines = learned.breakdown_lines(position);
  BOOST_TEST(lines.size() == 17u);  // a title, 12 lines, threats, bias, wins, total
  // With few blanks the 8 pairs of neighbouring lines come after the lines.
  const Position endgame = parse_position("xxoox/ooxxo/xo1ox/oxxoo/xoo1x x");
  const std::vector<std::string> endgame_lines = learned.breakdown_lines(endgame);
  BOOST_TEST_REQUIRE(endgame_lines.size() == 25u);
  BOOST_TEST(endgame_lines[13].rfind("pair rank 1 + rank 2 (edge and second) ", 0) == 0u,
             endgame_lines[13]);
  BOOST_TEST(endgame_lines.back() ==
             "total " + std::to_string(weights->evaluate(endgame, opponent_wins(endgame))) +
                 " (side to move)");
  BOOST_TEST(lines.back() ==
             "total " + std::to_string(weights->evaluate(position, opponent_wins(position))) +
                 " (side to move)");
  BOOST_TEST(Evaluator::builtin_learned().learned() == &builtin_weights());
}

BOOST_AUTO_TEST_CASE(the_built_in_weights_are_fitted_ones) {
  // Not the zeros of an empty file: in every phase and line class, three of the side to move's
  // cubes and two blanks are worth more than three of the opponent's and two blanks, and the
  // opponent's threats cost something. (Four and a blank is no test: with many blanks such a
  // line is mostly a win in one, outside the evaluation's domain, and its weight stays near 0.)
  // The phases of 0 and 1 blanks have no line with two blanks; there the other two cells are the
  // other side's.
  const auto weights = builtin_weights().weights();
  const int three_own = 1 + 3 + 9, three_opponent = 2 * three_own;  // cells 0-2
  const int rest_opponent = 2 * (27 + 81), rest_own = 27 + 81;      // cells 3-4
  for (int phase = 0; phase < kPhases; ++phase) {
    const int base = phase * kFeaturesPerPhase;
    const bool two_blanks = phase >= phase_of(2);
    const int better = three_own + (two_blanks ? 0 : rest_opponent);
    const int worse = three_opponent + (two_blanks ? 0 : rest_own);
    for (int line_class = 0; line_class < kLineClasses; ++line_class) {
      const int at = base + line_class * kCanonicalContents;
      BOOST_TEST(weights[at + canonical_content(better)] > weights[at + canonical_content(worse)],
                 "phase " << phase << " class " << line_class);
    }
    BOOST_TEST(weights[base + kThreatFeature] < 0, "phase " << phase);
  }
  // And the pairs: three of the mover's cubes on an edge line (xxx..) beside a full second line
  // (oxoxo) are worth more than the same with the sides swapped (phase 3: 3-6 blanks).
  const int second = 2 + 3 + 2 * 9 + 27 + 2 * 81, swapped_second = 1 + 2 * 3 + 9 + 2 * 27 + 81;
  const int at = kPairFeature + phase_of(4) * kPairFeaturesPerPhase;
  BOOST_TEST(weights[at + canonical_pair_content(three_own * kLineContents + second)] >
             weights[at + canonical_pair_content(three_opponent * kLineContents + swapped_second)]);
}

BOOST_AUTO_TEST_CASE(a_search_with_learned_weights_finds_the_win_and_follows_the_weights) {
  // A win in one is found whatever the weights say.
  Engine engine;
  engine.set_options(test::options());
  engine.set_evaluator(
      Evaluator(std::make_shared<const PatternWeights>(test::random_pattern_weights(21u))));
  const Position win = parse_position("xxxx1/ooo2/5/5/o4 x");
  const auto won = test::search(engine, win, test::depth_limit(4));
  BOOST_TEST(won.bestmove_count == 1);
  BOOST_TEST((win.after(won.best).outcome() == Outcome::XWins));
  // The same depth-limited search from the start visits other nodes with other weights.
  const auto nodes_with = [](Evaluator evaluator) {
    Engine fresh;
    fresh.set_options(test::options());
    fresh.set_evaluator(std::move(evaluator));
    return test::search(fresh, Position::start(), test::depth_limit(5)).last().nodes;
  };
  BOOST_TEST(nodes_with(Evaluator()) != nodes_with(Evaluator(std::make_shared<const PatternWeights>(
                                            test::random_pattern_weights(23u)))));
}

BOOST_AUTO_TEST_SUITE_END()
