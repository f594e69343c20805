// The learned team evaluation (team_pattern_evaluation.hpp): the score is the sum of the weights
// of the features the trainer sees, the features read the points of the cubes (each seat's border
// cubes, its wins in one, a forced pass), the score is blind to the 8 symmetries of the board,
// the team weights file refuses every kind of damage and is told apart from the two-player one,
// and the team search plays with the learned weights when it is given them.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/symmetry.hpp"
#include "search/evaluation4.hpp"
#include "search/pattern_evaluation.hpp"
#include "search/team_pattern_evaluation.hpp"
#include "support/random_positions.hpp"
#include "support/search4.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::patterns;

BOOST_AUTO_TEST_SUITE(team_pattern_evaluation_tests)

namespace {

// kTeamFeatureCount weights in [-300, 300], seeded.
std::vector<std::int16_t> random_team_weights(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-300, 300);
  std::vector<std::int16_t> weights(kTeamFeatureCount);
  for (std::int16_t& weight : weights) weight = std::int16_t(value(rng));
  return weights;
}

// Positions of random team games where the game goes on, of every phase: short games (many
// blanks) and the last positions of long ones (few).
std::vector<Position4> team_positions(unsigned seed, int count) {
  std::vector<Position4> positions = test::random_positions<Position4>(seed, count / 2);
  for (const Position4& position : test::random_positions<Position4>(
           seed, count - count / 2, {100, 400, test::Keep::LastOngoing}))
    positions.push_back(position);
  return positions;
}

std::set<std::uint32_t> feature_set(const Position4& position) {
  const TeamFeatures features =
      team_features(position, team_scan(position).wins, opponent_team_wins(position));
  return {features.indices.begin(), features.indices.begin() + features.count};
}

}  // namespace

BOOST_DATA_TEST_CASE(the_score_is_the_sum_of_the_active_features_weights, bdata::make({0, 1, 2}),
                     seed) {
  const std::vector<std::int16_t> weights = random_team_weights(11u + unsigned(seed));
  const TeamPatternWeights team(weights);
  std::array<int, kPhases> seen{};
  for (const Position4& position : team_positions(500u + unsigned(seed), 600)) {
    const SlideSet own = team_scan(position).wins, other = opponent_team_wins(position);
    const TeamFeatures features = team_features(position, own, other);
    const int phase = phase_of(std::popcount(position.blanks()));
    ++seen[std::size_t(phase)];
    BOOST_TEST(features.phase == phase);
    int sum = 0;
    for (int i = 0; i < features.count; ++i) {
      sum += weights[features.indices[std::size_t(i)]];
      // Every feature lies in the position's phase.
      BOOST_TEST(features.indices[std::size_t(i)] >= std::uint32_t(phase * kTeamFeaturesPerPhase));
      BOOST_TEST(features.indices[std::size_t(i)] <
                 std::uint32_t((phase + 1) * kTeamFeaturesPerPhase));
    }
    BOOST_TEST(team.evaluate(position, own, other) == sum, to_string(position));
    BOOST_TEST(team.evaluate(position) == sum);
  }
  // Random team games reach both ends of the phases.
  BOOST_TEST(seen[5] > 0);
  BOOST_TEST(seen[0] + seen[1] + seen[2] + seen[3] > 0);
}

BOOST_AUTO_TEST_CASE(the_features_read_the_points_of_the_cubes) {
  // Seat 0 (A1) to move. Border cubes: a1 and b1 point to seat 0, e5 to seat 1, c1 to seat 2
  // (team A's, pointing to the partner). 21 blanks: phase 5.
  const Bitboard a1 = Bitboard{1} << 0, b1 = Bitboard{1} << 1, c1 = Bitboard{1} << 2;
  const Bitboard e5 = Bitboard{1} << 24;
  const Bitboard by_point[kSeatCount] = {a1 | b1, e5, c1, 0};
  const Position4 position(by_point, 0);
  const int base = 5 * kTeamFeaturesPerPhase;
  const std::set<std::uint32_t> features = feature_set(position);
  BOOST_TEST(features.size() == std::size_t(kLineCount + kRelativeSeats + 1) - 3,
             "9 distinct line features (rank 2, rank 4 and file d are alike, and rank 5 and "
             "file e), 4 point buckets and the bias");
  for (const auto& [relative, cubes] : {std::pair{0, 2}, {1, 1}, {2, 1}, {3, 0}})
    BOOST_TEST(features.count(std::uint32_t(base + kTeamPointFeature +
                                            relative * kTeamPointBuckets + cubes)) == 1,
               "relative seat " << relative);
  BOOST_TEST(features.count(std::uint32_t(base + kTeamBiasFeature)) == 1);
  // The same cubes with seat 1 (B1) to move: the relative seats turn, and the lines are seen
  // from team B.
  const std::set<std::uint32_t> turned = feature_set(test::with_seat(position, 1));
  for (const auto& [relative, cubes] : {std::pair{0, 1}, {1, 1}, {2, 0}, {3, 2}})
    BOOST_TEST(turned.count(std::uint32_t(base + kTeamPointFeature + relative * kTeamPointBuckets +
                                          cubes)) == 1,
               "relative seat " << relative);
}

