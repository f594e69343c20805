// The search with the endgame tables, driven through the Engine API, with the tables themselves
// (tb::Tablebase, the tables the ctest fixture tb_tables generates) as the oracle: a root in the
// tables is played from them (the value kept, the fastest win, the slowest loss, a draw searched
// among the drawing moves, within the limits), its score is the exact mate score, nodes below a
// root outside the tables take their proven values (table wins and losses without a distance,
// counted in tbhits, the same through the win/draw/loss files and the layer files, kept in the
// transposition table relative to the node), and searches away from the tables and the bench do
// not change.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "search/engine.hpp"
#include "support/search.hpp"
#include "support/search_observer.hpp"
#include "support/test_tables.hpp"
#include "tb/tablebase.hpp"
#include "tb/tb_file.hpp"
#include "tb/wdl_file.hpp"

using namespace quixo;
using std::chrono::milliseconds;
using test::depth_limit;
using test::node_limit;
using test::options;
using test::search;
using test::start;

BOOST_AUTO_TEST_SUITE(tablebase_search_tests)

namespace {

using SearchRun = test::SearchRun<Move>;

// The fixture's tables, shared with an engine (they live as long as the test process).
std::shared_ptr<const tb::Tablebase> shared_test_tables() {
  return std::shared_ptr<const tb::Tablebase>(&test::test_tables(), [](const tb::Tablebase*) {});
}

// A board with `blanks` blank cubes (on the border only when asked), every other cube X or O at
// random, and either side to move.
Position random_position(std::mt19937& random, int blanks, bool blanks_on_border = false) {
  Bitboard blank = 0;
  while (std::popcount(blank) < blanks) {
    const Square square = Square(random() % kSquareCount);
    if (!blanks_on_border || is_border(square)) blank |= square_bb(square);
  }
  Bitboard x = 0, o = 0;
  for (Square square = 0; square < kSquareCount; ++square) {
    if (blank & square_bb(square)) continue;
    (random() % 2 ? x : o) |= square_bb(square);
  }
  return Position(x, o, random() % 2 ? Color::X : Color::O);
}

// The search score docs/spec.md §6 gives a value of the tables seen `ply` plies from the root:
// the game ends `distance` plies after that.
Score expected_score(tb::TbValue value, int ply) {
  if (value.wdl == tb::Wdl::Win) return mate_in(ply + value.distance);
  if (value.wdl == tb::Wdl::Loss) return mated_in(ply + value.distance);
  return kDrawScore;
}

// The score of a node `ply` plies from the root that the search probes: win, draw or loss
// without a distance (score.hpp's table wins).
Score proven_score(tb::Wdl wdl, int ply) {
  if (wdl == tb::Wdl::Win) return table_win_in(ply);
  if (wdl == tb::Wdl::Loss) return table_loss_in(ply);
  return kDrawScore;
}

std::optional<tb::TbValue> value_of_move(const std::vector<tb::MoveValue>& moves, Move move) {
  for (const tb::MoveValue& entry : moves)
    if (entry.move == move) return entry.value;
  return std::nullopt;
}

// Positions of layer `blanks` where the game goes on, sampled until `wins`, `losses` and `draws`
// of each value were found (or a generous number of tries: draws are about 1 in 100).
std::vector<Position> sample_layer(const tb::Tablebase& tables, int blanks, int wins, int losses,
                                   int draws, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<Position> positions;
  int found[3] = {0, 0, 0};  // by Wdl: draw, win, loss
  const int wanted[3] = {draws, wins, losses};
  for (int tries = 0; tries < 400000; ++tries) {
    if (found[0] >= wanted[0] && found[1] >= wanted[1] && found[2] >= wanted[2]) break;
    const Position position = random_position(random, blanks);
    if (position.is_game_over()) continue;
    const auto value = tables.probe(position);
    BOOST_TEST_REQUIRE(value.has_value(),
                       "layer " << blanks << " does not hold " << to_string(position));
    const int kind = int(value->wdl);
    if (found[kind] >= wanted[kind]) continue;
    ++found[kind];
    positions.push_back(position);
  }
  BOOST_TEST_REQUIRE(found[0] == wanted[0]);
  BOOST_TEST_REQUIRE(found[1] == wanted[1]);
  BOOST_TEST_REQUIRE(found[2] == wanted[2]);
  return positions;
}

// A folder holding only layer 0 of the fixture's tables, removed at the end of the test; its
// win/draw/loss file too when asked (else the search's probes decode blocks of the layer file and
// leave their answers in the transposition table).
struct LayerZeroOnly {
  std::filesystem::path dir;
  tb::Tablebase tables;
  explicit LayerZeroOnly(bool with_wdl_file = false) {
    test::require_test_tables();
    dir = std::filesystem::temp_directory_path() /
          ("quixo-tb-layer0-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(tb::layer_file_path(test::test_tables_dir(), 0),
                               tb::layer_file_path(dir, 0));
    if (with_wdl_file)
      std::filesystem::copy_file(tb::wdl_file_path(test::test_tables_dir(), 0),
                                 tb::wdl_file_path(dir, 0));
    const auto report = tables.load(dir);
    BOOST_TEST_REQUIRE(report.problems.empty());
    BOOST_TEST_REQUIRE((report.layers == std::vector<int>{0}));
    BOOST_TEST_REQUIRE(tables.has_wdl_file(0) == with_wdl_file);
  }
  ~LayerZeroOnly() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  std::shared_ptr<const tb::Tablebase> shared() const {
    return std::shared_ptr<const tb::Tablebase>(&tables, [](const tb::Tablebase*) {});
  }
};

// The best proven score among the moves of a one-blank root that take its blank cube (their
// children are in layer 0): a win or loss at once is a mate, and so is a child where the
// opponent wins at once or every reply loses at once (the search scans a node before it
// probes); any other child is a table win or loss at ply 1 (the search probes win/draw/loss
// only); and whether any of them leads to a child that needs a probe.
struct BlankTakers {
  Score best = -kInfiniteScore;
  bool probed = false;
};
BlankTakers blank_takers(const tb::Tablebase& layer0, const Position& root) {
  BlankTakers result;
  for (const Move move : root.legal_moves()) {
    const Position child = root.after(move);
    if (child.blanks() != 0) continue;
    Score score;
    const MoveScan scan = child.is_game_over() ? MoveScan{} : scan_moves(child);
    if (child.is_game_over()) {
      score = child.outcome() == win_for(root.side_to_move()) ? mate_in(1) : mated_in(1);
    } else if (scan.wins != 0) {
      score = mated_in(2);  // the search sees the opponent's win at once, without a probe
    } else if ((scan.legal & ~scan.losses) == 0) {
      score = mate_in(2);  // every reply makes the root mover's line
    } else {
      const auto value = layer0.probe(child);
      BOOST_TEST_REQUIRE(value.has_value());
      score = proven_score(value->before_move().wdl, 1);
      result.probed = true;
    }
    result.best = std::max(result.best, score);
  }
  return result;
}

}  // namespace

