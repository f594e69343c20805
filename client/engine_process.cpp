// The real EngineProcess: a child started with Boost.Process v2, its stdin and stdout on Asio
// pipes driven by a private io_context. The Boost.Process headers stay in this file because they
// are slow to compile.
#include "engine_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/writable_pipe.hpp>
#include <boost/asio/write.hpp>
#include <boost/process/v2.hpp>

#include <algorithm>
#include <cerrno>
#include <climits>
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

std::string quoted_name(const std::string& text) {
  return "\"" + text + "\"";
}

// The executable to run for `command`: the path itself when it names one (a relative one taken
// from `directory` when that is given, since the child starts there), else the first match on
// PATH. Checked here so that a bad command gives a clear error instead of a failure inside the
// forked child. The path is made absolute, so the child's change of directory cannot change it.
bp::filesystem::path resolve_executable(const std::string& command, const std::string& directory) {
  if (command.empty()) throw ProcessStartError("cannot start an engine: the command is empty");
  if (command.find('/') == std::string::npos) {
    bp::filesystem::path found = bp::environment::find_executable(command);
    if (found.empty())
      throw ProcessStartError("cannot start " + quoted_name(command) + ": no such command on PATH");
    return found;
  }
  bp::filesystem::path path(command);
  if (path.is_relative() && !directory.empty()) path = bp::filesystem::path(directory) / path;
  const std::string shown = path.string() == command
                                ? quoted_name(command)
                                : quoted_name(command) + " (" + path.string() + ")";
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw ProcessStartError("cannot start " + shown + ": " + std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    throw ProcessStartError("cannot start " + shown + ": it is a directory");
  if (::access(path.c_str(), X_OK) != 0)
    throw ProcessStartError("cannot start " + shown + ": not executable");
  boost::system::error_code ignored;
  const bp::filesystem::path absolute = bp::filesystem::absolute(path, ignored);
  return absolute.empty() ? path : absolute;
}

// An owned file descriptor, closed when it goes out of scope unless released.
class Descriptor {
 public:
  Descriptor() = default;
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() { reset(); }
  Descriptor(Descriptor&& other) noexcept : fd_(other.release()) {}
  Descriptor& operator=(Descriptor&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = other.release();
    }
    return *this;
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;

  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// `fd` moved above the standard streams (0-2), close-on-exec. A descriptor of the arena's own
// that lands on 0-2 (when the arena runs with a standard stream closed) could otherwise be
// overwritten by the child's dup2 of another stream before it is itself duplicated.
Descriptor above_standard_streams(Descriptor fd, const std::string& what) {
  if (fd.get() > STDERR_FILENO) return fd;
  const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (moved < 0) throw ProcessStartError(what + ": " + std::strerror(errno));
  return Descriptor(moved);
}

// A pipe whose two ends are close-on-exec from the moment they exist (pipe2), so that no child
// that another thread starts at the same time inherits them; the end meant for the child becomes
// its stdin or stdout by dup2, which clears the flag on that copy only.
struct Pipe {
  Descriptor read_end;
  Descriptor write_end;
};
Pipe make_pipe(const std::string& command) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0)
    throw ProcessStartError("cannot start " + quoted_name(command) +
                            ": cannot create a pipe: " + std::strerror(errno));
  const std::string what = "cannot start " + quoted_name(command) + ": cannot move a pipe";
  Pipe pipe{Descriptor(ends[0]), Descriptor(ends[1])};
  pipe.read_end = above_standard_streams(std::move(pipe.read_end), what);
  pipe.write_end = above_standard_streams(std::move(pipe.write_end), what);
  return pipe;
}

// The engine's stderr: appended to `path`, created when missing, or /dev/null.
Descriptor open_stderr(const std::string& command, const std::string& path) {
  const char* target = path.empty() ? "/dev/null" : path.c_str();
  Descriptor fd(::open(target, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (fd.get() < 0)
    throw ProcessStartError("cannot start " + quoted_name(command) + ": cannot open " +
                            quoted_name(target) + " for its stderr: " + std::strerror(errno) +
                            " (stderr= takes a writable file; its folder must exist)");
  return above_standard_streams(std::move(fd),
                                "cannot start " + quoted_name(command) + ": cannot move stderr");
}

// In the child, after its stdin, stdout and stderr are in place: every other descriptor is made
// close-on-exec, whatever the arena opened without the flag (its PGN and results files, say),
// so the engine holds nothing but its three streams. (Boost 1.81's own close_all() leaves open
// the descriptors below the highest one it keeps.) The three streams themselves are cleared of
// the flag. Only async-signal-safe calls: this runs between fork and exec.
struct CloseOtherDescriptors {
  template <typename Launcher>
  boost::system::error_code on_exec_setup(Launcher&, const bp::filesystem::path&,
                                          const char* const*) {
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) ::fcntl(fd, F_SETFD, 0);
#ifdef CLOSE_RANGE_CLOEXEC
    if (::close_range(STDERR_FILENO + 1, UINT_MAX, CLOSE_RANGE_CLOEXEC) == 0) return {};
#endif
    // A kernel without close_range's CLOEXEC flag (before Linux 5.11): one descriptor at a time.
    struct rlimit limit {};
    int highest = 65536;
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      highest = static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 65536));
    for (int fd = STDERR_FILENO + 1; fd < highest; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    return {};
  }
};

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
    check_working_directory(spec.command, spec.working_directory);
    const bp::filesystem::path executable =
        resolve_executable(spec.command, spec.working_directory);
    // Every descriptor is made here with close-on-exec, the child's ends included, and the child
    // makes anything else close-on-exec too, so launches need no lock: an engine never holds a
    // pipe of another engine (or a second copy of its own stdout), which would hide its exit or
    // its closed output from the arena.
    Pipe to_engine = make_pipe(spec.command);
    Pipe from_engine = make_pipe(spec.command);
    Descriptor error_output = open_stderr(spec.command, spec.stderr_path);
    try {
      bp::process_stdio stdio{to_engine.read_end.get(), from_engine.write_end.get(),
                              error_output.get()};
      if (spec.working_directory.empty()) {
        process_.emplace(context_, executable, spec.args, stdio, CloseOtherDescriptors{});
      } else {
        process_.emplace(context_, executable, spec.args, stdio,
                         bp::process_start_dir{spec.working_directory}, CloseOtherDescriptors{});
      }
      input_.assign(to_engine.write_end.release());
      output_.assign(from_engine.read_end.release());
    } catch (const std::exception& error) {
      throw ProcessStartError("cannot start " + quoted_name(spec.command) + ": " + error.what());
    }
    // The child's ends (and stderr) are closed here by their Descriptors: from now on only the
    // child holds them, so its exit, or its closing stdout, is an end of file at once.
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
