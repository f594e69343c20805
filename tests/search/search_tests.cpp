// The two-player search's tactics, driven only through the Engine API (set_position, go, stop,
// ponderhit, wait and the two callbacks): hand-made positions (wins in one, two and three, a
// single safe move, a forced defence, lost games, a repetition of the game's history), checked
// against brute force over the rules, the legality of every bestmove, ponder move and PV on
// random positions, and what only this game's root has (searchmoves that leave out a win). The
// contract of `go` that the team search shares (limits, stop, ponder, threads, MultiPV, bench,
// finished games) is in search_contract_tests.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "core/symmetry.hpp"
#include "search/engine.hpp"
#include "search/root_symmetry.hpp"
#include "support/random_positions.hpp"
#include "support/search.hpp"
#include "support/search_limits.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::test;

namespace {

using Run = SearchRun<Move>;

// The random positions of these tests: each game's last before it ends, after at most 49 plies.
constexpr RandomGames kGames{0, 49, Keep::LastOngoing};

// True when the side to move wins by force within `moves` of its own moves: brute force over
// the rules, independent of the search (a move that makes the opponent's line loses, so the
// defender never plays one while it has another).
bool wins_within(const Position& position, int moves) {
  if (moves <= 0 || position.is_game_over()) return false;
  const MoveScan scan = scan_moves(position);
  if (scan.wins != 0) return true;
  if (moves == 1) return false;
  for (const Move move : position.legal_moves()) {
    if (contains(scan.losses, move)) continue;
    const Position reply_position = position.after(move);
    const MoveScan replies = scan_moves(reply_position);
    if (replies.wins != 0) continue;
    bool every_reply_loses = true;
    for (const Move reply : reply_position.legal_moves()) {
      if (contains(replies.losses, reply)) continue;
      if (!wins_within(reply_position.after(reply), moves - 1)) {
        every_reply_loses = false;
        break;
      }
    }
    if (every_reply_loses) return true;
  }
  return false;
}

// The first moves that win by force within `moves` moves.
SlideSet winning_first_moves(const Position& position, int moves) {
  SlideSet result = 0;
  const MoveScan scan = scan_moves(position);
  for (const Move move : position.legal_moves()) {
    if (contains(scan.wins, move)) {
      result |= SlideSet{1} << move.slide();
      continue;
    }
    if (contains(scan.losses, move)) continue;
    const Position reply_position = position.after(move);
    const MoveScan replies = scan_moves(reply_position);
    if (replies.wins != 0 || moves < 2) continue;
    bool every_reply_loses = true;
    for (const Move reply : reply_position.legal_moves())
      if (!contains(replies.losses, reply) &&
          !wins_within(reply_position.after(reply), moves - 1)) {
        every_reply_loses = false;
        break;
      }
    if (every_reply_loses) result |= SlideSet{1} << move.slide();
  }
  return result;
}

// --- The hand-made positions (docs/spec.md §3.3: ranks 5 down to 1, files a-e left to right). ---

// Win in one for X. X: b1 c1 d1 e1; O: b5 c5 d5; a1 and a5 blank. X completes rank 1 by
// taking a1 and pushing it in at e1 (b1-e1 slide to a1-d1, new X on e1), or by pushing a new X
// up the a-file into a1 (a2a1 ... a5a1: the blank or cube taken on the a-file, the squares
// below it move up one, new X on a1). O has only three in a row: no line, no threat.
constexpr std::string_view kWinInOne = "1ooo1/5/5/5/1xxxx x";
// The same with the colours swapped, O to move (and X threatening nothing).
constexpr std::string_view kWinInOneForO = "1xxx1/5/5/5/1oooo o";

// Every move but one loses at once. X: e5, d2, e1; O: all other border squares except a4
// (blank), and b4 c4 d4 c3 b2. X may take e5, e1 (its own) and a4 (blank): 7 moves.
//   e1e5: the e-file slides down, e2's O lands on e1: rank 1 all O.
//   e5e1: the e-file slides up, e4's O lands on e5: rank 5 (and a1-e5) all O.
//   e5a5: rank 5 slides right, d5's O lands on e5: the a1-e5 diagonal all O.
//   a4a1 / a4a5: a3's / a5's O slides into a4: rank 4 all O.
//   a4e4: rank 4 slides left, b4's O lands on a4: the a-file all O.
//   e1a1: rank 1 slides right, X on a1 and d1's O on e1: rank 1, the e-file (e5 is X) and the
//   a5-e1 diagonal (d2 is X) are not all O. The only move that does not lose at once; O then
//   wins at its next move (many ways), so the score is "mated in 2 plies".
constexpr std::string_view kOneSafeMove = "oooox/1oooo/o1o1o/oo1xo/oooox x";

// Win in two for X (mate in 3 plies), one first move. X: a4 c4 d4 b3 b2 b1; O: d3 d2 e2 d1.
// b5b1 (take the blank b5, push it in at b1: the b-file moves up one) leaves the b-file X on
// b1-b4 with b5 blank, and rank 4 X on a4-d4 with e4 blank: two threats, b5b1 again (the
// b-file) and e4a4 (rank 4 slides right, X on a4, d4's X lands on e4). No O move stops both, and
// O has no win of its own.
constexpr std::string_view kWinInTwo = "5/x1xx1/1x1o1/1x1oo/1x1o1 x";

// Win in three for X (mate in 5 plies), one first move. X: b4 c4 d4 e3 e2 e1; O: b5 d5 e5 a3 d3.
// c5e5 (rank 5 slides left, new X on e5) gives X the e-file but for e4, which rank 4 fills from
// either side (a4e4, e4a4, ...). O can break the e-file for now by pushing an O in at e1, e2, e3
// or e5 along a rank, but not for good. Checked by brute force in the test.
constexpr std::string_view kWinInThree = "1o1oo/1xxx1/o2ox/4x/4x x";

// A forced defence. O: b1 c1 d1 e1 and threatens to complete rank 1 by filling a1 (a1e1, or a
// new O pushed up the a-file: a2a1 ... a5a1). X: b5 c5 d5 (no threat of its own). Taking a1
// does not help (a1e1 leaves O on a1-d1 and e5e1 refills e1; a1a5 leaves a1 blank), nor does a
// new X on a1 from the a-file (O pushes it out again). The only defences put an X among b1-e1
// for good: b5b1, c5c1, d5d1 (X's own cubes pushed down their files) and e2e1, e3e1, e4e1,
// e5e1 (a new X pushed down the e-file, O's e1 moving up to e2): 7 of the 33 moves.
constexpr std::string_view kForcedDefence = "1xxx1/5/5/5/1oooo x";

// Every move loses at once. X holds only the corners a1 and e5, O every other border square.
// a1e1 slides b1's O into a1 (a-file all O), a1a5 slides a2's O into a1 (rank 1 all O), and
// e5a5 / e5e1 do the same on the e-file / rank 5.
constexpr std::string_view kAllMovesLose = "oooox/o3o/o3o/o3o/xoooo x";

// A repetition. P (X to move): O threatens d1d5 (the d-file slides down and d2-d5's O's with a
// new O on d5 fill it) and c5c1 (the c-file moves up, c2's O lands on c3: rank 3 all O). X's only
// defence is e5a5: rank 5 slides right, X's b5 lands on c5 (O cannot take it) and d5's O moves
// to e5 (the d-file is broken). It still loses by force (O wins at its second move). The game
// before P went P, e5a5 -> Q, a3e3 -> R, a5e5 -> S, e3a3 -> P (both sides pushed a cube of
// theirs along a line and back), so e5a5 now repeats Q: a draw, which is better than the loss.
constexpr std::string_view kRepetitionP = "1x1ox/xx1ox/ooxoo/x1oo1/5 x";
constexpr std::string_view kRepetitionCycle[] = {"e5a5", "a3e3", "a5e5", "e3a3"};

}  // namespace

