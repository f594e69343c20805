// Whole-game analysis's marks: a move's loss of expected score from the values before and after
// it (engine scores through the evaluation's logistic scale, table and finished-board values as
// 1, 1/2, 0), the lichess-like thresholds, the best move losing nothing, and a move that throws
// away a table value always a blunder.
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "move_analysis.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::gui;

namespace {

PositionValue cp(int score, std::string best = {}) {
  PositionValue value;
  value.score_cp = score;
  value.best = std::move(best);
  return value;
}

PositionValue mate(int moves) {
  PositionValue value;
  value.score_mate = moves;
  return value;
}

PositionValue exact(tb::Wdl wdl, int distance) {
  PositionValue value;
  value.exact = tb::TbValue{wdl, distance};
  return value;
}

double sigma(double score) {
  return 1 / (1 + std::exp(-score / 112.1));
}

struct Case {
  PositionValue before;  // the mover's view
  PositionValue after;   // the opponent's view (its side to move)
  MoveMark mark;
  double loss;
};

std::ostream& operator<<(std::ostream& out, const Case& c) {
  return out << "mark " << mark_name(c.mark) << " loss " << c.loss;
}

}  // namespace

BOOST_TEST_DONT_PRINT_LOG_VALUE(MoveMark)

BOOST_AUTO_TEST_SUITE(move_analysis_tests)

BOOST_DATA_TEST_CASE(
    a_move_is_marked_by_the_expected_score_it_gives_away,
    bdata::make({
        // An even position kept even.
        Case{cp(0), cp(0), MoveMark::None, 0.0},
        // +100 for the mover before; after the move the opponent is at -90, -70, -30, 0.
        Case{cp(100), cp(-90), MoveMark::None, sigma(100) - sigma(90)},
        Case{cp(100), cp(-70), MoveMark::Inaccuracy, sigma(100) - sigma(70)},
        Case{cp(100), cp(-30), MoveMark::Mistake, sigma(100) - sigma(30)},
        Case{cp(100), cp(0), MoveMark::Blunder, sigma(100) - 0.5},
        // A move that the engine likes better afterwards loses nothing.
        Case{cp(0), cp(-50), MoveMark::None, 0.0},
        // A mate found counts as a win; +300 after it is an inaccuracy.
        Case{mate(3), cp(-300), MoveMark::Inaccuracy, 1 - sigma(300)},
        // Being mated is a loss: a move into a mate from +50 is a blunder.
        Case{cp(50), mate(2), MoveMark::Blunder, sigma(50)},
        // The tables: a slower win is no mistake; a win thrown to a draw or a loss, or a draw to
        // a loss, is a blunder.
        Case{exact(tb::Wdl::Win, 5), exact(tb::Wdl::Loss, 8), MoveMark::None, 0.0},
        Case{exact(tb::Wdl::Win, 5), exact(tb::Wdl::Draw, 0), MoveMark::Blunder, 0.5},
        Case{exact(tb::Wdl::Win, 5), exact(tb::Wdl::Win, 4), MoveMark::Blunder, 1.0},
        Case{exact(tb::Wdl::Draw, 0), exact(tb::Wdl::Win, 6), MoveMark::Blunder, 0.5},
        // An engine's score before, a finished board after: the mover's line won.
        Case{cp(200), exact(tb::Wdl::Loss, 0), MoveMark::None, 0.0},
        Case{cp(60), exact(tb::Wdl::Win, 0), MoveMark::Blunder, sigma(60)},
    }),
    c) {
  const std::optional<MoveAnalysis> analysis = analyse_move("b1e1", c.before, c.after);
  BOOST_REQUIRE(analysis.has_value());
  BOOST_TEST(analysis->mark == c.mark);
  BOOST_TEST(analysis->loss == c.loss, boost::test_tools::tolerance(1e-9));
  BOOST_TEST((analysis->after == other_side(c.after)));
}

BOOST_AUTO_TEST_CASE(the_thresholds_are_lichess_win_chances_on_the_expected_score_scale) {
  BOOST_TEST(mark_of_loss(0.0499) == MoveMark::None);
  BOOST_TEST(mark_of_loss(0.05) == MoveMark::Inaccuracy);
  BOOST_TEST(mark_of_loss(0.0999) == MoveMark::Inaccuracy);
  BOOST_TEST(mark_of_loss(0.10) == MoveMark::Mistake);
  BOOST_TEST(mark_of_loss(0.15) == MoveMark::Blunder);
  BOOST_TEST(mark_of_loss(1.0) == MoveMark::Blunder);
  BOOST_TEST(mark_name(MoveMark::Blunder) == "blunder");
  BOOST_TEST(mark_name(MoveMark::None).empty());
}

BOOST_AUTO_TEST_CASE(the_best_move_loses_nothing_and_unknown_values_give_no_analysis) {
  // The engine's best move, even when its score after it looks worse (another depth).
  const auto best = analyse_move("b1e1", cp(100, "b1e1"), cp(0));
  BOOST_REQUIRE(best.has_value());
  BOOST_TEST(best->mark == MoveMark::None);
  BOOST_TEST(best->loss == 0.0);
  BOOST_TEST(best->best == "b1e1");
  const auto other = analyse_move("a1a5", cp(100, "b1e1"), cp(0));
  BOOST_REQUIRE(other.has_value());
  BOOST_TEST(other->mark == MoveMark::Blunder);
  BOOST_TEST(other->best == "b1e1");
  BOOST_TEST(other->cp_loss == 100);
  BOOST_TEST(!analyse_move("b1e1", PositionValue{}, cp(0)).has_value());
  BOOST_TEST(!analyse_move("b1e1", cp(0), PositionValue{}).has_value());
}

BOOST_AUTO_TEST_CASE(centipawns_clamp_and_count_wins_as_the_cap) {
  BOOST_TEST(centipawns(cp(5000)) == kCentipawnCap);
  BOOST_TEST(centipawns(cp(-37)) == -37);
  BOOST_TEST(centipawns(mate(-1)) == -kCentipawnCap);
  BOOST_TEST(centipawns(exact(tb::Wdl::Win, 3)) == kCentipawnCap);
  BOOST_TEST(centipawns(exact(tb::Wdl::Draw, 0)) == 0);
  const auto thrown = analyse_move("b1e1", exact(tb::Wdl::Win, 3), exact(tb::Wdl::Win, 2));
  BOOST_REQUIRE(thrown.has_value());
  BOOST_TEST(thrown->cp_loss == 2 * kCentipawnCap);
  BOOST_TEST(expected_score(cp(112)) == sigma(112), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_SUITE_END()
