// quixo-train (tools/train/): the data file reads back what was written and refuses every kind of
// damage with a message; the held-out rule is blind to the board's symmetries and the colours and
// holds out a sixteenth; table sampling, self-play and the deeper searches keep only positions
// in the evaluation's domain with the labels their sources give; the fit finds a planted K and
// recovers planted weights; the value-keeping test picks held-out positions where a move gives the
// value away and counts what the engine keeps; the command line refuses bad arguments and files
// with exit code 2; the fit to the search's own choices lowers its loss, touches only the phases
// of its leaves, does not depend on the thread count, ranks draws as well as wins, and refuses
// lost positions. For the team game (issue 31): self-play keeps positions in the team
// evaluation's domain with their games' results, the same seed plays the same games, deeper
// searches keep their records' labels, and `team` writes team weights the engine reads.
#include <unistd.h>

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "core/symmetry.hpp"
#include "data_sources.hpp"
#include "fit.hpp"
#include "search/evaluation.hpp"
#include "search/pattern_evaluation.hpp"
#include "search/team_pattern_evaluation.hpp"
#include "search_ranking.hpp"
#include "support/pattern_samples.hpp"
#include "support/random_positions.hpp"
#include "support/test_tables.hpp"
#include "team_data.hpp"
#include "train_command_line.hpp"
#include "training_data.hpp"
#include "value_keeping.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::train;

BOOST_AUTO_TEST_SUITE(train_tests)

namespace {

struct TemporaryDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("quixo-train-tests-" + std::to_string(::getpid()));
  TemporaryDir() {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TemporaryDir() { std::filesystem::remove_all(path); }
};

// Positions of random games that are in the evaluation's domain.
std::vector<Position> domain_positions(unsigned seed, int count) {
  std::vector<Position> positions;
  for (unsigned round = 0; int(positions.size()) < count; ++round)
    for (const Position& position : test::random_positions(seed * 1000 + round, 4 * count))
      if (in_evaluation_domain(position) && int(positions.size()) < count)
        positions.push_back(position);
  return positions;
}

// Records of every source, flag and field value.
std::vector<TrainingRecord> sample_records() {
  std::vector<TrainingRecord> records;
  const std::vector<Position> positions = domain_positions(3, 30);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Source source = Source(i % kSourceCount);
    TrainingRecord record = make_record(positions[i], source, float(i % 3) * 0.5f);
    record.validation = i % 4 == 1;
    record.game = source == Source::Table ? 0 : std::uint32_t(1000 * i + 7);
    if (source == Source::Deep) {
      record.has_score = true;
      record.score = i % 2 ? -int(17 * i) : mate_in(int(i % 9) + 1);
    }
    records.push_back(record);
  }
  records[4].label = 0.8125f;  // a fraction survives the file too
  return records;
}

// The file's layout, as training_data.hpp describes it: a 20-byte header, 24-byte records, and
// the FNV-1a checksum of the records.
constexpr std::size_t kHeaderBytes = 20, kRecordBytes = 24;

// Writes the checksum of the records as they now are.
void reseal(std::vector<std::byte>& bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::size_t i = kHeaderBytes; i < bytes.size() - 8; ++i)
    hash = (hash ^ std::uint64_t(bytes[i])) * 0x100000001b3ull;
  for (int i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = std::byte((hash >> (8 * i)) & 0xff);
}

void put32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = std::byte((value >> (8 * i)) & 0xff);
}

struct Run {
  int code = 0;
  std::string out;
  std::string err;
};

Run run(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "quixo-train");
  std::vector<const char*> argv;
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  std::ostringstream out, err;
  Run result;
  result.code = run_train_command_line(int(argv.size()), argv.data(), out, err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  double mean_a = 0, mean_b = 0;
  for (std::size_t i = 0; i < a.size(); ++i) mean_a += a[i], mean_b += b[i];
  mean_a /= double(a.size());
  mean_b /= double(b.size());
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ab += (a[i] - mean_a) * (b[i] - mean_b);
    aa += (a[i] - mean_a) * (a[i] - mean_a);
    bb += (b[i] - mean_b) * (b[i] - mean_b);
  }
  return ab / std::sqrt(aa * bb);
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_data_file_reads_back_what_was_written) {
  const std::vector<TrainingRecord> records = sample_records();
  BOOST_TEST(parse_records(serialize_records(records)) == records);
  BOOST_TEST(parse_records(serialize_records({})).empty());
  TemporaryDir dir;
  const std::string file = (dir.path / "data.qtd").string();
  save_records(file, records);
  BOOST_TEST(load_records(file) == records);
  BOOST_CHECK_THROW(load_records((dir.path / "missing.qtd").string()), DataFileError);
}

BOOST_DATA_TEST_CASE(a_damaged_data_file_is_refused_with_what_is_wrong,
                     bdata::make({"empty", "magic", "version", "record size", "truncated", "padded",
                                  "count", "flipped bit", "overlapping cubes", "outside the board",
                                  "label", "side to move", "source", "flags", "score without deep",
                                  "out of domain"}),
                     damage) {
  std::vector<std::byte> bytes = serialize_records(sample_records());
  const std::size_t first = kHeaderBytes, second = kHeaderBytes + kRecordBytes;
  const std::string kind = damage;
  std::string expected;
  if (kind == "empty") {
    bytes.clear();
    expected = "no QXTD header";
  } else if (kind == "magic") {
    bytes[0] = std::byte{'W'};
    expected = "no QXTD header";
  } else if (kind == "version") {
    put32(bytes, 4, 2);
    expected = "version 2";
  } else if (kind == "record size") {
    put32(bytes, 8, 16);
    expected = "records of 16 bytes";
  } else if (kind == "truncated") {
    bytes.resize(bytes.size() - 1);
    expected = "truncated";
  } else if (kind == "padded") {
    bytes.push_back(std::byte{0});
    expected = "truncated or padded";
  } else if (kind == "count") {
    put32(bytes, 12, 29);
    expected = "announces 29 records";
  } else if (kind == "flipped bit") {
    bytes[second + 3] ^= std::byte{0x10};
    expected = "checksum";
  } else {
    // Damage inside a record with a valid checksum: the record's own checks must catch it.
    if (kind == "overlapping cubes") {
      put32(bytes, first, 1u);
      put32(bytes, first + 4, 1u);
      expected = "record 0: a square holds both";
    } else if (kind == "outside the board") {
      bytes[second + 3] |= std::byte{0x80};
      expected = "record 1: cubes outside";
    } else if (kind == "label") {
      put32(bytes, second + 12, std::bit_cast<std::uint32_t>(1.5f));
      expected = "record 1: label";
    } else if (kind == "side to move") {
      bytes[second + 20] = std::byte{2};
      expected = "record 1: side to move";
    } else if (kind == "source") {
      bytes[second + 21] = std::byte{7};
      expected = "record 1: unknown source";
    } else if (kind == "flags") {
      bytes[second + 22] |= std::byte{0x40};
      expected = "record 1: unknown flags";
    } else if (kind == "score without deep") {
      bytes[first + 22] |= std::byte{2};  // record 0 is a table record
      expected = "record 0: a search score";
    } else if (kind == "out of domain") {
      put32(bytes, first, 0x1f);  // x holds rank 1: the game is over
      put32(bytes, first + 4, 0x3e0);
      expected = "record 0: the position is outside the evaluation's domain";
    }
    reseal(bytes);
  }
  try {
    parse_records(bytes);
    BOOST_FAIL("the " << kind << " file was accepted");
  } catch (const DataFileError& error) {
    BOOST_TEST(std::string(error.what()).find(expected) != std::string::npos,
               error.what() << " (expected: " << expected << ")");
  }
}

