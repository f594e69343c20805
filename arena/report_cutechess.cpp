#include "report_cutechess.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <ostream>

#include "report_text.hpp"
#include "standings.hpp"

namespace quixo::arena {
namespace {

// --- Number formatting as cutechess-cli (Qt) does it --------------------------------------------

// Whether `value` lies exactly halfway between two neighbours at this precision: `fixed` counts
// decimals ("%.*f"), otherwise significant digits after the first ("%.*e"). Printed with enough
// digits for every double met here, the kept digits are followed by a 5 and zeros only.
bool exactly_halfway(double value, int precision, bool fixed) {
  char text[1600];
  std::snprintf(text, sizeof text, fixed ? "%.*f" : "%.*e", precision + 1100, value);
  const char* digit = std::strchr(text, '.');
  if (digit == nullptr) return false;
  digit += precision + 1;
  if (*digit != '5') return false;
  for (++digit; *digit >= '0' && *digit <= '9'; ++digit)
    if (*digit != '0') return false;
  return true;
}

// Qt rounds with double-conversion, which takes a value exactly halfway away from zero, where
// printf takes it to the even neighbour: nudged off the half, printf rounds as Qt does.
double qt_rounding(double value, int precision, bool fixed) {
  if (!std::isfinite(value) || !exactly_halfway(value, precision, fixed)) return value;
  return std::nextafter(value, value > 0 ? std::numeric_limits<double>::infinity()
                                         : -std::numeric_limits<double>::infinity());
}

// Qt's QString::arg(double, width, 'f', decimals) and its "%.Nf", which cutechess uses: as printf,
// except that a zero prints without a sign, NaN as "nan" and a value halfway rounds away from
// zero.
std::string qt_fixed(double value, int decimals, std::size_t width = 0) {
  std::string text;
  if (std::isnan(value))
    text = "nan";
  else if (std::isinf(value))
    text = value > 0 ? "inf" : "-inf";
  else
    text = c_fixed(value == 0.0 ? 0.0 : qt_rounding(value, decimals, true), decimals);
  return pad(text, width);
}

// Qt's arg(double, 0, 'g', 3): printf's "%.3g" with Qt's zero, NaN and rounding.
std::string qt_general3(double value) {
  if (std::isnan(value)) return "nan";
  char text[64];
  std::snprintf(text, sizeof text, "%.3g", value == 0.0 ? 0.0 : qt_rounding(value, 2, false));
  return text;
}

// cutechess's Elo::phiInv: sqrt(2) * erfInv(2p - 1), erfInv by Winitzki's approximation with
// cutechess's value of pi (not the exact normal quantile: its error margins differ in the last
// digits from an exact 1.96).
double cutechess_phi_inverse(double p) {
  const double pi = 3.1415926535897;
  const double x = 2.0 * p - 1.0;
  const double a = 8.0 * (pi - 3.0) / (3.0 * pi * (4.0 - pi));
  const double y = std::log(1.0 - x * x);
  const double z = 2.0 / (pi * a) + y / 2.0;
  const double erf_inverse = std::sqrt(std::sqrt(z * z - y / a) - z);
  return std::sqrt(2.0) * (x < 0.0 ? -erf_inverse : erf_inverse);
}

// cutechess-cli's lines (--output cutechess): projects/cli/src/enginematch.cpp and
// projects/lib/src/tournament.cpp.
class CutechessReport : public GameLineReport {
 public:
  CutechessReport(std::ostream& out, std::ostream& err) : GameLineReport(out), err_(err) {}

  void game_finished(const TournamentConfig& config, const FinishedGame& game,
                     const Standings& standings) override {
    out_ << finished_game_line(config, game) << "\n";
    if (standings.engines.size() == 2 && standings.pairings.size() == 1) {
      const PairingTally& pairing = standings.pairings.front();
      const Trinomial& r = pairing.results;
      out_ << "Score of " << config.engines[pairing.first].name << " vs "
           << config.engines[pairing.second].name << ": " << r.wins << " - " << r.losses << " - "
           << r.draws << "  ["
           << qt_fixed(
                  static_cast<double>(2 * r.wins + r.draws) / static_cast<double>(r.games() * 2), 3)
           << "] " << r.games() << "\n";
    }
    out_.flush();
  }