BOOST_AUTO_TEST_SUITE(search_tests)

// --- Tactics ---

// A win in one is played and scored as mate in one ply whatever the limit, even a depth of 1, a
// single node or a millisecond.
BOOST_DATA_TEST_CASE(a_win_in_one_is_played_with_a_mate_score,
                     bdata::xrange(kLimitKinds) * bdata::make({1, 2}), limit_kind, threads) {
  Engine engine;
  engine.set_options(options(threads));
  for (const std::string_view text : {kWinInOne, kWinInOneForO}) {
    const Position position = parse_position(text);
    BOOST_TEST_REQUIRE(std::popcount(scan_moves(position).wins) == 5);
    const Run run = search(engine, position, limits_of_kind(limit_kind, position));
    check_answer(position, run);
    BOOST_TEST(contains(scan_moves(position).wins, run.best));
    // A search stopped inside its first iteration may report nothing; any report is mate 1.
    for (const SearchInfo& info : run.infos) {
      BOOST_TEST(info.score == mate_in(1));
      BOOST_TEST(contains(scan_moves(position).wins, info.pv.front()));
    }
    if (kind_reports(limit_kind)) BOOST_TEST(!run.infos.empty());
  }
}

// With every move but one losing at once, the one is played, at every limit but mate.
BOOST_DATA_TEST_CASE(moves_that_lose_at_once_are_avoided, bdata::xrange(kLimitKinds - 1),
                     limit_kind) {
  const Position position = parse_position(kOneSafeMove);
  const MoveScan scan = scan_moves(position);
  BOOST_TEST_REQUIRE(std::popcount(scan.legal) == 7);
  BOOST_TEST_REQUIRE(scan.wins == 0u);
  BOOST_TEST_REQUIRE(std::popcount(scan.legal & ~scan.losses) == 1);
  const Move safe = parse_move(position, "e1a1");
  BOOST_TEST_REQUIRE(contains(scan.legal & ~scan.losses, safe));
  Engine engine;
  engine.set_options(options());
  const Run run = search(engine, position, limits_of_kind(limit_kind, position));
  check_answer(position, run);
  BOOST_TEST((run.best == safe));
  // O wins at its next move whatever X does: mated in two plies. Only a 1 ms search that its
  // first clock check stops before the first iteration ends (thread start-up on a loaded machine
  // or under a sanitizer can take that long) sends instead its one line with the move's static
  // estimate.
  if (limit_kind == 3 && run.infos.size() == 1) return;
  for (const SearchInfo& info : run.infos) BOOST_TEST(info.score == mated_in(2));
}

