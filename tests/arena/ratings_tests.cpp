// The arena's Bradley-Terry ratings (ratings.hpp) against independently computed vectors.
//
// Reference values: a python3 script that fits the ratings by Hunter's MM iteration (a different
// algorithm from the Newton solver under test) and applies the documented error formulas.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "elo.hpp"
#include "ratings.hpp"
#include "support/statistics_test_support.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo::arena;
using namespace quixo::arena::statistics_test;

namespace {

// The four-player pool of the Bradley-Terry reference (no game between players 2 and 3):
// (first, second, first's wins, draws, first's losses).
std::vector<PairingResult> four_player_pool() {
  return {
      {0, 1, Trinomial{8, 20, 12}}, {0, 2, Trinomial{15, 10, 5}}, {0, 3, Trinomial{3, 6, 9}},
      {1, 2, Trinomial{9, 14, 7}},  {1, 3, Trinomial{2, 4, 10}},
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ratings_tests)

// --- Bradley-Terry -----------------------------------------------------------------------------

// A planted round robin: strengths 1 : 2 : 4 (10^(elo/400)), 30 games per pairing, each
// pairing's score exactly its expectation (A-B 10/30, A-C 6/30, B-C 10/30). The score equations
// then hold at the planted strengths, so the ratings are -400 log10 2, 0, +400 log10 2 around
// their mean, exactly.
BOOST_AUTO_TEST_CASE(planted_round_robin_is_recovered) {
  const std::vector<PairingResult> games = {
      {0, 1, Trinomial{16, 8, 6}}, {0, 2, Trinomial{20, 8, 2}}, {1, 2, Trinomial{15, 10, 5}}};
  const double step = 400.0 * std::log10(2.0);  // 120.41199826559...
  const Ratings r = bradley_terry(3, games);
  BOOST_TEST(r.converged);
  CHECK_CLOSE(r.elo[0], -step, 1e-8);
  CHECK_CLOSE(r.elo[1], 0.0, 1e-8);
  CHECK_CLOSE(r.elo[2], step, 1e-8);
  BOOST_TEST(r.points == (std::vector<double>{16.0, 30.0, 44.0}));
  BOOST_TEST(r.games == (std::vector<double>{60.0, 60.0, 60.0}));
  // Errors from the MM reference script.
  CHECK_CLOSE(r.error[0], 27.5860898946, 1e-7);
  CHECK_CLOSE(r.error[1], 25.8152667255, 1e-7);
  CHECK_CLOSE(r.error[2], 26.7322357871, 1e-7);
  CHECK_CLOSE(r.difference_error[0][1], 46.2626012388, 1e-7);
  CHECK_CLOSE(r.difference_error[0][2], 47.7993888622, 1e-7);
  CHECK_CLOSE(r.difference_error[1][2], 44.7335276599, 1e-7);
  CHECK_CLOSE(r.los[0][1], 0.004623381374, 1e-10);

  RatingOptions fisher;
  fisher.robust_errors = false;
  const Ratings f = bradley_terry(3, games, fisher);
  CHECK_CLOSE(f.elo[2], step, 1e-8);
  CHECK_CLOSE(f.error[0], 34.3377455954, 1e-7);
  CHECK_CLOSE(f.error[1], 31.7163845785, 1e-7);
  CHECK_CLOSE(f.error[2], 34.3377455954, 1e-7);
  CHECK_CLOSE(f.difference_error[0][2], 60.9130038627, 1e-7);
  CHECK_CLOSE(f.los[0][1], 0.016518900740, 1e-10);
}

// The MM reference script's figures for the irregular pool (one pairing never played): the
// ratings, their robust and Fisher errors, the two errors of the difference 0 - 3, and the LOS of
// 1 over 3, with the ratings centred on 0, anchored on a player, or with prior draws per pairing.
struct PoolReference {
  const char* name;
  std::optional<std::size_t> anchor;
  double prior_draws;
  std::array<double, 4> elo, robust, fisher;
  double robust_03, fisher_03, los_13;
};
std::ostream& operator<<(std::ostream& out, const PoolReference& reference) {
  return out << reference.name;
}

const std::vector<PoolReference> kPoolReferences = {
    {"centred on 0",
     std::nullopt,
     0.0,
     {16.4803019008, 24.4659617920, 90.9188131749, -131.8650768676},
     {22.6907829181, 22.5956683038, 29.2695957587, 40.3121391338},
     {29.5666413343, 30.0911412607, 38.0316771962, 50.3726649525},
     54.8451869603,
     68.5735844389,
     0.997750586983},
    {"anchored on player 2",
     2,
     0.0,
     {-74.4385112741, -66.4528513828, 0.0, -222.7838900425},
     {38.7308924713, 38.2447522505, 0.0, 63.0183107528},
     {50.9113107885, 50.8224721935, 0.0, 79.8387471238},
     54.8451869603,
     68.5735844389,
     0.997750586983},
    {"two prior draws",
     std::nullopt,
     2.0,
     {13.5246102380, 20.7705034559, 83.0787400830, -117.3738537769},
     {20.8094812782, 20.7159341690, 27.0201930141, 35.3559054704},
     {28.2683426525, 28.7235341688, 36.4637354125, 46.8064150793},
     48.2286933170,
     63.8912510181,
     0.997820995917},
};

BOOST_DATA_TEST_CASE(irregular_pool_matches_the_reference, bdata::make(kPoolReferences),
                     reference) {
  RatingOptions options;
  options.anchor = reference.anchor;
  options.prior_draws = reference.prior_draws;
  const Ratings r = bradley_terry(4, four_player_pool(), options);
  BOOST_TEST(r.converged);
  BOOST_TEST(r.iterations < 20);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK_CLOSE(r.elo[i], reference.elo[i], 1e-7);
    CHECK_CLOSE(r.error[i], reference.robust[i], 1e-7);
    CHECK_CLOSE(r.los[i][i], 0.5, 0.0);
    for (std::size_t j = 0; j < 4; ++j) {
      CHECK_CLOSE(r.los[i][j] + r.los[j][i], 1.0, 1e-12);
      CHECK_CLOSE(r.difference_error[i][j], r.difference_error[j][i], 1e-9);
    }
  }
  CHECK_CLOSE(r.difference_error[0][3], reference.robust_03, 1e-7);
  CHECK_CLOSE(r.los[1][3], reference.los_13, 1e-10);

  options.robust_errors = false;
  const Ratings f = bradley_terry(4, four_player_pool(), options);
  for (std::size_t i = 0; i < 4; ++i) CHECK_CLOSE(f.error[i], reference.fisher[i], 1e-7);
  CHECK_CLOSE(f.difference_error[0][3], reference.fisher_03, 1e-7);
}

// Two players: the rating difference is the Elo of the score, and its robust standard error is
// the delta-method error of the score, (400 / ln 10) * sqrt(var / n) / (s (1 - s)); the Fisher
// error is (400 / ln 10) / sqrt(n s (1 - s)).
BOOST_AUTO_TEST_CASE(two_players_reduce_to_the_pairing) {
  const Trinomial results{20, 50, 30};
  const Ratings r = bradley_terry(2, {{0, 1, results}});
  const EloEstimate e = estimate_elo(results);
  BOOST_TEST(r.converged);
  CHECK_CLOSE(r.elo[0] - r.elo[1], e.elo, 1e-9);
  CHECK_CLOSE(r.elo[0] + r.elo[1], 0.0, 1e-9);
  CHECK_CLOSE(r.difference_error[0][1], 24.566152511699, 1e-8);
  CHECK_CLOSE(r.error[0], 24.566152511699 / 2.0, 1e-8);
  CHECK_CLOSE(r.los[0][1], normal_cdf(e.elo / 24.566152511699), 1e-10);
  RatingOptions fisher;
  fisher.robust_errors = false;
  CHECK_CLOSE(bradley_terry(2, {{1, 0, results.reversed()}}, fisher).difference_error[0][1],
              34.918590181694, 1e-8);
}

// Entries may come in either order and in pieces; the ratings are the same.
BOOST_AUTO_TEST_CASE(entries_are_summed_in_either_order) {
  std::vector<PairingResult> split;
  for (const PairingResult& p : four_player_pool()) {
    const Trinomial half{p.result.losses / 2, p.result.draws / 2, p.result.wins / 2};
    const Trinomial rest{p.result.losses - half.losses, p.result.draws - half.draws,
                         p.result.wins - half.wins};
    split.push_back({p.first, p.second, half});
    split.push_back({p.second, p.first, rest.reversed()});
  }
  const Ratings a = bradley_terry(4, four_player_pool());
  const Ratings b = bradley_terry(4, split);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK_CLOSE(a.elo[i], b.elo[i], 1e-9);
    CHECK_CLOSE(a.error[i], b.error[i], 1e-9);
  }
}

