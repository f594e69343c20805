#include "core/host_yield.hpp"

#include <chrono>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
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
    // Asyncify unwinds the stack to the event loop and rewinds it after a timer's turn.
    emscripten_sleep(static_cast<unsigned>(pause_ms));
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
