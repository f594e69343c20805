// The reference players of issue 31 (engine/search/mcts.hpp and Player in engine_options.hpp):
// the Monte Carlo tree search and the random mover, in both games. Legal answers with the solver's
// tactics (a win in one taken, a move that loses at once avoided), proven roots, a forced pass, a
// tree held to its memory; a fixed strength per iteration count (the same move and line whatever
// the clock says, the iterations reported exactly, more iterations winning more games); the same
// games from the same seed; and the options as the UQI session declares and takes them.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "search/engine.hpp"
#include "search/engine4.hpp"
#include "search/mcts.hpp"
#include "support/child_process.hpp"
#include "support/random_positions.hpp"
#include "support/search.hpp"
#include "support/search4.hpp"
#include "support/search_limits.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::test;
using quixo::testing::EngineProcess;

BOOST_AUTO_TEST_SUITE(mcts_tests)

// Helpers in the suite's namespace: the unity build puts suites with names of their own in one
// file.
namespace {

EngineOptions player_options(Player player, int iterations = 300, std::uint64_t seed = 1) {
  EngineOptions options;
  options.hash_mb = 4;
  options.player = player;
  options.mcts_iterations = iterations;
  options.strength.random_seed = seed;
  return options;
}

const std::vector<Position> kPositions =
    random_positions<Position>(31, 24, {4, 40, Keep::LastOngoing});
const std::vector<Position4> kPositions4 =
    random_positions<Position4>(32, 16, {4, 40, Keep::LastOngoing});

// A position of the game whose mover can win at once, and one where some moves lose at once but
// not all: found in seeded random games, so the same every run.
template <class PositionT>
PositionT find_position(bool (*wanted)(const PositionT&)) {
  for (const PositionT& position : random_positions<PositionT>(7, 20000, {1, 80, Keep::Ongoing}))
    if (wanted(position)) return position;
  BOOST_FAIL("no such position among the random games");
  return PositionT::start();
}
template <class PositionT>
bool ends_at_once(const PositionT& position, auto move, bool mover_wins) {
  const PositionT child = position.after(move);
  if (!child.is_game_over()) return false;
  const Color mover = [&] {
    if constexpr (std::is_same_v<PositionT, Position>)
      return position.side_to_move();
    else
      return position.team_to_move();
  }();
  return (child.outcome() == win_for(mover)) == mover_wins;
}
template <class PositionT>
int count_moves(const PositionT& position, bool mover_wins) {
  int count = 0;
  for (const auto move : position.legal_moves()) count += ends_at_once(position, move, mover_wins);
  return count;
}
template <class PositionT>
bool can_win(const PositionT& position) {
  return count_moves(position, true) > 0;
}
template <class PositionT>
bool can_lose_but_need_not(const PositionT& position) {
  const int losses = count_moves(position, false);
  return count_moves(position, true) == 0 && losses > 0 &&
         losses < int(position.legal_moves().size());
}
template <class PositionT>
bool every_move_loses(const PositionT& position) {
  return count_moves(position, false) == int(position.legal_moves().size());
}

// Plays a game from `start` between two engines of the game (first moves first), each move by
// `go` without limits (the Monte Carlo player's iterations, or the random mover), and returns the
// outcome (Ongoing: drawn at the ply cap).
template <class EngineT, class PositionT>
Outcome play_game(EngineT& first, EngineT& second, PositionT position, int max_plies) {
  first.new_game();
  second.new_game();
  for (int ply = 0; ply < max_plies && !position.is_game_over(); ++ply) {
    EngineT& mover = ply % 2 == 0 ? first : second;
    const auto run = search(mover, position, SearchLimits{});
    BOOST_TEST_REQUIRE(position.is_legal(run.best));
    position = position.after(run.best);
  }
  return position.outcome();
}

// The score of `strong` against `weak` (a win 1, a draw 1/2) over a game pair per opening, each
// side playing each colour (in the team game: each team's seats).
template <class EngineT, class PositionT>
double match_score(EngineT& strong, EngineT& weak, const std::vector<PositionT>& openings) {
  double score = 0;
  for (const PositionT& opening : openings) {
    const auto mover = [](const PositionT& position) {
      if constexpr (std::is_same_v<PositionT, Position>)
        return position.side_to_move();
      else
        return position.team_to_move();
    };
    const Color strong_first = mover(opening);
    const Outcome a = play_game(strong, weak, opening, 300);
    score += a == Outcome::Ongoing ? 0.5 : a == win_for(strong_first) ? 1.0 : 0.0;
    const Outcome b = play_game(weak, strong, opening, 300);
    score += b == Outcome::Ongoing ? 0.5 : b == win_for(~strong_first) ? 1.0 : 0.0;
  }
  return score;
}

// The lines the engine program writes up to the first starting with `prefix` (after `commands`).
std::vector<std::string> engine_lines(EngineProcess& engine,
                                      const std::vector<std::string>& commands,
                                      std::string_view prefix) {
  for (const std::string& command : commands) engine.send(command);
  const auto lines = engine.read_until_prefix(prefix, std::chrono::seconds(60));
  BOOST_TEST_REQUIRE(lines.has_value(), "no line starting with " << prefix);
  return *lines;
}

std::vector<std::string> lines_starting(const std::vector<std::string>& lines,
                                        const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : lines)
    if (line.starts_with(prefix)) found.push_back(line);
  return found;
}

