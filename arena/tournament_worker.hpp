// One of the tournament runner's threads of play: it plays the scheduled games it is handed on
// engine processes of its own, keeps them between games (a game restarts only those that
// crashed, stalled or overran), tells a restart from a process's first start, and quits them all
// when it goes. Internal to the arena library; run_tournament (tournament.hpp) runs
// config.concurrency of them.
#pragma once

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "communication_log.hpp"
#include "engine_client.hpp"
#include "game_record.hpp"
#include "schedule.hpp"
#include "tb/tablebase.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

// A game as the worker played it: what the standings and the results file keep, and the record
// for the PGN.
struct PlayedGame {
  FinishedGame finished;
  GameRecord record;
};

class TournamentWorker {
 public:
  // `config`, `launcher` and `tables` (the endgame tables of two-player games; null: none) must
  // outlive the worker.
  // `log` (--log; null: none) gets every line of the worker's engines.
  TournamentWorker(const TournamentConfig& config, const ProcessLauncher& launcher,
                   const tb::Tablebase* tables = nullptr, CommunicationLog* log = nullptr);
  ~TournamentWorker();  // quits every process it started
  TournamentWorker(const TournamentWorker&) = delete;
  TournamentWorker& operator=(const TournamentWorker&) = delete;

  // Plays `game` of config's variant; nullopt when `halt` ended it before its end (such a game
  // is not counted). Throws what the game loop throws for an opening it cannot play.
  [[nodiscard]] std::optional<PlayedGame> play(const ScheduledGame& game,
                                               const std::atomic<bool>& halt);

 private:
  // A process by engine and slot: slot 0 is the engine's only process, except in four-player
  // games per seat, where seat 1 or 2 of a team has slot 0 and seat 3 or 4 slot 1.
  using ClientKey = std::pair<std::size_t, int>;
  EngineClient& client(const ClientKey& key);
  // Whether the process was started before in this worker: its first start is no restart.
  bool restarted(const ClientKey& key);

  const TournamentConfig& config_;
  const ProcessLauncher& launcher_;
  const tb::Tablebase* tables_;
  CommunicationLog* log_;
  std::atomic<int> current_game_{0};  // the game being played, from 1, for the log
  std::map<ClientKey, std::unique_ptr<EngineClient>> clients_;
  std::set<ClientKey> started_once_;
};

}  // namespace quixo::arena
