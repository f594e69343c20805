// The UQI protocol as a GUI speaks it: reading what an engine writes (`id`, `option`, `info`,
// `bestmove`, `response`) and writing the `setoption` and `go` commands. This is what any program
// that drives an engine needs (the arena, a GUI); it knows neither the search nor the rules, so
// such a program links no engine. Nothing here throws on bad input: parsers return an optional or a
// partial result.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "uqi_option_types.hpp"

namespace quixo::uqi {

// The dialect an engine speaks: UQI, or UGI (the Universal Game Interface) with its own names.
enum class Protocol {
  Uqi,  // uqi/uqiok, uqinewgame, xtime/otime/xinc/oinc
  Ugi,  // ugi/ugiok, uginewgame, p1time/p2time/p1inc/p2inc (p1 = X)
};

// What one side is told to think within, all times in milliseconds: its clock, or one fixed
// limit. The fields that are set are the ones `go` carries.
struct GoLimits {
  std::optional<std::int64_t> time_ms;       // a clock: time left on it
  std::optional<std::int64_t> increment_ms;  // a clock: its increment (also when it is 0)
  std::optional<int> moves_to_go;            // a clock with periods: moves left in the period
  std::optional<std::int64_t> move_time_ms;  // a fixed time per move
  std::optional<std::uint64_t> nodes;        // a fixed node count
  std::optional<int> depth;                  // a fixed depth
  bool infinite = false;                     // `go infinite`
  // `go ponder ...`: the engine thinks on the move it expects from its opponent, with these
  // limits, which start to count at `ponderhit` (never together with `infinite`).
  bool ponder = false;

  friend bool operator==(const GoLimits&, const GoLimits&) = default;
};

// The two-player `go`: the mover's limits and both clocks.
struct GoRequest {
  GoLimits own;    // the mover's limits (time left, increment, moves to go, fixed limits)
  GoLimits other;  // the opponent's clock (time_ms and increment_ms are used)
  bool mover_is_x = true;
};

// The `go` line for `request` in `protocol`: e.g. "go xtime 9000 otime 8000 xinc 100 oinc 100
// movestogo 12", "go p1time ...", "go movetime 500", "go nodes 20000", "go depth 8",
// "go infinite", "go ponder xtime ...". The clocks are named by colour (X, O) or by player
// (p1 = X), never by "own" and "other".
[[nodiscard]] std::string format_go(const GoRequest& request, Protocol protocol);

// The four-player `go`: every seat's clock, whoever moves (docs/spec.md §5), and the mover's
// fixed limits.
struct GoRequest4 {
  std::array<GoLimits, 4> seats;  // seats 1..4; time_ms and increment_ms are used
  int mover = 0;                  // 0..3: the seat to move; its limits give the rest
};

// The `go` line for `request`: "go s1time 9000 s2time 8000 s3time 9000 s4time 8000 s1inc 100
// s2inc 100 s3inc 100 s4inc 100 movestogo 12", or the mover's fixed limit ("go nodes 20000",
// "go depth 8", "go movetime 500", "go infinite"). UGI has no four-player clock names, so the
// seat names of docs/spec.md §5 serve both protocols.
[[nodiscard]] std::string format_go4(const GoRequest4& request);

std::string format_setoption_command(const SetOptionCommand& command);

std::optional<OptionLine> parse_option_line(std::string_view line);

// `id name X` / `id author Y`.
struct IdLine {
  std::string field;  // "name" or "author"
  std::string value;
};
std::optional<IdLine> parse_id_line(std::string_view line);

// How an `info` score relates to the true value: exact unless `lowerbound` or `upperbound`
// follows it (a search that failed high or low).
enum class ScoreBound : std::uint8_t { Exact, Lower, Upper };

// An `info` line read back: every field that was present. Unknown tokens are skipped.
struct InfoLine {
  std::optional<int> depth;
  std::optional<int> selective_depth;
  std::optional<int> multipv;
  std::optional<std::int64_t> time_ms;
  std::optional<std::uint64_t> nodes;
  std::optional<std::uint64_t> nodes_per_second;
  std::optional<int> hashfull;
  std::optional<std::uint64_t> tbhits;  // endgame table probes that answered
  std::optional<int> score_cp;          // at most one of score_cp and score_mate is set
  std::optional<int> score_mate;        // moves, negative when the side to move loses
  ScoreBound bound = ScoreBound::Exact;
  std::optional<std::string> currmove;
  std::optional<int> currmovenumber;
  std::vector<std::string> pv;
  std::optional<std::string> string;  // the rest of the line after `string`, as written
};
// nullopt when the line is not an `info` line.
std::optional<InfoLine> parse_info_line(std::string_view line);

struct BestMoveLine {
  std::string move;
  std::optional<std::string> ponder;
};
// nullopt when the line is not `bestmove` followed by a move.
std::optional<BestMoveLine> parse_bestmove_line(std::string_view line);

// `response <text>` (UGI `query` answers); nullopt for other lines.
std::optional<std::string> parse_response_line(std::string_view line);

}  // namespace quixo::uqi
