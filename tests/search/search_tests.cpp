// The search, driven only through the Engine API (set_position, go, stop, ponderhit, wait and the
// two callbacks): tactics in hand-made positions (wins in one, two and three, a single safe move,
// a forced defence, lost and finished games, a repetition of the game's history), the legality
// of every bestmove, ponder move and PV, and the contract of every limit (depth, nodes, movetime,
// clocks, infinite, ponder, searchmoves, MultiPV, threads) and of bench.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "search/engine.hpp"
#include "support/search_observer.hpp"
#include "support/two_player_search.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using std::chrono::milliseconds;
using test::Clock;
using test::depth_limit;
using test::move_time;
using test::node_limit;
using test::options;
using test::search;
using test::start;

namespace {

using SearchRun = test::SearchRun<Move>;
using Observer = test::SearchObserver<Move>;

SearchRun finish(Engine& engine, Observer& observer) {
  return test::finish_search(engine, observer);
}

SearchLimits clocks(std::int64_t x_ms, std::int64_t o_ms) {
  SearchLimits limits;
  limits.time_ms = {x_ms, o_ms};
  return limits;
}

bool contains(SlideSet set, Move move) {
  return !move.is_none() && ((set >> move.slide()) & 1) != 0;
}

std::string names(const std::vector<Move>& moves) {
  std::string text;
  for (const Move move : moves) text += (text.empty() ? "" : " ") + to_string(move);
  return text;
}

// Every move of the line is legal where it is played, and the line ends where the game does.
void check_pv(const Position& root, const SearchInfo& info) {
  BOOST_TEST_CONTEXT("pv " << names(info.pv) << " from " << to_string(root)) {
    BOOST_TEST(!info.pv.empty());
    Position position = root;
    for (const Move move : info.pv) {
      BOOST_TEST_REQUIRE(!position.is_game_over());
      BOOST_TEST_REQUIRE(position.is_legal(move));
      position = position.after(move);
    }
  }
}

// The answer to any search of an unfinished game: one legal bestmove, a legal ponder move (if
// any), legal lines; a win in one when there is one, and no move that loses at once while
// another does not.
void check_answer(const Position& position, const SearchRun& run) {
  BOOST_TEST_CONTEXT(to_string(position)
                     << " bestmove " << (run.best.is_none() ? "none" : to_string(run.best))) {
    BOOST_TEST(run.bestmove_count == 1);
    BOOST_TEST_REQUIRE(!run.best.is_none());
    BOOST_TEST_REQUIRE(position.is_legal(run.best));
    const Position next = position.after(run.best);
    if (!run.ponder.is_none()) {
      BOOST_TEST(!next.is_game_over());
      BOOST_TEST(next.is_legal(run.ponder));
    }
    const MoveScan scan = scan_moves(position);
    if (scan.wins != 0) BOOST_TEST(contains(scan.wins, run.best));
    if ((scan.legal & ~scan.losses) != 0) BOOST_TEST(!contains(scan.losses, run.best));
    for (const SearchInfo& info : run.infos) {
      check_pv(position, info);
      BOOST_TEST(info.depth >= 1);
      BOOST_TEST(info.selective_depth >= info.depth);
      BOOST_TEST(info.hashfull >= 0);
      BOOST_TEST(info.hashfull <= 1000);
    }
  }
}

// Positions of random games (seeded), each taken while the game is still going on.
std::vector<Position> random_positions(unsigned seed, int count) {
  std::mt19937 rng(seed);
  std::vector<Position> positions;
  while (int(positions.size()) < count) {
    Position position = Position::start();
    const int plies = int(rng() % 50);
    for (int ply = 0; ply < plies; ++ply) {
      const MoveList2 moves = position.legal_moves();
      const Position next = position.after(moves[rng() % moves.size()]);
      if (next.is_game_over()) break;
      position = next;
    }
    positions.push_back(position);
  }
  return positions;
}

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

// Finished games: a line on the board, whoever is to move.
constexpr std::string_view kFinished[] = {"5/5/5/5/xxxxx o", "5/5/5/5/xxxxx x",
                                          "o4/o4/o4/o4/o1xx1 x", "ooooo/5/5/5/xxxxx x"};

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
                     bdata::make({0, 1, 2, 3, 4, 5}) * bdata::make({1, 2}), limit_kind, threads) {
  Engine engine;
  engine.set_options(options(threads));
  SearchLimits limits;
  switch (limit_kind) {
    case 0:
      limits = depth_limit(1);
      break;
    case 1:
      limits = depth_limit(6);
      break;
    case 2:
      limits = node_limit(1);
      break;
    case 3:
      limits = move_time(1);
      break;
    case 4:
      limits = clocks(1000, 1000);
      break;
    default:
      limits.mate = 1;
      break;
  }
  for (const std::string_view text : {kWinInOne, kWinInOneForO}) {
    const Position position = parse_position(text);
    BOOST_TEST_REQUIRE(std::popcount(scan_moves(position).wins) == 5);
    const SearchRun run = search(engine, position, limits);
    check_answer(position, run);
    BOOST_TEST(contains(scan_moves(position).wins, run.best));
    // A search stopped inside its first iteration may report nothing; any report is mate 1.
    for (const SearchInfo& info : run.infos) {
      BOOST_TEST(info.score == mate_in(1));
      BOOST_TEST(contains(scan_moves(position).wins, info.pv.front()));
    }
    if (limit_kind != 2 && limit_kind != 3) BOOST_TEST(!run.infos.empty());
  }
}

