#include "html_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <string_view>
#include <utility>

#include "core/game.hpp"
#include "file_io.hpp"
#include "report_text.hpp"
#include "results_store.hpp"
#include "standings.hpp"
#include "svg_chart.hpp"
#include "utc_text.hpp"

namespace quixo::arena {
namespace {

// --- Text -----------------------------------------------------------------------------------

// A number as the page prints it: what rounds to zero is 0 (not -0), and the infinities and NaN
// are words, never text that an SVG attribute would choke on.
std::string num(double value, int decimals) {
  return format_fixed(value, decimals);
}

std::string num(std::int64_t value) {
  return std::to_string(value);
}

using svg::attribute;  // the page's attributes are written as the charts' are

std::string engine_name(const TournamentConfig& config, std::size_t engine) {
  return html_escape(config.engines[engine].name);
}

// --- Sections -------------------------------------------------------------------------------

std::string time_control_of(const TournamentConfig& config, std::size_t engine) {
  return config.engines[engine].time_control.value_or(config.time_control).to_string();
}

std::string header(const TournamentConfig& config, const Standings& standings,
                   const ReportHistory& history, const HtmlPageState& state) {
  const std::string status = state.end ? std::string(end_name(*state.end)) : "running";
  std::string out = "<h1>" + html_escape(config.event) + "</h1>\n";
  out += "<p class=\"summary\" id=\"summary\"" + attribute("data-games", num(standings.games)) +
         attribute("data-total", num(standings.total_games)) + attribute("data-status", status) +
         ">";
  out += html_escape(std::string(format_name(config.format))) + ", " +
         num(static_cast<std::int64_t>(config.engines.size())) + " engines, " +
         num(static_cast<std::int64_t>(config.rounds)) +
         (config.rounds == 1 ? " round" : " rounds");
  if (config.variant == Variant::FourPlayer) out += ", the four-player team game";
  out +=
      ". <b>" + num(standings.games) + " of " + num(standings.total_games) + " games played</b>; ";
  out += state.end ? "the tournament ended: " + html_escape(status) + "."
                   : "the tournament is running (this page reloads every " +
                         std::to_string(state.refresh_seconds) + " s).";
  if (history.earlier_games > 0)
    out += " Resumed: " + num(history.earlier_games) +
           " of the games are the earlier run's, read back from the results file.";
  out += "</p>\n<p class=\"settings\">Time control: ";
  for (std::size_t i = 0; i < config.engines.size(); ++i)
    out += (i == 0 ? "" : ", ") + engine_name(config, i) + " " +
           html_escape(time_control_of(config, i));
  out += ". Openings: " + (config.openings.empty()
                               ? std::string("the start position")
                               : html_escape(config.openings_source) + " (" +
                                     std::to_string(config.openings.size()) + " positions)");
  if (!history.tablebases.empty()) out += ". Endgame tables: " + html_escape(history.tablebases);
  if (config.sprt)
    out += ". SPRT: elo0 " + num(config.sprt->elo0, 2) + ", elo1 " + num(config.sprt->elo1, 2) +
           ", alpha " + num(config.sprt->alpha, 3) + ", beta " + num(config.sprt->beta, 3) + " (" +
           (config.sprt->model == EloModel::Normalized ? "normalised" : "logistic") + " Elo)";
  return out + ".</p>\n";
}

std::vector<std::size_t> rank_order(const Standings& standings,
                                    const std::optional<Ratings>& ratings) {
  std::vector<std::size_t> order(standings.engines.size());
  std::iota(order.begin(), order.end(), 0);
  if (ratings)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return ratings->elo[a] > ratings->elo[b];
    });
  return order;
}