// The random mover, 30 and 1000 iterations (seeds from `seed`) in matches from `openings`: each
// player scores at least three quarters of the points against the one below it.
template <class EngineT, class PositionT>
void check_iterations_order(const std::vector<PositionT>& openings, std::uint64_t seed) {
  EngineT random, weak, strong;
  random.set_options(player_options(Player::Random, 1, seed));
  weak.set_options(player_options(Player::Mcts, 30, seed + 1));
  strong.set_options(player_options(Player::Mcts, 1000, seed + 2));
  const double games = 2.0 * double(openings.size());
  BOOST_TEST(match_score(weak, random, openings) >= 0.75 * games);
  BOOST_TEST(match_score(strong, weak, openings) >= 0.75 * games);
}

// A few hundred iterations from `position` (either game): a legal answer that takes a win in one
// and avoids a loss in one (check_answer), and legal lines in every info.
template <class EngineT, class PositionT>
void check_tree_search(const PositionT& position, std::uint64_t seed) {
  EngineT engine;
  engine.set_options(player_options(Player::Mcts, 200, seed));
  const auto run = search(engine, position, SearchLimits{});
  check_answer(position, run);
  for (const auto& info : run.infos) check_pv(position, info);
}

}  // namespace

BOOST_DATA_TEST_CASE(the_tree_search_answers_legally_with_the_tactics_of_one_move,
                     bdata::xrange(kPositions.size()), index) {
  check_tree_search<Engine>(kPositions[index], index + 1);
}

BOOST_DATA_TEST_CASE(the_team_tree_search_answers_legally_with_the_tactics_of_one_move,
                     bdata::xrange(kPositions4.size()), index) {
  check_tree_search<Engine4>(kPositions4[index], index + 1);
}

BOOST_AUTO_TEST_CASE(a_win_in_one_is_proven_and_played_at_once) {
  const Position position = find_position<Position>(can_win<Position>);
  Engine engine;
  engine.set_options(player_options(Player::Mcts, 100000));
  const SearchRun<Move> run = search(engine, position, SearchLimits{});
  BOOST_TEST(ends_at_once(position, run.best, true), to_string(position));
  BOOST_TEST(run.last().score == mate_in(1));
  // Proven at the root before any iteration: no more are run.
  BOOST_TEST(run.last().nodes == 0u);

  const Position4 position4 = find_position<Position4>(can_win<Position4>);
  Engine4 engine4;
  engine4.set_options(player_options(Player::Mcts, 100000));
  const SearchRun<Move4> run4 = search(engine4, position4, SearchLimits{});
  BOOST_TEST(ends_at_once(position4, run4.best, true), to_string(position4));
  BOOST_TEST(run4.last().score == mate_in(1));
}

BOOST_AUTO_TEST_CASE(a_move_that_loses_at_once_is_never_played_while_another_does_not) {
  for (unsigned seed = 1; seed <= 8; ++seed) {
    const Position position = find_position<Position>(can_lose_but_need_not<Position>);
    // Few iterations: the losing moves are proven at the root, not found by playouts.
    Engine engine;
    engine.set_options(player_options(Player::Mcts, 1, seed));
    const SearchRun<Move> run = search(engine, position, SearchLimits{});
    BOOST_TEST(!ends_at_once(position, run.best, false), to_string(position) << " seed " << seed);
  }
}

