// quixo-gui's command line: what it refuses before it listens. Every engine is started once at
// start-up, so one that cannot run, or is given an option it does not declare, is named at once
// rather than after the person's first move (issue 26, defect 7). Each case returns before the
// server would start, so it runs in-process.
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "gui_command_line.hpp"

namespace {

const std::string kMock = QUIXO_MOCK_ENGINE_BINARY;

struct Refusal {
  std::string name;
  std::vector<std::string> args;
  std::string expected;  // a part of the message on stderr
};

std::ostream& operator<<(std::ostream& out, const Refusal& refusal) {
  return out << refusal.name;
}

const std::vector<Refusal> kRefusals = {
    {"an engine that does not exist",
     {"--engine", "name=good", "cmd=" + kMock, "--engine", "name=broken",
      "cmd=/nonexistent/quixo-engine"},
     "engine \"broken\""},
    {"a program that is not an engine",
     {"--engine", "name=silent", "cmd=/bin/true"},
     "engine \"silent\""},
    {"an option the engine does not declare",
     {"--engine", "name=mock", "cmd=" + kMock, "option.NoSuchOption=3"},
     "declares no option NoSuchOption"},
    {"a token too short for a secret",
     {"--engine", "name=mock", "cmd=" + kMock, "--token", "abc"},
     "--token must be at least 8"},
    {"a token that cannot go into a URL",
     {"--engine", "name=mock", "cmd=" + kMock, "--token", "secret token&x"},
     "--token must be at least 8"},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(gui_command_line_tests)

BOOST_DATA_TEST_CASE(bad_engines_and_tokens_stop_it_before_it_listens,
                     boost::unit_test::data::make(kRefusals), refusal) {
  std::vector<const char*> argv = {"quixo-gui", "--port", "0"};
  for (const std::string& arg : refusal.args) argv.push_back(arg.c_str());
  std::ostringstream out;
  std::ostringstream err;
  const int code =
      quixo::gui::run_gui_command_line(static_cast<int>(argv.size()), argv.data(), out, err);
  BOOST_TEST(code == 2);
  BOOST_TEST(err.str().find(refusal.expected) != std::string::npos, err.str());
  // It never got as far as printing a URL.
  BOOST_TEST(out.str().find("http://") == std::string::npos, out.str());
}

BOOST_AUTO_TEST_SUITE_END()
