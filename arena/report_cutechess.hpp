// --output cutechess: what cutechess-cli prints for the same events, character for character:
// "Started game", "Finished game", "Score of", its results (the per-colour lines and "Elo
// difference" for two engines, its ranking table for more, the "SPRT: llr" line), the outcomes by
// player, and "Finished match". Its warnings go where cutechess prints its own: to stderr, after
// "Warning: ". What it has no place for (the tablebases loaded, the arena's incident table) is
// left out.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>

#include "tournament.hpp"

namespace quixo::arena {

// `out` is standard output, `err` standard error (the warnings).
[[nodiscard]] std::unique_ptr<ReportSink> make_cutechess_report(std::ostream& out,
                                                                std::ostream& err);

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

}  // namespace quixo::arena
