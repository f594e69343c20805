// quixo-engine as a WebAssembly module: the UQI session of quixo-engine, with one thread. The
// host (uqi_host.js, in the module: a browser's Worker or Node.js) gives it one command line at a
// time through quixo_uqi_line, and reads its answers line by line from standard output.
#include <emscripten.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "core/host_yield.hpp"
#include "uqi_line_pump.hpp"
#include "uqi_session.hpp"

namespace {

// The next line the host received during a search (malloc'd, freed here), or null. The body is
// JavaScript, which clang-format would split (=== into == =).
// clang-format off
EM_JS(char*, quixo_take_input_line, (), {
  const line = Module["quixoTakeInputLine"]();
  if (line === null) return 0;
  const size = lengthBytesUTF8(line) + 1;
  const text = _malloc(size);
  stringToUTF8(line, text, size);
  return text;
});
// clang-format on

quixo::UqiSession& session() {
  static quixo::UqiSession uqi_session(std::cout);
  return uqi_session;
}

quixo::UqiLinePump& pump() {
  static quixo::UqiLinePump line_pump(session());
  return line_pump;
}

// A search's turn: the lines that came meanwhile go to the pump.
void take_input_lines() {
  while (char* line = quixo_take_input_line()) {
    const std::string text(line);
    std::free(line);
    pump().line(text);
  }
}

}  // namespace

extern "C" {

// One command line. Returns 0 once `quit` has been handled, else 1.
EMSCRIPTEN_KEEPALIVE int quixo_uqi_line(const char* line) {
  static const bool handler_set = (quixo::host::set_input_handler(take_input_lines), true);
  (void)handler_set;
  const std::string text(line);
  if (text.size() > (quixo::UqiSession::kMaxInputLineMebibytes << 20)) {
    session().refuse_too_long_line();
    return pump().quit() ? 0 : 1;
  }
  return pump().line(text) ? 1 : 0;
}

}  // extern "C"
