// The four-player team search's tactics, driven only through the Engine4 API (set_position, go,
// stop, ponderhit, wait and the two callbacks), and its evaluation. Tactics are checked against
// brute force over the rules core written here (a plain minimax that knows nothing of the search):
// wins in one, wins in two team moves with their exact distance (one through the next opponent's
// forced pass), lost positions, moves that make the other team's line, forced passes, repetitions
// of the game's history; then what only this game has (clocks by seat, searchmoves pointing the
// wrong way, the search features it takes). The contract of `go` that the two-player search
// shares (limits, stop, ponder, threads, determinism, bench, finished games) is in
// search_contract_tests.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/notation.hpp"
#include "search/engine4.hpp"
#include "search/evaluation4.hpp"
#include "support/random_positions.hpp"
#include "support/search4.hpp"
#include "support/search_limits.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::test;

BOOST_AUTO_TEST_SUITE(search4_tests)

namespace {

using SearchRun4 = SearchRun<Move4>;

// The random positions of these tests: each game's last before it ends, after at most 59 plies.
constexpr RandomGames kGames{0, 59, Keep::LastOngoing};

// --- Brute force over the rules core, independent of the search (with engine4.hpp's). ---

// Plain minimax to a horizon, for the team to move: kSolvedWin - k for a forced win at ply k
// (the k-th move from `position`, whoever's seat), -(kSolvedWin - k) for a forced loss at ply
// k, 0 when neither is forced within `horizon` plies. Every move is tried, passes included.
constexpr int kSolvedWin = 1000;
int solve(const Position4& position, int horizon, int ply = 0) {
  int best = -2 * kSolvedWin;
  for (const Move4 move : position.legal_moves()) {
    const Position4 child = position.after(move);
    int value;
    if (child.is_game_over())
      value = child.outcome() == win_for(position.team_to_move()) ? kSolvedWin - (ply + 1)
                                                                  : -(kSolvedWin - (ply + 1));
    else if (ply + 1 >= horizon)
      value = 0;
    else
      value = -solve(child, horizon, ply + 1);
    best = std::max(best, value);
  }
  return best;
}

// The first moves that force a win at exactly ply `plies` (or sooner), by solve().
std::vector<Move4> winning_first_moves(const Position4& position, int plies) {
  std::vector<Move4> result;
  for (const Move4 move : position.legal_moves()) {
    const Position4 child = position.after(move);
    if (child.is_game_over()) {
      if (is_win(position, move)) result.push_back(move);
      continue;
    }
    if (-solve(child, plies, 1) >= kSolvedWin - plies) result.push_back(move);
  }
  return result;
}

// --- Hand-made and brute-force-checked positions (docs/spec.md §3.3; x = X to seat 1, o = O to
// seat 2, X = X to seat 3, O = O to seat 4; the number is the seat to move). ---

// Wins in one: four cubes of the mover's team on a rank and a blank at its end, which the mover
// takes and pushes in at the other end. Seat 1 (X), seat 4 (O, the line mixes both O points)
// and seat 2.
const std::vector<std::string> kWinInOne = {"xxxx1/5/5/5/5 1", "OoOo1/5/5/5/5 4",
                                            "5/5/5/5/ooOo1 2"};

// Wins in two team moves (at ply 3: the mover, the next opponent, then the partner wins), no
// win in one. Found by a seeded random search over boards and checked by solve() in the test.
const std::vector<std::string> kWinInTwo = {
    "1x1Xx/1XX2/xXooo/o1Xo1/1oX1O 3",  "XX1ox/XoxXo/xo1xX/1xOXo/OOx1X 1",
    "Oo1O1/O1oXX/X1xXo/ooXo1/oOXOX 4", "2ooo/1OO1O/oO2o/ooXox/x1xXX 2",
    "1XoXo/xoOOo/XOxOX/O2x1/oxOXO 2",  "oOx1x/oX1xo/1oOOX/1oXXX/O2o1 4",
    "xOxO1/ooXXX/oXxox/oxXxO/1XoOx 3",
};

// A win in two through a forced pass. Seat 1 to move. Rank 5 is O X X X X; the a-file below
// it is O O O O and a1 holds an X pointing to seat 3, who wins by taking a1 and pushing it in at
// a5 (rank 5 all X). Seat 1 cannot take a1, and no border square is blank or holds an 'o', so
// seat 2 has nothing to take and must pass: almost any move of seat 1 wins at ply 3. Not
// c1a1x or e1a1x, which push a1's X away and put an 'x' there that seat 3 cannot take, while
// c1a1X and e1a1X (the same geometries with the other point) keep the win.
constexpr std::string_view kWinThroughPass = "OXXXX/OOxXO/OxOOx/OOOxx/XOxOx 1";

// Lost in two: every move of the mover either makes the other team's line or leaves the next
// opponent a win in one, and some moves do not lose at once. Checked by solve() in the test.
const std::vector<std::string> kLostInTwo = {
    "XXxxO/oOx1o/oXXXX/XOxO1/O1oxX 4", "X1X1X/oxxX1/xOxXo/XOx1x/x1oxX 2",
    "1O1Ox/oXXoO/OOoO1/O1O2/OOOXo 3",  "OOoO1/xoOoO/Ox1Ox/1X1o1/oxOXx 1",
    "XxoXx/X1Oxo/xXXXo/xo2X/OxoxX 4",
};

// One geometry (two moves: either point) does not make the other team's line; every other
// move does. Checked in the test.
const std::vector<std::string> kOneSafeGeometry = {
    "oxOXO/XxXoX/xxo1x/XxO1x/xoxxX 2", "OOoXo/o1ooO/X1XoO/OooOx/1OOoO 1",
    "1xooX/XoxxX/XxoXX/XxO1X/XXxxO 4", "X1xXo/OXXXx/xxxxO/XXxOX/oXOxo 2"};

// Every move makes the other team's line.
const std::vector<std::string> kAllMovesLose = {"xoOOo/OxxOo/oOOxO/oOx1o/XOoxx 3",
                                                "OOxxx/xXX1x/OxxoX/xXxOO/xXoxx 2"};

// Seat 1 must pass: the border holds only o and X cubes (seats 2 and 3), none blank.
constexpr std::string_view kForcedPass = "oXoXo/X3X/o3o/X3X/oXoXo 1";

// Only seat 1 has nothing to take: the border holds o, X and O cubes, none blank, no x.
constexpr std::string_view kOnlySeatOnePasses = "oXOXo/X3O/O3X/X3O/oXOXo 1";

}  // namespace

