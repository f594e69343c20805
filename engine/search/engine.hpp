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
#include "engine_options.hpp"
#include "limits.hpp"
#include "search_types.hpp"

namespace quixo {

template <class Variant>
class SearchManager;
struct TwoPlayerVariant;

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
  [[nodiscard]] const EngineOptions& options() const;

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
  [[nodiscard]] bool searching() const;

  // Runs the fixed bench: returns the total node count, reporting each position to `report`.
  // The node total is the search's signature: it changes only when the search does.
  std::uint64_t bench(const std::function<void(const std::string&)>& report);

 private:
  std::unique_ptr<SearchManager<TwoPlayerVariant>> manager_;
};

}  // namespace quixo
