// The compliance checks of quixo-arena --compliance. The engine is driven line by line through
// EngineProcess (EngineClient hides what a check must see: a second `bestmove`, a `readyok` that
// comes late, error lines); what it writes is read with the protocol's parsers and every move is
// judged by the rules core.
#include "compliance.hpp"

#include <algorithm>
#include <bit>
#include <exception>
#include <initializer_list>
#include <optional>
#include <random>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>

#include "core/game.hpp"
#include "core/notation.hpp"
#include "core/text_helpers.hpp"

namespace quixo::arena {
namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using Status = ComplianceCheck::Status;

// How long a search runs before the check sends `isready`, `stop` or `ponderhit`, and how long
// the engine has to show a stray second `bestmove` before the check asks `isready` to be sure
// it has none. Long enough for a search thread to be well under way, short for the suite's time.
constexpr milliseconds kSettle{100};
// The search time of each position of the legal-move checks: the point is the move, not its
// quality.
constexpr std::int64_t kQuickMovetimeMs = 20;
// The `go movetime` of the movetime check.
constexpr std::int64_t kMovetimeMs = 300;
// The clock the opponent (or the other seats) has in the clock checks: far more than the mover's,
// so that an engine that reads the wrong clock overruns its own.
constexpr std::int64_t kOtherClockMs = 60'000;

std::string first_token(std::string_view line) {
  const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
  return tokens.empty() ? std::string() : std::string(tokens.front());
}

std::string quote(std::string_view line) {
  return "`" + std::string(line) + "`";
}

std::int64_t ms_since(SteadyClock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(SteadyClock::now() - start).count();
}

// What one check found: a pass, or a failure or skip with its reason.
struct Verdict {
  Status status = Status::Pass;
  std::string reason;
};
Verdict pass() {
  return {};
}
Verdict fail(std::string reason) {
  return {Status::Fail, std::move(reason)};
}
Verdict skip(std::string reason) {
  return {Status::Skip, std::move(reason)};
}

// One engine process and the lines it writes, every read with a deadline.
class Conversation {
 public:
  Conversation(const EngineConfig& config, ProcessLauncher launcher, milliseconds timeout)
      : config_(config), launcher_(std::move(launcher)), timeout_(timeout) {}
  ~Conversation() { kill(); }
  Conversation(const Conversation&) = delete;
  Conversation& operator=(const Conversation&) = delete;

  struct Handshake {
    bool id_name = false;
    bool id_author = false;
    std::vector<std::string> option_lines;
  };

  struct Reply {
    enum class Kind { Found, Timeout, Closed } kind = Kind::Closed;
    std::string line;                 // the line that was looked for
    std::vector<std::string> before;  // the lines read before it
  };

  // Starts the process and shakes hands in the engine's protocol, then sends the user's options
  // and waits for `readyok`. Returns why that failed, or an empty string. Throws
  // ProcessStartError when the command cannot be started.
  std::string start(Handshake& record) {
    kill();
    process_ = launcher_(config_.process);
    if (!process_) throw ProcessStartError("the launcher gave no process");
    const bool uqi_names = config_.protocol == Protocol::Uqi;
    const std::string hello = uqi_names ? "uqi" : "ugi";
    const std::string ok = uqi_names ? "uqiok" : "ugiok";
    if (!send(hello)) return "the engine exited before " + quote(hello);
    const Reply reply = read_until({ok}, SteadyClock::now() + timeout_);
    for (const std::string& line : reply.before) {
      const std::string token = first_token(line);
      if (token == "option") record.option_lines.push_back(line);
      if (const std::optional<uqi::IdLine> id = uqi::parse_id_line(line)) {
        record.id_name = record.id_name || id->field == "name";
        record.id_author = record.id_author || id->field == "author";
      }
    }
    if (reply.kind != Reply::Kind::Found) return missing(reply, ok + " after " + quote(hello));
    for (const auto& [name, value] : config_.options) {
      if (!send(setoption_line(name, value.empty() ? std::nullopt : std::optional(value))))
        return "the engine exited while its options were set";
    }
    if (!send("isready")) return "the engine exited after the handshake";
    const Reply ready = read_until({"readyok"}, SteadyClock::now() + timeout_);
    if (ready.kind != Reply::Kind::Found) return missing(ready, "readyok after the handshake");
    return {};
  }

  bool alive() const { return process_ != nullptr && !closed_; }

  bool send(std::string_view line) {
    if (!alive()) return false;
    if (!process_->write_line(line)) {
      closed_ = true;
      return false;
    }
    return true;
  }

  // Reads until a line whose first word is one of `tokens`, or until `deadline`.
  Reply read_until(std::initializer_list<std::string_view> tokens,
                   SteadyClock::time_point deadline) {
    Reply reply;
    for (;;) {
      if (!alive()) {
        reply.kind = Reply::Kind::Closed;
        return reply;
      }
      const auto left = std::chrono::duration_cast<milliseconds>(deadline - SteadyClock::now());
      if (left.count() < 0) {
        reply.kind = Reply::Kind::Timeout;
        return reply;
      }
      EngineProcess::ReadResult read = process_->read_line(left + milliseconds(1));
      if (read.status == EngineProcess::ReadStatus::Closed) {
        closed_ = true;
        continue;
      }
      if (read.status == EngineProcess::ReadStatus::Timeout) continue;
      note(read.line);
      const std::string token = first_token(read.line);
      if (std::find(tokens.begin(), tokens.end(), token) != tokens.end()) {
        reply.kind = Reply::Kind::Found;
        reply.line = std::move(read.line);
        return reply;
      }
      reply.before.push_back(std::move(read.line));
    }
  }

