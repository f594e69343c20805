// The four-player team game in the arena: every ending of play_game4 under both seatings (one
// process per seat, one per team), staged move by move with in-process scripted engines: lines
// (also the other team's line), repetition of board, points and seat, the ply cap, illegal and
// malformed moves (the partner's cube, the wrong point, a pass that is not forced), a forced pass,
// crashes, stalls and time forfeits in one seat, engines that cannot start, resign and draw
// adjudication from both teams' scores; the four seat clocks in every `go`; the record and its
// PGN, written and read back; four-player opening books (the generator and the shipped book are
// opening_generator_tests').
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "core/notation.hpp"
#include "core/position4.hpp"
#include "core/symmetry.hpp"
#include "engine_client.hpp"
#include "game4.hpp"
#include "openings.hpp"
#include "pgn_reader.hpp"
#include "pgn_writer.hpp"
#include "support/arena_printing.hpp"
#include "support/game_records.hpp"
#include "support/scripted_engine.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::arena;
using quixo::test::play;
using quixo::test::ScriptedLog;
using quixo::test::ScriptedPolicy;
using quixo::test::ScriptedReply;

BOOST_AUTO_TEST_SUITE(game4_tests)

namespace {

const auto kSeatings = bdata::make({Seating::PerSeat, Seating::PerTeam});

using quixo::test::setup_from;

Seat seat_to_move(const quixo::Game& game) {
  return game.four_player()->position.seat_to_move();
}

ScriptedPolicy first_legal(std::optional<int> score_cp = std::nullopt) {
  return quixo::test::first_legal_move(score_cp);
}

// Plays the moves in turn, over and over.
ScriptedPolicy cycle(std::vector<std::string> moves) {
  return [moves](const quixo::Game&, int go_count) {
    return play(moves[static_cast<std::size_t>(go_count) % moves.size()]);
  };
}

// Plays `move` with a score of 0.
ScriptedPolicy play_scored(const std::string& move) {
  return [move](const quixo::Game&, int) { return play(move, 0); };
}

ScriptedPolicy crash() {
  return [](const quixo::Game&, int) {
    ScriptedReply reply;
    reply.crash = true;
    return reply;
  };
}

// Answers with `lines` (a bare `bestmove`, say) instead of a search.
ScriptedPolicy answer(std::vector<std::string> lines) {
  return [lines](const quixo::Game&, int) { return ScriptedReply{lines, false}; };
}

// Behaves like `before` for its first `count` moves, then like `after`.
ScriptedPolicy after_moves(int count, ScriptedPolicy before, ScriptedPolicy after) {
  return [=](const quixo::Game& game, int go_count) {
    return go_count < count ? before(game, go_count) : after(game, go_count - count);
  };
}

// One process answering for both seats of a team: the policy of the seat to move, each with its
// own count of the moves asked of that seat. Every process launched gets its own copy of the
// counts, so a restarted process counts afresh, as a per-seat process does.
ScriptedPolicy team_process(ScriptedPolicy first_seat, ScriptedPolicy second_seat) {
  std::array<int, 2> counts = {0, 0};
  return [=](const quixo::Game& game, int) mutable {
    const std::size_t which = static_cast<std::size_t>(seat_to_move(game) / 2);
    return (which == 0 ? first_seat : second_seat)(game, counts[which]++);
  };
}

// The four seats of a game, filled per seat or per team from a policy per seat. Team A's engine
// is "alpha" and team B's "beta"; `names` gives each seat its own name instead.
struct Table {
  std::vector<std::unique_ptr<EngineClient>> clients;
  std::vector<std::shared_ptr<ScriptedLog>> logs;  // one per client, in the order of `clients`
  SeatClients seats{};

  Table(Seating seating, const std::array<ScriptedPolicy, 4>& policies,
        const std::array<std::string, 4>& names = {"alpha", "beta", "alpha", "beta"}) {
    const auto add = [&](const std::string& name, ScriptedPolicy policy) {
      logs.push_back(std::make_shared<ScriptedLog>());
      clients.push_back(std::make_unique<EngineClient>(
          quixo::test::scripted_config(name), quixo::test::scripted_launcher(policy, logs.back())));
      return clients.back().get();
    };
    if (seating == Seating::PerSeat) {
      for (std::size_t seat = 0; seat < 4; ++seat) seats[seat] = add(names[seat], policies[seat]);
    } else {
      seats[0] = seats[2] = add(names[0], team_process(policies[0], policies[2]));
      seats[1] = seats[3] = add(names[1], team_process(policies[1], policies[3]));
    }
  }