// With every move but one losing at once, the one is played, at every limit.
BOOST_DATA_TEST_CASE(moves_that_lose_at_once_are_avoided, bdata::make({0, 1, 2, 3, 4}),
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
  const SearchLimits limits[] = {depth_limit(1), depth_limit(4), node_limit(1), move_time(1),
                                 move_time(50)};
  const SearchRun run = search(engine, position, limits[limit_kind]);
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
  if (features == 1) opts.features = SearchFeatures{false, false, false, false, false, false};
  if (features == 2) opts.features = SearchFeatures{true, true, true, true, true, true};
  engine.set_options(opts);
  const SearchRun run = search(engine, position, depth_limit(depth));
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
  const SearchRun extended = search(engine, position, depth_limit(1));
  check_answer(position, extended);
  BOOST_TEST((extended.best == parse_move(position, "b5b1")));
  BOOST_TEST(extended.last().score == mate_in(3));
  opts.features.threat_extension = false;
  engine.set_options(opts);
  engine.new_game();
  const SearchRun plain = search(engine, position, depth_limit(1));
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
  const SearchRun run = search(engine, position, depth_limit(6));
  check_answer(position, run);
  BOOST_TEST(run.last().score == mate_in(5));
  BOOST_TEST(mate_moves(run.last().score) == 3);
  BOOST_TEST(contains(winning_first_moves(position, 3), run.best));
  // `go mate 3` stops as soon as it has proven it.
  SearchLimits mate;
  mate.mate = 3;
  const SearchRun mate_run = search(engine, position, mate);
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
                                 clocks(2000, 2000)};
  const SearchRun run = search(engine, position, limits[limit_kind]);
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
  const SearchRun run = search(engine, all_lose, depth_limit(depth));
  check_answer(all_lose, run);
  BOOST_TEST(run.last().score == mated_in(1));
  BOOST_TEST(mate_moves(run.last().score) == -1);
  // O to move after X's b5b1 in kWinInTwo: every O move lets X win at once.
  const Position win_in_two = parse_position(kWinInTwo);
  const Position doomed = win_in_two.after(parse_move(win_in_two, "b5b1"));
  const SearchRun doomed_run = search(engine, doomed, depth_limit(depth));
  check_answer(doomed, doomed_run);
  BOOST_TEST(doomed_run.last().score == mated_in(2));
}

