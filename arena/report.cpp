#include "report.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <ostream>
#include <sstream>

#include "schedule.hpp"
#include "standings.hpp"

namespace quixo::arena {
namespace {

constexpr std::string_view kRule =
    "--------------------------------------------------------------------------------\n";

std::string percent(double fraction) {
  return format_fixed(100.0 * fraction, 2) + " %";
}

std::string pad(std::string text, std::size_t width, bool left = false) {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return left ? text + fill : fill + text;
}

// fastchess's pairs ratio: pairs won (WW, WD) over pairs lost (LL, LD).
std::string pairs_ratio(const Pentanomial& pairs) {
  const auto won = pairs.counts[3] + pairs.counts[4];
  const auto lost = pairs.counts[0] + pairs.counts[1];
  if (lost == 0) return won == 0 ? "-" : "inf";
  return format_fixed(static_cast<double>(won) / static_cast<double>(lost), 2);
}

// The SPRT's line, or why there is no LLR (a statistics failure, after which the games go on):
// a match's (with --shared-dir, of all shards' games), or in a gauntlet SPRT the pairing's own.
std::string sprt_line(const TournamentConfig& config, const Standings& standings,
                      const PairingTally& pairing) {
  const bool match = standings.pairings.size() == 1;
  const std::optional<SprtResult>& test = match ? standings.sprt : pairing.sprt;
  if (test)
    return format_sprt(*test, *config.sprt) +
           (match && standings.sprt_shards > 0
                ? " (" + std::to_string(standings.sprt_shards) + " shards' games)"
                : std::string());
  return "LLR: unavailable (" + (match ? standings.sprt_error : pairing.sprt_error) + ")";
}

std::string pairing_report(const TournamentConfig& config, const Standings& standings,
                           const PairingTally& pairing) {
  const std::string& first = standings.engines[pairing.first].name;
  const std::string& second = standings.engines[pairing.second].name;
  const Trinomial& games = pairing.results;
  const EloEstimate penta = estimate_elo(pairing.pairs);
  const EloEstimate tri = estimate_elo(games);
  std::ostringstream out;
  const std::string first_control =
      config.engines[pairing.first].time_control.value_or(config.time_control).to_string();
  const std::string second_control =
      config.engines[pairing.second].time_control.value_or(config.time_control).to_string();
  out << "Results of " << first << " vs " << second << " (" << first_control;
  if (second_control != first_control) out << " vs " << second_control;
  if (!config.openings_source.empty()) out << ", " << config.openings_source;
  out << "):\n";
  out << "Elo: " << format_fixed(penta.elo, 2) << " +/- " << format_fixed(penta.elo_error, 2)
      << ", nElo: " << format_fixed(penta.nelo, 2) << " +/- " << format_fixed(penta.nelo_error, 2)
      << "\n";
  out << "LOS: " << percent(penta.los) << ", DrawRatio: " << percent(penta.draw_ratio)
      << ", PairsRatio: " << pairs_ratio(pairing.pairs) << "\n";
  out << "Games: " << games.games() << ", Wins: " << games.wins << ", Losses: " << games.losses
      << ", Draws: " << games.draws << ", Points: " << format_fixed(games.points(), 1) << " ("
      << (games.games() > 0 ? percent(games.points() / static_cast<double>(games.games()))
                            : std::string("-"))
      << ")\n";
  const auto& c = pairing.pairs.counts;
  out << "Ptnml(0-2): [" << c[0] << ", " << c[1] << ", " << c[2] << ", " << c[3] << ", " << c[4]
      << "], Trinomial Elo: " << format_fixed(tri.elo, 2) << " +/- "
      << format_fixed(tri.elo_error, 2) << "\n";
  if (config.sprt) out << sprt_line(config, standings, pairing) << "\n";
  return out.str();
}

std::string ranking_table(const TournamentConfig& config, const Standings& standings) {
  const std::optional<Ratings> ratings = rate_engines(config, standings);
  std::ostringstream out;
  if (!ratings) {
    out << "Ratings: not yet (the engines are not all connected by games)\n";
    return out.str();
  }
  std::vector<std::size_t> order(standings.engines.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return ratings->elo[a] > ratings->elo[b]; });
  std::size_t name_width = 4;
  for (const EngineTally& tally : standings.engines)
    name_width = std::max(name_width, tally.name.size());
  out << "Rank " << pad("Name", name_width, true) << "      Elo    +/-  Games  Score   Draw"
      << "  LOS(next)\n";
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const std::size_t i = order[rank];
    const Trinomial& results = standings.engines[i].results;
    const double games = static_cast<double>(results.games());
    out << pad(std::to_string(rank + 1), 4) << ' '
        << pad(standings.engines[i].name, name_width, true)
        << pad(format_fixed(ratings->elo[i], 1), 9)
        << pad(format_fixed(1.959964 * ratings->error[i], 1), 7)
        << pad(std::to_string(results.games()), 7)
        << pad(games > 0 ? format_fixed(100.0 * results.points() / games, 1) + "%" : "-", 7)
        << pad(games > 0 ? format_fixed(100.0 * static_cast<double>(results.draws) / games, 1) + "%"
                         : "-",
               7);
    if (rank + 1 < order.size())
      out << pad(format_fixed(100.0 * ratings->los[i][order[rank + 1]], 1) + "%", 11);
    out << "\n";
  }
  if (!ratings->converged) out << "(ratings use one virtual draw per pairing as a prior)\n";
  // The likelihood of superiority of every engine (row) over every other (column), in rank
  // order, as Ordo's LOS matrix.
  const std::size_t width = std::max<std::size_t>(7, name_width + 1);
  out << pad("LOS", name_width, true);
  for (const std::size_t column : order) out << pad(standings.engines[column].name, width);
  out << "\n";
  for (const std::size_t row : order) {
    out << pad(standings.engines[row].name, name_width, true);
    for (const std::size_t column : order)
      out << pad(
          row == column ? std::string("-") : format_fixed(100.0 * ratings->los[row][column], 1),
          width);
    out << "\n";
  }
  return out.str();
}