  GameOutcome play(const GameSetup& setup, const std::atomic<bool>* abort = nullptr) {
    return play_game4(setup, seats, abort);
  }
  // The log of the process that plays `seat` (0..3).
  ScriptedLog& log_of(std::size_t seat) {
    for (std::size_t i = 0; i < clients.size(); ++i)
      if (clients[i].get() == seats[seat]) return *logs[i];
    throw std::logic_error("no such seat");
  }
};

std::array<ScriptedPolicy, 4> all(const ScriptedPolicy& policy) {
  return {policy, policy, policy, policy};
}

// The same policies with seat `seat` (0..3) replaced.
std::array<ScriptedPolicy, 4> with_seat(std::array<ScriptedPolicy, 4> policies, std::size_t seat,
                                        ScriptedPolicy policy) {
  policies[seat] = std::move(policy);
  return policies;
}

// The recorded moves replay legally from the start position and opening; returns the final
// position.
Position4 check_replay(const GameRecord& record) {
  Position4 position = parse_position4(record.start_position);
  for (const std::string& move : record.opening_moves)
    position = position.after(parse_move(position, move));
  for (const MoveRecord& move : record.moves) {
    BOOST_TEST_CONTEXT("move " << move.move) {
      BOOST_REQUIRE_NO_THROW(position = position.after(parse_move(position, move.move)));
    }
  }
  return position;
}

GameResult loss_for_team_of(Seat seat) {
  return team_of(seat) == Color::X ? GameResult::OWins : GameResult::XWins;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The value after `key` in a `go` line, e.g. 5000 for "s1time" in "go s1time 5000 ...".
std::optional<std::int64_t> go_value(const std::string& line, const std::string& key) {
  std::istringstream words(line);
  std::string word;
  while (words >> word)
    if (word == key && words >> word) return std::stoll(word);
  return std::nullopt;
}

}  // namespace

// ------------------------------------------------------------------------------ the seatings

BOOST_AUTO_TEST_CASE(seatings_are_recognised_and_others_refused) {
  Table per_seat(Seating::PerSeat, all(first_legal()));
  Table per_team(Seating::PerTeam, all(first_legal()));
  BOOST_TEST(seating_of(per_seat.seats) == Seating::PerSeat);
  BOOST_TEST(seating_of(per_team.seats) == Seating::PerTeam);
  SeatClients crossed = per_seat.seats;
  crossed[1] = crossed[0];  // seat 2 in team A's process
  BOOST_CHECK_THROW(seating_of(crossed), std::invalid_argument);
  SeatClients missing = per_seat.seats;
  missing[3] = nullptr;
  BOOST_CHECK_THROW(seating_of(missing), std::invalid_argument);
  SeatClients one_process = {per_seat.seats[0], per_seat.seats[0], per_seat.seats[0],
                             per_seat.seats[0]};
  BOOST_CHECK_THROW(seating_of(one_process), std::invalid_argument);
}

BOOST_DATA_TEST_CASE(a_seating_starts_its_processes_and_each_gets_one_new_game, kSeatings,
                     seating) {
  Table table(seating, all(first_legal()));
  GameSetup setup = setup_from(std::string(kStartPosition4));
  setup.rules.max_plies = 8;
  const GameOutcome outcome = table.play(setup);
  BOOST_TEST(outcome.record.termination == Termination::PlyCap);
  BOOST_TEST(outcome.record.moves.size() == 8u);
  const std::size_t processes = seating == Seating::PerSeat ? 4 : 2;
  BOOST_TEST(table.clients.size() == processes);
  for (std::size_t i = 0; i < processes; ++i) {
    BOOST_TEST(table.logs[i]->launches == 1);
    BOOST_TEST(table.logs[i]->lines_starting("uqinewgame").size() == 1u);
    // Per seat a process is asked for its seat's two moves; per team, for both seats' four.
    BOOST_TEST(table.logs[i]->lines_starting("go").size() ==
               (seating == Seating::PerSeat ? 2u : 4u));
  }
  for (const bool started : outcome.incidents.seat_started) BOOST_TEST(started);
  BOOST_TEST(outcome.incidents.x_restarted);
  BOOST_TEST(outcome.incidents.o_restarted);
  // A second game reuses the running processes.
  const GameOutcome second = table.play(setup);
  for (const bool started : second.incidents.seat_started) BOOST_TEST(!started);
  for (std::size_t i = 0; i < processes; ++i) {
    BOOST_TEST(table.logs[i]->launches == 1);
    BOOST_TEST(table.logs[i]->lines_starting("uqinewgame").size() == 2u);
  }
}

// --------------------------------------------------------------------------------- the clocks

BOOST_DATA_TEST_CASE(every_go_carries_the_four_seat_clocks, kSeatings, seating) {
  Table table(seating, all(first_legal()));
  GameSetup setup = setup_from(std::string(kStartPosition4), TimeControl::clock(5000, 100));
  setup.o_control = TimeControl::clock(4000, 50);
  setup.rules.max_plies = 8;
  const GameOutcome outcome = table.play(setup);
  BOOST_TEST_REQUIRE(outcome.record.termination == Termination::PlyCap);
  // The goes in the order they were sent, whichever process got them.
  std::vector<std::string> goes;
  for (std::size_t seat = 0; seat < 4; ++seat) {
    const std::vector<std::string> lines = table.log_of(seat).lines_starting("go");
    // A process's goes alternate between its seats per team; per seat it has only its own.
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (seating == Seating::PerSeat || i % 2 == seat / 2) goes.push_back(lines[i]);
  }
  BOOST_TEST_REQUIRE(goes.size() == 8u);
  // goes[0..1] are seat 1's, [2..3] seat 2's, and so on; seat s's k-th go is at ply 4k + s.
  const std::array<std::int64_t, 4> base = {5000, 4000, 5000, 4000};
  const std::array<std::int64_t, 4> increment = {100, 50, 100, 50};
  for (std::size_t seat = 0; seat < 4; ++seat) {
    for (std::size_t k = 0; k < 2; ++k) {
      const std::string& line = goes[2 * seat + k];
      BOOST_TEST_CONTEXT("seat " << seat + 1 << " go " << k << ": " << line) {
        const std::size_t ply = 4 * k + seat;
        for (std::size_t other = 0; other < 4; ++other) {
          const std::string name = "s" + std::to_string(other + 1);
          const std::optional<std::int64_t> time = go_value(line, name + "time");
          BOOST_TEST_REQUIRE(time.has_value());
          BOOST_TEST(go_value(line, name + "inc").value_or(-1) == increment[other]);
          // A seat that has moved got its increment and lost what its replies took (a scripted
          // reply takes a few milliseconds at most); a seat that has not is at its base time.
          const std::int64_t moves_made = static_cast<std::int64_t>(ply / 4 + (other < ply % 4));
          const std::int64_t full = base[other] + moves_made * increment[other];
          BOOST_TEST(*time <= full);
          BOOST_TEST(*time >= full - 50 * moves_made);
          if (moves_made == 0) BOOST_TEST(*time == base[other]);
        }
        BOOST_TEST(!go_value(line, "xtime").has_value());
      }
    }
  }
}

BOOST_DATA_TEST_CASE(moves_to_go_and_fixed_limits_are_the_movers, kSeatings, seating) {
  Table table(seating, all(first_legal()));
  GameSetup setup = setup_from(std::string(kStartPosition4), TimeControl::parse("10/60"));
  setup.o_control = TimeControl::fixed_depth(3);
  setup.rules.max_plies = 4;
  table.play(setup);
  const std::vector<std::string> a_goes = table.log_of(0).lines_starting("go");
  const std::vector<std::string> b_goes = table.log_of(1).lines_starting("go");
  BOOST_TEST_REQUIRE(!a_goes.empty());
  BOOST_TEST_REQUIRE(!b_goes.empty());
  BOOST_TEST(go_value(a_goes.front(), "movestogo").value_or(-1) == 10);
  BOOST_TEST(go_value(a_goes.front(), "s1time").value_or(-1) == 60000);
  BOOST_TEST(!go_value(a_goes.front(), "s2time").has_value());  // team B has no clock
  BOOST_TEST(!go_value(a_goes.front(), "depth").has_value());
  // Team B's seats search to depth 3 and still see team A's clocks.
  BOOST_TEST(go_value(b_goes.front(), "depth").value_or(-1) == 3);
  BOOST_TEST(go_value(b_goes.front(), "s1time").has_value());
  BOOST_TEST(!go_value(b_goes.front(), "movestogo").has_value());
}

// ---------------------------------------------------------------------------------- lines

BOOST_DATA_TEST_CASE(five_in_a_row_wins_for_the_movers_team, kSeatings* bdata::make({0, 1, 2, 3}),
                     seating, mover) {
  // Four cubes of the mover's team on rank 1, pointing to seat 1 or 2 whoever moves; the mover
  // takes the blank e5 and pushes it in at e1, completing the rank.
  const char cube = team_of(mover) == Color::X ? 'x' : 'o';
  const std::string position = "5/5/5/5/" + std::string(4, cube) + "1 " + std::to_string(mover + 1);
  const std::string move = std::string("e5e1") + cube_letter(mover);
  Table table(seating, all(cycle({move})));
  const GameOutcome outcome = table.play(setup_from(position));
  const GameRecord& record = outcome.record;
  BOOST_TEST(record.termination == Termination::Line);
  BOOST_TEST(record.result == (team_of(mover) == Color::X ? GameResult::XWins : GameResult::OWins));
  BOOST_TEST(record.moves.size() == 1u);
  BOOST_TEST(contains(record.reason, "seat " + std::to_string(mover + 1)), record.reason);
  BOOST_TEST(contains(record.reason, "five in a row"), record.reason);
  BOOST_TEST(contains(record.reason, team_of(mover) == Color::X ? "alpha" : "beta"), record.reason);
  check_replay(record);
}

BOOST_DATA_TEST_CASE(a_line_made_for_the_other_team_loses, kSeatings* bdata::make({false, true}),
                     seating, own_line_too) {
  // Seat 1 takes e5 and pushes in at e1: O's cube on e4 rises to e5 and completes O's top rank.
  // With four X cubes on rank 1 the move also makes X's line; the other team's line still wins.
  const std::string position = own_line_too ? "oooo1/4o/5/5/xxxx1 1" : "oooo1/4o/5/5/5 1";
  Table table(seating, all(cycle({"e5e1x"})));
  const GameOutcome outcome = table.play(setup_from(position));
  BOOST_TEST(outcome.record.termination == Termination::Line);
  BOOST_TEST(outcome.record.result == GameResult::OWins);
  BOOST_TEST(contains(outcome.record.reason, "seat 1 (A1, alpha)"), outcome.record.reason);
  BOOST_TEST(contains(outcome.record.reason, "other team's cubes"), outcome.record.reason);
}

// ----------------------------------------------------------------------------- repetition

// Every seat slides its own cube along its own rank and back: the start returns every 8 plies.
std::array<ScriptedPolicy, 4> shuttles() {
  return {cycle({"a1e1x", "e1a1x"}), cycle({"a5e5o", "e5a5o"}), cycle({"a3e3X", "e3a3X"}),
          cycle({"a2e2O", "e2a2O"})};
}
constexpr std::string_view kShuttleStart = "o4/5/X4/O4/x4 1";

// The same, but the cube on rank 1 passes between seat 1 and seat 3: after 8 plies every square
// holds the cube of the start, but a1's points to seat 3; only after 16 is the start back whole.
std::array<ScriptedPolicy, 4> shared_cube() {
  return {cycle({"a1e1x", "e1a1X", "a4e4x", "e4a4x"}), cycle({"a5e5o", "e5a5o"}),
          cycle({"a3e3X", "e3a3X", "a1e1X", "e1a1x"}), cycle({"a2e2O", "e2a2O"})};
}
constexpr std::string_view kSharedStart = "o4/x4/X4/O4/x4 1";

BOOST_DATA_TEST_CASE(repetition_counts_board_points_and_seat,
                     kSeatings* bdata::make({2, 3}) * bdata::make({false, true}), seating,
                     repetitions, points_differ) {
  Table table(seating, points_differ ? shared_cube() : shuttles());
  GameSetup setup = setup_from(std::string(points_differ ? kSharedStart : kShuttleStart));
  setup.rules.repetitions = repetitions;
  const GameOutcome outcome = table.play(setup);
  BOOST_TEST(outcome.record.result == GameResult::Draw);
  BOOST_TEST(outcome.record.termination == Termination::Repetition);
  const std::size_t period = points_differ ? 16 : 8;
  BOOST_TEST(outcome.record.moves.size() == period * static_cast<std::size_t>(repetitions - 1));
  if (points_differ) {
    // The position after 8 plies has the start's cubes on the start's squares, but not its points.
    Position4 position = parse_position4(kSharedStart);
    for (std::size_t ply = 0; ply < 8; ++ply)
      position = position.after(parse_move(position, outcome.record.moves[ply].move));
    BOOST_TEST(to_string(position) == "o4/x4/X4/O4/X4 1");
  }
  check_replay(outcome.record);
}

// ------------------------------------------------------------------------------- ply cap

BOOST_DATA_TEST_CASE(the_ply_cap_counts_book_plies, kSeatings* bdata::make({0, 1, 3}), seating,
                     book_plies) {
  GameSetup setup = setup_from(std::string(kStartPosition4));
  const std::vector<std::string> book = {"b1b5x", "d1d5o", "a2e2X"};
  setup.opening.moves.assign(book.begin(), book.begin() + book_plies);
  setup.rules.max_plies = 7;
  Table table(seating, all(first_legal()));
  const GameOutcome outcome = table.play(setup);
  BOOST_TEST(outcome.record.termination == Termination::PlyCap);
  BOOST_TEST(outcome.record.result == GameResult::Draw);
  BOOST_TEST(outcome.record.moves.size() == static_cast<std::size_t>(7 - book_plies));
  BOOST_TEST(outcome.record.opening_moves.size() == static_cast<std::size_t>(book_plies));
  check_replay(outcome.record);
}

BOOST_AUTO_TEST_CASE(an_opening_that_ends_the_game_is_recorded_as_its_line) {
  GameSetup setup = setup_from("5/5/5/5/xxxx1 1");
  setup.opening.moves = {"e5e1x"};
  Table table(Seating::PerSeat, all(first_legal()));
  const GameOutcome outcome = table.play(setup);
  BOOST_TEST(outcome.record.termination == Termination::Line);
  BOOST_TEST(outcome.record.result == GameResult::XWins);
  BOOST_TEST(outcome.record.moves.empty());
}

// ------------------------------------------------------------------------- illegal moves

struct BadMove {
  std::string move;  // "@" is replaced by the mover's own cube letter
  Seat seat;         // the seat that sends it (0..3)
  std::string why;   // part of the rules core's complaint
};
std::ostream& operator<<(std::ostream& out, const BadMove& bad) {
  return out << "'" << bad.move << "' by seat " << bad.seat + 1;
}

const std::vector<BadMove> kBadMoves = {
    {"c3c1@", 0, "c3"},      // the centre is not on the periphery
    {"zz9", 1, "bad move"},  // not a move at all
    {"", 2, "bad move"},     // `bestmove` without a move
    {"b5b1", 3, "needs the placed cube's letter"},
    {"b5b1x", 1, "must point to seat 2 or 4"},  // team B places an X
    {"b5b1O", 2, "must point to seat 3 or 1"},  // team A places an O
    {"0000", 0, "pass"},                        // a pass while cubes may be taken
    {"B5B1@", 3, ""},                           // squares are lower case
};

BOOST_DATA_TEST_CASE(illegal_and_malformed_moves_lose_for_the_movers_team,
                     kSeatings* bdata::make(kBadMoves), seating, bad) {
  std::string move = bad.move;
  if (const auto at = move.find('@'); at != std::string::npos) move[at] = cube_letter(bad.seat);
  const ScriptedPolicy cheat = answer({"bestmove " + move});
  Table table(seating, with_seat(all(first_legal()), static_cast<std::size_t>(bad.seat), cheat));
  const GameOutcome outcome = table.play(setup_from(std::string(kStartPosition4)));
  const GameRecord& record = outcome.record;
  BOOST_TEST(record.termination == Termination::IllegalMove);
  BOOST_TEST(record.result == loss_for_team_of(bad.seat));
  BOOST_TEST(record.moves.size() == static_cast<std::size_t>(bad.seat));
  const std::string label = "seat " + std::to_string(bad.seat + 1);
  BOOST_TEST(contains(record.reason, label), record.reason);
  BOOST_TEST(contains(record.reason, team_of(bad.seat) == Color::X ? "alpha" : "beta"),
             record.reason);
  BOOST_TEST(contains(record.reason, "\"" + move + "\""), record.reason);
  BOOST_TEST(contains(record.reason, bad.why), record.reason);
}

BOOST_DATA_TEST_CASE(taking_the_partners_cube_is_illegal, kSeatings* bdata::make({0, 1}), seating,
                     seat) {
  // a1 holds X pointing to seat 3, e5 holds O pointing to seat 4: each is the partner's cube for
  // seat 1 and seat 2.
  const std::string position = std::string("4O/5/5/5/X4 ") + std::to_string(seat + 1);
  const std::string move = seat == 0 ? "a1e1x" : "e5a5o";
  Table table(seating, with_seat(all(first_legal()), static_cast<std::size_t>(seat),
                                 answer({"bestmove " + move})));
  const GameOutcome outcome = table.play(setup_from(position));
  BOOST_TEST(outcome.record.termination == Termination::IllegalMove);
  BOOST_TEST(outcome.record.result == loss_for_team_of(seat));
  BOOST_TEST(contains(outcome.record.reason, "pointing to seat " + std::to_string(seat + 3)),
             outcome.record.reason);
}

// -------------------------------------------------------------------------------- passes

// Seat 2 (team B) to move with every periphery cube either team A's or pointing to seat 4, and
// no blank on the periphery: its only move is the pass. No line is on the board.
constexpr std::string_view kForcedPass = "xXOxX/O3x/x3O/X3x/xOXxO 2";

BOOST_DATA_TEST_CASE(a_forced_pass_is_played_and_recorded, kSeatings* bdata::make({false, true}),
                     seating, scored) {
  BOOST_TEST_REQUIRE(parse_position4(kForcedPass).legal_moves().size() == 1u);
  // Seat 2 passes with or without a search report; the others play on.
  const ScriptedPolicy pass = scored ? first_legal(15) : answer({"bestmove 0000"});
  Table table(seating, with_seat(all(first_legal(15)), 1, pass));
  GameSetup setup = setup_from(std::string(kForcedPass));
  setup.rules.max_plies = 3;
  const GameOutcome outcome = table.play(setup);
  BOOST_TEST(outcome.record.termination == Termination::PlyCap);
  BOOST_REQUIRE(outcome.record.moves.size() == 3u);
  BOOST_TEST(outcome.record.moves[0].move == "0000");
  BOOST_TEST(outcome.record.moves[0].score_cp.has_value() == scored);
  check_replay(outcome.record);
}

BOOST_DATA_TEST_CASE(a_move_instead_of_a_forced_pass_is_illegal, kSeatings, seating) {
  // c5 holds O pointing to seat 4: seat 2 may not take it, so it must pass.
  Table table(seating, with_seat(all(first_legal()), 1, answer({"bestmove c5a5o"})));
  const GameOutcome outcome = table.play(setup_from(std::string(kForcedPass)));
  BOOST_TEST(outcome.record.termination == Termination::IllegalMove);
  BOOST_TEST(outcome.record.result == GameResult::XWins);
  BOOST_TEST(contains(outcome.record.reason, "seat 2 (B1, beta)"), outcome.record.reason);
}

// ------------------------------------------------------------------ crashes, stalls, time

BOOST_DATA_TEST_CASE(a_crash_in_one_seat_loses_for_its_team_and_restarts_next_game,
                     kSeatings* bdata::make({0, 1, 2, 3}) * bdata::make({0, 2}), seating, seat,
                     moves_before) {
  const auto index = static_cast<std::size_t>(seat);
  Table table(seating, with_seat(all(first_legal()), index,
                                 after_moves(moves_before, first_legal(), crash())));
  const GameOutcome outcome = table.play(setup_from(std::string(kStartPosition4)));
  BOOST_TEST(outcome.record.termination == Termination::Crash);
  BOOST_TEST(outcome.record.result == loss_for_team_of(seat));
  BOOST_TEST(outcome.record.moves.size() == static_cast<std::size_t>(4 * moves_before + seat));
  BOOST_TEST(contains(outcome.record.reason, "seat " + std::to_string(seat + 1)),
             outcome.record.reason);
  // Only the crashed process is down: per seat the partner's process plays on.
  for (std::size_t other = 0; other < 4; ++other) {
    const bool same_process = table.seats[other] == table.seats[index];
    BOOST_TEST(table.seats[other]->alive() == !same_process, "seat " << other + 1);
  }
  // The next game starts it again, and only it.
  const GameOutcome next = table.play(setup_from(std::string(kStartPosition4)));
  for (std::size_t other = 0; other < 4; ++other)
    BOOST_TEST(next.incidents.seat_started[other] == (table.seats[other] == table.seats[index]),
               "seat " << other + 1);
  BOOST_TEST(next.incidents.x_restarted == (team_of(seat) == Color::X));
  BOOST_TEST(next.incidents.o_restarted == (team_of(seat) == Color::O));
  BOOST_TEST(table.log_of(index).launches == 2);
}

BOOST_DATA_TEST_CASE(silence_is_a_stall_without_a_clock_and_a_time_loss_with_one,
                     kSeatings* bdata::make({false, true}) * bdata::make({1, 2}), seating,
                     with_clock, seat) {
  const TimeControl control =
      with_clock ? TimeControl::clock(200, 10) : TimeControl::fixed_depth(3);
  const auto silent = [](const quixo::Game&, int) { return ScriptedReply{}; };
  Table table(seating, with_seat(all(first_legal()), static_cast<std::size_t>(seat), silent));
  const GameOutcome outcome = table.play(setup_from(std::string(kStartPosition4), control));
  BOOST_TEST(outcome.record.termination ==
             (with_clock ? Termination::TimeForfeit : Termination::Stall));
  BOOST_TEST(outcome.record.result == loss_for_team_of(seat));
  BOOST_TEST(outcome.record.moves.size() == static_cast<std::size_t>(seat));
  BOOST_TEST(contains(outcome.record.reason, "seat " + std::to_string(seat + 1)),
             outcome.record.reason);
}

BOOST_DATA_TEST_CASE(an_engine_that_cannot_start_loses_for_its_team, kSeatings, seating) {
  // Team B's engine cannot be launched at all.
  std::vector<std::unique_ptr<EngineClient>> clients;
  const ProcessLauncher broken = [](const ProcessSpec&) -> std::unique_ptr<EngineProcess> {
    throw ProcessStartError("no such file");
  };
  const auto add = [&](const std::string& name, ProcessLauncher launcher) {
    clients.push_back(
        std::make_unique<EngineClient>(quixo::test::scripted_config(name), std::move(launcher)));
    return clients.back().get();
  };
  SeatClients seats{};
  if (seating == Seating::PerSeat) {
    seats = {add("alpha", quixo::test::scripted_launcher(first_legal())),
             add("beta", quixo::test::scripted_launcher(first_legal())),
             add("alpha", quixo::test::scripted_launcher(first_legal())), add("beta", broken)};
  } else {
    seats[0] = seats[2] = add("alpha", quixo::test::scripted_launcher(first_legal()));
    seats[1] = seats[3] = add("beta", broken);
  }
  const GameOutcome outcome = play_game4(setup_from(std::string(kStartPosition4)), seats);
  BOOST_TEST(outcome.record.termination == Termination::Crash);
  BOOST_TEST(outcome.record.result == GameResult::XWins);
  BOOST_TEST(outcome.record.moves.empty());
  BOOST_TEST(
      contains(outcome.record.reason,
               seating == Seating::PerSeat ? "seat 4 (B2, beta)" : "team B (seats 2 and 4, beta)"),
      outcome.record.reason);
  BOOST_TEST(contains(outcome.record.reason, "no such file"), outcome.record.reason);
}

// ------------------------------------------------------------------------- adjudication

BOOST_DATA_TEST_CASE(resign_adjudication_uses_both_teams_scores,
                     kSeatings* bdata::make({true, false}), seating, two_sided) {
  GameSetup setup = setup_from(std::string(kStartPosition4));
  setup.rules.adjudication.resign_move_count = 3;
  setup.rules.adjudication.resign_score_cp = 1000;
  setup.rules.adjudication.resign_two_sided = two_sided;
  Table table(seating,
              {first_legal(-2000), first_legal(2000), first_legal(-2000), first_legal(2000)});
  const GameOutcome outcome = table.play(setup);
  BOOST_TEST(outcome.record.termination == Termination::ResignAdjudication);
  BOOST_TEST(outcome.record.result == GameResult::OWins);
  // Team A's third score comes at ply 5 (seats 1, 3, 1); two-sided, team B's third only at ply 6,
  // so team A resigns with its fourth move (ply 7, seat 3).
  BOOST_TEST(outcome.record.moves.size() == (two_sided ? 7u : 5u));
  BOOST_TEST(
      contains(outcome.record.reason, two_sided ? "seat 3 (A2, alpha)" : "seat 1 (A1, alpha)"),
      outcome.record.reason);
}

BOOST_DATA_TEST_CASE(a_partner_that_disagrees_prevents_resignation, kSeatings, seating) {
  GameSetup setup = setup_from(std::string(kStartPosition4));
  setup.rules.adjudication.resign_move_count = 2;
  setup.rules.adjudication.resign_score_cp = 500;
  setup.rules.adjudication.resign_two_sided = false;
  setup.rules.max_plies = 16;
  setup.rules.repetitions = 100;
  // Seat 1 thinks team A is lost, seat 3 does not: the team's last two scores never agree.
  Table table(seating, {first_legal(-900), first_legal(0), first_legal(0), first_legal(0)});
  const GameOutcome outcome = table.play(setup);
  BOOST_TEST(outcome.record.termination == Termination::PlyCap);
}

BOOST_DATA_TEST_CASE(draw_adjudication_needs_both_teams_near_zero,
                     kSeatings* bdata::make({1, 4}) * bdata::make({5, 50}), seating, move_number,
                     team_b_score) {
  GameSetup setup = setup_from(std::string(kStartPosition4));
  setup.rules.adjudication.draw_move_number = move_number;
  setup.rules.adjudication.draw_move_count = 2;
  setup.rules.adjudication.draw_score_cp = 10;
  setup.rules.max_plies = 12;
  setup.rules.repetitions = 100;
  Table table(seating, {first_legal(5), first_legal(-team_b_score), first_legal(-10),
                        first_legal(team_b_score)});
  const GameOutcome outcome = table.play(setup);
  if (team_b_score > 10) {
    BOOST_TEST(outcome.record.termination == Termination::PlyCap);
    return;
  }
  BOOST_TEST(outcome.record.termination == Termination::DrawAdjudication);
  BOOST_TEST(outcome.record.result == GameResult::Draw);
  // Both teams have two scores at ply 4 (full move 3 begins); with move number 4, at ply 6.
  BOOST_TEST(outcome.record.moves.size() == (move_number == 1 ? 4u : 6u));
  BOOST_TEST(contains(outcome.record.reason, "both teams"), outcome.record.reason);
}

// From the forced-pass board with seat 4 to move: a move of seat 4 and one of seat 1 after which
// seat 2 must pass again, so that team B's pass comes between two of its scored moves.
std::pair<std::string, std::string> moves_to_a_pass_of_seat_2() {
  const Position4 start = parse_position4("xXOxX/O3x/x3O/X3x/xOXxO 4");
  for (const Move4 fourth : start.legal_moves()) {
    const Position4 middle = start.after(fourth);
    if (middle.is_game_over()) continue;
    for (const Move4 first : middle.legal_moves()) {
      const Position4 end = middle.after(first);
      if (!end.is_game_over() && end.takeable() == 0) return {to_string(fourth), to_string(first)};
    }
  }
  BOOST_FAIL("no way to a forced pass of seat 2");
  return {};
}

BOOST_DATA_TEST_CASE(an_unscored_forced_pass_does_not_break_a_draw_adjudication, kSeatings,
                     seating) {
  const auto [fourth, first] = moves_to_a_pass_of_seat_2();
  GameSetup setup = setup_from("xXOxX/O3x/x3O/X3x/xOXxO 4");
  setup.rules.adjudication.draw_move_count = 2;
  setup.rules.adjudication.draw_score_cp = 10;
  setup.rules.max_plies = 30;
  setup.rules.repetitions = 100;
  // Every move is scored 0 but seat 2's pass, which comes without a search.
  const ScriptedPolicy zero = first_legal(0);
  Table table(seating, {after_moves(1, play_scored(first), zero),
                        after_moves(1, answer({"bestmove 0000"}), zero), zero,
                        after_moves(1, play_scored(fourth), zero)});
  const GameOutcome outcome = table.play(setup);
  BOOST_REQUIRE(outcome.record.moves.size() >= 3u);
  BOOST_TEST(outcome.record.moves[2].move == "0000");
  BOOST_TEST(outcome.record.termination == Termination::DrawAdjudication);
  // Team B scored at plies 1 (seat 4) and 5 (seat 4), team A at plies 2 and 4: the game is drawn
  // after 5 moves. Had the pass counted as a move without a score, team B's last two would not
  // both be scored until ply 7.
  BOOST_TEST(outcome.record.moves.size() == 5u);
}

// ------------------------------------------------------------------------------ the record

BOOST_DATA_TEST_CASE(the_record_names_seats_teams_and_controls, kSeatings, seating) {
  const std::array<std::string, 4> names = seating == Seating::PerSeat
                                               ? std::array<std::string, 4>{"a1", "b1", "a2", "b1"}
                                               : std::array<std::string, 4>{"a", "b", "a", "b"};
  Table table(seating, all(first_legal(3)), names);
  GameSetup setup = setup_from(std::string(kStartPosition4), TimeControl::clock(5000, 50));
  setup.o_control = TimeControl::fixed_nodes(500);
  setup.opening.moves = {"b1b5x"};
  setup.round = "7";
  setup.event = "unit";
  setup.rules.max_plies = 3;
  const GameOutcome outcome = table.play(setup);
  const GameRecord& record = outcome.record;
  BOOST_REQUIRE(record.four_player.has_value());
  BOOST_TEST(record.four_player->seating == seating);
  BOOST_TEST(record.four_player->names == names, boost::test_tools::per_element());
  BOOST_TEST(record.x_name == (seating == Seating::PerSeat ? "a1+a2" : "a"));
  BOOST_TEST(record.o_name == "b" + std::string(seating == Seating::PerSeat ? "1" : ""));
  BOOST_TEST(record.round == "7");
  BOOST_TEST(record.event == "unit");
  BOOST_TEST(record.start_position == std::string(kStartPosition4));
  BOOST_TEST(record.opening_moves == std::vector<std::string>{"b1b5x"});
  BOOST_TEST(record.time_control == "5+0.05");
  BOOST_TEST(record.o_time_control.value_or("") == "nodes=500");
  BOOST_REQUIRE(record.moves.size() == 2u);
  BOOST_TEST(record.moves[0].score_cp.value_or(0) == 3);
  BOOST_TEST(record.moves[0].depth.value_or(0) == 1);
}

BOOST_AUTO_TEST_CASE(an_abort_returns_between_moves_and_marks_the_game) {
  std::atomic<bool> abort{true};
  Table table(Seating::PerSeat, all(first_legal()));
  BOOST_TEST(table.play(setup_from(std::string(kStartPosition4)), &abort).aborted);
}

BOOST_AUTO_TEST_CASE(an_opening_of_the_other_variant_is_refused) {
  Table table(Seating::PerSeat, all(first_legal()));
  BOOST_CHECK_THROW(table.play(setup_from(std::string(kStartPosition))), NotationError);
}

// ---------------------------------------------------------------------------------- PGN

GameRecord four_player_record(Seating seating, std::string start = std::string(kStartPosition4)) {
  GameRecord game;
  game.event = "four";
  game.site = "here";
  game.date = "2026.11.26";
  game.round = "3";
  game.x_name = "new";
  game.o_name = "base \"quoted\"";
  game.four_player = FourPlayerSeats{seating, {"new", "base \"quoted\"", "new", "base \"quoted\""}};
  game.start_position = std::move(start);
  game.time_control = "10+0.1";
  return ended(std::move(game), GameResult::XWins, Termination::TimeForfeit,
               "seat 2 (B1, base) did not move within its 10 ms");
}

BOOST_DATA_TEST_CASE(a_four_player_pgn_reads_as_a_team_game, kSeatings, seating) {
  GameRecord game = four_player_record(seating);
  game.opening_moves = {"b1b5x", "d1d5o"};
  game.moves = {move_record("a2e2X", 12, {}, 5, 120), move_record("e1a1O", {}, -3, 7, 45)};
  const std::string text = format_pgn(game);
  BOOST_TEST(contains(text, "[White \"new\"]\n"), text);
  BOOST_TEST(contains(text, "[Black \"base \\\"quoted\\\"\"]\n"), text);
  BOOST_TEST(contains(text, "[Result \"1-0\"]\n"), text);
  BOOST_TEST(contains(text,
                      "[Variant \"quixo-4p\"]\n[SetUp \"1\"]\n[FEN \"5/5/5/5/5 1\"]\n"
                      "[Seating \"" +
                          std::string(seating_name(seating)) +
                          "\"]\n"
                          "[Seat1 \"new\"]\n[Seat2 \"base \\\"quoted\\\"\"]\n[Seat3 \"new\"]\n"
                          "[Seat4 \"base \\\"quoted\\\"\"]\n"),
             text);
  // Lines break between plies at 80 columns.
  BOOST_TEST(contains(text,
                      "\n1. b1b5x {book} 1... d1d5o {book} 2. a2e2X {+0.12/5 0.120s}\n"
                      "2... e1a1O {-M3/7 0.045s} 1-0\n"),
             text);
  const std::vector<GameRecord> back = parse_pgn(text);
  BOOST_REQUIRE(back.size() == 1u);
  BOOST_TEST((back.front() == game), text);
}

BOOST_AUTO_TEST_CASE(pgn_round_trips_played_four_player_games) {
  std::string text;
  std::vector<GameRecord> games;
  for (const Seating seating : {Seating::PerSeat, Seating::PerTeam}) {
    // A game with a forced pass and one that starts with team B to move, ended differently.
    Table passing(seating, with_seat(all(first_legal(-4)), 1, answer({"bestmove 0000"})));
    GameSetup setup = setup_from(std::string(kForcedPass), TimeControl::clock(3000, 20));
    setup.rules.max_plies = 6;
    games.push_back(passing.play(setup).record);
    Table crashing(seating,
                   with_seat(all(first_legal(8)), 2, after_moves(1, first_legal(), crash())));
    GameSetup from_seat_2 = setup_from("5/5/5/5/5 2");
    from_seat_2.opening.moves = {"a1a5o", "b1b5X"};
    games.push_back(crashing.play(from_seat_2).record);
  }
  for (GameRecord& game : games) {
    for (MoveRecord& move : game.moves) move.nodes.reset();  // PGN does not keep node counts
    text += format_pgn(game);
  }
  BOOST_TEST(games[0].moves[0].move == "0000");
  BOOST_TEST(games[1].termination == Termination::Crash);
  BOOST_TEST(contains(text, "1... a1a5o {book} 2. b1b5X {book} 2... "), text);
  const std::vector<GameRecord> back = parse_pgn(text);
  BOOST_REQUIRE(back.size() == games.size());
  for (std::size_t i = 0; i < games.size(); ++i) BOOST_TEST((back[i] == games[i]), "game " << i);
}

BOOST_AUTO_TEST_CASE(a_two_player_pgn_has_no_four_player_tags) {
  GameRecord game = four_player_record(Seating::PerSeat, std::string(kStartPosition));
  game.four_player.reset();
  game.moves = {move_record("b1b5", 1, {}, 2, 3)};
  const std::string text = format_pgn(game);
  BOOST_TEST(contains(text, "[Variant \"quixo\"]\n"), text);
  BOOST_TEST(!contains(text, "Seat"), text);
  const std::vector<GameRecord> back = parse_pgn(text);
  BOOST_REQUIRE(back.size() == 1u);
  BOOST_TEST(!back.front().four_player.has_value());
}

struct BadPgn {
  std::string name;
  std::string from;  // replaced in a good four-player game's text
  std::string to;
  std::string message;
};
std::ostream& operator<<(std::ostream& out, const BadPgn& bad) {
  return out << bad.name;
}

BOOST_DATA_TEST_CASE(bad_four_player_pgn_is_refused,
                     bdata::make(std::vector<BadPgn>{
                         {"no seat tag", "[Seat3 \"new\"]\n", "", "missing tag [Seat3"},
                         {"no seating", "[Seating \"per-seat\"]\n", "", "missing tag [Seating"},
                         {"bad seating", "[Seating \"per-seat\"]", "[Seating \"conferring\"]",
                          "bad Seating"},
                         {"two-player variant", "[Variant \"quixo-4p\"]", "[Variant \"quixo\"]",
                          "is a four-player position"},
                         {"four-player variant, two-player FEN", "[FEN \"5/5/5/5/5 1\"]",
                          "[FEN \"5/5/5/5/5 x\"]", "is a two-player position"},
                         {"partner's cube", "2. a2e2X", "2. b5b1X", "illegal move 2. b5b1X"},
                         {"wrong team's point", "2. a2e2X", "2. a2e2o", "illegal move 2. a2e2o"},
                         {"two-player move", "2. a2e2X", "2. a2e2", "illegal move 2. a2e2"},
                     }),
                     bad) {
  GameRecord game = four_player_record(Seating::PerSeat);
  game.opening_moves = {"b1b5x", "a2a5o"};
  game.moves = {move_record("a2e2X", 12, {}, 5, 120)};
  game.termination = Termination::PlyCap;
  game.result = GameResult::Draw;
  std::string text = format_pgn(game);
  const std::size_t at = text.find(bad.from);
  BOOST_TEST_REQUIRE(at != std::string::npos, text);
  text.replace(at, bad.from.size(), bad.to);
  try {
    parse_pgn(text);
    BOOST_ERROR("accepted:\n" << text);
  } catch (const PgnError& error) {
    BOOST_TEST(contains(error.what(), bad.message), error.what());
  }
}

// ------------------------------------------------------------------------------- openings

std::vector<Opening> parse_book(const std::string& text) {
  std::istringstream in(text);
  return parse_openings(in, "book");
}

BOOST_AUTO_TEST_CASE(books_hold_four_player_openings) {
  const std::vector<Opening> book = parse_book(
      "# four players\n"
      "startpos4\n"
      "5/5/5/5/5 1 moves b1b5x d1d5O\n"
      "fen 5/5/5/5/5 3 12 moves a1e1X\n"
      "startpos4 moves b1b5X\n"
      "startpos moves b1b5\n");
  BOOST_REQUIRE(book.size() == 5u);
  BOOST_TEST(format_opening(book[0]) == "5/5/5/5/5 1");
  BOOST_TEST(format_opening(book[1]) == "5/5/5/5/5 1 moves b1b5x d1d5O");
  BOOST_TEST(format_opening(book[2]) == "5/5/5/5/5 3 12 moves a1e1X");  // the move number stays
  BOOST_TEST(format_opening(book[3]) == "5/5/5/5/5 1 moves b1b5X");
  BOOST_TEST(format_opening(book[4]) == "5/5/5/5/5 x moves b1b5");  // a book may mix variants
  std::ostringstream written;
  write_openings(written, book);
  BOOST_TEST((parse_book(written.str()) == book));
}

struct BadLine4 {
  std::string line;
  std::string what;
};
std::ostream& operator<<(std::ostream& out, const BadLine4& bad) {
  return out << "'" << bad.line << "'";
}

BOOST_DATA_TEST_CASE(
    bad_four_player_book_lines_are_refused,
    bdata::make(std::vector<BadLine4>{
        {"5/5/5/5/5 5", "side to move"},
        {"5/5/5/5/5 1 moves b1b5", "book:1: move 1 'b1b5': four-player move"},
        {"startpos4 moves b1b5x b5b1o", "book:1: move 2 'b5b1o'"},  // b5 holds team A's cube
        {"X4/5/5/5/5 1 moves a5e5x", "book:1: move 1 'a5e5x'"},     // the partner's cube
        {"5/5/5/5/xxxx1 3 moves e5e1X", "the game is already over (X wins) after the moves"},
        {"5/5/5/5/5 x moves b1b5x", "book:1: move 1 'b1b5x'"},
    }),
    bad) {
  try {
    parse_book(bad.line);
    BOOST_ERROR("accepted " << bad.line);
  } catch (const OpeningError& error) {
    BOOST_TEST(contains(error.what(), bad.what), error.what());
  }
}

BOOST_AUTO_TEST_SUITE_END()
