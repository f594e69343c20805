// The arena's engine processes and clients: the `go` line for both protocols and both movers, the
// child process (PATH lookup, start errors, reads with a timeout, EOF, writes to a dead engine,
// shut down), and the client against the real engine, a scripted in-memory engine and every
// misbehaviour of quixo-mock-engine, each ending in the right status and a clear error within a
// bounded time.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/notation.hpp"
#include "core/text_helpers.hpp"
#include "engine_client.hpp"
#include "engine_process.hpp"
#include "uqi_engine_messages.hpp"

namespace bdata = boost::unit_test::data;
namespace text_helpers = quixo::text_helpers;
namespace uqi = quixo::uqi;
using namespace std::chrono_literals;
using quixo::arena::EngineClient;
using quixo::arena::EngineConfig;
using quixo::arena::EngineProcess;
using quixo::arena::GoLimits;
using quixo::arena::GoRequest;
using quixo::arena::MoveReply;
using quixo::arena::ProcessSpec;
using quixo::arena::ProcessStartError;
using quixo::arena::Protocol;
using quixo::arena::SearchWatch;
using ReadStatus = quixo::arena::EngineProcess::ReadStatus;
using MoveStatus = quixo::arena::MoveReply::Status;
using SteadyClock = std::chrono::steady_clock;

