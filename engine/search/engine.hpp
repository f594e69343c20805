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
#include "engine_base.hpp"
#include "engine_options.hpp"
#include "evaluation.hpp"
#include "limits.hpp"
#include "search_types.hpp"

namespace quixo {

namespace tb {
class Tablebase;
}

struct TwoPlayerVariant;

class Engine : public EngineBase<TwoPlayerVariant> {
 public:
  Engine();

  // The position to search and the keys of the positions of the game before it, oldest first,
  // so that the search scores a repetition of the game's history as a draw.
  void set_position(const Position& position, std::vector<std::uint64_t> history_keys);

  // The endgame tables the next searches use (null: none); waits for a running search first.
  // The search probes them at every node after the root in a loaded layer (counted in
  // SearchInfo::tb_hits), and plays a root whose every move is in them from them: the fastest
  // win or the slowest loss at once, with its exact mate score; a draw searched among the
  // drawing moves only, reported as the draw score. bench never uses them.
  void set_tablebase(std::shared_ptr<const tb::Tablebase> tables);

  // The evaluation the next searches use (default: Evaluator::standard()); waits for a running
  // search first.
  void set_evaluator(Evaluator evaluator);
  const Evaluator& evaluator();

  // Starts a search in the background and returns at once. Exactly one on_bestmove follows.
  void go(const SearchLimits& limits, SearchCallbacks callbacks);

  // Runs the fixed bench: returns the total node count, reporting each position to `report`.
  // The node total is the search's signature: it changes only when the search does.
  std::uint64_t bench(const std::function<void(const std::string&)>& report);
};

}  // namespace quixo
