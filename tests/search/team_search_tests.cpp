// The four-player team search, driven only through the TeamEngine API (set_position, go, stop,
// ponderhit, wait and the two callbacks), and its evaluation. Tactics are checked against brute
// force over the rules core written here (a plain minimax that knows nothing of the search):
// wins in one, wins in two team moves with their exact distance (one through the next
// opponent's forced pass), lost positions, moves that make the other team's line, forced passes,
// repetitions of the game's history. Then the contract of every limit, stop, determinism,
// searchmoves and bench.
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
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/notation.hpp"
#include "search/evaluation4.hpp"
#include "search/team_search.hpp"
#include "support/search_observer.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using std::chrono::milliseconds;
using test::Clock;

namespace {

using TeamRun = test::SearchRun<Move4>;
using Observer = test::SearchObserver<Move4>;

std::shared_ptr<Observer> start(TeamEngine& engine, const SearchLimits& limits,
                                std::vector<Move4> search_moves = {}) {
  return test::start_search<Move4>([&](TeamSearchCallbacks callbacks) {
    engine.go(limits, std::move(callbacks), std::move(search_moves));
  });
}

TeamRun finish(TeamEngine& engine, Observer& observer) {
  return test::finish_search(engine, observer);
}

TeamRun search(TeamEngine& engine, const Position4& position, const SearchLimits& limits,
               const std::vector<Position4>& history = {}, std::vector<Move4> search_moves = {}) {
  std::vector<Position4Key> history_keys;
  for (const Position4& earlier : history) history_keys.push_back(earlier.key());
  engine.set_position(position, std::move(history_keys));
  const auto observer = start(engine, limits, std::move(search_moves));
  return finish(engine, *observer);
}

EngineOptions small_table() {
  EngineOptions options;
  options.hash_mb = 4;
  return options;
}

SearchLimits depth_limit(int depth) {
  SearchLimits limits;
  limits.depth = depth;
  return limits;
}
SearchLimits node_limit(std::uint64_t nodes) {
  SearchLimits limits;
  limits.nodes = nodes;
  return limits;
}
SearchLimits move_time(std::int64_t ms) {
  SearchLimits limits;
  limits.move_time_ms = ms;
  return limits;
}
// The moving seat's own clock, read at its team's colour.
SearchLimits seat_clock(const Position4& position, std::int64_t ms) {
  SearchLimits limits;
  limits.time_ms[int(position.team_to_move())] = ms;
  return limits;
}

// Limits of every kind, by number: the data of the tactical tests.
SearchLimits limits_of_kind(int kind, const Position4& position) {
  switch (kind) {
    case 0:
      return depth_limit(1);
    case 1:
      return depth_limit(5);
    case 2:
      return node_limit(1);
    case 3:
      return move_time(1);
    case 4:
      return seat_clock(position, 1000);
    default: {
      SearchLimits limits;
      limits.mate = 1;
      limits.depth = 4;
      return limits;
    }
  }
}
// Kinds 2 and 3 may stop before the first iteration ends, so they may report nothing.
bool reports(int kind) {
  return kind != 2 && kind != 3;
}

std::string names(const std::vector<Move4>& moves) {
  std::string text;
  for (const Move4 move : moves) text += (text.empty() ? "" : " ") + to_string(move);
  return text;
}

bool contains(const std::vector<Move4>& moves, Move4 move) {
  return std::find(moves.begin(), moves.end(), move) != moves.end();
}

// --- Brute force over the rules core, independent of the search. ---

bool is_win(const Position4& position, Move4 move) {
  const Position4 child = position.after(move);
  return child.is_game_over() && child.outcome() == win_for(position.team_to_move());
}
bool is_loss(const Position4& position, Move4 move) {
  const Position4 child = position.after(move);
  return child.is_game_over() && child.outcome() != win_for(position.team_to_move());
}
std::vector<Move4> moves_where(const Position4& position, bool (*test)(const Position4&, Move4)) {
  std::vector<Move4> result;
  for (const Move4 move : position.legal_moves())
    if (test(position, move)) result.push_back(move);
  return result;
}
std::vector<Move4> winning_moves(const Position4& position) {
  return moves_where(position, is_win);
}
std::vector<Move4> safe_moves(const Position4& position) {
  return moves_where(position, [](const Position4& p, Move4 m) { return !is_loss(p, m); });
}

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

// Every move of the line is legal where it is played.
void check_pv(const Position4& root, const TeamSearchInfo& info) {
  BOOST_TEST_CONTEXT("pv " << names(info.pv) << " from " << to_string(root)) {
    BOOST_TEST(!info.pv.empty());
    Position4 position = root;
    for (const Move4 move : info.pv) {
      BOOST_TEST_REQUIRE(!position.is_game_over());
      BOOST_TEST_REQUIRE(position.is_legal(move));
      position = position.after(move);
    }
  }
}

// The answer to any search of an unfinished game: one legal bestmove, a legal ponder move (if
// any), legal lines; a win in one when there is one, and no move that makes the other team's
// line while another move does not (unless searchmoves `restricted` the choice).
void check_answer(const Position4& position, const TeamRun& run, bool restricted = false) {
  BOOST_TEST_CONTEXT(to_string(position) << " bestmove " << to_string(run.best)) {
    BOOST_TEST(run.bestmove_count == 1);
    BOOST_TEST_REQUIRE(position.is_legal(run.best));
    const Position4 next = position.after(run.best);
    if (!run.ponder.is_none()) BOOST_TEST(next.is_legal(run.ponder));
    if (!restricted && !winning_moves(position).empty()) BOOST_TEST(is_win(position, run.best));
    if (!restricted && !safe_moves(position).empty()) BOOST_TEST(!is_loss(position, run.best));
    for (const TeamSearchInfo& info : run.infos) {
      check_pv(position, info);
      BOOST_TEST(info.depth >= 1);
      BOOST_TEST(info.selective_depth >= info.depth);
      BOOST_TEST(info.hashfull >= 0);
      BOOST_TEST(info.hashfull <= 1000);
      BOOST_TEST(info.multipv == 1);
    }
  }
}

// Positions of random games (seeded), each taken while the game is still going on.
std::vector<Position4> random_positions(unsigned seed, int count) {
  std::mt19937 rng(seed);
  std::vector<Position4> positions;
  while (int(positions.size()) < count) {
    Position4 position = Position4::start();
    const int plies = int(rng() % 60);
    for (int ply = 0; ply < plies; ++ply) {
      const MoveList4 moves = position.legal_moves();
      const Position4 next = position.after(moves[rng() % moves.size()]);
      if (next.is_game_over()) break;
      position = next;
    }
    positions.push_back(position);
  }
  return positions;
}

// The same cubes with another seat to move.
Position4 with_seat(const Position4& position, Seat seat) {
  const Bitboard by_point[kSeatCount] = {
      position.cubes_pointing_to(0), position.cubes_pointing_to(1), position.cubes_pointing_to(2),
      position.cubes_pointing_to(3)};
  return Position4(by_point, seat);
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

// A finished game: rank 1 all X.
constexpr std::string_view kFinished = "5/5/5/5/xXxXx 2";

}  // namespace

BOOST_AUTO_TEST_SUITE(team_search_tests)

// --- Tactics ---

// A win in one is played and scored as mate in one ply whatever the limit.
BOOST_DATA_TEST_CASE(a_win_in_one_is_played_with_a_mate_score,
                     bdata::make(kWinInOne) * bdata::make({0, 1, 2, 3, 4, 5}), text, kind) {
  const Position4 position = parse_position4(text);
  const std::vector<Move4> wins = winning_moves(position);
  BOOST_TEST_REQUIRE(!wins.empty());
  TeamEngine engine;
  engine.set_options(small_table());
  const TeamRun run = search(engine, position, limits_of_kind(kind, position));
  check_answer(position, run);
  BOOST_TEST(contains(wins, run.best));
  for (const TeamSearchInfo& info : run.infos) {
    BOOST_TEST(info.score == mate_in(1));
    BOOST_TEST(mate_moves(info.score) == 1);
    BOOST_TEST(contains(wins, info.pv.front()));
  }
  if (reports(kind)) BOOST_TEST(!run.infos.empty());
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
  TeamEngine engine;
  engine.set_options(small_table());
  const TeamRun run = search(engine, position, depth_limit(depth));
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
  TeamEngine engine;
  engine.set_options(small_table());
  TeamRun run = search(engine, position, depth_limit(depth));
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
  TeamEngine engine;
  engine.set_options(small_table());
  const TeamRun run = search(engine, position, depth_limit(depth));
  check_answer(position, run);
  BOOST_TEST(run.last().score == mated_in(2));
  BOOST_TEST(mate_moves(run.last().score) == -1);
}

// With one safe geometry, one of its two moves is played, at every limit.
BOOST_DATA_TEST_CASE(moves_that_make_the_other_teams_line_are_avoided,
                     bdata::make(kOneSafeGeometry) * bdata::make({0, 1, 2, 3, 4}), text, kind) {
  const Position4 position = parse_position4(text);
  const std::vector<Move4> safe = safe_moves(position);
  BOOST_TEST_REQUIRE(safe.size() == 2u);
  BOOST_TEST_REQUIRE(safe[0].slide() == safe[1].slide());
  BOOST_TEST_REQUIRE(winning_moves(position).empty());
  BOOST_TEST_REQUIRE(position.legal_moves().size() > 2u);
  TeamEngine engine;
  engine.set_options(small_table());
  const TeamRun run = search(engine, position, limits_of_kind(kind, position));
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
  TeamEngine engine;
  engine.set_options(small_table());
  const TeamRun run = search(engine, position, limits_of_kind(kind, position));
  check_answer(position, run);
  for (const TeamSearchInfo& info : run.infos) BOOST_TEST(info.score == mated_in(1));
}

// Positions of random games: every answer is legal and sound, and a clear mate score is
// backed by the brute force.
BOOST_DATA_TEST_CASE(random_positions_get_sound_answers, bdata::make({11u, 12u, 13u}), seed) {
  TeamEngine engine;
  engine.set_options(small_table());
  for (const Position4& position : random_positions(seed, 8)) {
    const TeamRun run = search(engine, position, node_limit(4000));
    check_answer(position, run);
    const Score score = run.last().score;
    if (score == mate_in(1)) BOOST_TEST(!winning_moves(position).empty());
    if (score == mated_in(2)) BOOST_TEST(solve(position, 2) == -(kSolvedWin - 2));
  }
}

// --- Passes ---

// A seat with nothing to take gets the pass, at every limit, also when searchmoves name
// something else.
BOOST_DATA_TEST_CASE(a_forced_pass_is_returned_as_the_pass, bdata::make({0, 1, 2, 3, 4, 5}), kind) {
  const Position4 position = parse_position4(kForcedPass);
  BOOST_TEST_REQUIRE(position.legal_moves().size() == 1u);
  BOOST_TEST_REQUIRE(to_string(position.legal_moves()[0]) == "0000");
  TeamEngine engine;
  engine.set_options(small_table());
  TeamRun run = search(engine, position, limits_of_kind(kind, position));
  check_answer(position, run);
  BOOST_TEST(to_string(run.best) == "0000");
  for (const TeamSearchInfo& info : run.infos) BOOST_TEST(to_string(info.pv.front()) == "0000");
  run = search(engine, position, limits_of_kind(kind, position), {},
               {Move4(SlideIndex(0), 0), Move4::none()});
  BOOST_TEST(to_string(run.best) == "0000");
}

// --- Repetition ---

// In a position lost at the next opponent's move, a move that repeats a position of the game's
// history is a draw, better than the loss: it is played and scored 0. The same board with
// another seat to move is another position and changes nothing.
BOOST_DATA_TEST_CASE(a_repetition_of_the_games_history_is_a_draw,
                     bdata::make(kLostInTwo) * bdata::make({2, 4}), text, depth) {
  const Position4 position = parse_position4(text);
  BOOST_TEST_REQUIRE(solve(position, 2) == -(kSolvedWin - 2));
  const std::vector<Move4> safe = safe_moves(position);
  BOOST_TEST_REQUIRE(!safe.empty());
  const Move4 repeating = safe.back();
  const Position4 repeated = position.after(repeating);
  TeamEngine engine;
  engine.set_options(small_table());
  TeamRun run = search(engine, position, depth_limit(depth),
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

// --- Limits and control ---

// stop ends an infinite search promptly, with a legal move.
BOOST_DATA_TEST_CASE(stop_returns_promptly_with_a_legal_move,
                     bdata::make(std::vector<std::string>{std::string(kStartPosition4),
                                                          "O2XO/4O/5/o3x/X2XO 3"}),
                     text) {
  const Position4 position = parse_position4(text);
  TeamEngine engine;
  engine.set_options(small_table());
  engine.set_position(position, {});
  SearchLimits limits;
  limits.infinite = true;
  const auto observer = start(engine, limits);
  std::this_thread::sleep_for(milliseconds(150));
  BOOST_TEST(observer->bestmove_count() == 0);
  BOOST_TEST(engine.searching());
  const auto stopped_at = Clock::now();
  engine.stop();
  BOOST_TEST_REQUIRE(observer->answered_within(std::chrono::seconds(2)));
  const TeamRun run = finish(engine, *observer);
  const auto stop_ms = std::chrono::duration_cast<milliseconds>(run.answered - stopped_at).count();
  BOOST_TEST(stop_ms < 500);
  check_answer(position, run);
}

// A fixed node count gives the same search: same move, same line, same score, same node
// count, after new_game and in another engine.
BOOST_DATA_TEST_CASE(fixed_node_searches_repeat_exactly,
                     bdata::make(std::vector<std::string>{std::string(kStartPosition4),
                                                          "oX2X/4o/x4/x4/O1Oox 4",
                                                          "1Ox1O/xO2o/OX3/XO2X/oX1xo 1"}) *
                         bdata::make({500u, 20000u}),
                     text, nodes) {
  const Position4 position = parse_position4(text);
  TeamEngine first, second;
  first.set_options(small_table());
  second.set_options(small_table());
  const TeamRun a = search(first, position, node_limit(nodes));
  first.new_game();
  const TeamRun b = search(first, position, node_limit(nodes));
  const TeamRun c = search(second, position, node_limit(nodes));
  check_answer(position, a);
  for (const TeamRun* other : {&b, &c}) {
    BOOST_TEST(to_string(other->best) == to_string(a.best));
    BOOST_TEST(to_string(other->ponder) == to_string(a.ponder));
    BOOST_TEST_REQUIRE(other->infos.size() == a.infos.size());
    if (a.infos.empty()) continue;
    BOOST_TEST(other->last().nodes == a.last().nodes);
    BOOST_TEST(other->last().score == a.last().score);
    BOOST_TEST(names(other->last().pv) == names(a.last().pv));
  }
  if (!a.infos.empty()) BOOST_TEST(a.last().nodes <= nodes);
}

// The root is restricted to the legal search moves; without a legal one, all moves count.
BOOST_DATA_TEST_CASE(searchmoves_are_respected, bdata::make({21u, 22u}), seed) {
  std::mt19937 rng(seed);
  TeamEngine engine;
  engine.set_options(small_table());
  for (const Position4& position : random_positions(seed, 6)) {
    const std::vector<Move4> safe = safe_moves(position);
    if (safe.size() < 4) continue;
    std::vector<Move4> chosen;
    for (int i = 0; i < 3; ++i) chosen.push_back(safe[rng() % safe.size()]);
    TeamRun run = search(engine, position, depth_limit(3), {}, chosen);
    check_answer(position, run, true);
    BOOST_TEST(contains(chosen, run.best), to_string(run.best) << " not in " << names(chosen));
    for (const TeamSearchInfo& info : run.infos) BOOST_TEST(contains(chosen, info.pv.front()));
    // Moves of another position (here: pointing to the wrong team) are not legal: ignored.
    const Seat other = next_seat(position.seat_to_move());
    run = search(engine, position, depth_limit(2), {}, {Move4(safe[0].slide(), other)});
    check_answer(position, run);
  }
}

// Depth and node limits hold; info lines go up by one depth at a time.
BOOST_DATA_TEST_CASE(depth_and_node_limits_hold, bdata::make({1, 2, 4, 6}), depth) {
  const Position4 position = parse_position4("oX2X/4o/x4/x4/O1Oox 4");
  TeamEngine engine;
  engine.set_options(small_table());
  TeamRun run = search(engine, position, depth_limit(depth));
  check_answer(position, run);
  BOOST_TEST(run.last().depth == depth);
  // One exact report per completed depth (a slow iteration may add bound reports).
  std::vector<int> depths;
  for (const TeamSearchInfo& info : run.infos)
    if (info.bound == Bound::Exact) depths.push_back(info.depth);
  std::vector<int> expected;
  for (int d = 1; d <= depth; ++d) expected.push_back(d);
  BOOST_TEST(depths == expected, boost::test_tools::per_element());
  const std::uint64_t nodes = std::uint64_t(depth) * 1000;
  run = search(engine, position, node_limit(nodes));
  check_answer(position, run);
  for (const TeamSearchInfo& info : run.infos) BOOST_TEST(info.nodes <= nodes);
}

// A fixed move time is used, within reason, and a short clock gives a quick move. The clock
// that counts is the one at the moving seat's team colour: the other one is ignored.
BOOST_DATA_TEST_CASE(move_time_and_the_seats_clock, bdata::make({0, 1}), seat_offset) {
  const Position4 position =
      with_seat(parse_position4("O2XO/4O/5/o3x/X2XO 3"), 2 + seat_offset);  // seats 3 and 4
  TeamEngine engine;
  EngineOptions options = small_table();
  options.move_overhead_ms = 10;
  engine.set_options(options);
  TeamRun run = search(engine, position, move_time(150));
  check_answer(position, run);
  BOOST_TEST(run.elapsed_ms() >= 100);
  BOOST_TEST(run.elapsed_ms() < 3000);

  run = search(engine, position, seat_clock(position, 400));
  check_answer(position, run);
  BOOST_TEST(run.elapsed_ms() < 3000);

  // Only the other team's clock: no clock for this seat, so the depth limit decides.
  SearchLimits limits = depth_limit(4);
  limits.time_ms[int(~position.team_to_move())] = 1;
  run = search(engine, position, limits);
  check_answer(position, run);
  BOOST_TEST(run.last().depth == 4);
}

// Ponder and infinite searches hold their bestmove until ponderhit or stop, even when the
// depth limit is reached.
BOOST_AUTO_TEST_CASE(ponder_and_infinite_wait_for_release) {
  const Position4 position = parse_position4("1Ox1O/xO2o/OX3/XO2X/oX1xo 1");
  TeamEngine engine;
  engine.set_options(small_table());
  engine.set_position(position, {});
  SearchLimits limits = depth_limit(2);
  limits.ponder = true;
  auto observer = start(engine, limits);
  std::this_thread::sleep_for(milliseconds(300));
  BOOST_TEST(observer->bestmove_count() == 0);
  engine.ponderhit();
  check_answer(position, finish(engine, *observer));

  limits = depth_limit(1);
  limits.infinite = true;
  observer = start(engine, limits);
  std::this_thread::sleep_for(milliseconds(300));
  BOOST_TEST(observer->bestmove_count() == 0);
  engine.ponderhit();  // not pondering: no effect on an infinite search
  std::this_thread::sleep_for(milliseconds(100));
  BOOST_TEST(observer->bestmove_count() == 0);
  engine.stop();
  check_answer(position, finish(engine, *observer));
  // stop when idle does nothing; the next search runs normally.
  engine.stop();
  check_answer(position, search(engine, position, depth_limit(2)));
}

// Threads: the team search runs on several threads (lazy SMP) like the two-player search. Every
// answer is still legal and tactically sound, the node limit is shared, and a stop at any
// moment gives one bestmove that the last line shows.
BOOST_AUTO_TEST_CASE(threads_search_together) {
  const std::vector<Position4> positions = random_positions(41, 6);
  for (const int threads : {2, 3, 4}) {
    TeamEngine engine;
    EngineOptions options = small_table();
    options.threads = threads;
    engine.set_options(options);
    for (const Position4& position : positions) {
      BOOST_TEST_CONTEXT("threads " << threads) {
        const TeamRun run = search(engine, position, depth_limit(5));
        check_answer(position, run);
        // A proven result ends the search early; anything else reaches the depth.
        if (!is_mate_score(run.last().score)) BOOST_TEST(run.last().depth == 5);
        const TeamRun limited = search(engine, position, node_limit(20000));
        check_answer(position, limited);
        for (const TeamSearchInfo& info : limited.infos)
          BOOST_TEST(info.nodes <= 20000u + std::uint64_t(threads) * 1024u);
      }
    }
    std::mt19937 random{unsigned(threads)};
    for (int round = 0; round < 8; ++round) {
      const Position4& position = positions[std::size_t(round) % positions.size()];
      engine.set_position(position, {});
      SearchLimits limits;
      limits.infinite = true;
      const auto observer = start(engine, limits);
      std::this_thread::sleep_for(milliseconds(random() % 80));
      engine.stop();
      const TeamRun run = finish(engine, *observer);
      check_answer(position, run);
      BOOST_TEST_REQUIRE(!run.infos.empty());
      BOOST_TEST((run.last().pv.front() == run.best), "threads " << threads << " round " << round);
    }
  }
}

// Ponder, ponderhit and stop racing the search at random moments (issue 9; the tsan preset runs
// it under ThreadSanitizer), with one and three threads: ponderhit then the move time or a stop,
// ponderhit and stop back to back, a ponder miss (stop, then a stray ponderhit), a move time
// racing a stop. Every go gets exactly one legal bestmove, promptly after a stop, and nothing
// after it.
BOOST_DATA_TEST_CASE(ponderhit_and_stop_race_the_search, bdata::make({1, 3}), threads) {
  const std::vector<Position4> positions = random_positions(53u + unsigned(threads), 8);
  TeamEngine engine;
  EngineOptions options = small_table();
  options.threads = threads;
  engine.set_options(options);
  std::mt19937 random(7u * unsigned(threads));
  const auto pause = [&](unsigned max_ms) {
    if (const unsigned ms = unsigned(random() % (max_ms + 1)); ms > 0)
      std::this_thread::sleep_for(milliseconds(ms));
  };
  for (int round = 0; round < 24; ++round) {
    const Position4& position = positions[std::size_t(round) % positions.size()];
    if (round % 8 == 7) engine.new_game();
    engine.set_position(position, {});
    const int kind = round % 4;
    SearchLimits limits = kind == 1 ? seat_clock(position, 2000) : move_time(kind == 3 ? 20 : 15);
    limits.ponder = kind != 3;
    BOOST_TEST_CONTEXT("threads " << threads << " round " << round << " " << to_string(position)) {
      const auto observer = start(engine, limits);
      pause(30);
      std::optional<Clock::time_point> stopped;
      if (kind == 0 || kind == 1) engine.ponderhit();
      if (kind == 0) pause(20);
      if (kind != 0 || random() % 2 == 0) {
        stopped = Clock::now();
        engine.stop();
      }
      if (kind == 2) engine.ponderhit();
      const TeamRun run = finish(engine, *observer);
      check_answer(position, run);
      if (stopped)
        BOOST_TEST(std::chrono::duration_cast<milliseconds>(run.answered - *stopped).count() <
                   2000);
      engine.stop();
      engine.ponderhit();
      BOOST_TEST(observer->bestmove_count() == 1);
    }
  }
}

// The search features that apply to the team search switch it as they switch the two-player
// one: each changes the tree (the node count of a fixed-depth search), none the soundness.
BOOST_AUTO_TEST_CASE(search_features_apply) {
  const Position4 position = parse_position4("O2XO/4O/5/o3x/X2XO 3");
  const auto nodes_with = [&](void (*change)(SearchFeatures&)) {
    TeamEngine engine;
    EngineOptions options = small_table();
    change(options.features);
    engine.set_options(options);
    const TeamRun run = search(engine, position, depth_limit(7));
    check_answer(position, run);
    return run.last().nodes;
  };
  const std::uint64_t all = nodes_with([](SearchFeatures&) {});
  BOOST_TEST(nodes_with([](SearchFeatures& f) { f.killers_and_history = false; }) != all);
  BOOST_TEST(nodes_with([](SearchFeatures& f) { f.late_move_reductions = false; }) > all);
  BOOST_TEST(nodes_with([](SearchFeatures& f) { f.aspiration_windows = false; }) != all);
}

// go mate N: at most 2N - 1 plies, then the best move even without a mate.
BOOST_AUTO_TEST_CASE(mate_limit_bounds_the_depth) {
  TeamEngine engine;
  engine.set_options(small_table());
  for (const int mate : {1, 2, 3}) {
    SearchLimits limits;
    limits.mate = mate;
    const TeamRun run = search(engine, Position4::start(), limits);
    check_answer(Position4::start(), run);
    for (const TeamSearchInfo& info : run.infos) BOOST_TEST(info.depth <= 2 * mate - 1);
  }
}

// A finished game has no move: the bestmove is none, once, without a line.
BOOST_AUTO_TEST_CASE(a_finished_game_answers_none) {
  const Position4 position = parse_position4(kFinished);
  BOOST_TEST_REQUIRE(position.is_game_over());
  TeamEngine engine;
  engine.set_options(small_table());
  const TeamRun run = search(engine, position, depth_limit(3));
  BOOST_TEST(run.best.is_none());
  BOOST_TEST(run.infos.empty());
}

// The bench is the search's signature: the same total every time.
BOOST_AUTO_TEST_CASE(bench_is_deterministic) {
  TeamEngine engine;
  std::vector<std::string> lines;
  const std::uint64_t first = engine.bench([&](const std::string& line) { lines.push_back(line); });
  BOOST_TEST(first > 0u);
  BOOST_TEST(lines.size() >= 4u);
  for (const std::string& line : lines) BOOST_TEST(line.starts_with("Four-player position "));
  BOOST_TEST(engine.bench({}) == first);
}

// --- Evaluation ---

// The breakdown adds up to the evaluation, and each seat's wins in one are those of a position
// with the same cubes and that seat to move (its real takeable set).
BOOST_DATA_TEST_CASE(the_evaluation_adds_up_and_counts_each_seats_wins,
                     bdata::make({31u, 32u, 33u}), seed) {
  std::vector<Position4> positions = random_positions(seed, 12);
  for (const std::string& text : kWinInTwo) positions.push_back(parse_position4(text));
  positions.push_back(parse_position4(kWinThroughPass));
  positions.push_back(parse_position4(kForcedPass));
  for (const Position4& position : positions) {
    BOOST_TEST_CONTEXT(to_string(position)) {
      const TeamEvalBreakdown terms = evaluate_with_breakdown(position);
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
  const TeamEvalWeights& weights = default_team_weights();
  BOOST_TEST(evaluate(Position4::start()) == weights.tempo);
  // Seat 1 must pass here: its own forced pass counts against its team.
  const Position4 position = parse_position4(kOnlySeatOnePasses);
  BOOST_TEST_REQUIRE(!position.is_game_over());
  for (Seat seat = 1; seat < kSeatCount; ++seat)
    BOOST_TEST_REQUIRE(with_seat(position, seat).takeable() != 0u);
  const TeamEvalBreakdown own = evaluate_with_breakdown(position);
  BOOST_TEST(own.mobility_slides[0] == 0);
  BOOST_TEST(own.passes == weights.forced_pass[0]);
  BOOST_TEST(weights.forced_pass[0] < 0);
  // The same cubes with seat 4 to move: seat 1 is now the next opponent, forced to pass.
  const TeamEvalBreakdown next = evaluate_with_breakdown(with_seat(position, 3));
  BOOST_TEST(next.mobility_slides[1] == 0);
  BOOST_TEST(next.passes == weights.forced_pass[1]);
  BOOST_TEST(weights.forced_pass[1] > 0);
  // The position of the pass win: seat 2 (next) must pass and seat 3 (partner) threatens.
  const TeamEvalBreakdown pass_win = evaluate_with_breakdown(parse_position4(kWinThroughPass));
  BOOST_TEST(pass_win.mobility_slides[1] == 0);
  BOOST_TEST(pass_win.wins[2] >= 1);
  BOOST_TEST(pass_win.partner_threats > 0);
  BOOST_TEST(pass_win.passes >= weights.forced_pass[1]);
}

BOOST_AUTO_TEST_SUITE_END()
