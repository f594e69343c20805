// What the tournament's suites share: a sink that records what it is told, scripted in-process
// engines chosen by name (seeded random legal moves, illegal moves) and a run with them, a small
// book, a two-engine configuration, an SPRT, and a scratch folder for the tournament's files.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/notation.hpp"
#include "support/scripted_engine.hpp"
#include "tournament.hpp"

namespace quixo::test {

using namespace quixo::arena;

// A sink that keeps what it is told, and can interrupt after some games.
class RecordingSink : public ReportSink {
 public:
  explicit RecordingSink(std::atomic<bool>* interrupt = nullptr, std::int64_t stop_after = -1)
      : interrupt_(interrupt), stop_after_(stop_after) {}
  void tournament_started(const TournamentConfig&, const Standings& standings) override {
    games_at_start = standings.games;
  }
  void game_started(const TournamentConfig&, const ScheduledGame&) override { ++started; }
  void game_finished(const TournamentConfig&, const FinishedGame& game,
                     const Standings& standings) override {
    finished_ids.push_back(game.id);
    if (interrupt_ && standings.games == stop_after_) *interrupt_ = true;
  }
  void interval_report(const TournamentConfig&, const Standings&) override { ++interval_reports; }
  void tournament_finished(const TournamentConfig&, const Standings&, TournamentEnd end) override {
    last_end = end;
  }
  void warning(const std::string& text) override { warnings.push_back(text); }
  void tablebase_loaded(const TournamentConfig&, const std::string& layers) override {
    tablebase_layers = layers;
  }

  std::int64_t games_at_start = -1;
  int started = 0;
  int interval_reports = 0;
  std::vector<int> finished_ids;
  std::vector<std::string> warnings;
  std::optional<std::string> tablebase_layers;
  std::optional<TournamentEnd> last_end;

 private:
  std::atomic<bool>* interrupt_;
  std::int64_t stop_after_;
};

// A pseudo-random legal move that depends only on the position and a seed, so that games vary
// from opening to opening but a replay gives the same game.
inline ScriptedPolicy seeded_moves(std::uint64_t seed) {
  return [seed](const Game& game, int) {
    const auto moves = game.legal_move_texts();
    // A full board without a border cube of the mover's (the tables' layers 0 and 1 have them).
    if (moves.empty()) return play("0000");
    std::uint64_t hash = seed * 0x9E3779B97F4A7C15ULL;
    for (const char c : game.text())
      hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
    return play(moves[hash % moves.size()]);
  };
}

inline ScriptedPolicy illegal_moves() {
  return [](const Game&, int) {
    ScriptedReply reply;
    reply.lines = {"bestmove c3c1"};
    return reply;
  };
}

// A finished game made by hand, for the suites that test what is made of games (standings,
// reports); game `id` is of round id / 2.
inline FinishedGame finished_game(int id, std::size_t x, std::size_t o, GameResult result,
                                  Termination termination, std::string reason, int plies = 0) {
  FinishedGame finished;
  finished.id = id;
  finished.round = id / 2;
  finished.x = x;
  finished.o = o;
  finished.result = result;
  finished.termination = termination;
  finished.reason = std::move(reason);
  finished.plies = plies;
  return finished;
}

// Every engine's process is scripted by its name.
inline ProcessLauncher launcher_by_name(std::map<std::string, ScriptedPolicy> policies) {
  return [policies](const ProcessSpec& spec) -> std::unique_ptr<EngineProcess> {
    return std::make_unique<ScriptedProcess>(policies.at(spec.command));
  };
}

inline EngineConfig engine(const std::string& name) {
  EngineConfig config;
  config.name = name;
  config.process.command = name;  // the launcher picks the script by it
  return config;
}

inline std::vector<Opening> small_book() {
  return {{std::string(kStartPosition), {"b1b5"}},
          {std::string(kStartPosition), {"a1e1", "e5a5"}},
          {"5/5/2x2/5/5 o", {}},
          {std::string(kStartPosition), {"c1c5"}}};
}

inline std::vector<Opening> small_book4() {
  return {{std::string(kStartPosition4), {"b1b5x"}},
          {std::string(kStartPosition4), {"a1e1X", "e5a5o"}},
          {"5/5/2X2/5/5 2", {}},
          {std::string(kStartPosition4), {}}};
}

inline TournamentConfig two_engine_config(int rounds) {
  TournamentConfig config;
  config.engines = {engine("seeded-1"), engine("seeded-2")};
  config.rounds = rounds;
  config.time_control = TimeControl::fixed_nodes(100);
  config.rules.max_plies = 40;
  config.rules.stall_timeout = std::chrono::milliseconds(200);
  config.openings = small_book();
  config.report_interval = 0;
  return config;
}

inline const std::map<std::string, ScriptedPolicy> kPolicies = {
    {"seeded-1", seeded_moves(1)},
    {"seeded-2", seeded_moves(2)},
    {"seeded-3", seeded_moves(3)},
    {"illegal", illegal_moves()},
};

// Plays `config` with engines scripted by name, telling `sink`; nothing but the sink (through
// its own flag) interrupts it.
inline TournamentOutcome play_scripted(
    const TournamentConfig& config, ReportSink& sink,
    const std::map<std::string, ScriptedPolicy>& policies = kPolicies) {
  std::atomic<bool> interrupt{false};
  return run_tournament(config, sink, interrupt, launcher_by_name(policies));
}

// Plays `config` as play_scripted() does, interrupted once `games` games are recorded (never with
// -1).
inline TournamentOutcome play_scripted_until(const TournamentConfig& config, std::int64_t games) {
  std::atomic<bool> interrupt{false};
  RecordingSink sink(&interrupt, games);
  return run_tournament(config, sink, interrupt, launcher_by_name(kPolicies));
}

// An SPRT between `elo0` and `elo1`, at the default error rates.
inline SprtParameters sprt_between(double elo0, double elo1, EloModel model = EloModel::Logistic) {
  SprtParameters sprt;
  sprt.elo0 = elo0;
  sprt.elo1 = elo1;
  sprt.model = model;
  return sprt;
}

// A scratch folder, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int counter = 0;
    path =
        std::filesystem::temp_directory_path() /
        ("quixo-tournament-tests-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

// The tournament's PGN and results file, both in `dir`.
inline void keep_files_in(const TempDir& dir, TournamentConfig& config) {
  config.pgn_path = dir.file("games.pgn");
  config.results_path = dir.file("results.json");
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace quixo::test