// A knockout's bracket, a line per match: "Round 1: A 2.5 - 1.5 B, A goes on".
std::string knockout_bracket_text(const TournamentConfig& config, const Standings& standings) {
  std::ostringstream out;
  out << "Knockout:\n";
  const auto name = [&](std::size_t engine) { return config.engines[engine].name; };
  for (const std::vector<KnockoutMatch>& round : standings.bracket)
    for (const KnockoutMatch& match : round) {
      out << "Round " << match.round + 1 << ": ";
      if (!match.second) {
        out << name(match.first) << " has a bye\n";
        continue;
      }
      out << name(match.first) << " " << format_fixed(match.first_points, 1) << " - "
          << format_fixed(match.second_points, 1) << " " << name(*match.second);
      if (match.by_seed)
        out << ", still tied after " << match.games << " games: " << name(*match.winner)
            << " goes on as the higher seed\n";
      else if (match.winner)
        out << ", " << name(*match.winner) << " goes on\n";
      else
        out << (match.scheduled_games > 0 ? ", playing\n" : ", to play\n");
    }
  const std::vector<KnockoutMatch>& last = standings.bracket.back();
  if (last.size() == 1 && last.front().winner)
    out << "Knockout winner: " << name(*last.front().winner) << "\n";
  return out.str();
}

// The two sides of a game for a report line: "x vs o", and in the four-player game the teams,
// "A: x vs B: o" (the seats of team A are 1 and 3).
std::string sides(const TournamentConfig& config, std::size_t x, std::size_t o) {
  const std::string& x_name = config.engines[x].name;
  const std::string& o_name = config.engines[o].name;
  if (config.variant == Variant::FourPlayer) return "A: " + x_name + " vs B: " + o_name;
  return x_name + " vs " + o_name;
}

// The arena's own report (--output arena).
class ArenaReport : public ReportSink {
 public:
  ArenaReport(std::ostream& out, bool live) : out_(out), live_(live) {}

