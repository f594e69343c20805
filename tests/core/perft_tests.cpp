// Perft: the table of docs/spec.md §3.4 from the start, the four-player start and seeded mid-game
// positions, all checked against numbers that do not come from the engine: that table, or the
// independent reference oracle (tests/reference) computed while the test runs.

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/notation.hpp"
#include "core/perft.hpp"
#include "reference/simple_rules.hpp"
#include "support/random_positions.hpp"

namespace {

namespace bdata = boost::unit_test::data;
namespace ref = quixo::reference;
using quixo::perft;
using quixo::perft_every_leaf;
using quixo::Position;
using quixo::Position4;

// docs/spec.md §3.4: perft from the two-player start, plies 0-5.
constexpr std::uint64_t kSpecStartPerft[] = {1, 44, 1836, 76596, 3018100, 118928388};

ref::SimplePosition to_reference(const Position& position) {
  return ref::parse_position(quixo::to_string(position));
}
ref::SimplePosition to_reference(const Position4& position) {
  return ref::parse_position(quixo::to_string(position));
}

// The reference's win for the side (or team) to move in `p`: at a leaf, this outcome means the
// player who just moved lost by making the other side's line.
ref::SimpleOutcome win_for_side_to_move(const ref::SimplePosition& p) {
  const bool x_to_move = p.four_player ? (p.to_move == 1 || p.to_move == 3) : p.to_move == 0;
  return x_to_move ? ref::SimpleOutcome::XWins : ref::SimpleOutcome::OWins;
}

// Leaves of the reference move tree, with those where the game has just ended (decisive) and,
// among them, those where the last mover made the other side's line (self-defeating).
struct ReferenceCounts {
  std::uint64_t leaves = 0;
  std::uint64_t decisive = 0;
  std::uint64_t self_defeating = 0;
};

void count_reference(const ref::SimplePosition& p, int depth, ReferenceCounts& counts) {
  if (depth == 0) {
    ++counts.leaves;
    const ref::SimpleOutcome outcome = ref::outcome(p);
    if (outcome != ref::SimpleOutcome::Ongoing) ++counts.decisive;
    if (outcome == win_for_side_to_move(p)) ++counts.self_defeating;
    return;
  }
  for (const std::string& move : ref::legal_moves(p))
    count_reference(ref::apply_move(p, move), depth - 1, counts);
}

ReferenceCounts reference_counts(const ref::SimplePosition& p, int depth) {
  ReferenceCounts counts;
  count_reference(p, depth, counts);
  return counts;
}

// One of the 8 symmetries of the square (bit 0: mirror the files, bit 1: mirror the ranks,
// bit 2: swap files and ranks), applied to the reference's cells. The rules commute with all of
// them, so a position and its images have the same perft.
ref::SimplePosition transformed(const ref::SimplePosition& p, int symmetry) {
  ref::SimplePosition image = p;
  for (int rank = 0; rank < 5; ++rank)
    for (int file = 0; file < 5; ++file) {
      int r = rank, f = file;
      if (symmetry & 1) f = 4 - f;
      if (symmetry & 2) r = 4 - r;
      if (symmetry & 4) std::swap(r, f);
      image.cells[r][f] = p.cells[rank][file];
    }
  return image;
}

std::string canonical_text(const ref::SimplePosition& p) {
  std::string best = ref::format_position(p);
  for (int symmetry = 1; symmetry < 8; ++symmetry)
    best = std::min(best, ref::format_position(transformed(p, symmetry)));
  return best;
}

// ref::perft(p, depth), computed faster: the children of p are grouped by their canonical form
// and each group's perft is computed once by the reference. Checked against plain ref::perft
// and the table of docs/spec.md §3.4 below before it is trusted for the four-player depth 4.
std::uint64_t reference_perft_by_symmetry(const ref::SimplePosition& p, int depth) {
  if (depth == 0) return 1;
  std::map<std::string, std::pair<ref::SimplePosition, std::uint64_t>> classes;
  for (const std::string& move : ref::legal_moves(p)) {
    const ref::SimplePosition child = ref::apply_move(p, move);
    ++classes.try_emplace(canonical_text(child), child, 0).first->second.second;
  }
  std::uint64_t total = 0;
  for (const auto& [key, entry] : classes)
    total += entry.second * ref::perft(entry.first, depth - 1);
  return total;
}

// A position 20-60 random plies into a game, still going on, in which a line (and so the end of
// the game) happens within two plies somewhere in its move tree.
template <class PositionT>
PositionT midgame_position(unsigned seed) {
  for (const PositionT& position : quixo::test::random_positions<PositionT>(
           seed, 100, {20, 60, quixo::test::Keep::AfterAllPlies}))
    if (perft_every_leaf(position, 2).decisive_leaves != 0) return position;
  BOOST_FAIL("no ongoing mid-game position with a line within two plies for seed " << seed);
  return PositionT::start();
}

// perft and perft_every_leaf of a position still going on against the reference: the leaves to
// `leaf_depth`, and the leaves and decisive leaves to `decisive_depth`.
template <class PositionT>
void check_against_reference(const PositionT& position, int leaf_depth, int decisive_depth) {
  const ref::SimplePosition reference = to_reference(position);
  BOOST_TEST_MESSAGE(quixo::to_string(position));
  BOOST_TEST_REQUIRE((ref::outcome(reference) == ref::SimpleOutcome::Ongoing));
  BOOST_TEST_CONTEXT("position " << quixo::to_string(position)) {
    for (int depth = 1; depth <= leaf_depth; ++depth) {
      const std::uint64_t expected = ref::perft(reference, depth);
      BOOST_TEST(perft(position, depth) == expected, "depth " << depth);
      BOOST_TEST(perft_every_leaf(position, depth).leaves == expected, "depth " << depth);
    }
    for (int depth = 1; depth <= decisive_depth; ++depth) {
      const ReferenceCounts expected = reference_counts(reference, depth);
      const quixo::PerftCounts counts = perft_every_leaf(position, depth);
      BOOST_TEST(counts.leaves == expected.leaves, "depth " << depth);
      BOOST_TEST(counts.decisive_leaves == expected.decisive, "depth " << depth);
    }
  }
}

// divide() to each depth up to `max_depth`: one entry per legal move in generation order, each
// the perft of the child (the engine's and the reference's), summing to perft.
template <class PositionT>
void check_divide(const PositionT& position, int max_depth) {
  const ref::SimplePosition reference = to_reference(position);
  for (int depth = 1; depth <= max_depth; ++depth) {
    BOOST_TEST_CONTEXT(quixo::to_string(position) << " depth " << depth) {
      const auto entries = quixo::divide(position, depth);
      const auto moves = position.legal_moves();
      BOOST_TEST_REQUIRE(entries.size() == moves.size());
      std::uint64_t sum = 0;
      for (std::size_t i = 0; i < entries.size(); ++i) {
        const auto& [move, count] = entries[i];
        BOOST_TEST((move == moves[i]), "entry " << i);
        BOOST_TEST(count == perft(position.after(move), depth - 1), quixo::to_string(move));
        BOOST_TEST(
            count == ref::perft(ref::apply_move(reference, quixo::to_string(move)), depth - 1),
            quixo::to_string(move));
        sum += count;
      }
      BOOST_TEST(sum == perft(position, depth));
      BOOST_TEST(sum == ref::perft(reference, depth));
    }
  }
}

const std::vector<unsigned> kTwoPlayerSeeds = {11, 23, 37, 41, 59, 67, 73, 89, 97, 101, 131, 151};
const std::vector<unsigned> kFourPlayerSeeds = {7, 19, 29, 43, 53, 61, 79, 83, 103, 109};

// Four-player positions in which the seat to move has no cube it may take: its only move is
// the pass. The border alternates the teams, so no line exists.
const std::vector<std::string> kPassPositions = {
    "XoXoX/o3o/X3X/o3o/XoXoX 1",  // seat 1 may take blanks or 'x': none on the border
    "OxOxO/x3x/O3O/x3x/OxOxO 2",  // seat 2 may take blanks or 'o': none on the border
    "oXoXo/X1x1X/o1O1o/X3X/oXoXo 4",
};

// Finished games set up by hand; each is checked to be over by the reference first.
const std::vector<std::string> kFinishedTwoPlayer = {
    "xxxxx/5/5/5/5 o",        // X made rank 5
    "xxxxx/5/5/5/ooooo x",    // both lines, X to move: O made X's line and lost
    "o4/1o3/2o2/3o1/4o x",    // a5-e1 diagonal of O
    "x4/x4/x4/x4/xoooo o",    // file a of X and O's cubes that do not make a line
    "4o/3ox/2ox1/1ox2/o4 o",  // a1-e5 diagonal of O, O to move
};
const std::vector<std::string> kFinishedFourPlayer = {
    "xXxXx/5/5/5/5 2",
    "xXxXx/5/5/5/oOoOo 3",  // both teams have a line, seat 3 (team A) to move: team A wins
    "O4/o4/O4/o4/O4 1",
};

}  // namespace