// A finished game has no move: the one bestmove is Move::none(), whatever the limits.
BOOST_DATA_TEST_CASE(a_finished_game_answers_none, bdata::make({0, 1, 2, 3, 4}), limit_kind) {
  Engine engine;
  engine.set_options(options(2));
  SearchLimits searchmoves = depth_limit(3);
  searchmoves.search_moves = {parse_move(Position::start(), "a1e1")};
  const SearchLimits limits[] = {depth_limit(3), node_limit(100), move_time(20), clocks(1000, 1000),
                                 searchmoves};
  for (const std::string_view text : kFinished) {
    const Position position = parse_position(text);
    BOOST_TEST_REQUIRE(position.is_game_over());
    const SearchRun run = search(engine, position, limits[limit_kind]);
    BOOST_TEST(run.best.is_none());
    BOOST_TEST(run.ponder.is_none());
  }
  // Infinite: still no answer before stop, and then none.
  engine.set_position(parse_position(kFinished[0]), {});
  SearchLimits infinite;
  infinite.infinite = true;
  const auto observer = start(engine, infinite);
  std::this_thread::sleep_for(milliseconds(50));
  BOOST_TEST(observer->bestmove_count() == 0);
  engine.stop();
  const SearchRun run = finish(engine, *observer);
  BOOST_TEST(run.best.is_none());
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
  const SearchRun lost = search(engine, p, depth_limit(5));
  check_answer(p, lost);
  BOOST_TEST((lost.best == defence));
  BOOST_TEST(lost.last().score <= -kMateBound);  // without the history: a forced loss
  for (const int depth : {1, 5}) {
    engine.new_game();
    const SearchRun drawn = search(engine, p, depth_limit(depth), history);
    check_answer(p, drawn);
    BOOST_TEST((drawn.best == defence));
    BOOST_TEST(drawn.last().score == kDrawScore);
  }
}

// --- Legality and the one answer per go ---

// Many random positions at tiny node limits and depths, one and two threads: every answer is
// legal and follows the rules of check_answer.
BOOST_DATA_TEST_CASE(every_answer_is_legal, bdata::make({1, 2}), threads) {
  Engine engine;
  engine.set_options(options(threads, 1, 1));
  int count = 0;
  for (const Position& position : random_positions(2024u + unsigned(threads), 60)) {
    const SearchLimits limits[] = {node_limit(1), node_limit(37), node_limit(400),
                                   depth_limit(1 + count % 3)};
    for (const SearchLimits& limit : limits) {
      const SearchRun run = search(engine, position, limit);
      check_answer(position, run);
    }
    if (++count % 20 == 0) engine.new_game();
  }
}

// With the table keyed by symmetric forms, moves come back from the canonical frame: every
// answer and every line must still be legal in the real position.
BOOST_AUTO_TEST_CASE(a_symmetric_table_gives_legal_answers) {
  Engine engine;
  EngineOptions opts = options(1, 1, 1);
  opts.features.symmetric_table = true;
  engine.set_options(opts);
  int count = 0;
  for (const Position& position : random_positions(77u, 40)) {
    const SearchRun run = search(engine, position, depth_limit(2 + count % 4));
    check_answer(position, run);
    ++count;
  }
}

// Exactly one bestmove per go, even when stop or ponderhit comes at once, or stop comes when
// nothing runs.
BOOST_DATA_TEST_CASE(exactly_one_bestmove_per_go, bdata::make({1, 2}), threads) {
  Engine engine;
  engine.set_options(options(threads));
  engine.stop();  // nothing running: harmless
  const Position position = parse_position("ox2o/5/x4/5/x3o x");
  engine.set_position(position, {});
  for (int round = 0; round < 30; ++round) {
    SearchLimits limits;
    switch (round % 5) {
      case 0:
        limits.infinite = true;
        break;
      case 1:
        limits.ponder = true;
        limits.move_time_ms = 5;
        break;
      case 2:
        limits = depth_limit(2);
        break;
      case 3:
        limits = move_time(3);
        break;
      default:
        limits = node_limit(50);
        break;
    }
    const auto observer = start(engine, limits);
    if (round % 5 == 1)
      engine.ponderhit();
    else
      engine.stop();
    const SearchRun run = finish(engine, *observer);
    check_answer(position, run);
    engine.stop();
  }
  // After all that, a normal search still runs to its depth.
  const SearchRun run = search(engine, position, depth_limit(4));
  BOOST_TEST(run.last().depth == 4);
}

