// The arena's Elo statistics of one pairing (elo.hpp) against published formulas and
// independently computed vectors.
//
// Reference values: fishtest's server/fishtest/stats/stat_util.py (get_elo), transcribed to a
// stand-alone python3 script with scipy replaced by the standard library (norm.cdf/ppf by
// statistics.NormalDist) and run on this machine; the numbers are pasted below with 12 or more
// decimals. Normalised Elo is fastchess's (score - 0.5) / sigma_per_game * 800 / ln 10 computed in
// the same script from get_elo's mean and per-game variance.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "elo.hpp"
#include "support/statistics_test_support.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo::arena;
using namespace quixo::arena::statistics_test;

namespace {

struct EloSample {
  std::array<std::int64_t, 5> counts;
  double score, game_variance, elo, elo_error, los, nelo, nelo_error;
};
std::ostream& operator<<(std::ostream& out, const EloSample& s) {
  out << "[";
  for (const auto c : s.counts) out << c << " ";
  return out << "]";
}

const std::vector<EloSample> kPentanomialElo = {
    {{10, 20, 30, 20, 10},
     0.500000000000000,
     0.166666666666667,
     -0.000000000000,
     41.640216343734,
     0.500000000000000,
     0.000000000000,
     50.755853684830},
    {{1187, 7410, 13475, 7378, 1164},
     0.499363036519240,
     0.098777525263744,
     -0.442607799224,
     1.729859027618,
     0.308013879122690,
     -0.704141208230,
     2.751993175274},
    {{10789, 19328, 33806, 19402, 10543},
     0.498886734563430,
     0.165200252775427,
     -0.773577335917,
     1.277579895728,
     0.117658858032775,
     -0.951629004473,
     1.571623844112},
    {{39, 2226, 31451, 2412, 40},
     0.501299491262995,
     0.017118111253630,
     0.902981048809,
     0.662531485982,
     0.996222097335421,
     3.450799606946,
     2.531891813015},
    {{5, 30, 120, 40, 3},
     0.507575757575758,
     0.064279155188246,
     5.264578423188,
     17.370065778877,
     0.723950819841550,
     10.381623792936,
     34.219589573517},
    {{2, 20, 60, 30, 8},
     0.545833333333333,
     0.089548611111111,
     31.937919086056,
     26.583283461481,
     0.991172633378002,
     53.214050147584,
     43.955858681829},
    {{100, 800, 2000, 900, 150},
     0.512658227848101,
     0.085122576510175,
     8.797717482467,
     4.473667525500,
     0.999942427817714,
     15.073872125982,
     7.661412460165},
    {{3, 40, 180, 60, 2},
     0.515789473684211,
     0.052132963988920,
     10.975299338776,
     13.043948187084,
     0.950631411077892,
     24.026236266028,
     28.522327449557},
};

struct TrinomialEloSample {
  std::array<std::int64_t, 3> ldw;
  double score, game_variance, elo, elo_error, los, nelo, nelo_error;
};
std::ostream& operator<<(std::ostream& out, const TrinomialEloSample& s) {
  return out << "[" << s.ldw[0] << " " << s.ldw[1] << " " << s.ldw[2] << "]";
}

const std::vector<TrinomialEloSample> kTrinomialElo = {
    {{65804, 56553, 65388},
     0.498892114303976,
     0.174693171907509,
     -0.769839090860,
     1.313742840854,
     0.125375552716117,
     -0.920939897846,
     1.571586173910},
    {{591, 2163, 716},
     0.518011527377522,
     0.093839850011212,
     12.521109046024,
     7.092605276897,
     0.999733452556595,
     20.428251141907,
     11.559995151092},
    {{1500, 4000, 1450},
     0.496402877697842,
     0.106102168624812,
     -2.499579710801,
     5.322045251977,
     0.178621621416360,
     -3.836784192197,
     8.168268160798},
    {{20, 50, 35},
     0.571428571428571,
     0.125850340136054,
     49.975494643320,
     48.463779643024,
     0.980452753574773,
     69.955049106097,
     66.455011849383},
    {{20, 50, 30},
     0.550000000000000,
     0.122500000000000,
     34.860070287560,
     48.470228059870,
     0.923436274490165,
     49.633655074657,
     68.096123457188},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(elo_tests)

// --- Scales ------------------------------------------------------------------------------------

// score -> Elo: -400 log10(1/s - 1); e.g. 0.75 -> 400 log10 3 = 190.8485, 0.9 -> 400 log10 9.
BOOST_DATA_TEST_CASE(scores_to_elo,
                     bdata::make({0.75, 0.25, 0.5, 0.9, 0.6400649998028851, 1.0 / 11.0}) ^
                         bdata::make({190.848501887865, -190.848501887865, 0.0, 381.697003775730,
                                      100.0, -400.0}),
                     score, elo) {
  CHECK_CLOSE(score_to_elo(score), elo, 1e-9);
  CHECK_CLOSE(elo_to_score(elo), score, 1e-14);
  CHECK_CLOSE(elo_to_score(score_to_elo(score)), score, 1e-14);
}

BOOST_AUTO_TEST_CASE(elo_scale_edges) {
  BOOST_TEST(score_to_elo(1.0) == kInf);
  BOOST_TEST(score_to_elo(0.0) == -kInf);
  BOOST_TEST(std::isnan(score_to_elo(1.5)));
  BOOST_TEST(std::isnan(score_to_elo(-0.1)));
  BOOST_TEST(elo_to_score(0.0) == 0.5);
  CHECK_CLOSE(kNeloPerT, 800.0 / std::log(10.0), 1e-12);
}

// Quantiles from python's statistics.NormalDist().inv_cdf.
BOOST_DATA_TEST_CASE(normal_quantiles,
                     bdata::make({0.975, 0.995, 0.9, 0.95, 1e-10, 0.5, 0.999999}) ^
                         bdata::make({1.9599639845400536, 2.5758293035489, 1.2815515655446008,
                                      1.6448536269514715, -6.361340902404056, 0.0,
                                      4.753424308822899}),
                     p, z) {
  // python rounds 0.999999 to 1e-6 in the tail where the double 0.999999 leaves
  // 1.00000000000287e-6, hence a relative 1e-11; 1 - p is inexact for p = 1e-10, hence 1e-7.
  CHECK_CLOSE(normal_quantile(p), z, 1e-11 * std::max(1.0, std::fabs(z)));
  CHECK_CLOSE(normal_quantile(1.0 - p), -z, 1e-7);
  CHECK_CLOSE(normal_cdf(z), p, 1e-15);
}

// --- One pairing -------------------------------------------------------------------------------

BOOST_DATA_TEST_CASE(pentanomial_elo_matches_fishtest_get_elo, bdata::make(kPentanomialElo), s) {
  const EloEstimate e = estimate_elo(penta(s.counts));
  std::int64_t pairs = 0;
  for (const auto c : s.counts) pairs += c;
  BOOST_TEST(e.samples == static_cast<double>(pairs));
  BOOST_TEST(e.games == 2.0 * static_cast<double>(pairs));
  CHECK_CLOSE(e.score, s.score, 1e-14);
  CHECK_CLOSE(2.0 * e.variance, s.game_variance, 1e-14);
  CHECK_CLOSE(e.elo, s.elo, 1e-9);
  CHECK_CLOSE(e.elo_error, s.elo_error, 1e-9);
  CHECK_CLOSE(e.los, s.los, 1e-12);
  CHECK_CLOSE(e.nelo, s.nelo, 1e-9);
  CHECK_CLOSE(e.nelo_error, s.nelo_error, 1e-9);
  CHECK_CLOSE(e.score_error, std::sqrt(e.variance / e.samples), 1e-15);
  CHECK_CLOSE(e.draw_ratio, static_cast<double>(s.counts[2]) / static_cast<double>(pairs), 1e-15);
  BOOST_TEST(e.elo_lower <= e.elo);
  BOOST_TEST(e.elo <= e.elo_upper);
  CHECK_CLOSE((e.elo_upper - e.elo_lower) / 2.0, e.elo_error, 1e-12);
}

BOOST_DATA_TEST_CASE(trinomial_elo_matches_fishtest_get_elo, bdata::make(kTrinomialElo), s) {
  const Trinomial t = tri(s.ldw);
  const EloEstimate e = estimate_elo(t);
  BOOST_TEST(e.samples == static_cast<double>(t.games()));
  BOOST_TEST(e.games == static_cast<double>(t.games()));
  CHECK_CLOSE(e.score, s.score, 1e-14);
  CHECK_CLOSE(e.variance, s.game_variance, 1e-14);
  CHECK_CLOSE(e.elo, s.elo, 1e-9);
  CHECK_CLOSE(e.elo_error, s.elo_error, 1e-9);
  CHECK_CLOSE(e.los, s.los, 1e-12);
  CHECK_CLOSE(e.nelo, s.nelo, 1e-9);
  CHECK_CLOSE(e.nelo_error, s.nelo_error, 1e-9);
  CHECK_CLOSE(e.draw_ratio, static_cast<double>(t.draws) / static_cast<double>(t.games()), 1e-15);
}

// Worked by hand: +30 =50 -20 scores 0.55 with per-game variance
// 0.3 * 0.45^2 + 0.5 * 0.05^2 + 0.2 * 0.55^2 = 0.1225, sigma 0.35, standard error 0.035.
BOOST_AUTO_TEST_CASE(trinomial_worked_example) {
  const EloEstimate e = estimate_elo(Trinomial{20, 50, 30});
  CHECK_CLOSE(e.score, 0.55, 1e-15);
  CHECK_CLOSE(e.variance, 0.1225, 1e-15);
  CHECK_CLOSE(e.score_error, 0.035, 1e-15);
  CHECK_CLOSE(e.elo, 400.0 * std::log10(0.55 / 0.45), 1e-10);
  CHECK_CLOSE(e.elo_lower, -12.929693470338, 1e-9);
  CHECK_CLOSE(e.elo_upper, 84.010762649402, 1e-9);
  CHECK_CLOSE(e.nelo, 0.05 / 0.35 * kNeloPerT, 1e-10);
  CHECK_CLOSE(e.los, normal_cdf(0.05 / 0.035), 1e-15);
  CHECK_CLOSE(e.draw_ratio, 0.5, 1e-15);
  // A 90% interval is narrower.
  const EloEstimate narrow = estimate_elo(Trinomial{20, 50, 30}, 0.90);
  BOOST_TEST(narrow.elo_error < e.elo_error);
  CHECK_CLOSE(narrow.nelo_error, 1.6448536269514715 * 0.035 / 0.35 * kNeloPerT, 1e-9);
}

// A symmetric pentanomial is an even match whatever its spread.
BOOST_DATA_TEST_CASE(symmetric_pentanomials_are_even, bdata::make({0, 1, 2, 3}), which) {
  const std::array<std::array<std::int64_t, 5>, 4> samples = {
      {{10, 20, 30, 20, 10}, {1, 0, 0, 0, 1}, {0, 7, 100, 7, 0}, {5, 5, 5, 5, 5}}};
  const EloEstimate e = estimate_elo(penta(samples[static_cast<std::size_t>(which)]));
  CHECK_CLOSE(e.score, 0.5, 1e-15);
  CHECK_CLOSE(e.elo, 0.0, 1e-12);
  CHECK_CLOSE(e.nelo, 0.0, 1e-12);
  CHECK_CLOSE(e.los, 0.5, 1e-15);
  CHECK_CLOSE(e.elo_lower, -e.elo_upper, 1e-9);
}

BOOST_AUTO_TEST_CASE(pentanomial_counting_and_reversal) {
  Pentanomial p;
  p.add(EngineResult::Win, EngineResult::Loss);
  p.add(EngineResult::Draw, EngineResult::Draw);
  p.add(EngineResult::Win, EngineResult::Draw);
  p.add(EngineResult::Win, EngineResult::Win);
  p.add(EngineResult::Loss, EngineResult::Draw);
  BOOST_TEST((p.counts == std::array<std::int64_t, 5>{0, 1, 2, 1, 1}));
  BOOST_TEST(p.pairs() == 5);
  BOOST_TEST((p.reversed().counts == std::array<std::int64_t, 5>{1, 1, 2, 1, 0}));
  BOOST_TEST((p.reversed().reversed() == p));
  const EloEstimate mine = estimate_elo(p);
  const EloEstimate theirs = estimate_elo(p.reversed());
  CHECK_CLOSE(mine.elo, -theirs.elo, 1e-10);
  CHECK_CLOSE(mine.nelo, -theirs.nelo, 1e-10);
  CHECK_CLOSE(mine.los, 1.0 - theirs.los, 1e-12);

  Trinomial t;
  t.add(EngineResult::Win);
  t.add(EngineResult::Win);
  t.add(EngineResult::Draw);
  t.add(EngineResult::Loss);
  BOOST_TEST((t == Trinomial{1, 1, 2}));
  BOOST_TEST(t.games() == 4);
  BOOST_TEST(t.points() == 2.5);
  BOOST_TEST((t.reversed() == Trinomial{2, 1, 1}));
}

BOOST_AUTO_TEST_CASE(degenerate_samples) {
  // No games at all.
  for (const EloEstimate& e : {estimate_elo(Trinomial{}), estimate_elo(Pentanomial{})}) {
    BOOST_TEST(e.samples == 0.0);
    BOOST_TEST(e.score == 0.5);
    BOOST_TEST(e.elo == 0.0);
    BOOST_TEST(e.elo_error == kInf);
    BOOST_TEST(e.nelo == 0.0);
    BOOST_TEST(e.nelo_error == kInf);
    BOOST_TEST(e.los == 0.5);
  }
  // All draws: no spread, no error.
  const EloEstimate draws = estimate_elo(Trinomial{0, 40, 0});
  BOOST_TEST(draws.elo == 0.0);
  BOOST_TEST(draws.elo_error == 0.0);
  BOOST_TEST(draws.nelo == 0.0);
  BOOST_TEST(draws.nelo_error == 0.0);
  BOOST_TEST(draws.los == 0.5);
  BOOST_TEST(draws.draw_ratio == 1.0);
  // All wins: infinite Elo, certain superiority.
  const EloEstimate wins = estimate_elo(Trinomial{0, 0, 12});
  BOOST_TEST(wins.elo == kInf);
  BOOST_TEST(wins.elo_error == kInf);
  BOOST_TEST(wins.nelo == kInf);
  BOOST_TEST(wins.los == 1.0);
  const EloEstimate losses = estimate_elo(penta({{7, 0, 0, 0, 0}}));
  BOOST_TEST(losses.elo == -kInf);
  BOOST_TEST(losses.los == 0.0);
  // Nearly all wins: the interval is clamped to a score of 1, not NaN.
  const EloEstimate lopsided = estimate_elo(Trinomial{1, 0, 30});
  BOOST_TEST(std::isfinite(lopsided.elo));
  BOOST_TEST(lopsided.elo_upper == kInf);
  BOOST_TEST(!std::isnan(lopsided.elo_error));

  BOOST_CHECK_THROW(estimate_elo(Trinomial{-1, 0, 0}), std::invalid_argument);
  BOOST_CHECK_THROW(estimate_elo(penta({{0, 0, -2, 0, 0}})), std::invalid_argument);
  BOOST_CHECK_THROW(estimate_elo(Trinomial{1, 1, 1}, 1.0), std::invalid_argument);
  BOOST_CHECK_THROW(estimate_elo(Trinomial{1, 1, 1}, 0.0), std::invalid_argument);
}

// 0.5 * (1 + erf((W - L) / sqrt(2 (W + L)))), values from python's math.erf.
BOOST_DATA_TEST_CASE(los_from_decisive_games,
                     bdata::make({60, 10, 5, 123, 0}) ^ bdata::make({40, 0, 5, 100, 0}) ^
                         bdata::make({0.9772498680518208, 0.9992172988709987, 0.5,
                                      0.9382434541805887, 0.5}),
                     wins, losses, los) {
  CHECK_CLOSE(los_from_wins_losses(wins, losses), los, 1e-15);
  CHECK_CLOSE(los_from_wins_losses(losses, wins), 1.0 - los, 1e-15);
}

BOOST_AUTO_TEST_SUITE_END()
