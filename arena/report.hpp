// Human-readable tournament reports, the ReportSink of the command line. Two styles:
//   - fastchess (default): a line per finished game with its reason, a live score line, and a
//     rating report (Elo +/- with pentanomial model, nElo, LOS, draw ratio, pentanomial counts,
//     SPRT line; a ranking table for more than two engines) every N games and at the end;
//   - cutechess: cutechess-cli's "Score of A vs B: W - L - D [pct] N" and "Elo difference" lines.
// Both end with the engines' incident counts (crashes, time forfeits, illegal moves, stalls,
// restarts) and how the games ended.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

#include "tournament.hpp"

namespace quixo::arena {

enum class ReportStyle { Fastchess, Cutechess };
// "fastchess" or "cutechess"; nullopt otherwise.
std::optional<ReportStyle> parse_report_style(std::string_view name);

// `live` rewrites the score line in place with '\r' (for a terminal); otherwise each update is a
// new line.
std::unique_ptr<ReportSink> make_text_report(std::ostream& out, ReportStyle style, bool live);

// The rating report alone, as the sinks print it (for tests and the final report).
std::string format_rating_report(const TournamentConfig& config, const Standings& standings);
// The incidents and endings table.
std::string format_incident_report(const Standings& standings);

}  // namespace quixo::arena