// --- Limits ---

// `go depth D`: one report per depth, 1 to D in order, the last one D.
BOOST_DATA_TEST_CASE(depth_reports_every_depth_up_to_the_limit, bdata::make({1, 2, 4, 6}), depth) {
  Engine engine;
  engine.set_options(options());
  for (const std::string_view text : {"5/5/5/5/5 x", "oo2x/x3x/o1x1x/o1o2/xoo2 x"}) {
    const Position position = parse_position(text);
    const SearchRun run = search(engine, position, depth_limit(depth));
    check_answer(position, run);
    BOOST_TEST_REQUIRE(int(run.infos.size()) == depth);
    for (int i = 0; i < depth; ++i) {
      BOOST_TEST(run.infos[std::size_t(i)].depth == i + 1);
      BOOST_TEST(int(run.infos[std::size_t(i)].bound) == int(Bound::Exact));
    }
    BOOST_TEST(run.last().depth == depth);
    BOOST_TEST(!is_mate_score(run.last().score));
  }
}

// `go nodes N` (one thread): it never stops before N nodes and never runs more than 2048 past
// them. The search is deterministic after new_game, so a depth that took n nodes completes
// with a limit of n nodes, and does not with a limit of n - 2049.
BOOST_AUTO_TEST_CASE(nodes_stops_near_the_limit) {
  Engine engine;
  engine.set_options(options());
  const Position position = parse_position("ox2o/5/x4/5/x3o x");
  engine.new_game();
  const SearchRun full = search(engine, position, depth_limit(6));
  BOOST_TEST_REQUIRE(full.last().depth == 6);
  const std::uint64_t n = full.last().nodes;
  BOOST_TEST_REQUIRE(n > 10000u);
  BOOST_TEST_MESSAGE("depth 6 took " << n << " nodes");

  engine.new_game();
  const SearchRun enough = search(engine, position, node_limit(n));
  check_answer(position, enough);
  BOOST_TEST(enough.last().depth >= 6);
  BOOST_TEST(enough.infos[5].nodes == n);

  engine.new_game();
  const SearchRun short_of = search(engine, position, node_limit(n - 2049));
  check_answer(position, short_of);
  BOOST_TEST(short_of.last_completed().depth == 5);
  // A move that improved in the unfinished depth 6 is shown by one more line, a lower bound.
  if (short_of.last().depth == 6) BOOST_TEST((short_of.last().bound == Bound::Lower));
  for (const SearchInfo& info : short_of.infos) BOOST_TEST(info.nodes <= n - 2049 + 2048);

  // Two threads share the limit: the search still ends, and its reports stay near it.
  engine.set_options(options(2));
  const SearchRun two = search(engine, position, node_limit(20000));
  check_answer(position, two);
  for (const SearchInfo& info : two.infos) BOOST_TEST(info.nodes <= 20000u + 2 * 2048u);
}

// `go movetime 100`: uses a good part of the time and returns well within it (bounds are loose:
// the machine may be loaded). With no overhead the soft limit is 100 ms, and the search never
// stops before 60% of it.
BOOST_DATA_TEST_CASE(movetime_is_respected, bdata::make({0, 30}), overhead) {
  Engine engine;
  EngineOptions opts = options();
  opts.move_overhead_ms = overhead;
  engine.set_options(opts);
  const Position position = Position::start();
  const SearchRun run = search(engine, position, move_time(100));
  check_answer(position, run);
  BOOST_TEST_MESSAGE("movetime 100, overhead " << overhead << ": " << run.elapsed_ms() << " ms");
  BOOST_TEST(run.elapsed_ms() >= (overhead == 0 ? 50 : 35));
  BOOST_TEST(run.elapsed_ms() < 1500);
  BOOST_TEST(!run.infos.empty());
}

