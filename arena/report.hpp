// Human-readable tournament reports, the ReportSink of the command line. Three styles:
//   - fastchess (default): the lines fastchess prints for the same events, character for
//     character: "Started game", "Finished game", the "Results of A vs B (...)" block between
//     dashed lines with fastchess's own Elo, nElo, LOS and pair statistics and its "LLR:" line,
//     the SPRT's end, the timeout/crash counts, "Finished match" and "Total Time";
//   - cutechess: what cutechess-cli prints: "Started game", "Finished game", "Score of", its
//     results (the per-colour lines and "Elo difference" for two engines, its ranking table for
//     more, the "SPRT: llr" line), the outcomes by player, and "Finished match";
//   - arena: the arena's own report (a live score line, the rating report with pentanomial and
//     trinomial Elo, the Bradley-Terry ranking and LOS matrix for more than two engines, the
//     incident and endings table).
// What the exact styles have no place for (the tablebases loaded, the arena's incident table) is
// left out of them; warnings go where each program prints its own (cutechess: stderr,
// "Warning: "; fastchess: stdout, "Warning; ").
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "tournament.hpp"

namespace quixo::arena {

enum class ReportStyle { Fastchess, Cutechess, Arena };
// "fastchess", "cutechess" or "arena"; nullopt otherwise.
std::optional<ReportStyle> parse_report_style(std::string_view name);

// `out` is standard output, `err` standard error (cutechess's warnings). `live` (the arena style
// only) rewrites the score line in place with '\r' for a terminal; otherwise each update is a new
// line.
std::unique_ptr<ReportSink> make_text_report(std::ostream& out, std::ostream& err,
                                             ReportStyle style, bool live);

// The arena style's rating report alone, as its sink prints it.
std::string format_rating_report(const TournamentConfig& config, const Standings& standings);
// The arena style's incidents and endings table.
std::string format_incident_report(const Standings& standings);

// --- cutechess-cli's numbers and blocks ---------------------------------------------------------

// cutechess's Elo class on W/L/D counts: the Elo difference of the mean score, its 95% error
// margin (half the Elo width of score +/- 1.96 standard errors, the quantile from cutechess's own
// approximation of the inverse error function, the score not clamped), the LOS in percent from
// wins and losses alone, and the draw ratio (0..1). With no game, or no decisive game for the LOS,
// a value is NaN, as cutechess computes it (it prints "nan").
struct CutechessElo {
  double diff = 0;
  double error_margin = 0;
  double los = 0;  // percent
  double draw_ratio = 0;
};
[[nodiscard]] CutechessElo cutechess_elo(const Trinomial& results);

// The text of cutechess's Tournament::results() (what -ratinginterval and the end print), with its
// final newline: for two engines the first engine's per-colour lines, "Elo difference" and the
// "SPRT: llr" line; for more the default ranking table (Rank, Name, Elo, +/-, Games, Score, Draw).
[[nodiscard]] std::string cutechess_results(const TournamentConfig& config,
                                            const Standings& standings);
// The text of cutechess's Tournament::outcomes() with its final newline: a blank line, then each
// engine's "Player: NAME" and its endings, counted and sorted by their text.
[[nodiscard]] std::string cutechess_outcomes(const Standings& standings);

// --- fastchess's numbers and blocks -------------------------------------------------------------

// fastchess's EloWDL (trinomial) and EloPentanomial figures: the Elo of the mean score and half the
// Elo width of the 95% interval (not clamped: an interval past a score of 0 or 1 gives NaN, as in
// fastchess), the normalised Elo and its error, and the LOS (0..1). NaN with no game or pair.
struct FastchessElo {
  double elo = 0;
  double elo_error = 0;
  double nelo = 0;
  double nelo_error = 0;
  double los = 0;
};
[[nodiscard]] FastchessElo fastchess_elo(const Trinomial& results);
[[nodiscard]] FastchessElo fastchess_elo(const Pentanomial& results);

// fastchess's rating block as its printInterval prints it, the dashed lines included: for two
// engines "Results of A vs B (tc, threads, hash, book):" and its lines, for more the ranking table;
// then the "LLR:" line when there is an SPRT.
[[nodiscard]] std::string fastchess_results(const TournamentConfig& config,
                                            const Standings& standings);

// A number with `decimals` decimals as the arena's own reports (--output arena, the HTML page)
// print it: what rounds to zero is 0, not -0, and NaN and the infinities are "nan", "inf", "-inf".
[[nodiscard]] std::string format_fixed(double value, int decimals);

}  // namespace quixo::arena
