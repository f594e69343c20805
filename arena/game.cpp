#include "game.hpp"

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
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

// The moves each engine made, most recent last, as scores; index 0 is X.

struct Player {
  EngineClient& client;
  Clock clock;
  const char* colour;  // "X" or "O"
  std::string label() const { return std::string(colour) + " (" + client.config().name + ")"; }
};

}  // namespace

GameOutcome play_game(const GameSetup& setup, EngineClient& x, EngineClient& o,
                      const std::atomic<bool>* abort) {
  GameOutcome outcome;
  GameRecord& record = outcome.record;
  record.event = setup.event;
  record.site = setup.site;
  record.round = setup.round;
  record.date = utc_date();
  record.x_name = x.config().name;
  record.o_name = o.config().name;
  record.start_position = setup.opening.position;
  record.opening_moves = setup.opening.moves;
  record.time_control = setup.x_control.to_string();
  if (!(setup.o_control == setup.x_control)) record.o_time_control = setup.o_control.to_string();

  std::array<Player, 2> players = {Player{x, Clock(setup.x_control), "X"},
                                   Player{o, Clock(setup.o_control), "O"}};
  const auto finish = [&](GameResult result, Termination termination, std::string reason) {
    record.result = result;
    record.termination = termination;
    record.reason = std::move(reason);
    return outcome;
  };
  // The player at `index` (0 = X) loses.
  const auto forfeit = [&](int index, Termination termination, std::string reason) {
    return finish(index == 0 ? GameResult::OWins : GameResult::XWins, termination,
                  std::move(reason));
  };

  // Engines that are not running are (re)started; one that cannot start, or does not answer the
  // new game, loses before a move is made. One that does not answer in time is killed so that
  // the next game starts it afresh.
  for (int index = 0; index < 2; ++index) {
    EngineClient& client = players[index].client;
    if (!client.alive()) {
      (index == 0 ? outcome.incidents.x_restarted : outcome.incidents.o_restarted) = true;
      if (!client.start(setup.rules.stall_timeout)) {
        const bool stalled = client.alive();
        client.quit();
        return forfeit(index, stalled ? Termination::Stall : Termination::Crash,
                       players[index].label() + " did not start: " + client.last_error());
      }
    }
    if (!client.new_game(setup.rules.stall_timeout)) {
      const bool stalled = client.alive();
      client.quit();
      return forfeit(
          index, stalled ? Termination::Stall : Termination::Crash,
          players[index].label() + " did not answer the new game: " + client.last_error());
    }
  }

  Position position = parse_position(setup.opening.position);
  std::vector<std::string> moves_so_far;
  std::unordered_map<std::uint64_t, int> occurrences;
  ++occurrences[position.key()];
  for (const std::string& text : setup.opening.moves) {
    const Move move = parse_move(position, text);
    position = position.after(move);
    moves_so_far.push_back(to_string(move));
    ++occurrences[position.key()];
  }
  if (position.outcome() != Outcome::Ongoing)
    return finish(position.outcome() == Outcome::XWins ? GameResult::XWins : GameResult::OWins,
                  Termination::Line, "the opening already ends the game");

  const Adjudication& adjudication = setup.rules.adjudication;
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

    const int mover = position.side_to_move() == Color::X ? 0 : 1;
    Player& player = players[mover];
    const Player& opponent = players[1 - mover];
    const std::optional<std::int64_t> allowed_ms = player.clock.start_move();
    const std::chrono::milliseconds deadline =
        allowed_ms ? std::chrono::milliseconds(*allowed_ms) : setup.rules.stall_timeout;
    const GoRequest request{player.clock.go_limits(), opponent.clock.go_limits(), mover == 0};
    const MoveReply reply = player.client.go(
        position_arguments(setup.opening.position, moves_so_far), request, deadline);

    if (reply.status == MoveReply::Status::Disconnected) {
      player.client.quit();
      return forfeit(mover, Termination::Crash,
                     player.label() + " disconnected: " + player.client.last_error());
    }
    if (reply.status == MoveReply::Status::Timeout) {
      if (allowed_ms) {
        player.clock.stop_move(reply.elapsed_ms);
        if (!player.client.stop_search(kStopGrace)) player.client.quit();
        return forfeit(
            mover, Termination::TimeForfeit,
            player.label() + " did not move within its " + std::to_string(*allowed_ms) + " ms");
      }
      player.client.quit();
      return forfeit(mover, Termination::Stall,
                     player.label() + " did not move within the stall timeout of " +
                         std::to_string(setup.rules.stall_timeout.count()) + " ms");
    }
    if (!player.clock.stop_move(reply.elapsed_ms))
      return forfeit(mover, Termination::TimeForfeit,
                     player.label() + " took " + std::to_string(reply.elapsed_ms) + " ms with " +
                         std::to_string(*allowed_ms) + " ms allowed");

    Move move;
    try {
      move = parse_move(position, reply.move);
    } catch (const NotationError& error) {
      return forfeit(
          mover, Termination::IllegalMove,
          player.label() + " played an illegal move \"" + reply.move + "\": " + error.what());
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
    scores[mover].push_back(adjudication_score(played));
    record.moves.push_back(played);
    moves_so_far.push_back(played.move);
    position = position.after(move);

    if (const Outcome result = position.outcome(); result != Outcome::Ongoing) {
      const int winner = result == Outcome::XWins ? 0 : 1;
      return finish(winner == 0 ? GameResult::XWins : GameResult::OWins, Termination::Line,
                    winner == mover ? players[winner].label() + " makes five in a row"
                                    : player.label() + " makes a line of the opponent's cubes");
    }
    if (++occurrences[position.key()] >= setup.rules.repetitions)
      return finish(GameResult::Draw, Termination::Repetition,
                    "the position occurred " + std::to_string(setup.rules.repetitions) + " times");

    if (adjudicate_resign(scores, mover, adjudication))
      return forfeit(mover, Termination::ResignAdjudication,
                     player.label() + " scored -" + std::to_string(adjudication.resign_score_cp) +
                         " cp or worse on its last " +
                         std::to_string(adjudication.resign_move_count) + " moves");
    if (adjudicate_draw(scores, moves_so_far.size(), adjudication))
      return finish(GameResult::Draw, Termination::DrawAdjudication,
                    "both engines scored within " + std::to_string(adjudication.draw_score_cp) +
                        " cp on their last " + std::to_string(adjudication.draw_move_count) +
                        " moves");
  }
}

}  // namespace quixo::arena
