#include "report_fastchess.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>

#include "core/text_helpers.hpp"
#include "report_text.hpp"
#include "standings.hpp"

namespace quixo::arena {
namespace {

// fmt's "{}" of a double: the shortest text that reads back as the same number.
std::string shortest(double value) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

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

// fastchess's getThreads/getHash: the engine's option value with a unit, the value the user set
// (option.NAME=VALUE), else the default the engine declares; "NULL" without either.
std::string option_text(const EngineConfig& engine, const std::string& name,
                        const std::string& unit) {
  const auto same = [&](const std::string& option) {
    return text_helpers::to_lower(option) == text_helpers::to_lower(name);
  };
  for (const auto& [option, value] : engine.options)
    if (same(option)) return value + unit;
  for (const auto& [option, value] : engine.declared_defaults)
    if (same(option)) return value + unit;
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

// fastchess's lines (--output fastchess): app/src/matchmaking/output/output_fastchess.hpp, the
// round robin's end (tournament/roundrobin/roundrobin.cpp), the timeout tracker
// (tournament/base/tournament.cpp) and main.cpp.
class FastchessReport : public GameLineReport {
 public:
  explicit FastchessReport(std::ostream& out)
      : GameLineReport(out), started_(std::chrono::steady_clock::now()) {}

  // fastchess's score line (printResult) prints nothing in its own output.
  void game_finished(const TournamentConfig& config, const FinishedGame& game,
                     const Standings&) override {
    print(finished_game_line(config, game) + "\n");
  }

  void interval_report(const TournamentConfig& config, const Standings& standings) override {
    print(fastchess_results(config, standings));
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
    // fastchess adds how to resume (its own -config file); ours is --resume with the results.
    if (end == TournamentEnd::Interrupted)
      out_ << "Tournament was interrupted. "
           << (config.results_path.empty()
                   ? std::string("Its games were not kept (no --results), so it cannot be resumed.")
                   : "Its games are kept in " + config.results_path +
                         ": to play the rest, run the same command again with --resume.")
           << "\n";
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
  void warning(const std::string& text) override { print("Warning; " + text + "\n"); }

 private:
  std::chrono::steady_clock::time_point started_;
};

}  // namespace

std::unique_ptr<ReportSink> make_fastchess_report(std::ostream& out) {
  return std::make_unique<FastchessReport>(out);
}

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

}  // namespace quixo::arena