// Anchoring moves the ratings, not their differences; the anchor carries no error.
BOOST_AUTO_TEST_CASE(anchor_and_offset) {
  RatingOptions options;
  options.anchor = 3;
  options.anchor_elo = 1500;
  const Ratings anchored = bradley_terry(4, four_player_pool(), options);
  const Ratings centred = bradley_terry(4, four_player_pool());
  BOOST_TEST(anchored.elo[3] == 1500.0);
  BOOST_TEST(anchored.error[3] == 0.0);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK_CLOSE(anchored.elo[i] - anchored.elo[3], centred.elo[i] - centred.elo[3], 1e-8);
    CHECK_CLOSE(anchored.error[i], centred.difference_error[i][3], 1e-8);
    for (std::size_t j = 0; j < 4; ++j) {
      CHECK_CLOSE(anchored.difference_error[i][j], centred.difference_error[i][j], 1e-8);
      CHECK_CLOSE(anchored.los[i][j], centred.los[i][j], 1e-10);
    }
  }
  options.anchor.reset();
  const Ratings mean = bradley_terry(4, four_player_pool(), options);
  double sum = 0;
  for (const double x : mean.elo) sum += x;
  CHECK_CLOSE(sum / 4.0, 1500.0, 1e-8);
}

// Player 2 wins every game: no finite maximum-likelihood rating exists; a prior fixes that.
BOOST_AUTO_TEST_CASE(a_perfect_score_needs_a_prior) {
  const std::vector<PairingResult> games = {
      {0, 1, Trinomial{5, 10, 5}}, {2, 0, Trinomial{0, 0, 10}}, {2, 1, Trinomial{0, 0, 10}}};
  const Ratings pure = bradley_terry(3, games);
  BOOST_TEST(!pure.converged);
  BOOST_TEST(pure.elo[2] > pure.elo[0] + 1000.0);
  RatingOptions options;
  options.prior_draws = 2.0;
  const Ratings prior = bradley_terry(3, games, options);
  BOOST_TEST(prior.converged);
  BOOST_TEST(std::isfinite(prior.elo[2]));
  BOOST_TEST(prior.elo[2] > prior.elo[0] + 100.0);
  CHECK_CLOSE(prior.elo[0], prior.elo[1], 1e-9);  // they drew level with each other
  BOOST_TEST(prior.los[2][0] > 0.99);
  // The points and games do not count the virtual draws.
  BOOST_TEST(prior.points == (std::vector<double>{10.0, 10.0, 20.0}));
  BOOST_TEST(prior.games == (std::vector<double>{30.0, 30.0, 20.0}));
}

