// The four-player team game as the search (search.hpp) sees it. The model (team against team,
// negamax over the seats in turn, the pass as a move) is described in engine4.hpp. Wins and
// losses are properties of the geometry (points do not matter for lines); the seat's takeable
// set says which geometries it may play, each with the placed cube pointing to the mover or to
// its partner. Only engine4.cpp and engine_base.cpp use this header.
#pragma once

#include <algorithm>
#include <bit>
#include <span>
#include <string_view>
#include <vector>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "core/packed_slides.hpp"
#include "core/position4.hpp"
#include "engine_options.hpp"
#include "evaluation4.hpp"
#include "limits.hpp"
#include "search_variant.hpp"
#include "team_pattern_evaluation.hpp"
#include "time_manager.hpp"

namespace quixo {

struct FourPlayerVariant {
  using Position = Position4;
  using Move = Move4;
  using Key = Position4Key;

  // By seat, geometry and point (0: to the mover, 1: to its partner), and one more entry for the
  // pass, which is never updated (a forced pass is the only move: nothing to order).
  static constexpr int kPassHistoryIndex = kSeatCount * kSlideCount * 2;
  static constexpr int kHistorySize = kPassHistoryIndex + 1;
  // The same seat is to move only every fourth ply (a pass also hands the move on).
  static constexpr int kRepetitionCycle = 4;
  static constexpr bool kMultiPv = false;
  static constexpr bool kThreatsAtEveryNode = false;
  static constexpr bool kMateDistanceNarrowsWindow = false;
  static constexpr bool kSpreadHelperRoots = false;
  static constexpr bool kStopOnSingleRootMove = true;
  static constexpr bool kEveryThreadChecksLimits = true;
  // No null move: a pass hands the turn to the next seat, whose team may not be the opponent's
  // that the pruning assumes.
  static constexpr bool kNullMove = false;

  static constexpr bool has_slide(SlideSet set, Move4 move) {
    return !move.is_pass() && !move.is_none() && ((set >> move.slide()) & 1) != 0;
  }

  struct Node {
    SlideSet wins = 0;         // the geometries the seat may play that make its team's line
    SlideSet safe = 0;         // the geometries the seat may play that do not make the other team's
    bool forced_pass = false;  // no geometry at all: a pass, which never loses at once
    SlideSet team_wins = 0;    // the team's winning geometries, whoever of it may play them
    LineHoles holes;           // of the boards packed team first, for the threats' scan
  };
  // A node's position goes on (the search scores a finished game without a node).
  static Node scan(const Position4& position) {
    const SlideSet slides = slides_from(position.takeable());
    const PackedBoards boards = team_first(position);
    const LineHoles holes = line_holes(boards);
    const MoveScan scan = scan_moves(boards, holes);
    return {scan.wins & slides, slides & ~scan.losses, slides == 0, scan.wins, holes};
  }
  static constexpr Move4 move_of_slide(const Position4& position, SlideIndex slide) {
    return Move4(slide, position.seat_to_move());
  }
  static SlideSet threats(const Position4& position) { return opponent_team_wins(position); }
  // The same for a scanned node: the other team's scan reads the node's holes.
  static SlideSet threats(const Position4& position, const Node& node) {
    return scan_moves(swap_halves(team_first(position)), swap_halves(node.holes)).wins;
  }
  using Evaluator = TeamEvaluator;
  static Evaluator standard_evaluator() { return TeamEvaluator::standard(); }
  static Score evaluate(const Evaluator& evaluator, const Position4& position, const Node& node,
                        SlideSet opponent_threats) {
    return evaluator(position, node.team_wins, opponent_threats);
  }

  template <class Visit>
  [[gnu::always_inline]] static void generate_moves(const Position4& position, const Node& node,
                                                    SlideSet slides, Visit&& visit) {
    if (node.forced_pass) visit(Move4::pass(), kPassHistoryIndex);
    const Seat seat = position.seat_to_move();
    for (SlideSet set = slides; set != 0; set &= set - 1) {
      const SlideIndex slide = SlideIndex(std::countr_zero(set));
      const int row = (seat * kSlideCount + slide) * 2;
      visit(Move4(slide, seat), row);
      visit(Move4(slide, partner_of(seat)), row + 1);
    }
  }
  static constexpr bool has_history(Move4 move) { return !move.is_pass(); }
  static int history_index(const Position4& position, Move4 move) {
    const Seat seat = position.seat_to_move();
    return (seat * kSlideCount + move.slide()) * 2 + (move.point() == seat ? 0 : 1);
  }
  static bool usable_table_move(const Position4& position, const Node& node, Move4 move) {
    const Seat seat = position.seat_to_move();
    return node.forced_pass ? move.is_pass()
                            : has_slide(node.safe, move) &&
                                  (move.point() == seat || move.point() == partner_of(seat));
  }