// A forced win in two moves (two threats that cannot both be met) is found at a modest depth,
// with the mate score of a win at the third ply: with the default features, with every feature
// off and with every feature on.
BOOST_DATA_TEST_CASE(a_forced_win_in_two_is_found, bdata::make({2, 3, 5}) * bdata::make({0, 1, 2}),
                     depth, features) {
  const Position position = parse_position(kWinInTwo);
  BOOST_TEST_REQUIRE(!wins_within(position, 1));
  BOOST_TEST_REQUIRE(opponent_wins(position) == 0u);
  const SlideSet winning = winning_first_moves(position, 2);
  BOOST_TEST_REQUIRE(winning == (SlideSet{1} << parse_move(position, "b5b1").slide()));
  Engine engine;
  EngineOptions opts = options();
  if (features == 1) opts.features = all_features(false);
  if (features == 2) opts.features = all_features(true);
  engine.set_options(opts);
  const Run run = search(engine, position, depth_limit(depth));
  check_answer(position, run);
  BOOST_TEST(contains(winning, run.best));
  BOOST_TEST(run.last().score == mate_in(3));
  BOOST_TEST(mate_moves(run.last().score) == 2);
}

// The threat extension searches on at the horizon while a win in one is threatened: with it a
// depth-1 search already sees the win in two (O, at the horizon, cannot meet both threats);
// without it the horizon evaluates that position statically.
BOOST_AUTO_TEST_CASE(the_threat_extension_sees_a_win_in_two_at_depth_one) {
  const Position position = parse_position(kWinInTwo);
  Engine engine;
  EngineOptions opts = options();
  opts.features.threat_extension = true;
  engine.set_options(opts);
  const Run extended = search(engine, position, depth_limit(1));
  check_answer(position, extended);
  BOOST_TEST((extended.best == parse_move(position, "b5b1")));
  BOOST_TEST(extended.last().score == mate_in(3));
  opts.features.threat_extension = false;
  engine.set_options(opts);
  engine.new_game();
  const Run plain = search(engine, position, depth_limit(1));
  check_answer(position, plain);
  BOOST_TEST(!is_mate_score(plain.last().score));
}

// A win in three moves: found by depth 6 with the score of a win at the fifth ply, and the
// first move is one that wins by force (checked by brute force).
BOOST_AUTO_TEST_CASE(a_forced_win_in_three_is_found) {
  const Position position = parse_position(kWinInThree);
  BOOST_TEST_REQUIRE(opponent_wins(position) == 0u);
  BOOST_TEST_REQUIRE(!wins_within(position, 2));
  Engine engine;
  engine.set_options(options());
  const Run run = search(engine, position, depth_limit(6));
  check_answer(position, run);
  BOOST_TEST(run.last().score == mate_in(5));
  BOOST_TEST(mate_moves(run.last().score) == 3);
  BOOST_TEST(contains(winning_first_moves(position, 3), run.best));
  // `go mate 3` stops as soon as it has proven it.
  SearchLimits mate;
  mate.mate = 3;
  const Run mate_run = search(engine, position, mate);
  BOOST_TEST(mate_run.last().score == mate_in(5));
  BOOST_TEST(contains(winning_first_moves(position, 3), mate_run.best));
}