  // Every line that arrives within `window` (fewer when the engine's output ends).
  std::vector<std::string> read_for(milliseconds window) {
    return read_until({}, SteadyClock::now() + window).before;
  }

  // `why` for a reply that did not come: "no WHAT within N ms" or that the engine had gone.
  std::string missing(const Reply& reply, const std::string& what) const {
    if (reply.kind == Reply::Kind::Closed)
      return "the engine exited (or closed its output) before " + what;
    return "no " + what + " within " + std::to_string(timeout_.count()) + " ms";
  }

  // `quit`, then up to `grace` for the process to exit by itself. Whether it did.
  bool quit(milliseconds grace) {
    if (!process_) return false;
    send("quit");
    const SteadyClock::time_point deadline = SteadyClock::now() + grace;
    while (process_->running() && SteadyClock::now() < deadline)
      std::this_thread::sleep_for(milliseconds(5));
    const bool exited = !process_->running();
    kill();
    return exited;
  }

  void kill() {
    if (process_) process_->shut_down(milliseconds(0));
    process_.reset();
    closed_ = false;
  }

  static std::string setoption_line(const std::string& name,
                                    const std::optional<std::string>& value) {
    std::string line = uqi::format_setoption_command({name, value});
    while (!line.empty() && line.back() == ' ') line.pop_back();  // an empty string value
    return line;
  }

  const std::vector<std::string>& info_lines() const { return info_lines_; }

 private:
  void note(const std::string& line) {
    // Enough to judge the engine's info lines without keeping a flood of them.
    constexpr std::size_t kMaxInfoLines = 20'000;
    if (first_token(line) == "info" && info_lines_.size() < kMaxInfoLines)
      info_lines_.push_back(line);
  }