// --- Tactics ---

// A win in one is played and scored as mate in one ply whatever the limit.
BOOST_DATA_TEST_CASE(a_win_in_one_is_played_with_a_mate_score,
                     bdata::make(kWinInOne) * bdata::xrange(kLimitKinds), text, kind) {
  const Position4 position = parse_position4(text);
  const std::vector<Move4> wins = winning_moves(position);
  BOOST_TEST_REQUIRE(!wins.empty());
  Engine4 engine;
  engine.set_options(options());
  const SearchRun4 run = search(engine, position, limits_of_kind(kind, position));
  check_answer(position, run);
  BOOST_TEST(contains(wins, run.best));
  for (const SearchInfo4& info : run.infos) {
    BOOST_TEST(info.score == mate_in(1));
    BOOST_TEST(mate_moves(info.score) == 1);
    BOOST_TEST(contains(wins, info.pv.front()));
  }
  if (kind_reports(kind)) BOOST_TEST(!run.infos.empty());
}

// A forced win at the partner's next move is found with its exact distance (mate at ply 3,
// "mate 2" in team moves), and the move played is one of the brute-forced winning first moves.
BOOST_DATA_TEST_CASE(a_forced_win_in_two_team_moves_is_found_with_its_distance,
                     bdata::make(kWinInTwo) * bdata::make({3, 4, 6}), text, depth) {
  const Position4 position = parse_position4(text);
  BOOST_TEST_REQUIRE(winning_moves(position).empty());
  BOOST_TEST_REQUIRE(solve(position, 3) == kSolvedWin - 3);
  const std::vector<Move4> winning = winning_first_moves(position, 3);
  BOOST_TEST_REQUIRE(!winning.empty());
  Engine4 engine;
  engine.set_options(options());
  const SearchRun4 run = search(engine, position, depth_limit(depth));
  check_answer(position, run);
  BOOST_TEST(contains(winning, run.best), to_string(run.best) << " not in " << names(winning));
  BOOST_TEST(run.last().score == mate_in(3));
  BOOST_TEST(mate_moves(run.last().score) == 2);
  BOOST_TEST(to_string(run.last().pv.front()) == to_string(run.best));
}

