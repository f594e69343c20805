// The static evaluation: it is the side to move's view (swapping the colours and the side to move
// changes nothing), it is blind to the 8 symmetries of the board, the threat term punishes the
// opponent's wins in one, every weight is data that moves the score exactly as a hand-written
// reference says, and the breakdown adds up to the total.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "core/symmetry.hpp"
#include "search/evaluation.hpp"
#include "support/random_positions.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;

namespace {

Score eval(const Position& position, const EvalWeights& weights = default_weights()) {
  return evaluate(position, opponent_wins(position), weights);
}

Position swap_colours(const Position& position) {
  return Position(position.cubes(Color::O), position.cubes(Color::X), ~position.side_to_move());
}

using test::random_positions;

// The evaluation written out again, square by square and line by line from the rule text, as
// the reference that every weight is checked against.
Score reference_eval(const Position& position, SlideSet opponent_threats,
                     const EvalWeights& weights) {
  const Color us = position.side_to_move();
  auto cube = [&](int file, int rank) {
    const Bitboard bit = square_bb(make_square(file, rank));
    return (position.cubes(us) & bit) ? 1 : (position.cubes(~us) & bit) ? -1 : 0;
  };
  Score score = 0;
  // The 12 lines as lists of squares.
  std::vector<std::array<std::array<int, 2>, 5>> lines;
  for (int i = 0; i < 5; ++i) {
    std::array<std::array<int, 2>, 5> rank{}, file{};
    for (int j = 0; j < 5; ++j) {
      rank[std::size_t(j)] = {j, i};
      file[std::size_t(j)] = {i, j};
    }
    lines.push_back(rank);
    lines.push_back(file);
  }
  std::array<std::array<int, 2>, 5> diagonal{}, anti_diagonal{};
  for (int j = 0; j < 5; ++j) {
    diagonal[std::size_t(j)] = {j, j};
    anti_diagonal[std::size_t(j)] = {j, 4 - j};
  }
  lines.push_back(diagonal);
  lines.push_back(anti_diagonal);
  for (const auto& line : lines) {
    int mine = 0, theirs = 0;
    for (const auto& [file, rank] : line) {
      mine += cube(file, rank) == 1;
      theirs += cube(file, rank) == -1;
    }
    if (theirs == 0)
      score += weights.open_line[std::size_t(mine)];
    else if (mine == 0)
      score -= weights.open_line[std::size_t(theirs)];
    else
      score +=
          weights.contested_line[std::size_t(mine)] - weights.contested_line[std::size_t(theirs)];
  }
  int lead = 0;
  for (int file = 0; file < 5; ++file)
    for (int rank = 0; rank < 5; ++rank) {
      const int c = cube(file, rank);
      lead += c;
      const bool border = file == 0 || file == 4 || rank == 0 || rank == 4;
      const bool centre = file == 2 && rank == 2;
      score += c * (border   ? weights.border_cube
                    : centre ? weights.centre_cube
                             : weights.inner_cube);
    }
  score += weights.cube_lead * std::clamp(lead, -3, 3);
  const int threats = std::popcount(opponent_threats);
  if (threats > 0) score -= weights.threat + weights.threat_extra * (std::min(threats, 3) - 1);
  return score + weights.tempo;
}

EvalWeights random_weights(std::mt19937& rng) {
  std::uniform_int_distribution<int> weight(-50, 200);
  EvalWeights weights;
  for (std::size_t k = 0; k < 5; ++k) {
    weights.open_line[k] = weight(rng);
    weights.contested_line[k] = weight(rng);
  }
  weights.border_cube = weight(rng);
  weights.centre_cube = weight(rng);
  weights.inner_cube = weight(rng);
  weights.cube_lead = weight(rng);
  weights.threat = weight(rng);
  weights.threat_extra = weight(rng);
  weights.tempo = weight(rng);
  return weights;
}

// O has b1 c1 d1 e1 and threatens to complete rank 1 by filling a1 (a1e1, a5a1, ...); X (to
// move) has b5 c5 d5, three in a row, and no threat of its own.
constexpr std::string_view kThreatened = "1xxx1/5/5/5/1oooo x";

}  // namespace

BOOST_AUTO_TEST_SUITE(evaluation_tests)

// The evaluation is from the side to move's point of view: the same game with the colours
// swapped (every x an o and the other way round, and the other side to move) scores the same.
BOOST_DATA_TEST_CASE(swapping_colours_and_side_keeps_the_score, bdata::make({1u, 2u, 3u}), seed) {
  for (const Position& position : random_positions(seed, 300)) {
    const Position swapped = swap_colours(position);
    BOOST_TEST_CONTEXT(to_string(position) << " / " << to_string(swapped)) {
      BOOST_TEST(eval(swapped) == eval(position));
      const EvalBreakdown a = evaluate_with_breakdown(position);
      const EvalBreakdown b = evaluate_with_breakdown(swapped);
      BOOST_TEST(a.lines == b.lines);
      BOOST_TEST(a.threats == b.threats);
      BOOST_TEST(a.total == b.total);
      BOOST_TEST(a.own_wins == b.own_wins);
      BOOST_TEST(a.opponent_wins == b.opponent_wins);
    }
  }
}

