#include "tournament_worker.hpp"

#include <array>
#include <cassert>
#include <string>

#include "game.hpp"
#include "game4.hpp"

namespace quixo::arena {
namespace {

// The engine's own time control, else the tournament's.
TimeControl control_of(const TournamentConfig& config, std::size_t engine) {
  return config.engines[engine].time_control.value_or(config.time_control);
}

}  // namespace

TournamentWorker::TournamentWorker(const TournamentConfig& config, const ProcessLauncher& launcher,
                                   const tb::Tablebase* tables, CommunicationLog* log)
    : config_(config), launcher_(launcher), tables_(tables), log_(log) {}

TournamentWorker::~TournamentWorker() {
  for (auto& [key, engine_client] : clients_) engine_client->quit();
}

EngineClient& TournamentWorker::client(const ClientKey& key) {
  assert(key.first < config_.engines.size());
  auto& engine_client = clients_[key];
  if (!engine_client) {
    const EngineConfig& engine = config_.engines[key.first];
    engine_client = std::make_unique<EngineClient>(
        engine, log_ ? logged_launcher(launcher_, *log_, engine.name, current_game_) : launcher_);
  }
  return *engine_client;
}

bool TournamentWorker::restarted(const ClientKey& key) {
  return !started_once_.insert(key).second;
}

std::optional<PlayedGame> TournamentWorker::play(const ScheduledGame& game,
                                                 const std::atomic<bool>& halt) {
  current_game_ = game.id + 1;
  // restart=on: the engine's processes end after each game and the next game starts new ones;
  // such a start is not a restart after a failure.
  for (auto it = clients_.begin(); it != clients_.end();) {
    if (!config_.engines[it->first.first].restart) {
      ++it;
      continue;
    }
    it->second->quit();
    started_once_.erase(it->first);
    it = clients_.erase(it);
  }
  GameSetup setup;
  setup.opening = game.opening;
  setup.x_control = control_of(config_, game.x);
  setup.o_control = control_of(config_, game.o);
  setup.rules = config_.rules;
  setup.event = config_.event;
  setup.site = config_.site;
  setup.round = std::to_string(game.id + 1);
  if (config_.variant == Variant::TwoPlayer) setup.tablebase = tables_;

  GameOutcome played;
  bool x_restarted = false;
  bool o_restarted = false;
  if (config_.variant == Variant::FourPlayer) {
    SeatClients seats{};
    std::array<ClientKey, 4> keys;
    for (std::size_t seat = 0; seat < 4; ++seat) {
      const std::size_t engine = seat % 2 == 0 ? game.x : game.o;
      keys[seat] = {engine, config_.seating == Seating::PerSeat ? static_cast<int>(seat / 2) : 0};
      seats[seat] = &client(keys[seat]);
    }
    played = play_game4(setup, seats, &halt);
    if (played.aborted) return std::nullopt;
    // Per team, seats 3 and 4 share the processes of seats 1 and 2.
    const std::size_t distinct = config_.seating == Seating::PerSeat ? 4 : 2;
    for (std::size_t seat = 0; seat < distinct; ++seat) {
      if (!played.incidents.seat_started[seat] || !restarted(keys[seat])) continue;
      (seat % 2 == 0 ? x_restarted : o_restarted) = true;
    }
  } else {
    played = play_game(setup, client({game.x, 0}), client({game.o, 0}), &halt);
    if (played.aborted) return std::nullopt;
    x_restarted = played.incidents.x_restarted && restarted({game.x, 0});
    o_restarted = played.incidents.o_restarted && restarted({game.o, 0});
  }

  PlayedGame result;
  FinishedGame& finished = result.finished;
  finished.id = game.id;
  finished.round = game.round;
  finished.x = game.x;
  finished.o = game.o;
  finished.result = played.record.result;
  finished.termination = played.record.termination;
  finished.reason = played.record.reason;
  finished.plies = static_cast<int>(played.record.moves.size());
  finished.opening = format_opening(game.opening);
  finished.x_restarted = x_restarted;
  finished.o_restarted = o_restarted;
  result.record = std::move(played.record);
  return result;
}

}  // namespace quixo::arena