BOOST_AUTO_TEST_CASE(held_out_is_blind_to_symmetry_and_colour_and_holds_out_a_sixteenth) {
  const std::vector<Position> positions = test::random_positions(11, 40000);
  // Random games repeat their first positions: the share is counted over distinct classes.
  std::set<std::uint64_t> classes;
  int held_out = 0;
  for (const Position& position : positions) {
    const bool expected = is_held_out(position);
    const Color mover = position.side_to_move();
    const Position as_x(position.cubes(mover), position.cubes(~mover), Color::X);
    if (classes.insert(canonical(as_x).key()).second) held_out += expected;
    for (const Symmetry symmetry : kAllSymmetries) {
      const Position image = transform(symmetry, position);
      BOOST_TEST_REQUIRE(is_held_out(image) == expected);
      // The colours swapped: every x cube an o cube and the other side to move.
      const Position twin(image.cubes(Color::O), image.cubes(Color::X), ~image.side_to_move());
      BOOST_TEST_REQUIRE(is_held_out(twin) == expected);
    }
  }
  // Binomial: n / 16 with a standard deviation of about sqrt(n) / 4.
  const double share = double(held_out) / double(classes.size());
  BOOST_TEST(classes.size() > 30000u);
  BOOST_TEST(std::abs(share - 1.0 / 16) < 0.006, held_out << " of " << classes.size());
  // The value-keeping measurement builds its positions with X to move, as the tables' slots do:
  // the rule must be the plain one there.
  for (const Position& position : positions) {
    if (position.side_to_move() != Color::X) continue;
    BOOST_TEST_REQUIRE(is_held_out(position) ==
                       (mix64(canonical_form(position).position.key()) % 16 == 0));
  }
}

BOOST_AUTO_TEST_CASE(table_samples_are_in_the_domain_with_the_tables_values) {
  const tb::Tablebase& tables = test::test_tables();
  TableSampleSettings settings;
  settings.positions = 3000;
  settings.run_length = 16;
  settings.seed = 5;
  const std::vector<TrainingRecord> records = sample_table_positions(tables, settings);
  BOOST_TEST(records.size() == settings.positions);
  std::set<int> blank_counts;
  std::set<std::uint64_t> keys;
  int held_out = 0;
  for (const TrainingRecord& record : records) {
    const Position position = record.position();
    BOOST_TEST_REQUIRE(keys.insert(position.key()).second);  // each position once
    BOOST_TEST_REQUIRE(in_evaluation_domain(position));
    BOOST_TEST_REQUIRE((record.source == Source::Table && !record.has_score));
    const auto value = tables.probe(position);
    BOOST_TEST_REQUIRE(value.has_value());
    const float expected = value->wdl == tb::Wdl::Win    ? 1.0f
                           : value->wdl == tb::Wdl::Loss ? 0.0f
                                                         : 0.5f;
    BOOST_TEST_REQUIRE(record.label == expected);
    BOOST_TEST_REQUIRE(record.validation == is_held_out(position));
    held_out += record.validation;
    blank_counts.insert(std::popcount(position.blanks()));
  }
  // Every loaded layer has its share, and some are held out.
  BOOST_TEST(int(blank_counts.size()) == test::test_table_blanks() + 1);
  BOOST_TEST(held_out > 0);
  BOOST_TEST(held_out < 3000 / 8);
  // The same seed, the same sample.
  BOOST_TEST(sample_table_positions(tables, settings) == records);
}