BOOST_DATA_TEST_CASE(symmetric_positions_score_the_same, bdata::make({0, 1, 2, 3, 4, 5, 6, 7}),
                     symmetry_index) {
  const Symmetry symmetry = kAllSymmetries[std::size_t(symmetry_index)];
  for (const Position& position : random_positions(11u + unsigned(symmetry_index), 200)) {
    const Position image = transform(symmetry, position);
    BOOST_TEST_CONTEXT(to_string(position) << " -> " << to_string(image)) {
      BOOST_TEST(eval(image) == eval(position));
      BOOST_TEST(evaluate_with_breakdown(image).opponent_wins ==
                 evaluate_with_breakdown(position).opponent_wins);
    }
  }
}

// A clearly better side scores positive when it is to move and negative when it is not.
BOOST_AUTO_TEST_CASE(the_sign_follows_the_side_to_move) {
  // X: c3 and the inner ring around it, O: two corners.
  const Position x_to_move = parse_position("o4/1xxx1/1xxx1/1xxx1/4o x");
  const Position o_to_move = parse_position("o4/1xxx1/1xxx1/1xxx1/4o o");
  BOOST_TEST(eval(x_to_move) > 100);
  BOOST_TEST(eval(o_to_move) < -100);
}

// The threat term: the opponent's wins in one cost `threat` for the first and `threat_extra` for
// each further one (up to three), on the very same position.
BOOST_AUTO_TEST_CASE(threats_of_the_opponent_lower_the_score) {
  const Position position = parse_position(kThreatened);
  const Position o_to_move(position.cubes(Color::X), position.cubes(Color::O), Color::O);
  const SlideSet threats = opponent_wins(position);
  // O wins in one by a1e1 (b1-e1 slide left, new O on e1) and by a5a1 (new O pushed up into a1).
  BOOST_TEST_REQUIRE(threats != 0u);
  BOOST_TEST((threats >> parse_move(o_to_move, "a1e1").slide() & 1) == 1u);
  BOOST_TEST((threats >> parse_move(o_to_move, "a5a1").slide() & 1) == 1u);
  BOOST_TEST(threats == scan_moves(o_to_move).wins);
  BOOST_TEST(scan_moves(position).wins == 0u);  // X has no win of its own to offset it
  const EvalWeights& w = default_weights();
  const int count = std::popcount(threats);
  const Score with = evaluate(position, threats);
  const Score without = evaluate(position, 0);
  BOOST_TEST(with < without);
  BOOST_TEST(without - with == w.threat + w.threat_extra * (std::min(count, 3) - 1));
  // One threat costs exactly `threat`, two `threat + threat_extra`, more no more than three.
  const SlideSet one = SlideSet{1} << std::countr_zero(threats);
  const SlideSet two = one | SlideSet{1} << std::countr_zero(threats & ~one);
  BOOST_TEST(without - evaluate(position, one) == w.threat);
  BOOST_TEST(without - evaluate(position, two) == w.threat + w.threat_extra);
  BOOST_TEST(without - evaluate(position, SlideSet{0xff}) == w.threat + 2 * w.threat_extra);

  const EvalBreakdown terms = evaluate_with_breakdown(position);
  BOOST_TEST(terms.opponent_wins == count);
  BOOST_TEST(terms.threats == with - without);
  BOOST_TEST(terms.own_wins == 0);
  // The same board with O to move: O has the wins now and nothing is threatened against it.
  const EvalBreakdown o_view = evaluate_with_breakdown(o_to_move);
  BOOST_TEST(o_view.own_wins == count);
  BOOST_TEST(o_view.opponent_wins == 0);
  BOOST_TEST(o_view.threats == 0);
  // From X's side, a real position where the threat is met scores higher: X's e5e1 pushes its
  // cube into e1 (O's e1 moves up to e2), so O has no win in one any more.
  const Position parried = position.after(parse_move(position, "e5e1"));
  BOOST_TEST_REQUIRE(scan_moves(parried).wins == 0u);
  const Position parried_x_view(parried.cubes(Color::X), parried.cubes(Color::O), Color::X);
  BOOST_TEST(opponent_wins(parried_x_view) == 0u);
  BOOST_TEST(eval(parried_x_view) > eval(position));
}

