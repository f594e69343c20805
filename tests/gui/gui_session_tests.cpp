// A quixo-gui session driven as the page drives it, with strings: the message protocol, malformed
// and forbidden requests, the real engine and misbehaving mock engines, analysis, take-backs,
// PGN and the endgame tables.
#include <unistd.h>

#include <algorithm>
#include <boost/json.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/notation.hpp"
#include "gui_session.hpp"
#include "pgn_writer.hpp"
#include "support/scripted_engine.hpp"
#include "support/test_tables.hpp"

namespace bdata = boost::unit_test::data;
namespace json = boost::json;
using namespace quixo;
using namespace quixo::gui;
using namespace std::chrono_literals;

namespace {

// What the session sent, parsed, with waits for a message that satisfies a condition.
class Inbox {
 public:
  GuiSession::Send sender() {
    return [this](std::string text) {
      std::lock_guard lock(mutex_);
      messages_.push_back(json::parse(text).as_object());
      arrived_.notify_all();
    };
  }

  // The first message after the last one matched that satisfies `condition`; fails the test
  // after `timeout`.
  json::object wait_for(const std::function<bool(const json::object&)>& condition,
                        const std::string& what, std::chrono::seconds timeout = 30s) {
    std::unique_lock lock(mutex_);
    std::optional<json::object> found;
    arrived_.wait_for(lock, timeout, [&] {
      for (; next_ < messages_.size(); ++next_) {
        if (condition(messages_[next_])) {
          found = messages_[next_++];
          return true;
        }
      }
      return false;
    });
    BOOST_TEST_REQUIRE(found.has_value(), "no message " << what << " within " << timeout.count()
                                                        << " s; last: " << last_text());
    return *found;
  }

  json::object wait_type(const std::string& type) {
    return wait_for([&](const json::object& m) { return m.at("type").as_string() == type; },
                    "of type " + type);
  }

  json::object wait_state(const std::function<bool(const json::object&)>& condition,
                          const std::string& what, std::chrono::seconds timeout = 30s) {
    return wait_for(
        [&](const json::object& m) { return m.at("type").as_string() == "state" && condition(m); },
        "state " + what, timeout);
  }

  // The most recent state.
  json::object last_state() {
    std::lock_guard lock(mutex_);
    for (auto it = messages_.rbegin(); it != messages_.rend(); ++it)
      if (it->at("type").as_string() == "state") return *it;
    BOOST_FAIL("no state was sent");
    return {};
  }

 private:
  std::string last_text() const {
    return messages_.empty() ? std::string("none") : json::serialize(messages_.back());
  }

  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<json::object> messages_;
  std::size_t next_ = 0;
};

arena::EngineConfig engine(const std::string& name, const std::string& command,
                           std::vector<std::string> args = {}) {
  arena::EngineConfig config;
  config.name = name;
  config.process.command = command;
  config.process.args = std::move(args);
  return config;
}

arena::EngineConfig real_engine() {
  arena::EngineConfig config = engine("quixo", QUIXO_ENGINE_BINARY);
  config.options = {{"Hash", "8"}, {"Threads", "1"}};
  return config;
}

arena::EngineConfig mock(const std::string& name, const std::string& mode, int seed = 0) {
  std::vector<std::string> args{"--mode", mode};
  if (seed != 0) args.insert(args.end(), {"--random-seed", std::to_string(seed)});
  return engine(name, QUIXO_MOCK_ENGINE_BINARY, args);
}

struct Fixture {
  explicit Fixture(std::vector<arena::EngineConfig> engines,
                   std::shared_ptr<const tb::Tablebase> tables = nullptr,
                   std::shared_ptr<const GameStore> store = nullptr) {
    SessionConfig config;
    config.engines = std::move(engines);
    config.tables = std::move(tables);
    config.store = std::move(store);
    session = std::make_unique<GuiSession>(std::move(config), inbox.sender());
    session->open();
    inbox.wait_type("hello");
    inbox.wait_type("state");
  }
  void send(const json::object& message) { session->receive(json::serialize(message)); }

  Inbox inbox;
  std::unique_ptr<GuiSession> session;
};

std::size_t move_count(const json::object& state) {
  return state.at("moves").as_array().size();
}

bool has_result(const json::object& state) {
  return !state.at("result").is_null();
}

// Whether `count` lines starting with `prefix` have been written to the scripted engines within
// a few seconds.
bool lines_arrive(test::ScriptedLog& log, std::string_view prefix, std::size_t count) {
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (log.lines_starting(prefix).size() < count) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// A data folder for saved games, removed at the end of the test.
struct DataFolder {
  std::filesystem::path path;
  std::shared_ptr<const GameStore> store;
  DataFolder() {
    static int counter = 0;
    path =
        std::filesystem::temp_directory_path() /
        ("quixo-gui-session-tests-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    store = std::make_shared<const GameStore>(path);
  }
  ~DataFolder() {
    std::error_code ignored;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all, ignored);
    std::filesystem::remove_all(path, ignored);
  }
};

std::string moves_text(const json::object& state) {
  std::string text;
  for (const json::value& move : state.at("moves").as_array())
    text += std::string(move.at("move").as_string()) + " ";
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gui_session_tests)

BOOST_AUTO_TEST_CASE(hello_lists_the_engines_and_the_first_state_lets_a_person_move) {
  Inbox inbox;
  SessionConfig config;
  config.engines = {real_engine(), mock("mock", "normal")};
  GuiSession session(std::move(config), inbox.sender());
  session.open();
  const json::object hello = inbox.wait_type("hello");
  BOOST_TEST(hello.at("engines").as_array().size() == 2u);
  BOOST_TEST(hello.at("engines").as_array()[0].at("name").as_string() == "quixo");
  BOOST_TEST(hello.at("tablebase").as_bool() == false);
  const json::object state = inbox.wait_type("state");
  BOOST_TEST(state.at("position").as_string() == "5/5/5/5/5 x");
  BOOST_TEST(state.at("legal").as_array().size() == 44u);
  BOOST_TEST(state.at("human_to_move").as_bool());
  BOOST_TEST(state.at("to_move").as_string() == "x");
  BOOST_TEST(state.at("result").is_null());
}

BOOST_DATA_TEST_CASE(
    a_bad_message_gets_an_error_and_changes_nothing,
    bdata::make({std::string("not json"), std::string("[1,2]"), std::string(R"({"kind":"move"})"),
                 std::string(R"({"type":"fly"})"), std::string(R"({"type":"move"})"),
                 std::string(R"({"type":"move","move":7})"),
                 std::string(R"({"type":"move","move":"c3c1"})"),
                 std::string(R"({"type":"goto","ply":3})"),
                 std::string(R"({"type":"goto","ply":-1})"),
                 std::string(R"({"type":"new_game","variant":"3p","players":["human","human"]})"),
                 std::string(R"({"type":"new_game","players":["human","/bin/sh"]})"),
                 std::string(R"({"type":"new_game","players":["human","human"],"time":"fast"})"),
                 std::string(R"({"type":"think","engine":"rm -rf /"})"),
                 std::string(R"({"type":"analyze","on":"yes"})"),
                 std::string(R"({"type":"setup","position":"5/5/5/5 x"})"),
                 std::string(R"({"type":"load_pgn","text":"[Event \"x\"]\n1. zz"})"),
                 std::string(R"({"type":"open_game","index":0})"),
                 std::string(R"({"type":"takeback"})")}),
    message) {
  Fixture fixture({mock("mock", "normal")});
  fixture.session->receive(message);
  const json::object error = fixture.inbox.wait_type("error");
  BOOST_TEST(!error.at("message").as_string().empty());
  // The game is as it was, and the session goes on.
  const json::object state = fixture.inbox.last_state();
  BOOST_TEST(move_count(state) == 0u);
  BOOST_TEST(state.at("position").as_string() == "5/5/5/5/5 x");
  fixture.send({{"type", "move"}, {"move", "a1a5"}});
  fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 1; }, "after a1a5");
}

BOOST_AUTO_TEST_CASE(the_real_engine_answers_a_persons_move_with_its_score) {
  Fixture fixture({real_engine()});
  fixture.send({{"type", "new_game"},
                {"variant", "2p"},
                {"players", json::array{"human", "quixo"}},
                {"time", "st=0.05"}});
  fixture.inbox.wait_state([](const json::object& s) { return s.at("time") == "st=0.05"; },
                           "of the new game");
  fixture.send({{"type", "move"}, {"move", "c1c5"}});
  const json::object thinking =
      fixture.inbox.wait_state([](const json::object& s) { return !s.at("thinking").is_null(); },
                               "with the engine thinking");
  BOOST_TEST(thinking.at("human_to_move").as_bool() == false);
  fixture.inbox.wait_type("info");
  const json::object replied = fixture.inbox.wait_state(
      [](const json::object& s) { return move_count(s) == 2; }, "with the engine's reply");
  const json::object reply = replied.at("moves").as_array()[1].as_object();
  BOOST_TEST(reply.at("by").as_string() == "quixo");
  BOOST_TEST(!reply.at("score").is_null());
  BOOST_TEST(replied.at("human_to_move").as_bool());
  BOOST_TEST(replied.at("thinking").is_null());
  // Take back returns to the person's turn: both moves go.
  fixture.send({{"type", "takeback"}});
  fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 0; },
                           "after the take-back");
}

