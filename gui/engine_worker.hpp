// One engine process of a quixo-gui session, driven by the arena's engine client on a thread of
// its own, so that a search (which blocks on the engine's output) never holds up the page. On a
// host without threads (the page's session in WebAssembly) the host runs the jobs instead
// (run_waiting_jobs), and the client's waits give its event loop turns. Jobs
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
#include <utility>
#include <variant>
#include <vector>

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
  // Only starts the engine (when it does not run): no search, on_done is not called. The
  // worker's on_started reports the start (or on_failed its failure).
  bool start_only = false;
};

// What the worker tells its owner about the engine process, on the worker's thread.
struct WorkerEvents {
  // After each start: the `id name` and the options the engine declares.
  std::function<void(const std::string& id_name, const std::vector<uqi::OptionLine>& declared)>
      on_started;
  // A start_only job failed (a search's failure goes to its on_done).
  std::function<void(const std::string& error)> on_failed;
};

class EngineWorker {
 public:
  EngineWorker(arena::EngineConfig config, arena::ProcessLauncher launcher,
               std::chrono::milliseconds handshake_timeout, WorkerEvents events = {});
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
  // The options the engine should have (`setoption` name/value, e.g. a level's UCI_Elo), on top
  // of those of its configuration: before its next search each one it declares and does not have
  // yet is sent (all again after a restart); those it does not declare are skipped.
  void set_options(std::vector<std::pair<std::string, std::string>> options);

  // On a host without threads (core/host_yield.hpp) the workers have no thread: the host calls
  // this from its event loop when a job waits, and it runs every worker's jobs in turn until none
  // waits (a search gives the event loop turns while it runs). Returns whether it ran any.
  static bool run_waiting_jobs();

 private:
  void run();
  void run_job(SearchJob& job);

  const std::string name_;
  arena::EngineClient client_;
  const std::chrono::milliseconds handshake_timeout_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<SearchJob> jobs_;
  bool quitting_ = false;
  std::string id_name_;
  WorkerEvents events_;
  std::vector<std::pair<std::string, std::string>> wanted_options_;  // under mutex_
  std::vector<std::pair<std::string, std::string>> sent_options_;    // the worker thread's
  std::atomic<bool> stop_requested_{false};
  // Cleared by submit(), not when a job starts: a ponderhit may come before its job has started.
  std::atomic<bool> ponderhit_requested_{false};
  std::thread thread_;  // last: it starts once everything above is ready (none without threads)
};

}  // namespace quixo::gui
