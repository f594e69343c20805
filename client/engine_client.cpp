// The arena's side of one engine's UQI/UGI conversation. Every wait has a wall-clock deadline and
// every failure becomes a status plus a sentence in last_error(); nothing here throws.
#include "engine_client.hpp"

#include <algorithm>
#include <exception>
#include <string_view>
#include <thread>

#include "core/text_helpers.hpp"

namespace quixo::arena {
namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long quit() lets an engine exit by itself before killing it, and how long an engine whose
// output ended during the handshake may take to finish exiting: an engine told `quit` stops at
// once, so waiting longer only delays the arena.
constexpr milliseconds kQuitGrace{1000};
constexpr milliseconds kExitGrace{50};
// How long an engine whose output ended may take to exit before it is taken for one that closed
// its stdout and lives on (and is killed).
constexpr milliseconds kClosedOutputGrace{250};

std::string first_token(std::string_view line) {
  const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
  return tokens.empty() ? std::string() : std::string(tokens.front());
}

milliseconds remaining_until(SteadyClock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<milliseconds>(deadline - SteadyClock::now()) + milliseconds(1);
  return left < milliseconds(0) ? milliseconds(0) : left;
}

std::int64_t elapsed_ms_since(SteadyClock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(SteadyClock::now() - start).count();
}

}  // namespace

std::vector<OptionProblem> check_options(const EngineConfig& engine,
                                         const std::vector<uqi::OptionLine>& declared) {
  std::vector<OptionProblem> problems;
  const auto same = [](std::string_view a, std::string_view b) {
    return text_helpers::to_lower(a) == text_helpers::to_lower(b);
  };
  for (const auto& name_and_value : engine.options) {
    // Named, not structured bindings: clang 14 (the sanitizer presets) cannot capture those.
    const std::string& name = name_and_value.first;
    const std::string& value = name_and_value.second;
    const std::string given = "engine \"" + engine.name + "\": option." + name + "=" + value + ": ";
    const auto option =
        std::find_if(declared.begin(), declared.end(),
                     [&](const uqi::OptionLine& line) { return same(line.name, name); });
    if (option == declared.end()) {
      std::string names;
      for (const uqi::OptionLine& line : declared) names += (names.empty() ? "" : ", ") + line.name;
      problems.push_back({true, given + "the engine declares no option " + name + " (it declares " +
                                    (names.empty() ? "none" : names) + ")"});
      continue;
    }
    const std::string& type = option->type;
    std::string accepts;
    if (type == "spin") {
      const std::optional<std::int64_t> number = text_helpers::parse_integer(value);
      if (!number || (option->min && *number < *option->min) ||
          (option->max && *number > *option->max))
        accepts = "a whole number" + (option->min && option->max
                                          ? " from " + std::to_string(*option->min) + " to " +
                                                std::to_string(*option->max)
                                          : std::string());
    } else if (type == "check") {
      if (value != "true" && value != "false") accepts = "true or false";
    } else if (type == "combo") {
      if (std::none_of(option->vars.begin(), option->vars.end(),
                       [&](const std::string& var) { return same(var, value); })) {
        accepts = "one of";
        for (std::size_t i = 0; i < option->vars.size(); ++i)
          accepts += (i == 0 ? " " : ", ") + option->vars[i];
      }
    } else if (type == "button") {
      if (!value.empty()) accepts = "no value (option." + option->name + "=)";
    }
    if (!accepts.empty())
      problems.push_back(
          {false, given + option->name + " is a " + type + " option, which takes " + accepts});
  }
  return problems;
}

EngineProbe probe_engine(const EngineConfig& engine, const ProcessLauncher& launcher,
                         std::chrono::milliseconds timeout) {
  EngineProbe probe;
  EngineClient client(engine, launcher);
  if (!client.start(timeout)) {
    probe.error = client.last_error();
    return probe;
  }
  client.quit();
  probe.id_name = client.id_name();
  probe.declared_options = client.declared_options();
  probe.option_problems = check_options(engine, probe.declared_options);
  probe.option_errors = client.option_errors();
  return probe;
}

ProcessLauncher default_launcher() {
  return [](const ProcessSpec& spec) { return start_process(spec); };
}