BOOST_AUTO_TEST_CASE(two_engines_play_a_whole_game) {
  Fixture fixture({mock("first", "normal", 1), mock("second", "normal", 2)});
  fixture.send({{"type", "new_game"}, {"players", json::array{"first", "second"}}});
  const json::object over = fixture.inbox.wait_state(has_result, "with a result", 60s);
  BOOST_TEST(move_count(over) >= 9u);
  const auto& moves = over.at("moves").as_array();
  BOOST_TEST(moves[0].at("by").as_string() == "first");
  BOOST_TEST(moves[1].at("by").as_string() == "second");
  BOOST_TEST(over.at("legal").as_array().empty());
  // The finished game is saved in the arena's PGN format.
  fixture.send({{"type", "save_pgn"}});
  const json::object pgn = fixture.inbox.wait_type("pgn");
  const std::string text(pgn.at("text").as_string());
  BOOST_TEST(text.find("[White \"first\"]") != std::string::npos);
  BOOST_TEST(text.find("[Black \"second\"]") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(analysis_follows_the_shown_position_until_it_is_stopped) {
  Fixture fixture({real_engine()});
  fixture.send({{"type", "analyze"}, {"on", true}, {"multipv", 2}});
  fixture.inbox.wait_for(
      [](const json::object& m) {
        return m.at("type") == "info" && m.at("purpose") == "analysis" && m.at("multipv") == 2 &&
               m.at("ply") == 0;
      },
      "with the second line of the start position's analysis");
  fixture.send({{"type", "move"}, {"move", "a1a5"}});
  fixture.inbox.wait_for(
      [](const json::object& m) { return m.at("type") == "info" && m.at("ply") == 1; },
      "of the analysis after a1a5");
  const json::object state = fixture.inbox.last_state();
  BOOST_TEST(state.at("analysis").at("on").as_bool());
  BOOST_TEST(state.at("human_to_move").as_bool());  // analysis does not hold a person back
  fixture.send({{"type", "stop"}});
  fixture.inbox.wait_state(
      [](const json::object& s) {
        return s.at("thinking").is_null() && !s.at("analysis").at("on").as_bool();
      },
      "with the analysis stopped");
}

BOOST_AUTO_TEST_CASE(think_makes_the_engine_move_for_a_person_and_stop_ends_an_endless_search) {
  Fixture fixture({real_engine()});
  fixture.send({{"type", "think"}});
  fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 1; },
                           "with the engine's move");
  // An engine with no limit ("inf") thinks until told to move.
  fixture.send({{"type", "new_game"}, {"players", json::array{"quixo", "human"}}, {"time", "inf"}});
  fixture.inbox.wait_for([](const json::object& m) { return m.at("type") == "info"; },
                         "of the endless search");
  std::this_thread::sleep_for(200ms);
  BOOST_TEST(move_count(fixture.inbox.last_state()) == 0u);
  fixture.send({{"type", "stop"}});
  fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 1; },
                           "with the move after stop");
}

BOOST_DATA_TEST_CASE(a_misbehaving_engine_loses_the_game_with_the_reason,
                     bdata::make({std::string("crash-on-go"), std::string("illegal"),
                                  std::string("malformed")}),
                     mode) {
  Fixture fixture({mock("bad", mode)});
  fixture.send({{"type", "new_game"}, {"players", json::array{"human", "bad"}}});
  fixture.inbox.wait_state(
      [](const json::object& s) { return s.at("players").as_array()[1] == "bad"; },
      "of the new game");
  fixture.send({{"type", "move"}, {"move", "a1a5"}});
  const json::object over = fixture.inbox.wait_state(has_result, "with a result");
  BOOST_TEST(over.at("result").at("score").as_string() == "1-0");
  BOOST_TEST(!over.at("result").at("reason").as_string().empty());
  BOOST_TEST(move_count(over) == 1u);
  // The next game starts the engine again.
  fixture.send({{"type", "new_game"}, {"players", json::array{"human", "human"}}});
  fixture.inbox.wait_state([](const json::object& s) { return !has_result(s); }, "of a new game");
}