BOOST_AUTO_TEST_CASE(a_seat_with_nothing_to_take_has_the_forced_pass_feature) {
  // A full board without a line: team A's cubes all point to seat 2, team B's to seats 1 and 3,
  // so seat 0 must pass and the other seats may move.
  const Position4 full = parse_position4("XXOOX/OOXXO/XXOOX/OOXXO/XXOOX 1");
  Bitboard by_point[kSeatCount] = {0, 0, full.cubes(Color::X), 0};
  const Bitboard o_cubes = full.cubes(Color::O);
  by_point[1] = o_cubes & 0x155555;
  by_point[3] = o_cubes & ~by_point[1];
  const Position4 position(by_point, 0);
  BOOST_TEST_REQUIRE(!position.is_game_over());
  BOOST_TEST_REQUIRE(position.takeable() == 0);
  const std::set<std::uint32_t> features = feature_set(position);
  BOOST_TEST(features.count(std::uint32_t(kTeamPassFeature + 0)) == 1);  // phase 0: no blanks
  BOOST_TEST(features.count(std::uint32_t(kTeamPassFeature + 1)) == 0);
  BOOST_TEST(features.count(std::uint32_t(kTeamPassFeature + 2)) == 0);
}

BOOST_AUTO_TEST_CASE(wins_in_one_of_the_other_seats_are_features_by_seat) {
  // Team A (X) holds four of rank 1 with e1 blank: a blank the partner may take wins for team A,
  // and so does the mover, so the mover's own side is outside the domain; seen from seat 1 (B1)
  // to move, the next opponent is seat 2 (A2) and the last opponent seat 0 (A1), who both win.
  const Position4 position = test::with_seat(parse_position4("5/5/5/5/XXXX1 1"), 1);
  const SlideSet own = team_scan(position).wins, other = opponent_team_wins(position);
  const SeatFacts facts = seat_facts(position, own, other);
  BOOST_TEST_REQUIRE(facts.wins[1] > 0);
  BOOST_TEST_REQUIRE(facts.wins[3] > 0);
  BOOST_TEST(facts.wins[2] == 0);
  const std::set<std::uint32_t> features = feature_set(position);
  const int base = phase_of(std::popcount(position.blanks())) * kTeamFeaturesPerPhase;
  for (const int relative : {1, 3})
    BOOST_TEST(features.count(std::uint32_t(
                   base + kTeamWinFeature + (relative - 1) * kTeamWinBuckets +
                   std::min(facts.wins[std::size_t(relative)], kTeamWinBuckets) - 1)) == 1);
}

BOOST_DATA_TEST_CASE(the_score_is_blind_to_the_symmetries_of_the_board,
                     bdata::make({0, 1, 2, 3, 4, 5, 6, 7}), index) {
  const TeamPatternWeights team(random_team_weights(41u));
  const Symmetry symmetry = kAllSymmetries[std::size_t(index)];
  for (const Position4& position : team_positions(700u + unsigned(index), 300))
    BOOST_TEST(team.evaluate(transform(symmetry, position)) == team.evaluate(position),
               to_string(position) << " under symmetry " << index);
}

BOOST_AUTO_TEST_CASE(the_team_weights_file_round_trips_and_refuses_damage) {
  const TeamPatternWeights team(random_team_weights(5u));
  const std::vector<std::byte> bytes = team.serialize();
  const TeamPatternWeights again = TeamPatternWeights::parse(bytes);
  BOOST_TEST(std::equal(team.weights().begin(), team.weights().end(), again.weights().begin(),
                        again.weights().end()));
  BOOST_TEST(TeamPatternWeights::is_team_file(bytes));
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "quixo-team-pattern-evaluation-tests.qe4";
  team.save(file.string());
  BOOST_TEST(TeamPatternWeights::load(file.string()).serialize() == bytes);
  std::filesystem::remove(file);

  const auto refusal = [](std::vector<std::byte> damaged) -> std::string {
    try {
      (void)TeamPatternWeights::parse(damaged);
    } catch (const WeightsFileError& error) {
      return error.what();
    }
    return "accepted";
  };
  const auto damaged = [&bytes](std::size_t at, std::byte value) {
    std::vector<std::byte> copy = bytes;
    copy[at] = value;
    return copy;
  };
  BOOST_TEST(refusal({}).find("not a quixo team evaluation weights file") != std::string::npos);
  BOOST_TEST(refusal(damaged(4, std::byte(7))).find("version 7") != std::string::npos);
  BOOST_TEST(refusal(damaged(8, std::byte(5))).find("another layout") != std::string::npos);
  BOOST_TEST(refusal(damaged(100, bytes[100] ^ std::byte(1))).find("checksum") !=
             std::string::npos);
  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte(0));
  BOOST_TEST(refusal(longer).find("expected") != std::string::npos);
  // Either game's file is refused by the other's reader, by its magic.
  const std::vector<std::int16_t> two_player(kFeatureCount, 0);
  const std::vector<std::byte> two_player_bytes = PatternWeights(two_player).serialize();
  BOOST_TEST(!TeamPatternWeights::is_team_file(two_player_bytes));
  BOOST_TEST(refusal(two_player_bytes).find("no QXE4 header") != std::string::npos);
  BOOST_CHECK_THROW((void)PatternWeights::parse(bytes), WeightsFileError);
}