// Clock mode: one second each, no increment: the move takes a small share of the clock of the
// side to move, never the other side's.
BOOST_AUTO_TEST_CASE(clock_mode_uses_well_under_the_clock) {
  Engine engine;
  engine.set_options(options());
  const Position x_to_move = Position::start();
  const SearchRun even = search(engine, x_to_move, clocks(1000, 1000));
  check_answer(x_to_move, even);
  BOOST_TEST_MESSAGE("1000/1000: " << even.elapsed_ms() << " ms");
  BOOST_TEST(even.elapsed_ms() < 500);
  // X has one second, O an hour: X's clock counts.
  const SearchRun x_short = search(engine, x_to_move, clocks(1000, 3600000));
  BOOST_TEST(x_short.elapsed_ms() < 500);
  // O to move with one second against X's hour.
  const Position o_to_move = Position::start().after(parse_move(Position::start(), "a1e1"));
  const SearchRun o_short = search(engine, o_to_move, clocks(3600000, 1000));
  check_answer(o_to_move, o_short);
  BOOST_TEST(o_short.elapsed_ms() < 500);
  // A clock of a few milliseconds still gets a legal move at once.
  const SearchRun tiny = search(engine, x_to_move, clocks(5, 5));
  check_answer(x_to_move, tiny);
  BOOST_TEST(tiny.elapsed_ms() < 300);
}

// `go infinite`: no bestmove until stop, even when the search has nothing left to find (a win
// in one), then exactly one.
BOOST_DATA_TEST_CASE(infinite_waits_for_stop, bdata::make({1, 2}), threads) {
  Engine engine;
  engine.set_options(options(threads));
  for (const std::string_view text : {std::string_view("5/5/5/5/5 x"), kWinInOne}) {
    const Position position = parse_position(text);
    engine.set_position(position, {});
    SearchLimits limits;
    limits.infinite = true;
    const auto observer = start(engine, limits);
    std::this_thread::sleep_for(milliseconds(250));
    BOOST_TEST(observer->bestmove_count() == 0);
    BOOST_TEST(engine.searching());
    const auto stopped = Clock::now();
    engine.stop();
    const SearchRun run = finish(engine, *observer);
    check_answer(position, run);
    BOOST_TEST(std::chrono::duration_cast<milliseconds>(run.answered - stopped).count() < 1000);
    BOOST_TEST(!run.infos.empty());
  }
}

// `go ponder`: no bestmove while pondering; after ponderhit the normal limits apply, counted from
// the ponderhit. With movetime 200 (overhead 30: 170 ms) the search goes on for a good while
// after the ponderhit, not zero (as if the time counted from the go), and not forever.
BOOST_AUTO_TEST_CASE(ponder_waits_for_ponderhit_then_obeys_the_limits) {
  Engine engine;
  engine.set_options(options());
  // The start position: no forced result is found while pondering, which would end the search
  // early and answer at once after the ponderhit.
  const Position position = Position::start();
  engine.set_position(position, {});
  SearchLimits limits = move_time(200);
  limits.ponder = true;
  const auto observer = start(engine, limits);
  std::this_thread::sleep_for(milliseconds(400));
  BOOST_TEST(observer->bestmove_count() == 0);
  const auto hit = Clock::now();
  engine.ponderhit();
  const SearchRun run = finish(engine, *observer);
  check_answer(position, run);
  const auto after_hit = std::chrono::duration_cast<milliseconds>(run.answered - hit).count();
  BOOST_TEST_MESSAGE("bestmove " << after_hit << " ms after ponderhit");
  BOOST_TEST(after_hit >= 60);
  BOOST_TEST(after_hit < 1500);

  // Clock limits after a ponderhit: a second on the clock, so well under it.
  SearchLimits clock_ponder = clocks(1000, 1000);
  clock_ponder.ponder = true;
  const auto clock_observer = start(engine, clock_ponder);
  std::this_thread::sleep_for(milliseconds(200));
  BOOST_TEST(clock_observer->bestmove_count() == 0);
  const auto clock_hit = Clock::now();
  engine.ponderhit();
  const SearchRun clock_run = finish(engine, *clock_observer);
  check_answer(position, clock_run);
  BOOST_TEST(std::chrono::duration_cast<milliseconds>(clock_run.answered - clock_hit).count() <
             800);

  // A ponder search that is stopped instead answers at once, exactly once.
  const auto stop_observer = start(engine, clock_ponder);
  std::this_thread::sleep_for(milliseconds(50));
  BOOST_TEST(stop_observer->bestmove_count() == 0);
  engine.stop();
  check_answer(position, finish(engine, *stop_observer));
}

