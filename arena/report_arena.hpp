// The arena's own text report (--output arena): a line per finished game with its result and
// reason, a live score line, and every --report-interval games and at the end the rating report
// (each pairing's pentanomial and trinomial Elo and its SPRT line, the Bradley-Terry ranking and
// LOS matrix for more than two engines, a knockout's bracket), then at the end the incidents and
// endings table and how the tournament ended.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>

#include "tournament.hpp"

namespace quixo::arena {

// `out` is standard output; `live` rewrites the score line in place with '\r' for a terminal,
// otherwise each update is a new line.
[[nodiscard]] std::unique_ptr<ReportSink> make_arena_report(std::ostream& out, bool live);

// The rating report alone, as the sink prints it.
[[nodiscard]] std::string format_rating_report(const TournamentConfig& config,
                                               const Standings& standings);
// The incidents and endings table.
[[nodiscard]] std::string format_incident_report(const Standings& standings);

}  // namespace quixo::arena