  const EngineConfig& config_;
  ProcessLauncher launcher_;
  milliseconds timeout_;
  std::unique_ptr<EngineProcess> process_;
  bool closed_ = false;  // the engine's output ended or its input is closed
  std::vector<std::string> info_lines_;
};

using Reply = Conversation::Reply;

// A position to send: the `position` command's arguments and the position they give.
struct Sample {
  std::string arguments;
  Game position;
};

std::string join_moves(const std::vector<std::string>& moves) {
  std::string text;
  for (const std::string& move : moves) text += " " + move;
  return text;
}

// Random legal play from the start, the notation of docs/spec.md §3 in and out. `target_plies`
// plies, or until at most `max_blanks` blanks are left; moves that would end the game are avoided
// unless `finish` asks for a finished game, in which case a move that ends it is taken as soon as
// there is one (after 8 plies, so that the line is not always the first possible).
template <class PositionT>
std::optional<std::pair<PositionT, std::vector<std::string>>> random_play(std::mt19937_64& random,
                                                                          int target_plies,
                                                                          int max_blanks,
                                                                          bool finish) {
  PositionT position = PositionT::start();
  std::vector<std::string> moves;
  constexpr int kMaxPlies = 400;
  for (int ply = 0; ply < kMaxPlies; ++ply) {
    if (position.is_game_over())
      return finish ? std::optional(std::pair(position, moves)) : std::nullopt;
    if (!finish && ply >= target_plies && std::popcount(position.blanks()) <= max_blanks) break;
    const auto legal = position.legal_moves();
    std::vector<std::size_t> quiet;
    std::vector<std::size_t> ending;
    for (std::size_t i = 0; i < legal.size(); ++i)
      (position.after(legal[i]).is_game_over() ? ending : quiet).push_back(i);
    std::size_t chosen = 0;
    if (finish && ply >= 8 && !ending.empty()) {
      chosen = ending[random() % ending.size()];
    } else if (!quiet.empty()) {
      chosen = quiet[random() % quiet.size()];
    } else if (finish) {
      chosen = ending[random() % ending.size()];
    } else {
      break;  // every move ends the game: this position will do
    }
    moves.push_back(to_string(legal[chosen]));
    position = position.after(legal[chosen]);
  }
  if (finish != position.is_game_over()) return std::nullopt;
  return std::pair(position, moves);
}

// `count` positions of one variant: alternately as `startpos moves ...` (`fen <start> moves ...`
// for four players, which the `position` of docs/spec.md §5 has no start word for) and as
// `fen <position>`. A third of them are played until few blanks are left (0 to 3), where moves are
// mostly slides of the mover's own cubes.
template <class PositionT>
std::vector<Sample> random_samples(std::mt19937_64& random, int count, bool finished) {
  constexpr bool kFour = std::is_same_v<PositionT, Position4>;
  std::vector<Sample> samples;
  for (int i = 0; static_cast<int>(samples.size()) < count && i < 4 * count; ++i) {
    int plies = static_cast<int>(random() % 30);
    int blanks = 25;
    if (i % 3 == 1) plies = 30 + static_cast<int>(random() % 90);
    if (i % 3 == 2) blanks = static_cast<int>(random() % 4);
    const auto played = random_play<PositionT>(random, plies, blanks, finished);
    if (!played) continue;
    const auto& [position, moves] = *played;
    std::string arguments;
    if (i % 2 == 0)
      arguments = std::string(kFour ? "fen 5/5/5/5/5 1" : "startpos") +
                  (moves.empty() ? "" : " moves" + join_moves(moves));
    else
      arguments = "fen " + to_string(position);
    samples.push_back({std::move(arguments), Game(position)});
  }
  return samples;
}

// A four-player position in which seat 1 must pass: every periphery cube is O, or X pointing to
// seat 3, and no line is made.
Sample forced_pass_sample() {
  const std::string text = "XoXoX/o3o/X3X/o3o/XoXoX 1";
  return {"fen " + text, Game::parse(text)};
}

// Why `info` line `line` is malformed, or nullopt: the numeric fields of UCI carry whole
// numbers, `score` is `cp N` or `mate N` (optionally `lowerbound`/`upperbound`), and unknown
// words are ignored, as UCI says.
std::optional<std::string> malformed_info(std::string_view line) {
  static constexpr std::string_view kNumeric[] = {
      "depth",   "seldepth", "time",           "nodes",   "nps",   "hashfull",
      "multipv", "tbhits",   "currmovenumber", "cpuload", "sbhits"};
  static constexpr std::string_view kWords[] = {
      "depth",   "seldepth", "time",     "nodes",          "nps",     "hashfull",
      "multipv", "tbhits",   "currmove", "currmovenumber", "cpuload", "sbhits",
      "score",   "pv",       "string",   "refutation",     "currline"};
  const auto is_word = [](std::string_view token) {
    return std::find(std::begin(kWords), std::end(kWords), token) != std::end(kWords);
  };
  const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
  for (std::size_t i = 1; i < tokens.size();) {
    const std::string_view key = tokens[i++];
    if (key == "string") return std::nullopt;  // the rest is free text
    if (std::find(std::begin(kNumeric), std::end(kNumeric), key) != std::end(kNumeric)) {
      if (i == tokens.size() || !text_helpers::parse_unsigned(tokens[i]))
        return quote(key) + " is not followed by a whole number";
      ++i;
    } else if (key == "score") {
      if (i + 1 >= tokens.size() || (tokens[i] != "cp" && tokens[i] != "mate") ||
          !text_helpers::parse_integer(tokens[i + 1]))
        return "`score` is not followed by `cp N` or `mate N`";
      i += 2;
      if (i < tokens.size() && (tokens[i] == "lowerbound" || tokens[i] == "upperbound")) ++i;
    } else if (key == "currmove") {
      if (i == tokens.size()) return std::string("`currmove` has no move");
      ++i;
    } else if (key == "pv" || key == "refutation" || key == "currline") {
      while (i < tokens.size() && !is_word(tokens[i])) ++i;
    }
  }
  return std::nullopt;
}

// Lines that say a `setoption` went wrong. Engines print such complaints as `info string ...`
// or as bare text, so any wording of this kind counts.
bool complains(std::string_view line) {
  const std::string lower = text_helpers::to_lower(line);
  for (const std::string_view word : {"error", "unknown", "invalid", "illegal", "no such"})
    if (lower.find(word) != std::string::npos) return true;
  return false;
}

class Checker {
 public:
  Checker(const EngineConfig& engine, const ComplianceOptions& options, ProcessLauncher launcher)
      : engine_(engine),
        options_(options),
        conversation_(engine_, std::move(launcher), options.timeout),
        random_(options.seed) {}

  using Method = Verdict (Checker::*)();
  // The checks in the order they run. Each needs a running engine (started again when a
  // check before failed) but the handshake, which starts it, and info-lines, which judges what
  // the others read.
  static const std::vector<std::pair<std::string_view, Method>>& checks() {
    static const std::vector<std::pair<std::string_view, Method>> table = {
        {"handshake", &Checker::handshake},
        {"options", &Checker::check_options},
        {"isready", &Checker::isready},
        {"newgame", &Checker::newgame},
        {"isready-while-searching", &Checker::isready_while_searching},
        {"stop", &Checker::stop},
        {"one-bestmove-per-go", &Checker::one_bestmove_per_go},
        {"legal-moves", &Checker::legal_moves},
        {"finished-positions", &Checker::finished_positions},
        {"four-player", &Checker::four_player},
        {"clock", &Checker::clock},
        {"movetime", &Checker::movetime},
        {"ponder", &Checker::ponder},
        {"ugi", &Checker::ugi},
        {"info-lines", &Checker::info_lines},
        {"quit", &Checker::quit},
    };
    return table;
  }

  ComplianceReport run(const std::function<void(const ComplianceCheck&)>& on_check) {
    ComplianceReport report;
    for (const auto& [name, method] : checks()) {
      Verdict verdict;
      if (name == "handshake" || name == "info-lines") {
        verdict = (this->*method)();
      } else if (std::string why; !ensure_engine(why)) {
        verdict = fail("not run: " + why);
      } else {
        verdict = (this->*method)();
      }
      // After a failure the engine's state is unknown (a search may still run, an answer may
      // still come): the next check starts it afresh.
      if (verdict.status == Status::Fail) conversation_.kill();
      report.checks.push_back({std::string(name), verdict.status, verdict.reason});
      if (on_check) on_check(report.checks.back());
    }
    return report;
  }