BOOST_AUTO_TEST_SUITE(perft_tests)

BOOST_AUTO_TEST_CASE(two_player_start_matches_spec_table) {
  const Position start = quixo::parse_position(quixo::kStartPosition);
  BOOST_TEST((start == Position::start()));
  for (int depth = 0; depth <= 5; ++depth) {
    BOOST_TEST_CONTEXT("depth " << depth) {
      BOOST_TEST(perft(start, depth) == kSpecStartPerft[depth]);
      const quixo::PerftCounts counts = perft_every_leaf(start, depth);
      BOOST_TEST(counts.leaves == kSpecStartPerft[depth]);
      // docs/spec.md §3.4: no line can exist before ply 9.
      BOOST_TEST(counts.decisive_leaves == 0u);
    }
  }
}

BOOST_AUTO_TEST_CASE(reference_oracle_matches_spec_table) {
  const ref::SimplePosition start = ref::parse_position("5/5/5/5/5 x");
  for (int depth = 0; depth <= 3; ++depth)
    BOOST_TEST(ref::perft(start, depth) == kSpecStartPerft[depth], "depth " << depth);
  // The symmetry shortcut used for the four-player depth 4, on a number docs/spec.md §3.4 gives.
  BOOST_TEST(reference_perft_by_symmetry(start, 3) == kSpecStartPerft[3]);
  BOOST_TEST(reference_perft_by_symmetry(start, 4) == kSpecStartPerft[4]);
}

