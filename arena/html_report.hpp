// The tournament as one self-contained HTML page (--report-html): the ratings with their error
// bars, the crosstable, each pairing's pentanomial counts, its Elo estimate and (with --sprt) its
// LLR over the games, the game lengths and endings, and the time per move of every engine. Charts
// are inline SVG made as text (svg_chart.hpp), styles are inline CSS; the page loads nothing and
// runs no script, and while the run goes on it asks the browser to reload it (a meta refresh).
//
// build_html_report is a pure function of the configuration, the standings and the history the
// page needs beyond them (ReportHistory); make_html_report is the ReportSink that keeps that
// history while the tournament runs and rewrites the page.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tournament.hpp"

namespace quixo::arena {

// One pairing's statistics after one of its games, for the charts over the games.
struct PairingPoint {
  std::int64_t games = 0;  // the pairing's games so far
  // estimate_elo of its completed game pairs, from the pairing's first engine's point of view,
  // with the 95 % interval: the "Elo: x +/- y" of the text report. Not finite before the first
  // pair, and when every pair was won (or lost).
  double elo = 0.0;
  double elo_lower = 0.0;
  double elo_upper = 0.0;
  // The SPRT's LLR (config.sprt): the standings' (a match's, or the pairing's own in a gauntlet
  // SPRT); 0 before the first game pair (the LLR of no games); nullopt when it could not be
  // computed.
  std::optional<double> llr;
};

// The reply times of one engine's moves, binned: bin k holds the times t with
// kMoveTimeBinEdges[k] <= t < kMoveTimeBinEdges[k + 1] (ms), the last bin everything above.
inline constexpr std::array<std::int64_t, 14> kMoveTimeBinEdges = {
    0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000};
struct MoveTimes {
  std::int64_t moves = 0;
  std::int64_t total_ms = 0;
  std::int64_t max_ms = 0;
  std::array<std::int64_t, kMoveTimeBinEdges.size()> bins{};
  void add(std::int64_t ms);
};

// What the page shows beyond the standings, kept game by game.
struct ReportHistory {
  // By pairing (the standings' order): a point after each of the pairing's games, in the order
  // the games finished.
  std::vector<std::vector<PairingPoint>> pairings;
  std::vector<int> plies;  // every game's engine moves, in the order the games finished
  // By engine: the times of the moves of the games this run played. A resumed run's earlier
  // games are read back from the results file, which does not keep the moves.
  std::vector<MoveTimes> move_times;
  std::int64_t earlier_games = 0;     // of them: the games of the earlier run (--resume)
  std::vector<std::string> warnings;  // the run's warnings, the latest kMaxWarnings
  std::string tablebases;             // --tb: the layers loaded (Tablebase::describe())
  static constexpr std::size_t kMaxWarnings = 20;

  // An empty history for the configuration's engines and the standings' pairings.
  ReportHistory(const TournamentConfig& config, const Standings& standings);
  // Adds a finished game, with the standings after it.
  void add_game(const FinishedGame& game, const Standings& after);
  // Adds the reply times of the game's moves to its engines: the engine moves alternate sides
  // from the side to move after the book moves (in the four-player game too, seats A1 B1 A2 B2).
  // A record whose start position or book moves do not read back adds nothing.
  void add_moves(const FinishedGame& game, const GameRecord& record);
  void add_warning(const std::string& text);
};

// The history of games already played, in the order they finished (a resumed run's results
// file), replayed through the standings as they grew; no move times.
[[nodiscard]] ReportHistory replay_history(const TournamentConfig& config,
                                           const std::vector<FinishedGame>& games);

struct HtmlPageState {
  // > 0: the page reloads itself this often (a meta refresh), while the run goes on.
  int refresh_seconds = 0;
  // How the tournament ended; nullopt while it runs.
  std::optional<TournamentEnd> end;
  std::string updated;  // when the page was made, e.g. "2026-11-27 09:40:12 UTC"
};

// The page. Engine names and every other text from the configuration are escaped.
[[nodiscard]] std::string build_html_report(const TournamentConfig& config,
                                            const Standings& standings,
                                            const ReportHistory& history,
                                            const HtmlPageState& state);

// HTML-escapes & < > " ' (as &amp; &lt; &gt; &quot; &#39;).
[[nodiscard]] std::string html_escape(std::string_view text);

// The sink of --report-html FILE: it keeps the history (on --resume it reads the earlier games
// from config.results_path) and rewrites FILE atomically (written beside it, then renamed) when
// the tournament starts, after a finished game once `min_interval` has passed since the last
// write (so that a fast tournament does not spend its time on the page), and at the end, the last
// page without the refresh. Throws TournamentError when FILE's folder cannot be written (checked
// here, before the tournament starts) or a write fails.
struct HtmlReportOptions {
  std::chrono::milliseconds min_interval{1000};
  int refresh_seconds = 5;
};
[[nodiscard]] std::unique_ptr<ReportSink> make_html_report(const std::string& path,
                                                           const HtmlReportOptions& options = {});

}  // namespace quixo::arena