 private:
  // A running engine for the next check: started again when it exited or a check failed.
  bool ensure_engine(std::string& why) {
    if (conversation_.alive()) return true;
    if (!unusable_.empty()) {
      why = unusable_;
      return false;
    }
    Conversation::Handshake record;
    std::string error;
    try {
      error = conversation_.start(record);
    } catch (const std::exception& exception) {
      error = std::string("could not start: ") + exception.what();
    }
    if (error.empty()) {
      if (!handshake_done_) remember(record);
      return true;
    }
    conversation_.kill();
    // One attempt: an engine that cannot be started again would cost every later check a
    // timeout, and each would fail for the same reason.
    unusable_ = "the engine could not be started again (" + error + ")";
    why = unusable_;
    return false;
  }

  void remember(const Conversation::Handshake& record) {
    handshake_done_ = true;
    option_lines_ = record.option_lines;
    for (const std::string& line : option_lines_) {
      const std::optional<uqi::OptionLine> option = uqi::parse_option_line(line);
      if (option && text_helpers::to_lower(option->name) == "ponder" && option->type == "check")
        has_ponder_ = true;
    }
  }

  const std::string& newgame_word() const {
    static const std::string uqi = "uqinewgame";
    static const std::string ugi = "uginewgame";
    return engine_.protocol == Protocol::Uqi ? uqi : ugi;
  }

  // Sends `position` and `go_line`, then waits up to `limit` for the `bestmove`. nullopt and
  // `why` when it does not come; the reply and the milliseconds it took otherwise.
  struct Answer {
    Reply reply;
    std::int64_t elapsed_ms = 0;
  };
  std::optional<Answer> search(const Sample& sample, const std::string& go_line, milliseconds limit,
                               std::string& why) {
    if (!conversation_.send("position " + sample.arguments) || !conversation_.send(go_line)) {
      why = "the engine exited before " + quote(go_line);
      return std::nullopt;
    }
    const SteadyClock::time_point start = SteadyClock::now();
    Answer answer{conversation_.read_until({"bestmove"}, start + limit), 0};
    answer.elapsed_ms = ms_since(start);
    if (answer.reply.kind == Reply::Kind::Closed) {
      why = "the engine exited (or closed its output) after " + quote(go_line);
      return std::nullopt;
    }
    if (answer.reply.kind == Reply::Kind::Timeout) {
      why = "no bestmove within " + std::to_string(limit.count()) + " ms after " + quote(go_line);
      return std::nullopt;
    }
    return answer;
  }

  // Why `bestmove_line` is not a legal answer in `position`, or an empty string. A finished
  // game has no legal move, so its answer is `0000`, UCI's null move (as a forced pass is).
  static std::string judge_bestmove(const Game& position, const std::string& bestmove_line) {
    const std::optional<uqi::BestMoveLine> best = uqi::parse_bestmove_line(bestmove_line);
    if (!best) return quote(bestmove_line) + " has no move";
    if (position.is_game_over()) {
      if (best->move != "0000")
        return quote(bestmove_line) + " in a finished game (" + to_string(position.outcome()) +
               "), where the only answer is `bestmove 0000`";
      return {};
    }
    Game after = position;
    try {
      after.play(best->move);
    } catch (const NotationError& error) {
      return quote(bestmove_line) + ": " + error.what();
    }
    if (best->ponder && !after.is_game_over()) {
      try {
        after.play(*best->ponder);
      } catch (const NotationError& error) {
        return quote(bestmove_line) + ": the ponder move: " + error.what();
      }
    }
    return {};
  }

  // After a search's `bestmove`: gives the engine `settle` to show another one, then asks
  // `isready`; a `bestmove` before `readyok` is one too many. Returns why, or an empty string.
  // (Without it, a second `bestmove` would be taken for the answer to the next `go`.)
  std::string no_second_bestmove(const std::string& after_what, milliseconds settle = kSettle) {
    std::vector<std::string> lines = conversation_.read_for(settle);
    if (!conversation_.send("isready")) return "the engine exited after " + after_what;
    const Reply ready =
        conversation_.read_until({"readyok"}, SteadyClock::now() + options_.timeout);
    lines.insert(lines.end(), ready.before.begin(), ready.before.end());
    for (const std::string& line : lines)
      if (first_token(line) == "bestmove")
        return "a second bestmove (" + quote(line) + ") after " + after_what;
    if (ready.kind != Reply::Kind::Found)
      return conversation_.missing(ready, "readyok after " + after_what);
    return {};
  }

  // `isready` answered with `readyok` (no bestmove expected).
  std::string ready(const std::string& after_what) {
    if (!conversation_.send("isready")) return "the engine exited after " + after_what;
    const Reply reply =
        conversation_.read_until({"readyok"}, SteadyClock::now() + options_.timeout);
    if (reply.kind != Reply::Kind::Found)
      return conversation_.missing(reply, "readyok after " + after_what);
    return {};
  }

  std::string go_line(const uqi::GoLimits& own, const uqi::GoLimits& other, bool x_to_move,
                      Protocol protocol) const {
    return uqi::format_go({own, other, x_to_move}, protocol);
  }
  std::string go_line(const uqi::GoLimits& own) const {
    return go_line(own, {}, true, engine_.protocol);
  }