BOOST_AUTO_TEST_CASE(an_engine_that_cannot_start_is_reported) {
  Fixture fixture({engine("missing", "/nonexistent/engine")});
  fixture.send({{"type", "think"}});
  const json::object error = fixture.inbox.wait_type("error");
  BOOST_TEST(std::string(error.at("message").as_string()).find("missing") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_pgn_of_the_arena_is_listed_opened_and_stepped_through) {
  arena::GameRecord game;
  game.x_name = "alpha";
  game.o_name = "beta";
  game.round = "3";
  game.start_position = "5/5/5/5/5 x";
  game.opening_moves = {"a1a5"};
  arena::MoveRecord reply;
  reply.move = "e5e1";
  reply.score_cp = -20;
  reply.depth = 6;
  reply.time_ms = 100;
  game.moves = {reply};
  game.time_control = "10+0.1";
  game.result = GameResult::Draw;
  game.termination = Termination::PlyCap;
  const std::string pgn = arena::format_pgn(game) + arena::format_pgn(game);
  Fixture fixture({});
  fixture.send({{"type", "load_pgn"}, {"text", pgn}});
  const json::object list = fixture.inbox.wait_type("pgn_games");
  BOOST_REQUIRE(list.at("games").as_array().size() == 2u);
  BOOST_TEST(list.at("games").as_array()[0].at("white").as_string() == "alpha");
  BOOST_TEST(list.at("games").as_array()[0].at("plies").as_int64() == 2);
  fixture.send({{"type", "open_game"}, {"index", 1}});
  const json::object opened = fixture.inbox.wait_state(
      [](const json::object& s) { return move_count(s) == 2; }, "of the opened game");
  BOOST_TEST(opened.at("ply").as_int64() == 0);
  BOOST_TEST(opened.at("moves").as_array()[1].at("score").at("cp").as_int64() == -20);
  fixture.send({{"type", "goto"}, {"ply", 2}});
  const json::object end =
      fixture.inbox.wait_state([](const json::object& s) { return s.at("ply") == 2; }, "at ply 2");
  BOOST_TEST(end.at("position").as_string() == end.at("moves").as_array()[1].at("position"));
  BOOST_TEST(end.at("result").at("score").as_string() == "1/2-1/2");
}

BOOST_AUTO_TEST_CASE(a_four_player_game_between_people_and_engines) {
  Fixture fixture({mock("team", "normal", 3)});
  fixture.send({{"type", "new_game"},
                {"variant", "4p"},
                {"players", json::array{"human", "team", "human", "team"}}});
  fixture.inbox.wait_state([](const json::object& s) { return s.at("variant") == "4p"; },
                           "of the four-player game");
  const json::object start = fixture.inbox.last_state();
  BOOST_TEST(start.at("legal").as_array()[0].at("point").is_string());
  fixture.send({{"type", "move"},
                {"move", std::string(start.at("legal").as_array()[0].at("move").as_string())}});
  const json::object answered = fixture.inbox.wait_state(
      [](const json::object& s) { return move_count(s) == 2; }, "after seat 2's engine moved");
  BOOST_TEST(answered.at("to_move").as_string() == "3");
  BOOST_TEST(answered.at("moves").as_array()[1].at("by").as_string() == "team");
}

BOOST_AUTO_TEST_CASE(go_carries_the_clocks_or_the_engines_own_limit) {
  auto log = std::make_shared<test::ScriptedLog>();
  arena::EngineConfig easy = test::scripted_config("easy");
  easy.time_control = arena::TimeControl::parse("depth=4");
  Inbox inbox;
  SessionConfig config;
  config.engines = {easy};
  config.launcher = test::scripted_launcher(test::first_legal_move(10), log);
  GuiSession session(std::move(config), inbox.sender());
  session.open();
  // No clock: the engine's own limit.
  session.receive(R"({"type":"new_game","players":["easy","human"]})");
  inbox.wait_state([](const json::object& s) { return move_count(s) == 1; }, "after easy's move");
  BOOST_TEST(log->lines_starting("go").back() == "go depth 4");
  // A clock: both sides' time, which wins over the engine's own limit.
  session.receive(R"({"type":"new_game","players":["human","easy"],"time":"60+1"})");
  session.receive(R"({"type":"move","move":"a1a5"})");
  const json::object state =
      inbox.wait_state([](const json::object& s) { return move_count(s) == 2; }, "after O's reply");
  const std::string go = log->lines_starting("go").back();
  BOOST_TEST(go.starts_with("go xtime "), go);
  BOOST_TEST(go.find(" otime ") != std::string::npos, go);
  BOOST_TEST(go.find(" xinc 1000 oinc 1000") != std::string::npos, go);
  BOOST_TEST(state.at("clock").at("remaining_ms").as_array().size() == 2u);
  BOOST_TEST(state.at("clock").at("running").as_int64() == 0);
  BOOST_TEST(log->lines_starting("uqinewgame").size() >= 2u);
}

// The ponder flow of a chess GUI: after its move the engine thinks on the reply it named
// (`go ponder` on the position after it); the person plays that reply and `ponderhit` turns the
// search into the engine's move; a different reply stops it and the engine searches afresh.
BOOST_AUTO_TEST_CASE(an_engine_ponders_on_the_reply_it_expects) {
  auto log = std::make_shared<test::ScriptedLog>();
  Inbox inbox;
  SessionConfig config;
  config.engines = {test::scripted_config("pond")};
  config.launcher = test::scripted_launcher(test::first_legal_move_pondering(10), log);
  GuiSession session(std::move(config), inbox.sender());
  session.open();
  session.receive(R"({"type":"new_game","players":["human","pond"],"time":"60+1","ponder":true})");
  inbox.wait_state([](const json::object& s) { return s.at("ponder").as_bool(); }, "with ponder");
  session.receive(R"({"type":"move","move":"a1a5"})");
  const auto pondering = [](const json::object& s) { return !s.at("pondering").is_null(); };
  json::object state = inbox.wait_state(
      [&](const json::object& s) { return move_count(s) == 2 && pondering(s); }, "pondering");
  const std::string expected(state.at("pondering").at("move").as_string());
  BOOST_TEST(state.at("pondering").at("engine").as_string() == "pond");
  // The state is sent when the search is queued; the engine's thread writes its lines soon after.
  BOOST_TEST_REQUIRE(lines_arrive(*log, "go ponder xtime ", 1));
  BOOST_TEST(log->lines_starting("position").back().ends_with(" " + expected));
  // The expected reply: ponderhit, and the engine's move comes from the ponder search.
  session.receive(json::serialize(json::object{{"type", "move"}, {"move", expected}}));
  state =
      inbox.wait_state([&](const json::object& s) { return move_count(s) == 4 && pondering(s); },
                       "after the ponderhit move");
  BOOST_TEST(log->lines_starting("ponderhit").size() == 1u);
  BOOST_TEST_REQUIRE(lines_arrive(*log, "go ponder ", 2));  // go, go ponder, go ponder
  BOOST_TEST(log->lines_starting("go").size() == 3u);
  BOOST_TEST(state.at("moves").as_array()[3].at("by").as_string() == "pond");
  // Another reply: the ponder search is stopped and a normal one finds the move.
  const std::string expected_now(state.at("pondering").at("move").as_string());
  std::string other;
  for (const json::value& legal : state.at("legal").as_array())
    if (legal.at("move").as_string() != expected_now) other = legal.at("move").as_string();
  session.receive(json::serialize(json::object{{"type", "move"}, {"move", other}}));
  inbox.wait_state([](const json::object& s) { return move_count(s) == 6; }, "after a miss");
  BOOST_TEST(log->lines_starting("ponderhit").size() == 1u);
  BOOST_TEST(log->lines_starting("stop").size() >= 1u);
  const std::vector<std::string> gos = log->lines_starting("go");
  BOOST_REQUIRE(gos.size() >= 4u);
  BOOST_TEST(gos[3].starts_with("go xtime "), gos[3]);
  // A new game without ponder: no more ponder searches.
  session.receive(R"({"type":"new_game","players":["human","pond"],"time":"60+1"})");
  session.receive(R"({"type":"move","move":"a1a5"})");
  state = inbox.wait_state([](const json::object& s) { return move_count(s) == 2; }, "no ponder");
  BOOST_TEST(state.at("pondering").is_null());
  BOOST_TEST(!log->lines_starting("go").back().starts_with("go ponder"));
}

// Two engines that each expect the other's actual reply: every move after the first two comes
// through a ponderhit, and the game is played to its end all the same.
BOOST_AUTO_TEST_CASE(two_pondering_engines_play_a_game_of_ponderhits) {
  auto log = std::make_shared<test::ScriptedLog>();
  Inbox inbox;
  SessionConfig config;
  config.engines = {test::scripted_config("a"), test::scripted_config("b")};
  config.launcher = test::scripted_launcher(test::first_legal_move_pondering(), log);
  GuiSession session(std::move(config), inbox.sender());
  session.open();
  session.receive(R"({"type":"new_game","players":["a","b"],"time":"60+1","ponder":true})");
  const json::object state = inbox.wait_state(has_result, "with a result");
  const std::size_t moves = move_count(state);
  BOOST_TEST(moves >= 4u);
  BOOST_TEST(log->lines_starting("ponderhit").size() >= moves - 2, moves);
  for (const json::value& move : state.at("moves").as_array())
    BOOST_TEST(move.at("by").as_string() != "human");
}

BOOST_AUTO_TEST_CASE(the_real_engine_ponders_and_answers_the_expected_reply) {
  Fixture fixture({real_engine()});
  fixture.send({{"type", "new_game"},
                {"players", json::array{"human", "quixo"}},
                {"time", "20+0.2"},
                {"ponder", true}});
  fixture.send({{"type", "move"}, {"move", "a1a5"}});
  json::object state = fixture.inbox.wait_state(
      [](const json::object& s) { return move_count(s) == 2 && !s.at("pondering").is_null(); },
      "pondering after the engine's move");
  const std::string expected(state.at("pondering").at("move").as_string());
  fixture.inbox.wait_for(
      [](const json::object& m) {
        return m.at("type").as_string() == "info" && m.at("purpose").as_string() == "ponder";
      },
      "of the ponder search");
  fixture.send({{"type", "move"}, {"move", expected}});
  state = fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 4; },
                                   "the engine's reply");
  const json::object& reply = state.at("moves").as_array()[3].as_object();
  BOOST_TEST(reply.at("by").as_string() == "quixo");
  BOOST_TEST(reply.at("time_ms").as_int64() < 10'000);
}

BOOST_AUTO_TEST_CASE(with_tables_every_move_shows_its_exact_value) {
  test::require_test_tables();
  auto tables = std::make_shared<tb::Tablebase>();
  BOOST_REQUIRE(tables->load(test::test_tables_dir()).problems.empty());
  Fixture fixture({}, tables);
  const Position position = test::positions_with_blanks(0).front();
  fixture.send({{"type", "setup"}, {"position", to_string(position)}});
  const json::object state = fixture.inbox.wait_state(
      [](const json::object& s) { return !s.at("tb").is_null(); }, "with the tables' values");
  const json::object& tb = state.at("tb").as_object();
  BOOST_TEST(tb.at("moves").as_array().size() == state.at("legal").as_array().size());
  const std::string value(tb.at("value").as_string());
  BOOST_TEST((value == "win" || value == "loss" || value == "draw"));
  // The best move's value is the position's: a move that wins for the mover makes a win.
  const json::object& best = tb.at("moves").as_array()[0].as_object();
  BOOST_TEST(best.at("value").as_string() == value);
}