// The same through the next opponent's forced pass: the pass is in the line, and the point of
// the first move decides (an 'x' on a1 spoils the win that an 'X' keeps).
BOOST_DATA_TEST_CASE(a_win_through_the_next_opponents_forced_pass, bdata::make({3, 5}), depth) {
  const Position4 position = parse_position4(kWinThroughPass);
  BOOST_TEST_REQUIRE(winning_moves(position).empty());
  BOOST_TEST_REQUIRE(solve(position, 3) == kSolvedWin - 3);
  const std::vector<Move4> winning = winning_first_moves(position, 3);
  const Move4 spoiling = parse_move(position, "c1a1x");
  const Move4 keeping = parse_move(position, "c1a1X");
  BOOST_TEST_REQUIRE(!contains(winning, spoiling));
  BOOST_TEST_REQUIRE(contains(winning, keeping));
  Engine4 engine;
  engine.set_options(options());
  SearchRun4 run = search(engine, position, depth_limit(depth));
  check_answer(position, run);
  BOOST_TEST(contains(winning, run.best));
  BOOST_TEST(run.last().score == mate_in(3));
  BOOST_TEST_REQUIRE(run.last().pv.size() >= 2u);
  BOOST_TEST(to_string(run.last().pv[1]) == "0000");
  BOOST_TEST(to_string(run.ponder) == "0000");

  run = search(engine, position, depth_limit(depth), {}, {spoiling, keeping});
  BOOST_TEST(to_string(run.best) == to_string(keeping));
  BOOST_TEST(run.last().score == mate_in(3));
  run = search(engine, position, depth_limit(depth), {}, {spoiling});
  BOOST_TEST(to_string(run.best) == to_string(spoiling));
  BOOST_TEST(run.last().score < mate_in(3));
}

// A position lost at the next opponent's move is scored so, and the move played still does
// not make the other team's line.
BOOST_DATA_TEST_CASE(a_loss_at_the_next_opponents_move_is_scored,
                     bdata::make(kLostInTwo) * bdata::make({1, 3, 5}), text, depth) {
  const Position4 position = parse_position4(text);
  BOOST_TEST_REQUIRE(winning_moves(position).empty());
  BOOST_TEST_REQUIRE(!safe_moves(position).empty());
  BOOST_TEST_REQUIRE(solve(position, 2) == -(kSolvedWin - 2));
  Engine4 engine;
  engine.set_options(options());
  const SearchRun4 run = search(engine, position, depth_limit(depth));
  check_answer(position, run);
  BOOST_TEST(run.last().score == mated_in(2));
  BOOST_TEST(mate_moves(run.last().score) == -1);
}

// With one safe geometry, one of its two moves is played, at every limit.
BOOST_DATA_TEST_CASE(moves_that_make_the_other_teams_line_are_avoided,
                     bdata::make(kOneSafeGeometry) * bdata::xrange(kLimitKinds - 1), text, kind) {
  const Position4 position = parse_position4(text);
  const std::vector<Move4> safe = safe_moves(position);
  BOOST_TEST_REQUIRE(safe.size() == 2u);
  BOOST_TEST_REQUIRE(safe[0].slide() == safe[1].slide());
  BOOST_TEST_REQUIRE(winning_moves(position).empty());
  BOOST_TEST_REQUIRE(position.legal_moves().size() > 2u);
  Engine4 engine;
  engine.set_options(options());
  const SearchRun4 run = search(engine, position, limits_of_kind(kind, position));
  check_answer(position, run);
  BOOST_TEST(contains(safe, run.best));
}

// When every move makes the other team's line, one of them is still played, scored as the loss
// at ply 1.
BOOST_DATA_TEST_CASE(a_position_where_every_move_loses_still_gets_a_move,
                     bdata::make(kAllMovesLose) * bdata::make({0, 1, 2}), text, kind) {
  const Position4 position = parse_position4(text);
  BOOST_TEST_REQUIRE(safe_moves(position).empty());
  BOOST_TEST_REQUIRE(!position.legal_moves().empty());
  Engine4 engine;
  engine.set_options(options());
  const SearchRun4 run = search(engine, position, limits_of_kind(kind, position));
  check_answer(position, run);
  for (const SearchInfo4& info : run.infos) BOOST_TEST(info.score == mated_in(1));
}