  static uqi::GoLimits movetime_limits(std::int64_t ms) {
    uqi::GoLimits limits;
    limits.move_time_ms = ms;
    return limits;
  }
  static uqi::GoLimits infinite_limits() {
    uqi::GoLimits limits;
    limits.infinite = true;
    return limits;
  }

  // A position after `plies` random plies from the start (X to move when `plies` is even), the
  // same for the same seed.
  Sample middle_game(int plies) const {
    std::mt19937_64 random(options_.seed ^ static_cast<std::uint64_t>(plies));
    // Random play ends early only when every move would end the game, which no short game
    // meets; the start position is the fallback all the same.
    for (int attempt = 0; attempt < 100; ++attempt) {
      if (auto played = random_play<Position>(random, plies, 25, false);
          played && static_cast<int>(played->second.size()) == plies)
        return {"startpos moves" + join_moves(played->second), Game(played->first)};
    }
    return {"startpos", Game()};
  }

  // A search that must end by itself within `limit` with one legal bestmove and no second one.
  std::string search_once(const Sample& sample, const std::string& line, milliseconds limit) {
    std::string why;
    const std::optional<Answer> answer = search(sample, line, limit, why);
    if (!answer) return why;
    if (std::string bad = judge_bestmove(sample.position, answer->reply.line); !bad.empty())
      return "after " + quote(line) + ": " + bad;
    return no_second_bestmove(quote(line));
  }

  // An infinite (or ponder) search: no bestmove for kSettle, then `ending` (stop or ponderhit)
  // gives exactly one legal bestmove within `limit`.
  std::string search_until(const Sample& sample, const std::string& line, const std::string& ending,
                           milliseconds limit) {
    if (!conversation_.send("position " + sample.arguments) || !conversation_.send(line))
      return "the engine exited before " + quote(line);
    for (const std::string& early : conversation_.read_for(kSettle))
      if (first_token(early) == "bestmove")
        return quote(early) + " before " + quote(ending) + " in " + quote(line) + " (only `" +
               ending + "` may end it)";
    if (!conversation_.send(ending)) return "the engine exited during " + quote(line);
    const Reply reply = conversation_.read_until({"bestmove"}, SteadyClock::now() + limit);
    if (reply.kind != Reply::Kind::Found)
      return conversation_.missing(reply, "bestmove after " + quote(ending) + " of " + quote(line));
    if (std::string bad = judge_bestmove(sample.position, reply.line); !bad.empty())
      return "after " + quote(ending) + ": " + bad;
    return no_second_bestmove(quote(ending) + " of " + quote(line));
  }

  // ------------------------------------------------------------------------------- the checks

  Verdict handshake() {
    Conversation::Handshake record;
    // A command that cannot be started at all propagates: it is the user's error.
    const std::string error = conversation_.start(record);
    if (!error.empty()) return fail(error);
    remember(record);
    const std::string ok = engine_.protocol == Protocol::Uqi ? "uqiok" : "ugiok";
    if (!record.id_name) return fail("no `id name` line before " + ok);
    if (!record.id_author) return fail("no `id author` line before " + ok);
    return pass();
  }

  Verdict check_options() {
    std::vector<uqi::OptionLine> options;
    for (const std::string& line : option_lines_) {
      const std::optional<uqi::OptionLine> option = uqi::parse_option_line(line);
      if (!option || option->name.empty() || option->type.empty())
        return fail(quote(line) + " is not `option name N type T ...`");
      const std::string& type = option->type;
      const std::string& name = option->name;
      if (type == "spin") {
        if (!option->default_value || !option->min || !option->max ||
            !text_helpers::parse_integer(*option->default_value))
          return fail("spin option " + quote(name) + " needs a whole default, min and max");
        const std::int64_t value = *text_helpers::parse_integer(*option->default_value);
        if (*option->min > *option->max || value < *option->min || value > *option->max)
          return fail("spin option " + quote(name) + ": default " + *option->default_value +
                      " is not within min " + std::to_string(*option->min) + " and max " +
                      std::to_string(*option->max));
      } else if (type == "check") {
        if (option->default_value != "true" && option->default_value != "false")
          return fail("check option " + quote(name) + " needs the default true or false");
      } else if (type == "combo") {
        if (option->vars.empty() || !option->default_value ||
            std::find(option->vars.begin(), option->vars.end(), *option->default_value) ==
                option->vars.end())
          return fail("combo option " + quote(name) + " needs a default that is one of its vars");
      } else if (type != "string" && type != "button") {
        return fail("option " + quote(name) + " has the unknown type " + quote(type));
      }
      options.push_back(*option);
    }
    for (const uqi::OptionLine& option : options) {
      // Every value tried ends with the one the option keeps: the user's option.X, else the
      // default. Spins try their minimum (never the maximum: a Hash of 64 GiB would be a valid
      // value no machine has), checks the other value, combos each of their values.
      std::optional<std::string> keep = option.default_value;
      for (const auto& [name, value] : engine_.options)
        if (text_helpers::to_lower(name) == text_helpers::to_lower(option.name)) keep = value;
      std::vector<std::optional<std::string>> values;
      if (option.type == "spin") values.push_back(std::to_string(*option.min));
      if (option.type == "check") values.push_back(keep == "true" ? "false" : "true");
      if (option.type == "combo") values.assign(option.vars.begin(), option.vars.end());
      values.push_back(option.type == "button" ? std::nullopt : std::optional(keep.value_or("")));
      for (const std::optional<std::string>& value : values) {
        const std::string line = Conversation::setoption_line(option.name, value);
        if (!conversation_.send(line) || !conversation_.send("isready"))
          return fail("the engine exited after " + quote(line));
        const Reply reply =
            conversation_.read_until({"readyok"}, SteadyClock::now() + options_.timeout);
        for (const std::string& answer : reply.before)
          if (complains(answer)) return fail(quote(line) + " was answered " + quote(answer));
        if (reply.kind != Reply::Kind::Found)
          return fail(conversation_.missing(reply, "readyok after " + quote(line)));
      }
    }
    return pass();
  }

