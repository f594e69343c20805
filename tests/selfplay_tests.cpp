// The self-play match benchmark: its statistics against hand-computed values, its openings, and
// a tiny real match whose every game is replayed and checked against the rules.
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "bench/selfplay.hpp"
#include "core/move_scan.hpp"
#include "core/position.hpp"

using namespace quixo;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A tiny match: 300 nodes per move keeps each game to a fraction of a second.
MatchConfig tiny_match(int pairs, int concurrency) {
  MatchConfig config;
  config.a.hash_mb = config.b.hash_mb = 1;
  config.b.features.late_move_reductions = false;
  config.nodes_per_move = 300;
  config.game_pairs = pairs;
  config.opening_plies = 6;
  config.seed = 7;
  config.concurrency = concurrency;
  return config;
}

// Replays a game from the start and checks that its record agrees with the rules.
void check_game(const GameRecord& game, const MatchConfig& config) {
  BOOST_TEST((game.end != GameEnd::Unfinished));
  BOOST_TEST(int(game.opening.size()) == config.opening_plies);
  BOOST_TEST(game.plies() <= config.max_plies);
  Position position = Position::start();
  std::vector<std::uint64_t> keys = {position.key()};
  for (const Move move : game.opening) {
    BOOST_TEST_REQUIRE(position.is_legal(move));
    position = position.after(move);
    keys.push_back(position.key());
  }
  for (const Move move : game.moves) {
    BOOST_TEST_REQUIRE((position.outcome() == Outcome::Ongoing));
    BOOST_TEST_REQUIRE(position.is_legal(move));
    position = position.after(move);
    keys.push_back(position.key());
  }
  BOOST_TEST((position == game.final_position));
  int repeats = 0;
  for (const std::uint64_t key : keys) repeats += key == position.key();
  switch (game.end) {
    case GameEnd::Line: {
      const Outcome outcome = position.outcome();
      BOOST_TEST_REQUIRE((outcome != Outcome::Ongoing));
      const bool a_won = (outcome == Outcome::XWins) == game.a_is_x;
      BOOST_TEST((game.result == (a_won ? GameResult::AWins : GameResult::BWins)));
      break;
    }
    case GameEnd::Repetition:
      BOOST_TEST((position.outcome() == Outcome::Ongoing));
      BOOST_TEST(repeats == 3);
      BOOST_TEST((game.result == GameResult::Draw));
      break;
    case GameEnd::PlyCap:
      BOOST_TEST((position.outcome() == Outcome::Ongoing));
      BOOST_TEST(game.plies() == config.max_plies);
      BOOST_TEST((game.result == GameResult::Draw));
      break;
    case GameEnd::IllegalMove:
    case GameEnd::Unfinished:
      BOOST_TEST(false, "game ended by " << to_string(game.end));
      break;
  }
}

