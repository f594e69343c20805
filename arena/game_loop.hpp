// The one game loop of both variants. A variant policy says who moves, how the `go` request is
// made, what counts as a repeated position and how engines are named in the reasons; the loop
// owns everything the variants share: the record's header, starting the engines, the opening,
// the abort and the ply cap, disconnects, time forfeits and stalls, illegal moves, the move
// records, lines, repetition, the endgame tables and adjudication. Internal to the arena library:
// play_game (game.hpp) and play_game4 (game4.hpp) are its two instances.
#pragma once

#include <atomic>
#include <cassert>
#include <chrono>
#include <concepts>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/notation.hpp"
#include "engine_client.hpp"
#include "game_record.hpp"
#include "game_setup.hpp"
#include "game_support.hpp"
#include "time_control.hpp"

namespace quixo::arena::detail {

// A variant policy. A "mover" is the policy's index of whoever answers a `go` (the side in the
// two-player game, the seat in the four-player game); a "side" is 0 for X (team A) and 1 for O
// (team B), the unit of results and of adjudication; "process" p is the engine process of mover
// p, and processes() of them are distinct.
template <typename Variant>
concept GameVariant = requires(Variant& variant, const Variant& constant,
                               const typename Variant::Position& position,
                               const typename Variant::Move& move, int mover,
                               const std::string& arguments, std::chrono::milliseconds deadline,
                               GameRecord& record, GameIncidents& incidents,
                               const std::optional<int>& score) {
  { Variant::parse_position(std::string_view()) } -> std::same_as<typename Variant::Position>;
  // Positions that are the same for the threefold rule have equal keys.
  { Variant::repetition_key(position) } -> std::totally_ordered;
  // Whether the move's score belongs to its side's adjudication history.
  { Variant::counts_for_adjudication(move, score) } -> std::same_as<bool>;
  // "the position ..." that occurred too often, and "both ..." sides of a draw adjudication.
  { Variant::kRepeatedPosition } -> std::convertible_to<std::string_view>;
  { Variant::kBothSides } -> std::convertible_to<std::string_view>;
  // Sets White, Black and anything else the variant records about its players.
  { constant.name_sides(record) } -> std::same_as<void>;
  { constant.processes() } -> std::same_as<int>;
  { constant.mover(position) } -> std::same_as<int>;
  { constant.side_of(mover) } -> std::same_as<int>;
  { variant.client(mover) } -> std::same_as<EngineClient&>;
  { variant.clock(mover) } -> std::same_as<Clock&>;
  { variant.go(mover, arguments, deadline) } -> std::same_as<MoveReply>;
  // Notes in the incidents that process `mover` was (re)started.
  { constant.mark_started(mover, incidents) } -> std::same_as<void>;
  { constant.mover_label(mover) } -> std::same_as<std::string>;
  { constant.process_label(mover) } -> std::same_as<std::string>;
  // Who is lost when the mover's side is adjudicated lost, e.g. "X (name)".
  { constant.resign_subject(mover) } -> std::same_as<std::string>;
  // Why a line ended the game after the mover's move, e.g. "X (name) makes five in a row".
  { constant.line_reason(mover, true) } -> std::same_as<std::string>;
  // The result the endgame tables give an unfinished position, when they hold it (nullopt
  // otherwise, and always in a variant without tables).
  { constant.table_ending(position) } -> std::same_as<std::optional<TableEnding>>;
};

// Plays one game of `Variant` as play_game (game.hpp) documents it.
template <GameVariant Variant>
[[nodiscard]] GameOutcome play_variant_game(const GameSetup& setup, Variant& variant,
                                            const std::atomic<bool>* abort) {
  using Position = typename Variant::Position;
  using Move = typename Variant::Move;
  // Parsed before anything starts: an opening that is not a position of the variant is the
  // caller's error (NotationError), not the engines'.
  Position position = Variant::parse_position(setup.opening.position);

  GameOutcome outcome;
  GameRecord& record = outcome.record;
  record.event = setup.event;
  record.site = setup.site;
  record.round = setup.round;
  record.date = utc_date();
  record.start_time = utc_time(std::chrono::system_clock::now());
  const auto started = std::chrono::steady_clock::now();
  variant.name_sides(record);
  record.start_position = setup.opening.position;
  record.opening_moves = setup.opening.moves;
  record.time_control = setup.x_control.to_string();
  if (!(setup.o_control == setup.x_control)) record.o_time_control = setup.o_control.to_string();

  const auto finish = [&](GameResult result, Termination termination, std::string reason) {
    record.end_time = utc_time(std::chrono::system_clock::now());
    record.duration = duration_text(std::chrono::steady_clock::now() - started);
    record.result = result;
    record.termination = termination;
    record.reason = std::move(reason);
    return outcome;
  };
  // The side of `mover` loses.
  const auto forfeit = [&](int mover, Termination termination, std::string reason) {
    return finish(variant.side_of(mover) == 0 ? GameResult::OWins : GameResult::XWins, termination,
                  std::move(reason));
  };

  // Engines that are not running are (re)started; one that cannot start, or does not answer the
  // new game, loses before a move is made. One that does not answer in time is killed so that
  // the next game starts it afresh.
  for (int process = 0; process < variant.processes(); ++process) {
    EngineClient& client = variant.client(process);
    if (!client.alive()) {
      variant.mark_started(process, outcome.incidents);
      if (!client.start(setup.rules.stall_timeout)) {
        const bool stalled = client.alive();
        client.quit();
        return forfeit(process, stalled ? Termination::Stall : Termination::Crash,
                       variant.process_label(process) + " did not start: " + client.last_error());
      }
    }
    if (!client.new_game(setup.rules.stall_timeout)) {
      const bool stalled = client.alive();
      client.quit();
      return forfeit(
          process, stalled ? Termination::Stall : Termination::Crash,
          variant.process_label(process) + " did not answer the new game: " + client.last_error());
    }
  }

  std::vector<std::string> moves_so_far;
  std::map<decltype(Variant::repetition_key(position)), int> occurrences;
  ++occurrences[Variant::repetition_key(position)];
  for (const std::string& text : setup.opening.moves) {
    const Move move = parse_move(position, text);
    position = position.after(move);
    moves_so_far.push_back(to_string(move));
    ++occurrences[Variant::repetition_key(position)];
  }
  if (position.outcome() != Outcome::Ongoing)
    return finish(position.outcome() == Outcome::XWins ? GameResult::XWins : GameResult::OWins,
                  Termination::Line, "the opening already ends the game");
  // A start (or book) position in the tables is decided before any engine moves, as after a move.
  if (std::optional<TableEnding> ending = variant.table_ending(position))
    return finish(ending->result, Termination::Tablebase, std::move(ending->reason));

  const Adjudication& adjudication = setup.rules.adjudication;
  // Each side's scores, from its own point of view, in the order its moves were made.
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

    const int mover = variant.mover(position);
    const int side = variant.side_of(mover);
    assert(side == 0 || side == 1);
    EngineClient& client = variant.client(mover);
    Clock& clock = variant.clock(mover);
    const std::string label = variant.mover_label(mover);
    const std::optional<std::int64_t> allowed_ms = clock.start_move();
    const std::chrono::milliseconds deadline =
        allowed_ms ? std::chrono::milliseconds(*allowed_ms) : setup.rules.stall_timeout;
    const MoveReply reply =
        variant.go(mover, position_arguments(setup.opening.position, moves_so_far), deadline);

    if (reply.status == MoveReply::Status::Disconnected) {
      client.quit();
      return forfeit(mover, Termination::Crash, label + " disconnected: " + client.last_error());
    }
    if (reply.status == MoveReply::Status::Timeout) {
      if (allowed_ms) {
        clock.stop_move(reply.elapsed_ms);
        if (!client.stop_search(kStopGrace)) client.quit();
        return forfeit(mover, Termination::TimeForfeit,
                       label + " did not move within its " + std::to_string(*allowed_ms) + " ms");
      }
      client.quit();
      return forfeit(mover, Termination::Stall,
                     label + " did not move within the stall timeout of " +
                         std::to_string(setup.rules.stall_timeout.count()) + " ms");
    }
    if (!clock.stop_move(reply.elapsed_ms))
      return forfeit(mover, Termination::TimeForfeit,
                     label + " took " + std::to_string(reply.elapsed_ms) + " ms with " +
                         std::to_string(*allowed_ms) + " ms allowed");

    Move move;
    try {
      move = parse_move(position, reply.move);
    } catch (const NotationError& error) {
      return forfeit(mover, Termination::IllegalMove,
                     label + " played an illegal move \"" + reply.move + "\": " + error.what());
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
    if (Variant::counts_for_adjudication(move, score))
      scores[static_cast<std::size_t>(side)].push_back(score);
    record.moves.push_back(played);
    moves_so_far.push_back(played.move);
    position = position.after(move);

    if (const Outcome result = position.outcome(); result != Outcome::Ongoing) {
      const bool mover_wins = (result == Outcome::XWins) == (side == 0);
      return finish(result == Outcome::XWins ? GameResult::XWins : GameResult::OWins,
                    Termination::Line, variant.line_reason(mover, mover_wins));
    }
    if (++occurrences[Variant::repetition_key(position)] >= setup.rules.repetitions)
      return finish(GameResult::Draw, Termination::Repetition,
                    std::string(Variant::kRepeatedPosition) + " occurred " +
                        std::to_string(setup.rules.repetitions) + " times");
    // As cutechess-cli's -tb: the tables decide once the position is in them, after the rules
    // (a line, a repetition) and before the engines' scores.
    if (std::optional<TableEnding> ending = variant.table_ending(position))
      return finish(ending->result, Termination::Tablebase, std::move(ending->reason));

    if (adjudicate_resign(scores, side, adjudication))
      return forfeit(mover, Termination::ResignAdjudication,
                     variant.resign_subject(mover) + " scored -" +
                         std::to_string(adjudication.resign_score_cp) +
                         " cp or worse on its last " +
                         std::to_string(adjudication.resign_move_count) + " moves");
    if (adjudicate_draw(scores, moves_so_far.size(), adjudication))
      return finish(GameResult::Draw, Termination::DrawAdjudication,
                    std::string(Variant::kBothSides) + " scored within " +
                        std::to_string(adjudication.draw_score_cp) + " cp on their last " +
                        std::to_string(adjudication.draw_move_count) + " moves");
  }
}

}  // namespace quixo::arena::detail
