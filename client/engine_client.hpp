// The arena's side of the UQI (and UGI) conversation with one engine process: handshake, options,
// new game, one move at a time under a wall-clock deadline. Every failure is reported as a value
// (never an exception), so the game loop can turn it into the right ending.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine_process.hpp"
#include "time_control.hpp"
#include "uqi_client_messages.hpp"

namespace quixo::arena {

using uqi::Protocol;

// One engine as the tournament knows it.
struct EngineConfig {
  std::string name;     // unique in a tournament; the PGN and the reports use it
  ProcessSpec process;  // command, arguments, working directory
  std::vector<std::pair<std::string, std::string>> options;  // `setoption` name/value, in order
  std::optional<TimeControl> time_control;  // this engine's own; else the tournament's
  Protocol protocol = Protocol::Uqi;
  // timemargin=MS: this engine's own time margin (a tournament applies it to the engine's time
  // control); else the tournament's --timemargin.
  std::optional<std::int64_t> time_margin_ms;
  // restart=on: a new process for every game, as cutechess's restart=on (else one process plays
  // game after game, restarted only after a failure).
  bool restart = false;
  // Lines sent as they are after the handshake, before the options (cutechess's initstr).
  std::vector<std::string> init_strings = {};
  // The default of each option the engine declares (`option name N ... default D`), as its first
  // start told them; what the reports print for an option the user did not set (fastchess's
  // `1t, 16MB`). Filled by the tournament before the first game; empty until then.
  std::vector<std::pair<std::string, std::string>> declared_defaults = {};
};

using uqi::GoRequest;
using uqi::GoRequest4;

struct MoveReply {
  enum class Status {
    Move,          // `bestmove` arrived; `move` holds its text, not yet checked
    Timeout,       // no `bestmove` before the deadline
    Disconnected,  // the engine exited or closed its output first
  };
  Status status = Status::Disconnected;
  std::string move;
  // The last `info` line of the search that carried a score (else the last one with a depth);
  // with MultiPV only the `multipv 1` lines (the best line) count.
  std::optional<uqi::InfoLine> info;
  // From sending `go` (or, in a ponder search, `ponderhit`) to reading `bestmove` (or giving up).
  std::int64_t elapsed_ms = 0;
  std::string ponder;      // the reply the engine expects (`bestmove m ponder p`); empty if none
  bool ponderhit = false;  // a ponder search in which `ponderhit` was sent
};

// What a GUI adds to a search: it sees every `info` line as it arrives (all MultiPV lines), and
// may end the search early (a person stops the analysis, or tells the engine to move now).
struct SearchWatch {
  std::function<void(const uqi::InfoLine&)> on_info;
  // Polled while the search runs; when it turns true, `stop` is sent once, and the `bestmove`
  // that follows ends the search as usual. It must come within stop_grace (else Timeout).
  const std::atomic<bool>* stop_requested = nullptr;
  std::chrono::milliseconds stop_grace{5000};
  // A `go ponder` search runs until the opponent has moved: polled the same way; when it turns
  // true (and no stop was sent), `ponderhit` is sent once, and from then on the search has the
  // `deadline` given to go(). Before that it has none: the watch ends it by ponderhit or stop.
  const std::atomic<bool>* ponderhit_requested = nullptr;
};

// An option of `engine.options` that does not fit what the engine declares.
struct OptionProblem {
  bool undeclared = false;  // the engine declares no option of that name
  // `engine "a": option.Hash=abc: Hash is a spin option, a whole number from 1 to 16`.
  std::string message;
};
// Checks every option.NAME=VALUE of `engine` against the options the engine declares (`option`
// lines, names compared without case): the name must be declared; a spin's value is a whole
// number within its min and max, a check's true or false, a combo's one of its vars (without
// case), a button's empty; a string or an option of another type takes anything. Empty when all
// fit.
[[nodiscard]] std::vector<OptionProblem> check_options(
    const EngineConfig& engine, const std::vector<uqi::OptionLine>& declared);

using ProcessLauncher = std::function<std::unique_ptr<EngineProcess>(const ProcessSpec&)>;
// start_process.
ProcessLauncher default_launcher();

// What starting an engine once, before it is used, tells: whether it runs at all (a wrong path, a
// binary that is not an engine), its name, what it declares, and which of its configured options
// do not fit. quixo-arena and quixo-gui check every configured engine this way at start-up, so a
// broken one is named before the first game rather than found during it.
struct EngineProbe {
  std::string error;  // why it could not start, as EngineClient::last_error(); empty when it ran
  std::string id_name;
  std::vector<uqi::OptionLine> declared_options;
  std::vector<OptionProblem> option_problems;  // check_options() of its configured options
  std::vector<std::string> option_errors;      // EngineClient::option_errors()
};
// Starts `engine` (handshake within `timeout`), reads what it declares, and quits it.
[[nodiscard]] EngineProbe probe_engine(const EngineConfig& engine, const ProcessLauncher& launcher,
                                       std::chrono::milliseconds timeout);

class EngineClient {
 public:
  EngineClient(EngineConfig config, ProcessLauncher launcher = default_launcher());
  ~EngineClient();  // quits the engine if it still runs
  EngineClient(const EngineClient&) = delete;
  EngineClient& operator=(const EngineClient&) = delete;