EngineClient::EngineClient(EngineConfig config, ProcessLauncher launcher)
    : config_(std::move(config)), launcher_(std::move(launcher)) {}

EngineClient::~EngineClient() {
  quit();
}

std::string EngineClient::prefix() const {
  return "engine \"" + config_.name + "\"";
}

void EngineClient::fail(const std::string& what) {
  last_error_ = prefix() + ": " + what;
}

EngineClient::WaitResult EngineClient::wait_for(std::string_view token,
                                                SteadyClock::time_point deadline,
                                                const std::function<void(const std::string&)>& each,
                                                std::string* found_line) {
  // Past the deadline, what has arrived already is still read (a zero timeout is a poll), up to
  // this many lines: an arena that was not scheduled for a while (a loaded machine, a sanitizer
  // build) must not take a reply that came in time for a stall, and an engine that floods its
  // output must not keep the arena long past the deadline.
  constexpr int kLinesAfterDeadline = 1000;
  int late_lines = 0;
  for (;;) {
    const bool late = SteadyClock::now() >= deadline;
    if (late && late_lines++ == kLinesAfterDeadline) return WaitResult::Timeout;
    EngineProcess::ReadResult read =
        process_->read_line(late ? milliseconds(0) : remaining_until(deadline));
    switch (read.status) {
      case EngineProcess::ReadStatus::Closed:
        return WaitResult::Closed;
      case EngineProcess::ReadStatus::Timeout:
        if (late) return WaitResult::Timeout;
        break;  // the loop checks the deadline
      case EngineProcess::ReadStatus::Line:
        if (first_token(read.line) == token) {
          if (found_line) *found_line = std::move(read.line);
          return WaitResult::Found;
        }
        if (each) each(read.line);
        break;
    }
  }
}

bool EngineClient::start(milliseconds timeout) {
  if (process_) quit();
  // The old process's exit is not part of the new one's handshake time.
  const SteadyClock::time_point deadline = SteadyClock::now() + timeout;
  last_error_.clear();
  id_name_.clear();
  declared_options_.clear();
  option_errors_.clear();
  searching_ = false;
  try {
    process_ = launcher_(config_.process);
  } catch (const std::exception& error) {
    process_.reset();
    last_error_ = prefix() + " could not start: " + error.what();
    return false;
  }
  if (!process_) {
    last_error_ = prefix() + " could not start: the launcher gave no process";
    return false;
  }

  const bool uqi = config_.protocol == Protocol::Uqi;
  const std::string ok = uqi ? "uqiok" : "ugiok";
  // An engine that exited is reaped at once. One that is silent is left running, so that the
  // caller can tell a stall (alive()) from a crash; quit() or the next start() ends it.
  const auto exited = [this](const std::string& what) {
    fail(what);
    process_->shut_down(kExitGrace);
    process_.reset();
    return false;
  };
  const auto silent = [this](const std::string& what) {
    fail(what);
    return false;
  };
  const auto read_id = [this](const std::string& line) {
    if (const std::optional<uqi::IdLine> id = uqi::parse_id_line(line); id && id->field == "name")
      id_name_ = id->value;
    else if (std::optional<uqi::OptionLine> option = uqi::parse_option_line(line))
      declared_options_.push_back(std::move(*option));
  };

  if (!process_->write_line(uqi ? "uqi" : "ugi")) return exited("exited during the handshake");
  switch (wait_for(ok, deadline, read_id)) {
    case WaitResult::Found:
      break;
    case WaitResult::Closed:
      fail(end_after_closed_output("during the handshake"));
      return false;
    case WaitResult::Timeout:
      return silent("no " + ok + " within " + std::to_string(timeout.count()) + " ms");
  }
  for (const std::string& line : config_.init_strings)
    if (!process_->write_line(line)) return exited("exited while its init strings were sent");
  for (const auto& [name, value] : config_.options) {
    uqi::SetOptionCommand command{name, std::nullopt};
    // An empty value means a button, which takes none.
    if (!value.empty()) command.value = value;
    if (!process_->write_line(uqi::format_setoption_command(command)))
      return exited("exited while its options were set");
  }
  if (!process_->write_line("isready")) return exited("exited during the handshake");
  // What the engine says about its options: an `info string` with an error in it.
  const auto read_complaint = [this](const std::string& line) {
    const std::optional<uqi::InfoLine> info = uqi::parse_info_line(line);
    if (info && info->string &&
        text_helpers::to_lower(*info->string).find("error") != std::string::npos)
      option_errors_.push_back(*info->string);
  };
  switch (wait_for("readyok", deadline, read_complaint)) {
    case WaitResult::Found:
      return true;
    case WaitResult::Closed:
      fail(end_after_closed_output("during the handshake"));
      return false;
    case WaitResult::Timeout:
      return silent("no readyok within " + std::to_string(timeout.count()) + " ms");
  }
  return true;
}