  void tournament_started(const TournamentConfig& config, const Standings& standings) override {
    out_ << "Tournament: " << format_name(config.format) << ", " << config.engines.size()
         << " engines, " << config.rounds << " round" << (config.rounds == 1 ? "" : "s") << ", "
         << standings.total_games << " games";
    if (config.variant == Variant::FourPlayer)
      out_ << " of the four-player game (team A seats 1 and 3, team B seats 2 and 4, "
           << (config.seating == Seating::PerSeat ? "a process per seat" : "a process per team")
           << ")";
    // The engines' time controls: the common one, or each engine's when they differ.
    std::vector<std::string> controls;
    for (const EngineConfig& engine : config.engines)
      controls.push_back(engine.time_control.value_or(config.time_control).to_string());
    const bool common = std::all_of(controls.begin(), controls.end(),
                                    [&](const auto& c) { return c == controls[0]; });
    out_ << ", " << (common ? "time control " + controls.front() : "time control per engine");
    if (config.time_control.margin_ms() > 0)
      out_ << " (margin " << config.time_control.margin_ms() << " ms)";
    out_ << ", concurrency " << config.concurrency << "\n";
    if (!common) {
      out_ << "Time controls:";
      for (std::size_t i = 0; i < controls.size(); ++i)
        out_ << (i == 0 ? " " : ", ") << config.engines[i].name << "=" << controls[i];
      out_ << "\n";
    }
    out_ << "Openings: "
         << (config.openings.empty()
                 ? std::string("the start position")
                 : config.openings_source + " (" + std::to_string(config.openings.size()) +
                       " positions, " +
                       (config.opening_order == OpeningOrder::Random ? "random" : "sequential") +
                       " order)")
         << "\n";
    if (standings.games > 0)
      out_ << "Resuming: " << standings.games << " of " << standings.total_games
           << " games already played\n";
    out_.flush();
  }

  void game_started(const TournamentConfig&, const ScheduledGame&) override {}

  void game_finished(const TournamentConfig& config, const FinishedGame& game,
                     const Standings& standings) override {
    print_line("Finished game " + std::to_string(game.id + 1) + " (" +
               sides(config, game.x, game.o) + "): " + std::string(result_text(game.result)) +
               " {" + game.reason + "}");
    // The live line: the score of the first pairing in a match, the leader otherwise.
    std::string progress;
    if (standings.pairings.size() == 1) {
      const PairingTally& pairing = standings.pairings.front();
      const Trinomial& r = pairing.results;
      progress =
          "Score of " + config.engines[pairing.first].name + " vs " +
          config.engines[pairing.second].name + ": " + std::to_string(r.wins) + " - " +
          std::to_string(r.losses) + " - " + std::to_string(r.draws) + " [" +
          format_fixed(r.games() > 0 ? r.points() / static_cast<double>(r.games()) : 0.5, 3) +
          "] " + std::to_string(r.games());
      if (config.sprt) progress += "  " + sprt_line(config, standings, pairing);
    } else {
      progress = "Games: " + std::to_string(standings.games) + " of " +
                 std::to_string(standings.total_games);
    }
    if (live_) {
      out_ << progress << "\r";
      pending_live_ = true;
    } else {
      out_ << progress << "\n";
    }
    out_.flush();
  }

  void interval_report(const TournamentConfig& config, const Standings& standings) override {
    print_block(format_rating_report(config, standings));
  }

  void tournament_finished(const TournamentConfig& config, const Standings& standings,
                           TournamentEnd end) override {
    std::string text = format_rating_report(config, standings);
    text += format_incident_report(standings);
    const std::string played = std::to_string(standings.games) + " of " +
                               std::to_string(standings.total_games) + " games played";
    if (end == TournamentEnd::SprtUndecided)
      // Every game was played, but what the tournament was for is not done.
      text += "SPRT undecided after " + std::to_string(standings.games) +
              " games: the rounds ran out before a decision (" + played + ")\n";
    else
      text += "Tournament " + std::string(end_name(end)) + ": " + played + "\n";
    print_block(text);
  }

  void warning(const std::string& text) override { print_line("Warning: " + text); }

