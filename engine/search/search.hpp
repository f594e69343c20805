// The search: iterative deepening negamax with principal variation search and aspiration
// windows over the shared transposition table, run by one or more threads (lazy SMP). Only
// the Engine facade (engine.hpp) uses this header.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include "core/position.hpp"
#include "engine_options.hpp"
#include "limits.hpp"
#include "search_types.hpp"
#include "time_manager.hpp"
#include "transposition_table.hpp"

namespace quixo {

class SearchWorker;

// State shared by the threads of one search.
struct SharedSearchState {
  Position root;
  std::vector<std::uint64_t> history_keys;        // game positions before the root, oldest first
  std::unordered_set<std::uint64_t> history_set;  // the same, for look-ups
  SearchLimits limits;
  TimeBudget budget;
  int multipv = 1;
  SearchFeatures features;
  // When thinking started, in steady-clock nanoseconds: atomic because ponderhit moves it while
  // the search reads it.
  std::atomic<std::int64_t> start_ns{0};
  std::atomic<bool> stop{false};
  // While pondering (or in infinite mode) time does not count and the bestmove waits for
  // ponderhit or stop.
  std::atomic<bool> pondering{false};
  std::atomic<bool> infinite{false};
};

class SearchManager {
 public:
  explicit SearchManager(const EngineOptions& options);
  ~SearchManager();

  void set_options(const EngineOptions& options);
  void new_game();
  void start(const Position& root, const std::vector<std::uint64_t>& history_keys,
             const SearchLimits& limits, SearchCallbacks callbacks);
  void stop();
  void ponderhit();
  void wait();
  bool searching() const { return running_.load(); }

  // Milliseconds since the search (or, after ponderhit, the real thinking) started.
  std::int64_t elapsed_ms() const;
  std::uint64_t total_nodes() const;
  TranspositionTable& table() { return table_; }
  SharedSearchState& shared() { return shared_; }
  // Wakes the main thread's wait for stop or ponderhit.
  void notify_release();

 private:
  void run_main_thread(SearchCallbacks callbacks);

  EngineOptions options_;
  TranspositionTable table_;
  SharedSearchState shared_;
  std::vector<std::unique_ptr<SearchWorker>> workers_;
  std::thread main_thread_;
  std::atomic<bool> running_{false};
  std::mutex release_mutex_;
  std::condition_variable release_signal_;
};

}  // namespace quixo