// The opponent threatens to win at once and only 7 of 33 moves parry it: one of them is played.
BOOST_DATA_TEST_CASE(a_threat_to_win_in_one_is_parried,
                     bdata::make({0, 1, 2, 3}) * bdata::make({1, 2}), limit_kind, threads) {
  const Position position = parse_position(kForcedDefence);
  BOOST_TEST_REQUIRE(opponent_wins(position) != 0u);
  BOOST_TEST_REQUIRE(scan_moves(position).wins == 0u);
  SlideSet parries = 0;
  for (const Move move : position.legal_moves())
    if (scan_moves(position.after(move)).wins == 0) parries |= SlideSet{1} << move.slide();
  BOOST_TEST_REQUIRE(std::popcount(parries) == 7);
  BOOST_TEST_REQUIRE(position.legal_moves().size() == 33u);
  Engine engine;
  engine.set_options(options(threads));
  const SearchLimits limits[] = {depth_limit(1), depth_limit(5), move_time(100),
                                 mover_clocks(position, 2000, 2000)};
  const Run run = search(engine, position, limits[limit_kind]);
  check_answer(position, run);
  BOOST_TEST(contains(parries, run.best));
  BOOST_TEST(run.last().score > -kMateBound);  // the defence holds for now
}

// When every move loses, a legal move is still played, with the score of the loss.
BOOST_DATA_TEST_CASE(a_lost_position_still_gets_a_move, bdata::make({1, 3}) * bdata::make({1, 2}),
                     depth, threads) {
  Engine engine;
  engine.set_options(options(threads));
  // Every move makes O's line: mated at once.
  const Position all_lose = parse_position(kAllMovesLose);
  BOOST_TEST_REQUIRE(scan_moves(all_lose).losses == scan_moves(all_lose).legal);
  BOOST_TEST_REQUIRE(all_lose.legal_moves().size() == 4u);
  const Run run = search(engine, all_lose, depth_limit(depth));
  check_answer(all_lose, run);
  BOOST_TEST(run.last().score == mated_in(1));
  BOOST_TEST(mate_moves(run.last().score) == -1);
  // O to move after X's b5b1 in kWinInTwo: every O move lets X win at once.
  const Position win_in_two = parse_position(kWinInTwo);
  const Position doomed = win_in_two.after(parse_move(win_in_two, "b5b1"));
  const Run doomed_run = search(engine, doomed, depth_limit(depth));
  check_answer(doomed, doomed_run);
  BOOST_TEST(doomed_run.last().score == mated_in(2));
}

// The only move that does not lose repeats a position of the game: the search scores it as a
// draw (docs/spec.md §4), where without the history it is a forced loss.
BOOST_AUTO_TEST_CASE(a_repetition_of_the_history_is_a_draw) {
  const Position p = parse_position(kRepetitionP);
  // Replay the cycle to build the history, and check that it comes back to P.
  std::vector<std::uint64_t> history;
  Position position = p;
  for (const std::string_view move : kRepetitionCycle) {
    history.push_back(position.key());
    BOOST_TEST_REQUIRE(!position.is_game_over());
    position = position.after(parse_move(position, move));
  }
  BOOST_TEST_REQUIRE((position == p));
  const Move defence = parse_move(p, "e5a5");
  const Position q = p.after(defence);
  BOOST_TEST_REQUIRE(history[1] == q.key());
  // The setting: e5a5 is the only move that does not let O win at once.
  SlideSet defences = 0;
  for (const Move move : p.legal_moves())
    if (!contains(scan_moves(p).losses, move) && scan_moves(p.after(move)).wins == 0)
      defences |= SlideSet{1} << move.slide();
  BOOST_TEST_REQUIRE(defences == (SlideSet{1} << defence.slide()));

  Engine engine;
  engine.set_options(options());
  const Run lost = search(engine, p, depth_limit(5));
  check_answer(p, lost);
  BOOST_TEST((lost.best == defence));
  BOOST_TEST(lost.last().score <= -kMateBound);  // without the history: a forced loss
  // Earlier positions with more blanks, which the search can never meet again, before the
  // cycle: the repetition is still found among the rest.
  const Position start = Position::start();
  history.insert(history.begin(), {start.key(), start.after(start.legal_moves()[0]).key()});
  for (const int depth : {1, 5}) {
    engine.new_game();
    const Run drawn = search(engine, p, depth_limit(depth), history);
    check_answer(p, drawn);
    BOOST_TEST((drawn.best == defence));
    BOOST_TEST(drawn.last().score == kDrawScore);
  }
}

