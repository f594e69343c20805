// The engine's process in WebAssembly: an engine in a browser's Web Worker (its script is the
// spec's command, e.g. engine/engine-worker.js), which speaks UQI one line per message. The
// Worker and the lines it sent are kept on the JavaScript side (Module.quixoEngines); a read
// gives the host's event loop turns (core/host_yield.hpp) until a line is there or the time is up.
#include <emscripten.h>

#include <chrono>
#include <cstdlib>

#include "core/host_yield.hpp"
#include "engine_process.hpp"

namespace quixo::arena {

namespace {

// The JavaScript bodies, which clang-format would split.
// clang-format off
// Starts the Worker: its id (> 0), or 0 when the browser refused the script.
EM_JS(int, quixo_engine_start, (const char* script), {
  if (!Module["quixoEngines"]) Module["quixoEngines"] = { next: 1, byId: new Map() };
  const engines = Module["quixoEngines"];
  let worker;
  try {
    worker = new Worker(UTF8ToString(script));
  } catch (error) {
    return 0;
  }
  const id = engines.next++;
  const engine = { worker: worker, lines: [], closed: false };
  worker.onmessage = (event) => {
    if (typeof event.data === "string") engine.lines.push(event.data);
  };
  worker.onerror = () => { engine.closed = true; };
  engines.byId.set(id, engine);
  // The page fetched the endgame tables: the engine loads them too (engine-worker.js).
  if (Module["quixoTablesUrl"]) worker.postMessage({ type: "load-tables", url: Module["quixoTablesUrl"] });
  return id;
});

EM_JS(int, quixo_engine_post, (int id, const char* line), {
  const engine = Module["quixoEngines"].byId.get(id);
  if (!engine || engine.closed) return 0;
  engine.worker.postMessage(UTF8ToString(line));
  return 1;
});

// The next line (malloc'd, freed by the caller), or 0: then *closed says whether more can come.
EM_JS(char*, quixo_engine_take, (int id, int* closed), {
  const engine = Module["quixoEngines"].byId.get(id);
  if (!engine || engine.lines.length === 0) {
    HEAP32[closed >> 2] = !engine || engine.closed ? 1 : 0;
    return 0;
  }
  const line = engine.lines.shift();
  const size = lengthBytesUTF8(line) + 1;
  const text = _malloc(size);
  stringToUTF8(line, text, size);
  return text;
});

EM_JS(int, quixo_engine_running, (int id), {
  const engine = Module["quixoEngines"].byId.get(id);
  return engine && !engine.closed ? 1 : 0;
});

EM_JS(void, quixo_engine_end, (int id), {
  const engine = Module["quixoEngines"].byId.get(id);
  if (!engine) return;
  engine.worker.terminate();
  Module["quixoEngines"].byId.delete(id);
});
// clang-format on

class WorkerEngineProcess final : public EngineProcess {
 public:
  explicit WorkerEngineProcess(int id) : id_(id) {}
  ~WorkerEngineProcess() override { shut_down(std::chrono::milliseconds(0)); }

  bool write_line(std::string_view line) override {
    return id_ != 0 && quixo_engine_post(id_, std::string(line).c_str()) != 0;
  }

  ReadResult read_line(std::chrono::milliseconds timeout) override {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      int closed = 0;
      if (char* line = id_ == 0 ? nullptr : quixo_engine_take(id_, &closed)) {
        ReadResult result{ReadStatus::Line, line};
        std::free(line);
        if (!result.line.empty() && result.line.back() == '\r') result.line.pop_back();
        return result;
      }
      if (id_ == 0 || closed) return {ReadStatus::Closed, {}};
      if (std::chrono::steady_clock::now() >= deadline) return {ReadStatus::Timeout, {}};
      // The Worker's lines come in through the event loop.
      host::yield_now(1);
    }
  }

  bool running() override { return id_ != 0 && quixo_engine_running(id_) != 0; }

  // A Worker has no exit of its own to wait for: `quit` closes it, terminate() makes sure.
  void shut_down(std::chrono::milliseconds) override {
    if (id_ == 0) return;
    quixo_engine_end(id_);
    id_ = 0;
  }

 private:
  int id_;
};

}  // namespace

std::unique_ptr<EngineProcess> start_process(const ProcessSpec& spec) {
  const int id = quixo_engine_start(spec.command.c_str());
  if (id == 0) throw ProcessStartError("cannot start the Worker " + spec.command);
  return std::make_unique<WorkerEngineProcess>(id);
}

}  // namespace quixo::arena
