// Starting a thread. std::thread throws std::system_error when the system cannot start one (too
// many threads, no memory for a stack under a memory limit); every program says so and goes on
// (the engine, with the threads it could start) or stops cleanly (the arena, the table
// generator, the trainer), and never lets the exception end the process. The threads whose
// number the user chooses (the engine's Threads, the arena's --concurrency, quixo-tb's and
// quixo-train's --threads) start through start_thread, so that a test can make a start fail as
// the system would.
#pragma once

#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace quixo {

namespace thread_start_detail {
// Throws std::system_error (errc::resource_unavailable_try_again, as pthread_create's EAGAIN)
// when a test limit is set and spent; else counts the start.
void check_test_limit();
}  // namespace thread_start_detail

// std::thread(f, args...); std::system_error when the thread cannot start (also when there is no
// memory for its state).
template <class F, class... Args>
[[nodiscard]] std::thread start_thread(F&& f, Args&&... args) {
  thread_start_detail::check_test_limit();
  try {
    return std::thread(std::forward<F>(f), std::forward<Args>(args)...);
  } catch (const std::bad_alloc&) {
    // The thread's state could not be allocated: the same failure to the caller.
    throw std::system_error(std::make_error_code(std::errc::not_enough_memory));
  }
}

// The message every program gives: "cannot start thread K of N (REASON)", K counted from 1.
[[nodiscard]] std::string thread_start_failure(int index, int count,
                                               const std::system_error& error);

// For tests: while it lives, `starts` more threads start and every later start fails as the
// system's would. Process-wide; one at a time.
class ThreadStartLimit {
 public:
  explicit ThreadStartLimit(int starts);
  ~ThreadStartLimit();
  ThreadStartLimit(const ThreadStartLimit&) = delete;
  ThreadStartLimit& operator=(const ThreadStartLimit&) = delete;
};

}  // namespace quixo