// Keeping the person's work: the game is saved as it goes and opened again by its id in a new
// session (a reload, a closed tab, a restarted server), with its variations and its players; an
// engine that was to move searches again.
BOOST_AUTO_TEST_CASE(a_game_is_saved_and_resumed_in_a_new_session) {
  const DataFolder data;
  std::string id;
  {
    Fixture fixture({mock("mock", "normal", 3)}, nullptr, data.store);
    fixture.send({{"type", "new_game"}, {"players", json::array{"human", "mock"}}});
    fixture.send({{"type", "move"}, {"move", "a1a5"}});
    const json::object answered = fixture.inbox.wait_state(
        [](const json::object& s) { return move_count(s) == 2; }, "after the mock's reply");
    id = std::string(answered.at("game_id").as_string());
    BOOST_TEST_REQUIRE(!id.empty());
    // A move at ply 0 starts a variation; the engine answers in it.
    fixture.send({{"type", "goto"}, {"ply", 0}});
    fixture.send({{"type", "move"}, {"move", "b1b5"}});
    const json::object varied = fixture.inbox.wait_state(
        [](const json::object& s) {
          return move_count(s) == 2 && s.at("moves").as_array()[0].at("move").as_string() == "b1b5";
        },
        "the mock's reply in the variation");
    BOOST_TEST(varied.at("tree").as_array()[0].at("variations").as_array().size() == 1u);
    BOOST_TEST(varied.at("game_id").as_string() == id);
    fixture.send({{"type", "goto"}, {"ply", 1}});
    fixture.inbox.wait_state([](const json::object& s) { return s.at("ply").as_int64() == 1; },
                             "at ply 1");
  }
  BOOST_TEST(std::filesystem::exists(data.path / (id + ".json")));
  Fixture again({mock("mock", "normal", 3)}, nullptr, data.store);
  BOOST_TEST(again.inbox.last_state().at("game_id").as_string() != id);
  again.send({{"type", "resume"}, {"game_id", id}});
  const json::object resumed = again.inbox.wait_state(
      [&](const json::object& s) { return s.at("game_id").as_string() == id; }, "the resumed game");
  BOOST_TEST(resumed.at("ply").as_int64() == 1);
  BOOST_TEST(move_count(resumed) == 2u);
  BOOST_TEST(resumed.at("moves").as_array()[0].at("move").as_string() == "b1b5");
  BOOST_TEST(resumed.at("players").as_array()[1].as_string() == "mock");
  const json::array& tree = resumed.at("tree").as_array();
  BOOST_TEST(tree[0].at("move").as_string() ==
             "a1a5");  // the main line, with the variation after it
  BOOST_TEST(tree[0].at("variations").as_array()[0].as_array()[0].at("move").as_string() == "b1b5");
  // Any node of the tree is reached by its id: the main line's second move.
  const std::int64_t main_reply = tree[1].at("id").as_int64();
  again.send({{"type", "goto"}, {"node", main_reply}});
  const json::object main_line = again.inbox.wait_state(
      [](const json::object& s) {
        return s.at("moves").as_array()[0].at("move").as_string() == "a1a5";
      },
      "the main line");
  BOOST_TEST(main_line.at("node").as_int64() == main_reply);
  BOOST_TEST(main_line.at("ply").as_int64() == 2);
  // The game goes on: the person moves, the engine answers.
  again.send({{"type", "move"}, {"move", main_line.at("legal").as_array()[0].at("move")}});
  again.inbox.wait_state([](const json::object& s) { return move_count(s) == 4; },
                         "the engine's answer after the resume");
}

// A game saved while its engine was to move (the server stopped during the search): resumed,
// the engine searches again and moves.
BOOST_AUTO_TEST_CASE(an_engine_that_was_thinking_moves_after_the_resume) {
  const DataFolder data;
  SavedGame saved;
  saved.id = "0000000000000abc";
  saved.game = GuiGame(Variant::TwoPlayer, {"human", "mock"});
  saved.game.play("a1a5", move_by("human"), SteadyTime{});
  data.store->save(saved.id, format_saved_game(saved, SteadyTime{}));
  Fixture fixture({mock("mock", "normal")}, nullptr, data.store);
  fixture.send({{"type", "resume"}, {"game_id", saved.id}});
  const json::object moved = fixture.inbox.wait_state(
      [](const json::object& s) { return move_count(s) == 2; }, "the engine's move after resume");
  BOOST_TEST(moved.at("game_id").as_string() == saved.id);
  BOOST_TEST(moved.at("moves").as_array()[1].at("by").as_string() == "mock");
}

// Issue 26: a game paused when the page went comes back paused (its engine does not start), and
// goes on when the person resumes it.
BOOST_AUTO_TEST_CASE(a_paused_game_comes_back_paused) {
  const DataFolder data;
  SavedGame saved;
  saved.id = "0000000000000def";
  saved.game = GuiGame(Variant::TwoPlayer, {"human", "mock"});
  saved.game.play("a1a5", move_by("human"), SteadyTime{});
  saved.game.pause(SteadyTime{});
  data.store->save(saved.id, format_saved_game(saved, SteadyTime{}));
  Fixture fixture({mock("mock", "normal")}, nullptr, data.store);
  fixture.send({{"type", "resume"}, {"game_id", saved.id}});
  const json::object resumed = fixture.inbox.wait_state(
      [&](const json::object& s) { return s.at("game_id").as_string() == saved.id; }, "the game");
  BOOST_TEST(resumed.at("paused").as_bool());
  BOOST_TEST(resumed.at("thinking").is_null());
  fixture.send({{"type", "pause"}, {"on", false}});
  fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 2; },
                           "the engine's move once resumed");
}

// Analysis survives too: a game analysed when the page went is analysed again after resume.
BOOST_AUTO_TEST_CASE(a_resumed_game_is_analysed_again) {
  const DataFolder data;
  std::string id;
  {
    Fixture fixture({real_engine()}, nullptr, data.store);
    fixture.send({{"type", "move"}, {"move", "a1a5"}});
    fixture.send({{"type", "analyze"}, {"on", true}, {"multipv", 2}});
    id = std::string(
        fixture.inbox
            .wait_state([](const json::object& s) { return s.at("analysis").at("on").as_bool(); },
                        "analysis on")
            .at("game_id")
            .as_string());
  }
  Fixture again({real_engine()}, nullptr, data.store);
  again.send({{"type", "resume"}, {"game_id", id}});
  const json::object resumed = again.inbox.wait_state(
      [&](const json::object& s) { return s.at("game_id").as_string() == id; }, "the game");
  BOOST_TEST(resumed.at("analysis").at("on").as_bool());
  BOOST_TEST(resumed.at("analysis").at("multipv").as_int64() == 2);
  again.inbox.wait_for(
      [](const json::object& m) {
        return m.at("type") == "info" && m.at("purpose") == "analysis" && m.at("ply") == 1;
      },
      "the analysis of the resumed position");
}

BOOST_AUTO_TEST_CASE(recent_games_list_the_saved_ones_and_skip_a_bad_file) {
  const DataFolder data;
  Fixture fixture({mock("mock", "normal")}, nullptr, data.store);
  fixture.send({{"type", "move"}, {"move", "a1a5"}});
  const std::string first = std::string(
      fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 1; }, "a1a5")
          .at("game_id")
          .as_string());
  fixture.send({{"type", "new_game"}, {"players", json::array{"human", "human"}}});
  fixture.send({{"type", "move"}, {"move", "b1b5"}});
  const std::string second = std::string(
      fixture.inbox
          .wait_state([](const json::object& s) { return moves_text(s) == "b1b5 "; }, "b1b5")
          .at("game_id")
          .as_string());
  BOOST_TEST(first != second);
  std::ofstream(data.path / "badbadbad.json") << "{\"format\":\"quixo-gui game\"";
  fixture.send({{"type", "recent_games"}});
  const json::object recent = fixture.inbox.wait_type("recent_games");
  const json::array& games = recent.at("games").as_array();
  BOOST_TEST_REQUIRE(games.size() == 2u);
  BOOST_TEST((games[0].at("id").as_string() == second || games[1].at("id").as_string() == second));
  for (const json::value& game : games) {
    BOOST_TEST(game.at("plies").to_number<int>() == 1);
    BOOST_TEST(game.at("result").as_string() == "*");
    BOOST_TEST(game.at("current").as_bool() == (game.at("id").as_string() == second));
  }
  BOOST_TEST_REQUIRE(recent.at("problems").as_array().size() == 1u);
  BOOST_TEST(std::string(recent.at("problems").as_array()[0].as_string()).find("badbadbad") !=
             std::string::npos);
  // Opening the bad one is an error; the game shown stays.
  fixture.send({{"type", "resume"}, {"game_id", "badbadbad"}});
  BOOST_TEST(std::string(fixture.inbox.wait_type("error").at("message").as_string())
                 .find("cannot be opened") != std::string::npos);
  fixture.send({{"type", "resume"}, {"game_id", "nosuchgame"}});
  BOOST_TEST(std::string(fixture.inbox.wait_type("error").at("message").as_string())
                 .find("no saved game") != std::string::npos);
  BOOST_TEST(fixture.inbox.last_state().at("game_id").as_string() == second);
}

BOOST_AUTO_TEST_CASE(without_a_data_folder_resume_says_games_are_not_saved) {
  Fixture fixture({mock("mock", "normal")});
  BOOST_TEST(fixture.inbox.last_state().at("game_id").as_string() == "");
  fixture.send({{"type", "resume"}, {"game_id", "abc"}});
  BOOST_TEST(
      std::string(fixture.inbox.wait_type("error").at("message").as_string()).find("not saved") !=
      std::string::npos);
}

// A folder that refuses the file: the page is told once, and the game goes on.
BOOST_AUTO_TEST_CASE(a_game_that_cannot_be_saved_is_reported_once) {
  if (::geteuid() == 0) return;  // root writes anywhere
  const DataFolder data;
  Fixture fixture({mock("mock", "normal")}, nullptr, data.store);
  std::filesystem::permissions(
      data.path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  fixture.send({{"type", "move"}, {"move", "a1a5"}});
  BOOST_TEST(std::string(fixture.inbox.wait_type("error").at("message").as_string())
                 .find("could not be saved") != std::string::npos);
  fixture.send({{"type", "move"}, {"move", "e5e1"}});
  fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 2; }, "e5e1");
  fixture.send({{"type", "recent_games"}});
  BOOST_TEST(fixture.inbox
                 .wait_for(
                     [](const json::object& m) {
                       return m.at("type").as_string() == "error" ||
                              m.at("type").as_string() == "recent_games";
                     },
                     "the recent games")
                 .at("type")
                 .as_string() == "recent_games");  // the second failure was not repeated
}