// --- Legality ---

// Many random positions at tiny node limits and depths, one and two threads: every answer is
// legal and follows the rules of check_answer.
BOOST_DATA_TEST_CASE(every_answer_is_legal, bdata::make({1, 2}), threads) {
  Engine engine;
  engine.set_options(options(threads, 1, 1));
  int count = 0;
  for (const Position& position :
       random_positions<Position>(2024u + unsigned(threads), 60, kGames)) {
    const SearchLimits limits[] = {node_limit(1), node_limit(37), node_limit(400),
                                   depth_limit(1 + count % 3)};
    for (const SearchLimits& limit : limits) {
      const Run run = search(engine, position, limit);
      check_answer(position, run);
    }
    if (++count % 20 == 0) engine.new_game();
  }
}

// The pruning of issue 29 (null move, reverse futility, late move pruning, internal iterative
// reduction, razoring) prunes only where no win in one is threatened and the window is no proven
// result, so it neither misses a win in two nor claims one that is not there: on random late
// positions a depth-4 search scores a win within two moves exactly when brute force finds one, and
// plays a move that wins by force. With the pruning alone, and with every feature of the search on
// (the singular extension's multi-cut prunes too).
BOOST_DATA_TEST_CASE(pruning_keeps_wins_in_two_exact, bdata::make({0, 1}), features) {
  Engine engine;
  EngineOptions opts = options(1, 1, 1);
  if (features == 0) {
    opts.features.null_move_pruning = true;
    opts.features.reverse_futility = true;
    opts.features.late_move_pruning = true;
    opts.features.internal_iterative_reduction = true;
    opts.features.razoring = true;
  } else {
    opts.features = all_features(true);
    // The singular extension from depth 4, so that this depth-4 search tries it.
    opts.params.singular_min_depth = 4;
  }
  engine.set_options(opts);
  int wins = 0;
  for (const Position& position : random_positions<Position>(4242u, 40, kGames)) {
    const bool wins_in_two = wins_within(position, 2);
    const Run run = search(engine, position, depth_limit(4));
    check_answer(position, run);
    BOOST_TEST((run.last().score >= mate_in(3)) == wins_in_two, to_string(position));
    if (wins_in_two) {
      ++wins;
      BOOST_TEST(contains(winning_first_moves(position, 2), run.best), to_string(position));
    }
  }
  BOOST_TEST(wins >= 5);  // the sample has wins to find
}

// Every switch of the search that issue 29 added reaches the search: switched from its default,
// it changes the nodes of the same fixed-depth searches of the start and two quiet middle games
// (the singular extension from depth 4, so that depth 7 tries it, and the history reductions'
// divisor at its smallest, so that depth 7's small history values count). A switch wired to nothing
// would measure nothing in an SPRT. (TimeStability acts on the clock only: time_manager_tests.)
BOOST_DATA_TEST_CASE(every_switch_of_issue_29_changes_the_search, bdata::xrange(10), which) {
  static constexpr bool SearchFeatures::*kSwitches[] = {
      &SearchFeatures::null_move_pruning,    &SearchFeatures::reverse_futility,
      &SearchFeatures::late_move_pruning,    &SearchFeatures::internal_iterative_reduction,
      &SearchFeatures::continuation_history, &SearchFeatures::history_reductions,
      &SearchFeatures::singular_extension,   &SearchFeatures::threats_unreduced,
      &SearchFeatures::cut_node_reductions,  &SearchFeatures::razoring};
  static_assert(std::size(kSwitches) == 10);
  const Position positions[] = {Position::start(), parse_position("oo2x/x3x/o1x1x/o1o2/xoo2 x"),
                                parse_position("ox2o/5/x4/5/x3o x")};
  const auto nodes_with = [&](const EngineOptions& opts) {
    Engine engine;
    engine.set_options(opts);
    std::uint64_t nodes = 0;
    for (const Position& position : positions) {
      engine.new_game();
      nodes += search(engine, position, depth_limit(7)).last().nodes;
    }
    return nodes;
  };
  EngineOptions standard = options(1, 1, 4);
  standard.params.singular_min_depth = 4;
  standard.params.lmr_history_divisor = 128;
  EngineOptions switched = standard;
  switched.features.*kSwitches[which] = !(standard.features.*kSwitches[which]);
  BOOST_TEST(nodes_with(switched) != nodes_with(standard));
}

