// The game a quixo-gui page shows: moves checked by the rules, new lines from earlier positions,
// take-backs, endings, clocks (with a fake time), the tree of variations, and the PGN round trip
// through the arena's writer and reader.
#include <algorithm>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>
#include <chrono>

#include "core/notation.hpp"
#include "gui_game.hpp"
#include "pgn_reader.hpp"
#include "pgn_writer.hpp"
#include "support/arena_printing.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::gui;
using std::chrono::milliseconds;

namespace {

const std::vector<std::string> kHumans{"human", "human"};
const SteadyTime kT0{};

void play_all(GuiGame& game, const std::vector<std::string>& moves, SteadyTime now = kT0) {
  for (const std::string& move : moves) game.play(move, move_by("human"), now);
}

// The moves of the line that starts at node `first` and follows the first continuations.
std::vector<std::string> line_from(const GuiGame& game, int first) {
  std::vector<std::string> moves;
  for (int id = first;;) {
    const GuiNode& node = game.nodes()[static_cast<std::size_t>(id)];
    moves.push_back(node.move.move);
    if (node.children.empty()) return moves;
    id = node.children.front();
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gui_game_tests)

BOOST_AUTO_TEST_CASE(a_new_game_offers_the_44_opening_moves_to_a_person) {
  const GuiGame game(Variant::TwoPlayer, kHumans);
  BOOST_TEST(game.shown().text() == "5/5/5/5/5 x");
  BOOST_TEST(game.legal_moves().size() == 44u);
  BOOST_TEST(game.human_to_move());
  BOOST_TEST(!game.engine_to_move());
  const LegalMove first = game.legal_moves().front();
  BOOST_TEST(first.move == *first.from + *first.to);
  BOOST_TEST(!first.point.has_value());
}

BOOST_AUTO_TEST_CASE(an_illegal_move_is_refused_and_changes_nothing) {
  GuiGame game(Variant::TwoPlayer, kHumans);
  play_all(game, {"a1a5"});
  BOOST_CHECK_THROW(game.play("c3c1", move_by("human"), kT0), NotationError);  // not a border cube
  BOOST_CHECK_THROW(game.play("zz", move_by("human"), kT0), NotationError);
  BOOST_TEST(game.length() == 1);
  BOOST_TEST(game.shown().text() == game.moves().back().position);
}

BOOST_AUTO_TEST_CASE(a_move_from_an_earlier_position_starts_a_new_line) {
  GuiGame game(Variant::TwoPlayer, kHumans);
  play_all(game, {"a1a5", "e5e1", "b1b5"});
  game.go_to(1, kT0);
  BOOST_TEST(game.shown().text() == game.moves()[0].position);
  BOOST_TEST(!game.at_end());
  game.play("e1a1", move_by("human"), kT0);
  BOOST_TEST(game.length() == 2);
  BOOST_TEST(game.moves()[1].move == "e1a1");
  BOOST_TEST(game.at_end());
  BOOST_CHECK_THROW(game.go_to(3, kT0), std::out_of_range);
  BOOST_CHECK_THROW(game.go_to(-1, kT0), std::out_of_range);
}

BOOST_AUTO_TEST_CASE(take_back_against_an_engine_returns_to_the_persons_turn) {
  GuiGame game(Variant::TwoPlayer, {"human", "engine"});
  game.play("a1a5", move_by("human"), kT0);
  BOOST_TEST(game.engine_to_move());
  BOOST_TEST(!game.human_to_move());
  game.play("e5e1", move_by("engine"), kT0);
  BOOST_TEST(game.human_to_move());
  BOOST_TEST(game.take_back(true, kT0));
  BOOST_TEST(game.length() == 0);
  BOOST_TEST(game.human_to_move());
  BOOST_TEST(!game.take_back(true, kT0));
  // Between people, one ply at a time.
  GuiGame people(Variant::TwoPlayer, kHumans);
  play_all(people, {"a1a5", "e5e1"});
  BOOST_TEST(people.take_back(false, kT0));
  BOOST_TEST(people.length() == 1);
}

BOOST_AUTO_TEST_CASE(a_line_of_five_ends_the_game_and_names_the_winner) {
  // X has a1..a4; taking e1 and pushing it in at a1 ... is awkward; set the position up instead.
  GuiGame game(Variant::TwoPlayer, kHumans, std::nullopt, "5/x4/x4/x4/x4 x");
  // e5 pushed in at a5: the top rank slides right, a5 becomes X: column a is full.
  game.play("e5a5", move_by("human"), kT0);
  BOOST_REQUIRE(game.result().has_value());
  BOOST_TEST(game.result()->result == GameResult::XWins);
  BOOST_TEST(game.result()->termination == Termination::Line);
  BOOST_TEST(game.result()->reason == "X makes five in a row");
  BOOST_TEST(game.legal_moves().empty());
  BOOST_TEST(!game.human_to_move());
  BOOST_CHECK_THROW(game.play("b1b5", move_by("human"), kT0), NotationError);
  // Looking back, the earlier position can still be left by a new line.
  game.go_to(0, kT0);
  BOOST_TEST(game.human_to_move());
}

BOOST_AUTO_TEST_CASE(a_third_repetition_is_a_draw) {
  GuiGame game(Variant::TwoPlayer, kHumans, std::nullopt, "x4/5/5/5/o4 x");
  // Each side slides its own cube along its rank and back: four plies return to the start.
  const std::vector<std::string> cycle{"a5e5", "a1e1", "e5a5", "e1a1"};
  GuiGame probe = game;
  play_all(probe, cycle);
  BOOST_REQUIRE(probe.shown().text() == game.shown().text());
  play_all(game, cycle);
  BOOST_TEST(!game.result().has_value());
  play_all(game, cycle);
  BOOST_REQUIRE(game.result().has_value());
  BOOST_TEST(game.result()->termination == Termination::Repetition);
  BOOST_TEST(game.result()->result == GameResult::Draw);
}

BOOST_AUTO_TEST_CASE(a_persons_clock_runs_and_flags) {
  GuiGame game(Variant::TwoPlayer, {"human", "engine"}, arena::TimeControl::parse("10+1"), {}, kT0);
  BOOST_TEST(game.has_clock());
  BOOST_REQUIRE(game.running_clock().has_value());
  BOOST_TEST(*game.running_clock() == 0);
  BOOST_TEST(game.remaining_ms(kT0 + milliseconds(3000))[0] == 7000);
  game.play("a1a5", move_by("human"), kT0 + milliseconds(3000));
  BOOST_TEST(game.remaining_ms(kT0 + milliseconds(3000))[0] == 8000);  // 10 - 3 + 1
  BOOST_TEST(*game.running_clock() == 1);
  // The engine's go carries its own time and the other clock.
  const uqi::GoLimits own = game.own_limits(kT0 + milliseconds(4000));
  BOOST_TEST(own.time_ms.value_or(-1) == 9000);
  BOOST_TEST(game.clock_limits(kT0 + milliseconds(4000))[0].time_ms.value_or(-1) == 8000);
  BOOST_TEST(!game.tick(kT0 + milliseconds(12'000)));
  BOOST_TEST(game.tick(kT0 + milliseconds(13'100)));
  BOOST_REQUIRE(game.result().has_value());
  BOOST_TEST(game.result()->termination == Termination::TimeForfeit);
  BOOST_TEST(game.result()->result == GameResult::XWins);
  BOOST_TEST(!game.running_clock().has_value());
}

BOOST_AUTO_TEST_CASE(a_move_after_the_flag_loses_on_time) {
  GuiGame game(Variant::TwoPlayer, kHumans, arena::TimeControl::parse("5"), {}, kT0);
  game.play("a1a5", move_by("human"), kT0 + milliseconds(5200));
  BOOST_REQUIRE(game.result().has_value());
  BOOST_TEST(game.result()->termination == Termination::TimeForfeit);
  BOOST_TEST(game.result()->result == GameResult::OWins);
}

BOOST_AUTO_TEST_CASE(without_a_clock_an_engine_gets_a_second_a_move) {
  const GuiGame game(Variant::TwoPlayer, {"engine", "human"});
  BOOST_TEST(!game.has_clock());
  BOOST_TEST(game.own_limits(kT0).move_time_ms.value_or(0) == 1000);
  const GuiGame fixed(Variant::TwoPlayer, {"engine", "human"},
                      arena::TimeControl::parse("nodes=5000"));
  BOOST_TEST(fixed.own_limits(kT0).nodes.value_or(0) == 5000u);
  BOOST_TEST(!fixed.has_clock());
}

BOOST_DATA_TEST_CASE(bad_games_are_refused,
                     bdata::make({std::string("5/5/5/5/5 1"), std::string("6/5/5/5/5 x"),
                                  std::string("players")}),
                     start) {
  if (start == "players") {
    BOOST_CHECK_THROW(GuiGame(Variant::TwoPlayer, {"human"}), std::invalid_argument);
    BOOST_CHECK_THROW(GuiGame(Variant::FourPlayer, kHumans), std::invalid_argument);
  } else {
    BOOST_CHECK_THROW(GuiGame(Variant::TwoPlayer, kHumans, std::nullopt, start),
                      std::invalid_argument);
  }
}

BOOST_AUTO_TEST_CASE(four_player_moves_carry_their_point_and_a_forced_pass_is_offered) {
  const GuiGame start(Variant::FourPlayer, {"human", "human", "human", "human"});
  BOOST_TEST(start.legal_moves().size() == 88u);  // 44 slides, each cube pointing to 1 or 3
  for (const LegalMove& move : start.legal_moves()) {
    BOOST_REQUIRE(move.point.has_value());
    BOOST_TEST((*move.point == "x" || *move.point == "X"));
    BOOST_TEST(move.move == *move.from + *move.to + *move.point);
  }
  // Seat 2 (team O) with a border of X cubes and O cubes pointing to seat 4: it must pass.
  const GuiGame pass(Variant::FourPlayer, {"human", "human", "human", "human"}, std::nullopt,
                     "xOxOx/O3O/x3x/O3O/xOxOx 2");
  BOOST_REQUIRE(pass.legal_moves().size() == 1u);
  BOOST_TEST(pass.legal_moves()[0].move == "0000");
  BOOST_TEST(!pass.legal_moves()[0].from.has_value());
}

BOOST_AUTO_TEST_CASE(the_game_goes_to_pgn_and_back) {
  GuiGame game(Variant::TwoPlayer, {"human", "quixo"}, arena::TimeControl::parse("60+1"));
  game.play("a1a5", move_by("human"), kT0);
  GuiMove reply = move_by("quixo");
  reply.score_cp = 35;
  reply.depth = 9;
  reply.time_ms = 950;
  game.play("e5e1", reply, kT0);
  const std::string pgn = arena::format_pgn(game.record());
  BOOST_TEST(pgn.find("[White \"human\"]") != std::string::npos);
  BOOST_TEST(pgn.find("[Result \"*\"]") != std::string::npos, pgn);
  BOOST_TEST(pgn.find("[Termination \"unterminated\"]") != std::string::npos, pgn);
  const std::vector<arena::GameRecord> read = arena::parse_pgn(pgn);
  BOOST_REQUIRE(read.size() == 1u);
  const GuiGame replay = GuiGame::from_record(read[0]);
  BOOST_TEST(replay.ply() == 0);
  BOOST_TEST(replay.length() == 2);
  BOOST_TEST(replay.moves()[1].score_cp.value_or(0) == 35);
  BOOST_TEST(replay.moves()[1].position == game.moves()[1].position);
  BOOST_TEST(replay.human_to_move());
  // Unfinished, so it has no result and goes on from its last move.
  BOOST_TEST(!replay.result().has_value());
}

BOOST_AUTO_TEST_CASE(a_move_at_an_earlier_ply_starts_a_variation_and_keeps_the_game) {
  GuiGame game(Variant::TwoPlayer, kHumans);
  play_all(game, {"a1a5", "e5e1", "b1b5"});
  const int second = game.line()[2];
  game.go_to(1, kT0);
  game.play("e1a1", move_by("human"), kT0);
  // The current line is the variation: the shown position at its end, moves() its moves.
  BOOST_TEST(game.length() == 2);
  BOOST_TEST(game.moves()[1].move == "e1a1");
  BOOST_TEST(game.at_end());
  // The game's moves stay: the position after a1a5 has two continuations, the first the game's.
  const GuiNode& after_first = game.nodes()[static_cast<std::size_t>(game.line()[1])];
  BOOST_REQUIRE(after_first.children.size() == 2u);
  BOOST_TEST(after_first.children[0] == second);
  BOOST_TEST(line_from(game, second) == (std::vector<std::string>{"e5e1", "b1b5"}));
  // Back to the game's last move: its line is the current one again, shown at its end.
  const int last = game.nodes()[static_cast<std::size_t>(second)].children.front();
  game.go_to_node(last, kT0);
  BOOST_TEST(game.length() == 3);
  BOOST_TEST(game.ply() == 3);
  BOOST_TEST(game.moves()[2].move == "b1b5");
  BOOST_TEST(game.node() == last);
  // A node on the current line is reached as go_to reaches its ply; the line stays.
  game.go_to_node(game.line()[1], kT0);
  BOOST_TEST(game.ply() == 1);
  BOOST_TEST(game.length() == 3);
  // The move that is already there is followed, not added twice.
  const std::size_t nodes = game.nodes().size();
  game.play("e5e1", move_by("human"), kT0);
  BOOST_TEST(game.nodes().size() == nodes);
  BOOST_TEST(game.node() == second);
  BOOST_CHECK_THROW(game.go_to_node(99, kT0), std::out_of_range);
  BOOST_CHECK_THROW(game.go_to_node(-1, kT0), std::out_of_range);
}

BOOST_AUTO_TEST_CASE(a_variation_is_promoted_to_the_main_line_or_deleted) {
  GuiGame game(Variant::TwoPlayer, kHumans);
  play_all(game, {"a1a5", "e5e1", "b1b5"});
  game.go_to(1, kT0);
  play_all(game, {"e1a1", "b1b5"});
  const int variation = game.line()[2];
  const int root_child = game.line()[1];
  BOOST_TEST(game.nodes()[static_cast<std::size_t>(root_child)].children.back() == variation);
  game.promote(variation);
  BOOST_TEST(game.nodes()[static_cast<std::size_t>(root_child)].children.front() == variation);
  BOOST_TEST(game.record().moves[1].move == "e1a1");
  BOOST_TEST(game.record().moves[1].variations.size() == 1u);
  // Deleting the shown move's line shows the position before it.
  game.remove(variation, kT0);
  BOOST_TEST(game.node() == root_child);
  BOOST_TEST(game.nodes()[static_cast<std::size_t>(root_child)].children.size() == 1u);
  BOOST_TEST(game.length() == 3);  // the line goes on along the game's moves
  BOOST_TEST(game.moves()[1].move == "e5e1");
  BOOST_CHECK_THROW(game.go_to_node(variation, kT0), std::out_of_range);
  BOOST_CHECK_THROW(game.remove(0, kT0), std::out_of_range);
}

BOOST_AUTO_TEST_CASE(an_engine_answers_in_a_variation_and_the_take_back_keeps_the_rest) {
  GuiGame game(Variant::TwoPlayer, {"human", "engine"});
  game.play("a1a5", move_by("human"), kT0);
  game.play("e5e1", move_by("engine"), kT0);
  game.go_to(0, kT0);
  BOOST_TEST(!game.engine_to_move());
  game.play("b1b5", move_by("human"), kT0);
  // At the end of the new line the engine is to move again.
  BOOST_TEST(game.engine_to_move());
  game.play("e1a1", move_by("engine"), kT0);
  BOOST_TEST(game.take_back(true, kT0));
  BOOST_TEST(game.length() == 0);
  // The first line is still there.
  BOOST_REQUIRE(game.nodes()[0].children.size() == 1u);
  BOOST_TEST(line_from(game, game.nodes()[0].children[0]) ==
             (std::vector<std::string>{"a1a5", "e5e1"}));
}

BOOST_AUTO_TEST_CASE(variations_and_comments_go_to_pgn_and_back) {
  GuiGame game(Variant::TwoPlayer, kHumans);
  play_all(game, {"a1a5", "e5e1", "b1b5"});
  game.set_comment(game.line()[2], "the usual reply");
  game.go_to(1, kT0);
  play_all(game, {"e1a1", "b1b5"});
  game.go_to(2, kT0);
  game.play("a5a1", move_by("human"), kT0);  // a variation inside the variation
  const std::string pgn = arena::format_pgn(game.record());
  std::string one_line = pgn;
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  BOOST_TEST(one_line.find("1... e5e1 {0.000s} {the usual reply} (1... e1a1 {0.000s} 2. b1b5 "
                           "{0.000s} (2. a5a1 {0.000s})) 2. b1b5 {0.000s} *") != std::string::npos,
             pgn);
  BOOST_CHECK_THROW(arena::parse_pgn(pgn), arena::PgnError);  // the arena reads no variations
  const std::vector<arena::GameRecord> read = arena::parse_pgn(pgn, arena::PgnReading::Annotated);
  BOOST_REQUIRE(read.size() == 1u);
  const GuiGame replay = GuiGame::from_record(read[0]);
  BOOST_TEST(arena::format_pgn(replay.record()) == pgn);
  BOOST_TEST(replay.length() == 3);
  BOOST_TEST(replay.nodes()[static_cast<std::size_t>(replay.line()[2])].comment ==
             "the usual reply");
}

// Issue 26: whole-game analysis's marks reach the PGN as a comment after the person's, read
// back as the move's comment, and are not written twice when that game is analysed again.
BOOST_AUTO_TEST_CASE(a_marked_move_goes_to_pgn_as_a_comment_and_back) {
  GuiGame game(Variant::TwoPlayer, kHumans);
  play_all(game, {"a1a5", "e5e1", "b1b5"});
  game.set_comment(game.line()[1], "tempting");
  MoveAnalysis blunder;
  blunder.best = "b1b5";
  blunder.loss = 0.2;
  blunder.mark = MoveMark::Blunder;
  MoveAnalysis inaccuracy;  // the best move not known
  inaccuracy.loss = 0.06;
  inaccuracy.mark = MoveMark::Inaccuracy;
  MoveAnalysis best;  // no mark, no comment
  best.best = "b1b5";
  game.set_analysis(0, blunder);
  game.set_analysis(1, inaccuracy);
  game.set_analysis(2, best);
  for (const arena::PgnStyle style : {arena::PgnStyle::Full, arena::PgnStyle::Min}) {
    const std::string pgn = arena::format_pgn(game.record(), style);
    std::string one_line = pgn;
    std::replace(one_line.begin(), one_line.end(), '\n', ' ');
    const std::string expected =
        style == arena::PgnStyle::Full
            ? "1. a1a5 {0.000s} {tempting ?? blunder, best b1b5} 1... e5e1 {0.000s} "
              "{?! inaccuracy} 2. b1b5 {0.000s} *"
            : "1. a1a5 {tempting ?? blunder, best b1b5} 1... e5e1 {?! inaccuracy} 2. b1b5 *";
    BOOST_TEST(one_line.find(expected) != std::string::npos, pgn);
    const std::vector<arena::GameRecord> read = arena::parse_pgn(pgn, arena::PgnReading::Annotated);
    BOOST_REQUIRE(read.size() == 1u);
    GuiGame replay = GuiGame::from_record(read[0]);
    BOOST_TEST(replay.nodes()[static_cast<std::size_t>(replay.line()[1])].comment ==
               "tempting ?? blunder, best b1b5");
    BOOST_TEST(arena::format_pgn(replay.record(), style) == pgn);
    replay.set_analysis(0, blunder);
    replay.set_analysis(1, inaccuracy);
    BOOST_TEST(arena::format_pgn(replay.record(), style) == pgn);
  }
}

BOOST_AUTO_TEST_CASE(analysis_takes_over_a_game_with_its_moves) {
  GuiGame game(Variant::TwoPlayer, {"human", "engine"});
  game.play("a1a5", move_by("human"), kT0);
  game.play("e5e1", move_by("engine"), kT0);
  game.set_players({"human", "human"});
  BOOST_TEST(game.length() == 2);
  BOOST_TEST(game.human_to_move());
  BOOST_CHECK_THROW(game.set_players({"human"}), std::invalid_argument);
}

// Issue 26, defect 1: the flagged clock shows nothing left, and the reason names the player as
// the page does.
BOOST_DATA_TEST_CASE(a_clock_that_runs_out_shows_nothing_left_and_names_the_player_as_the_page,
                     bdata::make({0, 1}), side) {
  const std::vector<std::string> players = side == 0 ? std::vector<std::string>{"human", "quixo"}
                                                     : std::vector<std::string>{"quixo", "human"};
  GuiGame game(Variant::TwoPlayer, players, arena::TimeControl::parse("5+0"), {}, kT0);
  if (side == 1) game.play("a1a5", move_by("quixo"), kT0 + milliseconds(1000));
  const SteadyTime turn = kT0 + milliseconds(side == 1 ? 1000 : 0);
  BOOST_TEST(game.remaining_ms(turn)[static_cast<std::size_t>(side)] == 5000);
  BOOST_REQUIRE(game.tick(turn + milliseconds(5600)));
  BOOST_TEST(game.remaining_ms(turn + milliseconds(9000))[static_cast<std::size_t>(side)] == 0);
  BOOST_TEST(game.result()->reason ==
             (side == 0 ? "Person (X) lost on time" : "Person (O) lost on time"));
}

BOOST_AUTO_TEST_CASE(a_paused_game_stops_its_clocks_and_takes_no_moves_until_resumed) {
  GuiGame game(Variant::TwoPlayer, {"alpha", "beta"}, arena::TimeControl::parse("10+0"), {}, kT0);
  BOOST_TEST(game.engine_to_move());
  game.pause(kT0 + milliseconds(1000));
  BOOST_TEST(game.paused());
  BOOST_TEST(!game.engine_to_move());
  BOOST_TEST(!game.running_clock().has_value());
  BOOST_TEST(game.remaining_ms(kT0 + milliseconds(60'000))[0] == 9000);
  BOOST_TEST(!game.tick(kT0 + milliseconds(60'000)));  // no flag while paused
  BOOST_CHECK_THROW(game.play("a1a5", move_by("alpha"), kT0 + milliseconds(2000)), NotationError);
  game.resume(kT0 + milliseconds(60'000));
  BOOST_TEST(game.engine_to_move());
  BOOST_TEST(*game.running_clock() == 0);
  // The turn goes on from the 9 s it had at the pause.
  BOOST_TEST(game.remaining_ms(kT0 + milliseconds(62'000))[0] == 7000);
  game.play("a1a5", move_by("alpha"), kT0 + milliseconds(62'000));
  BOOST_TEST(game.remaining_ms(kT0 + milliseconds(62'000))[0] == 7000);
  BOOST_TEST(game.length() == 1);
}

// Issue 26, defect 3: a game read from an arena PGN is saved with the file's tags and names.
BOOST_AUTO_TEST_CASE(a_game_read_from_a_pgn_keeps_its_tags_and_players_when_saved) {
  GuiGame played(Variant::TwoPlayer, {"alpha", "beta"});
  played.play("a1a5", move_by("alpha"), kT0);
  played.play("e5e1", move_by("beta"), kT0);
  arena::GameRecord file = played.record();
  file.event = "Autumn cup";
  file.site = "lab";
  file.date = "2026.11.20";
  file.round = "7";
  file.start_time = "2026-11-20T10:00:00 +0000";
  file.time_control = "10+0.1";
  const std::vector<arena::GameRecord> read = arena::parse_pgn(arena::format_pgn(file));
  BOOST_REQUIRE(read.size() == 1u);
  const GuiGame loaded = GuiGame::from_record(read[0]);
  BOOST_TEST(loaded.players() == kHumans);  // people on the page
  BOOST_TEST(loaded.names() == (std::vector<std::string>{"alpha", "beta"}));
  const std::string saved = arena::format_pgn(loaded.record());
  for (const std::string tag :
       {"[Event \"Autumn cup\"]", "[Site \"lab\"]", "[Date \"2026.11.20\"]", "[Round \"7\"]",
        "[White \"alpha\"]", "[Black \"beta\"]", "[TimeControl \"10+0.1\"]",
        "[GameStartTime \"2026-11-20T10:00:00 +0000\"]"})
    BOOST_TEST(saved.find(tag) != std::string::npos, tag << " in " << saved);
  BOOST_TEST(saved.find("human") == std::string::npos, saved);
}

BOOST_AUTO_TEST_CASE(a_new_game_is_dated_and_an_engines_level_is_its_pgn_rating) {
  GuiGame game(Variant::TwoPlayer, {"human", "quixo"});
  BOOST_TEST(game.levels() == (std::vector<std::optional<int>>{std::nullopt, std::nullopt}));
  game.set_levels({std::nullopt, 1200});
  const arena::GameRecord record = game.record();
  BOOST_TEST(record.date.size() == 10u);  // YYYY.MM.DD, not PGN's unknown date
  const std::string pgn = arena::format_pgn(record);
  BOOST_TEST(pgn.find("[BlackElo \"1200\"]") != std::string::npos, pgn);
  BOOST_TEST(pgn.find("WhiteElo") == std::string::npos, pgn);
  const std::vector<arena::GameRecord> read = arena::parse_pgn(pgn);
  BOOST_REQUIRE(read.size() == 1u);
  BOOST_TEST(read[0].o_elo.value_or(-1) == 1200);
  BOOST_TEST(!read[0].x_elo.has_value());
  BOOST_CHECK_THROW(game.set_levels({1200}), std::invalid_argument);
}

// Issue 26, defect 8: positions no game reaches are told apart; reachable ones are not.
BOOST_DATA_TEST_CASE(an_unreachable_position_is_named,
                     bdata::make({std::string("ooooo/ooooo/ooooo/ooooo/ooooo x"),
                                  std::string("5/5/5/5/5 o"), std::string("5/5/5/5/4x x"),
                                  std::string("5/5/2x2/5/5 o"), std::string("5/5/5/5/5 2"),
                                  std::string("5/5/5/5/o4 1")}),
                     position) {
  BOOST_TEST(unreachable_reason(Game::parse(position)).has_value(), position);
}

BOOST_DATA_TEST_CASE(a_reachable_position_is_not_named,
                     bdata::make({std::string("5/5/5/5/5 x"), std::string("5/5/5/5/x4 o"),
                                  std::string("5/5/2o2/5/x3o x"),
                                  std::string("xxxxx/5/5/5/oooo1 o"), std::string("5/5/5/5/5 1"),
                                  std::string("5/5/5/5/x4 2")}),
                     position) {
  const std::optional<std::string> reason = unreachable_reason(Game::parse(position));
  BOOST_TEST(!reason.has_value(), position << ": " << reason.value_or(""));
}

BOOST_AUTO_TEST_SUITE_END()
