// What a search reports, for either game: the `info` lines and the `bestmove`, as plain types
// below every search header, so that a front end includes them without the search.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "core/position4.hpp"
#include "score.hpp"

namespace quixo {

// One `info` report of a search whose moves are MoveT.
template <class MoveT>
struct BasicSearchInfo {
  int depth = 0;
  int selective_depth = 0;
  std::int64_t time_ms = 0;
  std::uint64_t nodes = 0;
  std::uint64_t nodes_per_second = 0;
  int hashfull = 0;           // per mille
  std::uint64_t tb_hits = 0;  // probes of the endgame tables that answered (two players only)
  Score score = 0;  // for the side (team) to move; mate scores count plies as in score.hpp
  Bound bound = Bound::Exact;  // Lower/Upper while an aspiration window fails
  int multipv = 1;
  std::vector<MoveT> pv;
};

template <class MoveT>
struct BasicSearchCallbacks {
  std::function<void(const BasicSearchInfo<MoveT>&)> on_info;
  // Called exactly once per search; `ponder` may be MoveT::none(). In the four-player game
  // `best` is Move4::pass() for a forced pass and Move4::none() only when the game is over.
  std::function<void(MoveT best, MoveT ponder)> on_bestmove;
  // A note for the GUI (an `info string`), before the bestmove: helper threads that could not
  // start.
  std::function<void(const std::string&)> on_note;
};

using SearchInfo = BasicSearchInfo<Move>;
using SearchCallbacks = BasicSearchCallbacks<Move>;
using SearchInfo4 = BasicSearchInfo<Move4>;
using SearchCallbacks4 = BasicSearchCallbacks<Move4>;

}  // namespace quixo