namespace {

// ------------------------------------------------------------------------------------ helpers

// Generous bounds for things that should be quick: sanitizer builds on a loaded machine are slow.
constexpr auto kStartTimeout = 10s;
constexpr auto kMoveTimeout = 10s;

std::int64_t ms_since(SteadyClock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start).count();
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

GoRequest nodes_request(std::uint64_t nodes, bool mover_is_x = true) {
  GoRequest request;
  request.own.nodes = nodes;
  request.mover_is_x = mover_is_x;
  return request;
}

GoRequest infinite_request() {
  GoRequest request;
  request.own.infinite = true;
  return request;
}

EngineConfig real_engine(Protocol protocol = Protocol::Uqi) {
  EngineConfig config;
  config.name = "quixo";
  config.process.command = QUIXO_ENGINE_BINARY;
  config.protocol = protocol;
  return config;
}

// quixo-mock-engine in `mode`, named after it, with more flags after the mode.
EngineConfig mock(const std::string& mode, std::vector<std::string> flags = {}) {
  EngineConfig config;
  config.name = "mock " + mode;
  config.process.command = QUIXO_MOCK_ENGINE_BINARY;
  config.process.args = {"--mode", mode};
  config.process.args.insert(config.process.args.end(), flags.begin(), flags.end());
  return config;
}

std::vector<std::string> legal_moves(const std::string& position_arguments) {
  const std::vector<std::string_view> tokens = text_helpers::tokenize(position_arguments);
  const uqi::PositionCommand command = uqi::parse_position_command(tokens);
  BOOST_REQUIRE_MESSAGE(command.game, "bad position: " << command.error);
  return command.game->legal_move_texts();
}

bool is_legal(const std::string& position_arguments, const std::string& move) {
  const std::vector<std::string> moves = legal_moves(position_arguments);
  return std::find(moves.begin(), moves.end(), move) != moves.end();
}

// Plays `count` moves from the start, the engine moving for both sides; every reply must be a
// legal move. Returns the position arguments reached.
std::string play_moves(EngineClient& client, int count) {
  std::string position = "startpos moves";
  for (int ply = 0; ply < count; ++ply) {
    const MoveReply reply = client.go(position, nodes_request(500, ply % 2 == 0), kMoveTimeout);
    BOOST_REQUIRE_MESSAGE(reply.status == MoveStatus::Move,
                          "ply " << ply << ": " << client.last_error());
    BOOST_REQUIRE_MESSAGE(is_legal(position, reply.move),
                          "ply " << ply << ": illegal move '" << reply.move << "'");
    position += " " + reply.move;
  }
  return position;
}

// Waits until the client's engine has gone (it exits on its own), at most `limit`.
bool gone_within(EngineClient& client, std::chrono::milliseconds limit) {
  const auto end = SteadyClock::now() + limit;
  while (client.alive()) {
    if (SteadyClock::now() > end) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// ---------------------------------------------------------------------- a scripted engine

// An in-memory engine: each line written to it is answered by `respond`, whose lines are then
// read back in order. It never times out; when nothing is queued its output has ended.
class ScriptedProcess : public EngineProcess {
 public:
  using Responder = std::function<std::vector<std::string>(const std::string&)>;
  explicit ScriptedProcess(Responder respond) : respond_(std::move(respond)) {}

  bool write_line(std::string_view line) override {
    if (!running_) return false;
    for (std::string& reply : respond_(std::string(line))) queued_.push_back(std::move(reply));
    return true;
  }
  ReadResult read_line(std::chrono::milliseconds) override {
    if (queued_.empty()) return {ReadStatus::Closed, {}};
    ReadResult result{ReadStatus::Line, std::move(queued_.front())};
    queued_.pop_front();
    return result;
  }
  bool running() override { return running_; }
  void shut_down(std::chrono::milliseconds) override { running_ = false; }

 private:
  Responder respond_;
  std::deque<std::string> queued_;
  bool running_ = true;
};

// A launcher for a scripted engine that handles the handshake and answers `go` with `search`.
quixo::arena::ProcessLauncher scripted(std::vector<std::string> search) {
  return [search](const ProcessSpec&) -> std::unique_ptr<EngineProcess> {
    return std::make_unique<ScriptedProcess>(
        [search](const std::string& line) -> std::vector<std::string> {
          if (line == "uqi") return {"id name scripted one", "uqiok"};
          if (line == "isready") return {"readyok"};
          if (line.starts_with("go")) return search;
          return {};
        });
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(engine_client_tests)

// ------------------------------------------------------------------------------- the process

BOOST_AUTO_TEST_CASE(a_missing_command_is_a_start_error_naming_it) {
  const auto names = [](const std::string& part) {
    return [part](const ProcessStartError& error) {
      BOOST_TEST_MESSAGE(error.what());
      return contains(error.what(), part);
    };
  };
  BOOST_CHECK_EXCEPTION(quixo::arena::start_process({"quixo-no-such-engine-7f3a", {}, {}}),
                        ProcessStartError, names("quixo-no-such-engine-7f3a"));
  BOOST_CHECK_EXCEPTION(quixo::arena::start_process({"/no/such/dir/quixo-engine", {}, {}}),
                        ProcessStartError, names("/no/such/dir/quixo-engine"));
  BOOST_CHECK_EXCEPTION(quixo::arena::start_process({"/bin/sh", {}, "/no/such/working/dir"}),
                        ProcessStartError, names("/no/such/working/dir"));

  const std::filesystem::path plain =
      std::filesystem::temp_directory_path() / "quixo-engine-client-tests-not-executable";
  std::ofstream(plain) << "#!/bin/sh\necho hi\n";
  std::filesystem::permissions(
      plain, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  BOOST_CHECK_EXCEPTION(quixo::arena::start_process({plain.string(), {}, {}}), ProcessStartError,
                        names("not executable"));
  std::filesystem::remove(plain);
}

BOOST_AUTO_TEST_CASE(a_command_without_a_slash_is_found_on_path_in_its_working_directory) {
  auto process = quixo::arena::start_process({"sh", {"-c", "pwd"}, "/"});
  const EngineProcess::ReadResult read = process->read_line(5s);
  BOOST_TEST((read.status == ReadStatus::Line));
  BOOST_TEST(read.line == "/");
  BOOST_TEST((process->read_line(5s).status == ReadStatus::Closed));
}

// Issue 9, defect 10: a child holds its own stdin, stdout and stderr and nothing else: not its
// pipes' other ends, not another child's pipes, not a file the arena opened without
// close-on-exec (its PGN, say).
BOOST_AUTO_TEST_CASE(a_child_inherits_no_descriptor_but_its_three_streams) {
  const int stray = ::open("/dev/null", O_RDONLY);  // no O_CLOEXEC, like an ofstream's
  BOOST_REQUIRE(stray >= 0);
  auto neighbour = quixo::arena::start_process({"cat", {}, {}});
  // The child says its pid and becomes `sleep`, whose descriptors are then listed from outside.
  auto process = quixo::arena::start_process({"/bin/sh", {"-c", "echo $$; exec sleep 30"}, {}});
  ::close(stray);
  const EngineProcess::ReadResult read = process->read_line(5s);
  BOOST_REQUIRE((read.status == ReadStatus::Line));
  const std::filesystem::path proc = "/proc/" + read.line;
  const auto end = SteadyClock::now() + 5s;
  std::string command;
  while (command != "sleep" && SteadyClock::now() < end) {
    std::ifstream(proc / "comm") >> command;
    if (command != "sleep") std::this_thread::sleep_for(2ms);
  }
  BOOST_REQUIRE(command == "sleep");
  // `sleep` itself opens and closes a locale file as it starts, so one listing can catch a
  // fourth descriptor for a moment; an inherited one stays, so the listing is repeated until it
  // shows the three streams alone or a second has passed.
  std::set<int> descriptors;
  const auto listing_end = SteadyClock::now() + 1s;
  do {
    if (!descriptors.empty()) std::this_thread::sleep_for(5ms);
    descriptors.clear();
    for (const auto& entry : std::filesystem::directory_iterator(proc / "fd"))
      descriptors.insert(std::stoi(entry.path().filename().string()));
  } while (descriptors != std::set<int>({0, 1, 2}) && SteadyClock::now() < listing_end);
  BOOST_TEST(descriptors == std::set<int>({0, 1, 2}), boost::test_tools::per_element());
  BOOST_TEST(neighbour->running());
}

BOOST_AUTO_TEST_CASE(a_closed_stdout_is_the_end_of_the_output_while_the_child_lives_on) {
  // Two at once from two threads, each closing its stdout and then waiting for its input to end:
  // neither may keep the other's output open.
  std::vector<std::unique_ptr<EngineProcess>> processes(2);
  {
    std::vector<std::jthread> starters;
    for (auto& process : processes)
      starters.emplace_back([&process] {
        process = quixo::arena::start_process(
            {"/bin/sh", {"-c", "echo before; exec 1>&-; read line; sleep 30"}, {}});
      });
  }
  for (auto& process : processes) {
    BOOST_TEST(process->read_line(5s).line == "before");
    const auto start = SteadyClock::now();
    BOOST_TEST((process->read_line(5s).status == ReadStatus::Closed));
    BOOST_TEST(ms_since(start) < 2000);
    BOOST_TEST(process->running());
  }
  for (auto& process : processes) {
    process->shut_down(100ms);
    BOOST_TEST(!process->running());
  }
}

BOOST_AUTO_TEST_CASE(a_relative_command_is_taken_from_the_working_directory) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "quixo-engine-client-tests-relative-command";
  std::filesystem::create_directories(dir / "bin");
  const std::filesystem::path script = dir / "bin" / "hello";
  std::ofstream(script) << "#!/bin/sh\npwd\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  auto process = quixo::arena::start_process({"./bin/hello", {}, dir.string()});
  const EngineProcess::ReadResult read = process->read_line(5s);
  BOOST_TEST((read.status == ReadStatus::Line));
  BOOST_TEST(read.line == dir.string());
  process->shut_down(100ms);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(stderr_is_appended_to_the_file_the_spec_names) {
  const std::filesystem::path log =
      std::filesystem::temp_directory_path() / "quixo-engine-client-tests-stderr.log";
  std::filesystem::remove(log);
  for (const std::string word : {"one", "two"}) {
    ProcessSpec spec{"/bin/sh", {"-c", "echo " + word + " >&2; echo done"}, {}};
    spec.stderr_path = log.string();
    auto process = quixo::arena::start_process(spec);
    BOOST_TEST(process->read_line(5s).line == "done");
    BOOST_TEST((process->read_line(5s).status == ReadStatus::Closed));
  }
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  BOOST_TEST(text.str() == "one\ntwo\n");
  std::filesystem::remove(log);

  ProcessSpec bad{"/bin/sh", {"-c", "true"}, {}};
  bad.stderr_path = "/no/such/dir/engine.err";
  BOOST_CHECK_EXCEPTION(quixo::arena::start_process(bad), ProcessStartError,
                        [](const ProcessStartError& error) {
                          BOOST_TEST_MESSAGE(error.what());
                          return contains(error.what(), "/no/such/dir/engine.err") &&
                                 contains(error.what(), "stderr");
                        });
}

BOOST_AUTO_TEST_CASE(a_read_times_out_and_the_line_still_arrives_later) {
  auto process = quixo::arena::start_process({"/bin/sh", {"-c", "sleep 0.3; echo hi"}, {}});
  const auto start = SteadyClock::now();
  BOOST_TEST((process->read_line(50ms).status == ReadStatus::Timeout));
  BOOST_TEST(ms_since(start) >= 45);
  BOOST_TEST(ms_since(start) < 2000);  // the Timeout status already shows it did not wait
  BOOST_TEST(process->running());
  const EngineProcess::ReadResult read = process->read_line(5s);
  BOOST_TEST((read.status == ReadStatus::Line));
  BOOST_TEST(read.line == "hi");
  BOOST_TEST(ms_since(start) >= 250);
  BOOST_TEST((process->read_line(5s).status == ReadStatus::Closed));
  BOOST_TEST((process->read_line(5s).status == ReadStatus::Closed));  // and stays so
}

BOOST_AUTO_TEST_CASE(lines_arriving_together_are_split_and_the_last_unterminated_one_kept) {
  auto process =
      quixo::arena::start_process({"/bin/sh", {"-c", "printf 'one\\r\\n\\ntwo\\nthree'"}, {}});
  std::vector<std::string> lines;
  for (;;) {
    const EngineProcess::ReadResult read = process->read_line(5s);
    BOOST_REQUIRE((read.status != ReadStatus::Timeout));
    if (read.status == ReadStatus::Closed) break;
    lines.push_back(read.line);
  }
  const std::vector<std::string> expected = {"one", "", "two", "three"};
  BOOST_TEST(lines == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_line_longer_than_a_pipe_buffer_arrives_whole) {
  auto process = quixo::arena::start_process(
      {"/bin/sh", {"-c", "head -c 300000 /dev/zero | tr '\\000' a; echo; echo end"}, {}});
  const EngineProcess::ReadResult read = process->read_line(5s);
  BOOST_REQUIRE((read.status == ReadStatus::Line));
  BOOST_TEST(read.line.size() == 300000u);
  BOOST_TEST((read.line.find_first_not_of('a') == std::string::npos));
  BOOST_TEST(process->read_line(5s).line == "end");
}

BOOST_AUTO_TEST_CASE(lines_written_are_read_back_and_a_write_after_exit_fails) {
  auto process = quixo::arena::start_process({"cat", {}, {}});
  BOOST_TEST(process->write_line("hello engine"));
  const EngineProcess::ReadResult read = process->read_line(5s);
  BOOST_TEST(read.line == "hello engine");

  // A zero timeout is a poll: it returns what has arrived without waiting for more.
  BOOST_TEST(process->write_line("polled"));
  const auto poll_end = SteadyClock::now() + 5s;
  EngineProcess::ReadResult polled;
  while (polled.status != ReadStatus::Line && SteadyClock::now() < poll_end) {
    polled = process->read_line(0ms);
    if (polled.status != ReadStatus::Line) std::this_thread::sleep_for(1ms);
  }
  BOOST_TEST(polled.line == "polled");

  auto exited = quixo::arena::start_process({"/bin/sh", {"-c", "exit 0"}, {}});
  BOOST_TEST((exited->read_line(5s).status == ReadStatus::Closed));
  const auto end = SteadyClock::now() + 5s;
  while (exited->running() && SteadyClock::now() < end) std::this_thread::sleep_for(5ms);
  BOOST_TEST(!exited->running());
  // Without SIGPIPE ignored this would end the test program instead.
  BOOST_TEST(!exited->write_line("isready"));
  BOOST_TEST(!exited->write_line("isready"));
}

BOOST_AUTO_TEST_CASE(shut_down_kills_an_engine_that_does_not_exit_and_is_idempotent) {
  auto process = quixo::arena::start_process({"sleep", {"30"}, {}});
  BOOST_TEST(process->running());
  const auto start = SteadyClock::now();
  process->shut_down(100ms);
  BOOST_TEST(ms_since(start) >= 95);
  BOOST_TEST(ms_since(start) < 3000);
  BOOST_TEST(!process->running());
  process->shut_down(100ms);
  BOOST_TEST(!process->running());
  BOOST_TEST((process->read_line(1s).status == ReadStatus::Closed));
  BOOST_TEST(!process->write_line("quit"));
}

BOOST_AUTO_TEST_CASE(shut_down_returns_as_soon_as_the_engine_exits_by_itself) {
  auto process = quixo::arena::start_process({"cat", {}, {}});
  const auto start = SteadyClock::now();
  process->shut_down(5s);  // closing its input ends cat
  BOOST_TEST(ms_since(start) < 2000);
  BOOST_TEST(!process->running());
}

// ------------------------------------------------------------------- client, real engine

BOOST_AUTO_TEST_CASE(the_real_engine_plays_a_legal_move_with_info) {
  EngineClient client(real_engine());
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  BOOST_TEST(client.alive());
  BOOST_TEST(contains(client.id_name(), "Quixo"));
  BOOST_REQUIRE_MESSAGE(client.new_game(kStartTimeout), client.last_error());
  const MoveReply reply = client.go("startpos", nodes_request(2000), kMoveTimeout);
  BOOST_REQUIRE_MESSAGE(reply.status == MoveStatus::Move, client.last_error());
  BOOST_TEST(is_legal("startpos", reply.move), reply.move);
  BOOST_REQUIRE(reply.info.has_value());
  BOOST_TEST(reply.info->depth.has_value());
  BOOST_TEST(reply.elapsed_ms >= 0);
  BOOST_TEST(reply.elapsed_ms < 10000);
  BOOST_TEST(client.stop_search(100ms));  // nothing to stop: the search is over
  client.quit();
  BOOST_TEST(!client.alive());
}

BOOST_AUTO_TEST_CASE(the_real_engine_speaks_ugi_with_options_and_plays_o) {
  EngineConfig config = real_engine(Protocol::Ugi);
  config.options = {{"Hash", "1"}};
  EngineClient client(config);
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  BOOST_REQUIRE_MESSAGE(client.new_game(kStartTimeout), client.last_error());
  GoRequest request;
  request.own.time_ms = request.other.time_ms = 2000;
  request.own.increment_ms = request.other.increment_ms = 10;
  request.mover_is_x = false;
  const std::string position = "startpos moves b1b5";
  const MoveReply reply = client.go(position, request, kMoveTimeout);
  BOOST_REQUIRE_MESSAGE(reply.status == MoveStatus::Move, client.last_error());
  BOOST_TEST(is_legal(position, reply.move), reply.move);
}

BOOST_AUTO_TEST_CASE(an_infinite_search_times_out_and_stop_brings_its_move) {
  EngineClient client(real_engine());
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  const auto start = SteadyClock::now();
  const MoveReply reply = client.go("startpos", infinite_request(), 200ms);
  BOOST_TEST((reply.status == MoveStatus::Timeout));
  BOOST_TEST(reply.elapsed_ms >= 195);
  BOOST_TEST(ms_since(start) < 2000);
  BOOST_TEST(contains(client.last_error(), "engine \"quixo\": no bestmove within 200 ms"),
             client.last_error());
  BOOST_TEST(client.stop_search(5s), client.last_error());
  // The late bestmove was consumed: the next search gets its own answer.
  const MoveReply next = client.go("startpos moves a1a5", nodes_request(500, false), kMoveTimeout);
  BOOST_REQUIRE_MESSAGE(next.status == MoveStatus::Move, client.last_error());
  BOOST_TEST(is_legal("startpos moves a1a5", next.move), next.move);
}

BOOST_AUTO_TEST_CASE(a_watched_search_shows_every_line_and_ends_when_told_to_stop) {
  EngineClient client(real_engine());
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  BOOST_REQUIRE(client.set_option("MultiPV", "2"));
  std::atomic<bool> stop{false};
  std::vector<int> multipv_seen;
  quixo::arena::SearchWatch watch;
  watch.stop_requested = &stop;
  watch.on_info = [&](const quixo::uqi::InfoLine& info) {
    if (info.multipv) multipv_seen.push_back(*info.multipv);
    // A GUI's person presses stop once the second line has been seen at some depth.
    if (info.multipv.value_or(1) == 2 && info.depth.value_or(0) >= 3) stop = true;
  };
  const auto start = SteadyClock::now();
  const MoveReply reply = client.go("startpos", infinite_request(), std::chrono::hours(1), &watch);
  BOOST_REQUIRE_MESSAGE(reply.status == MoveStatus::Move, client.last_error());
  BOOST_TEST(is_legal("startpos", reply.move), reply.move);
  BOOST_TEST(ms_since(start) < 10000);
  BOOST_TEST(std::count(multipv_seen.begin(), multipv_seen.end(), 2) >= 1);
  // The kept info is still the best line's.
  BOOST_REQUIRE(reply.info.has_value());
  BOOST_TEST(reply.info->multipv.value_or(1) == 1);
}

// A GUI's ponder flow: `go ponder` on the position after the expected move, `ponderhit` when
// the opponent played it, and from then on the search's own limits (here movetime 300).
BOOST_AUTO_TEST_CASE(a_ponder_search_waits_for_ponderhit_and_is_timed_from_it) {
  EngineClient client(real_engine());
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  GoRequest request;
  request.own.move_time_ms = 300;
  request.own.ponder = true;
  std::atomic<bool> ponderhit{false};
  SearchWatch watch;
  watch.ponderhit_requested = &ponderhit;
  const auto start = SteadyClock::now();
  // The opponent "moves" after 700 ms: longer than the movetime and the deadline below, neither of
  // which may count before ponderhit.
  std::thread opponent([&] {
    std::this_thread::sleep_for(700ms);
    ponderhit = true;
  });
  const std::string position = "startpos moves a1a5 b1b5";
  const MoveReply reply = client.go(position, request, 2000ms, &watch);
  opponent.join();
  BOOST_REQUIRE_MESSAGE(reply.status == MoveStatus::Move, client.last_error());
  BOOST_TEST(reply.ponderhit);
  BOOST_TEST(is_legal(position, reply.move), reply.move);
  BOOST_TEST(ms_since(start) >= 700);
  // Charged from ponderhit: about the movetime, not the 700 ms of pondering before it.
  BOOST_TEST(reply.elapsed_ms >= 250);
  BOOST_TEST(reply.elapsed_ms < 2000);
  // The engine names the reply it expects in turn.
  BOOST_TEST(is_legal(position + " " + reply.move, reply.ponder), reply.ponder);
}

BOOST_AUTO_TEST_CASE(a_ponder_search_that_is_stopped_sends_no_ponderhit) {
  EngineClient client(real_engine());
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  GoRequest request;
  request.own.time_ms = request.other.time_ms = 60'000;
  request.own.ponder = true;
  std::atomic<bool> stop{false};
  std::atomic<bool> ponderhit{false};
  SearchWatch watch;
  watch.stop_requested = &stop;
  watch.ponderhit_requested = &ponderhit;
  // The opponent played something else: a GUI stops the ponder search; a ponderhit that comes
  // with the stop (a race in the GUI) is not sent.
  watch.on_info = [&](const quixo::uqi::InfoLine& info) {
    if (info.depth.value_or(0) >= 2) {
      stop = true;
      ponderhit = true;
    }
  };
  const MoveReply reply = client.go("startpos moves a1a5", request, 200ms, &watch);
  BOOST_REQUIRE_MESSAGE(reply.status == MoveStatus::Move, client.last_error());
  BOOST_TEST(!reply.ponderhit);
  // The engine is ready for the next search at once.
  const MoveReply next = client.go("startpos", nodes_request(500), kMoveTimeout);
  BOOST_REQUIRE_MESSAGE(next.status == MoveStatus::Move, client.last_error());
  BOOST_TEST(is_legal("startpos", next.move), next.move);
}

// --------------------------------------------------------------- client, scripted engine

BOOST_AUTO_TEST_CASE(the_kept_info_is_the_last_scored_one_and_other_lines_are_ignored) {
  EngineClient client(
      {"scripted", {"unused", {}, {}}, {}, std::nullopt, Protocol::Uqi, std::nullopt, false},
      scripted({"info depth 1 score cp 5 pv a1a5", "hello there",
                "info depth 2 score mate 3 pv b1b5", "info depth 3 currmove c1c5",
                "info string thinking", "bestmove  b1b5  ponder a5a1"}));
  BOOST_REQUIRE_MESSAGE(client.start(1s), client.last_error());
  BOOST_TEST(client.id_name() == "scripted one");
  const MoveReply reply = client.go("startpos", nodes_request(1), 1s);
  BOOST_REQUIRE((reply.status == MoveStatus::Move));
  BOOST_TEST(reply.move == "b1b5");
  BOOST_REQUIRE(reply.info.has_value());
  BOOST_TEST(reply.info->depth.value_or(-1) == 2);
  BOOST_TEST(reply.info->score_mate.value_or(-1) == 3);
}

BOOST_AUTO_TEST_CASE(without_a_score_the_kept_info_is_the_last_with_a_depth) {
  EngineClient client(
      {"scripted", {"unused", {}, {}}, {}, std::nullopt, Protocol::Uqi, std::nullopt, false},
      scripted({"info depth 4 nodes 10", "info nodes 20", "bestmove a1a5"}));
  BOOST_REQUIRE(client.start(1s));
  const MoveReply reply = client.go("startpos", nodes_request(1), 1s);
  BOOST_REQUIRE((reply.status == MoveStatus::Move));
  BOOST_REQUIRE(reply.info.has_value());
  BOOST_TEST(reply.info->depth.value_or(-1) == 4);
  BOOST_TEST(!reply.info->score_cp.has_value());
}

// Issue 9, defect 8: with MultiPV the last `info` line of an iteration is the worst line's.
BOOST_AUTO_TEST_CASE(with_multipv_the_kept_info_is_the_best_line_not_the_last) {
  EngineClient client(
      {"scripted", {"unused", {}, {}}, {}, std::nullopt, Protocol::Uqi, std::nullopt, false},
      scripted({"info depth 1 multipv 1 score cp 40 pv a1a5",
                "info depth 1 multipv 2 score cp 10 pv b1b5",
                "info depth 2 multipv 1 score cp 35 nodes 99 pv a1a5",
                "info depth 2 multipv 2 score cp -80 pv b1b5",
                "info depth 2 multipv 3 score cp -1500 pv c1c5",
                "info depth 3 multipv 2 currmove e1e5", "bestmove a1a5"}));
  BOOST_REQUIRE_MESSAGE(client.start(1s), client.last_error());
  const MoveReply reply = client.go("startpos", nodes_request(1), 1s);
  BOOST_REQUIRE((reply.status == MoveStatus::Move));
  BOOST_REQUIRE(reply.info.has_value());
  BOOST_TEST(reply.info->score_cp.value_or(0) == 35);
  BOOST_TEST(reply.info->depth.value_or(-1) == 2);
  BOOST_TEST(reply.info->nodes.value_or(0) == 99u);
  BOOST_TEST(reply.info->pv == std::vector<std::string>{"a1a5"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_line_without_multipv_counts_as_the_first) {
  EngineClient client(
      {"scripted", {"unused", {}, {}}, {}, std::nullopt, Protocol::Uqi, std::nullopt, false},
      scripted({"info depth 4 multipv 2 score cp -300 pv b1b5", "info depth 4 score cp 12 pv a1a5",
                "info depth 5 multipv 3 score mate -2 pv c1c5", "bestmove a1a5"}));
  BOOST_REQUIRE_MESSAGE(client.start(1s), client.last_error());
  const MoveReply reply = client.go("startpos", nodes_request(1), 1s);
  BOOST_REQUIRE((reply.status == MoveStatus::Move));
  BOOST_REQUIRE(reply.info.has_value());
  BOOST_TEST(reply.info->score_cp.value_or(0) == 12);
  BOOST_TEST(!reply.info->score_mate.has_value());
}

BOOST_AUTO_TEST_CASE(the_real_engine_with_multipv_3_reports_its_best_line) {
  EngineConfig config = real_engine();
  config.options = {{"MultiPV", "3"}};
  EngineClient client(config);
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  // X to move can win at once (a1..d1 are X's, e1 is blank): the best line scores a mate, the
  // others do not.
  const std::string position = "fen 5/5/5/o1o2/xxxx1 x";
  const MoveReply reply = client.go(position, nodes_request(20000), kMoveTimeout);
  BOOST_REQUIRE_MESSAGE(reply.status == MoveStatus::Move, client.last_error());
  BOOST_REQUIRE(reply.info.has_value());
  BOOST_TEST(reply.info->multipv.value_or(1) == 1);
  BOOST_TEST(reply.info->score_mate.value_or(0) == 1);
  BOOST_TEST((!reply.info->pv.empty() && reply.info->pv.front() == reply.move));
}

BOOST_AUTO_TEST_CASE(a_launcher_that_throws_is_a_failed_start_not_an_exception) {
  EngineClient client({"broken", {}, {}, std::nullopt, Protocol::Uqi, std::nullopt, false},
                      [](const ProcessSpec&) -> std::unique_ptr<EngineProcess> {
                        throw ProcessStartError("no luck");
                      });
  BOOST_TEST(!client.start(1s));
  BOOST_TEST(client.last_error() == "engine \"broken\" could not start: no luck");
  BOOST_TEST(!client.alive());
}

// ----------------------------------------------------------------- client, mock engines

BOOST_AUTO_TEST_CASE(a_missing_engine_fails_to_start_with_its_name_in_the_error) {
  EngineConfig config;
  config.name = "ghost";
  config.process.command = "quixo-no-such-engine-7f3a";
  EngineClient client(config);
  BOOST_TEST(!client.start(1s));
  BOOST_TEST(contains(client.last_error(), "engine \"ghost\" could not start"),
             client.last_error());
  BOOST_TEST(contains(client.last_error(), "quixo-no-such-engine-7f3a"), client.last_error());
  const MoveReply reply = client.go("startpos", nodes_request(1), 1s);
  BOOST_TEST((reply.status == MoveStatus::Disconnected));
  BOOST_TEST(client.last_error() == "engine \"ghost\": is not running");
}

BOOST_AUTO_TEST_CASE(the_normal_mock_plays_the_first_legal_move_with_its_score) {
  EngineClient client(mock("normal", {"--score", "37"}));
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  BOOST_TEST(client.id_name() == "mock-normal");
  BOOST_REQUIRE_MESSAGE(client.new_game(kStartTimeout), client.last_error());
  const MoveReply reply = client.go("startpos", nodes_request(1), kMoveTimeout);
  BOOST_REQUIRE_MESSAGE(reply.status == MoveStatus::Move, client.last_error());
  BOOST_TEST(reply.move == legal_moves("startpos").front());
  BOOST_REQUIRE(reply.info.has_value());
  BOOST_TEST(reply.info->score_cp.value_or(-1) == 37);
  BOOST_TEST(reply.info->depth.value_or(-1) == 1);
}

BOOST_AUTO_TEST_CASE(the_mock_speaks_ugi_too) {
  EngineConfig config = mock("normal");
  config.protocol = Protocol::Ugi;
  EngineClient client(config);
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  BOOST_REQUIRE_MESSAGE(client.new_game(kStartTimeout), client.last_error());
  play_moves(client, 2);
}

BOOST_AUTO_TEST_CASE(a_random_seed_varies_the_moves_but_repeats_them_for_the_same_seed) {
  std::set<std::string> first_moves;
  for (int seed = 1; seed <= 6; ++seed) {
    EngineClient client(mock("normal", {"--random-seed", std::to_string(seed)}));
    BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
    const MoveReply once = client.go("startpos moves c1c5", nodes_request(1, false), kMoveTimeout);
    const MoveReply twice = client.go("startpos moves c1c5", nodes_request(1, false), kMoveTimeout);
    BOOST_REQUIRE((once.status == MoveStatus::Move && twice.status == MoveStatus::Move));
    BOOST_TEST(once.move == twice.move);
    BOOST_TEST(is_legal("startpos moves c1c5", once.move), once.move);
    first_moves.insert(once.move);
  }
  BOOST_TEST(first_moves.size() >= 3u);
}

BOOST_AUTO_TEST_CASE(a_crash_on_go_is_a_disconnection_and_a_restart_works) {
  EngineClient client(mock("crash-on-go", {"--after", "1"}));
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  const std::string position = play_moves(client, 1);
  const auto start = SteadyClock::now();
  const MoveReply reply = client.go(position, nodes_request(1), kMoveTimeout);
  BOOST_TEST((reply.status == MoveStatus::Disconnected));
  BOOST_TEST(ms_since(start) < 3000);
  BOOST_TEST(client.last_error() == "engine \"mock crash-on-go\": exited during its search");
  BOOST_TEST(gone_within(client, 3s));

  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  BOOST_TEST(client.last_error().empty());
  BOOST_TEST(client.alive());
  play_moves(client, 1);  // the new process behaves again for its first move
  BOOST_TEST(
      (client.go(position, nodes_request(1), kMoveTimeout).status == MoveStatus::Disconnected));
}

// Issue 9, defect 10: an engine that closes its stdout but lives on must be seen at once, not
// after the deadline: no process may hold a second copy of its stdout's pipe.
BOOST_AUTO_TEST_CASE(an_engine_that_closes_its_stdout_is_a_disconnection_at_once) {
  EngineClient client(mock("close-stdout", {"--after", "1"}));
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  BOOST_REQUIRE_MESSAGE(client.new_game(kStartTimeout), client.last_error());
  const std::string position = play_moves(client, 1);
  const auto start = SteadyClock::now();
  const MoveReply reply = client.go(position, nodes_request(1), kMoveTimeout);
  BOOST_TEST((reply.status == MoveStatus::Disconnected));
  BOOST_TEST(ms_since(start) < 3000);
  BOOST_TEST(client.last_error() ==
                 "engine \"mock close-stdout\": closed its output during its search but kept "
                 "running (it was killed)",
             client.last_error());
  BOOST_TEST(!client.alive());  // ended, so the game loop calls it a crash, not a stall
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  play_moves(client, 1);
}

BOOST_AUTO_TEST_CASE(after_two_moves_the_fault_begins) {
  EngineClient client(mock("illegal", {"--after", "2"}));
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  BOOST_REQUIRE_MESSAGE(client.new_game(kStartTimeout), client.last_error());
  const std::string position = play_moves(client, 2);
  const MoveReply reply = client.go(position, nodes_request(1), kMoveTimeout);
  BOOST_REQUIRE((reply.status == MoveStatus::Move));
  BOOST_TEST(!is_legal(position, reply.move), reply.move);
}

BOOST_AUTO_TEST_CASE(a_stalled_engine_times_out_and_ignores_stop) {
  EngineClient client(mock("stall"));
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  const auto start = SteadyClock::now();
  const MoveReply reply = client.go("startpos", nodes_request(1), 200ms);
  BOOST_TEST((reply.status == MoveStatus::Timeout));
  BOOST_TEST(reply.elapsed_ms >= 195);
  BOOST_TEST(ms_since(start) < 1500);
  BOOST_TEST(client.last_error() == "engine \"mock stall\": no bestmove within 200 ms");
  BOOST_TEST(!client.stop_search(150ms));
  BOOST_TEST(client.last_error() ==
             "engine \"mock stall\": no bestmove within 150 ms after `stop`");
  const auto quit_start = SteadyClock::now();
  client.quit();
  BOOST_TEST(ms_since(quit_start) < 2000);
  BOOST_TEST(!client.alive());
}

BOOST_AUTO_TEST_CASE(an_illegal_move_is_well_formed_but_not_legal) {
  EngineClient client(mock("illegal"));
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  // From the start (no O cube anywhere) and after O has a cube on the edge to take.
  for (const std::string position : {"startpos", "startpos moves a1a5 e1e5"}) {
    const MoveReply reply = client.go(position, nodes_request(1), kMoveTimeout);
    BOOST_REQUIRE((reply.status == MoveStatus::Move));
    BOOST_TEST(reply.move.size() == 4u);
    BOOST_TEST(quixo::parse_square(reply.move.substr(0, 2)).has_value(), reply.move);
    BOOST_TEST(quixo::parse_square(reply.move.substr(2, 2)).has_value(), reply.move);
    BOOST_TEST(!is_legal(position, reply.move), reply.move);
  }
}

BOOST_AUTO_TEST_CASE(a_malformed_move_is_passed_on_as_text) {
  EngineClient client(mock("malformed"));
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  const MoveReply reply = client.go("startpos", nodes_request(1), kMoveTimeout);
  BOOST_REQUIRE((reply.status == MoveStatus::Move));
  BOOST_TEST(reply.move == "zz9");
}

BOOST_AUTO_TEST_CASE(an_overrunning_engine_times_out_and_its_late_move_is_drained) {
  EngineClient client(mock("overrun", {"--delay-ms", "400"}));
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  const MoveReply reply = client.go("startpos", nodes_request(1), 100ms);
  BOOST_TEST((reply.status == MoveStatus::Timeout));
  BOOST_TEST(reply.elapsed_ms < 1000);
  BOOST_TEST(client.stop_search(3s), client.last_error());
  BOOST_TEST(client.alive());
  // In time when given enough.
  const MoveReply late = client.go("startpos", nodes_request(1), 3s);
  BOOST_TEST((late.status == MoveStatus::Move));
  BOOST_TEST(late.elapsed_ms >= 395);
}

BOOST_AUTO_TEST_CASE(a_garbage_printing_engine_still_plays) {
  EngineClient client(mock("garbage"));
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  BOOST_TEST(client.id_name() == "mock-garbage");
  BOOST_REQUIRE_MESSAGE(client.new_game(kStartTimeout), client.last_error());
  play_moves(client, 8);
}

BOOST_AUTO_TEST_CASE(a_slow_start_fails_a_short_handshake_and_passes_a_long_one) {
  EngineClient client(mock("slow-start", {"--delay-ms", "500"}));
  const auto start = SteadyClock::now();
  BOOST_TEST(!client.start(150ms));
  BOOST_TEST(ms_since(start) < 1000);
  BOOST_TEST(client.last_error() == "engine \"mock slow-start\": no uqiok within 150 ms");
  BOOST_TEST(client.alive());  // a stall, not a crash: the next start replaces the process
  BOOST_REQUIRE_MESSAGE(client.start(kStartTimeout), client.last_error());
  play_moves(client, 1);
}

BOOST_AUTO_TEST_CASE(an_engine_without_handshake_fails_to_start_in_time) {
  EngineClient client(mock("no-handshake"));
  const auto start = SteadyClock::now();
  BOOST_TEST(!client.start(200ms));
  BOOST_TEST(ms_since(start) < 1500);
  BOOST_TEST(client.last_error() == "engine \"mock no-handshake\": no uqiok within 200 ms");
  BOOST_TEST(client.alive());  // silent but running: the caller tells a stall from a crash
  BOOST_TEST(!client.new_game(100ms));
  BOOST_TEST(client.last_error() ==
             "engine \"mock no-handshake\": no readyok within 100 ms after uqinewgame");
  client.quit();
  BOOST_TEST(!client.alive());
  BOOST_TEST(!client.new_game(100ms));
  BOOST_TEST(client.last_error() == "engine \"mock no-handshake\": is not running");
}

BOOST_AUTO_TEST_CASE(an_engine_that_dies_at_once_exits_during_the_handshake) {
  EngineClient client(mock("crash-on-start"));
  const auto start = SteadyClock::now();
  BOOST_TEST(!client.start(kStartTimeout));
  BOOST_TEST(ms_since(start) < 3000);
  BOOST_TEST(client.last_error() == "engine \"mock crash-on-start\": exited during the handshake");
  BOOST_TEST(!client.alive());
}

BOOST_AUTO_TEST_SUITE_END()
