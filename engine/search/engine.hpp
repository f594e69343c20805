// The protocol-free face of the search: set options and a position, start a search with limits,
// receive `info` and `bestmove` through callbacks, stop it. The UQI front end and the tests both
// drive the search only through this class.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "limits.hpp"
#include "score.hpp"

namespace quixo {

// One `info` report of the search.
struct SearchInfo {
  int depth = 0;
  int selective_depth = 0;
  std::int64_t time_ms = 0;
  std::uint64_t nodes = 0;
  std::uint64_t nodes_per_second = 0;
  int hashfull = 0;  // per mille
  Score score = 0;
  Bound bound = Bound::Exact;  // Lower/Upper while an aspiration window fails
  int multipv = 1;
  std::vector<Move> pv;
};

struct SearchCallbacks {
  std::function<void(const SearchInfo&)> on_info;
  // Called exactly once per search; `ponder` may be Move::none().
  std::function<void(Move best, Move ponder)> on_bestmove;
};

// Search features that can be switched off, so that a match against the engine without one of
// them measures what it gains. The defaults are the engine as it plays.
struct SearchFeatures {
  bool aspiration_windows = true;
  // Search on at the horizon while a win in one is threatened. Off: it lost 18 +- 12 Elo at
  // 100k nodes per move (the nodes it costs buy more as plain depth).
  bool threat_extension = false;
  bool killers_and_history = true;  // move ordering beyond the table's move
  // Under a threat of a win in one, search only the moves that parry it. Off: +17 +- 19 Elo at
  // 100k nodes per move, but -9 +- 18 at 20 ms per move: finding the parries costs a scan of
  // every child, about a third of the speed.
  bool parry_threats = false;
  // Key the transposition table by the position's canonical symmetric form, so the 8 images of
  // a position share one entry.
  bool symmetric_table = false;
  bool late_move_reductions = true;
  bool operator==(const SearchFeatures&) const = default;
};

struct EngineOptions {
  int hash_mb = 16;
  int threads = 1;
  int move_overhead_ms = 30;
  int multipv = 1;
  SearchFeatures features;
  bool operator==(const EngineOptions&) const = default;
};

class SearchManager;

class Engine {
 public:
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Changing options waits for a running search to finish first. Throws TableAllocationError
  // (transposition_table.hpp) when a new Hash size cannot be allocated; the engine then keeps
  // its old options and table.
  void set_options(const EngineOptions& options);
  const EngineOptions& options() const { return options_; }

  // Forget everything learnt (transposition table, history): the next game starts afresh.
  void new_game();

  // The position to search and the keys of the positions of the game before it, oldest first,
  // so that the search scores a repetition of the game's history as a draw.
  void set_position(const Position& position, std::vector<std::uint64_t> history_keys);

  // Starts a search in the background and returns at once. Exactly one on_bestmove follows.
  void go(const SearchLimits& limits, SearchCallbacks callbacks);
  // Ends the search as soon as possible (its bestmove is still reported).
  void stop();
  // In ponder mode: the expected move was played; from now on the normal limits apply.
  void ponderhit();
  // Blocks until the running search, if any, has reported its bestmove.
  void wait();
  bool searching() const;

  // Runs the fixed bench: returns the total node count, reporting each position to `report`.
  // The node total is the search's signature: it changes only when the search does.
  std::uint64_t bench(const std::function<void(const std::string&)>& report);

 private:
  EngineOptions options_;
  Position position_;
  std::vector<std::uint64_t> history_keys_;
  std::unique_ptr<SearchManager> manager_;
};

}  // namespace quixo
