// The `go` line for a parsed GoCommand's limits (two-player clocks and the four-player seat clocks
// that are set), e.g. "go xtime 1000 otime 900 xinc 10 oinc 10": parse_go_command's inverse,
// for the tests and the fuzz target that check parsing by a round trip. No program needs it: a GUI
// formats `go` from its clocks (format_go and format_go4 in uqi_client_messages.hpp).
#pragma once

#include <string>
#include <string_view>

#include "uqi_engine_messages.hpp"

namespace quixo::uqi {

inline std::string format_go_command(const GoCommand& command) {
  const SearchLimits& limits = command.limits;
  std::string out = "go";
  const auto add = [&out](std::string_view key, auto value) {
    out += ' ';
    out += key;
    out += ' ';
    out += std::to_string(value);
  };
  if (limits.time_ms[0] >= 0) add("xtime", limits.time_ms[0]);
  if (limits.time_ms[1] >= 0) add("otime", limits.time_ms[1]);
  if (limits.time_ms[0] >= 0 && limits.increment_ms[0] > 0) add("xinc", limits.increment_ms[0]);
  if (limits.time_ms[1] >= 0 && limits.increment_ms[1] > 0) add("oinc", limits.increment_ms[1]);
  for (int seat = 0; seat < 4; ++seat)
    if (command.seat_time_ms[seat] >= 0)
      add("s" + std::to_string(seat + 1) + "time", command.seat_time_ms[seat]);
  for (int seat = 0; seat < 4; ++seat)
    if (command.seat_time_ms[seat] >= 0 && command.seat_increment_ms[seat] > 0)
      add("s" + std::to_string(seat + 1) + "inc", command.seat_increment_ms[seat]);
  if (limits.moves_to_go > 0) add("movestogo", limits.moves_to_go);
  if (limits.depth > 0) add("depth", limits.depth);
  if (limits.nodes > 0) add("nodes", limits.nodes);
  if (limits.mate > 0) add("mate", limits.mate);
  if (limits.move_time_ms > 0) add("movetime", limits.move_time_ms);
  if (limits.infinite) out += " infinite";
  if (limits.ponder) out += " ponder";
  if (command.perft_depth) add("perft", *command.perft_depth);
  if (!command.search_move_texts.empty()) {
    out += " searchmoves";
    for (const std::string& move : command.search_move_texts) out += ' ' + move;
  }
  return out;
}

}  // namespace quixo::uqi
