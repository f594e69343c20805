// quixo-arena's command line run in the test's own process (no program started), for suites
// that check its exit codes and what it prints without a tournament's engines.
#pragma once

#include <atomic>
#include <sstream>
#include <string>
#include <vector>

#include "arena_command_line.hpp"

namespace quixo::test {

// quixo-arena WORDS...: its exit code; `out` and `err` get what it printed on each.
inline int run_arena_in_process(std::vector<std::string> words, std::string& out,
                                std::string& err) {
  words.insert(words.begin(), "quixo-arena");
  std::vector<const char*> argv;
  for (const std::string& word : words) argv.push_back(word.c_str());
  std::ostringstream out_stream;
  std::ostringstream err_stream;
  const std::atomic<bool> interrupt{false};
  const int code = arena::run_arena_command_line(static_cast<int>(argv.size()), argv.data(),
                                                 out_stream, err_stream, interrupt);
  out = out_stream.str();
  err = err_stream.str();
  return code;
}

}  // namespace quixo::test
