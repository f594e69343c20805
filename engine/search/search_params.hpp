// The search's and time manager's tunable constants (issue 29), as one plain struct with the
// values the engine plays with, and one table that says of each its UQI option name, range and
// SPSA step. The table is the only description: `quixo-engine --tune` declares and takes the
// options from it (protocol/uqi_session.cpp) and `--print-params` prints its rows, so the arena
// can tune the parameters with SPSA without a rebuild. Every parameter is an integer (a fraction
// is in per mille or per cent) because UQI's spin options are.
//
// Both games' searches take the same parameters (search.hpp is one template for both): the team
// search is tuned with the two-player one, not apart from it.
#pragma once

#include <iterator>
#include <string_view>

namespace quixo {

struct SearchParams {
  // Search (search.hpp).
  // The half-width of the first aspiration window around the last iteration's score, in
  // centipawns, and by how many per cent the window widens after each fail.
  int aspiration_delta = 20;
  int aspiration_growth_percent = 50;
  // Late move reductions: a move numbered n (from 1) at remaining depth d is reduced by
  // base + ln(d) ln(n) / divisor plies, rounded down; base and divisor in per mille.
  int lmr_base_permille = 500;
  int lmr_divisor_permille = 2000;
  // Reduced only from this remaining depth (at least 2: a reduced move keeps one ply), and from
  // this index in the move order (0: the first move, which is never reduced), and by this many
  // plies less at a PV node.
  int lmr_min_depth = 3;
  int lmr_min_move_index = 3;
  int lmr_pv_decrease = 1;
  // With history reductions (SearchFeatures): a reduced move's order value (its history, in
  // +-16384, plus its continuation history) divided by this is taken off its reduction. At
  // 8192 it changed no move's reduction in a 20k-node search (the bonuses, depth², keep the
  // history in the low thousands); at 1024 a search of the start to depth 11 took 30 % fewer
  // nodes.
  int lmr_history_divisor = 1024;
  // With cut-node reductions (SearchFeatures): the plies more a late move of a cut node is reduced.
  int lmr_cut_node = 1;
  // A move that cuts off at remaining depth d gains min(d^2 * scale / 100, max) history, the
  // others tried lose as much. The cap binds only from depth 20 unless the scale grows or the
  // cap falls.
  int history_bonus_percent = 100;
  int history_bonus_max = 400;
  // Null move pruning: from this remaining depth, a null move searched base + depth / divisor
  // plies shallower.
  int null_move_min_depth = 3;
  int null_move_reduction = 3;
  int null_move_depth_divisor = 4;
  // Reverse futility: up to this remaining depth, a static evaluation at least margin per ply of
  // depth above beta fails high (centi-cubes).
  int reverse_futility_max_depth = 5;
  int reverse_futility_margin = 75;
  // Razoring: up to this remaining depth, a static evaluation more than margin per ply of depth
  // below alpha fails low (centi-cubes).
  int razoring_max_depth = 2;
  int razoring_margin = 100;
  // Late move pruning: up to this remaining depth d, only the first base + d^2 moves are searched.
  int late_move_pruning_max_depth = 3;
  int late_move_pruning_base = 4;
  // Internal iterative reduction from this remaining depth.
  int iir_min_depth = 4;
  // Singular extension: from this remaining depth, a table move whose stored lower bound is at
  // least the depth less 3 is extended a ply when no other move reaches its score less margin
  // times the depth (centi-cubes) in a search of half the depth.
  int singular_min_depth = 8;
  int singular_margin = 2;

  // Time (time_manager.cpp, and the stop between iterations in search.hpp).
  // The moves a sudden-death game is assumed still to last, for spreading the clock. 16, not 30:
  // at 30 the engines left half their clock unused when a game ended (a game lasts a median 41
  // plies), and 16 passed its SPRT at 10+0.1 against 30 (+15.5 +- 7.4 Elo; the README's "The
  // stronger search of issue 29").
  int moves_to_go = 16;
  // The share of the increment added to a move's soft limit, per mille.
  int increment_permille = 750;
  // The hard limit: at most this share of the usable clock (per mille) and at most this multiple
  // of the soft limit (per cent).
  int hard_cap_permille = 400;
  int hard_per_soft_percent = 400;
  // No new iteration starts after this share of the soft limit (per mille): the next would take a
  // few times as long as the last and be cut short.
  int iteration_stop_permille = 600;
  // With TimeStability (engine_options.hpp) the soft limit is scaled by how settled the search is
  // (SearchStability, time_manager.hpp), per mille of the planned time: this much more for a change
  // of the best move in the last iteration (half as much for one an iteration earlier, and so
  // on), this much more per centipawn the best score fell in the last iteration (at most twice
  // the time), and this share of it once the best move has stayed the same for four iterations.
  int stability_move_change_permille = 1000;
  int stability_score_drop_permille = 25;
  int stability_settled_permille = 700;

