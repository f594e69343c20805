// The arena's match statistics against published formulas and independently computed vectors.
//
// Reference values: fishtest's server/fishtest/stats/LLRcalc.py and stat_util.py (LLR_logistic,
// LLR_normalized, LLR_alt2, get_elo), transcribed to a stand-alone python3 script with scipy
// replaced by the standard library (brentq by bisection to machine precision, norm.cdf/ppf by
// statistics.NormalDist) and run on this machine; the numbers are pasted below with 12 or more
// decimals. Normalised Elo is fastchess's (score - 0.5) / sigma_per_game * 800 / ln 10 computed in
// the same script from get_elo's mean and per-game variance. The Bradley-Terry references come
// from a second python3 script that fits the ratings by Hunter's MM iteration (a different
// algorithm from the Newton solver under test) and applies the documented error formulas.
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
#include "ratings.hpp"
#include "sprt.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo::arena;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool close(double a, double b, double tolerance) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= tolerance;
}

#define CHECK_CLOSE(a, b, tolerance) \
  BOOST_TEST(close((a), (b), (tolerance)), #a " = " << (a) << ", expected " << (b))

Pentanomial penta(const std::array<std::int64_t, 5>& counts) {
  return Pentanomial{counts};
}

// --- Tables ------------------------------------------------------------------------------------

struct LlrSample {
  std::array<std::int64_t, 5> counts;
  double elo0, elo1;
  double logistic;    // fishtest LLR_logistic(elo0, elo1, counts)
  double normalized;  // fishtest LLR_normalized(elo0, elo1, counts), bounds in nElo
  double alt2;        // N * fishtest LLR_alt2 on the regularised pdf
};
std::ostream& operator<<(std::ostream& out, const LlrSample& s) {
  out << "[";
  for (const auto c : s.counts) out << c << " ";
  return out << "] <" << s.elo0 << "," << s.elo1 << ">";
}

const std::vector<LlrSample> kPentanomialLlr = {
    {{{10, 20, 30, 20, 10}}, 0, 2, -0.004473322129, -0.002982280628, -0.004473377708},
    {{{10, 20, 30, 20, 10}}, -3, 1, 0.008946181127, 0.005964450081, 0.008946458959},
    {{{10, 20, 30, 20, 10}}, 0.5, 2.5, -0.006709838458, -0.004473386200, -0.006709973918},
    {{{1187, 7410, 13475, 7378, 1164}}, 0, 2, -3.703553587138, -1.728753622180, -3.703850267038},
    {{{1187, 7410, 13475, 7378, 1164}}, -3, 1, 2.861527180592, 0.600266073484, 2.861989557496},
    {{{1187, 7410, 13475, 7378, 1164}},
     0.5,
     2.5,
     -4.986874177361,
     -2.235964917134,
     -4.987515504056},
    {{{10789, 19328, 33806, 19402, 10543}},
     0,
     2,
     -8.348208815166,
     -6.070429067586,
     -8.348348614038},
    {{{10789, 19328, 33806, 19402, 10543}}, -3, 1, 2.131067811785, 0.300869785489, 2.131244870705},
    {{{10789, 19328, 33806, 19402, 10543}},
     0.5,
     2.5,
     -10.701426607774,
     -7.625571898048,
     -10.701737639010},
    {{{39, 2226, 31451, 2412, 40}}, 0, 2, -1.689296736166, 2.936909817204, -1.697975762288},
    {{{39, 2226, 31451, 2412, 40}}, -3, 1, 65.973585297131, 10.667041287009, 66.614298786405},
    {{{39, 2226, 31451, 2412, 40}}, 0.5, 2.5, -10.414589646530, 2.337900017538, -10.449235950852},
    {{{5, 30, 120, 40, 3}}, 0, 2, 0.107792004925, 0.061161709291, 0.108812261316},
    {{{5, 30, 120, 40, 3}}, -3, 1, 0.314726399511, 0.148543158932, 0.319690304229},
    {{{5, 30, 120, 40, 3}}, 0.5, 2.5, 0.095272669897, 0.057889299377, 0.096052686511},
    {{{2, 20, 60, 30, 8}}, 0, 2, 0.335372265771, 0.205270068630, 0.342452116312},
    {{{2, 20, 60, 30, 8}}, -3, 1, 0.710423365597, 0.426025324129, 0.729301853898},
    {{{2, 20, 60, 30, 8}}, 0.5, 2.5, 0.330335750390, 0.203333328107, 0.336898158324},
    {{{0, 12, 50, 20, 4}}, 0, 2, 0.357985230719, 0.181667960541, 0.340891036880},
    {{{0, 12, 50, 20, 4}}, -3, 1, 0.761313868015, 0.374369123065, 0.725318268700},
    {{{0, 12, 50, 20, 4}}, 0.5, 2.5, 0.352288880555, 0.180285016325, 0.335444776581},
    {{{100, 800, 2000, 900, 150}}, 0, 2, 2.993754075589, 1.840823812731, 2.996831609302},
    {{{100, 800, 2000, 900, 150}}, -3, 1, 7.512715187092, 4.204161199260, 7.531219838958},
    {{{100, 800, 2000, 900, 150}}, 0.5, 2.5, 2.802443973752, 1.775496402355, 2.804599792981},
    {{{3, 40, 180, 60, 2}}, 0, 2, 0.440268180935, 0.214236258717, 0.451592332875},
    {{{3, 40, 180, 60, 2}}, -3, 1, 1.047938277206, 0.466015038526, 1.084321724321},
    {{{3, 40, 180, 60, 2}}, 0.5, 2.5, 0.418980056431, 0.209550062548, 0.428944589044},
    {{{0, 0, 7, 3, 0}}, 0, 2, 0.057357198060, 0.031211874023, 0.160550771572},
    {{{0, 0, 7, 3, 0}}, -3, 1, 0.115382575007, 0.063635378155, 0.333670400791},
    {{{0, 0, 7, 3, 0}}, 0.5, 2.5, 0.057273623474, 0.031061765543, 0.158977669353},
};

struct TrinomialLlrSample {
  std::array<std::int64_t, 3> ldw;  // losses, draws, wins (fishtest's order)
  double elo0, elo1;
  double logistic;
  double normalized;
};
std::ostream& operator<<(std::ostream& out, const TrinomialLlrSample& s) {
  return out << "[" << s.ldw[0] << " " << s.ldw[1] << " " << s.ldw[2] << "] <" << s.elo0 << ","
             << s.elo1 << ">";
}

const std::vector<TrinomialLlrSample> kTrinomialLlr = {
    {{65804, 56553, 65388}, 0, 2, -7.878431278534, -5.975287588970},
    {{65804, 56553, 65388}, -3, 1, 2.049042617982, 0.491711776268},
    {{591, 2163, 716}, 0, 2, 1.758469102843, 1.115034042010},
    {{591, 2163, 716}, -3, 1, 4.123736953838, 2.459707314343},
    {{1500, 4000, 1450}, 0, 2, -0.949286524098, -0.556925503023},
    {{1500, 4000, 1450}, -3, 1, -0.813616164769, -0.653270769192},
    {{20, 50, 35}, 0, 2, 0.161636302109, 0.117580832209},
    {{20, 50, 35}, -3, 1, 0.336080164658, 0.242058155320},
    {{0, 10, 3}, 0, 2, 0.074573504966, 0.035758799076},
    {{0, 10, 3}, -3, 1, 0.150012416070, 0.072214244274},
};

// get_elo's mean score and per-game variance (for a pentanomial: twice the variance of a pair's
// mean score), Elo, its 95% "+/-", LOS; then nElo and its 95% "+/-".
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

Trinomial tri(const std::array<std::int64_t, 3>& ldw) {
  return Trinomial{ldw[0], ldw[1], ldw[2]};
}

// The four-player pool of the Bradley-Terry reference (no game between players 2 and 3):
// (first, second, first's wins, draws, first's losses).
std::vector<PairingResult> four_player_pool() {
  return {
      {0, 1, Trinomial{8, 20, 12}}, {0, 2, Trinomial{15, 10, 5}}, {0, 3, Trinomial{3, 6, 9}},
      {1, 2, Trinomial{9, 14, 7}},  {1, 3, Trinomial{2, 4, 10}},
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(statistics_tests)

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

// --- GSPRT -------------------------------------------------------------------------------------

BOOST_DATA_TEST_CASE(pentanomial_llr_matches_fishtest, bdata::make(kPentanomialLlr), s) {
  const Pentanomial p = penta(s.counts);
  CHECK_CLOSE(llr_logistic(p, s.elo0, s.elo1), s.logistic, 1e-8);
  CHECK_CLOSE(llr_normalized(p, s.elo0, s.elo1), s.normalized, 1e-7);
  CHECK_CLOSE(llr_logistic_approximate(p, s.elo0, s.elo1), s.alt2, 1e-8);
  // Swapping the hypotheses negates the LLR; the opponent's view with negated bounds keeps it.
  CHECK_CLOSE(llr_logistic(p, s.elo1, s.elo0), -s.logistic, 1e-8);
  CHECK_CLOSE(llr_logistic(p.reversed(), -s.elo0, -s.elo1), s.logistic, 1e-8);
  CHECK_CLOSE(llr_normalized(p.reversed(), -s.elo0, -s.elo1), s.normalized, 1e-7);
}

BOOST_DATA_TEST_CASE(trinomial_llr_matches_fishtest, bdata::make(kTrinomialLlr), s) {
  const Trinomial t = tri(s.ldw);
  CHECK_CLOSE(llr_logistic(t, s.elo0, s.elo1), s.logistic, 1e-8);
  CHECK_CLOSE(llr_normalized(t, s.elo0, s.elo1), s.normalized, 1e-7);
}

// The example at the end of fishtest's stat_util.py: the same test run in logistic Elo
// [0.2, 0.9] and in the matching normalised Elo [0.764, 3.439] gives nearly the same LLR.
BOOST_AUTO_TEST_CASE(fishtest_example_in_both_models) {
  const Pentanomial p = penta({{39, 2226, 31451, 2412, 40}});
  CHECK_CLOSE(llr_logistic(p, 0.2, 0.9), 2.162542580050, 1e-8);
  CHECK_CLOSE(llr_normalized(p, 0.764, 3.439), 2.162940869584, 1e-7);
}

BOOST_AUTO_TEST_CASE(llr_of_nothing_is_zero) {
  BOOST_TEST(llr_logistic(Pentanomial{}, 0, 2) == 0.0);
  BOOST_TEST(llr_normalized(Pentanomial{}, 0, 2) == 0.0);
  BOOST_TEST(llr_logistic(Trinomial{}, 0, 2) == 0.0);
  BOOST_TEST(llr_normalized(Trinomial{}, 0, 2) == 0.0);
  BOOST_TEST(llr_logistic_approximate(Pentanomial{}, 0, 2) == 0.0);
}

// For many pairs and narrow bounds the Brownian approximation is close to the exact GSPRT.
BOOST_DATA_TEST_CASE(approximation_tracks_the_exact_llr, bdata::make({1, 10, 100}), scale) {
  Pentanomial p = penta({{120, 830, 2010, 880, 160}});
  for (auto& c : p.counts) c *= scale;
  const double exact = llr_logistic(p, 0, 2);
  const double approximate = llr_logistic_approximate(p, 0, 2);
  BOOST_TEST(std::fabs(exact - approximate) <= 2e-3 * std::fabs(exact));
}

BOOST_AUTO_TEST_CASE(sprt_bounds) {
  SprtParameters p;
  CHECK_CLOSE(p.lower_bound(), -2.9444389791664403, 1e-15);
  CHECK_CLOSE(p.upper_bound(), 2.9444389791664403, 1e-15);
  p.alpha = 0.05;
  p.beta = 0.1;
  CHECK_CLOSE(p.lower_bound(), std::log(0.1 / 0.95), 1e-15);
  CHECK_CLOSE(p.upper_bound(), std::log(0.9 / 0.05), 1e-15);
}

// Decisions on fishtest-checked LLRs with bounds <0, 2> and alpha = beta = 0.05.
BOOST_DATA_TEST_CASE(sprt_decisions, bdata::make({0, 1, 2, 3}), which) {
  const std::array<std::array<std::int64_t, 5>, 4> counts = {{{1187, 7410, 13475, 7378, 1164},
                                                              {100, 800, 2000, 900, 150},
                                                              {5, 30, 120, 40, 3},
                                                              {10789, 19328, 33806, 19402, 10543}}};
  const std::array<SprtResult::Decision, 4> decisions = {
      SprtResult::Decision::AcceptH0, SprtResult::Decision::AcceptH1,
      SprtResult::Decision::Continue, SprtResult::Decision::AcceptH0};
  const std::array<std::string, 4> lines = {
      "LLR: -3.70 (-2.94,2.94) <0.00,2.00>", "LLR: 2.99 (-2.94,2.94) <0.00,2.00>",
      "LLR: 0.11 (-2.94,2.94) <0.00,2.00>", "LLR: -8.35 (-2.94,2.94) <0.00,2.00>"};
  const std::size_t i = static_cast<std::size_t>(which);
  const SprtParameters parameters;
  const SprtResult result = sprt(penta(counts[i]), parameters);
  BOOST_TEST((result.decision == decisions[i]));
  CHECK_CLOSE(result.lower, -2.9444389791664403, 1e-15);
  CHECK_CLOSE(result.upper, 2.9444389791664403, 1e-15);
  BOOST_TEST(format_sprt(result, parameters) == lines[i]);
}

BOOST_AUTO_TEST_CASE(sprt_in_normalized_elo) {
  SprtParameters parameters;
  parameters.model = EloModel::Normalized;
  parameters.elo0 = -3;
  parameters.elo1 = 1;
  const SprtResult result = sprt(penta({{39, 2226, 31451, 2412, 40}}), parameters);
  CHECK_CLOSE(result.llr, 10.667041287009, 1e-7);
  BOOST_TEST((result.decision == SprtResult::Decision::AcceptH1));
  BOOST_TEST(format_sprt(result, parameters) == "LLR: 10.67 (-2.94,2.94) <-3.00,1.00>");

  const SprtResult trinomial = sprt(Trinomial{591, 2163, 716}, parameters);
  CHECK_CLOSE(trinomial.llr, 2.459707314343, 1e-7);
  BOOST_TEST((trinomial.decision == SprtResult::Decision::Continue));
}

BOOST_AUTO_TEST_CASE(sprt_summary_line) {
  SprtParameters parameters;
  SprtResult result;
  result.llr = 2.95;
  result.lower = parameters.lower_bound();
  result.upper = parameters.upper_bound();
  BOOST_TEST(format_sprt(result, parameters) == "LLR: 2.95 (-2.94,2.94) <0.00,2.00>");
  result.llr = -0.001;  // never "-0.00"
  BOOST_TEST(format_sprt(result, parameters) == "LLR: 0.00 (-2.94,2.94) <0.00,2.00>");
  parameters.elo0 = -1.75;
  parameters.elo1 = 0.25;
  parameters.alpha = 0.1;
  parameters.beta = 0.2;
  result = sprt(Pentanomial{}, parameters);
  BOOST_TEST(format_sprt(result, parameters) == "LLR: 0.00 (-1.50,2.08) <-1.75,0.25>");
  BOOST_TEST((result.decision == SprtResult::Decision::Continue));
}

BOOST_AUTO_TEST_CASE(sprt_refuses_bad_parameters) {
  const auto refused = [](double elo0, double elo1, double alpha, double beta) {
    SprtParameters p;
    p.elo0 = elo0;
    p.elo1 = elo1;
    p.alpha = alpha;
    p.beta = beta;
    try {
      (void)sprt(Pentanomial{}, p);
    } catch (const std::invalid_argument&) {
      return true;
    }
    return false;
  };
  BOOST_TEST(refused(0, 2, 0.0, 0.05));
  BOOST_TEST(refused(0, 2, 0.05, 0.0));
  BOOST_TEST(refused(0, 2, 0.5, 0.5));
  BOOST_TEST(refused(2, 2, 0.05, 0.05));
  BOOST_TEST(refused(2, 0, 0.05, 0.05));
  BOOST_TEST(!refused(-3, 1, 0.05, 0.05));
}

// Issue 9, defect 7: bounds the model cannot test are refused by validate (which the command line
// and the tournament call before the first game), naming them and what is accepted. Normalised
// bounds of 300 and 400 nElo used to pass and make every LLR throw.
struct BoundsCase {
  EloModel model;
  double elo0;
  double elo1;
  std::string refusal;  // part of the message; empty: accepted
};
std::ostream& operator<<(std::ostream& out, const BoundsCase& c) {
  return out << (c.model == EloModel::Normalized ? "normalized" : "logistic") << " <" << c.elo0
             << "," << c.elo1 << ">";
}

const std::vector<BoundsCase> kBoundsCases = {
    {EloModel::Normalized, 300, 400,
     "SPRT: elo0=300 elo1=400 is beyond what the normalized model can test: its bounds must lie "
     "between -231.6 and 231.6 nElo; use smaller bounds, or model=logistic"},
    {EloModel::Normalized, 0, 240, "between -231.6 and 231.6 nElo"},
    {EloModel::Normalized, -231.7, 0, "elo0=-231.7 elo1=0"},
    {EloModel::Normalized, 0, kInf, "between -231.6 and 231.6 nElo"},
    {EloModel::Normalized, std::nan(""), 5, "between -231.6 and 231.6 nElo"},
    {EloModel::Normalized, -231.6, 231.6, ""},
    {EloModel::Normalized, 230, 231.6, ""},
    {EloModel::Normalized, 0, 10, ""},
    {EloModel::Logistic, 300, 400, ""},
    {EloModel::Logistic, -4000, 4000, ""},
    {EloModel::Logistic, 0, 4001,
     "SPRT: elo0=0 elo1=4001 is beyond what the logistic model can test: its bounds must lie "
     "between -4000 and 4000 Elo"},
    {EloModel::Logistic, -kInf, 0, "between -4000 and 4000 Elo"},
    {EloModel::Logistic, 10, 0, "SPRT: elo0 must be below elo1, not elo0=10 elo1=0"},
};

BOOST_DATA_TEST_CASE(sprt_refuses_bounds_the_model_cannot_test, bdata::make(kBoundsCases), c) {
  SprtParameters parameters;
  parameters.model = c.model;
  parameters.elo0 = c.elo0;
  parameters.elo1 = c.elo1;
  std::string message;
  try {
    parameters.validate();
  } catch (const std::invalid_argument& error) {
    message = error.what();
  }
  if (c.refusal.empty()) {
    BOOST_TEST(message.empty(), message);
  } else {
    BOOST_TEST(message.find(c.refusal) != std::string::npos, message);
  }
}

BOOST_AUTO_TEST_CASE(sprt_refusals_name_alpha_and_beta) {
  SprtParameters parameters;
  parameters.alpha = 0.6;
  parameters.beta = 0.5;
  BOOST_CHECK_EXCEPTION(parameters.validate(), std::invalid_argument,
                        [](const std::invalid_argument& error) {
                          return std::string(error.what()) ==
                                 "SPRT: alpha and beta must be positive with alpha + beta < 1, "
                                 "not alpha=0.6 beta=0.5";
                        });
}

// Inside the accepted bounds the GSPRT has an LLR for every sample, however lopsided: a run can
// never meet bounds that pass validate but fail on its games. At the edges, on every count vector
// made of 0, 1, 3, 1000 and 10^7 (zeros are regularised, huge counts leave no noise).
BOOST_DATA_TEST_CASE(accepted_bounds_give_an_llr_for_every_sample, bdata::make({0, 1, 2, 3, 4, 5}),
                     which) {
  const double n = kMaxNormalizedSprtBound;
  const double l = kMaxLogisticSprtBound;
  const std::array<BoundsCase, 6> edges = {{{EloModel::Normalized, -n, n, ""},
                                            {EloModel::Normalized, n - 1, n, ""},
                                            {EloModel::Normalized, -n, 1 - n, ""},
                                            {EloModel::Logistic, -l, l, ""},
                                            {EloModel::Logistic, l - 1, l, ""},
                                            {EloModel::Logistic, -l, 1 - l, ""}}};
  const BoundsCase& edge = edges[static_cast<std::size_t>(which)];
  SprtParameters parameters;
  parameters.model = edge.model;
  parameters.elo0 = edge.elo0;
  parameters.elo1 = edge.elo1;
  BOOST_REQUIRE_NO_THROW(parameters.validate());
  const std::array<std::int64_t, 5> values = {0, 1, 3, 1000, 10'000'000};
  int failures = 0;
  std::array<std::size_t, 5> digit{};
  for (int index = 0; index < 5 * 5 * 5 * 5 * 5; ++index) {
    int rest = index;
    for (std::size_t k = 0; k < 5; ++k, rest /= 5) digit[k] = static_cast<std::size_t>(rest % 5);
    const Pentanomial p = penta({{values[digit[0]], values[digit[1]], values[digit[2]],
                                  values[digit[3]], values[digit[4]]}});
    const Trinomial t{values[digit[0]], values[digit[2]], values[digit[4]]};
    try {
      const double a = sprt(p, parameters).llr;
      const double b = sprt(t, parameters).llr;
      if (!std::isfinite(a) || !std::isfinite(b)) ++failures;
    } catch (const std::exception& error) {
      if (++failures == 1) BOOST_TEST_MESSAGE(error.what());
    }
  }
  BOOST_TEST(failures == 0);
}

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

// An irregular pool (one pairing never played), against the MM reference script, with the
// ratings centred on 0, anchored on player 2, and with two prior draws per pairing.
BOOST_DATA_TEST_CASE(irregular_pool_matches_the_reference, bdata::make({0, 1, 2}), variant) {
  RatingOptions options;
  std::array<double, 4> elo{}, robust{}, fisher{};
  double robust_03 = 0, fisher_03 = 0, los_13 = 0;
  switch (variant) {
    case 0:
      elo = {16.4803019008, 24.4659617920, 90.9188131749, -131.8650768676};
      robust = {22.6907829181, 22.5956683038, 29.2695957587, 40.3121391338};
      fisher = {29.5666413343, 30.0911412607, 38.0316771962, 50.3726649525};
      robust_03 = 54.8451869603;
      fisher_03 = 68.5735844389;
      los_13 = 0.997750586983;
      break;
    case 1:
      options.anchor = 2;
      elo = {-74.4385112741, -66.4528513828, 0.0, -222.7838900425};
      robust = {38.7308924713, 38.2447522505, 0.0, 63.0183107528};
      fisher = {50.9113107885, 50.8224721935, 0.0, 79.8387471238};
      robust_03 = 54.8451869603;
      fisher_03 = 68.5735844389;
      los_13 = 0.997750586983;
      break;
    default:
      options.prior_draws = 2.0;
      elo = {13.5246102380, 20.7705034559, 83.0787400830, -117.3738537769};
      robust = {20.8094812782, 20.7159341690, 27.0201930141, 35.3559054704};
      fisher = {28.2683426525, 28.7235341688, 36.4637354125, 46.8064150793};
      robust_03 = 48.2286933170;
      fisher_03 = 63.8912510181;
      los_13 = 0.997820995917;
      break;
  }
  const Ratings r = bradley_terry(4, four_player_pool(), options);
  BOOST_TEST(r.converged);
  BOOST_TEST(r.iterations < 20);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK_CLOSE(r.elo[i], elo[i], 1e-7);
    CHECK_CLOSE(r.error[i], robust[i], 1e-7);
    CHECK_CLOSE(r.los[i][i], 0.5, 0.0);
    for (std::size_t j = 0; j < 4; ++j) {
      CHECK_CLOSE(r.los[i][j] + r.los[j][i], 1.0, 1e-12);
      CHECK_CLOSE(r.difference_error[i][j], r.difference_error[j][i], 1e-9);
    }
  }
  CHECK_CLOSE(r.difference_error[0][3], robust_03, 1e-7);
  CHECK_CLOSE(r.los[1][3], los_13, 1e-10);

  options.robust_errors = false;
  const Ratings f = bradley_terry(4, four_player_pool(), options);
  for (std::size_t i = 0; i < 4; ++i) CHECK_CLOSE(f.error[i], fisher[i], 1e-7);
  CHECK_CLOSE(f.difference_error[0][3], fisher_03, 1e-7);
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
