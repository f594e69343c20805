// The real EngineProcess: a child started with Boost.Process v2, its stdin and stdout on Asio
// pipes driven by a private io_context. The Boost.Process headers stay in this file because they
// are slow to compile.
#include "engine_process.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/writable_pipe.hpp>
#include <boost/asio/write.hpp>
#include <boost/process/v2.hpp>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace quixo::arena {
namespace {

namespace asio = boost::asio;
namespace bp = boost::process::v2;
using SteadyClock = std::chrono::steady_clock;

// An engine line longer than this is handed over in pieces rather than buffered without bound:
// a runaway engine must not exhaust the arena's memory.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// A write to an engine that has exited must fail with EPIPE, not end the arena. Process-wide, so
// done once, the first time an engine is started.
void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

std::mutex& launch_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::string quoted_name(const std::string& text) {
  return "\"" + text + "\"";
}

// The executable to run for `command`: the path itself when it names one, else the first match
// on PATH. Checked here so that a bad command gives a clear error instead of a failure inside the
// forked child.
bp::filesystem::path resolve_executable(const std::string& command) {
  if (command.empty()) throw ProcessStartError("cannot start an engine: the command is empty");
  if (command.find('/') == std::string::npos) {
    bp::filesystem::path found = bp::environment::find_executable(command);
    if (found.empty())
      throw ProcessStartError("cannot start " + quoted_name(command) + ": no such command on PATH");
    return found;
  }
  struct stat info {};
  if (::stat(command.c_str(), &info) != 0)
    throw ProcessStartError("cannot start " + quoted_name(command) + ": " + std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    throw ProcessStartError("cannot start " + quoted_name(command) + ": it is a directory");
  if (::access(command.c_str(), X_OK) != 0)
    throw ProcessStartError("cannot start " + quoted_name(command) + ": not executable");
  return bp::filesystem::path(command);
}

void check_working_directory(const std::string& command, const std::string& directory) {
  if (directory.empty()) return;
  struct stat info {};
  if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw ProcessStartError("cannot start " + quoted_name(command) + ": working directory " +
                            quoted_name(directory) + " does not exist");
}

class AsioEngineProcess final : public EngineProcess {
 public:
  explicit AsioEngineProcess(const ProcessSpec& spec) {
    const bp::filesystem::path executable = resolve_executable(spec.command);
    check_working_directory(spec.command, spec.working_directory);
    try {
      // Boost 1.81's close_all() in the child only closes the descriptors above the highest one
      // it keeps, so a child can inherit whatever is open without close-on-exec below that: the
      // child ends of pipes being made for another engine at the same moment, or their parent
      // ends before close-on-exec is set. With one launch at a time, no engine can hold another
      // engine's pipe open (which would hide that engine's exit from the arena).
      const std::lock_guard<std::mutex> lock(launch_mutex());
      if (spec.working_directory.empty()) {
        process_.emplace(context_, executable, spec.args,
                         bp::process_stdio{input_, output_, nullptr});
      } else {
        process_.emplace(context_, executable, spec.args,
                         bp::process_stdio{input_, output_, nullptr},
                         bp::process_start_dir{spec.working_directory});
      }
    } catch (const std::exception& error) {
      throw ProcessStartError("cannot start " + quoted_name(spec.command) + ": " + error.what());
    }
  }

  ~AsioEngineProcess() override { shut_down(std::chrono::milliseconds(100)); }

  AsioEngineProcess(const AsioEngineProcess&) = delete;
  AsioEngineProcess& operator=(const AsioEngineProcess&) = delete;

  bool write_line(std::string_view line) override {
    if (!input_.is_open()) return false;
    std::string data(line);
    data += '\n';
    boost::system::error_code error;
    asio::write(input_, asio::buffer(data), error);
    return !error;
  }

  ReadResult read_line(std::chrono::milliseconds timeout) override {
    if (!read_pending_) {
      if (std::optional<ReadResult> ready = take_buffered()) return std::move(*ready);
      start_read();
    }
    const SteadyClock::time_point deadline = SteadyClock::now() + timeout;
    // The context stops when it runs out of work (the previous read completed), so it must be
    // restarted before each use.
    context_.restart();
    while (read_pending_) {
      const SteadyClock::time_point now = SteadyClock::now();
      if (now >= deadline) {
        // Whatever has arrived already still counts, so that a zero timeout is a poll.
        context_.poll();
        break;
      }
      context_.run_one_for(deadline - now);
    }
    if (read_pending_) return {ReadStatus::Timeout, {}};
    if (std::optional<ReadResult> ready = take_buffered()) return std::move(*ready);
    // A read finished without a full line or an end: only possible when it was interrupted, so
    // the caller simply asks again.
    return {ReadStatus::Timeout, {}};
  }

  bool running() override {
    if (!process_) return false;
    boost::system::error_code error;
    const bool still_running = process_->running(error);
    // An error (ECHILD) means the child was reaped already: it is gone either way.
    if (error || !still_running) forget_process();
    return !error && still_running;
  }

  void shut_down(std::chrono::milliseconds grace) override {
    // Closing stdin is an EOF, which UQI engines take as `quit`; it helps one that missed it.
    boost::system::error_code ignored;
    if (input_.is_open()) input_.close(ignored);
    if (!process_) return;
    const SteadyClock::time_point deadline = SteadyClock::now() + grace;
    while (running() && SteadyClock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (process_) {
      boost::system::error_code error;
      process_->terminate(error);  // SIGKILL
      process_->wait(error);       // reaps it
      forget_process();
    }
  }

 private:
  // Once the child is reaped, its pid may be reused: the handle is released so that nothing
  // (including basic_process's destructor) ever signals that pid again.
  void forget_process() {
    if (!process_) return;
    process_->detach();
    process_.reset();
  }

  void start_read() {
    read_pending_ = true;
    asio::async_read_until(output_, asio::dynamic_buffer(buffer_, kMaxLineBytes), '\n',
                           [this](const boost::system::error_code& error, std::size_t) {
                             read_pending_ = false;
                             if (error == asio::error::not_found)
                               overlong_ = true;  // the buffer is full without a newline
                             else if (error)
                               output_ended_ = true;  // EOF, or the pipe is unusable
                           });
  }

  // A line from what has been read already, the final unterminated line after the output ended,
  // or Closed when all was read; nullopt when more must be read first.
  std::optional<ReadResult> take_buffered() {
    const std::size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) return take(newline, newline + 1);
    if (overlong_) {
      overlong_ = false;
      return take(buffer_.size(), buffer_.size());
    }
    if (output_ended_) {
      if (!buffer_.empty()) return take(buffer_.size(), buffer_.size());
      return ReadResult{ReadStatus::Closed, {}};
    }
    return std::nullopt;
  }

  ReadResult take(std::size_t length, std::size_t consumed) {
    ReadResult result{ReadStatus::Line, buffer_.substr(0, length)};
    buffer_.erase(0, consumed);
    if (!result.line.empty() && result.line.back() == '\r') result.line.pop_back();
    return result;
  }

  // Declared first so that it outlives the pipes and the process that use it.
  asio::io_context context_;
  asio::writable_pipe input_{context_};
  asio::readable_pipe output_{context_};
  std::optional<bp::process> process_;
  std::string buffer_;  // read but not yet returned; only touched when no read is pending
  bool read_pending_ = false;
  bool overlong_ = false;
  bool output_ended_ = false;
};

}  // namespace

std::unique_ptr<EngineProcess> start_process(const ProcessSpec& spec) {
  ignore_sigpipe();
  return std::make_unique<AsioEngineProcess>(spec);
}

}  // namespace quixo::arena
