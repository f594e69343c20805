// The two-player game as the search (search.hpp) sees it: its moves, scans, evaluation,
// ordering statistics and table frames. Only engine.cpp and engine_base.cpp use this header.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/symmetry.hpp"
#include "engine_options.hpp"
#include "evaluation.hpp"
#include "limits.hpp"
#include "time_manager.hpp"

namespace quixo {

struct TwoPlayerVariant {
  using Position = quixo::Position;
  using Move = quixo::Move;
  using Key = std::uint64_t;

  static constexpr int kHistorySize = 2 * kSlideCount;  // by side and geometry
  static constexpr int kRepetitionCycle = 2;
  static constexpr bool kMultiPv = true;
  static constexpr bool kThreatsAtEveryNode = true;
  static constexpr bool kMateDistanceNarrowsWindow = true;
  static constexpr bool kSpreadHelperRoots = true;
  static constexpr bool kStopOnSingleRootMove = false;
  static constexpr bool kEveryThreadChecksLimits = false;

  static constexpr SlideSet bit_of(Move move) { return SlideSet{1} << move.slide(); }

  struct Node {
    SlideSet wins = 0;
    SlideSet safe = 0;  // legal moves that do not make the opponent's line
    bool forced_pass = false;
  };
  static Node scan(const Position& position) {
    const MoveScan scan = scan_moves(position);
    return {scan.wins, scan.legal & ~scan.losses};
  }
  static constexpr Move move_of_slide(const Position&, SlideIndex slide) { return Move(slide); }
  static SlideSet threats(const Position& position) { return opponent_wins(position); }
  static Score evaluate(const Position& position, const Node&, SlideSet opponent_threats) {
    return quixo::evaluate(position, opponent_threats);
  }

  template <class Visit>
  [[gnu::always_inline]] static void generate_moves(const Position& position, const Node&,
                                                    SlideSet slides, Visit&& visit) {
    const int row = int(position.side_to_move()) * kSlideCount;
    for (SlideSet set = slides; set != 0; set &= set - 1) {
      const SlideIndex slide = SlideIndex(std::countr_zero(set));
      visit(Move(slide), row + slide);
    }
  }
  static constexpr bool has_history(Move) { return true; }
  static int history_index(const Position& position, Move move) {
    return int(position.side_to_move()) * kSlideCount + move.slide();
  }
  static bool usable_table_move(const Position&, const Node& node, Move move) {
    return (node.safe & bit_of(move)) != 0;
  }

  // The table keeps a position itself, or with the symmetric table its canonical form, in whose
  // frame its moves are stored.
  struct TableView {
    Key key;
    Symmetry symmetry;
    Move to_table(Move move) const { return transform(symmetry, move); }
    Move from_table(Move move) const { return transform(inverse(symmetry), move); }
  };
  static TableView table_view(const Position& position, Key key, const SearchFeatures& features) {
    if (!features.symmetric_table) return {key, Symmetry::Identity};
    const CanonicalForm form = canonical_form(position);
    return {form.position.key(), form.symmetry};
  }

  static MoveScan root_scan(const Position& root) { return scan_moves(root); }
  // The legal moves of the root (only the requested ones when any is legal), without those
  // that make the opponent's line at once unless every move does.
  static std::vector<Move> root_candidates(const Position&, const MoveScan& scan,
                                           std::span<const Move> search_moves) {
    SlideSet candidates = scan.legal;
    SlideSet requested = 0;
    for (const Move move : search_moves)
      if (!move.is_none()) requested |= bit_of(move);
    if (requested & candidates) candidates &= requested;
    if (candidates & ~scan.losses) candidates &= ~scan.losses;
    std::vector<Move> moves;
    for (SlideSet set = candidates; set != 0; set &= set - 1)
      moves.push_back(Move(SlideIndex(std::countr_zero(set))));
    return moves;
  }
  static bool wins_at_once(const MoveScan& scan, Move move) { return scan.wins & bit_of(move); }
  static bool loses_at_once(const MoveScan& scan, Move move) { return scan.losses & bit_of(move); }
  static Score root_order(const Position& child) {
    return quixo::evaluate(child, opponent_wins(child));
  }

  static TimeBudget plan(const SearchLimits& limits, const Position& root, int overhead_ms) {
    return plan_time(limits, root.side_to_move(), overhead_ms);
  }
  static SearchFeatures applicable(const SearchFeatures& features) { return features; }
  static Position parse(std::string_view text) { return parse_position(text); }

  // The bench positions (run_bench in search.hpp). The node total is the search's signature: it
  // changes only when the search does.
  static constexpr std::string_view kBenchPositions[] = {
      "5/5/5/5/5 x",
      "ox2o/5/x4/5/x3o x",
      "oo1xo/x4/x4/4x/x1o1o o",
      "oo2x/x3x/o1x1x/o1o2/xoo2 x",
      "ox1ox/o2xx/x2o1/3xo/xo2o o",
      "xxoo1/o3x/4o/o1xxo/o1xxo x",
      "oxxox/2x1x/2oxo/o1xoo/xxoox x",
      "3xo/4x/5/o4/o1x2 o",
      "oxxoo/3ox/2xxo/4x/3ox x",
      "ooo1x/o2xx/4o/x3x/x1oxo o",
  };
  static constexpr std::string_view kBenchLabel = "Position";
};

}  // namespace quixo