// On sampled positions of every layer the fixture makes (won, lost and drawn ones), the engine
// plays a move that keeps the tables' value: for a win the fastest one, for a loss the slowest
// one (both keep the distance), and reports the exact score. A decided root's line is the one
// the tables play, to the end of the game.
BOOST_AUTO_TEST_CASE(the_move_keeps_the_value_of_the_tables) {
  const tb::Tablebase& tables = test::test_tables();
  Engine engine;
  engine.set_tablebase(shared_test_tables());
  int searched = 0;
  for (int blanks = 0; blanks <= test::test_table_blanks(); ++blanks) {
    const std::vector<Position> positions =
        sample_layer(tables, blanks, 45, 45, 15, 1234u + std::uint32_t(blanks));
    for (const Position& position : positions) {
      const tb::TbValue value = *tables.probe(position);
      const auto moves = tables.probe_moves(position);
      BOOST_TEST_REQUIRE(moves.has_value());
      // Now and then two threads, so that the helpers meet a root decided by the tables too.
      engine.set_options(options(searched % 7 == 3 ? 2 : 1));
      const SearchRun run = search(engine, position, node_limit(3000));
      ++searched;
      BOOST_TEST_CONTEXT(to_string(position)
                         << " (" << tb::to_string(value) << "), bestmove " << to_string(run.best)) {
        BOOST_TEST_REQUIRE(position.is_legal(run.best));
        const auto played = value_of_move(*moves, run.best);
        BOOST_TEST_REQUIRE(played.has_value());
        BOOST_TEST(tb::to_string(*played) == tb::to_string(value));
        const SearchInfo& info = run.last();
        BOOST_TEST(info.score == expected_score(value, 0));
        BOOST_TEST(info.tb_hits > 0u);
        BOOST_TEST_REQUIRE(!info.pv.empty());
        BOOST_TEST((info.pv.front() == run.best));
        if (value.wdl == tb::Wdl::Draw) continue;
        // The tables' line: legal, as long as the distance, and won by the side it says.
        BOOST_TEST(int(info.pv.size()) == value.distance);
        Position line_end = position;
        for (const Move move : info.pv) {
          BOOST_TEST_REQUIRE(!line_end.is_game_over());
          BOOST_TEST_REQUIRE(line_end.is_legal(move));
          line_end = line_end.after(move);
        }
        const Color winner =
            value.wdl == tb::Wdl::Win ? position.side_to_move() : ~position.side_to_move();
        BOOST_TEST((line_end.outcome() == win_for(winner)));
        if (info.pv.size() > 1) BOOST_TEST((run.ponder == info.pv[1]));
      }
    }
  }
  BOOST_TEST(searched >= 105);
}