// Positions of random games: every answer is legal and sound, and a clear mate score is
// backed by the brute force.
BOOST_DATA_TEST_CASE(random_positions_get_sound_answers, bdata::make({11u, 12u, 13u}), seed) {
  Engine4 engine;
  engine.set_options(options());
  for (const Position4& position : random_positions<Position4>(seed, 8, kGames)) {
    const SearchRun4 run = search(engine, position, node_limit(4000));
    check_answer(position, run);
    const Score score = run.last().score;
    if (score == mate_in(1)) BOOST_TEST(!winning_moves(position).empty());
    if (score == mated_in(2)) BOOST_TEST(solve(position, 2) == -(kSolvedWin - 2));
  }
}

// --- Passes ---

// A seat with nothing to take gets the pass, at every limit, also when searchmoves name
// something else.
BOOST_DATA_TEST_CASE(a_forced_pass_is_returned_as_the_pass, bdata::xrange(kLimitKinds), kind) {
  const Position4 position = parse_position4(kForcedPass);
  BOOST_TEST_REQUIRE(position.legal_moves().size() == 1u);
  BOOST_TEST_REQUIRE(to_string(position.legal_moves()[0]) == "0000");
  Engine4 engine;
  engine.set_options(options());
  SearchRun4 run = search(engine, position, limits_of_kind(kind, position));
  check_answer(position, run);
  BOOST_TEST(to_string(run.best) == "0000");
  for (const SearchInfo4& info : run.infos) BOOST_TEST(to_string(info.pv.front()) == "0000");
  run = search(engine, position, limits_of_kind(kind, position), {},
               {Move4(SlideIndex(0), 0), Move4::none()});
  BOOST_TEST(to_string(run.best) == "0000");
}

// --- Repetition ---

// In a position lost at the next opponent's move, a move that repeats a position of the game's
// history is a draw, better than the loss: it is played and scored 0. The same board with
// another seat to move is another position and changes nothing. The repeating move takes a cube
// of the mover's team: a position after one that took a blank has fewer blanks than any
// position before the root, so could not repeat one.
BOOST_DATA_TEST_CASE(a_repetition_of_the_games_history_is_a_draw,
                     bdata::make(kLostInTwo) * bdata::make({2, 4}), text, depth) {
  const Position4 position = parse_position4(text);
  BOOST_TEST_REQUIRE(solve(position, 2) == -(kSolvedWin - 2));
  std::vector<Move4> safe = safe_moves(position);
  std::erase_if(safe, [&](Move4 move) {
    return move.is_pass() || (position.blanks() >> move.from() & 1) != 0;
  });
  BOOST_TEST_REQUIRE(!safe.empty());
  const Move4 repeating = safe.back();
  const Position4 repeated = position.after(repeating);
  Engine4 engine;
  engine.set_options(options());
  SearchRun4 run = search(engine, position, depth_limit(depth),
                          {Position4::start(), repeated, parse_position4(kForcedPass)});
  check_answer(position, run);
  BOOST_TEST(to_string(run.best) == to_string(repeating));
  BOOST_TEST(run.last().score == kDrawScore);

  const Position4 other_seat = with_seat(repeated, next_seat(repeated.seat_to_move()));
  BOOST_TEST_REQUIRE(!(other_seat == repeated));
  engine.new_game();
  run = search(engine, position, depth_limit(depth), {other_seat});
  BOOST_TEST(run.last().score == mated_in(2));
}

// --- The root ---

// Search moves of another position (here: pointing to the wrong team) are not legal: ignored, so
// that without a legal one all moves count (search_contract_tests checks that legal ones restrict
// the root).
BOOST_DATA_TEST_CASE(searchmoves_of_another_position_are_ignored, bdata::make({21u, 22u}), seed) {
  Engine4 engine;
  engine.set_options(options());
  for (const Position4& position : random_positions<Position4>(seed, 6, kGames)) {
    const std::vector<Move4> safe = safe_moves(position);
    if (safe.size() < 4) continue;
    const Seat other = next_seat(position.seat_to_move());
    const SearchRun4 run =
        search(engine, position, depth_limit(2), {}, {Move4(safe[0].slide(), other)});
    check_answer(position, run);
  }
}

