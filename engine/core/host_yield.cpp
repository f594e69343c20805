#include "core/host_yield.hpp"

#include <chrono>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#ifdef __EMSCRIPTEN__
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

namespace {

InputHandler input_handler = nullptr;
std::chrono::steady_clock::time_point last_turn{};

}  // namespace

void set_input_handler(InputHandler handler) {
  input_handler = handler;
}

void yield_now([[maybe_unused]] int pause_ms) {
  if constexpr (!kHasThreads) {
#ifdef __EMSCRIPTEN__
    quixo_host_turn(pause_ms);
#endif
    last_turn = std::chrono::steady_clock::now();
    if (input_handler != nullptr) input_handler();
  }
}

void yield() {
  if constexpr (!kHasThreads) {
    if (std::chrono::steady_clock::now() - last_turn >= std::chrono::milliseconds(kYieldIntervalMs))
      yield_now();
  }
}

}  // namespace quixo::host