// The tree through the page's messages: a variation, its comment, promoted, deleted; and a PGN
// study with a variation and a comment opened with them.
BOOST_AUTO_TEST_CASE(variations_are_made_commented_promoted_and_deleted_and_come_from_pgn) {
  Fixture fixture({mock("mock", "normal")});
  fixture.send({{"type", "move"}, {"move", "a1a5"}});
  fixture.send({{"type", "move"}, {"move", "e5e1"}});
  fixture.send({{"type", "goto"}, {"ply", 1}});
  fixture.send({{"type", "move"}, {"move", "b5b1"}});
  const json::object varied = fixture.inbox.wait_state(
      [](const json::object& s) { return moves_text(s) == "a1a5 b5b1 "; }, "the variation");
  const std::int64_t variation = varied.at("node").as_int64();
  fixture.send({{"type", "comment"}, {"node", variation}, {"text", "also good"}});
  fixture.send({{"type", "promote"}, {"node", variation}});
  const json::object promoted = fixture.inbox.wait_state(
      [](const json::object& s) {
        const json::array& tree = s.at("tree").as_array();
        return tree.size() == 2 && tree[1].at("move").as_string() == "b5b1";
      },
      "the variation promoted");
  const json::object& second = promoted.at("tree").as_array()[1].as_object();
  BOOST_TEST(second.at("comment").as_string() == "also good");
  BOOST_TEST(second.at("variations").as_array()[0].as_array()[0].at("move").as_string() == "e5e1");
  fixture.send({{"type", "delete"}, {"node", variation}});
  const json::object deleted = fixture.inbox.wait_state(
      [](const json::object& s) {
        const json::array& tree = s.at("tree").as_array();
        return tree.size() == 2 && tree[1].at("move").as_string() == "e5e1";
      },
      "the variation deleted");
  BOOST_TEST(deleted.at("tree").as_array()[1].at("variations").as_array().empty());
  BOOST_TEST(deleted.at("ply").as_int64() == 1);  // it was shown: the position before it is
  fixture.send({{"type", "comment"}, {"node", 0}, {"text", "x"}});
  fixture.inbox.wait_type("error");

  fixture.send({{"type", "load_pgn"},
                {"text",
                 "[Event \"study\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                 "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[FEN \"5/5/5/5/5 x\"]\n"
                 "[QuixoTermination \"unterminated\"]\n\n"
                 "1. a1e1 {a good start} (1. b1b5 {also fine}) 1... e5a5 *\n"}});
  fixture.inbox.wait_type("pgn_games");
  fixture.send({{"type", "open_game"}, {"index", 0}});
  const json::object study = fixture.inbox.wait_state(
      [](const json::object& s) { return moves_text(s) == "a1e1 e5a5 "; }, "the study");
  const json::object& first = study.at("tree").as_array()[0].as_object();
  BOOST_TEST(first.at("comment").as_string() == "a good start");
  BOOST_TEST(first.at("variations").as_array()[0].as_array()[0].at("comment").as_string() ==
             "also fine");
}

// Defect 2 of issue 26: analysis takes over a game with an engine and keeps its moves.
BOOST_AUTO_TEST_CASE(analysis_takes_over_a_game_and_keeps_its_moves) {
  Fixture fixture({mock("mock", "normal")});
  fixture.send({{"type", "new_game"}, {"players", json::array{"human", "mock"}}});
  fixture.send({{"type", "move"}, {"move", "a1a5"}});
  fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 2; }, "the reply");
  fixture.send({{"type", "set_players"}, {"players", json::array{"human", "human"}}});
  const json::object state = fixture.inbox.wait_state(
      [](const json::object& s) { return s.at("players").as_array()[1].as_string() == "human"; },
      "all people");
  BOOST_TEST(move_count(state) == 2u);
  BOOST_TEST(state.at("human_to_move").as_bool());
  fixture.send({{"type", "set_players"}, {"players", json::array{"human", "nobody"}}});
  BOOST_TEST(
      std::string(fixture.inbox.wait_type("error").at("message").as_string()).find("nobody") !=
      std::string::npos);
}

// The last `game_analysis` message of a run: it ended (finished or cancelled).
bool analysis_ended(const json::object& m) {
  return m.at("type") == "game_analysis" && !m.at("running").as_bool();
}

std::string legal_move(const json::object& state, std::size_t index) {
  const auto& legal = state.at("legal").as_array();
  return std::string(legal[index % legal.size()].at("move").as_string());
}

BOOST_DATA_TEST_CASE(whole_game_analysis_marks_each_move_by_the_engines_scores,
                     bdata::make({0, 20, 30, 40}) ^
                         bdata::make({std::string(""), std::string("inaccuracy"),
                                      std::string("mistake"), std::string("blunder")}),
                     score, mark) {
  // The mock says `score` for the side to move in every position and plays the first legal
  // move: each move that is not its choice hands the opponent the same score, a loss of
  // sigma(s) - sigma(-s) = 0.089 (20 cp), 0.133 (30 cp), 0.177 (40 cp).
  Fixture fixture({engine("mock", QUIXO_MOCK_ENGINE_BINARY,
                          {"--mode", "normal", "--score", std::to_string(score)})});
  std::vector<std::string> firsts;
  for (int ply = 0; ply < 3; ++ply) {
    const json::object state = fixture.inbox.last_state();
    firsts.push_back(legal_move(state, 0));
    fixture.send({{"type", "move"}, {"move", legal_move(state, 5 + ply)}});
    fixture.inbox.wait_state([ply](const json::object& s) { return move_count(s) == ply + 1u; },
                             "after the move");
  }
  fixture.send({{"type", "analyze_game"}, {"on", true}, {"movetime_ms", 20}});
  const json::object first = fixture.inbox.wait_type("game_analysis");
  BOOST_TEST(first.at("running").as_bool());
  BOOST_TEST(first.at("total").as_int64() == 4);
  BOOST_TEST(first.at("engine").as_string() == "mock");
  const json::object end = fixture.inbox.wait_for(analysis_ended, "the end of the analysis");
  BOOST_TEST(end.at("done").as_int64() == 4);
  BOOST_TEST(!end.at("cancelled").as_bool());
  const json::object state = fixture.inbox.wait_state(
      [](const json::object& s) { return !s.at("moves").as_array()[2].at("analysis").is_null(); },
      "with every move analysed");
  for (std::size_t i = 0; i < 3; ++i) {
    const json::object& analysis = state.at("moves").as_array()[i].at("analysis").as_object();
    BOOST_TEST(analysis.at("score").at("cp").as_int64() == -score);
    BOOST_TEST(analysis.at("best").as_string() == firsts[i]);
    if (mark.empty())
      BOOST_TEST(analysis.at("mark").is_null());
    else
      BOOST_TEST(analysis.at("mark").as_string() == mark);
  }
}

// Issue 26: the marks of a whole-game analysis are saved with the game; a resumed session shows
// them as the analysing one did.
BOOST_AUTO_TEST_CASE(whole_game_analysis_is_saved_and_comes_back_with_the_game) {
  const DataFolder data;
  const auto mock40 = [] {
    return engine("mock", QUIXO_MOCK_ENGINE_BINARY, {"--mode", "normal", "--score", "40"});
  };
  std::string id;
  json::value moves;
  {
    Fixture fixture({mock40()}, nullptr, data.store);
    for (int ply = 0; ply < 2; ++ply) {
      const json::object state = fixture.inbox.last_state();
      fixture.send({{"type", "move"}, {"move", legal_move(state, 5 + ply)}});
      fixture.inbox.wait_state([ply](const json::object& s) { return move_count(s) == ply + 1u; },
                               "after the move");
    }
    fixture.send({{"type", "analyze_game"}, {"on", true}, {"movetime_ms", 20}});
    fixture.inbox.wait_for(analysis_ended, "the end of the analysis");
    const json::object analysed = fixture.inbox.wait_state(
        [](const json::object& s) { return !s.at("moves").as_array()[1].at("analysis").is_null(); },
        "with every move analysed");
    id = std::string(analysed.at("game_id").as_string());
    moves = analysed.at("moves");
    BOOST_TEST(moves.as_array()[0].at("analysis").at("mark").as_string() == "blunder");
  }
  Fixture again({mock40()}, nullptr, data.store);
  again.send({{"type", "resume"}, {"game_id", id}});
  const json::object resumed = again.inbox.wait_state(
      [&](const json::object& s) { return s.at("game_id").as_string() == id; }, "the game");
  BOOST_TEST(json::serialize(resumed.at("moves")) == json::serialize(moves));
}