  void tablebase_loaded(const TournamentConfig& config, const std::string& layers) override {
    print_line("Tablebases: " + layers + " from " + config.tablebase_path +
               " (a game ends when it reaches them)");
  }

 private:
  void end_live_line() {
    if (pending_live_) out_ << "\n";
    pending_live_ = false;
  }
  void print_line(const std::string& line) {
    if (live_ && pending_live_) out_ << "\33[2K";  // clear the live line before overwriting it
    pending_live_ = false;
    out_ << line << "\n";
    out_.flush();
  }
  void print_block(const std::string& text) {
    end_live_line();
    out_ << kRule << text << kRule;
    out_.flush();
  }

  std::ostream& out_;
  bool live_;
  bool pending_live_ = false;
};

// --- Number formatting as the two programs do it -------------------------------------------------

// printf's "%.*f", as fastchess's fmt "{:.Nf}" prints too (a negative zero keeps its sign, NaN and
// infinity print as "nan"/"-nan" and "inf"/"-inf").
std::string c_fixed(double value, int decimals) {
  char text[400];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

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

// fmt's "{}" of a double: the shortest text that reads back as the same number.
std::string shortest(double value) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
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

// Games in the whole schedule (of every shard: game numbers are the tournament's).
std::int64_t scheduled_games(const TournamentConfig& config) {
  return 2 * static_cast<std::int64_t>(pairings_of(config).size()) *
         static_cast<std::int64_t>(config.rounds);
}

// The verbose result both programs print after "Finished game": "1-0 {X loses on time: ...}".
std::string verbose_result(const TournamentConfig& config, const FinishedGame& game) {
  return std::string(result_text(game.result)) + " {" + result_description(config.variant, game) +
         "}";
}

// --- fastchess's pair statistics ----------------------------------------------------------------

// fastchess counts a pairing's games by completed pairs (its scoreboard adds a pair once both
// games are in): the pentanomial, how many of its half-point pairs were a win and a loss, and the
// games they hold.
struct PairStats {
  Pentanomial pairs;
  std::int64_t win_loss = 0;

  Trinomial games() const {
    const auto& c = pairs.counts;
    Trinomial t;
    t.wins = 2 * c[4] + c[3] + win_loss;
    t.losses = 2 * c[0] + c[1] + win_loss;
    t.draws = c[1] + c[3] + 2 * (c[2] - win_loss);
    return t;
  }
  void add(const Pentanomial& more, std::int64_t more_win_loss) {
    for (std::size_t k = 0; k < 5; ++k) pairs.counts[k] += more.counts[k];
    win_loss += more_win_loss;
  }
};

PairStats pair_stats(const PairingTally& pairing) {
  return {pairing.pairs, pairing.win_loss_pairs};
}

// One engine's pairs against everybody, from its point of view (fastchess's getAllStats).
PairStats engine_pair_stats(const Standings& standings, std::size_t engine) {
  PairStats stats;
  for (const PairingTally& pairing : standings.pairings) {
    if (pairing.first == engine) stats.add(pairing.pairs, pairing.win_loss_pairs);
    if (pairing.second == engine) stats.add(pairing.pairs.reversed(), pairing.win_loss_pairs);
  }
  return stats;
}

// "[LL, LD, WL+DD, WD, WW]".
std::string ptnml(const Pentanomial& pairs) {
  const auto& c = pairs.counts;
  return "[" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) +
         ", " + std::to_string(c[3]) + ", " + std::to_string(c[4]) + "]";
}

// fastchess's getTime: "40/60+0.6", "10+0.1", "1.5/move", "8 plies", "1000 nodes", "" (none).
std::string fastchess_time(const TimeControl& control) {
  switch (control.kind()) {
    case TimeControl::Kind::Clock: {
      std::string text;
      if (control.moves_per_period() > 0) text += std::to_string(control.moves_per_period()) + "/";
      text += shortest(static_cast<double>(control.base_ms()) / 1000.0);
      if (control.increment_ms() > 0) {
        char increment[64];
        std::snprintf(increment, sizeof increment, "+%.2g",
                      static_cast<double>(control.increment_ms()) / 1000.0);
        text += increment;
      }
      return text;
    }
    case TimeControl::Kind::FixedTime:
      return shortest(static_cast<double>(control.move_time_ms()) / 1000.0) + "/move";
    case TimeControl::Kind::FixedDepth:
      return std::to_string(control.depth()) + " plies";
    case TimeControl::Kind::FixedNodes:
      return std::to_string(control.nodes()) + " nodes";
    case TimeControl::Kind::Infinite:
      break;
  }
  return "";
}

