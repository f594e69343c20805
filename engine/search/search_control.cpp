#include "search_control.hpp"

#include <chrono>

namespace quixo {

namespace {

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