BOOST_AUTO_TEST_CASE(whole_game_analysis_of_a_four_player_game_goes_by_teams) {
  // The mock's +40 for the team to move, every seat: each move that is not its choice hands the
  // other team +40, a blunder; the engine is asked with the seat to move's `go`.
  Fixture fixture(
      {engine("mock", QUIXO_MOCK_ENGINE_BINARY, {"--mode", "normal", "--score", "40"})});
  fixture.send({{"type", "new_game"},
                {"variant", "4p"},
                {"players", json::array{"human", "human", "human", "human"}}});
  fixture.inbox.wait_state([](const json::object& s) { return s.at("variant") == "4p"; }, "4p");
  for (int ply = 0; ply < 4; ++ply) {
    const json::object state = fixture.inbox.last_state();
    fixture.send({{"type", "move"}, {"move", legal_move(state, 3 + ply)}});
    fixture.inbox.wait_state([ply](const json::object& s) { return move_count(s) == ply + 1u; },
                             "after the move");
  }
  fixture.send({{"type", "analyze_game"}, {"on", true}, {"movetime_ms", 20}});
  const json::object end = fixture.inbox.wait_for(analysis_ended, "the end of the analysis");
  BOOST_TEST(end.at("done").as_int64() == 5);
  const json::object state = fixture.inbox.wait_state(
      [](const json::object& s) { return !s.at("moves").as_array()[3].at("analysis").is_null(); },
      "with every move analysed");
  for (const auto& move : state.at("moves").as_array()) {
    BOOST_TEST(move.at("analysis").at("mark").as_string() == "blunder");
    BOOST_TEST(move.at("analysis").at("score").at("cp").as_int64() == -40);
  }
}

BOOST_AUTO_TEST_CASE(whole_game_analysis_with_the_tables_marks_a_thrown_win_as_a_blunder) {
  test::require_test_tables();
  auto tables = std::make_shared<tb::Tablebase>();
  BOOST_REQUIRE(tables->load(test::test_tables_dir()).problems.empty());
  Fixture fixture({}, tables);  // no engine: the tables value every position
  // No blank cube: X wins in 37 (gui_browser_tests says which moves win, draw and lose).
  fixture.send({{"type", "setup"}, {"position", "oxooo/xooxx/oxxxo/xxoxx/oooxx x"}});
  json::object state = fixture.inbox.wait_state(
      [](const json::object& s) { return !s.at("tb").is_null(); }, "with the tables' values");
  BOOST_TEST(state.at("tb").at("value").as_string() == "win");
  auto move_valued = [](const json::object& s, const std::string& value) {
    for (const auto& move : s.at("tb").at("moves").as_array())
      if (move.at("value").as_string() == value) return std::string(move.at("move").as_string());
    BOOST_FAIL("no move of value " << value);
    return std::string();
  };
  const std::string thrown = move_valued(state, "loss");
  fixture.send({{"type", "move"}, {"move", thrown}});
  state = fixture.inbox.wait_state(
      [](const json::object& s) { return move_count(s) == 1 && !s.at("tb").is_null(); },
      "after the losing move");
  const std::string winning = move_valued(state, "win");
  fixture.send({{"type", "move"}, {"move", winning}});
  fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 2; }, "O's move");
  fixture.send({{"type", "analyze_game"}, {"on", true}});
  const json::object end = fixture.inbox.wait_for(analysis_ended, "the end of the analysis");
  BOOST_TEST(end.at("done").as_int64() == 3);
  BOOST_TEST(end.at("engine").is_null());
  state = fixture.inbox.wait_state(
      [](const json::object& s) { return !s.at("moves").as_array()[1].at("analysis").is_null(); },
      "with both moves analysed");
  const json::object& blunder = state.at("moves").as_array()[0].at("analysis").as_object();
  BOOST_TEST(blunder.at("mark").as_string() == "blunder");
  BOOST_TEST(blunder.at("tb").at("value").as_string() == "loss");
  BOOST_TEST(blunder.at("best").as_string() != thrown);
  BOOST_TEST(blunder.at("loss").as_double() == 1.0);
  const json::object& best = state.at("moves").as_array()[1].at("analysis").as_object();
  BOOST_TEST(best.at("mark").is_null());
  BOOST_TEST(best.at("tb").at("value").as_string() == "win");
}

BOOST_AUTO_TEST_CASE(a_finished_board_is_valued_by_the_rules) {
  Fixture fixture({mock("mock", "normal")});
  // X pushes its e1 cube in at e5 and completes rank 5.
  fixture.send({{"type", "setup"}, {"position", "xxxx1/5/5/5/4x x"}});
  fixture.inbox.wait_state(
      [](const json::object& s) { return s.at("position") == "xxxx1/5/5/5/4x x"; }, "set up");
  fixture.send({{"type", "move"}, {"move", "e1e5"}});
  const json::object over = fixture.inbox.wait_state(has_result, "X's five");
  BOOST_TEST(over.at("result").at("score").as_string() == "1-0");
  // The engine values the first position, the rules the finished board: a win for the mover.
  fixture.send({{"type", "analyze_game"}, {"on", true}, {"movetime_ms", 20}});
  const json::object end = fixture.inbox.wait_for(analysis_ended, "the end of the analysis");
  BOOST_TEST(end.at("done").as_int64() == 2);
  const json::object state = fixture.inbox.wait_state(
      [](const json::object& s) { return !s.at("moves").as_array()[0].at("analysis").is_null(); },
      "with the move analysed");
  const json::object& analysis = state.at("moves").as_array()[0].at("analysis").as_object();
  BOOST_TEST(analysis.at("tb").at("value").as_string() == "win");
  BOOST_TEST(analysis.at("tb").at("distance").as_int64() == 0);
  BOOST_TEST(analysis.at("mark").is_null());
}