  Verdict isready() {
    for (int i = 0; i < 3; ++i)
      if (std::string why = ready("`isready`"); !why.empty()) return fail(why);
    if (!conversation_.send("position startpos"))
      return fail("the engine exited after `position startpos`");
    if (std::string why = ready("`position startpos`"); !why.empty()) return fail(why);
    // docs/spec.md §5: unknown commands are ignored.
    const std::string unknown = "quixo-compliance-unknown-command 1 2 3";
    if (!conversation_.send(unknown)) return fail("the engine exited after " + quote(unknown));
    if (std::string why = ready("an unknown command"); !why.empty()) return fail(why);
    return pass();
  }

  Verdict newgame() {
    if (!conversation_.send(newgame_word())) return fail("the engine exited at " + newgame_word());
    if (std::string why = ready(quote(newgame_word())); !why.empty()) return fail(why);
    const std::string line = go_line(movetime_limits(50));
    const std::string why =
        search_once({"startpos", Game()}, line, milliseconds(50) + options_.timeout);
    return why.empty() ? pass() : fail("after " + newgame_word() + ": " + why);
  }

  Verdict isready_while_searching() {
    const Sample sample = middle_game(4);
    const std::string line = go_line(infinite_limits());
    if (!conversation_.send("position " + sample.arguments) || !conversation_.send(line))
      return fail("the engine exited at " + quote(line));
    for (const std::string& early : conversation_.read_for(kSettle))
      if (first_token(early) == "bestmove")
        return fail(quote(early) + " before `stop` in `go infinite`");
    if (!conversation_.send("isready")) return fail("the engine exited during `go infinite`");
    const Reply reply =
        conversation_.read_until({"readyok", "bestmove"}, SteadyClock::now() + options_.timeout);
    if (reply.kind != Reply::Kind::Found)
      return fail(conversation_.missing(reply, "readyok while searching (`go infinite`)"));
    if (first_token(reply.line) == "bestmove")
      return fail(quote(reply.line) +
                  " before `readyok` to `isready` during `go infinite`: the "
                  "search must go on until `stop`");
    if (!conversation_.send("stop")) return fail("the engine exited during `go infinite`");
    const Reply best =
        conversation_.read_until({"bestmove"}, SteadyClock::now() + options_.timeout);
    if (best.kind != Reply::Kind::Found)
      return fail(conversation_.missing(best, "bestmove after `stop`"));
    if (std::string bad = judge_bestmove(sample.position, best.line); !bad.empty())
      return fail(bad);
    if (std::string why = no_second_bestmove("`stop`"); !why.empty()) return fail(why);
    return pass();
  }

  Verdict stop() {
    const std::string why =
        search_until(middle_game(10), go_line(infinite_limits()), "stop", options_.timeout);
    return why.empty() ? pass() : fail(why);
  }

  Verdict one_bestmove_per_go() {
    const Sample sample = middle_game(6);
    // A search that ended by itself, then a `stop` that has nothing to stop.
    const std::string movetime = go_line(movetime_limits(50));
    if (std::string why = search_once(sample, movetime, milliseconds(50) + options_.timeout);
        !why.empty())
      return fail(why);
    if (!conversation_.send("stop")) return fail("the engine exited after a late `stop`");
    if (std::string why = no_second_bestmove("`stop` after a finished search"); !why.empty())
      return fail(why);
    uqi::GoLimits depth;
    depth.depth = 2;
    uqi::GoLimits nodes;
    nodes.nodes = 2000;
    for (const uqi::GoLimits& limits : {depth, nodes})
      if (std::string why = search_once(sample, go_line(limits), options_.timeout); !why.empty())
        return fail(why);
    // Two stops of one infinite search: one bestmove.
    const std::string infinite = go_line(infinite_limits());
    if (std::string why = search_until(sample, infinite, "stop", options_.timeout); !why.empty())
      return fail(why);
    if (!conversation_.send("stop")) return fail("the engine exited after a second `stop`");
    if (std::string why = no_second_bestmove("a second `stop`"); !why.empty()) return fail(why);
    return pass();
  }

  // Every sample searched with `go movetime`, its answer judged by the rules core.
  Verdict play_samples(const std::vector<Sample>& samples) {
    const std::string line = go_line(movetime_limits(kQuickMovetimeMs));
    for (const Sample& sample : samples) {
      std::string why;
      const std::optional<Answer> answer =
          search(sample, line, milliseconds(kQuickMovetimeMs) + options_.timeout, why);
      if (!answer) return fail("position " + sample.arguments + ": " + why);
      if (std::string bad = judge_bestmove(sample.position, answer->reply.line); !bad.empty())
        return fail("position " + sample.arguments + ": " + bad);
      // No settling time per position (the suite's time): what an engine prints at once after
      // its `bestmove` comes before `readyok`.
      if (std::string extra = no_second_bestmove(quote(line), milliseconds(0)); !extra.empty())
        return fail("position " + sample.arguments + ": " + extra);
    }
    return pass();
  }

