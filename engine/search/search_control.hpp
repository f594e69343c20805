// The control of one running search, shared by the caller's thread (stop, ponderhit) and the
// search's threads (is it stopped, how long has it been thinking, may the bestmove go out).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace quixo {

class SearchControl {
 public:
  // A new search starts now: not stopped; pondering or in infinite mode as asked.
  void begin(bool ponder, bool infinite);

  // Ends the search as soon as possible; wakes a bestmove held for ponderhit or stop.
  void stop();
  // A limit (time, nodes) of the search ended it. Only the search's main thread calls this, and
  // it is the one that later waits for the release: no one needs waking.
  void limit_reached() { stop_ = true; }
  // The expected move was played: from now on time counts (from this moment) and the bestmove
  // need no longer wait.
  void ponderhit();

  [[nodiscard]] bool stopped() const { return stop_.load(std::memory_order_relaxed); }
  // While pondering time does not count.
  [[nodiscard]] bool pondering() const { return pondering_.load(std::memory_order_relaxed); }
  // Pondering or in infinite mode: the search goes on deepening and the bestmove waits for
  // ponderhit or stop.
  [[nodiscard]] bool waiting() const { return pondering_.load() || infinite_.load(); }
  // Milliseconds since the search (or, after ponderhit, the real thinking) started.
  [[nodiscard]] std::int64_t elapsed_ms() const;

  // Blocks until the bestmove may go out: at once, unless pondering or in infinite mode, when
  // it waits for ponderhit or stop. Then stops the search (helpers end their iterations).
  void wait_for_release();

 private:
  void notify_release();

  std::atomic<bool> stop_{false};
  std::atomic<bool> pondering_{false};
  std::atomic<bool> infinite_{false};
  // When thinking started, in steady-clock nanoseconds: atomic because ponderhit moves it while
  // the search reads it.
  std::atomic<std::int64_t> start_ns_{0};
  std::mutex release_mutex_;
  std::condition_variable release_signal_;
};

}  // namespace quixo