// With the table keyed by symmetric forms, moves come back from the canonical frame: every
// answer and every line must still be legal in the real position.
BOOST_AUTO_TEST_CASE(a_symmetric_table_gives_legal_answers) {
  Engine engine;
  EngineOptions opts = options(1, 1, 1);
  opts.features.symmetric_table = true;
  engine.set_options(opts);
  int count = 0;
  for (const Position& position : random_positions<Position>(77u, 40, kGames)) {
    const Run run = search(engine, position, depth_limit(2 + count % 4));
    check_answer(position, run);
    ++count;
  }
}

// `go searchmoves` leaves out even an unlisted move that wins at once.
BOOST_AUTO_TEST_CASE(searchmoves_leave_out_an_unlisted_win) {
  Engine engine;
  engine.set_options(options());
  const Position win = parse_position(kWinInOne);
  const Move quiet = parse_move(win, "e1e5");
  BOOST_TEST_REQUIRE(!contains(scan_moves(win).wins, quiet));
  SearchLimits only_quiet = depth_limit(3);
  only_quiet.search_moves = {quiet};
  const Run run = search(engine, win, only_quiet);
  check_answer(win, run, true);
  BOOST_TEST((run.best == quiet));
  BOOST_TEST(run.last().score != mate_in(1));
  for (const SearchInfo& info : run.infos) BOOST_TEST((info.pv.front() == quiet));
}

// Two threads find the forced win in two as one does.
BOOST_AUTO_TEST_CASE(two_threads_find_a_forced_win_in_two) {
  Engine engine;
  engine.set_options(options(2));
  const Position win_in_two = parse_position(kWinInTwo);
  const Run tactic = search(engine, win_in_two, depth_limit(4));
  check_answer(win_in_two, tactic);
  BOOST_TEST((tactic.best == parse_move(win_in_two, "b5b1")));
  BOOST_TEST(tactic.last().score == mate_in(3));
}

// --- Symmetric roots ---

// Root moves a symmetry of the root makes worth the same (root_symmetry.hpp), counted against
// brute force over positions: the moves left are one of each kind, where two moves are of a kind
// when a symmetry that keeps the root, and maps the game's history onto itself, maps one's child
// onto the other's (the identity: when they make the same position). At the start every symmetry
// counts: each of the 44 moves puts one X on the border, and 3 are left (a corner, a square next
// to one, a mid-edge square). With a history that only the mirror a <-> e keeps, the kinds are
// the mirror's; with a history that no symmetry keeps, only moves that make the same position are
// left out. The team game's start the same way.
template <class PositionT, class KeySet>
void check_symmetric_duplicates(const PositionT& root, const KeySet& history,
                                const std::vector<Symmetry>& group,
                                std::optional<std::size_t> expected_kept) {
  const auto legal = root.legal_moves();
  using MoveT = std::decay_t<decltype(*legal.begin())>;
  const std::vector<MoveT> moves(legal.begin(), legal.end());
  const std::vector<bool> duplicate =
      symmetric_duplicates(root, std::span<const MoveT>(moves), history);
  BOOST_TEST_REQUIRE(duplicate.size() == moves.size());
  std::vector<PositionT> kept;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const PositionT child = root.after(moves[i]);
    const bool image_of_kept = std::any_of(group.begin(), group.end(), [&](Symmetry symmetry) {
      return std::find(kept.begin(), kept.end(), transform(symmetry, child)) != kept.end();
    });
    BOOST_TEST(duplicate[i] == image_of_kept, to_string(moves[i]));
    if (!image_of_kept) kept.push_back(child);
  }
  if (expected_kept) BOOST_TEST(kept.size() == *expected_kept);
}

