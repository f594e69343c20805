// An engine as a child process that the arena talks to line by line.
//
// EngineProcess is an interface so that tests can put scripted engines in place of real ones;
// start_process() makes the real thing with Boost.Process v2 and Asio pipes. Reads take a
// timeout, so a silent engine never blocks the arena; writes to an engine that has exited fail
// instead of raising SIGPIPE. A child holds no descriptor but its own stdin, stdout and stderr
// (no other engine's pipe ends, nor its own twice), so an engine that closes its stdout is seen
// at once as the end of its output, even while it keeps running.
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace quixo::arena {

struct ProcessSpec {
  // A path, or a name looked up on PATH when it has no '/'. A relative path with a '/' is taken
  // relative to `working_directory` when one is given (else to the arena's).
  std::string command;
  std::vector<std::string> args;  // without the command itself
  std::string working_directory;  // empty: the arena's own
  std::string stderr_path = {};   // the engine's stderr is appended to this file; empty: discarded
};

class EngineProcess {
 public:
  enum class ReadStatus {
    Line,     // `line` holds the next line
    Timeout,  // nothing complete arrived in time; the process may still answer later
    Closed,   // the engine's output has ended (it exited or closed stdout) and all was read
  };
  struct ReadResult {
    ReadStatus status = ReadStatus::Closed;
    std::string line;  // without the newline; a trailing '\r' is removed
  };

  virtual ~EngineProcess() = default;

  // Sends one line; a newline is appended. false when the engine no longer reads its input.
  virtual bool write_line(std::string_view line) = 0;
  // The next line the engine printed, waiting at most `timeout` for it.
  virtual ReadResult read_line(std::chrono::milliseconds timeout) = 0;
  // Whether the process is still running.
  virtual bool running() = 0;
  // Ends the process: gives it up to `grace` to exit by itself (the caller has sent `quit`), then
  // kills it and reaps it. Safe to call more than once.
  virtual void shut_down(std::chrono::milliseconds grace) = 0;
};

class ProcessStartError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Starts the engine with its stdin and stdout connected to the arena and its stderr appended to
// spec.stderr_path (discarded when it is empty). Throws ProcessStartError naming the command and
// the reason (not found, not executable, bad working directory, stderr file not writable).
std::unique_ptr<EngineProcess> start_process(const ProcessSpec& spec);

}  // namespace quixo::arena