// searchmoves that leave out every move keeping the value: the tables still choose, among the
// moves allowed, the best they have.
BOOST_AUTO_TEST_CASE(searchmoves_restrict_the_tables_choice) {
  const tb::Tablebase& tables = test::test_tables();
  Engine engine;
  engine.set_options(options());
  engine.set_tablebase(shared_test_tables());
  std::mt19937 random(77);
  int checked = 0;
  for (int tries = 0; tries < 20000 && checked < 20; ++tries) {
    const Position position = random_position(random, 0);
    if (position.is_game_over()) continue;
    const auto moves = tables.probe_moves(position);
    BOOST_TEST_REQUIRE(moves.has_value());
    const std::vector<Move> best = tables.best_moves(position);
    // Allowed: the moves that do not keep the value and do not lose at once.
    SearchLimits limits = node_limit(2000);
    std::optional<int> allowed_best;
    for (const tb::MoveValue& entry : *moves) {
      if (std::find(best.begin(), best.end(), entry.move) != best.end()) continue;
      if (entry.value == tb::TbValue{tb::Wdl::Loss, 1}) continue;
      limits.search_moves.push_back(entry.move);
      allowed_best = std::max(allowed_best.value_or(-1000000), tb::preference(entry.value));
    }
    if (!allowed_best) continue;
    ++checked;
    const SearchRun run = search(engine, position, limits);
    BOOST_TEST_CONTEXT(to_string(position) << " bestmove " << to_string(run.best)) {
      BOOST_TEST_REQUIRE((std::find(limits.search_moves.begin(), limits.search_moves.end(),
                                    run.best) != limits.search_moves.end()));
      BOOST_TEST(tb::preference(*value_of_move(*moves, run.best)) == *allowed_best);
    }
  }
  BOOST_TEST(checked == 20);
}