// One of the two engines' values, or "a - b" when they differ (fastchess's formatTimeControl,
// formatThreads, formatHash).
std::string one_or_both(const std::string& first, const std::string& second) {
  return first == second ? first : first + " - " + second;
}

// fastchess's getThreads/getHash: the engine's option value with a unit, "NULL" without the
// option. The arena knows the options it sets (the engine's `option.NAME=VALUE`), not the
// defaults an engine declares.
std::string option_text(const EngineConfig& engine, const std::string& name,
                        const std::string& unit) {
  for (const auto& [option, value] : engine.options)
    if (option == name) return value + unit;
  return "NULL";
}

std::string fastchess_sprt_line(const SprtResult& test, const SprtParameters& parameters) {
  const double fraction = test.llr >= 0 ? test.llr / test.upper : -test.llr / test.lower;
  return "LLR: " + c_fixed(test.llr, 2) + " (" + c_fixed(fraction * 100.0, 1) + "%) (" +
         c_fixed(test.lower, 2) + ", " + c_fixed(test.upper, 2) + ") [" +
         c_fixed(parameters.elo0, 2) + ", " + c_fixed(parameters.elo1, 2) + "]";
}

std::string fastchess_head_to_head(const TournamentConfig& config, const PairingTally& pairing) {
  const EngineConfig& first = config.engines[pairing.first];
  const EngineConfig& second = config.engines[pairing.second];
  const PairStats stats = pair_stats(pairing);
  const Trinomial games = stats.games();
  const FastchessElo elo = fastchess_elo(stats.pairs);
  const auto& c = stats.pairs.counts;
  const double pairs = static_cast<double>(stats.pairs.pairs());
  const double total = static_cast<double>(games.games());

  std::string book = config.openings_source;
  if (const std::size_t slash = book.find_last_of("/\\"); slash != std::string::npos)
    book = book.substr(slash + 1);
  std::string text =
      "Results of " + first.name + " vs " + second.name + " (" +
      one_or_both(fastchess_time(first.time_control.value_or(config.time_control)),
                  fastchess_time(second.time_control.value_or(config.time_control))) +
      ", " + one_or_both(option_text(first, "Threads", "t"), option_text(second, "Threads", "t")) +
      ", " + one_or_both(option_text(first, "Hash", "MB"), option_text(second, "Hash", "MB")) +
      (book.empty() ? "" : ", " + book) + "):\n";
  text += "Elo: " + c_fixed(elo.elo, 2) + " +/- " + c_fixed(elo.elo_error, 2) +
          ", nElo: " + c_fixed(elo.nelo, 2) + " +/- " + c_fixed(elo.nelo_error, 2) + "\n";
  // The ratios divide as fastchess does, so that 0/0 and x/0 print as it prints them.
  const double win_loss = static_cast<double>(stats.win_loss);
  const double draw_draw = static_cast<double>(c[2] - stats.win_loss);
  text += "LOS: " + c_fixed(elo.los * 100.0, 2) +
          " %, DrawRatio: " + c_fixed(static_cast<double>(c[2]) / pairs * 100.0, 2) +
          " %, PairsRatio: " +
          c_fixed(static_cast<double>(c[4] + c[3]) / static_cast<double>(c[1] + c[0]), 2) + "\n";
  text += "Games: " + std::to_string(games.games()) + ", Wins: " + std::to_string(games.wins) +
          ", Losses: " + std::to_string(games.losses) + ", Draws: " + std::to_string(games.draws) +
          ", Points: " + c_fixed(games.points(), 1) + " (" +
          c_fixed(games.points() / total * 100.0, 2) + " %)\n";
  text += "Ptnml(0-2): " + ptnml(stats.pairs) +
          ", WL/DD Ratio: " + c_fixed(win_loss / draw_draw, 2) + "\n";
  return text;
}