// The search features that apply to the team search switch it as they switch the two-player
// one: each changes the tree (the node count of a fixed-depth search), none the soundness.
BOOST_AUTO_TEST_CASE(search_features_apply) {
  const Position4 position = parse_position4("O2XO/4O/5/o3x/X2XO 3");
  const auto nodes_with = [&](void (*change)(SearchFeatures&)) {
    Engine4 engine;
    EngineOptions opts = options();
    change(opts.features);
    engine.set_options(opts);
    const SearchRun4 run = search(engine, position, depth_limit(7));
    check_answer(position, run);
    return run.last().nodes;
  };
  const std::uint64_t all = nodes_with([](SearchFeatures&) {});
  BOOST_TEST(nodes_with([](SearchFeatures& f) { f.killers_and_history = false; }) != all);
  BOOST_TEST(nodes_with([](SearchFeatures& f) { f.late_move_reductions = false; }) > all);
  BOOST_TEST(nodes_with([](SearchFeatures& f) { f.aspiration_windows = false; }) != all);
}

// --- Evaluation ---

// The breakdown adds up to the evaluation, and each seat's wins in one are those of a position
// with the same cubes and that seat to move (its real takeable set).
BOOST_DATA_TEST_CASE(the_evaluation_adds_up_and_counts_each_seats_wins,
                     bdata::make({31u, 32u, 33u}), seed) {
  std::vector<Position4> positions = random_positions<Position4>(seed, 12, kGames);
  for (const std::string& text : kWinInTwo) positions.push_back(parse_position4(text));
  positions.push_back(parse_position4(kWinThroughPass));
  positions.push_back(parse_position4(kForcedPass));
  for (const Position4& position : positions) {
    BOOST_TEST_CONTEXT(to_string(position)) {
      const EvalBreakdown4 terms = evaluate_with_breakdown(position);
      BOOST_TEST(terms.total == evaluate(position));
      BOOST_TEST(terms.total == terms.lines + terms.border + terms.centre + terms.cube_lead +
                                    terms.mobility + terms.threats + terms.partner_threats +
                                    terms.later_threats + terms.passes + terms.tempo);
      for (int relative = 0; relative < kRelativeSeats; ++relative) {
        const Position4 seated = with_seat(position, (position.seat_to_move() + relative) & 3);
        int wins = 0;
        for (const Move4 move : seated.legal_moves())
          wins += move.point() == seated.seat_to_move() && is_win(seated, move);
        BOOST_TEST(terms.wins[relative] == wins, "relative seat " << relative);
        // Two moves per geometry, or the pass alone when there is none.
        const int moves = seated.takeable() == 0 ? 0 : int(seated.legal_moves().size());
        BOOST_TEST(2 * terms.mobility_slides[relative] == moves, "relative seat " << relative);
      }
    }
  }
}

// The start is even but for the tempo; forced passes count for the team that gains the tempo.
BOOST_AUTO_TEST_CASE(the_evaluation_of_the_start_and_of_forced_passes) {
  const EvalWeights4& weights = default_weights4();
  BOOST_TEST(evaluate(Position4::start()) == weights.tempo);
  // Seat 1 must pass here: its own forced pass counts against its team.
  const Position4 position = parse_position4(kOnlySeatOnePasses);
  BOOST_TEST_REQUIRE(!position.is_game_over());
  for (Seat seat = 1; seat < kSeatCount; ++seat)
    BOOST_TEST_REQUIRE(with_seat(position, seat).takeable() != 0u);
  const EvalBreakdown4 own = evaluate_with_breakdown(position);
  BOOST_TEST(own.mobility_slides[0] == 0);
  BOOST_TEST(own.passes == weights.forced_pass[0]);
  BOOST_TEST(weights.forced_pass[0] < 0);
  // The same cubes with seat 4 to move: seat 1 is now the next opponent, forced to pass.
  const EvalBreakdown4 next = evaluate_with_breakdown(with_seat(position, 3));
  BOOST_TEST(next.mobility_slides[1] == 0);
  BOOST_TEST(next.passes == weights.forced_pass[1]);
  BOOST_TEST(weights.forced_pass[1] > 0);
  // The position of the pass win: seat 2 (next) must pass and seat 3 (partner) threatens.
  const EvalBreakdown4 pass_win = evaluate_with_breakdown(parse_position4(kWinThroughPass));
  BOOST_TEST(pass_win.mobility_slides[1] == 0);
  BOOST_TEST(pass_win.wins[2] >= 1);
  BOOST_TEST(pass_win.partner_threats > 0);
  BOOST_TEST(pass_win.passes >= weights.forced_pass[1]);
}

BOOST_AUTO_TEST_SUITE_END()
