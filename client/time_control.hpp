// Time controls and game clocks for the arena, in the notation of cutechess-cli and fastchess.
//
// A TimeControl is a value: how much thinking an engine is given per game or per move. A Clock
// is one engine's clock in one game: it starts from a TimeControl, is charged the wall-clock time
// of each reply (measured by the caller), says whether the reply came too late, and gives the
// numbers to put in `go`. Everything is in integer milliseconds; nothing here reads a clock or
// does any I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "uqi_client_messages.hpp"

namespace quixo::arena {

class TimeControl {
 public:
  enum class Kind {
    Infinite,    // no limit at all (`inf`): `go infinite`, the arena ends the search itself
    Clock,       // a game clock: [moves/]time[+increment], sudden death when moves is 0
    FixedTime,   // a fixed time per move (`st=1.5`): `go movetime`
    FixedNodes,  // a fixed node count per move (`nodes=N`): `go nodes`
    FixedDepth,  // a fixed depth per move (`depth=N`): `go depth`
  };

  // Infinite, no margin.
  TimeControl() = default;

  // Parses the text forms, which to_string gives back:
  //   `40/60+0.6`  40 moves in 60 s, 0.6 s increment per move; the period repeats
  //   `10+0.1`     10 s for the game, 0.1 s increment
  //   `60`         60 s for the game (sudden death)
  //   `0:30+0.5`   times may be written m:ss or h:mm:ss (`40/1:00:00`)
  //   `inf`        no limit (also `infinite`)
  //   `st=1.5`     1.5 s per move; `nodes=N`, `depth=N` (also `plies=N`) fixed per move
  // Seconds may carry decimals; they are rounded to the nearest millisecond. The base time and the
  // fixed time must be at least 1 ms, moves, nodes and depth at least 1. Throws
  // std::invalid_argument naming the text when it is not one of these forms. The margin is not
  // part of the text (fastchess's separate `timemargin`): the result has margin 0.
  static TimeControl parse(std::string_view text);

  static TimeControl infinite() { return {}; }
  // A game clock of base_ms, plus increment_ms after each move, renewed by base_ms every
  // moves_per_period moves (0: sudden death). Throws std::invalid_argument on a base below 1 ms,
  // a negative increment or negative moves.
  static TimeControl clock(std::int64_t base_ms, std::int64_t increment_ms = 0,
                           int moves_per_period = 0);
  static TimeControl fixed_time(std::int64_t move_time_ms);  // >= 1 ms
  static TimeControl fixed_nodes(std::uint64_t nodes);       // >= 1
  static TimeControl fixed_depth(int depth);                 // >= 1

  // The same control with a time margin: a reply is late only when it takes longer than the time
  // left (or the fixed move time) plus this. Throws std::invalid_argument when negative.
  TimeControl with_margin(std::int64_t margin_ms) const;

  Kind kind() const { return kind_; }
  bool is_infinite() const { return kind_ == Kind::Infinite; }
  std::int64_t base_ms() const { return base_ms_; }            // Clock
  std::int64_t increment_ms() const { return increment_ms_; }  // Clock
  int moves_per_period() const { return moves_; }              // Clock; 0 = sudden death
  std::int64_t move_time_ms() const { return move_time_ms_; }  // FixedTime
  std::uint64_t nodes() const { return nodes_; }               // FixedNodes
  int depth() const { return depth_; }                         // FixedDepth
  std::int64_t margin_ms() const { return margin_ms_; }

  // The canonical text (`40/60+0.6`, `10+0.1`, `60`, `inf`, `st=1.5`, `nodes=1000`, `depth=8`),
  // seconds with at most three decimals and no trailing zeros; parse(to_string()) gives the same
  // control back (the margin aside).
  std::string to_string() const;

  friend bool operator==(const TimeControl&, const TimeControl&) = default;

 private:
  Kind kind_ = Kind::Infinite;
  std::int64_t base_ms_ = 0;
  std::int64_t increment_ms_ = 0;
  int moves_ = 0;
  std::int64_t move_time_ms_ = 0;
  std::uint64_t nodes_ = 0;
  int depth_ = 0;
  std::int64_t margin_ms_ = 0;
};

// The limits for one `go` command from one engine's point of view (uqi_client_messages.hpp). For
// a game clock the arena sends time_ms and increment_ms as the mover's own clock (and the other
// clock for the opponent's fields), and moves_to_go when the control has periods.
using uqi::GoLimits;

// One engine's clock during one game.
class Clock {
 public:
  explicit Clock(const TimeControl& control);

  const TimeControl& control() const { return control_; }

  // The engine is asked for a move. Returns how long its reply may take before it is late (time
  // left plus margin, or the fixed move time plus margin), or nullopt when no time limit applies.
  // Throws std::logic_error when a move is already running or the clock has flagged.
  std::optional<std::int64_t> start_move();

  // The reply came after elapsed_ms of wall-clock time. Returns true when it was in time. A late
  // reply flags the clock: the engine loses the game. With a game clock the time left drops by
  // elapsed_ms (to no less than 0 when the reply was late by less than the margin), then the
  // increment is added; when the last move of a period is made the period's base time is added to
  // what is left (it carries over, as in cutechess and fastchess) and a new period starts. Throws
  // std::logic_error when no move is running, std::invalid_argument on a negative elapsed_ms.
  bool stop_move(std::int64_t elapsed_ms);

  // Sets a game clock back to a state read from a saved game (quixo-gui): its time left and the
  // moves left in its period (ignored without periods); no move is running afterwards.
  void restore(std::int64_t remaining_ms, int moves_to_go);

  bool thinking() const { return thinking_; }
  bool flagged() const { return flagged_; }
  // Time left on a game clock (negative once it has flagged); for other kinds 0.
  std::int64_t remaining_ms() const { return remaining_ms_; }
  // Moves left in the current period, for a clock with periods; otherwise 0.
  int moves_to_go() const { return moves_left_; }
  int moves_made() const { return moves_made_; }

  // What to put in `go` for this engine now.
  GoLimits go_limits() const;

 private:
  TimeControl control_;
  std::int64_t remaining_ms_ = 0;
  int moves_left_ = 0;
  int moves_made_ = 0;
  bool thinking_ = false;
  bool flagged_ = false;
};

}  // namespace quixo::arena