BOOST_AUTO_TEST_CASE(symmetric_root_moves_are_kept_once_each) {
  const Position start = Position::start();
  const std::vector<Symmetry> every(kAllSymmetries.begin(), kAllSymmetries.end());
  check_symmetric_duplicates(start, std::unordered_set<std::uint64_t>{}, every, 3);
  // A position that no symmetry keeps (X on a5, O on b5): with it alone in the history, one move
  // for each of the 16 border squares; with its mirror image too, the mirror still counts.
  const Position lopsided = parse_position("xo3/5/5/5/5 x");
  for (const Symmetry symmetry : kAllSymmetries)
    BOOST_TEST_REQUIRE((symmetry == Symmetry::Identity) ==
                       (transform(symmetry, lopsided) == lopsided));
  check_symmetric_duplicates(start, std::unordered_set<std::uint64_t>{lopsided.key()},
                             {Symmetry::Identity}, 16);
  const std::unordered_set<std::uint64_t> mirrored{
      lopsided.key(), transform(Symmetry::MirrorFiles, lopsided).key()};
  // 16 squares, c1 and c5 their own mirror images: 2 + 14 / 2 kinds.
  check_symmetric_duplicates(start, mirrored, {Symmetry::Identity, Symmetry::MirrorFiles}, 9);
  // A root that no symmetry keeps: only moves that make the same position are left out.
  const Position after_one = start.after(parse_move(start, "a5e5"));
  const Position after_two = after_one.after(parse_move(after_one, "b1b5"));
  check_symmetric_duplicates(after_two, std::unordered_set<std::uint64_t>{}, {Symmetry::Identity},
                             std::nullopt);
  std::set<Position4Key> no_history;
  // The team game's first move: the same 3 squares, the cube pointing to the mover or its partner.
  check_symmetric_duplicates(Position4::start(), no_history, every, 6);
}

// The search leaves them out: a root that every symmetry keeps, searched to a fixed depth, takes
// fewer nodes than with a history that no symmetry keeps (which makes it search every move
// rather than one of each kind), and still answers well. The history's position has the root's
// number of blanks: one with more could never come again, and the search disregards it. Without
// the symmetry both searches would be the same, node for node (the history's position cannot
// come again either: the root's side to move has no cube to take, so its move fills a blank).
// The saving is checked as the median over depths 4 to 8: a single depth's count hangs on the
// evaluation's move order (with the fourth generation's weights depth 7 saves only a third,
// against two thirds at depths 4-6).
// MultiPV's lines show every move.
BOOST_AUTO_TEST_CASE(a_symmetric_root_searches_one_move_of_each_kind) {
  const Position corners = parse_position("x3x/5/5/5/x3x o");
  const Position lopsided = parse_position("xxx2/5/5/5/x4 o");
  for (const Symmetry symmetry : kAllSymmetries) {
    BOOST_TEST_REQUIRE((transform(symmetry, corners) == corners));
    BOOST_TEST_REQUIRE((symmetry == Symmetry::Identity) ==
                       (transform(symmetry, lopsided) == lopsided));
  }
  Engine engine;
  engine.set_options(options());
  std::vector<double> savings;
  for (int depth = 4; depth <= 8; ++depth) {
    engine.new_game();
    const Run kinds = search(engine, corners, depth_limit(depth));
    engine.new_game();
    const Run every_square = search(engine, corners, depth_limit(depth), {lopsided.key()});
    check_answer(corners, kinds);
    check_answer(corners, every_square);
    BOOST_TEST(kinds.last().nodes < every_square.last().nodes, "depth " << depth);
    savings.push_back(static_cast<double>(every_square.last().nodes) /
                      static_cast<double>(kinds.last().nodes));
  }
  std::ranges::sort(savings);
  BOOST_TEST(savings[savings.size() / 2] > 2.0);
  // A history position with more blanks than the root changes nothing.
  engine.new_game();
  const Run kinds = search(engine, corners, depth_limit(7));
  engine.new_game();
  const Run unreachable =
      search(engine, corners, depth_limit(7), {parse_position("xo3/5/5/5/5 o").key()});
  BOOST_TEST(unreachable.last().nodes == kinds.last().nodes);
  const Position start = Position::start();
  Engine lines;
  lines.set_options(options(1, 16));
  const Run multipv = search(lines, start, depth_limit(2));
  std::set<int> reported;
  for (const auto& info : multipv.infos) reported.insert(info.multipv);
  BOOST_TEST(reported.size() == 16U);
}

BOOST_AUTO_TEST_SUITE_END()