// `go searchmoves`: only the listed moves are searched and played, even when an unlisted move
// wins at once.
BOOST_AUTO_TEST_CASE(searchmoves_restricts_the_root) {
  Engine engine;
  engine.set_options(options());
  const Position start = Position::start();
  SearchLimits limits = depth_limit(4);
  limits.search_moves = {parse_move(start, "b1b5"), parse_move(start, "c1c5")};
  const SearchRun run = search(engine, start, limits);
  check_answer(start, run);
  BOOST_TEST((run.best == limits.search_moves[0] || run.best == limits.search_moves[1]));
  for (const SearchInfo& info : run.infos)
    BOOST_TEST(
        (info.pv.front() == limits.search_moves[0] || info.pv.front() == limits.search_moves[1]));

  const Position win = parse_position(kWinInOne);
  const Move quiet = parse_move(win, "e1e5");
  BOOST_TEST_REQUIRE(!contains(scan_moves(win).wins, quiet));
  SearchLimits only_quiet = depth_limit(3);
  only_quiet.search_moves = {quiet};
  const SearchRun quiet_run = search(engine, win, only_quiet);
  BOOST_TEST((quiet_run.best == quiet));
  BOOST_TEST(quiet_run.last().score != mate_in(1));
  for (const SearchInfo& info : quiet_run.infos) BOOST_TEST((info.pv.front() == quiet));
}

// MultiPV 3: each depth reports lines 1, 2 and 3 with different first moves, best first.
BOOST_DATA_TEST_CASE(multipv_reports_distinct_lines, bdata::make({1, 2}), threads) {
  Engine engine;
  engine.set_options(options(threads, 3));
  for (const std::string_view text :
       {std::string_view("5/5/5/5/5 x"), std::string_view("oo2x/x3x/o1x1x/o1o2/xoo2 x"),
        kAllMovesLose}) {
    const Position position = parse_position(text);
    const SearchRun run = search(engine, position, depth_limit(4));
    check_answer(position, run);
    BOOST_TEST_CONTEXT(text) {
      BOOST_TEST_REQUIRE(run.infos.size() >= 3u);
      const int last_depth = run.last().depth;
      std::vector<const SearchInfo*> lines(4, nullptr);
      for (const SearchInfo& info : run.infos) {
        BOOST_TEST(info.multipv >= 1);
        BOOST_TEST(info.multipv <= 3);
        if (info.depth == last_depth && info.multipv >= 1 && info.multipv <= 3)
          lines[std::size_t(info.multipv)] = &info;
      }
      BOOST_TEST_REQUIRE((lines[1] && lines[2] && lines[3]));
      std::set<int> first_moves;
      for (int i = 1; i <= 3; ++i) first_moves.insert(lines[std::size_t(i)]->pv.front().slide());
      BOOST_TEST(first_moves.size() == 3u);
      BOOST_TEST(lines[1]->score >= lines[2]->score);
      BOOST_TEST(lines[2]->score >= lines[3]->score);
      BOOST_TEST((run.best == lines[1]->pv.front()));
    }
  }
}

// Two threads: legal answers, and the tactics still hold.
BOOST_AUTO_TEST_CASE(two_threads_work) {
  Engine engine;
  engine.set_options(options(2));
  const Position start = Position::start();
  const SearchRun deep = search(engine, start, depth_limit(6));
  check_answer(start, deep);
  BOOST_TEST(deep.last().depth == 6);
  const SearchRun timed = search(engine, start, move_time(150));
  check_answer(start, timed);
  BOOST_TEST(timed.elapsed_ms() < 1500);
  const Position win_in_two = parse_position(kWinInTwo);
  const SearchRun tactic = search(engine, win_in_two, depth_limit(4));
  BOOST_TEST((tactic.best == parse_move(win_in_two, "b5b1")));
  BOOST_TEST(tactic.last().score == mate_in(3));
}