// The ratings of the arena style's ranking table (report_arena.cpp; rate_engines: the same
// numbers), as error bars and as the table.
std::string ratings_section(const TournamentConfig& config, const Standings& standings,
                            const std::optional<Ratings>& ratings,
                            const std::vector<std::size_t>& order) {
  constexpr double kZ95 = 1.959964;
  std::string out = "<section id=\"ratings\"><h2>Ratings</h2>\n";
  if (!ratings)
    return out + "<p>Not yet: the engines are not all connected by games.</p></section>\n";
  out +=
      "<p class=\"note\">Maximum-likelihood (Bradley-Terry, as Ordo) ratings in logistic Elo, "
      "the numbers of the text report's ranking; " +
      (config.anchor ? html_escape(config.anchor->name) + " is anchored at " +
                           num(config.anchor->elo, 1) + " and the errors are relative to it"
                     : std::string("centred on 0, the errors relative to the pool's mean")) +
      ". The bars and &#177; are 95 % intervals: 1.96 standard errors from the sandwich "
      "covariance H<sup>-1</sup>JH<sup>-1</sup> of the fit (H the Fisher information of the "
      "model, J the observed variance of the game scores, so draws narrow it)" +
      (ratings->converged ? std::string()
                          : "; one virtual draw per pairing is added as a prior, since "
                            "without it some rating would be infinite") +
      ".</p>\n";
  // The chart: a row per engine in rank order, the interval as a bar and the rating as a dot.
  svg::Frame frame;
  std::size_t longest = 4;
  for (const EngineTally& tally : standings.engines) longest = std::max(longest, tally.name.size());
  frame.left = std::min(220.0, 16.0 + 7.0 * static_cast<double>(longest));
  frame.height = 50.0 + 26.0 * static_cast<double>(order.size());
  frame.width = 720;
  frame.x_min = frame.x_max = 0;
  for (const std::size_t i : order) {
    frame.x_min = std::min(frame.x_min, ratings->elo[i] - kZ95 * ratings->error[i]);
    frame.x_max = std::max(frame.x_max, ratings->elo[i] + kZ95 * ratings->error[i]);
  }
  if (!std::isfinite(frame.x_min) || !std::isfinite(frame.x_max)) {
    frame.x_min = -400;
    frame.x_max = 400;
  }
  const double pad = std::max(10.0, 0.05 * (frame.x_max - frame.x_min));
  frame.x_min -= pad;
  frame.x_max += pad;
  const double row = 26.0;
  out += svg::open(frame, "ratings-chart", "Ratings with 95 % intervals") + "<g class=\"axes\">";
  const std::vector<double> ticks = svg::nice_ticks(frame.x_min, frame.x_max, 8);
  for (const double tick : ticks) {
    out += svg::line(frame.x(tick), frame.top, frame.x(tick), frame.plot_bottom(),
                     tick == 0.0 ? "axis" : "grid");
    out += svg::text(frame.x(tick), frame.plot_bottom() + 16, num(tick, svg::tick_decimals(ticks)));
  }
  out += svg::text((frame.left + frame.plot_right()) / 2, frame.height - 6, "Elo") + "</g>";
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const std::size_t i = order[rank];
    const double y = frame.top + row * (static_cast<double>(rank) + 0.5);
    const double low =
        std::clamp(ratings->elo[i] - kZ95 * ratings->error[i], frame.x_min, frame.x_max);
    const double high =
        std::clamp(ratings->elo[i] + kZ95 * ratings->error[i], frame.x_min, frame.x_max);
    out += svg::text(frame.left - 8, y + 4, standings.engines[i].name, "end");
    out += "<g class=\"rating-row\"" + attribute("data-engine", standings.engines[i].name) +
           attribute("data-elo", num(ratings->elo[i], 1)) +
           attribute("data-error", num(kZ95 * ratings->error[i], 1)) + ">";
    out += svg::line(frame.x(low), y, frame.x(high), y, "error-bar");
    out +=
        "<circle class=\"rating\"" +
        attribute("cx", svg::px(frame.x(std::clamp(ratings->elo[i], frame.x_min, frame.x_max)))) +
        attribute("cy", svg::px(y)) + attribute("r", "5") + "><title>" +
        html_escape(standings.engines[i].name) + ": " + num(ratings->elo[i], 1) + " &#177; " +
        num(kZ95 * ratings->error[i], 1) + "</title></circle></g>";
  }
  out += "</svg>\n";
  // The table, as the text report's ranking.
  out +=
      "<table class=\"ranking\"><thead><tr><th>Rank</th><th>Name</th><th>Elo</th>"
      "<th>&#177;</th><th>Games</th><th>Score</th><th>Draw</th><th>LOS(next)</th></tr></thead>"
      "<tbody>";
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const std::size_t i = order[rank];
    const Trinomial& results = standings.engines[i].results;
    const double games = static_cast<double>(results.games());
    out += "<tr><td>" + std::to_string(rank + 1) + "</td><td class=\"name\">" +
           html_escape(standings.engines[i].name) + "</td><td>" + num(ratings->elo[i], 1) +
           "</td><td>" + num(kZ95 * ratings->error[i], 1) + "</td><td>" + num(results.games()) +
           "</td><td>" + (games > 0 ? format_percent(results.points() / games, 1) : "-") +
           "</td><td>" +
           (games > 0 ? format_percent(static_cast<double>(results.draws) / games, 1) : "-") +
           "</td><td>" +
           (rank + 1 < order.size() ? format_percent(ratings->los[i][order[rank + 1]], 1)
                                    : std::string("")) +
           "</td></tr>";
  }
  return out + "</tbody></table></section>\n";
}

