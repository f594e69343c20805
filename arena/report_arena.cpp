#include "report_arena.hpp"

#include <algorithm>
#include <numeric>
#include <ostream>
#include <sstream>

#include "report_text.hpp"
#include "schedule.hpp"
#include "shard_exchange.hpp"
#include "standings.hpp"

namespace quixo::arena {
namespace {

constexpr std::string_view kRule =
    "--------------------------------------------------------------------------------\n";

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
  if (test && match && standings.shared_decision)
    return format_sprt(*test, *config.sprt) + " (" +
           describe_shared_decision(*standings.shared_decision) + ")";
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
  out << "LOS: " << format_percent(penta.los, 2)
      << ", DrawRatio: " << format_percent(penta.draw_ratio, 2)
      << ", PairsRatio: " << pairs_ratio(pairing.pairs) << "\n";
  out << "Games: " << games.games() << ", Wins: " << games.wins << ", Losses: " << games.losses
      << ", Draws: " << games.draws << ", Points: " << format_fixed(games.points(), 1) << " ("
      << (games.games() > 0 ? format_percent(games.points() / static_cast<double>(games.games()), 2)
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

}  // namespace

std::unique_ptr<ReportSink> make_arena_report(std::ostream& out, bool live) {
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

}  // namespace quixo::arena
