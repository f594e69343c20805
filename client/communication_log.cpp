#include "communication_log.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <stdexcept>

namespace quixo::arena {
namespace {

// UTC with milliseconds: "2026-11-27 06:20:01.123".
std::string time_stamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  char text[32];
  const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &parts);
  std::snprintf(text + length, sizeof text - length, ".%03lld", static_cast<long long>(millis));
  return text;
}

// An engine process whose every line in and out goes to the log.
class LoggedProcess : public EngineProcess {
 public:
  LoggedProcess(std::unique_ptr<EngineProcess> inner, CommunicationLog& log, std::string engine,
                const std::atomic<int>& game)
      : inner_(std::move(inner)), log_(log), engine_(std::move(engine)), game_(game) {}

  bool write_line(std::string_view line) override {
    log_.engine_line(engine_, game_, true, line);
    return inner_->write_line(line);
  }
  ReadResult read_line(std::chrono::milliseconds timeout) override {
    ReadResult result = inner_->read_line(timeout);
    if (result.status == ReadStatus::Line) log_.engine_line(engine_, game_, false, result.line);
    if (result.status == ReadStatus::Closed && !closed_told_) {
      closed_told_ = true;
      log_.engine_line(engine_, game_, false, "(the engine's output ended)");
    }
    return result;
  }
  bool running() override { return inner_->running(); }
  void shut_down(std::chrono::milliseconds grace) override { inner_->shut_down(grace); }

 private:
  std::unique_ptr<EngineProcess> inner_;
  CommunicationLog& log_;
  std::string engine_;
  const std::atomic<int>& game_;
  bool closed_told_ = false;
};

}  // namespace

CommunicationLog::CommunicationLog(std::string path, std::int64_t max_bytes, bool append)
    : path_(std::move(path)), max_bytes_(max_bytes) {
  out_.open(path_, (append ? std::ios::app : std::ios::trunc) | std::ios::binary);
  if (!out_) throw std::runtime_error("--log: cannot write " + path_);
  std::error_code error;
  const auto size = std::filesystem::file_size(path_, error);
  bytes_ = error ? 0 : static_cast<std::int64_t>(size);
}

void CommunicationLog::write(const std::string& line) {
  std::lock_guard guard(mutex_);
  if (bytes_ > 0 && bytes_ + static_cast<std::int64_t>(line.size()) > max_bytes_) {
    // Rotate: the full file becomes FILE.1, and FILE starts again.
    out_.close();
    std::error_code error;
    std::filesystem::rename(path_, path_ + ".1", error);
    out_.open(path_, std::ios::trunc | std::ios::binary);
    bytes_ = 0;
  }
  out_ << line;
  out_.flush();
  bytes_ += static_cast<std::int64_t>(line.size());
}

void CommunicationLog::engine_line(std::string_view engine, int game, bool to_engine,
                                   std::string_view line) {
  write(time_stamp() + " game " + std::to_string(game) + " " + std::string(engine) +
        (to_engine ? " > " : " < ") + std::string(line) + "\n");
}

void CommunicationLog::note(std::string_view text) {
  write(time_stamp() + " arena: " + std::string(text) + "\n");
}

ProcessLauncher logged_launcher(ProcessLauncher launcher, CommunicationLog& log, std::string engine,
                                const std::atomic<int>& game) {
  return [launcher = std::move(launcher), &log, engine = std::move(engine),
          &game](const ProcessSpec& spec) -> std::unique_ptr<EngineProcess> {
    log.engine_line(engine, game, true, "(starting " + spec.command + ")");
    return std::make_unique<LoggedProcess>(launcher(spec), log, engine, game);
  };
}

}  // namespace quixo::arena