BOOST_AUTO_TEST_CASE(a_lost_root_plays_a_move_and_reports_the_loss) {
  // The root restricted to its moves that lose at once: every one is proven lost.
  const Position position = find_position<Position>(can_lose_but_need_not<Position>);
  SearchLimits limits;
  for (const Move move : position.legal_moves())
    if (ends_at_once(position, move, false)) limits.search_moves.push_back(move);
  Engine engine;
  engine.set_options(player_options(Player::Mcts, 1000));
  const SearchRun<Move> run = search(engine, position, limits);
  BOOST_TEST(contains(limits.search_moves, run.best), to_string(position));
  BOOST_TEST(run.last().score == mated_in(1));
}

BOOST_AUTO_TEST_CASE(a_forced_pass_is_played_by_both_reference_players) {
  Position4 pass_position;
  bool found = false;
  for (const Position4& position : random_positions<Position4>(5, 4000, {1, 80, Keep::Ongoing})) {
    const auto moves = position.legal_moves();
    if (moves.size() == 1 && moves[0].is_pass()) {
      pass_position = position;
      found = true;
      break;
    }
  }
  BOOST_TEST_REQUIRE(found);
  for (const Player player : {Player::Mcts, Player::Random}) {
    Engine4 engine;
    engine.set_options(player_options(player));
    const SearchRun<Move4> run = search(engine, pass_position, SearchLimits{});
    BOOST_TEST(run.best.is_pass(), to_string(pass_position));
  }
}

BOOST_AUTO_TEST_CASE(a_finished_game_answers_none) {
  const Position position = parse_position("xxxxx/ooo2/5/5/5 o");
  BOOST_TEST_REQUIRE(position.is_game_over());
  for (const Player player : {Player::Mcts, Player::Random}) {
    Engine engine;
    engine.set_options(player_options(player));
    const SearchRun<Move> run = search(engine, position, SearchLimits{});
    BOOST_TEST(run.best.is_none());
  }
}

BOOST_AUTO_TEST_CASE(the_iterations_fix_the_move_whatever_the_clock_says) {
  // The same seed and iterations: the same move, line and score under a long move time, a clock,
  // a node-free `go` and two threads; the iterations reported are exactly the option's.
  std::vector<Position> positions = {Position::start()};
  for (const Position& position : kPositions)
    if (positions.size() < 3 && !can_win(position)) positions.push_back(position);
  for (const Position& position : positions) {
    std::vector<SearchRun<Move>> runs;
    for (int kind = 0; kind < 4; ++kind) {
      EngineOptions options = player_options(Player::Mcts, 3000, 42);
      if (kind == 3) options.threads = 2;
      Engine engine;
      engine.set_options(options);
      const SearchLimits limits = kind == 0   ? move_time(60000)
                                  : kind == 1 ? mover_clocks(position, 600000, 600000)
                                              : SearchLimits{};
      runs.push_back(search(engine, position, limits));
    }
    BOOST_TEST_CONTEXT(to_string(position)) {
      for (const SearchRun<Move>& run : runs) {
        BOOST_TEST(to_string(run.best) == to_string(runs[0].best));
        BOOST_TEST(names(run.last().pv) == names(runs[0].last().pv));
        BOOST_TEST(run.last().score == runs[0].last().score);
        BOOST_TEST(run.last().nodes == 3000u);
      }
    }
  }
  // `go nodes N` asks for N iterations instead.
  Engine4 engine4;
  engine4.set_options(player_options(Player::Mcts, 3000, 42));
  const SearchRun<Move4> run4 = search(engine4, Position4::start(), node_limit(500));
  BOOST_TEST(run4.last().nodes == 500u);
}

BOOST_AUTO_TEST_CASE(the_same_seed_plays_the_same_game_and_another_seed_another) {
  // Whole games of the Monte Carlo player against the random mover: the moves of each game by
  // seed, twice with the same seeds (one game after the other through new_game).
  const auto game = [](std::uint64_t seed) {
    Engine mcts, random;
    mcts.set_options(player_options(Player::Mcts, 100, seed));
    random.set_options(player_options(Player::Random, 1, seed + 100));
    std::string moves;
    for (int repeat = 0; repeat < 2; ++repeat) {
      mcts.new_game();
      random.new_game();
      Position position = Position::start();
      std::string these;
      for (int ply = 0; ply < 60 && !position.is_game_over(); ++ply) {
        const auto run = search(ply % 2 == 0 ? mcts : random, position, SearchLimits{});
        these += to_string(run.best) + " ";
        position = position.after(run.best);
      }
      if (repeat == 0) moves = these;
      BOOST_TEST(these == moves, "seed " << seed);
    }
    return moves;
  };
  BOOST_TEST(game(3) != game(4));
}

