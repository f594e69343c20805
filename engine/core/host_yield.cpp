#include "core/host_yield.hpp"

#include <chrono>

#ifdef QUIXO_HOST_WITHOUT_THREADS
#include <emscripten.h>

// A turn of the host's event loop (Asyncify unwinds the stack to it and rewinds it after). A
// pause waits on a timer; a turn without one is a message the module sends itself, because a
// timer of 0 ms waits at least 4 ms in a browser once timers nest (as a search's turns do),
// which every 20 ms would cost a fifth of the search's time. The body is JavaScript, which
// clang-format would split.
// clang-format off
EM_ASYNC_JS(void, quixo_host_turn, (int pause_ms), {
  await new Promise((resolve) => {
    if (pause_ms > 0) {
      setTimeout(resolve, pause_ms);
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
});
// clang-format on
#endif

namespace quixo::host {

#ifdef QUIXO_HOST_WITHOUT_THREADS

namespace {

InputHandler input_handler = nullptr;
std::chrono::steady_clock::time_point last_turn{};

}  // namespace

void set_input_handler(InputHandler handler) {
  input_handler = handler;
}

void yield_now(int pause_ms) {
  quixo_host_turn(pause_ms);
  last_turn = std::chrono::steady_clock::now();
  if (input_handler != nullptr) input_handler();
}

void yield() {
  if (std::chrono::steady_clock::now() - last_turn >= std::chrono::milliseconds(kYieldIntervalMs))
    yield_now();
}

#else

// With threads a search never waits for its input on the thread that reads it.
void set_input_handler(InputHandler) {}
void yield_now(int) {}
void yield() {}

#endif

}  // namespace quixo::host