// A root decided by the tables still obeys infinite and ponder: its bestmove waits for stop or
// ponderhit; a drawn root is searched (among its drawing moves) until stop and reports a draw.
BOOST_AUTO_TEST_CASE(a_root_in_the_tables_waits_for_stop_and_ponderhit) {
  const tb::Tablebase& tables = test::test_tables();
  const std::vector<Position> positions = sample_layer(tables, 0, 1, 1, 1, 99u);
  Engine engine;
  engine.set_options(options(2));
  engine.set_tablebase(shared_test_tables());
  for (const Position& position : positions) {
    const tb::TbValue value = *tables.probe(position);
    BOOST_TEST_CONTEXT(to_string(position) << " (" << tb::to_string(value) << ")") {
      for (const bool ponder : {false, true}) {
        SearchLimits limits;
        limits.infinite = !ponder;
        limits.ponder = ponder;
        limits.depth = ponder ? 3 : 0;
        engine.set_position(position, {});
        const auto observer = start(engine, limits);
        std::this_thread::sleep_for(milliseconds(150));
        BOOST_TEST(observer->bestmove_count() == 0);
        if (ponder)
          engine.ponderhit();
        else
          engine.stop();
        const SearchRun run = test::finish_search(engine, *observer);
        const auto moves = tables.probe_moves(position);
        BOOST_TEST_REQUIRE(position.is_legal(run.best));
        BOOST_TEST(tb::to_string(*value_of_move(*moves, run.best)) == tb::to_string(value));
        for (const SearchInfo& info : run.infos) BOOST_TEST(info.score == expected_score(value, 0));
      }
    }
  }
}

// Below a root with one blank cube and only layer 0 loaded, the children that take the blank are
// probed at ply 1: the probes are counted in tbhits, and the root's score at depth 1 is at least
// their best proven score. With layer 1 at hand (release), a proven score the search reports is
// checked against the root's true value: a win (a mate or a table win) only where the tables
// have a win, a loss only where they have a loss; and a table win's root has a win among its
// blank-takers or a mate is shorter than the tables allow it. Through the layer file and through
// the win/draw/loss file alike.
BOOST_DATA_TEST_CASE(probes_one_layer_below_the_root_give_proven_scores,
                     boost::unit_test::data::make({false, true}), with_wdl_file) {
  const LayerZeroOnly layer0(with_wdl_file);
  const tb::Tablebase& full = test::test_tables();
  const bool have_layer1 = test::test_table_blanks() >= 1;
  Engine engine;
  engine.set_options(options());
  engine.set_tablebase(layer0.shared());
  std::mt19937 random(2024);
  int checked = 0, proven_wins = 0, proven_losses = 0;
  for (int tries = 0; tries < 5000 && checked < 60; ++tries) {
    const Position position = random_position(random, 1, true);
    if (position.is_game_over()) continue;
    const BlankTakers takers = blank_takers(layer0.tables, position);
    if (!takers.probed) continue;
    ++checked;
    engine.new_game();
    const SearchRun run = search(engine, position, depth_limit(1));
    const SearchInfo& info = run.last_completed();
    BOOST_TEST_CONTEXT(to_string(position)
                       << " score " << info.score << ", blank takers' best " << takers.best) {
      BOOST_TEST(info.tb_hits > 0u);
      BOOST_TEST(info.score >= takers.best);
      if (!is_decisive_score(info.score)) continue;
      if (!have_layer1) continue;
      const tb::TbValue truth = *full.probe(position);
      if (info.score > 0) {
        BOOST_TEST_REQUIRE((truth.wdl == tb::Wdl::Win));
        if (is_mate_score(info.score)) BOOST_TEST(info.score <= mate_in(truth.distance));
        ++proven_wins;
      } else {
        BOOST_TEST_REQUIRE((truth.wdl == tb::Wdl::Loss));
        if (is_mate_score(info.score)) BOOST_TEST(info.score >= mated_in(truth.distance));
        ++proven_losses;
      }
    }
  }
  BOOST_TEST(checked == 60);
  if (have_layer1) BOOST_TEST((proven_wins > 0 && proven_losses > 0));
  // Without tables the same searches probe nothing.
  engine.set_tablebase(nullptr);
  Position position = random_position(random, 1, true);
  while (position.is_game_over()) position = random_position(random, 1, true);
  const SearchRun run = search(engine, position, depth_limit(2));
  BOOST_TEST(run.last().tb_hits == 0u);
}