// Lazy SMP under random timing (issue 9; the tsan preset runs it under ThreadSanitizer): three
// and four threads, every kind of search ended by stop, ponderhit, both at once, or its own
// limit racing a stop, at random moments, with new games and table resizes in between. Every go
// gets exactly one legal bestmove, every line is legal, the last line shows the move played,
// and a stop is answered promptly.
BOOST_DATA_TEST_CASE(many_threads_stopped_at_random_moments, bdata::make({3, 4}), threads) {
  Engine engine;
  engine.set_options(options(threads));
  const std::vector<Position> positions = random_positions(900u + unsigned(threads), 16);
  std::mt19937 random(31u * unsigned(threads));
  const auto pause = [&](unsigned max_ms) {
    if (const unsigned ms = unsigned(random() % (max_ms + 1)); ms > 0)
      std::this_thread::sleep_for(milliseconds(ms));
  };
  for (int round = 0; round < 48; ++round) {
    const Position& position = positions[std::size_t(round) % positions.size()];
    if (round % 12 == 11) engine.new_game();
    if (round % 16 == 15) engine.set_options(options(threads, 1, 1 + round % 3));
    engine.set_position(position, {});
    const int kind = round % 6;
    SearchLimits limits;
    if (kind == 0) limits.infinite = true;
    if (kind == 1 || kind == 2 || kind == 3) {
      limits = kind == 1 ? move_time(15) : clocks(2000, 2000);
      limits.ponder = true;
    }
    if (kind == 4) limits = move_time(1 + std::int64_t(random() % 30));
    if (kind == 5) limits = node_limit(500 + random() % 5000);
    BOOST_TEST_CONTEXT("threads " << threads << " round " << round << " kind " << kind << " "
                                  << to_string(position)) {
      const auto observer = start(engine, limits);
      pause(30);
      std::optional<Clock::time_point> stopped;
      switch (kind) {
        case 1:  // ponderhit, then the movetime ends it, or a stop that races it
          engine.ponderhit();
          pause(20);
          if (random() % 2 == 0) {
            stopped = Clock::now();
            engine.stop();
          }
          break;
        case 2:  // ponderhit and stop back to back
          engine.ponderhit();
          stopped = Clock::now();
          engine.stop();
          break;
        case 3:  // a ponder miss: stop, then a stray ponderhit
          stopped = Clock::now();
          engine.stop();
          engine.ponderhit();
          break;
        default:  // infinite: stop; movetime and nodes: a stop that races the limit
          stopped = Clock::now();
          engine.stop();
          break;
      }
      const SearchRun run = finish(engine, *observer);
      check_answer(position, run);
      BOOST_TEST_REQUIRE(!run.infos.empty());
      BOOST_TEST((run.last().pv.front() == run.best));
      if (stopped)
        BOOST_TEST(std::chrono::duration_cast<milliseconds>(run.answered - *stopped).count() <
                   2000);
      // Nothing more comes after the bestmove, not even for a late stop.
      engine.stop();
      engine.ponderhit();
      BOOST_TEST(observer->bestmove_count() == 1);
    }
  }
}

// bench is the search's signature: the same node count every time, whatever was searched
// before and after new_game.
BOOST_AUTO_TEST_CASE(bench_is_deterministic) {
  Engine engine;
  engine.set_options(options(2, 2));
  std::vector<std::string> lines;
  const std::uint64_t first = engine.bench([&](const std::string& line) { lines.push_back(line); });
  BOOST_TEST(first > 0u);
  BOOST_TEST(lines.size() >= 10u);
  search(engine, Position::start(), depth_limit(5));
  const std::uint64_t second = engine.bench(nullptr);
  engine.new_game();
  const std::uint64_t third = engine.bench(nullptr);
  BOOST_TEST(second == first);
  BOOST_TEST(third == first);
  // The engine's own options were left alone: MultiPV 2 still reports two lines.
  const SearchRun run = search(engine, Position::start(), depth_limit(2));
  BOOST_TEST(run.infos.size() == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