bool EngineClient::new_game(milliseconds timeout) {
  const SteadyClock::time_point deadline = SteadyClock::now() + timeout;
  if (!process_) {
    fail("is not running");
    return false;
  }
  const bool uqi = config_.protocol == Protocol::Uqi;
  if (!process_->write_line(uqi ? "uqinewgame" : "uginewgame") ||
      !process_->write_line("isready")) {
    fail("exited before a new game");
    return false;
  }
  switch (wait_for("readyok", deadline, {})) {
    case WaitResult::Found:
      return true;
    case WaitResult::Closed:
      fail(end_after_closed_output("before a new game"));
      return false;
    case WaitResult::Timeout:
      fail("no readyok within " + std::to_string(timeout.count()) + " ms after " +
           (uqi ? "uqinewgame" : "uginewgame"));
      return false;
  }
  return false;
}

bool EngineClient::set_option(const std::string& name, const std::string& value) {
  if (!process_) {
    fail("is not running");
    return false;
  }
  uqi::SetOptionCommand command{name, std::nullopt};
  if (!value.empty()) command.value = value;
  if (!process_->write_line(uqi::format_setoption_command(command))) {
    fail("exited before its options were set");
    return false;
  }
  return true;
}

MoveReply EngineClient::go(const std::string& position_arguments, const GoRequest& request,
                           milliseconds deadline, const SearchWatch* watch) {
  return search(position_arguments, format_go(request, config_.protocol), request.own.ponder,
                deadline, watch);
}

MoveReply EngineClient::go(const std::string& position_arguments, const GoRequest4& request,
                           milliseconds deadline, const SearchWatch* watch) {
  const bool ponder = request.seats[static_cast<std::size_t>(request.mover & 3)].ponder;
  return search(position_arguments, format_go4(request), ponder, deadline, watch);
}

