#include "thread_start.hpp"

#include <atomic>

namespace quixo {

namespace {

// Starts left before they fail; negative: no limit (always, outside tests).
std::atomic<int> starts_left{-1};

}  // namespace

namespace thread_start_detail {

void check_test_limit() {
  int left = starts_left.load();
  while (left >= 0) {
    if (left == 0)
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    if (starts_left.compare_exchange_weak(left, left - 1)) return;
  }
}

}  // namespace thread_start_detail

std::string thread_start_failure(int index, int count, const std::system_error& error) {
  return "cannot start thread " + std::to_string(index + 1) + " of " + std::to_string(count) +
         " (" + error.code().message() + ")";
}

ThreadStartLimit::ThreadStartLimit(int starts) {
  starts_left = starts;
}

ThreadStartLimit::~ThreadStartLimit() {
  starts_left = -1;
}

}  // namespace quixo
