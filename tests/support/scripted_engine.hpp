// An engine inside the test process, behind the arena's EngineProcess interface: it answers the
// UQI handshake, `isready` and `go` at once, and a test function decides each reply from the
// position, so the game loop's endings (lines, repetitions, adjudications, illegal moves, crashes)
// can be staged move by move without real processes or timing.
#pragma once

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/notation.hpp"
#include "core/text_helpers.hpp"
#include "engine_client.hpp"
#include "engine_process.hpp"
#include "game_setup.hpp"
#include "time_control.hpp"
#include "uqi_engine_messages.hpp"

namespace quixo::test {

// What the scripted engine does for one `go`: the lines it prints (usually an `info` and a
// `bestmove`), or nothing at all (it stalls), or it exits (a crash).
struct ScriptedReply {
  std::vector<std::string> lines;
  bool crash = false;
};

// Decides the reply from the current game (the parsed `position`) and how many `go` commands the
// process has had before this one.
using ScriptedPolicy = std::function<ScriptedReply(const Game& game, int go_count)>;

// The reply "info depth 1 score cp <score> pv <move>" + "bestmove <move>".
inline ScriptedReply play(const std::string& move, std::optional<int> score_cp = std::nullopt) {
  ScriptedReply reply;
  std::string info = "info depth 1";
  if (score_cp) info += " score cp " + std::to_string(*score_cp);
  reply.lines = {info + " pv " + move, "bestmove " + move};
  return reply;
}

// The first legal move, with an optional fixed score.
inline ScriptedPolicy first_legal_move(std::optional<int> score_cp = std::nullopt) {
  return
      [score_cp](const Game& game, int) { return play(game.legal_move_texts().front(), score_cp); };
}

// The first legal move, naming the opponent's first legal reply as the move it ponders on
// (`bestmove m ponder p`), with an optional fixed score.
inline ScriptedPolicy first_legal_move_pondering(std::optional<int> score_cp = std::nullopt) {
  return [score_cp](const Game& game, int) {
    const std::string move = game.legal_move_texts().front();
    ScriptedReply reply = play(move, score_cp);
    const auto& two = *game.two_player();
    const Position after = two.position.after(parse_move(two.position, move));
    const std::vector<std::string> replies = Game(after).legal_move_texts();
    if (!replies.empty()) reply.lines.back() += " ponder " + replies.front();
    return reply;
  };
}

// What the arena did to the processes of one launcher, for tests of the commands themselves (the
// clocks in `go`, how many processes a seating starts).
struct ScriptedLog {
  std::mutex mutex;
  std::vector<std::string> lines;  // every line written to a running process, in order
  int launches = 0;

  std::vector<std::string> lines_starting(std::string_view prefix) {
    std::lock_guard lock(mutex);
    std::vector<std::string> found;
    for (const std::string& line : lines)
      if (line.starts_with(prefix)) found.push_back(line);
    return found;
  }
};

class ScriptedProcess : public arena::EngineProcess {
 public:
  // `option_lines`: more `option name ...` lines for the handshake (a GUI's engine options).
  explicit ScriptedProcess(ScriptedPolicy policy, std::shared_ptr<ScriptedLog> log = nullptr,
                           std::vector<std::string> option_lines = {})
      : policy_(std::move(policy)), log_(std::move(log)), option_lines_(std::move(option_lines)) {}

  bool write_line(std::string_view line) override {
    if (!running_) return false;
    if (log_) {
      std::lock_guard lock(log_->mutex);
      log_->lines.emplace_back(line);
    }
    const auto tokens = text_helpers::tokenize(line);
    if (tokens.empty()) return true;
    const std::string_view command = tokens.front();
    if (command == "uqi" || command == "ugi") {
      output_.push_back("id name scripted");
      // The options a tournament may set, with the defaults its reports print.
      output_.push_back("option name Threads type spin default 1 min 1 max 64");
      output_.push_back("option name Hash type spin default 16 min 1 max 1024");
      for (const std::string& option : option_lines_) output_.push_back(option);
      output_.push_back(command == "uqi" ? "uqiok" : "ugiok");
    } else if (command == "isready") {
      output_.push_back("readyok");
    } else if (command == "position") {
      const auto parsed = uqi::parse_position_command(
          std::span<const std::string_view>(tokens.begin() + 1, tokens.end()));
      if (parsed.game) game_ = *parsed.game;
    } else if (command == "go") {
      ScriptedReply reply = policy_(game_.value(), go_count_++);
      // `go ponder`: the reply waits for ponderhit or stop, as a real engine's bestmove does.
      const bool ponder = std::find(tokens.begin(), tokens.end(), "ponder") != tokens.end();
      if (reply.crash) {
        running_ = false;
      } else {
        std::deque<std::string>& to = ponder ? held_ : output_;
        for (std::string& reply_line : reply.lines) to.push_back(std::move(reply_line));
      }
    } else if (command == "ponderhit" || command == "stop") {
      while (!held_.empty()) {
        output_.push_back(std::move(held_.front()));
        held_.pop_front();
      }
    } else if (command == "quit") {
      running_ = false;
    }
    return true;
  }

  ReadResult read_line(std::chrono::milliseconds) override {
    if (!output_.empty()) {
      ReadResult result{ReadStatus::Line, output_.front()};
      output_.pop_front();
      return result;
    }
    return {running_ ? ReadStatus::Timeout : ReadStatus::Closed, {}};
  }

  bool running() override { return running_; }
  void shut_down(std::chrono::milliseconds) override { running_ = false; }

 private:
  ScriptedPolicy policy_;
  std::shared_ptr<ScriptedLog> log_;
  std::vector<std::string> option_lines_;
  std::deque<std::string> output_;
  std::deque<std::string> held_;  // a ponder search's reply, until ponderhit or stop
  std::optional<Game> game_;
  int go_count_ = 0;
  bool running_ = true;
};

// A launcher that gives every process of one engine the same policy, and logs them in `log` when
// one is given; `option_lines` are declared on top of Threads and Hash.
inline arena::ProcessLauncher scripted_launcher(ScriptedPolicy policy,
                                                std::shared_ptr<ScriptedLog> log = nullptr,
                                                std::vector<std::string> option_lines = {}) {
  return [policy, log,
          option_lines](const arena::ProcessSpec&) -> std::unique_ptr<arena::EngineProcess> {
    if (log) {
      std::lock_guard lock(log->mutex);
      ++log->launches;
    }
    return std::make_unique<ScriptedProcess>(policy, log, option_lines);
  };
}

inline arena::EngineConfig scripted_config(const std::string& name) {
  arena::EngineConfig config;
  config.name = name;
  config.process.command = "scripted-" + name;
  return config;
}

// A game from `position` for scripted engines: both sides on `control`, and a short stall
// timeout, since a scripted engine that does not answer never will.
inline arena::GameSetup setup_from(
    const std::string& position,
    arena::TimeControl control = arena::TimeControl::fixed_nodes(1000)) {
  arena::GameSetup setup;
  setup.opening.position = position;
  setup.x_control = control;
  setup.o_control = control;
  setup.rules.stall_timeout = std::chrono::milliseconds(200);
  return setup;
}

}  // namespace quixo::test