BOOST_AUTO_TEST_CASE(more_iterations_win_more_games) {
  // Seeded, so that every run plays the same games: the order random < 30 < 1000 iterations
  // must show in both games, by a wide margin (a player that counted results for the wrong side
  // loses these matches): at least three quarters of the points, in 12 and 8 games.
  check_iterations_order<Engine>(random_positions<Position>(9, 6, {2, 2, Keep::Last}), 11);
  check_iterations_order<Engine4>(random_positions<Position4>(10, 4, {2, 2, Keep::Last}), 21);
}

BOOST_AUTO_TEST_CASE(a_full_tree_goes_on_from_its_leaves) {
  // 20 nodes: the root's children and no more; every iteration still runs, from the leaves.
  MonteCarloTreeSearch<Position4> tree(Position4::start(), {}, 1, 20);
  BOOST_TEST(tree.best_move().is_none());
  const Position4 root = kPositions4[3];
  const MoveList4 legal = root.legal_moves();
  const std::vector<Move4> moves(legal.begin(), legal.end());
  MonteCarloTreeSearch<Position4> small(root, moves, 1, moves.size() + 1);
  small.iterate(2000);
  BOOST_TEST(small.iterations() == 2000u);
  BOOST_TEST(small.tree_nodes() == moves.size() + 1);
  BOOST_TEST(root.is_legal(small.best_move()));
  BOOST_TEST(small.max_depth() == 1);
  // Through the engine: Hash 1 holds fewer nodes than 20,000 team iterations want.
  Engine4 engine;
  EngineOptions options = player_options(Player::Mcts, 20000);
  options.hash_mb = 1;
  engine.set_options(options);
  const SearchRun<Move4> run = search(engine, root, SearchLimits{});
  check_answer(root, run);
  BOOST_TEST(run.last().nodes == 20000u);
  BOOST_TEST(run.last().hashfull <= 1000);
}

BOOST_AUTO_TEST_CASE(the_tree_takes_the_memory_of_the_table_which_it_does_not_use) {
  // Hash bounds the engine's memory for every player: the tree search holds no table beside
  // its tree, and the search gets its table back when it plays again.
  Engine engine;  // allocates its table at once
  EngineOptions search_options;
  search_options.hash_mb = 8;
  engine.set_options(search_options);
  BOOST_TEST(engine.table_megabytes() == 8u);
  engine.set_options(player_options(Player::Mcts));
  BOOST_TEST(engine.table_megabytes() == 0u);
  const Position root = kPositions[0];
  check_answer(root, search(engine, root, SearchLimits{}));
  BOOST_TEST(engine.table_megabytes() == 0u);
  engine.set_options(search_options);
  BOOST_TEST(engine.table_megabytes() == 8u);
  check_answer(root, search(engine, root, depth_limit(3)));

  Engine4 team_engine;  // allocates its table at its first search
  BOOST_TEST(team_engine.table_megabytes() == 0u);
  team_engine.set_options(player_options(Player::Mcts));
  const Position4 team_root = kPositions4[0];
  check_answer(team_root, search(team_engine, team_root, SearchLimits{}));
  BOOST_TEST(team_engine.table_megabytes() == 0u);
  EngineOptions team_search = search_options;
  team_search.hash_mb = 2;
  team_engine.set_options(team_search);
  check_answer(team_root, search(team_engine, team_root, depth_limit(2)));
  BOOST_TEST(team_engine.table_megabytes() == 2u);
}

BOOST_AUTO_TEST_CASE(searchmoves_restrict_the_tree_and_the_random_mover) {
  const Position position = kPositions[2];
  const auto legal = position.legal_moves();
  BOOST_TEST_REQUIRE(legal.size() >= 3u);
  SearchLimits limits;
  limits.search_moves = {legal[1], legal[2]};
  for (const Player player : {Player::Mcts, Player::Random})
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      Engine engine;
      engine.set_options(player_options(player, 300, seed));
      const SearchRun<Move> run = search(engine, position, limits);
      BOOST_TEST(contains(limits.search_moves, run.best));
    }
}