// Each weight is data: changing one moves the score by exactly the change times what it counts.
BOOST_AUTO_TEST_CASE(changing_one_weight_moves_the_score_as_expected) {
  // X (to move): a1 b1 c1 on the border, c3 centre, b2 inner. O: e5 border, d4 inner.
  const Position position = parse_position("4o/3o1/2x2/1x3/xxx2 x");
  BOOST_TEST_REQUIRE(opponent_wins(position) == 0u);
  const Score base = eval(position);

  EvalWeights w = default_weights();
  w.tempo += 7;
  BOOST_TEST(eval(position, w) - base == 7);

  w = default_weights();
  w.border_cube += 10;  // border: X a1 b1 c1 (3), O e5 (1): +2 per point
  BOOST_TEST(eval(position, w) - base == 20);

  w = default_weights();
  w.centre_cube += 5;  // X holds c3
  BOOST_TEST(eval(position, w) - base == 5);

  w = default_weights();
  w.inner_cube += 3;  // X b2, O d4: even
  BOOST_TEST(eval(position, w) - base == 0);

  w = default_weights();
  w.cube_lead += 4;  // 5 X cubes against 2 O cubes: a lead of 3, the cap
  BOOST_TEST(eval(position, w) - base == 12);

  w = default_weights();
  w.threat += 1000;  // nothing is threatened here
  w.threat_extra += 1000;
  BOOST_TEST(eval(position, w) == base);

  // Lines: rank 1 holds three X (open), the a1-e5 diagonal a1 b2 c3 X and d4 e5 O (contested
  // 3 against 2). open_line[3] counts once for X; contested_line[3] once for X and
  // contested_line[2] once against.
  w = default_weights();
  w.open_line[3] += 100;
  BOOST_TEST(eval(position, w) - base == 100);
  w = default_weights();
  w.contested_line[3] += 10;
  w.contested_line[2] += 1;
  BOOST_TEST(eval(position, w) - base == 10 - 1);

  // All weights zero: zero, whatever the position.
  EvalWeights zero;
  zero.open_line = {};
  zero.contested_line = {};
  zero.border_cube = zero.centre_cube = zero.inner_cube = zero.cube_lead = 0;
  zero.threat = zero.threat_extra = zero.tempo = 0;
  for (const Position& p : random_positions(5u, 50)) BOOST_TEST(eval(p, zero) == 0);
}

// Random weights against the reference on random positions: every term is computed as written.
BOOST_DATA_TEST_CASE(random_weights_match_the_reference, bdata::make({21u, 22u, 23u, 24u}), seed) {
  std::mt19937 rng(seed);
  for (const Position& position : random_positions(seed, 150)) {
    const EvalWeights weights = random_weights(rng);
    const SlideSet threats = opponent_wins(position);
    BOOST_TEST_CONTEXT(to_string(position)) {
      BOOST_TEST(evaluate(position, threats, weights) ==
                 reference_eval(position, threats, weights));
    }
  }
  // The default weights too.
  for (const Position& position : random_positions(seed + 100, 150))
    BOOST_TEST(eval(position) ==
               reference_eval(position, opponent_wins(position), default_weights()));
}

// The breakdown's terms add up to its total, which is what evaluate returns; its counts of wins
// in one agree with the move scanner.
BOOST_AUTO_TEST_CASE(breakdown_terms_add_up_to_the_total) {
  std::mt19937 rng(77);
  int with_threats = 0;
  for (const Position& position : random_positions(31u, 400)) {
    const EvalWeights weights = rng() % 2 ? default_weights() : random_weights(rng);
    const EvalBreakdown terms = evaluate_with_breakdown(position, weights);
    BOOST_TEST_CONTEXT(to_string(position)) {
      BOOST_TEST(terms.total == terms.lines + terms.border + terms.centre + terms.cube_lead +
                                    terms.threats + terms.tempo);
      BOOST_TEST(terms.total == evaluate(position, opponent_wins(position), weights));
      BOOST_TEST(terms.tempo == weights.tempo);
      BOOST_TEST(terms.own_wins == std::popcount(scan_moves(position).wins));
      BOOST_TEST(terms.opponent_wins == std::popcount(opponent_wins(position)));
    }
    with_threats += terms.opponent_wins > 0;
  }
  BOOST_TEST(with_threats > 10);  // the sample exercises the threat term
  // breakdown_lines names every term and the total, one line each.
  const std::vector<std::string> lines =
      breakdown_lines(evaluate_with_breakdown(parse_position(kThreatened)));
  std::string text;
  for (const std::string& line : lines) {
    BOOST_TEST(line.find('\n') == std::string::npos);
    text += line + "\n";
  }
  for (const char* word : {"lines", "border", "centre", "cube lead", "threats", "tempo", "total"})
    BOOST_TEST(text.find(word) != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