BOOST_AUTO_TEST_CASE(four_player_start_matches_reference) {
  const Position4 start = quixo::parse_position4(quixo::kStartPosition4);
  BOOST_TEST((start == Position4::start()));
  const ref::SimplePosition reference_start = ref::parse_position("5/5/5/5/5 1");
  std::uint64_t expected[5] = {};
  for (int depth = 0; depth <= 3; ++depth) expected[depth] = ref::perft(reference_start, depth);
  BOOST_TEST(reference_perft_by_symmetry(reference_start, 3) == expected[3]);
  expected[4] = reference_perft_by_symmetry(reference_start, 4);
  BOOST_TEST(expected[1] == 88u);  // 44 geometries, each with the cube pointing to seat 1 or 3
  for (int depth = 0; depth <= 4; ++depth) {
    BOOST_TEST_CONTEXT("depth " << depth << ", reference " << expected[depth]) {
      BOOST_TEST(perft(start, depth) == expected[depth]);
      const quixo::PerftCounts counts = perft_every_leaf(start, depth);
      BOOST_TEST(counts.leaves == expected[depth]);
      // A team's symbol is on at most one cube more after each of its moves: no line before ply 9.
      BOOST_TEST(counts.decisive_leaves == 0u);
    }
  }
}

BOOST_DATA_TEST_CASE(two_player_midgame_matches_reference, bdata::make(kTwoPlayerSeeds), seed) {
  check_against_reference(midgame_position<Position>(seed), 4, 3);
}

BOOST_DATA_TEST_CASE(four_player_midgame_matches_reference, bdata::make(kFourPlayerSeeds), seed) {
  check_against_reference(midgame_position<Position4>(seed), 3, 2);
}

BOOST_DATA_TEST_CASE(four_player_pass_positions_match_reference, bdata::make(kPassPositions),
                     text) {
  const Position4 position = quixo::parse_position4(text);
  const ref::SimplePosition reference = ref::parse_position(text);
  BOOST_TEST_REQUIRE((ref::outcome(reference) == ref::SimpleOutcome::Ongoing));
  BOOST_TEST_REQUIRE(ref::legal_moves(reference) == std::vector<std::string>{"0000"});
  for (int depth = 1; depth <= 3; ++depth) {
    const std::uint64_t expected = ref::perft(reference, depth);
    BOOST_TEST(perft(position, depth) == expected, "depth " << depth);
    BOOST_TEST(perft_every_leaf(position, depth).leaves == expected, "depth " << depth);
  }
  for (int depth = 1; depth <= 2; ++depth) {
    const ReferenceCounts expected = reference_counts(reference, depth);
    BOOST_TEST(perft_every_leaf(position, depth).decisive_leaves == expected.decisive,
               "depth " << depth);
  }
}