  Verdict legal_moves() {
    return play_samples(random_samples<Position>(random_, options_.positions, false));
  }

  Verdict finished_positions() {
    std::vector<Sample> samples =
        random_samples<Position>(random_, std::max(2, options_.positions / 8), true);
    const std::vector<Sample> four =
        random_samples<Position4>(random_, std::max(1, options_.positions / 16), true);
    samples.insert(samples.end(), four.begin(), four.end());
    return play_samples(samples);
  }

  Verdict four_player() {
    std::vector<Sample> samples =
        random_samples<Position4>(random_, std::max(1, options_.positions / 2), false);
    samples.push_back(forced_pass_sample());
    return play_samples(samples);
  }

  // One clock check: `line` must be answered within `budget_ms` plus the margin.
  std::string timed(const Sample& sample, const std::string& line, std::int64_t budget_ms) {
    const milliseconds limit = milliseconds(budget_ms) + options_.time_margin;
    std::string why;
    const std::optional<Answer> answer = search(sample, line, limit, why);
    if (!answer)
      return why + " (" + std::to_string(budget_ms) + " ms on the clock, " +
             std::to_string(options_.time_margin.count()) + " ms margin)";
    if (std::string bad = judge_bestmove(sample.position, answer->reply.line); !bad.empty())
      return "after " + quote(line) + ": " + bad;
    return no_second_bestmove(quote(line));
  }

  Verdict clock() {
    const Sample x_to_move = middle_game(8);
    const Sample o_to_move = middle_game(9);
    struct Case {
      const Sample* sample;
      std::int64_t own_ms;
      std::int64_t increment_ms;
    };
    // The mover's clock is short, the other long: an engine that reads the wrong one overruns.
    for (const Case& c :
         {Case{&x_to_move, 200, 0}, Case{&o_to_move, 200, 0}, Case{&x_to_move, 100, 100}}) {
      uqi::GoLimits own;
      own.time_ms = c.own_ms;
      own.increment_ms = c.increment_ms;
      uqi::GoLimits other;
      other.time_ms = kOtherClockMs;
      other.increment_ms = c.increment_ms;
      const bool x = c.sample->position.team_to_move() == Color::X;
      const std::string line = go_line(own, other, x, engine_.protocol);
      if (std::string why = timed(*c.sample, line, c.own_ms); !why.empty()) return fail(why);
    }
    // Four players: seat 2 to move on a short clock, the other seats on long ones.
    uqi::GoRequest4 request;
    for (uqi::GoLimits& seat : request.seats) {
      seat.time_ms = kOtherClockMs;
      seat.increment_ms = 0;
    }
    request.mover = 1;
    request.seats[1].time_ms = 200;
    Sample seat2 = {"fen 5/5/5/5/5 1 moves b1b5x", Game::start(Variant::FourPlayer)};
    seat2.position.play("b1b5x");
    if (std::string why = timed(seat2, uqi::format_go4(request), 200); !why.empty())
      return fail(why);
    return pass();
  }

  Verdict movetime() {
    const std::string line = go_line(movetime_limits(kMovetimeMs));
    const std::string why = timed(middle_game(6), line, kMovetimeMs);
    return why.empty() ? pass() : fail(why);
  }

  Verdict ponder() {
    if (!has_ponder_) return skip("the engine has no `Ponder` check option (SPEC 5: as in UCI)");
    std::optional<std::string> keep = "false";
    for (const auto& [name, value] : engine_.options)
      if (text_helpers::to_lower(name) == "ponder") keep = value;
    const std::string on = Conversation::setoption_line("Ponder", "true");
    if (!conversation_.send(on)) return fail("the engine exited after " + quote(on));
    if (std::string why = ready(quote(on)); !why.empty()) return fail(why);
    // The engine ponders on the position after the move it expects from its opponent.
    const Sample sample = middle_game(8);
    uqi::GoLimits own;
    own.time_ms = 1000;
    own.increment_ms = 0;
    own.ponder = true;
    uqi::GoLimits other = own;
    other.ponder = false;
    const std::string line = go_line(own, other, true, engine_.protocol);
    if (std::string why = search_until(sample, line, "ponderhit",
                                       milliseconds(*own.time_ms) + options_.time_margin);
        !why.empty())
      return fail(why);
    if (std::string why = search_until(sample, line, "stop", options_.timeout); !why.empty())
      return fail(why);
    const std::string off = Conversation::setoption_line("Ponder", keep);
    if (!conversation_.send(off)) return fail("the engine exited after " + quote(off));
    if (std::string why = ready(quote(off)); !why.empty()) return fail(why);
    return pass();
  }

  // `query` must be answered with `response <expected>`.
  std::string query(const std::string& what, const std::string& expected) {
    const std::string line = "query " + what;
    if (!conversation_.send(line)) return "the engine exited at " + quote(line);
    const Reply reply =
        conversation_.read_until({"response"}, SteadyClock::now() + options_.timeout);
    if (reply.kind != Reply::Kind::Found)
      return conversation_.missing(reply, "response to " + quote(line));
    if (uqi::parse_response_line(reply.line) != expected)
      return quote(line) + " was answered " + quote(reply.line) + ", not `response " + expected +
             "`";
    return {};
  }

