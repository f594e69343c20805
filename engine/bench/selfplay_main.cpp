// quixo-selfplay: a fixed-budget self-play match between the engine as it plays (A, its default
// search features) and the same engine with some features switched off or on (B), e.g.
// `--off late_move_reductions`. A positive Elo is what A's settings gain over B's.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench/selfplay.hpp"

namespace {

// The switchable features by their command-line name.
bool* feature_by_name(quixo::SearchFeatures& features, const std::string& name) {
  if (name == "aspiration_windows") return &features.aspiration_windows;
  if (name == "threat_extension") return &features.threat_extension;
  if (name == "killers_and_history") return &features.killers_and_history;
  if (name == "late_move_reductions") return &features.late_move_reductions;
  if (name == "parry_threats") return &features.parry_threats;
  if (name == "symmetric_table") return &features.symmetric_table;
  return nullptr;
}

std::string pentanomial_text(const std::array<int, 5>& counts) {
  std::string text = "[";
  for (std::size_t i = 0; i < counts.size(); ++i)
    text += (i ? ", " : "") + std::to_string(counts[i]);
  return text + "]";
}

void print_progress(int pairs_done, int pairs_total, const quixo::MatchResult& totals) {
  const quixo::MatchStatistics stats = quixo::match_statistics(totals.pentanomial);
  std::printf("[%3d/%d pairs] A +%d -%d =%d  penta %s  score %.1f%%  Elo %+.1f [%+.1f, %+.1f]\n",
              pairs_done, pairs_total, totals.wins_a, totals.losses_a, totals.draws,
              pentanomial_text(totals.pentanomial).c_str(), 100 * stats.score, stats.elo,
              stats.elo_low, stats.elo_high);
  std::fflush(stdout);
}

void print_report(const quixo::MatchConfig& config, const quixo::MatchResult& result,
                  double seconds) {
  const quixo::MatchStatistics stats = quixo::match_statistics(result.pentanomial);
  int ends[5] = {0, 0, 0, 0, 0};
  long plies = 0;
  for (const quixo::GameRecord& game : result.games) {
    ++ends[int(game.end)];
    plies += game.plies();
  }
  const int games = int(result.games.size());
  std::printf("\nFinal report: A = %s, B = %s\n", config.name_a.c_str(), config.name_b.c_str());
  std::printf("Games       : %d  A: W %d  L %d  D %d\n", games, result.wins_a, result.losses_a,
              result.draws);
  std::printf("Pentanomial : %s  (pairs in which A scored 0, 0.5, 1, 1.5, 2)\n",
              pentanomial_text(result.pentanomial).c_str());
  std::printf("Score       : %.2f%% +/- %.2f%% (standard error)\n", 100 * stats.score,
              100 * stats.score_error);
  std::printf("Elo (A - B) : %+.1f +/- %.1f  (95%% interval [%+.1f, %+.1f])\n", stats.elo,
              (stats.elo_high - stats.elo_low) / 2, stats.elo_low, stats.elo_high);
  std::printf("LOS         : %.1f%%\n", 100 * stats.los);
  std::printf("Endings     : line %d, repetition %d, ply cap %d, illegal move %d\n",
              ends[int(quixo::GameEnd::Line)], ends[int(quixo::GameEnd::Repetition)],
              ends[int(quixo::GameEnd::PlyCap)], ends[int(quixo::GameEnd::IllegalMove)]);
  std::printf("Game length : %.1f plies on average\n", games ? double(plies) / games : 0.0);
  std::printf("Time        : %.1f s\n", seconds);
}

}  // namespace

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  quixo::MatchConfig config;
  int hash_mb = 16;
  std::vector<std::string> off, on;
  po::options_description options(
      "quixo-selfplay: engine A (default search features) against engine B (A with the --off "
      "features switched off and the --on ones on), at a fixed budget per move.\nOptions");
  options.add_options()("help,h", "show this help")(
      "movetime", po::value(&config.move_time_ms)->default_value(0),
      "time per move in ms (0: none; use with --nodes 0)")(
      "nodes", po::value(&config.nodes_per_move)->default_value(20000),
      "node limit per move (0: none)")("depth", po::value(&config.depth_per_move)->default_value(0),
                                       "depth limit per move (0: none)")(
      "pairs", po::value(&config.game_pairs)->default_value(100),
      "openings, each played with both colours")("opening-plies",
                                                 po::value(&config.opening_plies)->default_value(6),
                                                 "random plies of each opening")(
      "seed", po::value(&config.seed)->default_value(1), "seed of the openings")(
      "concurrency", po::value(&config.concurrency)->default_value(2), "games at a time")(
      "hash", po::value(&hash_mb)->default_value(16), "table size of each engine in MB")(
      "max-plies", po::value(&config.max_plies)->default_value(200),
      "ply cap of a game (a draw), opening included")(
      "off", po::value(&off)->composing(),
      "switch this feature off in B (repeatable): aspiration_windows, threat_extension, "
      "killers_and_history, late_move_reductions, parry_threats, symmetric_table")(
      "on", po::value(&on)->composing(), "switch this feature on in B (repeatable)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "quixo-selfplay: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << options;
    return 0;
  }
  if (config.nodes_per_move == 0 && config.depth_per_move <= 0 && config.move_time_ms <= 0) {
    std::cerr << "quixo-selfplay: give a node, depth or time limit per move\n";
    return 2;
  }

  config.a.hash_mb = hash_mb;
  config.b = config.a;
  config.name_a = "default features";
  config.name_b = "default features";
  for (const auto& [names, value] : {std::pair{off, false}, std::pair{on, true}}) {
    for (const std::string& name : names) {
      bool* feature = feature_by_name(config.b.features, name);
      if (!feature) {
        std::cerr << "quixo-selfplay: unknown feature '" << name << "'\n";
        return 2;
      }
      *feature = value;
      config.name_b += (value ? " +" : " -") + name;
    }
  }

  std::printf(
      "A = %s, B = %s; %d pairs, %llu nodes/move, depth %d, %d opening plies, seed %u, "
      "concurrency %d, hash %d MB\n",
      config.name_a.c_str(), config.name_b.c_str(), config.game_pairs,
      static_cast<unsigned long long>(config.nodes_per_move), config.depth_per_move,
      config.opening_plies, config.seed, config.concurrency, hash_mb);
  std::fflush(stdout);
  const auto start = std::chrono::steady_clock::now();
  try {
    const quixo::MatchResult result =
        quixo::play_match(config, [&](int pairs_done, const quixo::MatchResult& totals) {
          if (pairs_done % 10 == 0 || pairs_done == config.game_pairs)
            print_progress(pairs_done, config.game_pairs, totals);
        });
    print_report(config, result,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } catch (const std::exception& e) {
    std::cerr << "quixo-selfplay: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
