// The UQI protocol's messages as data: parsing of what a GUI sends (`position`, `go`,
// `setoption`) and of what an engine answers (`info`, `bestmove`, `option`, ...), and the
// formatting of both directions. No engine and no I/O here, so the engine's command loop and the
// arena (which reads engine output) share one implementation. Nothing in this file throws on bad
// input: parsers return an optional or partial result and describe what they skipped.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"
#include "search/engine.hpp"
#include "search/limits.hpp"
#include "search/score.hpp"
#include "search/team_search.hpp"

namespace quixo::uqi {

// ---------------------------------------------------------------------------------------------
// Tokens and numbers

// The whitespace-separated tokens of a line; '\r', tabs and runs of blanks are all separators.
std::vector<std::string_view> tokenize(std::string_view line);

// User text echoed in a message: quoted, shortened, non-printable characters replaced.
std::string quoted(std::string_view text);

// Lower-case ASCII copy; for case-insensitive names.
std::string to_lower(std::string_view text);

// A whole number in decimal with an optional sign. Out-of-range values are clamped to the
// int64 range (a GUI's "huge" clock stays huge); anything else that is not a number gives nullopt.
std::optional<std::int64_t> parse_integer(std::string_view text);

// ---------------------------------------------------------------------------------------------
// position

// A game as set up by `position`: the current position and the positions before it, for
// repetition detection.
struct TwoPlayerGame {
  Position position;
  std::vector<std::uint64_t> history_keys;  // keys of the earlier positions, oldest first
};
struct FourPlayerGame {
  Position4 position;
  std::vector<Position4> history;  // the earlier positions, oldest first
};
using Game = std::variant<TwoPlayerGame, FourPlayerGame>;

Variant variant_of(const Game& game);
// The position string of the current position, e.g. "5/5/5/5/5 x".
std::string position_text(const Game& game);
// Legal moves of the current position as text, in move generation order.
std::vector<std::string> legal_move_texts(const Game& game);
// How often the current position has occurred in the game, itself included.
int repetition_count(const Game& game);

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

// The `go` line for `command`'s limits (two-player clocks and the four-player seat clocks that
// are set), e.g. "go xtime 1000 otime 900 xinc 10 oinc 10". For the arena.
std::string format_go_command(const GoCommand& command);

// ---------------------------------------------------------------------------------------------
// setoption

struct SetOptionCommand {
  std::string name;                  // may contain spaces
  std::optional<std::string> value;  // absent for buttons
};
// The arguments of `setoption` (tokens after it): `name <N...> [value <V...>]`. nullopt when
// there is no name.
std::optional<SetOptionCommand> parse_setoption_command(std::span<const std::string_view> args);
std::string format_setoption_command(const SetOptionCommand& command);

// ---------------------------------------------------------------------------------------------
// Engine output

// `option name N type T default D min A max B var V...`, as the engine announces its options.
struct OptionLine {
  std::string name;
  std::string type;  // spin, check, combo, button, string
  std::optional<std::string> default_value;
  std::optional<std::int64_t> min;
  std::optional<std::int64_t> max;
  std::vector<std::string> vars;
};
std::string format_option_line(const OptionLine& option);
std::optional<OptionLine> parse_option_line(std::string_view line);

// `id name X` / `id author Y`.
struct IdLine {
  std::string field;  // "name" or "author"
  std::string value;
};
std::optional<IdLine> parse_id_line(std::string_view line);

// "cp 12", "mate 3", "mate -2", with " lowerbound" / " upperbound" for a bound.
std::string format_score(Score score, Bound bound = Bound::Exact);

// One `info` line of a search report, without a trailing newline. Zero fields that mean "not
// measured" (seldepth, hashfull) are still printed so the line has a fixed shape.
std::string format_info(const SearchInfo& info);
// The same for the four-player search: the pv in four-player notation ("b1e1X", "0000").
std::string format_info(const TeamSearchInfo& info);
std::string format_info_string(std::string_view text);  // "info string <text>"

// An `info` line read back: every field that was present. Unknown tokens are skipped.
struct InfoLine {
  std::optional<int> depth;
  std::optional<int> selective_depth;
  std::optional<int> multipv;
  std::optional<std::int64_t> time_ms;
  std::optional<std::uint64_t> nodes;
  std::optional<std::uint64_t> nodes_per_second;
  std::optional<int> hashfull;
  std::optional<int> score_cp;    // at most one of score_cp and score_mate is set
  std::optional<int> score_mate;  // moves, negative when the side to move loses
  Bound bound = Bound::Exact;     // Lower for `lowerbound`, Upper for `upperbound`
  std::optional<std::string> currmove;
  std::optional<int> currmovenumber;
  std::vector<std::string> pv;
  std::optional<std::string> string;  // the rest of the line after `string`, as written
};
// nullopt when the line is not an `info` line.
std::optional<InfoLine> parse_info_line(std::string_view line);

// `bestmove <move> [ponder <move>]`; a missing best move (no legal move) is written "0000".
std::string format_bestmove(std::string_view best, std::string_view ponder = {});
std::string format_bestmove(Move best, Move ponder = Move::none());
// Four-player: a pass is "0000" (also as the ponder move); Move4::none() as the best move (the
// game is over) is "0000" too, and as the ponder move it is left out.
std::string format_bestmove(Move4 best, Move4 ponder = Move4::none());

struct BestMoveLine {
  std::string move;
  std::optional<std::string> ponder;
};
// nullopt when the line is not `bestmove` followed by a move.
std::optional<BestMoveLine> parse_bestmove_line(std::string_view line);

// `response <text>` (UGI `query` answers); nullopt for other lines.
std::optional<std::string> parse_response_line(std::string_view line);

// ---------------------------------------------------------------------------------------------
// Display

// The `d` board: ranks 5 to 1 with labels, files a-e below, '.' for blanks; four-player cubes
// show their points (x X o O). One string per line, no newlines.
std::vector<std::string> draw_game(const Game& game);

}  // namespace quixo::uqi