// Engine against engine: the row engine's points of the games between them, in rank order.
std::string crosstable_section(const Standings& standings, const std::vector<std::size_t>& order) {
  const std::size_t n = standings.engines.size();
  // cell[row][column]: the row engine's results against the column engine.
  std::vector<std::vector<std::optional<Trinomial>>> cell(n,
                                                          std::vector<std::optional<Trinomial>>(n));
  for (const PairingTally& pairing : standings.pairings) {
    cell[pairing.first][pairing.second] = pairing.results;
    cell[pairing.second][pairing.first] = pairing.results.reversed();
  }
  std::string out =
      "<section id=\"crosstable\"><h2>Crosstable</h2>\n<p class=\"note\">The row engine's "
      "points against the column engine, of the games between them.</p>\n"
      "<table class=\"crosstable\"><thead><tr><th></th>";
  for (const std::size_t column : order)
    out += "<th>" + html_escape(standings.engines[column].name) + "</th>";
  out += "<th>Total</th></tr></thead><tbody>";
  for (const std::size_t row : order) {
    out += "<tr><th class=\"name\">" + html_escape(standings.engines[row].name) + "</th>";
    for (const std::size_t column : order) {
      if (row == column || !cell[row][column]) {
        out += "<td class=\"none\">-</td>";
        continue;
      }
      const Trinomial& results = *cell[row][column];
      const double half = 0.5 * static_cast<double>(results.games());
      const char* verdict = results.games() == 0      ? "even"
                            : results.points() > half ? "ahead"
                            : results.points() < half ? "behind"
                                                      : "even";
      out += "<td" + attribute("class", verdict) +
             attribute("data-row", standings.engines[row].name) +
             attribute("data-column", standings.engines[column].name) +
             attribute("data-points", num(results.points(), 1)) +
             attribute("data-games", num(results.games())) + "><b>" + num(results.points(), 1) +
             "</b>/" + num(results.games()) + "<br/><small>+" + num(results.wins) + " =" +
             num(results.draws) + " -" + num(results.losses) + "</small></td>";
    }
    const Trinomial& total = standings.engines[row].results;
    out +=
        "<td class=\"total\">" + num(total.points(), 1) + "/" + num(total.games()) + "</td></tr>";
  }
  return out + "</tbody></table></section>\n";
}

// The LLR over the pairing's games, with the two bounds.
std::string llr_chart(const TournamentConfig& config, const std::vector<PairingPoint>& points,
                      const std::string& label) {
  std::vector<std::pair<double, double>> line_points;
  for (const PairingPoint& point : points)
    if (point.llr) line_points.emplace_back(static_cast<double>(point.games), *point.llr);
  const double lower = config.sprt->lower_bound();
  const double upper = config.sprt->upper_bound();
  svg::Frame frame;
  frame.x_max = std::max(1.0, points.empty() ? 1.0 : static_cast<double>(points.back().games));
  frame.y_min = lower;
  frame.y_max = upper;
  for (const auto& [x, y] : line_points) {
    frame.y_min = std::min(frame.y_min, y);
    frame.y_max = std::max(frame.y_max, y);
  }
  const double pad = 0.08 * (frame.y_max - frame.y_min);
  frame.y_min -= pad;
  frame.y_max += pad;
  std::string out = svg::open(frame, "llr-chart", label) + svg::axes(frame, "games", "LLR");
  out += svg::line(frame.left, frame.y(upper), frame.plot_right(), frame.y(upper), "bound upper");
  out += svg::text(frame.plot_right() - 4, frame.y(upper) - 4, "H1 above " + num(upper, 2), "end");
  out += svg::line(frame.left, frame.y(lower), frame.plot_right(), frame.y(lower), "bound lower");
  out += svg::text(frame.plot_right() - 4, frame.y(lower) + 14, "H0 below " + num(lower, 2), "end");
  if (!line_points.empty()) out += svg::polyline(frame, svg::thin(line_points), "llr");
  return out + "</svg>";
}

// The Elo estimate over the pairing's games, with its 95 % interval as a band. Points without a
// finite estimate (before the first game pair, or while one side won every pair) are left out.
// An interval that reaches a score of 0 or 1 is infinite on that side (early on, with few pairs):
// the band then runs to the chart's edge, which is set by the finite values, at most +-kEloClip.
constexpr double kEloClip = 800.0;

