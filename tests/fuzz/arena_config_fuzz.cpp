// Fuzzes quixo-arena's option parsing (arena/arena_command_line.hpp) with the real entry point,
// run_arena_command_line: a config file (Boost.Program_options, as --config reads it) plus
// command-line words, through everything that checks them (engines, time controls, SPRT and
// adjudication settings, openings, variants) up to where a tournament would start.
//
// Input: the lines before a line "%%" are command-line words (one a line); the rest is the config
// file, written to a scratch file that --config names. The command line always starts with
// `--output none`, an output style that does not exist, so that no input ever starts engines: a
// run whose options are all good ends on that error, after the config has been read whole.
// Inputs that name files in /dev, /proc or /sys are skipped.
// Invariants: no crash, UB, leak or escaping exception; the exit code is 2 (usage error) with a
// message on the error stream, or 0 after --help.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "arena_command_line.hpp"
#include "fuzz_support.hpp"

namespace {

bool forbidden(std::string_view text) {
  for (const std::string_view word : {"/dev", "/proc", "/sys"})
    if (text.find(word) != std::string_view::npos) return true;
  return false;
}

const std::string& scratch_path() {
  static const std::string path = [] {
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp && *tmp ? tmp : "/tmp") + "/quixo-fuzz-arena-config-" +
           std::to_string(::getpid()) + ".ini";
  }();
  return path;
}

void remove_scratch() {
  std::remove(scratch_path().c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = quixo::fuzz::as_text(data, size);
  if (forbidden(input)) return 0;
  std::vector<std::string> words = {"quixo-arena", "--output", "none", "--config", scratch_path()};
  std::string_view config = input;
  const std::size_t separator = input.find("%%\n");
  if (separator != std::string_view::npos) {
    for (const std::string_view word : quixo::fuzz::lines_of(input.substr(0, separator))) {
      if (words.size() >= 40) break;
      words.emplace_back(word);
    }
    config = input.substr(separator + 3);
  }
  {
    static const bool registered = (std::atexit(remove_scratch), true);
    (void)registered;
    std::ofstream file(scratch_path(), std::ios::binary | std::ios::trunc);
    file << config;
    FUZZ_CHECK(file.flush(), "cannot write " + scratch_path());
  }
  std::vector<const char*> argv;
  for (const std::string& word : words) argv.push_back(word.c_str());
  argv.push_back(nullptr);

  std::ostringstream out;
  std::ostringstream err;
  const std::atomic<bool> interrupt{false};
  const int code =
      quixo::arena::run_arena_command_line(int(words.size()), argv.data(), out, err, interrupt);
  FUZZ_CHECK(code == quixo::arena::kExitUsage || code == quixo::arena::kExitCompleted,
             "exit code " + std::to_string(code) + "\n" + err.str());
  if (code == quixo::arena::kExitUsage)
    FUZZ_CHECK(!err.str().empty(), "a usage error without a message");
  else
    FUZZ_CHECK(out.str().find("Usage: quixo-arena") != std::string::npos,
               "exit 0 without the help\n" + out.str());
  return 0;
}
