// --output fastchess (the default style): the lines fastchess prints for the same events,
// character for character: "Started game", "Finished game", the "Results of A vs B (...)" block
// between dashed lines with fastchess's own Elo, nElo, LOS and pair statistics and its "LLR:"
// line, the SPRT's end, the timeout/crash counts, "Finished match" and "Total Time". Its warnings
// go where fastchess prints its own: to stdout, after "Warning; ". What it has no place for (the
// tablebases loaded, the arena's incident table) is left out.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>

#include "tournament.hpp"

namespace quixo::arena {

// `out` is standard output (the warnings too).
[[nodiscard]] std::unique_ptr<ReportSink> make_fastchess_report(std::ostream& out);

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

}  // namespace quixo::arena
