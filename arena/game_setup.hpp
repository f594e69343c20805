// What a game of either variant is played from (the opening, the clocks, the rules, the PGN
// header) and what playing it gives back (the record and what happened to the engines). Plain
// types, shared by play_game (game.hpp), play_game4 (game4.hpp) and the loop behind both.
#pragma once

#include <array>
#include <string>

#include "game_record.hpp"
#include "game_rules.hpp"
#include "openings.hpp"
#include "time_control.hpp"

namespace quixo::tb {
class Tablebase;
}

namespace quixo::arena {

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
  // The endgame tables (--tb), not owned and shared by games on several threads (probing is
  // thread-safe): a two-player game ends as soon as its position is in them, with their result.
  // The four-player game has no tables and ignores them. Null: no tables.
  const tb::Tablebase* tablebase = nullptr;
};

// What happened to the engines outside of the record, for the tournament's counters.
struct GameIncidents {
  bool x_restarted = false;  // the engine was (re)started before the game (four players: one of
  bool o_restarted = false;  // its team's processes was)
  // Four players: the process of each seat was (re)started; with one process per team, both of
  // the team's seats say so.
  std::array<bool, 4> seat_started = {false, false, false, false};
};

// A played game. When the game's abort flag was set it ended between moves with `aborted` set;
// such a game must not be counted.
struct GameOutcome {
  GameRecord record;
  GameIncidents incidents;
  bool aborted = false;
};

}  // namespace quixo::arena