std::string elo_chart(const std::vector<PairingPoint>& points, const std::string& label) {
  std::vector<const PairingPoint*> shown;
  for (const PairingPoint& point : points)
    if (std::isfinite(point.elo)) shown.push_back(&point);
  svg::Frame frame;
  frame.x_max = std::max(1.0, points.empty() ? 1.0 : static_cast<double>(points.back().games));
  frame.y_min = -10;
  frame.y_max = 10;
  for (const PairingPoint* point : shown) {
    for (const double value : {point->elo, point->elo_lower, point->elo_upper}) {
      if (!std::isfinite(value)) continue;
      frame.y_min = std::min(frame.y_min, value);
      frame.y_max = std::max(frame.y_max, value);
    }
  }
  frame.y_min = std::max(frame.y_min, -kEloClip);
  frame.y_max = std::min(frame.y_max, kEloClip);
  std::string out = svg::open(frame, "elo-chart", label) + svg::axes(frame, "games", "Elo");
  out += svg::line(frame.left, frame.y(0), frame.plot_right(), frame.y(0), "zero");
  if (shown.empty())
    return out +
           svg::text((frame.left + frame.plot_right()) / 2, (frame.top + frame.plot_bottom()) / 2,
                     "no finite estimate yet (it needs game pairs, not all won by one side)") +
           "</svg>";
  std::vector<std::pair<double, double>> centre, lower, upper;
  for (const PairingPoint* point : shown) {
    const double x = static_cast<double>(point->games);
    // std::clamp takes the infinities to the edges too.
    centre.emplace_back(x, std::clamp(point->elo, frame.y_min, frame.y_max));
    lower.emplace_back(x, std::clamp(point->elo_lower, frame.y_min, frame.y_max));
    upper.emplace_back(x, std::clamp(point->elo_upper, frame.y_min, frame.y_max));
  }
  const std::vector<std::pair<double, double>> thin_lower = svg::thin(lower);
  std::vector<std::pair<double, double>> band = svg::thin(upper);
  band.insert(band.end(), thin_lower.rbegin(), thin_lower.rend());
  out += "<polygon" + attribute("class", "elo-band") +
         attribute("points", svg::points_text(frame, band)) + "/>";
  out += svg::polyline(frame, svg::thin(centre), "elo");
  return out + "</svg>";
}

std::string pairing_section(const TournamentConfig& config, const Standings& standings,
                            const ReportHistory& history) {
  // Charts for this many pairings at most (a round robin of many engines has hundreds); the
  // crosstable has them all.
  constexpr std::size_t kMaxPairings = 12;
  std::string out = "<section id=\"pairings\"><h2>Pairings</h2>\n";
  out +=
      "<p class=\"note\">Each pairing from its first engine's point of view. Elo: the "
      "estimate from the pentanomial counts of the game pairs (each opening played with "
      "colours swapped) with its 95 % interval, as the text report's <code>Elo: x &#177; "
      "y</code>; over the games, a point after each of the pairing's games (none before the "
      "first complete pair, or while one side won every pair; where the interval reaches a "
      "score of 0 or 1 the band runs to the chart's edge)." +
      std::string(config.sprt ? " LLR: the SPRT's log-likelihood ratio after each game, "
                                "against the bounds at which it accepts H0 or H1."
                              : "") +
      "</p>\n";
  std::size_t shown = 0;
  for (std::size_t p = 0; p < standings.pairings.size(); ++p) {
    const PairingTally& pairing = standings.pairings[p];
    if (standings.pairings.size() > 1 && pairing.results.games() == 0) continue;
    if (shown++ == kMaxPairings) {
      out += "<p>Charts for the first " + std::to_string(kMaxPairings) +
             " pairings with games; the crosstable has every pairing.</p>";
      break;
    }
    const std::string title =
        config.engines[pairing.first].name + " vs " + config.engines[pairing.second].name;
    const Trinomial& games = pairing.results;
    const EloEstimate estimate = estimate_elo(pairing.pairs);
    out += "<div class=\"pairing\"" + attribute("data-pairing", std::to_string(p)) +
           attribute("data-first", config.engines[pairing.first].name) +
           attribute("data-second", config.engines[pairing.second].name) + "><h3>" +
           html_escape(title) + "</h3>\n<p>Games " + num(games.games()) + ": +" + num(games.wins) +
           " =" + num(games.draws) + " -" + num(games.losses) + ", " + num(games.points(), 1) +
           " points. Elo " + num(estimate.elo, 1) + " &#177; " + num(estimate.elo_error, 1) +
           ", LOS " + format_percent(estimate.los, 1) + ", draw ratio " +
           format_percent(estimate.draw_ratio, 1) + ".";
    if (config.sprt) {
      const bool match = standings.pairings.size() == 1;
      const std::optional<SprtResult>& test = match ? standings.sprt : pairing.sprt;
      out += " <span class=\"sprt\">" +
             html_escape(test ? format_sprt(*test, *config.sprt)
                              : "LLR: unavailable (" +
                                    (match ? standings.sprt_error : pairing.sprt_error) + ")") +
             "</span>";
    }
    out += "</p>\n<div class=\"charts\">";
    const auto& c = pairing.pairs.counts;
    out += "<figure>" +
           svg::category_chart({"LL", "LD", "WL+DD", "WD", "WW"}, {c[0], c[1], c[2], c[3], c[4]},
                               "pentanomial", title + ": game pairs by score",
                               "game pairs (" + num(pairing.pairs.pairs()) + ")") +
           "<figcaption>Pentanomial: game pairs by their score for " +
           html_escape(config.engines[pairing.first].name) +
           ", 0 to 2 points (LL, LD, WL or DD, WD, WW)</figcaption></figure>";
    const std::vector<PairingPoint> no_points;
    const std::vector<PairingPoint>& points =
        p < history.pairings.size() ? history.pairings[p] : no_points;
    out += "<figure>" + elo_chart(points, title + ": Elo over the games") +
           "<figcaption>Elo estimate and its 95 % interval over the games</figcaption></figure>";
    if (config.sprt)
      out += "<figure>" + llr_chart(config, points, title + ": LLR over the games") +
             "<figcaption>LLR over the games, with the bounds</figcaption></figure>";
    out += "</div></div>\n";
  }
  return out + "</section>\n";
}