  // The table keeps every position as it is.
  struct TableView {
    Key key;
    Move4 to_table(Move4 move) const { return move; }
    Move4 from_table(Move4 move) const { return move; }
  };
  static TableView table_view(const Position4&, const Key& key, const SearchFeatures&) {
    return {key};
  }

  static MoveScan root_scan(const Position4& root) {
    return root.is_game_over() ? MoveScan{} : team_scan(root);
  }
  // The legal moves of the root (only the requested ones when any is legal), without those
  // that make the other team's line at once unless keep_losses or every move does.
  static std::vector<Move4> root_candidates(const Position4& root, const MoveScan& scan,
                                            std::span<const Move4> search_moves,
                                            bool keep_losses = false) {
    if (root.is_game_over()) return {};
    const MoveList4 legal = root.legal_moves();
    std::vector<Move4> candidates(legal.begin(), legal.end());
    std::vector<Move4> requested;
    for (const Move4 move : candidates)
      if (std::find(search_moves.begin(), search_moves.end(), move) != search_moves.end())
        requested.push_back(move);
    if (!requested.empty()) candidates = requested;
    const auto loses = [&scan](Move4 move) { return loses_at_once(scan, move); };
    if (!keep_losses && !std::all_of(candidates.begin(), candidates.end(), loses))
      std::erase_if(candidates, loses);
    return candidates;
  }
  static bool wins_at_once(const MoveScan& scan, Move4 move) { return has_slide(scan.wins, move); }
  static bool loses_at_once(const MoveScan& scan, Move4 move) {
    return has_slide(scan.losses, move);
  }
  static Score root_order(const Evaluator& evaluator, const Position4& child) {
    return evaluator(child, team_scan(child).wins, opponent_team_wins(child));
  }

  // The four-player game has no endgame tables.
  struct Tables {};
  static constexpr bool kHasTables = false;

  // A seat plays on its own clock, or on its team's when it has none.
  static TimeBudget plan(const SearchLimits& limits, const Position4& root, int overhead_ms,
                         const SearchParams& params) {
    return plan_seat_time(limits, root.seat_to_move(), overhead_ms, params);
  }
  // Multipv, threat extension, parry pruning and the symmetric table are two-player features.
  static SearchFeatures applicable(SearchFeatures features) {
    features.threat_extension = false;
    features.parry_threats = false;
    features.symmetric_table = false;
    // The pruning and ordering of issue 29 are measured in the two-player game only (the team
    // game's search does not find threats at every node, which the pruning relies on).
    features.null_move_pruning = false;
    features.reverse_futility = false;
    features.late_move_pruning = false;
    features.internal_iterative_reduction = false;
    features.continuation_history = false;
    features.history_reductions = false;
    features.singular_extension = false;
    features.threats_unreduced = false;
    features.cut_node_reductions = false;
    features.razoring = false;
    features.time_stability = false;
    return features;
  }
  static Position4 parse(std::string_view text) { return parse_position4(text); }

  // The bench positions (run_bench in search.hpp): the start, then positions of seeded random
  // games. The node total is the team search's signature.
  static constexpr std::string_view kBenchPositions[] = {
      "5/5/5/5/5 1",
      "O2XO/4O/5/o3x/X2XO 3",
      "oX2X/4o/x4/x4/O1Oox 4",
      "1Ox1O/xO2o/OX3/XO2X/oX1xo 1",
      "OoXOo/xxX1o/O2Xo/XX2x/oOXox 2",
      "oXOOo/XxOXo/O3x/X1XxX/OooOx 3",
      "xXoOo/O1O1X/o1X1O/XX1Xo/oxXOX 2",
      "xxOxo/ooX1O/o2xo/xoX1O/xooxX 1",
  };
  static constexpr std::string_view kBenchLabel = "Four-player position";
};
static_assert(SearchVariant<FourPlayerVariant>);

}  // namespace quixo