// The win/draw/loss file changes how a probe is made, not what it answers: the searches of
// one-blank roots score alike with and without it, at several depths.
BOOST_AUTO_TEST_CASE(the_win_draw_loss_file_gives_the_search_the_same_scores) {
  const LayerZeroOnly layer_file_only(false);
  const LayerZeroOnly with_wdl_file(true);
  Engine engine;
  engine.set_options(options());
  std::mt19937 random(77);
  int checked = 0, decisive = 0;
  for (int tries = 0; tries < 2000 && checked < 30; ++tries) {
    const Position position = random_position(random, 1, true);
    if (position.is_game_over()) continue;
    if (!blank_takers(layer_file_only.tables, position).probed) continue;
    ++checked;
    const int depth = 1 + checked % 3;
    engine.set_tablebase(layer_file_only.shared());
    engine.new_game();
    const SearchRun through_blocks = search(engine, position, depth_limit(depth));
    engine.set_tablebase(with_wdl_file.shared());
    engine.new_game();
    const SearchRun through_codes = search(engine, position, depth_limit(depth));
    BOOST_TEST_CONTEXT(to_string(position) << " depth " << depth) {
      BOOST_TEST(through_codes.last_completed().score == through_blocks.last_completed().score);
      BOOST_TEST(through_codes.last_completed().tb_hits > 0u);
    }
    decisive += is_decisive_score(through_codes.last_completed().score);
  }
  BOOST_TEST(checked == 30);
  BOOST_TEST(decisive > 0);
}

// The transposition table keeps the tables' scores relative to the node: a search of a child C
// of a one-blank root P finds, at ply 1, layer-0 positions the search of P stored at ply 2, and
// scores C exactly as a search of C with an empty table does, with fewer probes.
BOOST_AUTO_TEST_CASE(table_scores_in_the_transposition_table_are_relative_to_the_node) {
  const LayerZeroOnly layer0;
  Engine engine;
  engine.set_options(options());
  engine.set_tablebase(layer0.shared());
  std::mt19937 random(5);
  int checked = 0;
  std::uint64_t warm_hits = 0, cold_hits = 0;
  for (int tries = 0; tries < 5000 && checked < 20; ++tries) {
    const Position root = random_position(random, 1, true);
    if (root.is_game_over()) continue;
    // A child that keeps the blank (layer 1, outside the tables) and whose blank-takers need
    // probes.
    std::optional<Position> child;
    for (const Move move : root.legal_moves()) {
      const Position next = root.after(move);
      if (next.blanks() == 0 || next.is_game_over()) continue;
      if (blank_takers(layer0.tables, next).probed) {
        child = next;
        break;
      }
    }
    if (!child) continue;
    ++checked;
    engine.new_game();
    const SearchRun cold = search(engine, *child, depth_limit(1));
    engine.new_game();
    search(engine, root, depth_limit(3));
    const SearchRun warm = search(engine, *child, depth_limit(1));
    BOOST_TEST_CONTEXT(to_string(root) << " then " << to_string(*child)) {
      BOOST_TEST(warm.last_completed().score == cold.last_completed().score);
    }
    warm_hits += warm.last_completed().tb_hits;
    cold_hits += cold.last_completed().tb_hits;
  }
  BOOST_TEST(checked == 20);
  BOOST_TEST(warm_hits < cold_hits);
}

// Far from the tables nothing changes: the same nodes and move at a fixed depth, no probe.
BOOST_AUTO_TEST_CASE(searches_away_from_the_tables_are_unchanged) {
  for (const std::string_view text : {"5/5/5/5/5 x", "ox2o/5/x4/5/x3o x"}) {
    const Position position = parse_position(text);
    Engine engine;
    engine.set_options(options());
    const SearchRun without = search(engine, position, depth_limit(5));
    engine.new_game();
    engine.set_tablebase(shared_test_tables());
    const SearchRun with = search(engine, position, depth_limit(5));
    BOOST_TEST_CONTEXT(text) {
      BOOST_TEST(with.last().nodes == without.last().nodes);
      BOOST_TEST((with.best == without.best));
      BOOST_TEST(with.last().tb_hits == 0u);
    }
  }
}

// bench is the search's signature: the tables never enter it.
BOOST_AUTO_TEST_CASE(bench_ignores_the_tables) {
  Engine engine;
  const std::uint64_t without = engine.bench(nullptr);
  engine.set_tablebase(shared_test_tables());
  BOOST_TEST(engine.bench(nullptr) == without);
}

BOOST_AUTO_TEST_SUITE_END()