// Every game of a match replayed, the counts and the pairing checked.
void check_match(const MatchResult& result, const MatchConfig& config) {
  BOOST_TEST_REQUIRE(int(result.games.size()) == 2 * config.game_pairs);
  int wins = 0, losses = 0, draws = 0;
  std::array<int, 5> pentanomial = {0, 0, 0, 0, 0};
  for (int pair = 0; pair < config.game_pairs; ++pair) {
    const GameRecord& first = result.games[std::size_t(2 * pair)];
    const GameRecord& second = result.games[std::size_t(2 * pair + 1)];
    BOOST_TEST(first.pair == pair);
    BOOST_TEST(second.pair == pair);
    BOOST_TEST(first.a_is_x);
    BOOST_TEST(!second.a_is_x);
    BOOST_TEST((first.opening == second.opening));
    ++pentanomial[std::size_t(first.half_points_a() + second.half_points_a())];
    for (const GameRecord* game : {&first, &second}) {
      check_game(*game, config);
      wins += game->result == GameResult::AWins;
      losses += game->result == GameResult::BWins;
      draws += game->result == GameResult::Draw;
    }
  }
  BOOST_TEST(result.wins_a == wins);
  BOOST_TEST(result.losses_a == losses);
  BOOST_TEST(result.draws == draws);
  BOOST_TEST(result.pentanomial == pentanomial);
  BOOST_TEST(result.pairs() == config.game_pairs);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(selfplay_tests)

BOOST_AUTO_TEST_CASE(elo_of_a_score) {
  BOOST_TEST(elo_from_score(0.5) == 0.0);
  // -400 log10(1/0.75 - 1) = 400 log10(3) = 190.8485
  BOOST_TEST(elo_from_score(0.75) == 190.8485, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(elo_from_score(0.25) == -190.8485, boost::test_tools::tolerance(1e-6));
  // 400 log10(9) = 381.6970
  BOOST_TEST(elo_from_score(0.9) == 381.6970, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(elo_from_score(1.0) == kInfinity);
  BOOST_TEST(elo_from_score(0.0) == -kInfinity);
}

BOOST_AUTO_TEST_CASE(pair_score_mean_and_variance) {
  const PairScoreMoments even = pair_score_moments({0, 0, 10, 0, 0});
  BOOST_TEST(even.mean == 1.0);
  BOOST_TEST(even.variance == 0.0);
  // pair scores 0, 0.5, 0.5, 1, 1, 1, 1.5, 1.5, 1.5, 1.5: mean 1, squared deviations
  // 1 + 2 * 0.25 + 0 + 4 * 0.25 = 2.5 over 10 pairs
  const PairScoreMoments spread = pair_score_moments({1, 2, 3, 4, 0});
  BOOST_TEST(spread.mean == 1.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(spread.variance == 0.25, boost::test_tools::tolerance(1e-12));
  const PairScoreMoments none = pair_score_moments({0, 0, 0, 0, 0});
  BOOST_TEST(none.mean == 0.0);
  BOOST_TEST(none.variance == 0.0);
}

BOOST_AUTO_TEST_CASE(statistics_of_all_draws) {
  const MatchStatistics stats = match_statistics({0, 0, 10, 0, 0});
  BOOST_TEST(stats.pairs == 10);
  BOOST_TEST(stats.score == 0.5);
  BOOST_TEST(stats.score_error == 0.0);
  BOOST_TEST(stats.elo == 0.0);
  BOOST_TEST(stats.elo_low == 0.0);
  BOOST_TEST(stats.elo_high == 0.0);
  BOOST_TEST(stats.los == 0.5);
}

BOOST_AUTO_TEST_CASE(statistics_of_a_winning_match) {
  // Five drawn pairs (1 point) and five pairs won twice (2 points): mean 1.5, variance 0.25.
  // Score 0.75, standard error sqrt(0.25 / 10) / 2 = 0.0790569; 95% bounds 0.75 -+ 0.1549516.
  const MatchStatistics stats = match_statistics({0, 0, 5, 0, 5});
  const auto tolerance = boost::test_tools::tolerance(1e-4);
  BOOST_TEST(stats.pairs == 10);
  BOOST_TEST(stats.score == 0.75, tolerance);
  BOOST_TEST(stats.score_error == 0.0790569, tolerance);
  BOOST_TEST(stats.elo == 190.8485, tolerance);
  BOOST_TEST(stats.elo_low == 66.8597, tolerance);    // -400 log10(1/0.5950484 - 1)
  BOOST_TEST(stats.elo_high == 391.4722, tolerance);  // -400 log10(1/0.9049516 - 1)
  // Phi(0.25 / 0.0790569) = Phi(3.16228)
  BOOST_TEST(stats.los == 0.9992173, tolerance);
}

BOOST_AUTO_TEST_CASE(statistics_of_an_even_but_noisy_match) {
  // Mean 1, variance 0.25 as above: Elo 0 with a symmetric interval, LOS one half.
  const MatchStatistics stats = match_statistics({1, 2, 3, 4, 0});
  const auto tolerance = boost::test_tools::tolerance(1e-4);
  BOOST_TEST(stats.score == 0.5, tolerance);
  BOOST_TEST(std::abs(stats.elo) < 1e-9);
  BOOST_TEST(stats.elo_low == -111.3317, tolerance);  // -400 log10(1/0.3450484 - 1)
  BOOST_TEST(stats.elo_high == 111.3317, tolerance);
  BOOST_TEST(stats.los == 0.5, tolerance);
}

BOOST_AUTO_TEST_CASE(statistics_at_the_extremes) {
  const MatchStatistics all_won = match_statistics({0, 0, 0, 0, 4});
  BOOST_TEST(all_won.score == 1.0);
  BOOST_TEST(all_won.elo == kInfinity);
  BOOST_TEST(all_won.los == 1.0);
  const MatchStatistics all_lost = match_statistics({3, 0, 0, 0, 0});
  BOOST_TEST(all_lost.elo == -kInfinity);
  BOOST_TEST(all_lost.los == 0.0);
  const MatchStatistics empty = match_statistics({0, 0, 0, 0, 0});
  BOOST_TEST(empty.pairs == 0);
  BOOST_TEST(empty.score == 0.5);
  BOOST_TEST(empty.elo == 0.0);
  BOOST_TEST(empty.los == 0.5);
}

BOOST_AUTO_TEST_CASE(random_openings_are_quiet_and_reproducible) {
  std::mt19937 rng(42), again(42);
  for (int round = 0; round < 200; ++round) {
    const int plies = round % 13;
    const std::vector<Move> opening = random_opening(plies, rng);
    BOOST_TEST_REQUIRE(int(opening.size()) == plies);
    BOOST_TEST((opening == random_opening(plies, again)));
    Position position = Position::start();
    for (const Move move : opening) {
      const MoveScan scan = scan_moves(position);
      BOOST_TEST_REQUIRE(position.is_legal(move));
      BOOST_TEST((scan.wins >> move.slide() & 1) == 0u);
      BOOST_TEST((scan.losses >> move.slide() & 1) == 0u);
      position = position.after(move);
    }
    BOOST_TEST((position.outcome() == Outcome::Ongoing));
    BOOST_TEST(scan_moves(position).wins == 0u);
  }
}

BOOST_AUTO_TEST_CASE(match_needs_a_limit) {
  MatchConfig config = tiny_match(1, 1);
  config.nodes_per_move = 0;
  BOOST_CHECK_THROW(play_match(config), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(tiny_match_completes) {
  const MatchConfig config = tiny_match(2, 2);
  // The callback runs on the match's threads, where Boost.Test must not be used: record only.
  std::vector<int> pairs_done_seen, pairs_counted;
  bool games_listed = false;
  const MatchResult result = play_match(config, [&](int pairs_done, const MatchResult& totals) {
    pairs_done_seen.push_back(pairs_done);
    pairs_counted.push_back(totals.pairs());
    games_listed = games_listed || !totals.games.empty();
  });
  check_match(result, config);
  BOOST_TEST(pairs_done_seen == (std::vector<int>{1, 2}));
  BOOST_TEST(pairs_counted == (std::vector<int>{1, 2}));
  BOOST_TEST(!games_listed);
  BOOST_TEST(result.wins_a + result.losses_a + result.draws == 4);
}

BOOST_AUTO_TEST_CASE(match_does_not_depend_on_concurrency) {
  // One thread per engine and a node limit make every search deterministic, and the openings
  // are drawn before any game starts: the same games whatever the concurrency.
  const MatchResult serial = play_match(tiny_match(2, 1));
  const MatchResult parallel = play_match(tiny_match(2, 2));
  BOOST_TEST_REQUIRE(serial.games.size() == parallel.games.size());
  for (std::size_t i = 0; i < serial.games.size(); ++i) {
    BOOST_TEST((serial.games[i].moves == parallel.games[i].moves));
    BOOST_TEST((serial.games[i].end == parallel.games[i].end));
  }
  BOOST_TEST(serial.pentanomial == parallel.pentanomial);
}

BOOST_AUTO_TEST_CASE(ply_cap_ends_games_as_draws) {
  MatchConfig config = tiny_match(1, 1);
  config.max_plies = config.opening_plies + 2;  // no line is possible before ply 9
  const MatchResult result = play_match(config);
  check_match(result, config);
  for (const GameRecord& game : result.games) {
    BOOST_TEST(game.plies() == config.max_plies);
    BOOST_TEST((game.end == GameEnd::PlyCap));
  }
  BOOST_TEST(result.draws == 2);
  BOOST_TEST((result.pentanomial == std::array<int, 5>{0, 0, 1, 0, 0}));
}

BOOST_AUTO_TEST_SUITE_END()