std::string fastchess_table(const TournamentConfig& config, const Standings& standings) {
  struct Row {
    std::size_t engine;
    PairStats stats;
    FastchessElo elo;
  };
  std::vector<Row> rows;
  std::size_t name_width = 25;
  for (std::size_t i = 0; i < standings.engines.size(); ++i) {
    const PairStats stats = engine_pair_stats(standings, i);
    rows.push_back({i, stats, fastchess_elo(stats.pairs)});
    name_width = std::max(name_width, config.engines[i].name.size());
  }
  // By Elo, an engine without one (NaN) last; ties keep the engines' order.
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return (!std::isnan(a.elo.elo) && std::isnan(b.elo.elo)) || a.elo.elo > b.elo.elo;
  });
  std::string text = pad("Rank", 4, true) + " " + pad("Name", name_width, true);
  for (const char* heading : {"Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw"})
    text += " " + pad(heading, 10);
  text += " " + pad("Ptnml(0-2)", 20) + "\n";
  int rank = 0;
  for (const Row& row : rows) {
    const Trinomial games = row.stats.games();
    const double pairs = static_cast<double>(row.stats.pairs.pairs());
    text += pad(std::to_string(++rank), 4) + " " +
            pad(config.engines[row.engine].name, name_width, true) + " " +
            pad(c_fixed(row.elo.elo, 2), 10) + " " + pad(c_fixed(row.elo.elo_error, 2), 10) + " " +
            pad(c_fixed(row.elo.nelo, 2), 10) + " " + pad(c_fixed(row.elo.nelo_error, 2), 10) +
            " " + pad(std::to_string(games.games()), 10) + " " +
            pad(c_fixed(games.points() / static_cast<double>(games.games()) * 100, 1), 9) + "% " +
            pad(c_fixed(static_cast<double>(row.stats.pairs.counts[2]) / pairs * 100.0, 1), 9) +
            "% " + pad(ptnml(row.stats.pairs), 20) + "\n";
  }
  return text;
}

// --- The sinks ----------------------------------------------------------------------------------

// cutechess-cli's lines (--output cutechess): projects/cli/src/enginematch.cpp and
// projects/lib/src/tournament.cpp.
class CutechessReport : public ReportSink {
 public:
  CutechessReport(std::ostream& out, std::ostream& err) : out_(out), err_(err) {}

  // cutechess prints nothing when a match starts (its tablebases neither).
  void tournament_started(const TournamentConfig&, const Standings&) override {}
  void tablebase_loaded(const TournamentConfig&, const std::string&) override {}

  void game_started(const TournamentConfig& config, const ScheduledGame& game) override {
    out_ << "Started game " << game.id + 1 << " of " << scheduled_games(config) << " ("
         << sides(config, game.x, game.o) << ")\n";
    out_.flush();
  }

  void game_finished(const TournamentConfig& config, const FinishedGame& game,
                     const Standings& standings) override {
    out_ << "Finished game " << game.id + 1 << " (" << sides(config, game.x, game.o)
         << "): " << verbose_result(config, game) << "\n";
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
    out_ << cutechess_results(config, standings);
    ranked_at_ = standings.games;
    out_.flush();
  }

  void tournament_finished(const TournamentConfig& config, const Standings& standings,
                           TournamentEnd) override {
    // The ranking, unless the rating interval printed it after the last game.
    if (ranked_at_ != standings.games) out_ << cutechess_results(config, standings);
    out_ << cutechess_outcomes(standings) << "Finished match\n";
    out_.flush();
  }

  // qWarning: on stderr, after "Warning: ".
  void warning(const std::string& text) override {
    err_ << "Warning: " << text << "\n";
    err_.flush();
  }

 private:
  std::ostream& out_;
  std::ostream& err_;
  std::int64_t ranked_at_ = -1;
};