std::string games_section(const Standings& standings, const ReportHistory& history) {
  std::string out = "<section id=\"games\"><h2>Games</h2>\n<div class=\"charts\">";
  // Game lengths: bins of 1, 2, 5, 10, ... plies, as few as keep them under 30.
  const int longest =
      history.plies.empty() ? 0 : *std::max_element(history.plies.begin(), history.plies.end());
  int width = 1;
  for (const int step : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000}) {
    width = step;
    if (longest / step < 30) break;
  }
  const int bins = longest / width + 1;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(bins), 0);
  std::vector<std::string> labels;
  for (const int plies : history.plies) ++counts[static_cast<std::size_t>(plies / width)];
  for (int bin = 0; bin < bins; ++bin)
    labels.push_back(width == 1 ? std::to_string(bin)
                                : std::to_string(bin * width) + "-" +
                                      std::to_string(bin * width + width - 1));
  out += "<figure>" +
         svg::category_chart(labels, counts, "plies", "Game length: games by engine moves",
                             "engine moves (plies) per game") +
         "<figcaption>Game length: " + num(static_cast<std::int64_t>(history.plies.size())) +
         " games by their engine moves (book moves not counted)" +
         (history.plies.empty()
              ? std::string()
              : ", mean " + num(static_cast<double>(std::accumulate(
                                    history.plies.begin(), history.plies.end(), std::int64_t{0})) /
                                    static_cast<double>(history.plies.size()),
                                1)) +
         "</figcaption></figure>";
  // How the games ended.
  std::vector<std::string> ending_labels;
  std::vector<std::int64_t> ending_counts;
  for (std::size_t t = 0; t < standings.terminations.size(); ++t) {
    if (standings.terminations[t] == 0) continue;
    ending_labels.emplace_back(termination_name(static_cast<Termination>(t)));
    ending_counts.push_back(standings.terminations[t]);
  }
  if (ending_labels.empty()) {
    out += "<p>No game has ended yet.</p>";
  } else {
    out += "<figure>" +
           svg::category_chart(ending_labels, ending_counts, "endings", "How the games ended",
                               "ending") +
           "<figcaption>Endings (Termination)</figcaption></figure>";
  }
  out += "</div>\n";
  // The engines' incidents, as the text report's table.
  out +=
      "<table class=\"incidents\"><thead><tr><th>Engine</th><th>Crashes</th><th>Time "
      "losses</th><th>Illegal moves</th><th>Stalls</th><th>Restarts</th></tr></thead><tbody>";
  for (const EngineTally& tally : standings.engines)
    out += "<tr><td class=\"name\">" + html_escape(tally.name) + "</td><td>" + num(tally.crashes) +
           "</td><td>" + num(tally.time_forfeits) + "</td><td>" + num(tally.illegal_moves) +
           "</td><td>" + num(tally.stalls) + "</td><td>" + num(tally.restarts) + "</td></tr>";
  return out + "</tbody></table></section>\n";
}

