// What the rules suites of both games (position_tests, position4_tests) share: the hand-worked
// samples of a move and of a result, their checks against the engine and the independent oracle
// (tests/reference), and the legal moves by name.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"
#include "reference/simple_rules.hpp"
#include "support/random_positions.hpp"

namespace quixo::test {

// A move worked by hand from docs/spec.md §1: the position before, the move, the position after
// and its result ("ongoing", "X wins", "O wins").
struct MoveSample {
  std::string before;
  std::string move;
  std::string after;
  std::string outcome;  // of the position after the move
};
inline std::ostream& operator<<(std::ostream& out, const MoveSample& s) {
  return out << "'" << s.before << "' + " << s.move;
}

// A position and its result, by hand.
struct OutcomeSample {
  std::string position;
  std::string outcome;
};
inline std::ostream& operator<<(std::ostream& out, const OutcomeSample& s) {
  return out << "'" << s.position << "'";
}

template <class PositionT>
std::set<std::string> move_names(const PositionT& position) {
  std::set<std::string> names;
  for (const auto move : position.legal_moves()) names.insert(to_string(move));
  return names;
}

// `move` (the sample's move, built by the suite) is legal and gives the sample's position and
// result, in the engine and in the oracle. Returns the engine's position after it.
template <class PositionT, class MoveT>
PositionT check_move_sample(const MoveSample& sample, MoveT move) {
  const PositionT before = parse_as<PositionT>(sample.before);
  BOOST_TEST(before.is_legal(move));
  BOOST_TEST(before.legal_moves().contains(move));
  const PositionT after = before.after(move);
  BOOST_TEST(to_string(after) == sample.after);
  BOOST_TEST((after == parse_as<PositionT>(sample.after)));
  BOOST_TEST(to_string(after.outcome()) == sample.outcome);
  BOOST_TEST(after.is_game_over() == (sample.outcome != "ongoing"));
  const auto oracle_after =
      reference::apply_move(reference::parse_position(sample.before), sample.move);
  BOOST_TEST(reference::format_position(oracle_after) == sample.after);
  BOOST_TEST(reference::outcome_name(reference::outcome(oracle_after)) == sample.outcome);
  return after;
}

// The engine and the oracle give the sample's result.
template <class PositionT>
void check_outcome_sample(const OutcomeSample& sample) {
  BOOST_TEST(to_string(parse_as<PositionT>(sample.position).outcome()) == sample.outcome);
  BOOST_TEST(reference::outcome_name(
                 reference::outcome(reference::parse_position(sample.position))) == sample.outcome);
}

// Plays `games` seeded random games of at most 200 plies from the start beside the oracle: at
// every ply the engine's legal moves are the oracle's, as many as legal_move_count();
// `check_ply(position, move, next)` checks what only the game knows of the ply; and the next
// position and its result are the oracle's. Returns how many of the games ended.
template <class PositionT, class CheckPly>
int play_beside_the_oracle(unsigned seed, int games, CheckPly check_ply) {
  std::mt19937 rng(seed);
  int finished = 0;
  for (int game = 0; game < games; ++game) {
    PositionT position = PositionT::start();
    reference::SimplePosition oracle = reference::parse_position(to_string(position));
    for (int ply = 0; ply < 200 && !position.is_game_over(); ++ply) {
      const std::vector<std::string> oracle_moves = reference::legal_moves(oracle);
      BOOST_TEST_REQUIRE(move_names(position) ==
                         std::set<std::string>(oracle_moves.begin(), oracle_moves.end()));
      const auto moves = position.legal_moves();
      BOOST_TEST_REQUIRE(moves.size() == std::size_t(position.legal_move_count()));
      const auto move = moves[rng() % moves.size()];
      const PositionT next = position.after(move);
      check_ply(position, move, next);
      oracle = reference::apply_move(oracle, to_string(move));
      BOOST_TEST_REQUIRE(to_string(next) == reference::format_position(oracle));
      BOOST_TEST_REQUIRE(to_string(next.outcome()) ==
                         reference::outcome_name(reference::outcome(oracle)));
      position = next;
    }
    finished += position.is_game_over();
  }
  return finished;
}

}  // namespace quixo::test
