// The engine's options, as plain types below every search header.
#pragma once

#include <cstdint>

#include "search_params.hpp"
#include "skill.hpp"

namespace quixo {

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
  // Pruning at non-PV nodes that no win in one threatens (issue 29), each a switch so that a
  // match measures it: a null move (the opponent moves twice; two-player game only), reverse
  // futility (a static evaluation far above beta at low depth fails high at once), late move
  // pruning (at low depth only the first moves of the order are searched), and internal
  // iterative reduction (a node without a table move is searched a ply shallower).
  // Null move on: H1 at 20k nodes per move (+19.1 +- 9.7 Elo, 948 games) and at 10+0.1 (+30.8 +-
  // 10.7 Elo, 520 games), UHO book; the others stay off, their matches showed no gain (README).
  bool null_move_pruning = true;
  bool reverse_futility = false;
  bool late_move_pruning = false;
  bool internal_iterative_reduction = false;
  // Order moves by continuation history too: how well a move did after the opponent's last move.
  bool continuation_history = false;
  // Late move reductions by history too: a move whose history (and continuation history) is good
  // is reduced less, a bad one more, by its order value / LmrHistoryDivisor plies. Off: at 20k
  // nodes per move it measured -1.2 +- 3.6 Elo (divisor 1024) and -5.2 +- 7.9 (256), README.
  bool history_reductions = false;
  // Singular extension: the table's move is searched a ply deeper when a shallower search
  // without it finds every other move clearly worse (and a node where even the others reach
  // beta fails high at once: multi-cut). Off: from depth 5 it lost 6.1 +- 6.7 Elo at 20k nodes
  // (H0), README.
  bool singular_extension = false;
  // A late move that threatens a win in one (the child has a win in one for the mover) is not
  // reduced, as chess engines leave checks unreduced: the answer is forced. Off: -0.9 +- 8.2 Elo
  // at 20k nodes (1200 games, undecided).
  bool threats_unreduced = false;
  // Late moves at a cut node (a node off the principal variation expected to fail high: a late
  // move's node, and the first move's node below an expected all-node) are reduced LmrCutNode
  // plies more, as in Stockfish: there one move is expected to refute, and the others matter
  // less. Off: -2.6 +- 8.5 Elo at 20k nodes (1200 games, undecided), and the tree did not shrink
  // (README).
  bool cut_node_reductions = false;
  // Razoring: at low depth, a node whose static evaluation lies far below alpha fails low at once
  // with that evaluation (without a quiescence search, the children of a depth-1 node would be
  // scored by the same evaluation, a push or two away). Off: at 20k nodes H1 after 1696 games,
  // +9.8 +- 6.2 Elo, but at 10+0.1 undecided at its cap of 2000 games, +4.3 +- 5.0 (README).
  bool razoring = false;
  // Time use by the search's stability: the soft limit scaled by recent changes of the best
  // move, a falling score, and a best move that has stayed (SearchStability, time_manager.hpp).
  // On: its SPRT at 10+0.1 accepted H1 after 768 games, +16.3 +- 7.7 Elo (README).
  bool time_stability = true;
  bool operator==(const SearchFeatures&) const = default;
};

// Who chooses the moves: the alpha-beta search (search.hpp), or a reference opponent of another
// kind (issue 31): the Monte Carlo tree search (mcts.hpp), whose strength is its number of
// iterations, or the uniformly random mover (the weakest Skill Level).
enum class Player : std::uint8_t { Search, Mcts, Random };

struct EngineOptions {
  int hash_mb = 16;
  int threads = 1;
  int move_overhead_ms = 30;
  int multipv = 1;
  SearchFeatures features;
  SearchParams params;       // the tunable constants, as the engine plays by default
  StrengthOptions strength;  // full strength by default (skill.hpp)
  Player player = Player::Search;
  int mcts_iterations = 1000;  // a move's iterations of Player::Mcts
  bool operator==(const EngineOptions&) const = default;
};

// When a search allocates its transposition table: at once (so that a Hash that does not fit is
// reported when it is set), or at its first search (so that a session that never plays that
// game does not pay for its table).
enum class TableAllocation { Now, AtFirstSearch };

}  // namespace quixo
