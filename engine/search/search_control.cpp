#include "search_control.hpp"

#include <chrono>

#include "core/host_yield.hpp"

namespace quixo {

namespace {

// How long a search on a host without threads that waits for stop or ponderhit sleeps between
// two looks at its input.
constexpr int kWaitTurnMs = 10;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void SearchControl::begin(bool ponder, bool infinite) {
  start_ns_ = now_ns();
  stop_ = false;
  pondering_ = ponder;
  infinite_ = infinite;
}

void SearchControl::stop() {
  stop_ = true;
  notify_release();
}

void SearchControl::ponderhit() {
  start_ns_ = now_ns();
  pondering_ = false;
  notify_release();
}

std::int64_t SearchControl::elapsed_ms() const {
  return (now_ns() - start_ns_.load(std::memory_order_relaxed)) / 1000000;
}

void SearchControl::wait_for_release() {
  if constexpr (!host::kHasThreads) {
    // The search runs on the only thread: stop and ponderhit come in through the host's turns.
    while (!stop_.load() && (pondering_.load() || infinite_.load())) host::yield_now(kWaitTurnMs);
    stop_ = true;
    return;
  }
  {
    std::unique_lock lock(release_mutex_);
    release_signal_.wait(
        lock, [this] { return stop_.load() || (!pondering_.load() && !infinite_.load()); });
  }
  stop_ = true;
}

void SearchControl::notify_release() {
  std::lock_guard lock(release_mutex_);
  release_signal_.notify_all();
}

}  // namespace quixo
