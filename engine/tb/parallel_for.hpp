// Splits [0, count) into chunks that `threads` threads take in turn; the generator, the verifier
// and the file codec share it. Chunks are taken in increasing order, so memory is swept forward.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "core/thread_start.hpp"

namespace quixo::tb {

// Calls body(begin, end, thread_index) on disjoint chunks covering [0, count). The first
// exception thrown by a body stops the other threads at their next chunk and is rethrown here.
// A thread that cannot start stops the others too: std::runtime_error naming the thread.
template <class Body>
void parallel_for(std::uint64_t count, std::uint64_t chunk, int threads, Body&& body) {
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto run = [&](int thread_index) {
    try {
      while (!failed.load(std::memory_order_relaxed)) {
        const std::uint64_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
        if (begin >= count) break;
        body(begin, std::min(count, begin + chunk), thread_index);
      }
    } catch (...) {
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  threads = std::max(1, threads);
  std::vector<std::thread> pool;
  pool.reserve(std::size_t(threads));
  for (int t = 1; t < threads; ++t) {
    try {
      pool.push_back(start_thread(run, t));
    } catch (const std::system_error& start_error) {
      // The system gives no more threads: stop those started and say how many were asked for.
      failed = true;
      for (auto& thread : pool) thread.join();
      throw std::runtime_error(thread_start_failure(t, threads, start_error));
    }
  }
  run(0);
  for (auto& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace quixo::tb
