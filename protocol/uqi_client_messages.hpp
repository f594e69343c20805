// The UQI protocol as a GUI speaks it: reading what an engine writes (`id`, `option`, `info`,
// `bestmove`, `response`) and writing the `setoption` command. This is what any program that
// drives an engine needs (the arena, a GUI); it knows neither the search nor the rules, so such a
// program links no engine. Nothing here throws on bad input: parsers return an optional or a
// partial result.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "uqi_option_types.hpp"

namespace quixo::uqi {

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
  std::optional<int> score_cp;    // at most one of score_cp and score_mate is set
  std::optional<int> score_mate;  // moves, negative when the side to move loses
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