BOOST_AUTO_TEST_CASE(self_play_labels_in_domain_positions_with_the_games_results) {
  SelfPlaySettings settings;
  settings.games = 16;
  settings.nodes = 300;
  settings.threads = 2;
  settings.hash_mb = 1;
  settings.random_move_rate = 0.1;
  settings.validation_percent = 30;  // so that a few of 16 games are validation games
  settings.seed = 9;
  const std::vector<TrainingRecord> records = play_games(settings);
  BOOST_TEST_REQUIRE(!records.empty());
  // Per game: the label of a position with X to move, and the validation flag.
  std::map<std::uint32_t, float> x_label;
  std::set<std::uint32_t> games, validation_games;
  std::uint32_t last_game = 0;
  for (const TrainingRecord& record : records) {
    BOOST_TEST_REQUIRE(in_evaluation_domain(record.position()));
    BOOST_TEST_REQUIRE((record.source == Source::Game && !record.has_score));
    BOOST_TEST_REQUIRE((record.label == 0.0f || record.label == 0.5f || record.label == 1.0f));
    BOOST_TEST_REQUIRE(record.game < 16u);
    BOOST_TEST_REQUIRE(record.game >= last_game);  // in game order
    last_game = record.game;
    // One result per game: a side's positions share a label, the other side's is 1 minus it.
    const float as_x = record.to_move == Color::X ? record.label : 1.0f - record.label;
    const auto [known, added] = x_label.emplace(record.game, as_x);
    BOOST_TEST_REQUIRE(known->second == as_x);
    BOOST_TEST_REQUIRE(record.validation == is_validation_game(record.game, 30));
    games.insert(record.game);
    if (record.validation) validation_games.insert(record.game);
  }
  BOOST_TEST(games.size() >= 14u);  // nearly every game has positions after its opening
  BOOST_TEST(!validation_games.empty());
  BOOST_TEST(validation_games.size() < games.size());
  // The same seed gives the same games, however many threads play them.
  settings.threads = 1;
  BOOST_TEST(play_games(settings) == records);
  settings.seed = 10;
  BOOST_TEST(!(play_games(settings) == records));

  // Deeper searches: chosen from those positions (never held-out ones), scored, flags kept.
  DeepSearchSettings deep;
  deep.positions = 12;
  deep.nodes = 2000;
  deep.threads = 2;
  deep.hash_mb = 1;
  const std::vector<TrainingRecord> scored = deep_search(records, deep);
  BOOST_TEST_REQUIRE(scored.size() == 12u);
  for (const TrainingRecord& record : scored) {
    BOOST_TEST_REQUIRE((record.source == Source::Deep && record.has_score));
    BOOST_TEST(!is_held_out(record.position()));
    const auto origin = std::find_if(records.begin(), records.end(), [&](const auto& game) {
      return game.position() == record.position() && game.game == record.game;
    });
    BOOST_TEST_REQUIRE((origin != records.end()));
    BOOST_TEST(origin->validation == record.validation);
    BOOST_TEST(origin->label == record.label);
  }
  BOOST_TEST(deep_search(records, deep) == scored);

  // The learned evaluation plays other games and scores the deeper searches otherwise, again the
  // same on any number of threads.
  SelfPlaySettings learned = settings;
  learned.seed = 9;
  learned.evaluation.learned = true;
  const std::vector<TrainingRecord> learned_records = play_games(learned);
  BOOST_TEST_REQUIRE(!learned_records.empty());
  BOOST_TEST(!(learned_records == records));
  learned.threads = 2;
  BOOST_TEST(play_games(learned) == learned_records);
  deep.evaluation.learned = true;
  const std::vector<TrainingRecord> learned_scored = deep_search(records, deep);
  BOOST_TEST_REQUIRE(learned_scored.size() == 12u);
  BOOST_TEST(!(learned_scored == scored));

  // Weights read once (--eval-file) and shared by every engine: the built-in ones so given make
  // the same data as the built-in learned evaluation; other weights, other data.
  SelfPlaySettings given = learned;
  given.evaluation.weights =
      std::make_shared<const patterns::PatternWeights>(patterns::builtin_weights());
  BOOST_TEST(play_games(given) == learned_records);
  std::vector<std::int16_t> halved(patterns::builtin_weights().weights().begin(),
                                   patterns::builtin_weights().weights().end());
  for (std::int16_t& weight : halved) weight = std::int16_t(weight / 2);
  given.evaluation.weights = std::make_shared<const patterns::PatternWeights>(halved);
  const std::vector<TrainingRecord> halved_records = play_games(given);
  BOOST_TEST(!(halved_records == learned_records));
  given.threads = 1;
  BOOST_TEST(play_games(given) == halved_records);
  DeepSearchSettings deep_given = deep;
  deep_given.evaluation.weights =
      std::make_shared<const patterns::PatternWeights>(patterns::builtin_weights());
  BOOST_TEST(deep_search(records, deep_given) == learned_scored);
  // Team weights are not the two-player game's: refused, not silently replaced.
  given.evaluation.weights =
      std::make_shared<const patterns::TeamPatternWeights>(patterns::builtin_team_weights());
  BOOST_CHECK_THROW(play_games(given), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_tenth_of_the_games_are_validation_games) {
  int validation = 0;
  for (std::uint32_t game = 0; game < 10000; ++game) validation += is_validation_game(game, 10);
  BOOST_TEST(std::abs(validation - 1000) < 100, validation);
}

BOOST_DATA_TEST_CASE(the_scale_fit_finds_a_planted_k, bdata::make({60.0, 150.0, 400.0}), planted) {
  // Labels that are exactly σ(hand / K): the loss is smallest at K.
  const std::vector<Position> positions = domain_positions(17, 4000);
  std::vector<double> scores, labels, weights;
  for (const Position& position : positions) {
    scores.push_back(evaluate(position, opponent_wins(position)));
    labels.push_back(sigmoid(scores.back() / planted));
    weights.push_back(1.0);
  }
  const double found = fit_scale(scores, labels, weights, 10, 2000);
  BOOST_TEST(std::abs(found / planted - 1) < 0.01, found << " for " << planted);

  // The same through the fit itself, from records.
  std::vector<TrainingRecord> records;
  for (std::size_t i = 0; i < positions.size(); ++i)
    records.push_back(make_record(positions[i], Source::Game, float(labels[i])));
  FitSettings settings;
  settings.epochs = 1;
  const FitResult result = fit_weights(records, settings);
  BOOST_TEST(std::abs(result.scale / planted - 1) < 0.01, result.scale << " for " << planted);
}

BOOST_AUTO_TEST_CASE(the_fit_recovers_planted_weights) {
  constexpr double kScale = 120;
  std::mt19937 random(23);
  std::uniform_int_distribution<int> value(-50, 50);
  std::vector<std::int16_t> planted_values(patterns::kFeatureCount);
  for (std::int16_t& weight : planted_values) weight = std::int16_t(value(random));
  const patterns::PatternWeights planted(planted_values);

  // Labels that are the planted model's probabilities; a fifth of the positions validate.
  std::vector<TrainingRecord> records;
  double planted_loss = 0;
  int validation = 0;
  for (const Position& position : domain_positions(29, 60000)) {
    const double p = sigmoid(planted.evaluate(position, opponent_wins(position)) / kScale);
    TrainingRecord record = make_record(position, Source::Game, float(p));
    record.validation = records.size() % 5 == 0;
    if (record.validation) {
      planted_loss += cross_entropy(std::log(p / (1 - p)), p);
      ++validation;
    }
    records.push_back(record);
  }
  planted_loss /= validation;

  FitSettings settings;
  settings.scale = kScale;
  settings.epochs = 30;
  settings.learning_rate = 0.01;
  const FitResult result = fit_weights(records, settings);
  BOOST_TEST(result.scale == kScale);
  BOOST_TEST(result.validation_loss < planted_loss + 0.01,
             result.validation_loss << " against the planted model's " << planted_loss);

  // The fitted evaluation (the rounded weights, as the engine reads them) follows the planted
  // one on positions it was not trained on.
  const patterns::PatternWeights fitted(result.weights);
  std::vector<double> planted_scores, fitted_scores;
  for (const TrainingRecord& record : records) {
    if (!record.validation) continue;
    const Position position = record.position();
    planted_scores.push_back(planted.evaluate(position, opponent_wins(position)));
    fitted_scores.push_back(fitted.evaluate(position, opponent_wins(position)));
  }
  BOOST_TEST(pearson(planted_scores, fitted_scores) > 0.95);
}

BOOST_DATA_TEST_CASE(
    bad_command_lines_exit_2_with_a_message,
    bdata::make({"",
                 "train",
                 "data",
                 "fit --out w.qev",
                 "fit --data missing.qtd --out w.qev",
                 "fit --data GARBLED --out w.qev",
                 "data --out d.qtd --games -1",
                 "data --out d.qtd --nodes lots",
                 "data --out d.qtd --tables NOWHERE",
                 "all --out w.qev",
                 "fit --data GOOD --out w.qev --games 5",
                 "fit --data GOOD --out w.qev --epochs 0",
                 "fit --data GOOD --out NOWHERE/w.qev --epochs 1",
                 "data --out d.qtd --random-move-rate 2",
                 "data --out d.qtd stray",
                 "keep",
                 "keep --tables NOWHERE",
                 "keep --tables TABLES --movetime 0",
                 "keep --tables TABLES --nodes 0",
                 "keep --tables TABLES --eval-file GARBLED",
                 "keep --tables TABLES --values wins",
                 "keep --tables TABLES --evaluations none",
                 "merge --weights WEIGHTS --from WEIGHTS --out w.qev",
                 "merge --weights WEIGHTS --from WEIGHTS --phases 6 --out w.qev",
                 "merge --weights WEIGHTS --from WEIGHTS --phases four --out w.qev",
                 "merge --weights WEIGHTS --from GARBLED --phases 4 --out w.qev",
                 "merge --weights WEIGHTS --phases 4 --out w.qev",
                 "merge --weights WEIGHTS --from WEIGHTS --phases 4"}),
    command_line) {
  TemporaryDir dir;
  const std::string garbled = (dir.path / "garbled.qtd").string();
  std::ofstream(garbled) << "QXTD this is not a data file";
  const std::string weights = (dir.path / "weights.qev").string();
  patterns::builtin_weights().save(weights);
  const std::string good = (dir.path / "good.qtd").string();
  save_records(good, sample_records());
  std::vector<std::string> arguments;
  std::istringstream words(command_line);
  for (std::string word; words >> word;) {
    if (word == "GARBLED") word = garbled;
    if (word == "GOOD") word = good;
    if (word == "WEIGHTS") word = weights;
    if (word == "NOWHERE/w.qev") word = (dir.path / "missing" / "w.qev").string();
    if (word == "NOWHERE") word = (dir.path / "missing").string();
    if (word == "TABLES") word = test::test_tables_dir().string();
    if (word == "d.qtd" || word == "w.qev") word = (dir.path / word).string();
    arguments.push_back(word);
  }
  const Run result = run(arguments);
  BOOST_TEST(result.code == 2, command_line << ": " << result.out);
  BOOST_TEST(result.err.rfind("quixo-train: ", 0) == 0u, result.err);
  BOOST_TEST(std::count(result.err.begin(), result.err.end(), '\n') == 1, result.err);
}

BOOST_AUTO_TEST_CASE(data_then_fit_make_a_weights_file_the_engine_reads) {
  for (const char* command : {"--help", "data", "fit", "all"}) {
    const Run help = std::string(command) == "--help" ? run({command}) : run({command, "--help"});
    BOOST_TEST(help.code == 0);
    BOOST_TEST(help.out.find("Usage: quixo-train") != std::string::npos);
  }
  TemporaryDir dir;
  const std::string data = (dir.path / "data.qtd").string();
  const std::string weights = (dir.path / "weights.qev").string();
  const Run made =
      run({"data", "--tables", test::test_tables_dir().string(), "--table-positions", "2000",
           "--games", "6", "--nodes", "200", "--deep", "5", "--deep-nodes", "1000", "--out", data});
  BOOST_TEST_REQUIRE(made.code == 0, made.err);
  BOOST_TEST(made.out.find("total 2") != std::string::npos, made.out);
  const std::vector<TrainingRecord> records = load_records(data);
  BOOST_TEST(std::count_if(records.begin(), records.end(), [](const TrainingRecord& record) {
               return record.source == Source::Deep;
             }) == 5);
  const Run fitted = run({"fit", "--data", data, data, "--out", weights, "--epochs", "2"});
  BOOST_TEST_REQUIRE(fitted.code == 0, fitted.err);
  BOOST_TEST(fitted.out.find("K = ") != std::string::npos);
  BOOST_TEST(fitted.out.find("validation  all    all") != std::string::npos, fitted.out);
  BOOST_CHECK_NO_THROW(patterns::PatternWeights::load(weights));

  // A next generation's data: the same games played with learned weights, the built-in ones or a
  // file's, are other games.
  const auto games_with = [&](std::vector<std::string> evaluation) {
    std::vector<std::string> arguments = {"data",   "--games", "6",     "--nodes", "200",
                                          "--deep", "0",       "--out", data};
    arguments.insert(arguments.end(), evaluation.begin(), evaluation.end());
    const Run played = run(arguments);
    BOOST_TEST_REQUIRE(played.code == 0, played.err);
    return load_records(data);
  };
  const std::vector<TrainingRecord> hand = games_with({});
  const std::vector<TrainingRecord> builtin = games_with({"--evaluation", "learned"});
  const std::vector<TrainingRecord> fitted_file = games_with({"--eval-file", weights});
  BOOST_TEST(!(builtin == hand));
  BOOST_TEST(!(fitted_file == builtin));
  BOOST_TEST(games_with({"--evaluation", "hand"}) == hand);
  BOOST_TEST(games_with({"--evaluation", "learned", "--eval-file", weights}) == fitted_file);
  // Refused before any game, with what is wrong.
  const Run unknown = run({"data", "--evaluation", "deep", "--out", data});
  BOOST_TEST(unknown.code == 2);
  BOOST_TEST(unknown.err.find("--evaluation must be hand or learned") != std::string::npos,
             unknown.err);
  const Run both = run({"data", "--evaluation", "hand", "--eval-file", weights, "--out", data});
  BOOST_TEST(both.code == 2);
  BOOST_TEST(both.err.find("does not go with --evaluation hand") != std::string::npos, both.err);
  const Run missing = run({"data", "--eval-file", (dir.path / "none.qev").string(), "--out", data});
  BOOST_TEST(missing.code != 0);
  BOOST_TEST(missing.err.find("none.qev") != std::string::npos, missing.err);
  BOOST_TEST(missing.out.find("games") == std::string::npos, missing.out);
}

BOOST_AUTO_TEST_CASE(team_self_play_labels_in_domain_positions_with_the_games_results) {
  SelfPlaySettings settings;
  settings.games = 10;
  settings.nodes = 300;
  settings.threads = 2;
  settings.hash_mb = 1;
  settings.random_move_rate = 0.1;
  settings.validation_percent = 30;
  settings.seed = 4;
  const std::vector<TeamRecord> records = play_team_games(settings);
  BOOST_TEST_REQUIRE(!records.empty());
  // Per game: the label from team A's (X's) view, one result per game.
  std::map<std::uint32_t, float> team_a_label;
  std::set<std::uint32_t> games;
  std::uint32_t last_game = 0;
  for (const TeamRecord& record : records) {
    BOOST_TEST_REQUIRE(in_team_evaluation_domain(record.position));
    BOOST_TEST_REQUIRE((record.source == Source::Game && !record.has_score));
    BOOST_TEST_REQUIRE((record.label == 0.0f || record.label == 0.5f || record.label == 1.0f));
    BOOST_TEST_REQUIRE(record.game >= last_game);
    last_game = record.game;
    const float as_a =
        record.position.team_to_move() == Color::X ? record.label : 1.0f - record.label;
    const auto [known, added] = team_a_label.emplace(record.game, as_a);
    BOOST_TEST_REQUIRE(known->second == as_a);
    BOOST_TEST_REQUIRE(record.validation == is_validation_game(record.game, 30));
    games.insert(record.game);
  }
  BOOST_TEST(games.size() >= 8u);
  // Both teams to move, and the seat's points matter: positions of every seat are kept.
  std::set<Seat> seats;
  for (const TeamRecord& record : records) seats.insert(record.position.seat_to_move());
  BOOST_TEST(seats.size() == 4u);
  // The same seed gives the same games, however many threads play them.
  settings.threads = 1;
  const std::vector<TeamRecord> again = play_team_games(settings);
  BOOST_TEST_REQUIRE(again.size() == records.size());
  for (std::size_t i = 0; i < records.size(); ++i)
    BOOST_TEST_REQUIRE((again[i].position == records[i].position &&
                        again[i].label == records[i].label && again[i].game == records[i].game));

  DeepSearchSettings deep;
  deep.positions = 8;
  deep.nodes = 2000;
  deep.threads = 2;
  deep.hash_mb = 1;
  const std::vector<TeamRecord> scored = deep_search_team(records, deep);
  BOOST_TEST_REQUIRE(scored.size() == 8u);
  for (const TeamRecord& record : scored) {
    BOOST_TEST_REQUIRE((record.source == Source::Deep && record.has_score));
    BOOST_TEST(std::abs(record.score) <= kMateScore);
    const auto origin = std::find_if(records.begin(), records.end(), [&](const auto& game) {
      return game.position == record.position && game.game == record.game;
    });
    BOOST_TEST_REQUIRE((origin != records.end()));
    BOOST_TEST(origin->label == record.label);
  }
  // The fit makes weights that score the training games better than nothing: its training loss
  // is below that of the all-zero weights (log 2).
  FitSettings fit;
  fit.epochs = 3;
  const FitResult result = fit_team_weights(records, fit);
  BOOST_TEST(result.weights.size() == std::size_t(patterns::kTeamFeatureCount));
  BOOST_TEST(result.training_loss < std::log(2.0));
  BOOST_TEST(result.scale > 0);
}

BOOST_AUTO_TEST_CASE(the_team_command_makes_team_weights_the_engine_reads) {
  BOOST_TEST(run({"team", "--help"}).out.find("team --out FILE.qe4") != std::string::npos);
  TemporaryDir dir;
  const std::string weights = (dir.path / "team.qe4").string();
  const Run made = run({"team", "--games", "6", "--nodes", "200", "--deep", "5", "--deep-nodes",
                        "1000", "--epochs", "2", "--out", weights});
  BOOST_TEST_REQUIRE(made.code == 0, made.err);
  BOOST_TEST(made.out.find("stage team self-play: 6 games") != std::string::npos, made.out);
  BOOST_TEST(made.out.find("stage deep team search: 5 positions") != std::string::npos, made.out);
  BOOST_TEST(made.out.find("validation  all    all") != std::string::npos, made.out);
  BOOST_CHECK_NO_THROW(patterns::TeamPatternWeights::load(weights));
  // Two-player options are not the team command's.
  const Run refused = run({"team", "--tables", "x", "--out", weights});
  BOOST_TEST(refused.code == 2);
  BOOST_TEST(refused.err.find("tables") != std::string::npos, refused.err);

  // A next generation from the team weights just made; two-player weights are not team weights.
  const std::string next = (dir.path / "next.qe4").string();
  const Run next_made =
      run({"team", "--games", "6", "--nodes", "200", "--deep", "5", "--deep-nodes", "1000",
           "--epochs", "2", "--eval-file", weights, "--out", next});
  BOOST_TEST_REQUIRE(next_made.code == 0, next_made.err);
  BOOST_CHECK_NO_THROW(patterns::TeamPatternWeights::load(next));
  const std::string two_player = (dir.path / "two-player.qev").string();
  patterns::builtin_weights().save(two_player);
  const Run wrong_kind = run({"team", "--eval-file", two_player, "--out", next});
  BOOST_TEST(wrong_kind.code != 0);
  BOOST_TEST(wrong_kind.err.find("not a quixo team evaluation weights file") != std::string::npos,
             wrong_kind.err);
  BOOST_TEST(wrong_kind.out.find("games") == std::string::npos, wrong_kind.out);
}

// Value-keeping settings the test tables can serve: short wins count, and layer 0 is used (the
// sanitizer builds' test tables have only layer 0).
ValueKeepingSettings small_value_keeping_settings() {
  ValueKeepingSettings settings;
  settings.positions = 40;
  settings.move_time_ms = 5;
  settings.seed = 3;
  settings.min_win_plies = 3;
  settings.min_blanks = 0;
  return settings;
}

BOOST_AUTO_TEST_CASE(value_keeping_counts_the_moves_that_keep_held_out_values) {
  const tb::Tablebase& tables = test::test_tables();
  const ValueKeepingSettings settings = small_value_keeping_settings();
  const std::vector<ValueKeepingPosition> positions = value_keeping_positions(tables, settings);
  // The test tables' layer 1 is small: it may give fewer than asked, but not none.
  BOOST_TEST_REQUIRE(!positions.empty());
  for (const ValueKeepingPosition& entry : positions) {
    BOOST_TEST_REQUIRE(is_held_out(entry.position));
    BOOST_TEST_REQUIRE(in_evaluation_domain(entry.position));
    const auto value = tables.probe(entry.position);
    BOOST_TEST_REQUIRE((value && value->wdl == entry.value && entry.value != tb::Wdl::Loss));
    BOOST_TEST_REQUIRE(entry.keeping_moves >= 1);
    BOOST_TEST_REQUIRE(2 * entry.keeping_moves <= entry.legal_moves);
    BOOST_TEST_REQUIRE((entry.value == tb::Wdl::Draw || value->distance >= 3));
    BOOST_TEST_REQUIRE(entry.legal_moves == entry.position.legal_move_count());
  }
  const ValueKeepingResult result =
      measure_value_keeping(tables, positions, Evaluator(), "hand", settings);
  BOOST_TEST(result.positions == int(positions.size()));
  BOOST_TEST(result.win_positions + result.draw_positions == result.positions);
  BOOST_TEST(result.win_kept + result.draw_kept == result.kept);
  BOOST_TEST(result.kept <= result.positions);
  int kept_by_blanks = 0;
  for (const int kept : result.kept_by_blanks) kept_by_blanks += kept;
  BOOST_TEST(kept_by_blanks == result.kept);
  const std::vector<std::string> lines = value_keeping_report({result});
  BOOST_TEST_REQUIRE(lines.size() == 1u);
  BOOST_TEST(lines[0].rfind("hand: kept ", 0) == 0u, lines[0]);
}

// With a node count the measure does not depend on the machine's speed: the same nodes give the
// same moves, and a one-node search (its move ordering alone) keeps fewer values than a real one.
BOOST_AUTO_TEST_CASE(value_keeping_at_fixed_nodes_repeats_itself) {
  const tb::Tablebase& tables = test::test_tables();
  ValueKeepingSettings settings = small_value_keeping_settings();
  // The trainable positions as well: more of them than the held-out ones in the test tables.
  std::vector<ValueKeepingPosition> positions = value_keeping_positions(tables, settings);
  settings.held_out = false;
  for (const ValueKeepingPosition& entry : value_keeping_positions(tables, settings)) {
    BOOST_TEST_REQUIRE(!is_held_out(entry.position));
    positions.push_back(entry);
  }
  BOOST_TEST_REQUIRE(positions.size() >= 20u);
  settings.nodes = 5000;
  const ValueKeepingResult searched =
      measure_value_keeping(tables, positions, Evaluator::builtin_learned(), "learned", settings);
  const ValueKeepingResult again =
      measure_value_keeping(tables, positions, Evaluator::builtin_learned(), "learned", settings);
  BOOST_TEST(searched.kept_by_blanks == again.kept_by_blanks);
  BOOST_TEST(searched.win_kept == again.win_kept);
  settings.nodes = 1;
  const ValueKeepingResult one_node =
      measure_value_keeping(tables, positions, Evaluator::builtin_learned(), "learned", settings);
  BOOST_TEST(one_node.kept < searched.kept);
}

BOOST_AUTO_TEST_CASE(value_keeping_positions_of_one_value_alone) {
  const tb::Tablebase& tables = test::test_tables();
  ValueKeepingSettings settings = small_value_keeping_settings();
  const std::vector<ValueKeepingPosition> both = value_keeping_positions(tables, settings);
  const auto count_of = [](const std::vector<ValueKeepingPosition>& positions, tb::Wdl value) {
    return std::count_if(positions.begin(), positions.end(),
                         [&](const ValueKeepingPosition& entry) { return entry.value == value; });
  };
  BOOST_TEST_REQUIRE(count_of(both, tb::Wdl::Win) > 0);
  BOOST_TEST_REQUIRE(count_of(both, tb::Wdl::Draw) > 0);
  settings.draws = false;
  const std::vector<ValueKeepingPosition> wins = value_keeping_positions(tables, settings);
  BOOST_TEST(!wins.empty());
  BOOST_TEST(count_of(wins, tb::Wdl::Win) == std::ptrdiff_t(wins.size()));
  settings.draws = true;
  settings.wins = false;
  const std::vector<ValueKeepingPosition> draws = value_keeping_positions(tables, settings);
  BOOST_TEST(!draws.empty());
  BOOST_TEST(count_of(draws, tb::Wdl::Draw) == std::ptrdiff_t(draws.size()));
}

BOOST_AUTO_TEST_CASE(merge_takes_the_named_phases_from_the_other_file) {
  using namespace patterns;
  TemporaryDir dir;
  const std::string base_file = (dir.path / "base.qev").string();
  const std::string donor_file = (dir.path / "donor.qev").string();
  const std::string out_file = (dir.path / "merged.qev").string();
  const PatternWeights base(test::random_pattern_weights(31u)),
      donor(test::random_pattern_weights(32u));
  base.save(base_file);
  donor.save(donor_file);
  // One phase with pairs (2) and one without (5).
  const Run merged = run({"merge", "--weights", base_file, "--from", donor_file, "--phases", "2",
                          "5", "--out", out_file});
  BOOST_TEST_REQUIRE(merged.code == 0, merged.err);
  BOOST_TEST(merged.out.find("phase 2 (2 blanks): " + donor_file) != std::string::npos, merged.out);
  BOOST_TEST(merged.out.find("phase 4 (7-12 blanks): " + base_file) != std::string::npos,
             merged.out);
  BOOST_TEST(merged.out.find("phase 5 (13-25 blanks): " + donor_file) != std::string::npos,
             merged.out);
  const PatternWeights result = PatternWeights::load(out_file);
  // Every feature by its phase, numbered as pattern_evaluation.hpp documents them.
  const auto phase_of_feature = [](int feature) {
    return feature < kPairFeature ? feature / kFeaturesPerPhase
                                  : (feature - kPairFeature) / kPairFeaturesPerPhase;
  };
  int taken = 0;
  for (int feature = 0; feature < kFeatureCount; ++feature) {
    const int phase = phase_of_feature(feature);
    const bool from_donor = phase == 2 || phase == 5;
    taken += from_donor;
    BOOST_TEST(result.weights()[std::size_t(feature)] ==
                   (from_donor ? donor : base).weights()[std::size_t(feature)],
               "feature " << feature << " of phase " << phase);
  }
  BOOST_TEST(taken == 2 * kFeaturesPerPhase + kPairFeaturesPerPhase);
  // So a position of a taken phase scores as the donor scores it, any other as the base does.
  const std::vector<Position> positions = test::positions_of_every_phase(33u, 600);
  std::set<int> phases_seen;
  for (const Position& position : positions) {
    const int phase = phase_of(std::popcount(position.blanks()));
    const SlideSet threats = opponent_wins(position);
    BOOST_TEST(result.evaluate(position, threats) ==
               (phase == 2 || phase == 5 ? donor : base).evaluate(position, threats));
    phases_seen.insert(phase);
  }
  BOOST_TEST(phases_seen.size() == std::size_t(kPhases));
}

// --- Fitting to the search's own choices (search_ranking.hpp) ---

// Won positions of the test tables where some move gives the win away, as the value-keeping test
// picks them (layer 0 only under the sanitizers, whose test tables stop there).
std::vector<Position> rankable_wins() {
  ValueKeepingSettings settings = small_value_keeping_settings();
  settings.draws = false;
  settings.positions = 24;
  // Long wins, which a small search does not prove: its lines end in evaluated leaves.
  settings.min_win_plies = 25;
  settings.held_out = false;  // the ones a fit may learn from
  std::vector<Position> positions;
  for (const ValueKeepingPosition& entry : value_keeping_positions(test::test_tables(), settings))
    positions.push_back(entry.position);
  return positions;
}

// Drawn positions of the test tables where some move loses, that a fit may learn from.
std::vector<Position> rankable_draws(int count) {
  ValueKeepingSettings settings = small_value_keeping_settings();
  settings.wins = false;
  settings.held_out = false;
  settings.positions = count;
  std::vector<Position> positions;
  for (const ValueKeepingPosition& entry : value_keeping_positions(test::test_tables(), settings))
    positions.push_back(entry.position);
  return positions;
}

SearchRankingSettings small_ranking_settings(int threads) {
  SearchRankingSettings settings;
  settings.child_nodes = 600;
  settings.batch = 8;
  settings.hash_mb = 1;  // cleared before every child's search: slow under the sanitizers
  settings.threads = threads;
  return settings;
}

std::vector<double> builtin_weights_as_reals() {
  const auto weights = patterns::builtin_weights().weights();
  return std::vector<double>(weights.begin(), weights.end());
}

// The fit lowers its own loss on the positions it learns from, changes only the phases its
// leaves are in (at most as many blanks as the positions), gives the same weights on one thread
// as on two, and with a learning rate of 0 only measures.
BOOST_AUTO_TEST_CASE(search_ranking_lowers_its_loss_and_touches_only_the_leaves_phases) {
  const tb::Tablebase& tables = test::test_tables();
  const std::vector<Position> positions = rankable_wins();
  BOOST_TEST_REQUIRE(positions.size() >= 8u);
  int most_blanks = 0;
  for (const Position& position : positions)
    most_blanks = std::max(most_blanks, std::popcount(position.blanks()));

  SearchRankingSettings measure = small_ranking_settings(2);
  measure.learning_rate = 0;
  std::vector<double> unchanged = builtin_weights_as_reals();
  const SearchRankingStats before = search_ranking_pass(tables, positions, unchanged, measure);
  BOOST_TEST(unchanged == builtin_weights_as_reals());
  BOOST_TEST(before.positions == int(positions.size()));
  BOOST_TEST_REQUIRE(before.ranked > 0);
  BOOST_TEST(before.leaves > 0);
  BOOST_TEST(before.leaves <= before.children);
  BOOST_TEST(before.picked_keeping <= before.positions);
  BOOST_TEST(before.won == before.positions);  // wins alone
  BOOST_TEST(before.picked_won == before.picked_keeping);

  std::vector<double> one_thread = builtin_weights_as_reals();
  std::vector<double> two_threads = builtin_weights_as_reals();
  for (int pass = 0; pass < 3; ++pass) {
    search_ranking_pass(tables, positions, one_thread, small_ranking_settings(1));
    search_ranking_pass(tables, positions, two_threads, small_ranking_settings(2));
  }
  BOOST_TEST((one_thread == two_threads));
  const SearchRankingStats after = search_ranking_pass(tables, positions, two_threads, measure);
  // The sanitizers' test tables stop at layer 0, whose long wins the search nearly settles
  // (a loss near 0.001): three small passes move no weight across a rounding step there, so
  // the loss is compared where the layer-1 wins give it room (release, debug).
  if (test::test_table_blanks() >= 1)
    BOOST_TEST(after.loss / after.ranked < before.loss / before.ranked,
               "loss " << before.loss / before.ranked << " -> " << after.loss / after.ranked);

  const std::vector<double> start = builtin_weights_as_reals();
  int changed = 0;
  for (std::size_t feature = 0; feature < start.size(); ++feature) {
    if (two_threads[feature] == start[feature]) continue;
    ++changed;
    const int phase =
        int(feature) < patterns::kPairFeature
            ? int(feature) / patterns::kFeaturesPerPhase
            : (int(feature) - patterns::kPairFeature) / patterns::kPairFeaturesPerPhase;
    BOOST_TEST_REQUIRE(phase <= patterns::phase_of(most_blanks), "feature " << feature);
  }
  BOOST_TEST(changed > 0);
}

BOOST_AUTO_TEST_CASE(search_ranking_refuses_lost_positions) {
  const tb::Tablebase& tables = test::test_tables();
  std::vector<double> weights = builtin_weights_as_reals();
  // A won position with the cubes' colours swapped (the same side to move) is sometimes lost.
  for (const Position& position : rankable_wins()) {
    const Position swapped(position.cubes(Color::O), position.cubes(Color::X), Color::X);
    const auto value = tables.probe_wdl(swapped);
    if (!value || *value != tb::Wdl::Loss) continue;
    const std::vector<Position> one{swapped};
    BOOST_CHECK_THROW(search_ranking_pass(tables, one, weights, small_ranking_settings(1)),
                      std::invalid_argument);
    return;
  }
  BOOST_FAIL("no won position whose colours swapped is lost");
}

// A draw is ranked like a win, toward the moves that keep it: almost every draw has a move that
// does not lose at once and still loses (of 3,000 drawn two-blank positions, 7 have none).
BOOST_AUTO_TEST_CASE(search_ranking_ranks_the_draws_a_move_gives_away) {
  const tb::Tablebase& tables = test::test_tables();
  const std::vector<Position> hard = rankable_draws(16);
  BOOST_TEST_REQUIRE(!hard.empty());

  SearchRankingSettings measure = small_ranking_settings(2);
  measure.learning_rate = 0;
  std::vector<double> weights = builtin_weights_as_reals();
  const SearchRankingStats drawn = search_ranking_pass(tables, hard, weights, measure);
  BOOST_TEST(drawn.won == 0);
  BOOST_TEST(drawn.picked_won == 0);
  BOOST_TEST_REQUIRE(drawn.ranked > 0);
  BOOST_TEST(drawn.loss > 0);
  BOOST_TEST(drawn.picked_keeping <= drawn.positions);
  // And it learns from them: some weight moves.
  search_ranking_pass(tables, hard, weights, small_ranking_settings(2));
  BOOST_TEST((weights != builtin_weights_as_reals()));
}

// With progress weighed, a won position's slower wins count less toward the kept share, so the
// loss of the same weights grows; at a very large scale it is the loss without; a draw has no
// distance and ranks as before; a negative scale is refused.
BOOST_AUTO_TEST_CASE(search_ranking_weighs_the_faster_wins_more_with_progress) {
  const tb::Tablebase& tables = test::test_tables();
  // A third of the rankable wins: seven passes over all of them took 49 s under ASan.
  std::vector<Position> wins = rankable_wins();
  wins.resize(std::min<std::size_t>(wins.size(), 8));
  SearchRankingSettings measure = small_ranking_settings(2);
  measure.learning_rate = 0;
  std::vector<double> weights = builtin_weights_as_reals();
  const SearchRankingStats alike = search_ranking_pass(tables, wins, weights, measure);
  BOOST_TEST_REQUIRE(alike.ranked > 0);
  measure.progress_plies = 1e9;
  const SearchRankingStats far = search_ranking_pass(tables, wins, weights, measure);
  BOOST_TEST(far.loss == alike.loss, boost::test_tools::tolerance(1e-6));
  measure.progress_plies = 2;
  const SearchRankingStats near = search_ranking_pass(tables, wins, weights, measure);
  BOOST_TEST(near.loss > alike.loss, near.loss << " against " << alike.loss);
  // Only the loss and the gradient change: the same children are scored and picked.
  BOOST_TEST(near.picked_won == alike.picked_won);
  BOOST_TEST(near.leaves == alike.leaves);

  std::vector<double> with_progress = builtin_weights_as_reals();
  std::vector<double> without = builtin_weights_as_reals();
  SearchRankingSettings fit = small_ranking_settings(2);
  search_ranking_pass(tables, wins, without, fit);
  fit.progress_plies = 2;
  search_ranking_pass(tables, wins, with_progress, fit);
  BOOST_TEST((with_progress != without));

  const std::vector<Position> draws = rankable_draws(4);
  measure.progress_plies = 0;
  const SearchRankingStats draws_alike = search_ranking_pass(tables, draws, weights, measure);
  measure.progress_plies = 2;
  BOOST_TEST(search_ranking_pass(tables, draws, weights, measure).loss == draws_alike.loss);

  measure.progress_plies = -1;
  BOOST_CHECK_THROW(search_ranking_pass(tables, wins, weights, measure), std::invalid_argument);
}

// Progress counted to the fill (tables of `quixo-tb generate --distance-to exit`): a keeping child
// that takes a blank counts 0 plies, the others their tables' distance. So the loss is that of
// progress to the end where no keeping child fills, and differs where one does (here, with the
// fixture's tables to the end, the fill's distance becomes 0). Under the sanitizers the fixture
// holds layer 0 alone, whose positions have nothing to fill: only the first half runs there.
BOOST_AUTO_TEST_CASE(search_ranking_counts_progress_to_the_fill_when_asked) {
  const tb::Tablebase& tables = test::test_tables();
  std::vector<Position> fills, stays;
  for (const Position& position : rankable_wins()) {
    bool keeping_fill = false;
    for (const Move move : position.legal_moves()) {
      const Position child = position.after(move);
      keeping_fill |= std::popcount(child.blanks()) < std::popcount(position.blanks()) &&
                      tables.probe_wdl(child) == tb::Wdl::Loss;
    }
    std::vector<Position>& group = keeping_fill ? fills : stays;
    if (group.size() < 4) group.push_back(position);
  }
  BOOST_TEST_REQUIRE(!stays.empty());
  const bool with_blanks = test::test_table_blanks() >= 1;
  BOOST_TEST_REQUIRE(fills.empty() != with_blanks);
  SearchRankingSettings to_end = small_ranking_settings(2);
  to_end.learning_rate = 0;
  to_end.progress_plies = 2;
  SearchRankingSettings to_fill = to_end;
  to_fill.progress_to_fill = true;
  std::vector<double> weights = builtin_weights_as_reals();
  BOOST_TEST(search_ranking_pass(tables, stays, weights, to_fill).loss ==
                 search_ranking_pass(tables, stays, weights, to_end).loss,
             boost::test_tools::tolerance(1e-9));
  int differ = 0;
  for (const Position& position : fills) {
    const std::vector<Position> one{position};
    differ += search_ranking_pass(tables, one, weights, to_fill).loss !=
              search_ranking_pass(tables, one, weights, to_end).loss;
  }
  if (with_blanks) BOOST_TEST(differ > 0, "of " << fills.size());
}

// `rank` measures without --out at a learning rate of 0, leaves out the test sets' positions in
// any image and the value-keeping test's, repeats none, writes weights the engine reads, and
// refuses a bad positions file with its line.
BOOST_AUTO_TEST_CASE(the_rank_command_measures_fits_and_refuses_bad_positions) {
  const TemporaryDir dir;
  const std::string positions_file = (dir.path / "wins.txt").string();
  {
    std::ofstream file(positions_file);
    file << "# won positions\n";
    for (const Position& position : rankable_wins()) file << to_string(position) << "\n";
  }
  const std::string tables = test::test_tables_dir().string();
  const Run measured = run({"rank", "--tables", tables, "--positions", positions_file,
                            "--learning-rate", "0", "--hash", "1", "--nodes", "600"});
  BOOST_TEST(measured.code == 0, measured.err);
  BOOST_TEST(measured.out.find("epoch 1: loss ") != std::string::npos, measured.out);
  BOOST_TEST(measured.out.find("(0 held out, 0 kept for the value-keeping test, 0 repeated") !=
                 std::string::npos,
             measured.out);
  BOOST_TEST(measured.out.find("wrote") == std::string::npos);

  // Wins and draws from two files, each draw counted as one.
  const std::string draws_file = (dir.path / "draws.txt").string();
  const std::vector<Position> draws = rankable_draws(6);
  {
    std::ofstream file(draws_file);
    for (const Position& position : draws) file << to_string(position) << "\n";
  }
  const Run both = run({"rank", "--tables", tables, "--positions", positions_file, draws_file,
                        "--learning-rate", "0", "--hash", "1", "--nodes", "600"});
  BOOST_TEST(both.code == 0, both.err);
  BOOST_TEST(both.out.find(std::to_string(rankable_wins().size() + draws.size()) +
                           " positions (0 held out") != std::string::npos,
             both.out);
  BOOST_TEST(
      both.out.find(" of " + std::to_string(draws.size()) + " drawn ones") != std::string::npos,
      both.out);

  // A test set's position is left out in any of its images, and a repeated one is used once.
  const std::vector<Position> wins = rankable_wins();
  const std::string repeated_file = (dir.path / "repeated.txt").string();
  const std::string held_out_file = (dir.path / "held-out.txt").string();
  {
    std::ofstream repeated(repeated_file), held_out(held_out_file);
    for (const Position& position : wins) repeated << to_string(position) << "\n";
    repeated << to_string(transform(kAllSymmetries[3], wins[0])) << "\n";
    // A position of the value-keeping test is never learnt from.
    repeated << to_string(
                    value_keeping_positions(test::test_tables(), small_value_keeping_settings())[0]
                        .position)
             << "\n";
    held_out << to_string(transform(kAllSymmetries[5], wins[1])) << "\n";
  }
  const Run held = run({"rank", "--tables", tables, "--positions", repeated_file, "--hold-out",
                        held_out_file, "--learning-rate", "0", "--hash", "1", "--nodes", "600"});
  BOOST_TEST(held.code == 0, held.err);
  BOOST_TEST(
      held.out.find(std::to_string(wins.size() - 1) +
                    " positions (1 held out, 1 kept for the value-keeping test, 1 repeated") !=
          std::string::npos,
      held.out);
  const Run backwards = run({"rank", "--tables", tables, "--positions", positions_file,
                             "--progress", "-1", "--hash", "1"});
  BOOST_TEST(backwards.code == 2);
  BOOST_TEST(backwards.err.find("--progress must not be negative") != std::string::npos,
             backwards.err);
  // Tables that count to the end give no distance to the fill.
  const Run no_exit_layer =
      run({"rank", "--tables", tables, "--positions", positions_file, "--progress", "2",
           "--progress-to", "fill", "--learning-rate", "0", "--hash", "1"});
  BOOST_TEST(no_exit_layer.code != 0);
  BOOST_TEST(no_exit_layer.err.find("no layer of") != std::string::npos, no_exit_layer.err);
  const Run unknown_count = run({"rank", "--tables", tables, "--positions", positions_file,
                                 "--progress", "2", "--progress-to", "blank", "--hash", "1"});
  BOOST_TEST(unknown_count.code == 2);
  BOOST_TEST(
      unknown_count.err.find("--progress-to \"blank\": expected end or fill") != std::string::npos,
      unknown_count.err);
  const Run all_held = run({"rank", "--tables", tables, "--positions", held_out_file, "--hold-out",
                            repeated_file, "--learning-rate", "0", "--hash", "1"});
  BOOST_TEST(all_held.code == 2);
  BOOST_TEST(all_held.err.find("every position is held out") != std::string::npos, all_held.err);

  const std::string weights_file = (dir.path / "ranked.qev").string();
  const Run fitted = run({"rank", "--tables", tables, "--positions", positions_file, "--nodes",
                          "600", "--epochs", "2", "--hash", "1", "--out", weights_file});
  BOOST_TEST(fitted.code == 0, fitted.err);
  BOOST_TEST(fitted.out.find("epoch 2: loss ") != std::string::npos, fitted.out);
  const patterns::PatternWeights read = patterns::PatternWeights::load(weights_file);
  BOOST_TEST(read.weights().size() == std::size_t(patterns::kFeatureCount));

  const Run without_out = run({"rank", "--tables", tables, "--positions", positions_file});
  BOOST_TEST(without_out.code == 2);
  {
    std::ofstream file(positions_file, std::ios::app);
    file << "xxxxx/not a position\n";
  }
  const Run bad = run({"rank", "--tables", tables, "--positions", positions_file, "--learning-rate",
                       "0", "--hash", "1"});
  BOOST_TEST(bad.code == 2);
  BOOST_TEST(bad.err.find("wins.txt:") != std::string::npos, bad.err);
  const Run missing =
      run({"rank", "--tables", tables, "--positions", (dir.path / "none.txt").string(),
           "--learning-rate", "0", "--hash", "1"});
  BOOST_TEST(missing.code == 2);
  BOOST_TEST(missing.err.find("none.txt") != std::string::npos, missing.err);
}

BOOST_AUTO_TEST_SUITE_END()
