// The arena's SPRT (sprt.hpp) against published formulas and independently computed vectors.
//
// Reference values: fishtest's server/fishtest/stats/LLRcalc.py (LLR_logistic, LLR_normalized,
// LLR_alt2), transcribed to a stand-alone python3 script with scipy replaced by the standard
// library (brentq by bisection to machine precision) and run on this machine; the numbers are
// pasted below with 12 or more decimals.
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
#include "sprt.hpp"
#include "support/statistics_test_support.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo::arena;
using namespace quixo::arena::statistics_test;

namespace {

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

// fishtest's LLR_alt2, the Brownian approximation of the exact GSPRT that sprt() computes:
// N * (s1 - s0) * (2 s - s0 - s1) / (2 var), with the mean s and variance var of the pair scores
// 0, 1/4, ..., 1 after each empty count is replaced by 1e-3 (N is the sum of the counts so
// changed). An oracle of the tests only: no program needs the approximation.
double llr_logistic_approximate(const Pentanomial& results, double elo0, double elo1) {
  if (results.pairs() == 0) return 0.0;
  std::array<double, 5> counts{};
  double total = 0.0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    counts[k] = results.counts[k] == 0 ? 1e-3 : double(results.counts[k]);
    total += counts[k];
  }
  double mean = 0.0;
  for (std::size_t k = 0; k < counts.size(); ++k) mean += counts[k] / total * double(k) / 4.0;
  double variance = 0.0;
  for (std::size_t k = 0; k < counts.size(); ++k)
    variance += counts[k] / total * (double(k) / 4.0 - mean) * (double(k) / 4.0 - mean);
  const double s0 = elo_to_score(elo0);
  const double s1 = elo_to_score(elo1);
  return total * (s1 - s0) * (2.0 * mean - s0 - s1) / variance / 2.0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sprt_tests)

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

BOOST_AUTO_TEST_SUITE_END()
