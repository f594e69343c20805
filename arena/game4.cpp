#include "game4.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/notation.hpp"
#include "core/position4.hpp"
#include "game_support.hpp"

namespace quixo::arena {
namespace {

using detail::adjudicate_draw;
using detail::adjudicate_resign;
using detail::adjudication_score;
using detail::kStopGrace;
using detail::position_arguments;
using detail::ScoreHistory;
using detail::utc_date;

constexpr std::array<const char*, 4> kSeatNames = {"A1", "B1", "A2", "B2"};

int team_index(Seat seat) {
  return static_cast<int>(team_of(seat));  // 0 = team A (X), 1 = team B (O)
}

const char* team_letter(int team) {
  return team == 0 ? "A" : "B";
}

// "name" when both seats of a team are the same engine, else "first+second": the team's name as
// PGN's White or Black.
std::string team_name(const std::string& first, const std::string& second) {
  return first == second ? first : first + "+" + second;
}

// Repetition needs the board with every cube's point and the seat to move.
using RepetitionKey = std::array<std::uint32_t, 5>;
RepetitionKey repetition_key(const Position4& position) {
  return {position.cubes_pointing_to(0), position.cubes_pointing_to(1),
          position.cubes_pointing_to(2), position.cubes_pointing_to(3),
          static_cast<std::uint32_t>(position.seat_to_move())};
}

}  // namespace

Seating seating_of(const SeatClients& seats) {
  for (const EngineClient* client : seats)
    if (!client) throw std::invalid_argument("play_game4: every seat needs an engine");
  if (seats[0] == seats[2] && seats[1] == seats[3] && seats[0] != seats[1]) return Seating::PerTeam;
  for (std::size_t a = 0; a < 4; ++a)
    for (std::size_t b = a + 1; b < 4; ++b)
      if (seats[a] == seats[b])
        throw std::invalid_argument(
            "play_game4: seats share an engine process other than partners per team");
  return Seating::PerSeat;
}

GameOutcome play_game4(const GameSetup& setup, const SeatClients& seats,
                       const std::atomic<bool>* abort) {
  const Seating seating = seating_of(seats);
  const bool per_team = seating == Seating::PerTeam;
  Position4 position = parse_position4(setup.opening.position);

  GameOutcome outcome;
  GameRecord& record = outcome.record;
  record.event = setup.event;
  record.site = setup.site;
  record.round = setup.round;
  record.date = utc_date();
  FourPlayerSeats four;
  four.seating = seating;
  for (std::size_t seat = 0; seat < 4; ++seat) four.names[seat] = seats[seat]->config().name;
  record.x_name = team_name(four.names[0], four.names[2]);
  record.o_name = team_name(four.names[1], four.names[3]);
  record.four_player = four;
  record.start_position = setup.opening.position;
  record.opening_moves = setup.opening.moves;
  record.time_control = setup.x_control.to_string();
  if (!(setup.o_control == setup.x_control)) record.o_time_control = setup.o_control.to_string();

  // Seats 1 and 3 are team A (X), seats 2 and 4 team B (O).
  std::array<Clock, 4> clocks = {Clock(setup.x_control), Clock(setup.o_control),
                                 Clock(setup.x_control), Clock(setup.o_control)};
  const auto seat_label = [&](Seat seat) {
    return "seat " + std::to_string(seat + 1) + " (" + kSeatNames[static_cast<std::size_t>(seat)] +
           ", " + four.names[static_cast<std::size_t>(seat)] + ")";
  };
  // Who answers for a seat's process: the seat, or with one process per team the team.
  const auto process_label = [&](Seat seat) {
    if (!per_team) return seat_label(seat);
    const int team = team_index(seat);
    return std::string("team ") + team_letter(team) + " (seats " + std::to_string(team + 1) +
           " and " + std::to_string(team + 3) + ", " + four.names[static_cast<std::size_t>(seat)] +
           ")";
  };
  const auto finish = [&](GameResult result, Termination termination, std::string reason) {
    record.result = result;
    record.termination = termination;
    record.reason = std::move(reason);
    return outcome;
  };
  // The team of `seat` loses.
  const auto forfeit = [&](Seat seat, Termination termination, std::string reason) {
    return finish(team_of(seat) == Color::X ? GameResult::OWins : GameResult::XWins, termination,
                  std::move(reason));
  };

  // Every process is (re)started when it is not running and told of the new game; one that
  // fails loses the game for its team before a move is made, as in the two-player game.
  for (Seat seat = 0; seat < 4; ++seat) {
    EngineClient& client = *seats[static_cast<std::size_t>(seat)];
    if (per_team && seat >= 2) break;  // seats 3 and 4 share the processes of seats 1 and 2
    if (!client.alive()) {
      outcome.incidents.seat_started[static_cast<std::size_t>(seat)] = true;
      if (per_team) outcome.incidents.seat_started[static_cast<std::size_t>(seat + 2)] = true;
      (team_of(seat) == Color::X ? outcome.incidents.x_restarted : outcome.incidents.o_restarted) =
          true;
      if (!client.start(setup.rules.stall_timeout)) {
        const bool stalled = client.alive();
        client.quit();
        return forfeit(seat, stalled ? Termination::Stall : Termination::Crash,
                       process_label(seat) + " did not start: " + client.last_error());
      }
    }
    if (!client.new_game(setup.rules.stall_timeout)) {
      const bool stalled = client.alive();
      client.quit();
      return forfeit(seat, stalled ? Termination::Stall : Termination::Crash,
                     process_label(seat) + " did not answer the new game: " + client.last_error());
    }
  }

  std::vector<std::string> moves_so_far;
  std::map<RepetitionKey, int> occurrences;
  ++occurrences[repetition_key(position)];
  for (const std::string& text : setup.opening.moves) {
    const Move4 move = parse_move(position, text);
    position = position.after(move);
    moves_so_far.push_back(to_string(move));
    ++occurrences[repetition_key(position)];
  }
  if (position.outcome() != Outcome::Ongoing)
    return finish(position.outcome() == Outcome::XWins ? GameResult::XWins : GameResult::OWins,
                  Termination::Line, "the opening already ends the game");

  const Adjudication& adjudication = setup.rules.adjudication;
  // Each team's scores, from its own point of view, in the order its seats moved.
  ScoreHistory scores;
  while (true) {
    if (abort && abort->load()) {
      outcome.aborted = true;
      return finish(GameResult::Draw, Termination::PlyCap, "aborted");
    }
    const int ply = static_cast<int>(moves_so_far.size());
    if (setup.rules.max_plies > 0 && ply >= setup.rules.max_plies)
      return finish(GameResult::Draw, Termination::PlyCap,
                    "the ply cap of " + std::to_string(setup.rules.max_plies) + " was reached");

    const Seat mover = position.seat_to_move();
    const int team = team_index(mover);
    EngineClient& client = *seats[static_cast<std::size_t>(mover)];
    Clock& clock = clocks[static_cast<std::size_t>(mover)];
    const std::optional<std::int64_t> allowed_ms = clock.start_move();
    const std::chrono::milliseconds deadline =
        allowed_ms ? std::chrono::milliseconds(*allowed_ms) : setup.rules.stall_timeout;
    GoRequest4 request;
    for (std::size_t seat = 0; seat < 4; ++seat) request.seats[seat] = clocks[seat].go_limits();
    request.mover = mover;
    const MoveReply reply =
        client.go(position_arguments(setup.opening.position, moves_so_far), request, deadline);

    if (reply.status == MoveReply::Status::Disconnected) {
      client.quit();
      return forfeit(mover, Termination::Crash,
                     seat_label(mover) + " disconnected: " + client.last_error());
    }
    if (reply.status == MoveReply::Status::Timeout) {
      if (allowed_ms) {
        clock.stop_move(reply.elapsed_ms);
        if (!client.stop_search(kStopGrace)) client.quit();
        return forfeit(
            mover, Termination::TimeForfeit,
            seat_label(mover) + " did not move within its " + std::to_string(*allowed_ms) + " ms");
      }
      client.quit();
      return forfeit(mover, Termination::Stall,
                     seat_label(mover) + " did not move within the stall timeout of " +
                         std::to_string(setup.rules.stall_timeout.count()) + " ms");
    }
    if (!clock.stop_move(reply.elapsed_ms))
      return forfeit(mover, Termination::TimeForfeit,
                     seat_label(mover) + " took " + std::to_string(reply.elapsed_ms) + " ms with " +
                         std::to_string(*allowed_ms) + " ms allowed");

    Move4 move;
    try {
      move = parse_move(position, reply.move);
    } catch (const NotationError& error) {
      return forfeit(
          mover, Termination::IllegalMove,
          seat_label(mover) + " played an illegal move \"" + reply.move + "\": " + error.what());
    }

    MoveRecord played;
    played.move = to_string(move);
    played.time_ms = reply.elapsed_ms;
    if (reply.info) {
      played.score_cp = reply.info->score_cp;
      played.score_mate = reply.info->score_mate;
      played.depth = reply.info->depth;
      played.nodes = reply.info->nodes;
    }
    const std::optional<int> score = adjudication_score(played);
    if (!move.is_pass() || score) scores[static_cast<std::size_t>(team)].push_back(score);
    record.moves.push_back(played);
    moves_so_far.push_back(played.move);
    position = position.after(move);

    if (const Outcome result = position.outcome(); result != Outcome::Ongoing) {
      const bool mover_wins = (result == Outcome::XWins) == (team == 0);
      return finish(result == Outcome::XWins ? GameResult::XWins : GameResult::OWins,
                    Termination::Line,
                    seat_label(mover) + (mover_wins ? " makes five in a row"
                                                    : " makes a line of the other team's cubes"));
    }
    if (++occurrences[repetition_key(position)] >= setup.rules.repetitions)
      return finish(GameResult::Draw, Termination::Repetition,
                    "the position (board, points and seat to move) occurred " +
                        std::to_string(setup.rules.repetitions) + " times");

    if (adjudicate_resign(scores, team, adjudication))
      return forfeit(mover, Termination::ResignAdjudication,
                     seat_label(mover) + ": team " + team_letter(team) + " scored -" +
                         std::to_string(adjudication.resign_score_cp) +
                         " cp or worse on its last " +
                         std::to_string(adjudication.resign_move_count) + " moves");
    if (adjudicate_draw(scores, moves_so_far.size(), adjudication))
      return finish(GameResult::Draw, Termination::DrawAdjudication,
                    "both teams scored within " + std::to_string(adjudication.draw_score_cp) +
                        " cp on their last " + std::to_string(adjudication.draw_move_count) +
                        " moves");
  }
}

}  // namespace quixo::arena