  const EngineConfig& config() const { return config_; }

  // Launches the process, sends `uqi` (or `ugi`) and waits for `uqiok` (`ugiok`), sends the
  // init strings and the configured options, then `isready` and waits for `readyok`; all within
  // `timeout`. Returns false with last_error() set when the process cannot start, exits, or does
  // not answer in time. An engine that does not answer in time is left running, so alive() tells a
  // stall from a crash; quit() (or the next start) ends it. An engine already running is shut down
  // first (a restart).
  bool start(std::chrono::milliseconds timeout);
  // `uqinewgame` (`uginewgame`) then `isready`; false when `readyok` does not come in time or the
  // engine is gone.
  bool new_game(std::chrono::milliseconds timeout);
  // Sends `position <position_arguments>` and the `go` line, then reads until `bestmove`,
  // keeping the last scored `info`; other lines are ignored. Gives up at `deadline` after `go`
  // (after `ponderhit` in a ponder search: request.own.ponder with a watch that can send it).
  // A `watch` sees the info lines and may stop the search.
  MoveReply go(const std::string& position_arguments, const GoRequest& request,
               std::chrono::milliseconds deadline, const SearchWatch* watch = nullptr);
  // The same for a four-player position, with format_go4's line.
  MoveReply go(const std::string& position_arguments, const GoRequest4& request,
               std::chrono::milliseconds deadline, const SearchWatch* watch = nullptr);
  // Sends `setoption` between searches (a GUI changes MultiPV for its analysis); false when the
  // engine is not running or no longer reads its input.
  bool set_option(const std::string& name, const std::string& value);
  // After a timed-out `go`: sends `stop` and waits up to `grace` for the late `bestmove`, so the
  // process can stay in use. false when it does not come (the caller then restarts the engine).
  bool stop_search(std::chrono::milliseconds grace);
  // `quit`, then the process is ended (killed after a short grace).
  void quit();

  // Whether a process was started and is still running.
  bool alive();
  // The `id name` the engine gave (empty before start).
  const std::string& id_name() const { return id_name_; }
  // The options the engine declared in its handshake (`option name ...` lines), in order.
  const std::vector<uqi::OptionLine>& declared_options() const { return declared_options_; }
  // What the engine answered to its init strings and options in the last start: the text of
  // each `info string` with "error" in it that came between `uqiok` and `readyok`.
  const std::vector<std::string>& option_errors() const { return option_errors_; }
  // Why the last start/new_game/go failed, as a sentence.
  const std::string& last_error() const { return last_error_; }

 private:
  enum class WaitResult { Found, Closed, Timeout };
  // Reads lines until one whose first token is `token` (stored in *found_line when given),
  // passing every other line to `each`, until the engine's output ends or `deadline` passes.
  WaitResult wait_for(std::string_view token, std::chrono::steady_clock::time_point deadline,
                      const std::function<void(const std::string&)>& each,
                      std::string* found_line = nullptr);
  // Sends `position` and `go_line`, then reads the reply as go() describes.
  MoveReply search(const std::string& position_arguments, const std::string& go_line, bool ponder,
                   std::chrono::milliseconds deadline, const SearchWatch* watch);
  // After the engine's output ended `when` ("during its search"): waits briefly for its exit,
  // ends the process either way, and says which it was ("exited ...", "closed its output ...").
  std::string end_after_closed_output(const std::string& when);
  std::string prefix() const;          // `engine "<name>"`
  void fail(const std::string& what);  // last_error_ = prefix() + ": " + what

  EngineConfig config_;
  ProcessLauncher launcher_;
  std::unique_ptr<EngineProcess> process_;
  std::string id_name_;
  std::vector<uqi::OptionLine> declared_options_;
  std::vector<std::string> option_errors_;
  std::string last_error_;
  bool searching_ = false;  // a `go` was sent and its `bestmove` not read yet
};

}  // namespace quixo::arena