BOOST_AUTO_TEST_CASE(ratings_refuse_bad_input) {
  BOOST_TEST(players_connected(3, {{0, 1, Trinomial{1, 0, 0}}, {1, 2, Trinomial{0, 1, 0}}}));
  BOOST_TEST(!players_connected(3, {{0, 1, Trinomial{1, 0, 0}}}));
  BOOST_TEST(!players_connected(3, {{0, 1, Trinomial{1, 0, 0}}, {1, 2, Trinomial{}}}));
  BOOST_CHECK_THROW(bradley_terry(3, {{0, 1, Trinomial{1, 0, 0}}}), std::invalid_argument);
  BOOST_CHECK_THROW(bradley_terry(2, {{0, 2, Trinomial{1, 0, 0}}}), std::invalid_argument);
  BOOST_CHECK_THROW(bradley_terry(2, {{1, 1, Trinomial{1, 0, 0}}}), std::invalid_argument);
  BOOST_CHECK_THROW(bradley_terry(2, {{0, 1, Trinomial{-1, 0, 3}}}), std::invalid_argument);
  RatingOptions options;
  options.anchor = 2;
  BOOST_CHECK_THROW(bradley_terry(2, {{0, 1, Trinomial{1, 0, 1}}}, options), std::invalid_argument);
  options.anchor.reset();
  options.prior_draws = -1;
  BOOST_CHECK_THROW(bradley_terry(2, {{0, 1, Trinomial{1, 0, 1}}}, options), std::invalid_argument);

  const Ratings none = bradley_terry(0, {});
  BOOST_TEST(none.elo.empty());
  const Ratings one = bradley_terry(1, {});
  BOOST_TEST(one.converged);
  BOOST_TEST(one.elo == (std::vector<double>{0.0}));
  BOOST_TEST(one.error == (std::vector<double>{0.0}));
  BOOST_TEST(one.los == (std::vector<std::vector<double>>{{0.5}}));
}

BOOST_AUTO_TEST_SUITE_END()
