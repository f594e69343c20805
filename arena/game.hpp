// One two-player game between two engine clients: the arena keeps both clocks from the wall-clock
// time of each reply, checks every move with the rules core, and ends the game on a line,
// threefold repetition, the ply cap, a time forfeit, an illegal or malformed move, a crash, a
// stall, or a resign/draw adjudication from both engines' scores. Every ending is recorded with
// its reason; nothing an engine does can make play_game throw or hang.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <string>

#include "engine_client.hpp"
#include "game_record.hpp"
#include "openings.hpp"
#include "time_control.hpp"

namespace quixo::arena {

// Adjudication from the scores the engines report with their moves (their own point of view).
// A count of 0 turns a rule off.
struct Adjudication {
  // Resign: the mover's score was at most -resign_score_cp on each of its last resign_move_count
  // moves and, when two-sided, the opponent's was at least +resign_score_cp on each of its last
  // resign_move_count moves. The mover loses.
  int resign_move_count = 0;
  int resign_score_cp = 1000;
  bool resign_two_sided = true;
  // Draw: from full move draw_move_number on, both engines' scores were within
  // +-draw_score_cp on each of their last draw_move_count moves.
  int draw_move_number = 0;
  int draw_move_count = 0;
  int draw_score_cp = 0;
};

struct GameRules {
  int max_plies = 300;  // draw when the game reaches this many plies (book plies included)
  int repetitions = 3;  // draw when a position (board and side to move) occurs this often
  // The wall-clock allowance for replies that no clock limits (fixed nodes or depth, infinite)
  // and for `isready` and the handshake: past it, the engine has stalled.
  std::chrono::milliseconds stall_timeout{10'000};
  Adjudication adjudication;
};

// In the four-player game (game4.hpp) X is team A and O team B: every seat of a team plays under
// its team's control, on a clock of its own.
struct GameSetup {
  Opening opening;
  TimeControl x_control;
  TimeControl o_control;
  GameRules rules;
  std::string event = "quixo-arena";
  std::string site;
  std::string round;
};

// What happened to the engines outside of the record, for the tournament's counters.
struct GameIncidents {
  bool x_restarted = false;  // the engine was (re)started before the game (four players: one of
  bool o_restarted = false;  // its team's processes was)
  // Four players: the process of each seat was (re)started; with one process per team, both of
  // the team's seats say so.
  std::array<bool, 4> seat_started = {false, false, false, false};
};

// Plays one game. An engine that is not running is started first (a crashed engine is restarted
// for its next game); one that cannot start or answer loses the game (crash or stall). An engine
// that crashed, stalled or overran is left in a state in which alive() is false or it has been
// stopped, so the next game restarts it when needed. When `abort` becomes true play_game returns
// between moves with `aborted` set; such a game must not be counted.
struct GameOutcome {
  GameRecord record;
  GameIncidents incidents;
  bool aborted = false;
};
GameOutcome play_game(const GameSetup& setup, EngineClient& x, EngineClient& o,
                      const std::atomic<bool>* abort = nullptr);

}  // namespace quixo::arena