BOOST_AUTO_TEST_CASE(stop_and_ponderhit_release_the_bestmove) {
  // An infinite search iterates until stop, beyond MctsIterations; a ponder search runs its
  // iterations and holds the bestmove for ponderhit, as the search does.
  Engine engine;
  engine.set_options(player_options(Player::Mcts, 200));
  engine.set_position(Position::start(), {});
  const auto infinite_run = start(engine, infinite());
  BOOST_TEST(!infinite_run->answered_within(std::chrono::milliseconds(300)));
  engine.stop();
  const SearchRun<Move> analysed = finish_search(engine, *infinite_run);
  BOOST_TEST(Position::start().is_legal(analysed.best));
  BOOST_TEST(analysed.last().nodes > 200u);

  const auto ponder_run = start(engine, pondering(SearchLimits{}));
  BOOST_TEST(!ponder_run->answered_within(std::chrono::milliseconds(300)));
  engine.ponderhit();
  const SearchRun<Move> pondered = finish_search(engine, *ponder_run);
  BOOST_TEST(Position::start().is_legal(pondered.best));
  BOOST_TEST(pondered.last().nodes == 200u);
}

BOOST_AUTO_TEST_CASE(the_random_mover_spreads_over_every_legal_move) {
  // Every legal move of the start (44) is played over 880 searches, none more than three times
  // its share, and a move that loses at once is played too: no search chooses.
  std::map<std::string, int> counts;
  Engine engine;
  engine.set_options(player_options(Player::Random, 1, 5));
  for (int i = 0; i < 880; ++i)
    ++counts[to_string(search(engine, Position::start(), SearchLimits{}).best)];
  BOOST_TEST(counts.size() == 44u);
  for (const auto& [move, count] : counts) BOOST_TEST(count <= 60, move << " " << count);

  const Position losing = find_position<Position>(can_lose_but_need_not<Position>);
  bool lost = false;
  for (int i = 0; i < 400 && !lost; ++i)
    lost = ends_at_once(losing, search(engine, losing, SearchLimits{}).best, false);
  BOOST_TEST(lost, to_string(losing));
}

BOOST_AUTO_TEST_CASE(the_engine_declares_and_checks_the_options) {
  EngineProcess engine(QUIXO_ENGINE_BINARY);
  const std::vector<std::string> handshake = engine_lines(engine, {"uqi"}, "uqiok");
  BOOST_TEST(lines_starting(handshake,
                            "option name Player type combo default search var search "
                            "var mcts var random")
                 .size() == 1u);
  BOOST_TEST(lines_starting(handshake,
                            "option name MctsIterations type spin default 1000 min 1 "
                            "max 10000000")
                 .size() == 1u);
  BOOST_TEST(lines_starting(handshake,
                            "option name RandomSeed type spin default 0 min 0 max "
                            "2147483647")
                 .size() == 1u);
  const std::vector<std::string> lines = engine_lines(
      engine,
      {"setoption name Player value alphabeta", "setoption name MctsIterations value 0",
       "setoption name MctsIterations value many", "setoption name RandomSeed value -1",
       "setoption name player value MCTS", "setoption name MctsIterations value 50",
       "position startpos", "go"},
      "bestmove ");
  const std::vector<std::string> errors = lines_starting(lines, "info string error: ");
  BOOST_TEST_REQUIRE(errors.size() == 4u);
  BOOST_TEST(errors[0] ==
             "info string error: option Player needs the value search, mcts or random, not "
             "'alphabeta'");
  BOOST_TEST(errors[1].find("option MctsIterations: '0' is out of range") != std::string::npos);
  BOOST_TEST(errors[2].find("is not a whole number") != std::string::npos);
  BOOST_TEST(errors[3].find("option RandomSeed") != std::string::npos);
  // The Monte Carlo player answered with its 50 iterations, a legal move.
  const std::vector<std::string> infos = lines_starting(lines, "info depth ");
  BOOST_TEST_REQUIRE(!infos.empty());
  BOOST_TEST(infos.back().find(" nodes 50 ") != std::string::npos, infos.back());
  BOOST_CHECK_NO_THROW(parse_move(Position::start(), lines.back().substr(9, 4)));
}

BOOST_AUTO_TEST_CASE(the_engine_repeats_a_game_with_a_seed) {
  const std::vector<std::string> commands = {
      "setoption name Player value mcts", "setoption name MctsIterations value 200",
      "setoption name RandomSeed value 77", "position startpos", "go"};
  std::vector<std::string> moves;
  for (int process = 0; process < 2; ++process) {
    EngineProcess engine(QUIXO_ENGINE_BINARY);
    moves.push_back(engine_lines(engine, commands, "bestmove ").back());
    moves.push_back(
        engine_lines(engine, {"ucinewgame", "position startpos", "go"}, "bestmove ").back());
  }
  BOOST_TEST(moves[0] == moves[1]);
  BOOST_TEST(moves[0] == moves[2]);
  BOOST_TEST(moves[0] == moves[3]);
}

BOOST_AUTO_TEST_SUITE_END()