// fastchess's lines (--output fastchess): app/src/matchmaking/output/output_fastchess.hpp, the
// round robin's end (tournament/roundrobin/roundrobin.cpp), the timeout tracker
// (tournament/base/tournament.cpp) and main.cpp.
class FastchessReport : public ReportSink {
 public:
  explicit FastchessReport(std::ostream& out)
      : out_(out), started_(std::chrono::steady_clock::now()) {}

  void tournament_started(const TournamentConfig&, const Standings&) override {}
  void tablebase_loaded(const TournamentConfig&, const std::string&) override {}

  void game_started(const TournamentConfig& config, const ScheduledGame& game) override {
    out_ << "Started game " << game.id + 1 << " of " << scheduled_games(config) << " ("
         << sides(config, game.x, game.o) << ")\n";
    out_.flush();
  }

  // fastchess's score line (printResult) prints nothing in its own output.
  void game_finished(const TournamentConfig& config, const FinishedGame& game,
                     const Standings&) override {
    out_ << "Finished game " << game.id + 1 << " (" << sides(config, game.x, game.o)
         << "): " << verbose_result(config, game) << "\n";
    out_.flush();
  }

  void interval_report(const TournamentConfig& config, const Standings& standings) override {
    out_ << fastchess_results(config, standings);
    out_.flush();
  }

  void tournament_finished(const TournamentConfig& config, const Standings& standings,
                           TournamentEnd end) override {
    // An interrupted tournament stops without the last rating block.
    if (end != TournamentEnd::Interrupted) out_ << fastchess_results(config, standings);
    if ((end == TournamentEnd::SprtAcceptedH0 || end == TournamentEnd::SprtAcceptedH1) &&
        config.sprt)
      out_ << "SPRT ([" << c_fixed(config.sprt->elo0, 2) << ", " << c_fixed(config.sprt->elo1, 2)
           << "]) completed - " << (end == TournamentEnd::SprtAcceptedH0 ? "H0" : "H1")
           << " was accepted\n";
    // The players that lost a game on time or by a crash or stall, with both counts.
    bool any = false;
    for (const EngineTally& tally : standings.engines) {
      if (tally.time_forfeits == 0 && tally.crashes + tally.stalls == 0) continue;
      if (!any) out_ << "\n";
      any = true;
      out_ << "Player: " << tally.name << "\n  Timeouts: " << tally.time_forfeits
           << "\n  Crashed: " << tally.crashes + tally.stalls << "\n";
    }
    if (any) out_ << "\n";
    if (end == TournamentEnd::Interrupted) out_ << "Tournament was interrupted.\n";
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::steady_clock::now() - started_)
                             .count();
    char elapsed[96];
    std::snprintf(elapsed, sizeof elapsed, "%02lld:%02lld:%02lld",
                  static_cast<long long>(seconds / 3600), static_cast<long long>(seconds / 60 % 60),
                  static_cast<long long>(seconds % 60));
    out_ << "Finished match\nTotal Time: " << elapsed << " (hours:minutes:seconds)\n\n";
    out_.flush();
  }

  // Logger::print<WARN>: on stdout, after "Warning; ".
  void warning(const std::string& text) override {
    out_ << "Warning; " << text << "\n";
    out_.flush();
  }

 private:
  std::ostream& out_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace

std::optional<ReportStyle> parse_report_style(std::string_view name) {
  if (name == "fastchess") return ReportStyle::Fastchess;
  if (name == "cutechess") return ReportStyle::Cutechess;
  if (name == "arena") return ReportStyle::Arena;
  return std::nullopt;
}

std::unique_ptr<ReportSink> make_text_report(std::ostream& out, std::ostream& err,
                                             ReportStyle style, bool live) {
  switch (style) {
    case ReportStyle::Cutechess:
      return std::make_unique<CutechessReport>(out, err);
    case ReportStyle::Fastchess:
      return std::make_unique<FastchessReport>(out);
    case ReportStyle::Arena:
      break;
  }
  return std::make_unique<ArenaReport>(out, live);
}

