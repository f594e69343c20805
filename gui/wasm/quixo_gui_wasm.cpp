// quixo-gui's session as a WebAssembly module in the page itself (the static site of
// scripts/build-web.sh): the same GuiSession that quixo-gui runs behind its WebSocket, driven by
// the page's messages through session_host.js, with its engine in a Web Worker
// (client/worker_engine_process.cpp). The page gets the session's messages as it gets them over
// the WebSocket.
#include <emscripten.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "core/host_yield.hpp"
#include "engine_worker.hpp"
#include "game_store.hpp"
#include "gui_session.hpp"
#include "tb/tablebase.hpp"

namespace {

// The JavaScript bodies, which clang-format would split.
// clang-format off
EM_JS(void, quixo_page_receive, (const char* text), {
  Module["onSessionMessage"](UTF8ToString(text));
});

// The next page input that came during an engine's search (malloc'd, freed by the caller), or 0.
EM_JS(char*, quixo_take_page_input, (), {
  const input = Module["quixoTakePageInput"]();
  if (input === null) return 0;
  const size = lengthBytesUTF8(input) + 1;
  const text = _malloc(size);
  stringToUTF8(input, text, size);
  return text;
});
// clang-format on

// What the host queues while an engine searches: a page message, a clock's tick, or the tables
// it put in kTableFolder.
constexpr std::string_view kTick = "\x01tick";
constexpr std::string_view kTables = "\x01tables";
constexpr const char* kTableFolder = "/tables";

std::unique_ptr<quixo::gui::GuiSession>& session() {
  static std::unique_ptr<quixo::gui::GuiSession> page_session;
  return page_session;
}

void handle_page_input(std::string_view input) {
  if (!session()) return;
  if (input == kTick) {
    session()->tick();
  } else if (input == kTables) {
    auto tables = std::make_shared<quixo::tb::Tablebase>();
    tables->load(kTableFolder);
    session()->set_tables(tables->complete_up_to() >= 0 ? std::move(tables) : nullptr);
  } else {
    session()->receive(input);
  }
}

// An engine's turn of the event loop: the page's messages and ticks that came meanwhile.
void take_page_input() {
  while (char* input = quixo_take_page_input()) {
    const std::string text(input);
    std::free(input);
    handle_page_input(text);
  }
}

}  // namespace

extern "C" {

// Starts the session: its engine is the Worker script `engine_script` (named `engine_name`), its
// games are kept in `data_folder` (of the module's file system, which the host keeps in the
// browser's storage). Sends hello and the first state. Returns 0, or 1 when the folder cannot be
// used (games are then not kept).
EMSCRIPTEN_KEEPALIVE int quixo_gui_open(const char* engine_name, const char* engine_script,
                                        const char* data_folder) {
  quixo::host::set_input_handler(take_page_input);
  quixo::gui::SessionConfig config;
  quixo::arena::EngineConfig engine;
  engine.name = engine_name;
  engine.process.command = engine_script;
  config.engines.push_back(engine);
  int result = 0;
  try {
    config.store = std::make_shared<const quixo::gui::GameStore>(data_folder);
  } catch (const std::exception&) {
    result = 1;
  }
  session() = std::make_unique<quixo::gui::GuiSession>(
      std::move(config), [](std::string text) { quixo_page_receive(text.c_str()); });
  session()->open();
  return result;
}

// One message from the page, a tick (kTick) or the tables now in /tables (kTables); never during an
// engine's search (the host queues them then, and take_page_input() gets them).
EMSCRIPTEN_KEEPALIVE void quixo_gui_input(const char* text) {
  handle_page_input(text);
}

// Runs the engines' waiting jobs (their searches yield to the event loop); the host calls it
// when the session says a job waits.
EMSCRIPTEN_KEEPALIVE void quixo_gui_run_engines() {
  quixo::gui::EngineWorker::run_waiting_jobs();
}

}  // extern "C"
