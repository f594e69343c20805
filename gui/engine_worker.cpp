#include "engine_worker.hpp"

#include <algorithm>

#include "core/host_yield.hpp"

#ifdef QUIXO_HOST_WITHOUT_THREADS
#include <emscripten.h>
#endif

namespace quixo::gui {

namespace {

// The workers of a host without threads, which run_waiting_jobs() runs in turn.
std::vector<EngineWorker*>& cooperative_workers() {
  static std::vector<EngineWorker*> workers;
  return workers;
}

#ifdef QUIXO_HOST_WITHOUT_THREADS
// Tells the page's host that a job waits: it calls run_waiting_jobs() from its event loop.
EM_JS(void, quixo_engine_jobs_waiting, (), { Module["quixoEngineJobsWaiting"](); });
#endif

}  // namespace

EngineWorker::EngineWorker(arena::EngineConfig config, arena::ProcessLauncher launcher,
                           std::chrono::milliseconds handshake_timeout, WorkerEvents events)
    : name_(config.name),
      client_(std::move(config), std::move(launcher)),
      handshake_timeout_(handshake_timeout),
      events_(std::move(events)) {
  if constexpr (host::kHasThreads)
    thread_ = std::thread([this] { run(); });
  else
    cooperative_workers().push_back(this);
}

EngineWorker::~EngineWorker() {
  {
    std::lock_guard lock(mutex_);
    quitting_ = true;
    jobs_.clear();
    stop_requested_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::erase(cooperative_workers(), this);
  client_.quit();
}

bool EngineWorker::run_waiting_jobs() {
  bool ran = false;
  for (bool ran_one = true; ran_one;) {
    ran_one = false;
    // Over a copy: a job's callbacks may add a worker (the session's first use of an engine).
    const std::vector<EngineWorker*> workers = cooperative_workers();
    for (EngineWorker* worker : workers) {
      if (std::find(cooperative_workers().begin(), cooperative_workers().end(), worker) ==
          cooperative_workers().end())
        continue;
      SearchJob job;
      {
        std::lock_guard lock(worker->mutex_);
        if (worker->quitting_ || worker->jobs_.empty()) continue;
        job = std::move(worker->jobs_.front());
        worker->jobs_.pop_front();
        worker->stop_requested_ = false;
      }
      worker->run_job(job);
      ran = ran_one = true;
    }
  }
  return ran;
}

std::string EngineWorker::id_name() const {
  std::lock_guard lock(mutex_);
  return id_name_;
}

void EngineWorker::submit(SearchJob job) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
    ponderhit_requested_ = false;
  }
  wake_.notify_all();
#ifdef QUIXO_HOST_WITHOUT_THREADS
  quixo_engine_jobs_waiting();
#endif
}

void EngineWorker::stop() {
  std::lock_guard lock(mutex_);
  jobs_.clear();
  stop_requested_ = true;
}

void EngineWorker::ponderhit() {
  ponderhit_requested_ = true;
}

void EngineWorker::set_options(std::vector<std::pair<std::string, std::string>> options) {
  std::lock_guard lock(mutex_);
  wanted_options_ = std::move(options);
}

void EngineWorker::run() {
  for (;;) {
    SearchJob job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return quitting_ || !jobs_.empty(); });
      if (quitting_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
      // A stop meant the searches before this job.
      stop_requested_ = false;
    }
    run_job(job);
  }
}

void EngineWorker::run_job(SearchJob& job) {
  arena::MoveReply failed;  // status Disconnected
  if (!client_.alive()) {
    if (!client_.start(handshake_timeout_)) {
      if (job.start_only && events_.on_failed) events_.on_failed(client_.last_error());
      if (job.on_done) job.on_done(failed, client_.last_error());
      return;
    }
    job.new_game = true;
    sent_options_.clear();
    {
      std::lock_guard lock(mutex_);
      id_name_ = client_.id_name();
    }
    if (events_.on_started) events_.on_started(client_.id_name(), client_.declared_options());
  }
  if (job.start_only) return;
  std::vector<std::pair<std::string, std::string>> wanted;
  {
    std::lock_guard lock(mutex_);
    wanted = wanted_options_;
  }
  bool options_sent = true;
  for (const auto& option : wanted) {
    const auto& declared = client_.declared_options();
    const bool declares =
        std::any_of(declared.begin(), declared.end(),
                    [&](const uqi::OptionLine& line) { return line.name == option.first; });
    const bool has =
        std::find(sent_options_.begin(), sent_options_.end(), option) != sent_options_.end();
    if (!declares || has) continue;
    if (!client_.set_option(option.first, option.second)) {
      options_sent = false;
      break;
    }
    std::erase_if(sent_options_, [&](const auto& sent) { return sent.first == option.first; });
    sent_options_.push_back(option);
  }
  if (!options_sent) {
    if (job.on_done) job.on_done(failed, client_.last_error());
    return;
  }
  if (job.new_game && !client_.new_game(handshake_timeout_)) {
    if (job.on_done) job.on_done(failed, client_.last_error());
    return;
  }
  if (job.multipv && !client_.set_option("MultiPV", std::to_string(*job.multipv))) {
    if (job.on_done) job.on_done(failed, client_.last_error());
    return;
  }
  arena::SearchWatch watch;
  watch.on_info = job.on_info;
  watch.stop_requested = &stop_requested_;
  watch.ponderhit_requested = &ponderhit_requested_;
  const arena::MoveReply reply = std::visit(
      [&](const auto& request) {
        return client_.go(job.position_arguments, request, job.deadline, &watch);
      },
      job.request);
  if (reply.status == arena::MoveReply::Status::Timeout && !client_.stop_search(watch.stop_grace))
    client_.quit();  // a stalled engine is restarted by the next job
  const std::string error = reply.status == arena::MoveReply::Status::Move && !reply.move.empty()
                                ? std::string()
                                : client_.last_error();
  if (job.on_done) job.on_done(reply, error);
}

}  // namespace quixo::gui