  void interval_report(const TournamentConfig& config, const Standings& standings) override {
    ranked_at_ = standings.games;
    print(cutechess_results(config, standings));
  }

  void tournament_finished(const TournamentConfig& config, const Standings& standings,
                           TournamentEnd) override {
    // The ranking, unless the rating interval printed it after the last game.
    if (ranked_at_ != standings.games) out_ << cutechess_results(config, standings);
    out_ << cutechess_outcomes(standings) << "Finished match\n";
    out_.flush();
  }

  // qWarning: on stderr, after "Warning: ".
  void warning(const std::string& text) override { print(err_, "Warning: " + text + "\n"); }

 private:
  std::ostream& err_;
  std::int64_t ranked_at_ = -1;
};

}  // namespace

std::unique_ptr<ReportSink> make_cutechess_report(std::ostream& out, std::ostream& err) {
  return std::make_unique<CutechessReport>(out, err);
}

CutechessElo cutechess_elo(const Trinomial& results) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  CutechessElo elo{nan, nan, nan, nan};
  const double n = static_cast<double>(results.games());
  // cutechess's LOS divides by sqrt(2 (wins + losses)): NaN without a decisive game.
  if (results.wins + results.losses > 0)
    elo.los = 100.0 * los_from_wins_losses(results.wins, results.losses);
  if (n == 0) return elo;
  // The score and its standard error are the arena's trinomial estimate's (the same formula);
  // the interval is cutechess's, unclamped, with its approximate quantile.
  const EloEstimate estimate = estimate_elo(results);
  elo.diff = score_to_elo(estimate.score);
  const double low = estimate.score + cutechess_phi_inverse(0.025) * estimate.score_error;
  const double high = estimate.score + cutechess_phi_inverse(0.975) * estimate.score_error;
  elo.error_margin = (score_to_elo(high) - score_to_elo(low)) / 2.0;
  elo.draw_ratio = static_cast<double>(results.draws) / n;
  return elo;
}