  bool operator==(const SearchParams&) const = default;
};

// One tunable parameter: its UQI option name, the field it sets, the range the option takes, and
// the step SPSA perturbs it by at the end of a tune (fishtest's c_end: about a twentieth of the
// range that matters, large enough for the games to see). The default is the field's in
// SearchParams{}, so that it is written once.
struct SearchParamSpec {
  std::string_view name;
  int SearchParams::*field;
  int min;
  int max;
  double c_end;
};

// Left out on purpose: the killer and table-move ranks of the move order (they only say that
// these come before any history value, which is bounded by the history's gravity), the share of a
// `go movetime` kept back and the clock's last-moves reserve (safeguards against losing on time:
// a tune of playing strength would drive them to zero).
inline constexpr SearchParamSpec kSearchParamSpecs[] = {
    {"AspirationDelta", &SearchParams::aspiration_delta, 5, 100, 4},
    {"AspirationGrowth", &SearchParams::aspiration_growth_percent, 10, 200, 10},
    {"LmrBase", &SearchParams::lmr_base_permille, 0, 1500, 75},
    {"LmrDivisor", &SearchParams::lmr_divisor_permille, 1000, 5000, 200},
    {"LmrMinDepth", &SearchParams::lmr_min_depth, 2, 8, 1},
    {"LmrMinMoveIndex", &SearchParams::lmr_min_move_index, 1, 12, 1},
    {"LmrPvDecrease", &SearchParams::lmr_pv_decrease, 0, 3, 1},
    {"LmrHistoryDivisor", &SearchParams::lmr_history_divisor, 128, 16384, 128},
    {"LmrCutNode", &SearchParams::lmr_cut_node, 0, 3, 1},
    {"HistoryBonusScale", &SearchParams::history_bonus_percent, 25, 400, 15},
    {"HistoryBonusMax", &SearchParams::history_bonus_max, 50, 4000, 50},
    {"NullMoveMinDepth", &SearchParams::null_move_min_depth, 2, 8, 1},
    {"NullMoveReduction", &SearchParams::null_move_reduction, 1, 6, 1},
    {"NullMoveDepthDivisor", &SearchParams::null_move_depth_divisor, 2, 12, 1},
    {"ReverseFutilityMaxDepth", &SearchParams::reverse_futility_max_depth, 1, 10, 1},
    {"ReverseFutilityMargin", &SearchParams::reverse_futility_margin, 10, 400, 15},
    {"RazoringMaxDepth", &SearchParams::razoring_max_depth, 1, 6, 1},
    {"RazoringMargin", &SearchParams::razoring_margin, 10, 600, 20},
    {"LateMovePruningMaxDepth", &SearchParams::late_move_pruning_max_depth, 1, 8, 1},
    {"LateMovePruningBase", &SearchParams::late_move_pruning_base, 1, 20, 1},
    {"IirMinDepth", &SearchParams::iir_min_depth, 2, 12, 1},
    {"SingularMinDepth", &SearchParams::singular_min_depth, 4, 16, 1},
    {"SingularMargin", &SearchParams::singular_margin, 0, 20, 1},
    {"TimeMovesToGo", &SearchParams::moves_to_go, 10, 80, 3},
    {"TimeIncrement", &SearchParams::increment_permille, 250, 1000, 50},
    {"TimeHardCap", &SearchParams::hard_cap_permille, 150, 900, 40},
    {"TimeHardPerSoft", &SearchParams::hard_per_soft_percent, 150, 1000, 40},
    {"TimeIterationStop", &SearchParams::iteration_stop_permille, 250, 1000, 40},
    {"TimeMoveChange", &SearchParams::stability_move_change_permille, 0, 3000, 100},
    {"TimeScoreDrop", &SearchParams::stability_score_drop_permille, 0, 100, 4},
    {"TimeSettled", &SearchParams::stability_settled_permille, 300, 1000, 40},
};

// Every field of SearchParams is an int with a row in the table: a field added without a row
// fails here, not silently in a tune that never moves it.
static_assert(sizeof(SearchParams) == std::size(kSearchParamSpecs) * sizeof(int));

}  // namespace quixo
