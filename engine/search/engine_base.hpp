// What the facades of both games (Engine in engine.hpp, Engine4 in engine4.hpp) do
// alike: options, a new game, stop, ponderhit and waiting for the running search. Each facade
// adds its game's position, go and bench.
#pragma once

#include <cstddef>
#include <memory>

#include "engine_options.hpp"

namespace quixo {

template <class Variant>
class SearchManager;

template <class Variant>
class EngineBase {
 public:
  EngineBase(const EngineBase&) = delete;
  EngineBase& operator=(const EngineBase&) = delete;

  // Changing options waits for a running search to finish first. Throws TableAllocationError
  // (transposition_table.hpp) when a new Hash size cannot be allocated; the engine then keeps
  // its old options and table.
  void set_options(const EngineOptions& options);
  [[nodiscard]] const EngineOptions& options() const;
  // The memory the transposition table holds now: none until the first search when the engine
  // allocates it then, and none under Player::Mcts, whose tree takes Hash's memory instead.
  [[nodiscard]] std::size_t table_megabytes() const;

  // Forget everything learnt (transposition table, history): the next game starts afresh.
  void new_game();

  // Ends the search as soon as possible (its bestmove is still reported).
  void stop();
  // In ponder mode: the expected move was played; from now on the normal limits apply.
  void ponderhit();
  // Blocks until the running search, if any, has reported its bestmove.
  void wait();
  [[nodiscard]] bool searching() const;

 protected:
  explicit EngineBase(TableAllocation allocation);
  ~EngineBase();

  SearchManager<Variant>& manager() { return *manager_; }

 private:
  std::unique_ptr<SearchManager<Variant>> manager_;
};

}  // namespace quixo