MoveReply EngineClient::search(const std::string& position_arguments, const std::string& go_line,
                               bool ponder, milliseconds deadline, const SearchWatch* watch) {
  MoveReply reply;
  if (!process_) {
    fail("is not running");
    return reply;
  }
  if (!process_->write_line("position " + position_arguments)) {
    fail("exited before its move");
    return reply;
  }
  SteadyClock::time_point start = SteadyClock::now();
  // A ponder search that the watch can turn into a real one has no deadline until ponderhit.
  bool ponderhit_pending = ponder && watch && watch->ponderhit_requested;
  SteadyClock::time_point end =
      ponderhit_pending ? SteadyClock::time_point::max() : start + deadline;
  if (!process_->write_line(go_line)) {
    reply.elapsed_ms = elapsed_ms_since(start);
    fail("exited before its move");
    return reply;
  }
  searching_ = true;
  std::optional<uqi::InfoLine> scored;
  std::optional<uqi::InfoLine> with_depth;
  std::string bestmove_line;
  const auto each_line = [&](const std::string& line) {
    // Anything that is not an `info` line is ignored: engines print all kinds of things.
    std::optional<uqi::InfoLine> info = uqi::parse_info_line(line);
    if (!info) return;
    if (watch && watch->on_info) watch->on_info(*info);
    // With MultiPV the best line is `multipv 1` (a line without multipv counts as 1); the
    // others are worse moves, whose scores say nothing about the position.
    if (info->multipv.value_or(1) != 1) return;
    if (info->score_cp || info->score_mate)
      scored = std::move(info);
    else if (info->depth)
      with_depth = std::move(info);
  };
  // A watched search is read in short slices, so that a stop or ponderhit request is seen within
  // one. A stop wins over a ponderhit that comes with it: the search it ends is not wanted.
  constexpr milliseconds kStopPoll{20};
  bool stop_sent = false;
  WaitResult result = WaitResult::Timeout;
  for (;;) {
    const bool polling = watch && ((watch->stop_requested && !stop_sent) || ponderhit_pending);
    const SteadyClock::time_point slice_end =
        polling ? std::min(end, SteadyClock::now() + kStopPoll) : end;
    result = wait_for("bestmove", slice_end, each_line, &bestmove_line);
    if (result != WaitResult::Timeout || !polling || SteadyClock::now() >= end) break;
    if (watch->stop_requested && !stop_sent && watch->stop_requested->load()) {
      stop_sent = true;
      ponderhit_pending = false;
      if (!process_->write_line("stop")) {
        result = WaitResult::Closed;
        break;
      }
      end = std::min(end, SteadyClock::now() + watch->stop_grace);
    } else if (ponderhit_pending && watch->ponderhit_requested->load()) {
      ponderhit_pending = false;
      if (!process_->write_line("ponderhit")) {
        result = WaitResult::Closed;
        break;
      }
      // The engine's clock starts now, and so does the time it is charged.
      start = SteadyClock::now();
      end = start + deadline;
      reply.ponderhit = true;
    }
  }
  reply.elapsed_ms = elapsed_ms_since(start);
  reply.info = scored ? std::move(scored) : std::move(with_depth);
  switch (result) {
    case WaitResult::Found:
      searching_ = false;
      reply.status = MoveReply::Status::Move;
      if (const std::optional<uqi::BestMoveLine> best = uqi::parse_bestmove_line(bestmove_line)) {
        reply.move = best->move;
        reply.ponder = best->ponder.value_or("");
      } else {
        // A `bestmove` without a move is an answer all the same, and an illegal one; the game
        // loop judges the empty text.
        fail("sent `bestmove` without a move");
      }
      break;
    case WaitResult::Closed:
      searching_ = false;
      reply.status = MoveReply::Status::Disconnected;
      fail(end_after_closed_output("during its search"));
      break;
    case WaitResult::Timeout:
      reply.status = MoveReply::Status::Timeout;
      fail("no bestmove within " + std::to_string(deadline.count()) + " ms" +
           (reply.ponderhit ? " after `ponderhit`" : ""));
      break;
  }
  return reply;
}

bool EngineClient::stop_search(milliseconds grace) {
  if (!process_) {
    fail("is not running");
    return false;
  }
  if (!searching_) return true;  // the search already ended with its bestmove
  const SteadyClock::time_point deadline = SteadyClock::now() + grace;
  if (!process_->write_line("stop")) {
    fail("exited before `stop`");
    return false;
  }
  switch (wait_for("bestmove", deadline, {})) {
    case WaitResult::Found:
      searching_ = false;
      return true;
    case WaitResult::Closed:
      fail("exited after `stop`");
      return false;
    case WaitResult::Timeout:
      fail("no bestmove within " + std::to_string(grace.count()) + " ms after `stop`");
      return false;
  }
  return false;
}

void EngineClient::quit() {
  if (!process_) return;
  process_->write_line("quit");  // fails harmlessly when the engine is gone already
  process_->shut_down(kQuitGrace);
  process_.reset();
  searching_ = false;
}

std::string EngineClient::end_after_closed_output(const std::string& when) {
  // An engine whose output ended has normally exited; one that closed its stdout and lives on
  // can never answer again. Either way it is a disconnection, and the process is ended now, so
  // that alive() is false (a crash, not a stall) and the next game starts it afresh.
  const SteadyClock::time_point deadline = SteadyClock::now() + kClosedOutputGrace;
  while (process_->running() && SteadyClock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(2));
  const bool exited = !process_->running();
  process_->shut_down(milliseconds(0));
  process_.reset();
  searching_ = false;
  return exited ? "exited " + when
                : "closed its output " + when + " but kept running (it was killed)";
}

bool EngineClient::alive() {
  return process_ && process_->running();
}

}  // namespace quixo::arena