std::string cutechess_results(const TournamentConfig& config, const Standings& standings) {
  std::string text;
  if (standings.engines.size() == 2) {
    // resultsForSides(0): the first engine as White (X) and as Black (O), then by colour.
    const EngineTally& player = standings.engines[0];
    const Trinomial& white = player.x_results;
    const Trinomial black{player.results.losses - white.losses, player.results.draws - white.draws,
                          player.results.wins - white.wins};
    const auto line = [](const std::string& label, std::int64_t wins, std::int64_t losses,
                         std::int64_t draws, double score, std::int64_t games) {
      return "...      " + label + ": " + std::to_string(wins) + " - " + std::to_string(losses) +
             " - " + std::to_string(draws) + "  [" + qt_fixed(score, 3) + "] " +
             std::to_string(games) + "\n";
    };
    const std::int64_t white_score = 2 * white.wins + white.draws;
    const std::int64_t black_score = 2 * black.wins + black.draws;
    if (white.games() > 0)
      text += line(player.name + " playing White", white.wins, white.losses, white.draws,
                   static_cast<double>(white_score) / static_cast<double>(white.games() * 2),
                   white.games());
    if (black.games() > 0)
      text += line(player.name + " playing Black", black.wins, black.losses, black.draws,
                   static_cast<double>(black_score) / static_cast<double>(black.games() * 2),
                   black.games());
    const std::int64_t games = player.results.games();
    if (games > 0)
      text += line("White vs Black", white.wins + black.losses, white.losses + black.wins,
                   player.results.draws,
                   static_cast<double>(white_score + 2 * black.games() - black_score) /
                       static_cast<double>(games * 2),
                   games);
    const CutechessElo elo = cutechess_elo(player.results);
    text += "Elo difference: " + qt_fixed(elo.diff, 1) + " +/- " + qt_fixed(elo.error_margin, 1) +
            ", LOS: " + qt_fixed(elo.los, 1) +
            " %, DrawRatio: " + qt_fixed(elo.draw_ratio * 100, 1) + " %";
  } else {
    // The default result format, "Rank,Name,Elo,Error,Games,Score,DScore". The order: a
    // gauntlet's seeds first, then by score, then engines without a game; among equal keys the
    // later engine first (a QMultiMap puts a new entry before its equals).
    const bool gauntlet = config.format == TournamentFormat::Gauntlet;
    std::multimap<double, std::size_t> ranking;
    for (std::size_t i = 0; i < standings.engines.size(); ++i) {
      const Trinomial& r = standings.engines[i].results;
      double key = -1.0;
      if ((i > 0 && static_cast<int>(i) >= config.seeds) || !gauntlet)
        key = r.games() > 0 ? 1.0 - static_cast<double>(2 * r.wins + r.draws) /
                                        static_cast<double>(2 * r.games())
                            : 2.0;
      ranking.emplace_hint(ranking.lower_bound(key), key, i);
    }
    text += "Rank " + pad("Name", 25, true) + " " + pad("Elo", 7) + " " + pad("+/-", 7) + " " +
            pad("Games", 7) + " " + pad("Score", 7) + " " + pad("Draw", 7) + " \n";
    int rank = gauntlet ? -1 : 0;
    for (const auto& [key, i] : ranking) {
      const Trinomial& r = standings.engines[i].results;
      const CutechessElo elo = cutechess_elo(r);
      const double n = static_cast<double>(r.games());
      text += pad(std::to_string(++rank), 4) + " " + pad(standings.engines[i].name, 25, true) +
              " " + qt_fixed(elo.diff, 0, 7) + " " + qt_fixed(elo.error_margin, 0, 7) + " " +
              pad(std::to_string(r.games()), 7) + " " +
              qt_fixed(static_cast<double>(2 * r.wins + r.draws) / (2 * n) * 100.0, 1, 6) + "% " +
              qt_fixed(static_cast<double>(r.draws) / n * 100.0, 1, 6) + "% \n";
    }
  }
  // The SPRT's line: the arena's test (the one that stops the match), in cutechess's shape.
  const auto sprt_line = [&](const SprtResult& test) {
    std::string line = "SPRT: llr " + qt_general3(test.llr) + " (" +
                       qt_fixed(test.llr / test.upper * 100, 1) + "%), lbound " +
                       qt_general3(test.lower) + ", ubound " + qt_general3(test.upper);
    if (test.decision == SprtResult::Decision::AcceptH0) line += " - H0 was accepted";
    if (test.decision == SprtResult::Decision::AcceptH1) line += " - H1 was accepted";
    return line;
  };
  if (config.sprt && standings.pairings.size() == 1 && standings.sprt)
    text += "\n" + sprt_line(*standings.sprt);
  else if (config.sprt)
    // A gauntlet SPRT, which cutechess does not have: a line per pairing, named.
    for (const PairingTally& pairing : standings.pairings)
      if (pairing.sprt)
        text += "\n" + sprt_line(*pairing.sprt) + " (" + standings.engines[pairing.first].name +
                " vs " + standings.engines[pairing.second].name + ")";
  return text + "\n";
}

std::string cutechess_outcomes(const Standings& standings) {
  std::string text;
  for (const EngineTally& tally : standings.engines) {
    text += "\nPlayer: " + tally.name;
    for (const auto& [ending, count] : tally.outcomes)
      text += "\n   \"" + ending + "\": " + std::to_string(count);
  }
  return text + "\n";
}

}  // namespace quixo::arena
