// The communication log (--log): lines to and from an engine with the time, game and engine's
// name, through the launcher that wraps an engine's process; the size bound, by which a full log
// becomes FILE.1 and a new one starts.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <filesystem>
#include <string>

#include "communication_log.hpp"
#include "support/tournament_fixtures.hpp"

using namespace quixo;
using namespace quixo::arena;
using namespace quixo::test;

BOOST_AUTO_TEST_SUITE(communication_log_tests)

BOOST_AUTO_TEST_CASE(an_engines_lines_are_logged_with_the_game_and_its_name) {
  TempDir dir;
  CommunicationLog log(dir.file("log.txt"), 1 << 20);
  std::atomic<int> game{7};
  EngineClient client(engine("seeded-1"),
                      logged_launcher(launcher_by_name(kPolicies), log, "alpha", game));
  BOOST_REQUIRE(client.start(std::chrono::milliseconds(2000)));
  log.note("a decision");
  client.quit();
  const std::string text = read_file(dir.file("log.txt"));
  BOOST_TEST(text.find(" game 7 alpha > (starting seeded-1)\n") != std::string::npos, text);
  BOOST_TEST(text.find(" game 7 alpha > uqi\n") != std::string::npos, text);
  BOOST_TEST(text.find(" game 7 alpha < uqiok\n") != std::string::npos, text);
  BOOST_TEST(text.find(" game 7 alpha > isready\n") != std::string::npos, text);
  BOOST_TEST(text.find(" arena: a decision\n") != std::string::npos, text);
  // Each line starts with the UTC time to the millisecond: "2026-11-27 06:20:01.123 ".
  BOOST_TEST(text.size() > 24u);
  BOOST_TEST(text[4] == '-');
  BOOST_TEST(text[19] == '.');
  BOOST_TEST(text[23] == ' ');
}

BOOST_AUTO_TEST_CASE(a_full_log_becomes_file_1_and_a_new_one_starts) {
  TempDir dir;
  const std::string path = dir.file("log.txt");
  {
    CommunicationLog log(path, 1000);
    for (int i = 0; i < 100; ++i) log.note("line " + std::to_string(i));
  }
  const auto size = std::filesystem::file_size(path);
  const auto older = std::filesystem::file_size(path + ".1");
  BOOST_TEST(size <= 1000u);
  BOOST_TEST(older <= 1000u);
  BOOST_TEST(older > 900u);
  // The newest lines are in the file, the ones before them in FILE.1.
  BOOST_TEST(read_file(path).find("arena: line 99\n") != std::string::npos);
  BOOST_TEST(read_file(path + ".1").find("arena: line 99") == std::string::npos);
  // A log reopened counts what is there: near its limit, the next line rotates it.
  CommunicationLog again(path, 1000);
  again.note("after");
  BOOST_TEST(read_file(path + ".1").find("arena: line 99\n") != std::string::npos);
  BOOST_TEST(read_file(path).find("arena: after\n") != std::string::npos);
  BOOST_TEST(read_file(path).find("line") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
