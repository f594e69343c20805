// The UQI protocol as the engine speaks it: parsing what a GUI sends (`position`, `go`,
// `setoption`) and formatting what the engine answers (`option`, `info`, `bestmove`). No I/O
// here; the session (uqi_session) runs the conversation. Nothing in this file throws on bad input:
// parsers return an optional or partial result and describe what they skipped. A GUI's side of
// the same messages is uqi_client_messages, which needs no search.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.hpp"
#include "core/notation.hpp"
#include "search/engine.hpp"
#include "search/engine4.hpp"
#include "search/limits.hpp"
#include "search/score.hpp"
#include "uqi_option_types.hpp"

namespace quixo::uqi {

// ---------------------------------------------------------------------------------------------
// position

struct PositionCommand {
  std::optional<Game> game;        // nullopt when the command is malformed
  std::string error;               // why, naming the bad field or move (NotationError text)
  std::vector<std::string> notes;  // tokens that were skipped, as UCI practice skips them
};

// The arguments of a `position` command (the tokens after the word `position`):
// `startpos | startpos4 | fen <board> <side> [<move number>]` then optionally `moves m1 m2 ...`.
// Unknown tokens between `startpos`/`startpos4` and `moves` are skipped (with a note).
// On any error the result has no game: a GUI's position is either taken whole or not at all.
PositionCommand parse_position_command(std::span<const std::string_view> args);

// ---------------------------------------------------------------------------------------------
// go

struct GoCommand {
  // Two-player limits; `limits.search_moves` is filled when parsed against a two-player game.
  SearchLimits limits;
  // Four-player clocks by seat (s1..s4 = index 0..3); a negative time means "not given".
  std::array<std::int64_t, 4> seat_time_ms = {-1, -1, -1, -1};
  std::array<std::int64_t, 4> seat_increment_ms = {0, 0, 0, 0};
  // Four-player `searchmoves`, filled when parsed against a four-player game.
  std::vector<Move4> search_moves4;
  // The `searchmoves` as written, whatever the position.
  std::vector<std::string> search_move_texts;
  // `go perft N`: a perft divide instead of a search.
  std::optional<int> perft_depth;
  // One line per token that was ignored or adjusted (unknown, missing or bad value, illegal
  // search move); the engine reports them as `info string`.
  std::vector<std::string> notes;
};

// The arguments of a `go` command (tokens after `go`). Times are milliseconds. Negative clock
// values are taken as 0 (the time is gone); a zero or negative depth, nodes, mate or movetime is
// raised to 1, so that a limited search never turns into an endless one; huge values are clamped
// to their type. Search moves are not checked against any position.
GoCommand parse_go_command(std::span<const std::string_view> args);
// The same, with `searchmoves` checked against the current position: illegal ones are noted and
// skipped (and when none is left, the search is not restricted).
GoCommand parse_go_command(std::span<const std::string_view> args, const Game& game);

// ---------------------------------------------------------------------------------------------
// setoption

// The arguments of `setoption` (tokens after it): `name <N...> [value <V...>]`. nullopt when
// there is no name.
std::optional<SetOptionCommand> parse_setoption_command(std::span<const std::string_view> args);

// ---------------------------------------------------------------------------------------------
// Engine output

std::string format_option_line(const OptionLine& option);

// "cp 12", "mate 3", "mate -2", with " lowerbound" / " upperbound" for a bound.
std::string format_score(Score score, Bound bound = Bound::Exact);

// One `info` line of a search report, without a trailing newline. Zero fields that mean "not
// measured" (seldepth, hashfull) are still printed so the line has a fixed shape.
std::string format_info(const SearchInfo& info);
// The same for the four-player search: the pv in four-player notation ("b1e1X", "0000").
std::string format_info(const SearchInfo4& info);
std::string format_info_string(std::string_view text);  // "info string <text>"

// `bestmove <move> [ponder <move>]`; a missing best move (no legal move) is written "0000".
std::string format_bestmove(std::string_view best, std::string_view ponder = {});
std::string format_bestmove(Move best, Move ponder = Move::none());
// Four-player: a pass is "0000" (also as the ponder move); Move4::none() as the best move (the
// game is over) is "0000" too, and as the ponder move it is left out.
std::string format_bestmove(Move4 best, Move4 ponder = Move4::none());

}  // namespace quixo::uqi