  Verdict ugi() {
    // docs/spec.md §5: a UQI engine accepts the UGI names too, so that UGI arenas and GUIs can
    // drive it.
    if (!conversation_.send("ugi")) return fail("the engine exited at `ugi`");
    const Reply ok = conversation_.read_until({"ugiok"}, SteadyClock::now() + options_.timeout);
    if (ok.kind != Reply::Kind::Found) return fail(conversation_.missing(ok, "ugiok after `ugi`"));
    if (!conversation_.send("uginewgame")) return fail("the engine exited at `uginewgame`");
    if (std::string why = ready("`uginewgame`"); !why.empty()) return fail(why);
    const Sample x_to_move = middle_game(4);
    const Sample o_to_move = middle_game(5);
    uqi::GoLimits clock;
    clock.time_ms = 1000;
    clock.increment_ms = 0;
    const std::string line = go_line(clock, clock, true, Protocol::Ugi);
    if (std::string why = timed(x_to_move, line, *clock.time_ms); !why.empty()) return fail(why);
    std::mt19937_64 random(options_.seed);
    std::optional<Sample> finished;
    for (const Sample& sample : random_samples<Position>(random, 4, true))
      if (sample.position.outcome() != Outcome::Ongoing) finished = sample;
    struct Query {
      const Sample* sample;
      std::string what;
      std::string expected;
    };
    std::vector<Query> queries = {{&x_to_move, "p1turn", "true"},
                                  {&o_to_move, "p1turn", "false"},
                                  {&x_to_move, "gameover", "false"},
                                  {&x_to_move, "result", "none"}};
    if (finished) {
      queries.push_back({&*finished, "gameover", "true"});
      queries.push_back({&*finished, "result",
                         finished->position.outcome() == Outcome::XWins ? "p1win" : "p2win"});
    }
    for (const Query& q : queries) {
      if (!conversation_.send("position " + q.sample->arguments))
        return fail("the engine exited at `position`");
      if (std::string why = query(q.what, q.expected); !why.empty())
        return fail("position " + q.sample->arguments + ": " + why);
    }
    if (engine_.protocol == Protocol::Uqi) {
      // Back to the engine's own names for the checks that follow.
      if (!conversation_.send("uqi")) return fail("the engine exited at `uqi`");
      const Reply back = conversation_.read_until({"uqiok"}, SteadyClock::now() + options_.timeout);
      if (back.kind != Reply::Kind::Found)
        return fail(conversation_.missing(back, "uqiok after `uqi` (after the UGI names)"));
    }
    return pass();
  }

  Verdict info_lines() {
    if (conversation_.info_lines().empty() && !unusable_.empty())
      return fail("not run: " + unusable_);
    bool scored = false;
    for (const std::string& line : conversation_.info_lines()) {
      if (const std::optional<std::string> bad = malformed_info(line))
        return fail(quote(line) + ": " + *bad);
      const std::optional<uqi::InfoLine> info = uqi::parse_info_line(line);
      scored = scored || (info && (info->score_cp || info->score_mate));
    }
    if (!scored) return fail("no `info` line with a `score` in any search");
    return pass();
  }

  Verdict quit() {
    if (!conversation_.quit(options_.timeout))
      return fail("still running " + std::to_string(options_.timeout.count()) +
                  " ms after `quit` (it was killed)");
    return pass();
  }

  const EngineConfig& engine_;
  const ComplianceOptions& options_;
  Conversation conversation_;
  std::mt19937_64 random_;
  std::vector<std::string> option_lines_;
  bool handshake_done_ = false;
  bool has_ponder_ = false;
  std::string unusable_;  // why the engine could not be started again, once it could not
};

}  // namespace

int ComplianceReport::count(ComplianceCheck::Status status) const {
  return static_cast<int>(std::count_if(
      checks.begin(), checks.end(), [&](const ComplianceCheck& c) { return c.status == status; }));
}

const std::vector<std::string>& compliance_check_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const auto& entry : Checker::checks()) list.emplace_back(entry.first);
    return list;
  }();
  return names;
}

ComplianceReport run_compliance(const EngineConfig& engine, const ComplianceOptions& options,
                                const std::function<void(const ComplianceCheck&)>& on_check,
                                ProcessLauncher launcher) {
  return Checker(engine, options, std::move(launcher)).run(on_check);
}

std::string format_check(const ComplianceCheck& check) {
  switch (check.status) {
    case Status::Pass:
      return "PASS " + check.name;
    case Status::Fail:
      return "FAIL " + check.name + ": " + check.reason;
    case Status::Skip:
      break;
  }
  return "SKIP " + check.name + ": " + check.reason;
}

std::string format_summary(const ComplianceReport& report) {
  return std::string("compliance: ") + (report.all_passed() ? "PASS" : "FAIL") + " (" +
         std::to_string(report.count(Status::Pass)) + " passed, " +
         std::to_string(report.count(Status::Fail)) + " failed, " +
         std::to_string(report.count(Status::Skip)) + " skipped)";
}

}  // namespace quixo::arena