BOOST_AUTO_TEST_CASE(the_team_evaluator_chooses_between_hand_and_learned) {
  const auto weights = std::make_shared<const TeamPatternWeights>(random_team_weights(3u));
  const TeamEvaluator hand, learned(weights);
  BOOST_TEST(hand.learned() == nullptr);
  BOOST_TEST(learned.learned() == weights.get());
  BOOST_TEST(TeamEvaluator::builtin_learned().learned() == &builtin_team_weights());
  for (const Position4& position : team_positions(900u, 200)) {
    const SlideSet own = team_scan(position).wins, other = opponent_team_wins(position);
    BOOST_TEST(hand(position, own, other) == evaluate(position, own, other));
    BOOST_TEST(learned(position, own, other) == weights->evaluate(position, own, other));
  }
  const std::vector<std::string> lines = learned.breakdown_lines(Position4::start());
  BOOST_TEST_REQUIRE(!lines.empty());
  BOOST_TEST(lines.back() ==
             "total " + std::to_string(weights->evaluate(Position4::start())) + " (team to move)");
}

BOOST_AUTO_TEST_CASE(the_built_in_team_weights_are_fitted_ones) {
  // Not the zeros of an empty file: in every phase with blanks and every line class, three of
  // the team to move's cubes and two blanks are worth more than three of the other team's, and a
  // win in one that the next opponent holds costs the team to move.
  const auto weights = builtin_team_weights().weights();
  const int three_own = 1 + 3 + 9, three_other = 2 * three_own;  // cells 0-2, cells 3-4 blank
  for (int phase = phase_of(2); phase < kPhases; ++phase) {
    const int base = phase * kTeamFeaturesPerPhase;
    for (int line_class = 0; line_class < kLineClasses; ++line_class) {
      const int at = base + line_class * kCanonicalContents;
      BOOST_TEST(weights[std::size_t(at + canonical_content(three_own))] >
                     weights[std::size_t(at + canonical_content(three_other))],
                 "phase " << phase << " class " << line_class);
    }
    BOOST_TEST(weights[std::size_t(base + kTeamWinFeature)] < 0, "phase " << phase);
  }
}

BOOST_AUTO_TEST_CASE(the_team_search_plays_with_the_learned_weights) {
  Engine4 engine;
  EngineOptions options;
  options.threads = 1;
  options.hash_mb = 1;
  engine.set_options(options);
  // Weights whose only term is a bias of 33: every leaf scores 33 for its team to move, so a
  // depth-1 search scores -33 (the children have the other team to move).
  std::vector<std::int16_t> bias(kTeamFeatureCount, 0);
  for (int phase = 0; phase < kPhases; ++phase)
    bias[std::size_t(phase * kTeamFeaturesPerPhase + kTeamBiasFeature)] = 33;
  engine.set_evaluator(TeamEvaluator(std::make_shared<const TeamPatternWeights>(bias)));
  BOOST_TEST(engine.evaluator().learned() != nullptr);
  const auto run = test::search(engine, Position4::start(), test::depth_limit(1));
  BOOST_TEST(run.last().score == -33);
  // A win in one is taken whatever the weights say.
  engine.set_evaluator(
      TeamEvaluator(std::make_shared<const TeamPatternWeights>(random_team_weights(17u))));
  const Position4 win = parse_position4("5/5/5/5/XXXX1 1");
  const auto won = test::search(engine, win, test::depth_limit(3));
  BOOST_TEST(won.bestmove_count == 1);
  BOOST_TEST((win.after(won.best).outcome() == Outcome::XWins));
}

BOOST_AUTO_TEST_SUITE_END()
