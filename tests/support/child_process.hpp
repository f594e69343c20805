// A child process with its standard input and output on pipes, for talking to an engine line by
// line the way a GUI does: send a line, read lines with a timeout (poll), close the input, wait
// for the exit code. Header-only, POSIX; used by the end-to-end protocol tests.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace quixo::testing {

class EngineProcess {
 public:
  using Clock = std::chrono::steady_clock;
  using Milliseconds = std::chrono::milliseconds;

  // File: stderr goes to `stderr_path` (created or truncated), for tests that check what a
  // program says there while its stdout stays on the pipe.
  enum class Stderr { Inherit, Discard, File };

  // Starts `path` with `arguments` (argv[1..]); its stderr is the caller's unless discarded or
  // sent to `stderr_path`. Throws std::runtime_error when the pipes, the stderr file or the fork
  // fail; a failed exec shows as exit code 127.
  explicit EngineProcess(const std::string& path, const std::vector<std::string>& arguments = {},
                         Stderr stderr_mode = Stderr::Inherit,
                         const std::string& stderr_path = {}) {
    // A write to a child that has exited must fail with EPIPE, not kill the test.
    ::signal(SIGPIPE, SIG_IGN);
    int to_child[2];
    int from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    if (::pipe2(from_child, O_CLOEXEC) != 0) {
      ::close(to_child[0]);
      ::close(to_child[1]);
      throw std::runtime_error("pipe failed");
    }
    std::vector<std::string> argv_strings = {path};
    argv_strings.insert(argv_strings.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (std::string& argument : argv_strings) argv.push_back(argument.data());
    argv.push_back(nullptr);

    int stderr_fd = -1;
    if (stderr_mode == Stderr::Discard) stderr_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (stderr_mode == Stderr::File) {
      stderr_fd = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (stderr_fd < 0) {
        for (const int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) ::close(fd);
        throw std::runtime_error("cannot open " + stderr_path);
      }
    }
    pid_ = ::fork();
    if (pid_ < 0) {
      for (const int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) ::close(fd);
      if (stderr_fd >= 0) ::close(stderr_fd);
      throw std::runtime_error("fork failed");
    }
    if (pid_ == 0) {
      // Child: only async-signal-safe calls until exec.
      ::dup2(to_child[0], STDIN_FILENO);
      ::dup2(from_child[1], STDOUT_FILENO);
      if (stderr_fd >= 0) ::dup2(stderr_fd, STDERR_FILENO);
      ::execv(path.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    if (stderr_fd >= 0) ::close(stderr_fd);
    in_fd_ = to_child[1];
    out_fd_ = from_child[0];
  }

  // Closes the pipes and reaps the child, killing it if it has not exited within a second.
  ~EngineProcess() {
    close_input();
    if (!exit_code_ && pid_ > 0) {
      if (!wait_exit(Milliseconds(1000))) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
      }
    }
    if (out_fd_ >= 0) ::close(out_fd_);
  }

  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  pid_t pid() const { return pid_; }

  // Writes `line` and a newline. False when the child no longer reads its input.
  bool send(std::string_view line) { return send_raw(std::string(line) + '\n'); }

  // Writes bytes as they are (no newline added).
  bool send_raw(std::string_view bytes) {
    if (in_fd_ < 0) return false;
    while (!bytes.empty()) {
      const ssize_t written = ::write(in_fd_, bytes.data(), bytes.size());
      if (written < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      bytes.remove_prefix(std::size_t(written));
    }
    return true;
  }

  // End of input for the child (what a GUI's exit looks like to the engine).
  void close_input() {
    if (in_fd_ >= 0) ::close(in_fd_);
    in_fd_ = -1;
  }

  // The next output line without its newline (and without a '\r'), or nullopt when none comes
  // within `timeout` or the output has ended.
  std::optional<std::string> read_line(Milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
      const std::size_t newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines_read_.push_back(line);
        return line;
      }
      if (output_closed_) return std::nullopt;
      const auto left = std::chrono::duration_cast<Milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd poll_fd{out_fd_, POLLIN, 0};
      const int ready = ::poll(&poll_fd, 1, int(left.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) return std::nullopt;
      char chunk[4096];
      const ssize_t count = ::read(out_fd_, chunk, sizeof chunk);
      if (count < 0 && errno == EINTR) continue;
      if (count <= 0) {
        output_closed_ = true;
        continue;
      }
      buffer_.append(chunk, std::size_t(count));
    }
  }

  // Reads lines until one satisfies `done`; returns every line read, the matching one last, or
  // nullopt on timeout (the lines read so far stay in lines_read()).
  std::optional<std::vector<std::string>> read_until(
      const std::function<bool(const std::string&)>& done, Milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    std::vector<std::string> lines;
    while (true) {
      const auto left = std::chrono::duration_cast<Milliseconds>(deadline - Clock::now());
      const auto line = read_line(left.count() > 0 ? left : Milliseconds(0));
      if (!line) return std::nullopt;
      lines.push_back(*line);
      if (done(*line)) return lines;
    }
  }

  // Reads until a line starts with `prefix`.
  std::optional<std::vector<std::string>> read_until_prefix(std::string_view prefix,
                                                            Milliseconds timeout) {
    return read_until([prefix](const std::string& line) { return line.starts_with(prefix); },
                      timeout);
  }

  // Lines that arrive within `duration` (waits the whole duration unless the output ends).
  std::vector<std::string> read_for(Milliseconds duration) {
    const auto deadline = Clock::now() + duration;
    std::vector<std::string> lines;
    while (true) {
      const auto left = std::chrono::duration_cast<Milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return lines;
      const auto line = read_line(left);
      if (!line) {
        if (output_closed_) return lines;
        continue;
      }
      lines.push_back(*line);
    }
  }

  // Every line read so far, for failure messages.
  const std::vector<std::string>& lines_read() const { return lines_read_; }
  bool output_closed() const { return output_closed_; }

  // The exit code once the child has exited within `timeout` (128 + signal number when a signal
  // ended it); nullopt if it is still running.
  std::optional<int> wait_exit(Milliseconds timeout) {
    if (exit_code_) return exit_code_;
    const auto deadline = Clock::now() + timeout;
    while (true) {
      int status = 0;
      const pid_t result = ::waitpid(pid_, &status, WNOHANG);
      if (result == pid_) {
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return exit_code_;
      }
      if (result < 0 && errno != EINTR) return std::nullopt;
      if (Clock::now() >= deadline) return std::nullopt;
      std::this_thread::sleep_for(Milliseconds(2));
    }
  }

 private:
  pid_t pid_ = -1;
  int in_fd_ = -1;
  int out_fd_ = -1;
  std::string buffer_;
  bool output_closed_ = false;
  std::optional<int> exit_code_;
  std::vector<std::string> lines_read_;
};

}  // namespace quixo::testing
