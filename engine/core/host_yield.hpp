// The host a search runs on. Natively a search has threads of its own, and the caller's thread
// goes on reading input (stop, isready) while it runs. WebAssembly without threads (a browser's
// Worker without cross-origin isolation, Node.js) has one thread: the search runs on the thread
// that reads input, so every few milliseconds it yields to the host's event loop, which queues
// the lines that came meanwhile, and then hands them to the input handler before it goes on.
#pragma once

namespace quixo::host {

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define QUIXO_HOST_WITHOUT_THREADS 1
inline constexpr bool kHasThreads = false;
#else
inline constexpr bool kHasThreads = true;
#endif

// How long a search on a host without threads runs between two turns of the event loop: short
// enough that `stop` and `isready` are answered at once, long enough that the turns (each at
// least a timer's delay) cost little.
inline constexpr int kYieldIntervalMs = 20;

// Called with the input that came while the search ran (on a host without threads only).
using InputHandler = void (*)();
void set_input_handler(InputHandler handler);

// On a host without threads: when kYieldIntervalMs have passed since the last turn, gives the
// event loop a turn and then calls the input handler. Natively it does nothing.
void yield();
// The same without the interval, after a pause of `pause_ms` (a search waiting for `stop` or
// `ponderhit` has nothing else to do).
void yield_now(int pause_ms = 0);

}  // namespace quixo::host
