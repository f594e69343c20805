#include "engine_worker.hpp"

#include <algorithm>

namespace quixo::gui {

EngineWorker::EngineWorker(arena::EngineConfig config, arena::ProcessLauncher launcher,
                           std::chrono::milliseconds handshake_timeout, WorkerEvents events)
    : name_(config.name),
      client_(std::move(config), std::move(launcher)),
      handshake_timeout_(handshake_timeout),
      events_(std::move(events)),
      thread_([this] { run(); }) {}

EngineWorker::~EngineWorker() {
  {
    std::lock_guard lock(mutex_);
    quitting_ = true;
    jobs_.clear();
    stop_requested_ = true;
  }
  wake_.notify_all();
  thread_.join();
  client_.quit();
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
    arena::MoveReply failed;  // status Disconnected
    if (!client_.alive()) {
      if (!client_.start(handshake_timeout_)) {
        if (job.start_only && events_.on_failed) events_.on_failed(client_.last_error());
        if (job.on_done) job.on_done(failed, client_.last_error());
        continue;
      }
      job.new_game = true;
      sent_options_.clear();
      {
        std::lock_guard lock(mutex_);
        id_name_ = client_.id_name();
      }
      if (events_.on_started) events_.on_started(client_.id_name(), client_.declared_options());
    }
    if (job.start_only) continue;
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
      continue;
    }
    if (job.new_game && !client_.new_game(handshake_timeout_)) {
      if (job.on_done) job.on_done(failed, client_.last_error());
      continue;
    }
    if (job.multipv && !client_.set_option("MultiPV", std::to_string(*job.multipv))) {
      if (job.on_done) job.on_done(failed, client_.last_error());
      continue;
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
}

}  // namespace quixo::gui