// "0-1", "100-200", "0.5-1s", "5-10s", ">=10s": milliseconds, seconds from 500 ms on, short
// enough to sit under a bar.
std::string time_bin_label(std::size_t bin) {
  const std::int64_t low = kMoveTimeBinEdges[bin];
  if (bin + 1 == kMoveTimeBinEdges.size())
    return ">=" + num(static_cast<double>(low) / 1000, 0) + "s";
  const std::int64_t high = kMoveTimeBinEdges[bin + 1];
  if (low < 500) return std::to_string(low) + "-" + std::to_string(high);
  const auto seconds = [](std::int64_t ms) {
    return num(static_cast<double>(ms) / 1000, ms % 1000 == 0 ? 0 : 1);
  };
  return seconds(low) + "-" + seconds(high) + "s";
}

std::string move_times_section(const TournamentConfig& config, const ReportHistory& history) {
  std::string out =
      "<section id=\"move-times\"><h2>Time per move</h2>\n<p class=\"note\">The "
      "wall-clock time of each reply as the arena measured it";
  if (history.earlier_games > 0)
    out += ", of the games this run played: the " + num(history.earlier_games) +
           " games of the earlier run were read back from the results file, which does not keep "
           "the moves, so their move times are not shown";
  out +=
      ".</p>\n<table class=\"move-times\"><thead><tr><th>Engine</th><th>Moves</th><th>Mean "
      "(ms)</th><th>Max (ms)</th></tr></thead><tbody>";
  for (std::size_t e = 0; e < config.engines.size() && e < history.move_times.size(); ++e) {
    const MoveTimes& times = history.move_times[e];
    out += "<tr" + attribute("data-engine", config.engines[e].name) +
           attribute("data-moves", num(times.moves)) + "><td class=\"name\">" +
           engine_name(config, e) + "</td><td>" + num(times.moves) + "</td><td>" +
           (times.moves > 0
                ? num(static_cast<double>(times.total_ms) / static_cast<double>(times.moves), 1)
                : std::string("-")) +
           "</td><td>" + (times.moves > 0 ? num(times.max_ms) : std::string("-")) + "</td></tr>";
  }
  out += "</tbody></table>\n<div class=\"charts\">";
  std::vector<std::string> labels;
  for (std::size_t bin = 0; bin < kMoveTimeBinEdges.size(); ++bin)
    labels.push_back(time_bin_label(bin));
  for (std::size_t e = 0; e < config.engines.size() && e < history.move_times.size(); ++e) {
    const MoveTimes& times = history.move_times[e];
    out +=
        "<figure class=\"move-time\"" + attribute("data-engine", config.engines[e].name) + ">" +
        svg::category_chart(labels, std::vector<std::int64_t>(times.bins.begin(), times.bins.end()),
                            "move-times", config.engines[e].name + ": moves by reply time",
                            "reply time (ms, s where marked)", 34) +
        "<figcaption>" + engine_name(config, e) + ": " + num(times.moves) +
        " moves by reply time</figcaption></figure>";
  }
  return out + "</div></section>\n";
}