std::string format_rating_report(const TournamentConfig& config, const Standings& standings) {
  std::string text;
  for (const PairingTally& pairing : standings.pairings) {
    if (standings.pairings.size() > 1 && pairing.results.games() == 0) continue;
    text += pairing_report(config, standings, pairing);
    if (standings.pairings.size() > 1) text += "\n";
  }
  if (standings.engines.size() > 2) text += ranking_table(config, standings);
  if (!standings.bracket.empty()) text += knockout_bracket_text(config, standings);
  return text;
}

std::string format_incident_report(const Standings& standings) {
  std::size_t name_width = 6;
  for (const EngineTally& tally : standings.engines)
    name_width = std::max(name_width, tally.name.size());
  std::ostringstream out;
  out << pad("Engine", name_width, true) << "  Crashes  TimeLoss  Illegal  Stalls  Restarts\n";
  for (const EngineTally& tally : standings.engines)
    out << pad(tally.name, name_width, true) << pad(std::to_string(tally.crashes), 9)
        << pad(std::to_string(tally.time_forfeits), 10)
        << pad(std::to_string(tally.illegal_moves), 9) << pad(std::to_string(tally.stalls), 8)
        << pad(std::to_string(tally.restarts), 10) << "\n";
  out << "Endings:";
  bool any = false;
  for (std::size_t t = 0; t < standings.terminations.size(); ++t) {
    if (standings.terminations[t] == 0) continue;
    out << (any ? ", " : " ") << termination_name(static_cast<Termination>(t)) << " "
        << standings.terminations[t];
    any = true;
  }
  out << (any ? "\n" : " none\n");
  return out.str();
}

// --- cutechess-cli ------------------------------------------------------------------------------

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

// --- fastchess ----------------------------------------------------------------------------------

namespace {

// fastchess's EloBase figures from a sample's mean score and variance; `per_game` turns the
// sample variance into a game's (1 for games, 2 for pairs of games).
FastchessElo fastchess_figures(const EloEstimate& estimate, double per_game) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  if (estimate.samples <= 0) return {nan, nan, nan, nan, nan};
  const double z = normal_quantile(0.975);
  const double score = estimate.score;
  const double error = std::sqrt(estimate.variance / estimate.samples);
  const double upper = score + z * error;
  const double lower = score - z * error;
  const double sigma = std::sqrt(per_game * estimate.variance);
  const auto nelo = [&](double s) { return (s - 0.5) / sigma * kNeloPerT; };
  FastchessElo elo;
  elo.elo = score_to_elo(score);
  elo.elo_error = (score_to_elo(upper) - score_to_elo(lower)) / 2.0;
  elo.nelo = nelo(score);
  elo.nelo_error = (nelo(upper) - nelo(lower)) / 2.0;
  elo.los = (1 - std::erf(-(score - 0.5) / std::sqrt(2.0 * error * error))) / 2.0;
  return elo;
}

}  // namespace

FastchessElo fastchess_elo(const Trinomial& results) {
  return fastchess_figures(estimate_elo(results), 1.0);
}

FastchessElo fastchess_elo(const Pentanomial& results) {
  return fastchess_figures(estimate_elo(results), 2.0);
}

std::string fastchess_results(const TournamentConfig& config, const Standings& standings) {
  const std::string rule(50, '-');
  std::string text = rule + "\n";
  const bool match = standings.engines.size() == 2 && standings.pairings.size() == 1;
  text += match ? fastchess_head_to_head(config, standings.pairings.front())
                : fastchess_table(config, standings);
  if (config.sprt && match && standings.sprt)
    text += fastchess_sprt_line(*standings.sprt, *config.sprt) + "\n";
  else if (config.sprt)
    // A gauntlet SPRT, which fastchess does not have: a line per pairing, named.
    for (const PairingTally& pairing : standings.pairings)
      if (pairing.sprt)
        text += fastchess_sprt_line(*pairing.sprt, *config.sprt) + " (" +
                standings.engines[pairing.first].name + " vs " +
                standings.engines[pairing.second].name + ")\n";
  return text + rule + "\n";
}

std::string format_fixed(double value, int decimals) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // What rounds to zero prints as 0, not -0.
  if (std::fabs(value) < 0.5 * std::pow(10.0, -decimals)) value = 0.0;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace quixo::arena