// The mid-game sets are only worth having if the end of the game, including the rule that a
// mover who makes the other side's line loses, happens inside their trees. The reference says
// so, not the engine.
BOOST_AUTO_TEST_CASE(midgame_positions_exercise_both_line_rules) {
  ReferenceCounts two_player, four_player;
  std::set<std::string> texts;
  const auto count = [&](const auto& position, ReferenceCounts& total) {
    texts.insert(quixo::to_string(position));
    const ReferenceCounts counts = reference_counts(to_reference(position), 2);
    BOOST_TEST(counts.decisive > 0u, quixo::to_string(position));
    total.self_defeating += counts.self_defeating;
  };
  for (const unsigned seed : kTwoPlayerSeeds) count(midgame_position<Position>(seed), two_player);
  for (const unsigned seed : kFourPlayerSeeds)
    count(midgame_position<Position4>(seed), four_player);
  BOOST_TEST(texts.size() == kTwoPlayerSeeds.size() + kFourPlayerSeeds.size());
  BOOST_TEST(two_player.self_defeating > 0u);
  BOOST_TEST(four_player.self_defeating > 0u);
}

// divide(): one entry per legal move in generation order, each the perft of the child, summing
// to perft; for the two-player positions each entry is also checked against the reference.
BOOST_DATA_TEST_CASE(two_player_divide_sums_to_perft, bdata::make(kTwoPlayerSeeds), seed) {
  for (const Position& position : {Position::start(), midgame_position<Position>(seed)}) {
    check_divide(position, 3);
    BOOST_TEST(quixo::divide(position, 0).empty());
  }
}

BOOST_DATA_TEST_CASE(four_player_divide_sums_to_perft, bdata::make(kFourPlayerSeeds), seed) {
  check_divide(midgame_position<Position4>(seed), 2);
  if (seed == kFourPlayerSeeds.front()) check_divide(Position4::start(), 2);
  // Depth 3 below each move on the full-branching start, against the engine's own perft only.
  const Position4 start = Position4::start();
  if (seed == kFourPlayerSeeds.front()) {
    std::uint64_t sum = 0;
    for (const auto& [move, count] : quixo::divide(start, 3)) {
      BOOST_TEST(count == perft(start.after(move), 2), quixo::to_string(move));
      sum += count;
    }
    BOOST_TEST(sum == ref::perft(ref::parse_position("5/5/5/5/5 1"), 3));
  }
}

template <class PositionT>
void check_finished(const PositionT& position) {
  BOOST_TEST_CONTEXT(quixo::to_string(position)) {
    BOOST_TEST_REQUIRE((ref::outcome(to_reference(position)) != ref::SimpleOutcome::Ongoing));
    BOOST_TEST(perft(position, 0) == 1u);
    BOOST_TEST(perft_every_leaf(position, 0).leaves == 1u);
    for (int depth = 1; depth <= 3; ++depth) {
      BOOST_TEST(perft(position, depth) == 0u, "depth " << depth);
      const quixo::PerftCounts counts = perft_every_leaf(position, depth);
      BOOST_TEST(counts.leaves == 0u, "depth " << depth);
      BOOST_TEST(counts.decisive_leaves == 0u, "depth " << depth);
      BOOST_TEST(quixo::divide(position, depth).empty(), "depth " << depth);
    }
  }
}

BOOST_AUTO_TEST_CASE(finished_positions_have_perft_zero) {
  for (const std::string& text : kFinishedTwoPlayer) check_finished(quixo::parse_position(text));
  for (const std::string& text : kFinishedFourPlayer) check_finished(quixo::parse_position4(text));
  // And the last positions of seeded random games.
  int finished_two = 0, finished_four = 0;
  for (const Position& end :
       quixo::test::random_positions<Position>(2024, 40, {1000, 1000, quixo::test::Keep::Last}))
    if (end.is_game_over()) {
      ++finished_two;
      check_finished(end);
    }
  for (const Position4& end :
       quixo::test::random_positions<Position4>(2025, 40, {1000, 1000, quixo::test::Keep::Last}))
    if (end.is_game_over()) {
      ++finished_four;
      check_finished(end);
    }
  BOOST_TEST(finished_two > 20);
  BOOST_TEST(finished_four > 20);
}

BOOST_AUTO_TEST_SUITE_END()
