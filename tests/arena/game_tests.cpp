// The arena's game loop: every ending is classified and recorded with its reason: lines (also a
// line made for the opponent), threefold repetition, the ply cap, illegal and malformed moves,
// crashes, stalls, time forfeits, resign and draw adjudication, engines that cannot start, and
// the endgame tables (--tb: the fixture's tables, whose probe gives the expected results). The
// engines are scripted in-process (scripted_engine.hpp) so each ending is staged exactly; the
// real-process cases with quixo-mock-engine are in engine_client_tests and tournament_tests.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <bit>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "game.hpp"
#include "game4.hpp"
#include "support/arena_printing.hpp"
#include "support/scripted_engine.hpp"
#include "support/test_tables.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::arena;
using quixo::test::play;
using quixo::test::ScriptedPolicy;
using quixo::test::ScriptedReply;

namespace {

using quixo::test::setup_from;

GameOutcome play_scripted(const GameSetup& setup, ScriptedPolicy x_policy,
                          ScriptedPolicy o_policy) {
  EngineClient x(quixo::test::scripted_config("alpha"), quixo::test::scripted_launcher(x_policy));
  EngineClient o(quixo::test::scripted_config("beta"), quixo::test::scripted_launcher(o_policy));
  return play_game(setup, x, o);
}

// The recorded moves replay legally from the start position and opening.
void check_replay(const GameRecord& record) {
  Position position = parse_position(record.start_position);
  for (const std::string& move : record.opening_moves)
    position = position.after(parse_move(position, move));
  for (const MoveRecord& move : record.moves) {
    BOOST_TEST_CONTEXT("move " << move.move) {
      BOOST_REQUIRE_NO_THROW(position = position.after(parse_move(position, move.move)));
    }
  }
}

// Plays `first` then `second` alternately.
ScriptedPolicy alternate(const std::string& first, const std::string& second) {
  return [=](const quixo::Game&, int go_count) { return play(go_count % 2 == 0 ? first : second); };
}

// A move that takes a blank cube (one layer down, towards the tables) and leaves the game going.
std::optional<Move> blank_taking_move(const Position& position) {
  for (const Move move : position.legal_moves()) {
    const Position next = position.after(move);
    if (std::popcount(next.blanks()) < std::popcount(position.blanks()) &&
        next.outcome() == Outcome::Ongoing)
      return move;
  }
  return std::nullopt;
}

// Plays blank_taking_move when there is one, else the first legal move; on a full board where no
// border cube is the mover's, there is none, and it answers 0000 (an illegal move, which ends
// the game).
ScriptedPolicy take_a_blank() {
  return [](const quixo::Game& game, int) {
    const std::optional<Move> move = blank_taking_move(parse_position(game.text()));
    const std::vector<std::string> legal = game.legal_move_texts();
    return play(move ? to_string(*move) : legal.empty() ? "0000" : legal.front());
  };
}

// The position a record ends in.
Position final_position(const GameRecord& record) {
  Position position = parse_position(record.start_position);
  for (const std::string& move : record.opening_moves)
    position = position.after(parse_move(position, move));
  for (const MoveRecord& move : record.moves)
    position = position.after(parse_move(position, move.move));
  return position;
}

// What the tables say of `position` (which they must hold), as the game's result.
GameResult table_result(const Position& position) {
  const std::optional<tb::TbValue> value = quixo::test::test_tables().probe(position);
  BOOST_TEST_REQUIRE(value.has_value(), "not in the tables: " << to_string(position));
  BOOST_TEST_REQUIRE((value->wdl != tb::Wdl::Hole));
  if (value->wdl == tb::Wdl::Draw) return GameResult::Draw;
  const bool x_to_move = position.side_to_move() == Color::X;
  return (value->wdl == tb::Wdl::Win) == x_to_move ? GameResult::XWins : GameResult::OWins;
}

// The record ends with the tables' result for its last position, and says so.
void check_table_ending(const GameRecord& record) {
  const Position last = final_position(record);
  BOOST_TEST(record.termination == Termination::Tablebase, record.reason);
  BOOST_TEST(record.result == table_result(last), record.reason << " at " << to_string(last));
  const tb::TbValue value = quixo::test::test_tables().probe(last).value();
  if (value.wdl == tb::Wdl::Draw) {
    BOOST_TEST(record.reason == "tablebase: draw");
  } else {
    const std::string winner = record.result == GameResult::XWins ? "X (alpha)" : "O (beta)";
    const std::string plies =
        std::to_string(value.distance) + (value.distance == 1 ? " ply" : " plies");
    BOOST_TEST(record.reason == "tablebase: " + winner + " wins in " + plies);
  }
}

// An engine that must never be asked to move: it plays an illegal move, which would lose.
ScriptedPolicy never_asked(int& asked) {
  return [&asked](const quixo::Game&, int) {
    ++asked;
    return play("c3c1");
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(game_tests)

BOOST_AUTO_TEST_CASE(five_in_a_row_wins_for_the_mover) {
  const GameOutcome outcome = play_scripted(
      setup_from("5/5/5/5/xxxx1 x"), alternate("e5e1", "e5e1"), quixo::test::first_legal_move());
  const GameRecord& record = outcome.record;
  BOOST_TEST(!outcome.aborted);
  BOOST_TEST(record.result == GameResult::XWins);
  BOOST_TEST(record.termination == Termination::Line);
  BOOST_TEST(record.reason.find("five in a row") != std::string::npos, record.reason);
  BOOST_TEST(record.moves.size() == 1u);
  BOOST_TEST(record.x_name == "alpha");
  BOOST_TEST(record.o_name == "beta");
  check_replay(record);
}

BOOST_AUTO_TEST_CASE(a_line_made_for_the_opponent_loses) {
  // Taking e5 and pushing in at e1 lifts O's cube from e4 to e5, completing O's top rank.
  const GameOutcome outcome = play_scripted(
      setup_from("oooo1/4o/5/5/5 x"), alternate("e5e1", "e5e1"), quixo::test::first_legal_move());
  BOOST_TEST(outcome.record.result == GameResult::OWins);
  BOOST_TEST(outcome.record.termination == Termination::Line);
  BOOST_TEST(outcome.record.reason.find("opponent's cubes") != std::string::npos,
             outcome.record.reason);
}

BOOST_DATA_TEST_CASE(repetition_draws_after_the_configured_count, bdata::make({2, 3, 4}),
                     repetitions) {
  // Each side slides its own corner cube along its rank and back: the start position returns
  // every four plies.
  GameSetup setup = setup_from("o4/5/5/5/x4 x");
  setup.rules.repetitions = repetitions;
  const GameOutcome outcome =
      play_scripted(setup, alternate("a1e1", "e1a1"), alternate("a5e5", "e5a5"));
  BOOST_TEST(outcome.record.result == GameResult::Draw);
  BOOST_TEST(outcome.record.termination == Termination::Repetition);
  BOOST_TEST(outcome.record.moves.size() == static_cast<std::size_t>(4 * (repetitions - 1)));
  check_replay(outcome.record);
}

BOOST_DATA_TEST_CASE(ply_cap_counts_book_plies, bdata::make({0, 1, 2}), book_plies) {
  GameSetup setup = setup_from(std::string(kStartPosition));
  const std::vector<std::string> book = {"b1b5", "d1d5"};
  setup.opening.moves.assign(book.begin(), book.begin() + book_plies);
  setup.rules.max_plies = 6;
  const GameOutcome outcome =
      play_scripted(setup, quixo::test::first_legal_move(), quixo::test::first_legal_move());
  BOOST_TEST(outcome.record.termination == Termination::PlyCap);
  BOOST_TEST(outcome.record.result == GameResult::Draw);
  BOOST_TEST(outcome.record.moves.size() == static_cast<std::size_t>(6 - book_plies));
  BOOST_TEST(outcome.record.opening_moves.size() == static_cast<std::size_t>(book_plies));
  check_replay(outcome.record);
}

// A bad move by either side, and what it should say.
struct BadMove {
  std::string move;
  bool by_x;
};
std::ostream& operator<<(std::ostream& out, const BadMove& bad) {
  return out << bad.move << (bad.by_x ? " by X" : " by O");
}

BOOST_DATA_TEST_CASE(illegal_and_malformed_moves_lose,
                     bdata::make(std::vector<BadMove>{{"c3c1", true},
                                                      {"zz9", true},
                                                      {"", false},
                                                      {"a1a1", false},
                                                      {"B1E1", true},
                                                      {"c3c1", false}}),
                     bad) {
  const ScriptedPolicy cheat = [bad](const quixo::Game&, int) {
    ScriptedReply reply;
    reply.lines = {"bestmove " + bad.move};
    return reply;
  };
  const GameOutcome outcome = play_scripted(setup_from(std::string(kStartPosition)),
                                            bad.by_x ? cheat : quixo::test::first_legal_move(),
                                            bad.by_x ? quixo::test::first_legal_move() : cheat);
  const GameRecord& record = outcome.record;
  // A `bestmove` without a move is a malformed move too.
  BOOST_TEST(record.termination == Termination::IllegalMove);
  BOOST_TEST(record.reason.find(bad.move.substr(0, 4)) != std::string::npos, record.reason);
  BOOST_TEST(record.result == (bad.by_x ? GameResult::OWins : GameResult::XWins));
  BOOST_TEST(record.reason.find(bad.by_x ? "alpha" : "beta") != std::string::npos, record.reason);
}

BOOST_DATA_TEST_CASE(crash_on_go_loses_and_leaves_the_engine_down, bdata::make({0, 3}),
                     moves_before) {
  const ScriptedPolicy crash_later = [moves_before](const quixo::Game& game, int go_count) {
    if (go_count < moves_before) return play(game.legal_move_texts().front());
    ScriptedReply reply;
    reply.crash = true;
    return reply;
  };
  EngineClient x(quixo::test::scripted_config("alpha"),
                 quixo::test::scripted_launcher(quixo::test::first_legal_move()));
  EngineClient o(quixo::test::scripted_config("beta"), quixo::test::scripted_launcher(crash_later));
  const GameOutcome outcome = play_game(setup_from(std::string(kStartPosition)), x, o);
  BOOST_TEST(outcome.record.termination == Termination::Crash);
  BOOST_TEST(outcome.record.result == GameResult::XWins);
  BOOST_TEST(outcome.record.moves.size() == static_cast<std::size_t>(2 * moves_before + 1));
  BOOST_TEST(!o.alive());
  // The next game restarts the crashed engine, and says so.
  const GameOutcome next = play_game(setup_from(std::string(kStartPosition)), x, o);
  BOOST_TEST(next.incidents.o_restarted);
  BOOST_TEST(!next.incidents.x_restarted);
}

BOOST_DATA_TEST_CASE(silence_is_a_stall_without_a_clock_and_a_time_loss_with_one,
                     bdata::make({false, true}), with_clock) {
  const ScriptedPolicy silent = [](const quixo::Game&, int) { return ScriptedReply{}; };
  const TimeControl control =
      with_clock ? TimeControl::clock(200, 10) : TimeControl::fixed_depth(3);
  const GameOutcome outcome = play_scripted(setup_from(std::string(kStartPosition), control),
                                            quixo::test::first_legal_move(), silent);
  BOOST_TEST(outcome.record.termination ==
             (with_clock ? Termination::TimeForfeit : Termination::Stall));
  BOOST_TEST(outcome.record.result == GameResult::XWins);
  BOOST_TEST(outcome.record.moves.size() == 1u);
}

BOOST_AUTO_TEST_CASE(an_engine_that_cannot_start_loses_before_the_first_move) {
  EngineClient x(quixo::test::scripted_config("alpha"),
                 quixo::test::scripted_launcher(quixo::test::first_legal_move()));
  EngineClient o(quixo::test::scripted_config("beta"),
                 [](const ProcessSpec&) -> std::unique_ptr<EngineProcess> {
                   throw ProcessStartError("no such file");
                 });
  const GameOutcome outcome = play_game(setup_from(std::string(kStartPosition)), x, o);
  BOOST_TEST(outcome.record.termination == Termination::Crash);
  BOOST_TEST(outcome.record.result == GameResult::XWins);
  BOOST_TEST(outcome.record.moves.empty());
  BOOST_TEST(outcome.record.reason.find("beta") != std::string::npos, outcome.record.reason);
}

BOOST_DATA_TEST_CASE(resign_adjudication_needs_both_engines_when_two_sided,
                     bdata::make({true, false}), two_sided) {
  GameSetup setup = setup_from(std::string(kStartPosition));
  setup.rules.adjudication.resign_move_count = 3;
  setup.rules.adjudication.resign_score_cp = 1000;
  setup.rules.adjudication.resign_two_sided = two_sided;
  const GameOutcome outcome = play_scripted(setup, quixo::test::first_legal_move(-2000),
                                            quixo::test::first_legal_move(2000));
  BOOST_TEST(outcome.record.termination == Termination::ResignAdjudication);
  BOOST_TEST(outcome.record.result == GameResult::OWins);
  // X's third move is ply 5; two-sided, O's third score only comes at ply 6, so X resigns with
  // its fourth move (ply 7).
  BOOST_TEST(outcome.record.moves.size() == (two_sided ? 7u : 5u));
  BOOST_TEST(outcome.record.moves.front().score_cp.value_or(0) == -2000);
}

BOOST_AUTO_TEST_CASE(resign_adjudication_ignores_engines_that_disagree) {
  GameSetup setup = setup_from(std::string(kStartPosition));
  setup.rules.adjudication.resign_move_count = 2;
  setup.rules.adjudication.resign_score_cp = 500;
  setup.rules.max_plies = 12;
  setup.rules.repetitions = 100;  // first legal moves soon repeat
  // Both think they are lost: two-sided, nobody resigns.
  const GameOutcome outcome = play_scripted(setup, quixo::test::first_legal_move(-900),
                                            quixo::test::first_legal_move(-900));
  BOOST_TEST(outcome.record.termination == Termination::PlyCap);
}

BOOST_DATA_TEST_CASE(draw_adjudication_after_the_move_number, bdata::make({1, 4}), move_number) {
  GameSetup setup = setup_from(std::string(kStartPosition));
  setup.rules.adjudication.draw_move_number = move_number;
  setup.rules.adjudication.draw_move_count = 2;
  setup.rules.adjudication.draw_score_cp = 10;
  const GameOutcome outcome =
      play_scripted(setup, quixo::test::first_legal_move(5), quixo::test::first_legal_move(-10));
  BOOST_TEST(outcome.record.termination == Termination::DrawAdjudication);
  BOOST_TEST(outcome.record.result == GameResult::Draw);
  // Both have two scores at ply 4 (full move 3 begins); with move number 4, at ply 6.
  BOOST_TEST(outcome.record.moves.size() == (move_number == 1 ? 4u : 6u));
}

BOOST_AUTO_TEST_CASE(scores_outside_the_draw_window_prevent_draw_adjudication) {
  GameSetup setup = setup_from(std::string(kStartPosition));
  setup.rules.adjudication.draw_move_count = 2;
  setup.rules.adjudication.draw_score_cp = 10;
  setup.rules.max_plies = 10;
  setup.rules.repetitions = 100;
  const GameOutcome outcome =
      play_scripted(setup, quixo::test::first_legal_move(5), quixo::test::first_legal_move(50));
  BOOST_TEST(outcome.record.termination == Termination::PlyCap);
}

BOOST_AUTO_TEST_CASE(the_record_keeps_setup_scores_and_time_controls) {
  GameSetup setup = setup_from(std::string(kStartPosition), TimeControl::clock(5000, 50));
  setup.o_control = TimeControl::fixed_nodes(500);
  setup.opening.moves = {"b1b5"};
  setup.round = "7";
  setup.event = "unit";
  setup.rules.max_plies = 3;
  const GameOutcome outcome =
      play_scripted(setup, quixo::test::first_legal_move(12), quixo::test::first_legal_move(-7));
  const GameRecord& record = outcome.record;
  BOOST_TEST(record.round == "7");
  BOOST_TEST(record.event == "unit");
  BOOST_TEST(record.start_position == std::string(kStartPosition));
  BOOST_TEST(record.opening_moves == std::vector<std::string>{"b1b5"});
  BOOST_TEST(record.time_control == "5+0.05");
  BOOST_TEST(record.o_time_control.value_or("") == "nodes=500");
  BOOST_REQUIRE(record.moves.size() == 2u);
  BOOST_TEST(record.moves[0].score_cp.value_or(0) == -7);  // O moves first after the book move
  BOOST_TEST(record.moves[0].depth.value_or(0) == 1);
  BOOST_TEST(record.moves[1].score_cp.value_or(0) == 12);
  BOOST_TEST(record.date.size() == 10u);
}

// Issue 9, defect 8: with MultiPV 3 the last `info` line of an iteration is the third best
// line's; the record and adjudication must take the best line's (multipv 1) score.
BOOST_AUTO_TEST_CASE(with_multipv_the_best_lines_score_is_recorded_and_adjudicated) {
  GameSetup setup = setup_from(std::string(kStartPosition));
  setup.rules.adjudication.resign_move_count = 2;
  setup.rules.adjudication.resign_score_cp = 1000;
  setup.rules.adjudication.resign_two_sided = false;
  setup.rules.max_plies = 8;
  setup.rules.repetitions = 100;
  const ScriptedPolicy multipv = [](const quixo::Game& game, int) {
    const std::vector<std::string> moves = game.legal_move_texts();
    ScriptedReply reply;
    reply.lines = {"info depth 1 multipv 1 score cp 20 pv " + moves[0],
                   "info depth 1 multipv 2 score cp -400 pv " + moves[1],
                   "info depth 1 multipv 3 score cp -2000 pv " + moves[2], "bestmove " + moves[0]};
    return reply;
  };
  const GameOutcome outcome = play_scripted(setup, multipv, quixo::test::first_legal_move());
  BOOST_TEST(outcome.record.termination == Termination::PlyCap, outcome.record.reason);
  BOOST_REQUIRE(outcome.record.moves.size() == 8u);
  for (std::size_t ply = 0; ply < 8; ply += 2)
    BOOST_TEST(outcome.record.moves[ply].score_cp.value_or(0) == 20, "ply " << ply + 1);
}

BOOST_AUTO_TEST_CASE(an_abort_returns_between_moves_and_marks_the_game) {
  std::atomic<bool> abort{true};
  EngineClient x(quixo::test::scripted_config("alpha"),
                 quixo::test::scripted_launcher(quixo::test::first_legal_move()));
  EngineClient o(quixo::test::scripted_config("beta"),
                 quixo::test::scripted_launcher(quixo::test::first_legal_move()));
  const GameOutcome outcome = play_game(setup_from(std::string(kStartPosition)), x, o, &abort);
  BOOST_TEST(outcome.aborted);
}

// --tb: a game ends as soon as its position is in the tables, with their result for the side to
// move; without tables the same game goes on.
BOOST_AUTO_TEST_CASE(a_game_that_reaches_the_tables_ends_there_with_their_result) {
  const auto positions = quixo::test::positions_with_blanks(quixo::test::test_table_blanks() + 1);
  std::set<GameResult> results;
  for (const Position& start : positions) {
    BOOST_TEST_CONTEXT("from " << to_string(start)) {
      BOOST_TEST_REQUIRE(!quixo::test::test_tables().probe(start).has_value());  // above them
      GameSetup setup = setup_from(to_string(start));
      setup.tablebase = &quixo::test::test_tables();
      const GameOutcome outcome = play_scripted(setup, take_a_blank(), take_a_blank());
      // The first move takes a blank cube, so the game is in the tables after it.
      BOOST_TEST_REQUIRE(outcome.record.moves.size() == 1u, outcome.record.reason);
      check_table_ending(outcome.record);
      results.insert(outcome.record.result);

      setup.tablebase = nullptr;
      setup.rules.max_plies = 20;
      const GameOutcome without = play_scripted(setup, take_a_blank(), take_a_blank());
      BOOST_TEST(without.record.termination != Termination::Tablebase, without.record.reason);
      BOOST_TEST(without.record.moves.size() > 1u, without.record.reason);
    }
  }
  // The samples reach more than one kind of result, so a wrong side or sign would show.
  BOOST_TEST(results.size() > 1u);
}

BOOST_AUTO_TEST_CASE(a_start_or_book_position_in_the_tables_ends_before_the_engines_move) {
  const int blanks = quixo::test::test_table_blanks();
  for (const Position& start : quixo::test::positions_with_blanks(blanks)) {
    BOOST_TEST_CONTEXT("start " << to_string(start)) {
      GameSetup setup = setup_from(to_string(start));
      setup.tablebase = &quixo::test::test_tables();
      int asked = 0;
      const GameOutcome outcome = play_scripted(setup, never_asked(asked), never_asked(asked));
      BOOST_TEST(asked == 0);
      BOOST_TEST(outcome.record.moves.empty());
      check_table_ending(outcome.record);
    }
  }
  // A book move that takes a blank cube brings the game into the tables before the engines play.
  for (const Position& start : quixo::test::positions_with_blanks(blanks + 1)) {
    BOOST_TEST_CONTEXT("book from " << to_string(start)) {
      GameSetup setup = setup_from(to_string(start));
      const std::optional<Move> move = blank_taking_move(start);
      BOOST_TEST_REQUIRE(move.has_value());
      setup.opening.moves = {to_string(*move)};
      setup.tablebase = &quixo::test::test_tables();
      int asked = 0;
      const GameOutcome outcome = play_scripted(setup, never_asked(asked), never_asked(asked));
      BOOST_TEST(asked == 0);
      BOOST_TEST(outcome.record.opening_moves.size() == 1u);
      BOOST_TEST(outcome.record.moves.empty());
      check_table_ending(outcome.record);
    }
  }
}

// There are no four-player tables: a four-player game with few blank cubes plays on.
BOOST_AUTO_TEST_CASE(the_four_player_game_ignores_the_tables) {
  GameSetup setup = setup_from("xxoox/ooxxo/xxoox/ooxxo/1xoox 1");
  setup.tablebase = &quixo::test::test_tables();
  setup.rules.max_plies = 4;
  std::array<std::unique_ptr<EngineClient>, 4> clients;
  SeatClients seats{};
  for (std::size_t seat = 0; seat < 4; ++seat) {
    clients[seat] = std::make_unique<EngineClient>(
        quixo::test::scripted_config("seat" + std::to_string(seat + 1)),
        quixo::test::scripted_launcher(quixo::test::first_legal_move()));
    seats[seat] = clients[seat].get();
  }
  const GameOutcome outcome = play_game4(setup, seats);
  BOOST_TEST(outcome.record.termination != Termination::Tablebase, outcome.record.reason);
  BOOST_TEST(!outcome.record.moves.empty());
}

BOOST_AUTO_TEST_SUITE_END()