// No '<' or '&' in here: the page stays well-formed XML too.
constexpr std::string_view kStyle = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fff; max-width: 1500px; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }
h3 { font-size: 1em; margin: 1em 0 0.3em; }
.note, .settings, footer { color: #555; font-size: 0.9em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f2f2f2; }
td.name, th.name { text-align: left; }
td.none { color: #aaa; text-align: center; }
td.ahead { background: #e3f2e1; }
td.behind { background: #f8e1e0; }
td.even { background: #f4f4f4; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
figure { margin: 0; width: min-content; }
figcaption { font-size: 0.8em; color: #555; }
.bar-label { font-size: 10px; }
svg.chart { background: #fcfcfc; border: 1px solid #e4e4e4; }
svg text { font-size: 11px; fill: #333; }
.grid { stroke: #e6e6e6; }
.axis, .tick { stroke: #888; }
.zero { stroke: #999; stroke-dasharray: 2 2; }
.bar { fill: #4a7fb5; }
.pentanomial .bar { fill: #7a5cb5; }
.endings .bar { fill: #b5874a; }
.move-times .bar { fill: #4aa58a; }
.llr { fill: none; stroke: #c0392b; stroke-width: 2; }
.bound { stroke: #555; stroke-dasharray: 5 3; }
.elo { fill: none; stroke: #1f5f99; stroke-width: 2; }
.elo-band { fill: #1f5f99; fill-opacity: 0.18; stroke: none; }
.error-bar { stroke: #1f5f99; stroke-width: 4; stroke-linecap: round; }
.rating { fill: #c0392b; }
.warnings li { color: #8a4b00; }
)";

}  // namespace

void MoveTimes::add(std::int64_t ms) {
  ms = std::max<std::int64_t>(0, ms);
  ++moves;
  total_ms += ms;
  max_ms = std::max(max_ms, ms);
  const auto above = std::upper_bound(kMoveTimeBinEdges.begin(), kMoveTimeBinEdges.end(), ms);
  ++bins[static_cast<std::size_t>(above - kMoveTimeBinEdges.begin()) - 1];
}

ReportHistory::ReportHistory(const TournamentConfig& config, const Standings& standings)
    : pairings(standings.pairings.size()), move_times(config.engines.size()) {}

void ReportHistory::add_game(const FinishedGame& game, const Standings& after) {
  plies.push_back(game.plies);
  for (std::size_t p = 0; p < after.pairings.size(); ++p) {
    const PairingTally& pairing = after.pairings[p];
    if (!((pairing.first == game.x && pairing.second == game.o) ||
          (pairing.first == game.o && pairing.second == game.x)))
      continue;
    if (p >= pairings.size()) pairings.resize(p + 1);
    PairingPoint point;
    point.games = pairing.results.games();
    if (pairing.pairs.pairs() == 0) {
      // estimate_elo says Elo 0 +- infinity here; the chart has nothing to show yet.
      point.elo = point.elo_lower = point.elo_upper = std::numeric_limits<double>::quiet_NaN();
    } else {
      const EloEstimate estimate = estimate_elo(pairing.pairs);
      point.elo = estimate.elo;
      point.elo_lower = estimate.elo_lower;
      point.elo_upper = estimate.elo_upper;
    }
    // A match's SPRT is the standings' (with --shared-dir, of every shard's games); a gauntlet
    // SPRT's is the pairing's own. Before its first pair the runner has not computed it: that
    // LLR is 0, the LLR of no games.
    const bool match = after.pairings.size() == 1;
    const std::optional<SprtResult>& test = match ? after.sprt : pairing.sprt;
    const std::string& error = match ? after.sprt_error : pairing.sprt_error;
    if (test)
      point.llr = test->llr;
    else if (error.empty() && pairing.pairs.pairs() == 0)
      point.llr = 0.0;
    pairings[p].push_back(point);
    return;
  }
}

void ReportHistory::add_moves(const FinishedGame& game, const GameRecord& record) {
  Color mover = Color::X;
  try {
    Game position = Game::parse(record.start_position);
    for (const std::string& move : record.opening_moves) position.play(move);
    mover = position.team_to_move();
  } catch (const std::exception&) {
    return;  // not a record the game loop wrote; its times cannot be given to an engine
  }
  for (const MoveRecord& move : record.moves) {
    const std::size_t engine = mover == Color::X ? game.x : game.o;
    if (engine < move_times.size()) move_times[engine].add(move.time_ms);
    mover = mover == Color::X ? Color::O : Color::X;
  }
}

void ReportHistory::add_warning(const std::string& text) {
  warnings.push_back(text);
  if (warnings.size() > kMaxWarnings) warnings.erase(warnings.begin());
}

ReportHistory replay_history(const TournamentConfig& config,
                             const std::vector<FinishedGame>& games) {
  StandingsTally tally(config);
  ReportHistory history(config, tally.standings());
  for (const FinishedGame& game : games) {
    tally.add(game);
    history.add_game(game, tally.standings());
  }
  history.earlier_games = static_cast<std::int64_t>(games.size());
  return history;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string build_html_report(const TournamentConfig& config, const Standings& standings,
                              const ReportHistory& history, const HtmlPageState& state) {
  const std::optional<Ratings> ratings = rate_engines(config, standings);
  const std::vector<std::size_t> order = rank_order(standings, ratings);
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\n";
  if (!state.end && state.refresh_seconds > 0)
    page += "<meta http-equiv=\"refresh\"" +
            attribute("content", std::to_string(state.refresh_seconds)) + "/>\n";
  page += "<title>" + html_escape(config.event) + ": " + num(standings.games) + " of " +
          num(standings.total_games) + " games</title>\n<style>" + std::string(kStyle) +
          "</style></head>\n<body>\n";
  page += header(config, standings, history, state);
  page += ratings_section(config, standings, ratings, order);
  page += crosstable_section(standings, order);
  page += pairing_section(config, standings, history);
  page += games_section(standings, history);
  page += move_times_section(config, history);
  if (!history.warnings.empty()) {
    page += "<section id=\"warnings\"><h2>Warnings</h2><ul class=\"warnings\">";
    for (const std::string& warning : history.warnings)
      page += "<li>" + html_escape(warning) + "</li>";
    page += "</ul></section>\n";
  }
  page += "<footer>Written by quixo-arena" +
          (state.updated.empty() ? std::string() : " at " + html_escape(state.updated)) +
          ".</footer>\n</body></html>\n";
  return page;
}

namespace {

class HtmlReport : public ReportSink {
 public:
  HtmlReport(std::string path, const HtmlReportOptions& options)
      : path_(std::move(path)), options_(options) {
    if (path_.empty()) throw TournamentError("--report-html needs a file");
    std::error_code error;
    if (std::filesystem::is_directory(path_, error))
      throw TournamentError("--report-html " + path_ + " is a folder, not a file");
    // Fail before the tournament starts, not after its first game, when the page cannot be
    // written where it is asked for. The folder is asked, not tried with a file: the temporary
    // file may be another run's, which the run's lock (output_files.hpp) then refuses.
    const std::string probe = temporary_path();
    const std::filesystem::path folder = std::filesystem::path(path_).parent_path();
    if (::access(folder.empty() ? "." : folder.c_str(), W_OK) != 0)
      throw TournamentError("--report-html " + path_ + ": cannot write " + probe + " (" +
                            std::strerror(errno) + ")");
  }

  void tournament_started(const TournamentConfig& config, const Standings& standings) override {
    history_.emplace(config, standings);
    if (standings.games > 0 && !config.results_path.empty()) {
      // --resume: the earlier run's games, in the order they finished, for the charts over the
      // games. The runner has just read the same file, so this only fails should it change now.
      try {
        history_ = replay_history(config, read_results_file(config.results_path));
      } catch (const std::exception& error) {
        history_->add_warning(std::string("the page cannot show the earlier run's games: ") +
                              error.what());
      }
    }
    for (const std::string& warning : early_warnings_) history_->add_warning(warning);
    write(config, standings, std::nullopt);
  }

  void game_started(const TournamentConfig&, const ScheduledGame&) override {}

  void game_recorded(const TournamentConfig&, const FinishedGame& game,
                     const GameRecord& record) override {
    if (history_) history_->add_moves(game, record);
  }

  void game_finished(const TournamentConfig& config, const FinishedGame& game,
                     const Standings& standings) override {
    if (!history_) history_.emplace(config, standings);
    history_->add_game(game, standings);
    if (std::chrono::steady_clock::now() - last_write_ >= options_.min_interval)
      write(config, standings, std::nullopt);
  }

  void interval_report(const TournamentConfig&, const Standings&) override {}

  void tournament_finished(const TournamentConfig& config, const Standings& standings,
                           TournamentEnd end) override {
    if (!history_) history_.emplace(config, standings);
    write(config, standings, end);
  }

  void warning(const std::string& text) override {
    if (history_)
      history_->add_warning(text);
    else
      early_warnings_.push_back(text);
  }

  void tablebase_loaded(const TournamentConfig&, const std::string& layers) override {
    if (history_) history_->tablebases = layers;
  }

 private:
  [[nodiscard]] std::string temporary_path() const { return path_ + ".tmp"; }

  // Whole or not at all (file_io.hpp): a browser that reloads it meanwhile reads the old page or
  // the new one, never half of one.
  void write(const TournamentConfig& config, const Standings& standings,
             std::optional<TournamentEnd> end) {
    HtmlPageState state;
    state.refresh_seconds = options_.refresh_seconds;
    state.end = end;
    state.updated = utc_text(std::chrono::system_clock::now(), "%Y-%m-%d %H:%M:%S UTC");
    try {
      replace_file(path_, build_html_report(config, standings, *history_, state));
    } catch (const std::runtime_error& error) {
      throw TournamentError(std::string("--report-html: ") + error.what());
    }
    last_write_ = std::chrono::steady_clock::now();
  }

  std::string path_;
  HtmlReportOptions options_;
  std::optional<ReportHistory> history_;
  std::vector<std::string> early_warnings_;
  std::chrono::steady_clock::time_point last_write_{};
};

}  // namespace

std::unique_ptr<ReportSink> make_html_report(const std::string& path,
                                             const HtmlReportOptions& options) {
  return std::make_unique<HtmlReport>(path, options);
}

}  // namespace quixo::arena