BOOST_AUTO_TEST_CASE(a_change_of_the_game_or_a_cancel_ends_whole_game_analysis_but_goto_does_not) {
  Fixture fixture({real_engine()});
  fixture.send({{"type", "move"}, {"move", "a1a5"}});
  fixture.send({{"type", "move"}, {"move", "e5e1"}});
  fixture.inbox.wait_state([](const json::object& s) { return move_count(s) == 2; }, "two moves");
  // Ten seconds a position: the run is still on its first position when the checks below end.
  fixture.send({{"type", "analyze_game"}, {"on", true}, {"movetime_ms", 10'000}});
  BOOST_TEST(fixture.inbox.wait_type("game_analysis").at("running").as_bool());
  fixture.send({{"type", "goto"}, {"ply", 0}});
  fixture.inbox.wait_state([](const json::object& s) { return s.at("ply") == 0; }, "at ply 0");
  fixture.send({{"type", "move"}, {"move", "b1b5"}});  // a new line
  const json::object cancelled = fixture.inbox.wait_for(analysis_ended, "the cancel");
  BOOST_TEST(cancelled.at("cancelled").as_bool());
  BOOST_TEST(cancelled.at("done").as_int64() == 0);  // the goto did not end it
  // Started again and cancelled by the page.
  fixture.send({{"type", "analyze_game"}, {"on", true}, {"movetime_ms", 10'000}});
  BOOST_TEST(fixture.inbox.wait_type("game_analysis").at("running").as_bool());
  fixture.send({{"type", "analyze_game"}, {"on", false}});
  BOOST_TEST(fixture.inbox.wait_for(analysis_ended, "the cancel").at("cancelled").as_bool());
  // `stop` ends it as well.
  fixture.send({{"type", "analyze_game"}, {"on", true}, {"movetime_ms", 10'000}});
  BOOST_TEST(fixture.inbox.wait_type("game_analysis").at("running").as_bool());
  fixture.send({{"type", "stop"}});
  BOOST_TEST(fixture.inbox.wait_for(analysis_ended, "the stop").at("cancelled").as_bool());
  // The engine is free again: it analyses the shown position at once.
  fixture.send({{"type", "analyze"}, {"on", true}});
  fixture.inbox.wait_for(
      [](const json::object& m) { return m.at("type") == "info" && m.at("purpose") == "analysis"; },
      "the live analysis after the cancel");
}

BOOST_AUTO_TEST_CASE(
    a_line_is_previewed_without_changing_the_game_and_played_as_far_as_a_person_moves) {
  Fixture fixture({mock("mock", "normal")});
  fixture.send({{"type", "preview"}, {"moves", json::array{"a1a5", "e5e1", "b1b5"}}});
  const json::object preview = fixture.inbox.wait_type("preview");
  BOOST_TEST(preview.at("ply").as_int64() == 0);
  Game game = Game::start(Variant::TwoPlayer);
  const auto& positions = preview.at("positions").as_array();
  BOOST_REQUIRE(positions.size() == 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    game.play(preview.at("moves").as_array()[i].as_string());
    BOOST_TEST(positions[i].as_string() == game.text());
  }
  BOOST_TEST(move_count(fixture.inbox.last_state()) == 0u);
  // An illegal move in the line is named, and nothing changes.
  fixture.send({{"type", "preview"}, {"moves", json::array{"a1a5", "c3c1"}}});
  const json::object error = fixture.inbox.wait_type("error");
  BOOST_TEST(std::string(error.at("message").as_string()).find("move 2") != std::string::npos);
  // Person against person: the whole line is played.
  fixture.send({{"type", "play_line"}, {"moves", json::array{"a1a5", "e5e1", "b1b5"}}});
  const json::object played = fixture.inbox.wait_state(
      [](const json::object& s) { return move_count(s) == 3; }, "the line");
  BOOST_TEST(played.at("position").as_string() == game.text());
  // Against the engine: only the person's move; the engine replies by itself.
  fixture.send({{"type", "new_game"}, {"players", json::array{"human", "mock"}}});
  fixture.inbox.wait_state(
      [](const json::object& s) {
        return move_count(s) == 0 && s.at("players").as_array()[1] == "mock";
      },
      "the new game");
  fixture.send({{"type", "play_line"}, {"moves", json::array{"a1a5", "e5e1", "b1b5"}}});
  const json::object replied = fixture.inbox.wait_state(
      [](const json::object& s) { return move_count(s) == 2; }, "the reply");
  BOOST_TEST(replied.at("moves").as_array()[0].at("move").as_string() == "a1a5");
  BOOST_TEST(replied.at("moves").as_array()[1].at("by").as_string() == "mock");
}

namespace {

// The strength options as Stockfish declares them, for a scripted engine with levels.
const std::vector<std::string> kStrengthOptions = {
    "option name UCI_LimitStrength type check default false",
    "option name UCI_Elo type spin default 1500 min 0 max 2000",
    "option name Skill Level type spin default 20 min 0 max 20",
};

// Every line written to the scripted engines, in order.
std::vector<std::string> all_lines(test::ScriptedLog& log) {
  std::lock_guard lock(log.mutex);
  return log.lines;
}

// The index of the first line equal to `line` at or after `from`, or the lines' count.
std::size_t find_line(const std::vector<std::string>& lines, const std::string& line,
                      std::size_t from = 0) {
  for (std::size_t i = from; i < lines.size(); ++i)
    if (lines[i] == line) return i;
  return lines.size();
}

json::object wait_options(Inbox& inbox, const std::string& engine) {
  return inbox.wait_for(
      [&](const json::object& m) {
        return m.at("type").as_string() == "engine_options" && m.at("engine").as_string() == engine;
      },
      "engine_options of " + engine);
}

json::object wait_error(Inbox& inbox) {
  return inbox.wait_type("error");
}

}  // namespace

// Issue 26: a person plays an engine at a level; the session sets it through the engine's
// options before its search (full strength: UCI_LimitStrength false), and it shows in the state
// and the PGN.
BOOST_AUTO_TEST_CASE(a_level_is_set_before_the_engines_search_and_named_in_state_and_pgn) {
  auto log = std::make_shared<test::ScriptedLog>();
  Inbox inbox;
  SessionConfig config;
  config.engines = {test::scripted_config("levels")};
  config.launcher = test::scripted_launcher(test::first_legal_move(10), log, kStrengthOptions);
  GuiSession session(std::move(config), inbox.sender());
  session.open();
  session.receive(R"({"type":"engine_options","engine":"levels"})");
  const json::object options = wait_options(inbox, "levels");
  BOOST_TEST(options.at("id").as_string() == "scripted");
  bool has_elo = false;
  for (const json::value& option : options.at("options").as_array())
    if (option.at("name").as_string() == "UCI_Elo") {
      has_elo = true;
      BOOST_TEST(option.at("min").as_int64() == 0);
      BOOST_TEST(option.at("max").as_int64() == 2000);
      BOOST_TEST(option.at("type").as_string() == "spin");
    }
  BOOST_TEST(has_elo);

  session.receive(R"({"type":"new_game","players":["levels","human"],"elo":1200})");
  const json::object moved =
      inbox.wait_state([](const json::object& s) { return move_count(s) == 1; }, "after its move");
  BOOST_TEST(json::serialize(moved.at("levels")) == "[1200,null]");
  std::vector<std::string> lines = all_lines(*log);
  const std::size_t elo = find_line(lines, "setoption name UCI_Elo value 1200");
  const std::size_t limit = find_line(lines, "setoption name UCI_LimitStrength value true");
  const std::size_t go = static_cast<std::size_t>(
      std::find_if(lines.begin(), lines.end(),
                   [](const std::string& line) { return line.starts_with("go "); }) -
      lines.begin());
  BOOST_TEST(elo < lines.size());
  BOOST_TEST(limit < lines.size());
  BOOST_TEST(go < lines.size());
  BOOST_TEST((elo < go && limit < go));
  session.receive(R"({"type":"save_pgn"})");
  const std::string pgn(inbox.wait_type("pgn").at("text").as_string());
  BOOST_TEST(pgn.find("[WhiteElo \"1200\"]") != std::string::npos, pgn);

  // Full strength: the limit is lifted before the next search.
  const std::size_t before = all_lines(*log).size();
  session.receive(R"({"type":"new_game","players":["levels","human"]})");
  inbox.wait_state(
      [](const json::object& s) {
        return move_count(s) == 1 && json::serialize(s.at("levels")) == "[null,null]";
      },
      "after its move at full strength");
  lines = all_lines(*log);
  BOOST_TEST(find_line(lines, "setoption name UCI_LimitStrength value false", before) <
             lines.size());
}

BOOST_AUTO_TEST_CASE(a_level_the_engine_cannot_play_is_refused) {
  auto log = std::make_shared<test::ScriptedLog>();
  Inbox inbox;
  SessionConfig config;
  config.engines = {test::scripted_config("levels"), test::scripted_config("plain")};
  const arena::ProcessLauncher with_levels =
      test::scripted_launcher(test::first_legal_move(), log, kStrengthOptions);
  const arena::ProcessLauncher plain = test::scripted_launcher(test::first_legal_move(), log);
  config.launcher = [=](const arena::ProcessSpec& spec) {
    return spec.command == "scripted-plain" ? plain(spec) : with_levels(spec);
  };
  GuiSession session(std::move(config), inbox.sender());
  session.open();
  // Before the engine has started, its levels are not known: it learns at its start that it has
  // none, says so, and plays at full strength.
  session.receive(R"({"type":"new_game","players":["plain","human"],"elo":800})");
  BOOST_TEST(std::string(wait_error(inbox).at("message").as_string()) ==
             "engine \"plain\" has no levels (it declares no UCI_LimitStrength and UCI_Elo "
             "options): it plays at full strength");
  inbox.wait_state(
      [](const json::object& s) { return json::serialize(s.at("levels")) == "[null,null]"; },
      "without the level");
  // Once known, a level it cannot play is refused.
  session.receive(R"({"type":"new_game","players":["human","plain"],"elo":800})");
  BOOST_TEST(std::string(wait_error(inbox).at("message").as_string()).find("has no levels") !=
             std::string::npos);
  session.receive(R"({"type":"engine_options","engine":"levels"})");
  wait_options(inbox, "levels");
  session.receive(R"({"type":"new_game","players":["human","levels"],"elo":2500})");
  BOOST_TEST(std::string(wait_error(inbox).at("message").as_string()) ==
             "engine \"levels\" plays levels from Elo 0 to 2000, not 2500");
  session.receive(R"({"type":"new_game","players":["human","levels"],"elo":0})");
  inbox.wait_state(
      [](const json::object& s) { return json::serialize(s.at("levels")) == "[null,0]"; },
      "at the random mover's level");
  // A default level (a page's first game) is the nearest the engine offers, or none, unsaid.
  session.receive(
      R"({"type":"new_game","players":["human","levels"],"elo":2500,"elo_if_offered":true})");
  inbox.wait_state(
      [](const json::object& s) { return json::serialize(s.at("levels")) == "[null,2000]"; },
      "at the engine's top level");
  session.receive(
      R"({"type":"new_game","players":["human","plain"],"elo":1200,"elo_if_offered":true})");
  const json::object unlevelled = inbox.wait_state(
      [](const json::object& s) { return s.at("players").as_array()[1].as_string() == "plain"; },
      "against the engine without levels");
  BOOST_TEST(json::serialize(unlevelled.at("levels")) == "[null,null]");
}

// Issue 26: the engine options a person sets are checked against the declaration and sent
// before the engine's next search.
BOOST_AUTO_TEST_CASE(set_option_checks_the_value_and_sends_it_before_the_next_search) {
  auto log = std::make_shared<test::ScriptedLog>();
  Inbox inbox;
  SessionConfig config;
  config.engines = {test::scripted_config("levels")};
  config.launcher = test::scripted_launcher(test::first_legal_move(), log, kStrengthOptions);
  GuiSession session(std::move(config), inbox.sender());
  session.open();
  session.receive(R"({"type":"set_option","engine":"levels","name":"Hash","value":"64"})");
  BOOST_TEST(std::string(wait_error(inbox).at("message").as_string()).find("not known") !=
             std::string::npos);
  session.receive(R"({"type":"engine_options","engine":"levels"})");
  wait_options(inbox, "levels");
  session.receive(R"({"type":"set_option","engine":"levels","name":"hash","value":"64"})");
  const json::object answer = wait_options(inbox, "levels");
  for (const json::value& option : answer.at("options").as_array())
    if (option.at("name").as_string() == "Hash") BOOST_TEST(option.at("value").as_string() == "64");
  for (const auto& [message, expected] : std::vector<std::pair<std::string, std::string> >{
           {R"({"type":"set_option","engine":"levels","name":"Hash","value":"0"})",
            "engine \"levels\": option.Hash=0: Hash is a spin option, which takes a whole number "
            "from 1 to 1024"},
           {R"({"type":"set_option","engine":"levels","name":"Nope","value":"1"})",
            "declares no option Nope"},
           {R"({"type":"set_option","engine":"levels","name":"UCI_Elo","value":"100"})",
            "is set by the page"},
           {R"({"type":"set_option","engine":"ghost","name":"Hash","value":"1"})",
            "no engine \"ghost\""}}) {
    session.receive(message);
    const std::string error(wait_error(inbox).at("message").as_string());
    BOOST_TEST(error.find(expected) != std::string::npos, error);
  }
  session.receive(R"({"type":"new_game","players":["levels","human"]})");
  inbox.wait_state([](const json::object& s) { return move_count(s) == 1; }, "after its move");
  const std::vector<std::string> lines = all_lines(*log);
  BOOST_TEST(find_line(lines, "setoption name Hash value 64") < lines.size());
  BOOST_TEST(find_line(lines, "setoption name Hash value 0") == lines.size());
}

// Issue 26: an engine-vs-engine game paused stops its clocks and its engines; resumed, it goes on.
BOOST_AUTO_TEST_CASE(a_paused_engine_game_stands_still_and_goes_on_when_resumed) {
  Fixture fixture({real_engine()});
  fixture.send(
      {{"type", "new_game"}, {"players", json::array{"quixo", "quixo"}}, {"time", "60+0"}});
  fixture.inbox.wait_state([](const json::object& s) { return !s.at("thinking").is_null(); },
                           "with the engine thinking");
  fixture.send({{"type", "pause"}, {"on", true}});
  const json::object paused = fixture.inbox.wait_state(
      [](const json::object& s) { return s.at("paused").as_bool(); }, "paused");
  BOOST_TEST(paused.at("thinking").is_null());
  BOOST_TEST(paused.at("clock").at("running").is_null());
  BOOST_TEST(!paused.at("human_to_move").as_bool());
  const std::size_t moves = move_count(paused);
  const json::value left = paused.at("clock").at("remaining_ms");
  std::this_thread::sleep_for(300ms);
  fixture.session->tick();
  fixture.send({{"type", "goto"}, {"ply", static_cast<int>(moves)}});
  const json::object still = fixture.inbox.wait_state(
      [](const json::object& s) { return s.at("paused").as_bool(); }, "still paused");
  BOOST_TEST(move_count(still) == moves);
  BOOST_TEST(still.at("clock").at("remaining_ms") == left);
  fixture.send({{"type", "pause"}, {"on", false}});
  fixture.inbox.wait_state(
      [&](const json::object& s) { return !s.at("paused").as_bool() && move_count(s) > moves; },
      "a move after resuming");
}

// Issue 26, defect 9: a PGN over the message limit comes in parts; the session lists its games
// a page at a time, filtered by player and result.
BOOST_AUTO_TEST_CASE(a_ten_thousand_game_pgn_in_parts_is_listed_in_pages_and_filtered) {
  const std::vector<std::string> names = {"alpha", "beta", "gamma", "delta"};
  std::string text;
  std::size_t gamma_wins = 0;
  for (int i = 0; i < 10'000; ++i) {
    GuiGame game(Variant::TwoPlayer, {names[static_cast<std::size_t>(i % 4)],
                                      names[static_cast<std::size_t>((i / 4) % 4)]});
    game.play("a1a5", move_by("x"), SteadyTime{});
    game.play("e5e1", move_by("o"), SteadyTime{});
    arena::GameRecord record = game.record();
    record.round = std::to_string(i + 1);
    const bool x_wins = i % 3 == 0;
    record.result = x_wins ? arena::GameResult::XWins : arena::GameResult::Draw;
    record.termination =
        x_wins ? arena::Termination::TimeForfeit : arena::Termination::DrawAdjudication;
    record.event = "a long tournament with a long event name, as some are, to make the file larger";
    record.site = "a site with a name as long as real ones sometimes are";
    if (x_wins && record.x_name == "gamma") ++gamma_wins;
    text += arena::format_pgn(record) + "\n";
  }
  BOOST_TEST_REQUIRE(text.size() > std::size_t{4} << 20);  // over one message
  Fixture fixture({});
  constexpr std::size_t kPart = 1'000'000;
  // An upload cut short is dropped by the next one's part 0; a part out of turn is refused.
  fixture.send({{"type", "load_pgn"}, {"text", text.substr(0, 1000)}, {"more", true}});
  fixture.send({{"type", "load_pgn"}, {"text", "x"}, {"part", 2}, {"more", true}});
  BOOST_TEST(std::string(fixture.inbox.wait_type("error").at("message").as_string()) ==
             "part 2 of the PGN came where part 1 was due; send it again from part 0");
  fixture.send({{"type", "load_pgn"}, {"text", text.substr(0, 1000)}, {"more", true}});
  int number = 0;
  for (std::size_t start = 0; start < text.size(); start += kPart) {
    const bool more = start + kPart < text.size();
    json::object part{
        {"type", "load_pgn"}, {"text", text.substr(start, kPart)}, {"part", number++}};
    if (more) part["more"] = true;
    fixture.send(part);
  }
  const json::object first = fixture.inbox.wait_type("pgn_games");
  BOOST_TEST(first.at("total").as_int64() == 10'000);
  BOOST_TEST(first.at("matched").as_int64() == 10'000);
  BOOST_TEST(first.at("games").as_array().size() == 100u);
  BOOST_TEST(first.at("games").as_array()[99].at("round").as_string() == "100");
  fixture.send(
      {{"type", "pgn_list"}, {"player", "GAM"}, {"result", "1-0"}, {"offset", 10}, {"limit", 5}});
  const json::object filtered = fixture.inbox.wait_type("pgn_games");
  BOOST_TEST(filtered.at("matched").as_int64() >
             static_cast<std::int64_t>(gamma_wins));  // as O too
  BOOST_TEST(filtered.at("offset").as_int64() == 10);
  BOOST_REQUIRE(filtered.at("games").as_array().size() == 5u);
  for (const json::value& game : filtered.at("games").as_array()) {
    BOOST_TEST(game.at("result").as_string() == "1-0");
    BOOST_TEST(
        (game.at("white").as_string() == "gamma" || game.at("black").as_string() == "gamma"));
    BOOST_TEST(game.at("plies").as_int64() == 2);
  }
  fixture.send({{"type", "open_game"}, {"index", 9999}});
  const json::object opened = fixture.inbox.wait_state(
      [](const json::object& s) { return move_count(s) == 2; }, "the last game opened");
  BOOST_TEST(json::serialize(opened.at("names")) ==
             "[\"" + names[9999 % 4] + "\",\"" + names[(9999 / 4) % 4] + "\"]");
  fixture.send({{"type", "pgn_list"}, {"result", "2-0"}});
  BOOST_TEST(std::string(fixture.inbox.wait_type("error").at("message").as_string()).find("2-0") !=
             std::string::npos);
}

// Issue 26, defect 8: a board no game can reach is set up, with a warning.
BOOST_AUTO_TEST_CASE(setting_up_an_unreachable_board_warns) {
  Fixture fixture({});
  fixture.send({{"type", "setup"}, {"position", "ooooo/ooooo/ooooo/ooooo/ooooo x"}});
  fixture.inbox.wait_state(
      [](const json::object& s) {
        return s.at("start").as_string() == "ooooo/ooooo/ooooo/ooooo/ooooo x";
      },
      "the board set up");
  const std::string warning(fixture.inbox.wait_type("warning").at("message").as_string());
  BOOST_TEST(warning.find("no X cube") != std::string::npos, warning);
}

BOOST_AUTO_TEST_SUITE_END()
