// One engine process of a quixo-gui session, driven by the arena's engine client on a thread of
// its own, so that a search (which blocks on the engine's output) never holds up the page. Jobs
// run in the order given; stop() ends the running search at once (UQI `stop`) and drops the
// waiting ones. The engine is started on first use and again after it crashed.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

#include "engine_client.hpp"

namespace quixo::gui {

struct SearchJob {
  std::string position_arguments;  // what follows `position`
  std::variant<arena::GoRequest, arena::GoRequest4> request;
  std::chrono::milliseconds deadline{0};  // for the `bestmove`, from `go`
  bool new_game = false;                  // `uqinewgame` first
  std::optional<int> multipv;             // `setoption name MultiPV` first
  std::function<void(const uqi::InfoLine&)> on_info;
  // Called once per job on the worker's thread: the reply, or (status Disconnected) a failure,
  // with the client's sentence in `error`.
  std::function<void(const arena::MoveReply&, const std::string& error)> on_done;
};

class EngineWorker {
 public:
  EngineWorker(arena::EngineConfig config, arena::ProcessLauncher launcher,
               std::chrono::milliseconds handshake_timeout);
  ~EngineWorker();  // stops the search, drops the jobs, quits the engine
  EngineWorker(const EngineWorker&) = delete;
  EngineWorker& operator=(const EngineWorker&) = delete;

  const std::string& name() const { return name_; }
  // The engine's `id name` once it has started (empty before).
  std::string id_name() const;

  // Queues a job. A job whose request ponders (`go ponder`) runs until ponderhit() or stop().
  void submit(SearchJob job);
  void stop();
  // The opponent played the expected move: the ponder job submitted last (running or still
  // queued) sends `ponderhit` and becomes a normal search.
  void ponderhit();

 private:
  void run();

  const std::string name_;
  arena::EngineClient client_;
  const std::chrono::milliseconds handshake_timeout_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<SearchJob> jobs_;
  bool quitting_ = false;
  std::string id_name_;
  std::atomic<bool> stop_requested_{false};
  // Cleared by submit(), not when a job starts: a ponderhit may come before its job has started.
  std::atomic<bool> ponderhit_requested_{false};
  std::thread thread_;  // last: it starts once everything above is ready
};

}  // namespace quixo::gui
