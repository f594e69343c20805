// The two-player game as the search (search.hpp) sees it: its moves, scans, evaluation,
// ordering statistics and table frames. Only engine.cpp and engine_base.cpp use this header.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/symmetry.hpp"
#include "engine_options.hpp"
#include "evaluation.hpp"
#include "limits.hpp"
#include "score.hpp"
#include "search_variant.hpp"
#include "tb/tablebase.hpp"
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
  static constexpr bool kNullMove = true;
  // The position with the same cubes and the opponent to move: a null move.
  static Position after_null_move(const Position& position) {
    return Position(position.cubes(Color::X), position.cubes(Color::O), ~position.side_to_move());
  }

  static constexpr SlideSet bit_of(Move move) { return SlideSet{1} << move.slide(); }

  struct Node {
    SlideSet wins = 0;
    SlideSet safe = 0;  // legal moves that do not make the opponent's line
    bool forced_pass = false;
    LineHoles holes;  // of the boards packed mover first, for the threats' scan
  };
  // A node's position goes on (the search scores a finished game without a node).
  static Node scan(const Position& position) {
    const PackedBoards boards = mover_first(position);
    const LineHoles holes = line_holes(boards);
    const MoveScan scan = scan_moves(boards, holes);
    return {scan.wins, scan.legal & ~scan.losses, false, holes};
  }
  static constexpr Move move_of_slide(const Position&, SlideIndex slide) { return Move(slide); }
  static SlideSet threats(const Position& position) { return opponent_wins(position); }
  // The same for a scanned node: the opponent's scan reads the node's holes.
  static SlideSet threats(const Position& position, const Node& node) {
    return scan_moves(swap_halves(mover_first(position)), swap_halves(node.holes)).wins;
  }
  using Evaluator = quixo::Evaluator;
  static Evaluator standard_evaluator() { return Evaluator::standard(); }
  static Score evaluate(const Evaluator& evaluator, const Position& position, const Node&,
                        SlideSet opponent_threats) {
    return evaluator(position, opponent_threats);
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
    // Without the symmetric table (the default) the frame is the position's own: no call.
    Move to_table(Move move) const {
      return symmetry == Symmetry::Identity ? move : transform(symmetry, move);
    }
    Move from_table(Move move) const {
      return symmetry == Symmetry::Identity ? move : transform(inverse(symmetry), move);
    }
  };
  static TableView table_view(const Position& position, Key key, const SearchFeatures& features) {
    if (!features.symmetric_table) return {key, Symmetry::Identity};
    const CanonicalForm form = canonical_form(position);
    return {form.position.key(), form.symmetry};
  }

  static MoveScan root_scan(const Position& root) { return scan_moves(root); }
  // The legal moves of the root (only the requested ones when any is legal), without those
  // that make the opponent's line at once unless keep_losses or every move does.
  static std::vector<Move> root_candidates(const Position&, const MoveScan& scan,
                                           std::span<const Move> search_moves,
                                           bool keep_losses = false) {
    SlideSet candidates = scan.legal;
    SlideSet requested = 0;
    for (const Move move : search_moves)
      if (!move.is_none()) requested |= bit_of(move);
    if (requested & candidates) candidates &= requested;
    if (!keep_losses && (candidates & ~scan.losses)) candidates &= ~scan.losses;
    std::vector<Move> moves;
    for (SlideSet set = candidates; set != 0; set &= set - 1)
      moves.push_back(Move(SlideIndex(std::countr_zero(set))));
    return moves;
  }
  static bool wins_at_once(const MoveScan& scan, Move move) { return scan.wins & bit_of(move); }
  static bool loses_at_once(const MoveScan& scan, Move move) { return scan.losses & bit_of(move); }
  static Score root_order(const Evaluator& evaluator, const Position& child) {
    return evaluator(child, opponent_wins(child));
  }

  // The endgame tables (tb/tablebase.hpp): the exact values of the positions with few blank
  // cubes, a layer of them per number of blanks.
  using Tables = tb::Tablebase;
  static constexpr bool kHasTables = true;
  // The loaded layers as a set (bit k: the boards with k blank cubes).
  static std::uint32_t table_layers(const Tables& tables) {
    std::uint32_t layers = 0;
    for (int blanks = 0; blanks <= kSquareCount; ++blanks)
      if (tables.has_layer(blanks)) layers |= std::uint32_t{1} << blanks;
    return layers;
  }
  static bool in_table_layers(const Position& position, std::uint32_t layers) {
    return (layers >> std::popcount(position.blanks())) & 1;
  }
  // A value of the tables as the score of a node `ply` plies from the root: a win (loss) whose
  // game ends `distance` plies later is a win (loss) at ply + distance, as the search counts them
  // (a finished board is a win or loss at ply itself). A distance too long for the score range
  // is cut to its end, still a win or a loss.
  static Score table_score(tb::TbValue value, int ply) {
    const int end = std::min(ply + value.distance, 2 * kMaxPly);
    if (value.wdl == tb::Wdl::Win) return mate_in(end);
    if (value.wdl == tb::Wdl::Loss) return mated_in(end);
    return kDrawScore;
  }
  // Whether a probe of `position` is a byte read of its layer's win/draw/loss file (else it may
  // decode a block of the layer file).
  static bool table_probe_is_direct(const Tables& tables, const Position& position) {
    return tables.has_wdl_file(std::popcount(position.blanks()));
  }
  // Starts the memory read of a direct probe of `position` (a child about to be searched), so
  // that it overlaps the child's first steps; false when its probe is not direct.
  static bool prefetch_table(const Tables& tables, const Position& position) {
    return tables.prefetch_wdl(position);
  }
  // The proven score of `position`, a node `ply` plies from the root where the game goes on: a
  // table win or loss (score.hpp), or a draw; nullopt when the tables do not have it (its layer is
  // not loaded, or turned out corrupt and was dropped). Win/draw/loss alone, so that a probe is a
  // byte read (tb/wdl_file.hpp); the root's moves get their distances (root_table_scores).
  static std::optional<Score> probe_table(const Tables& tables, const Position& position, int ply) {
    const auto wdl = tables.probe_wdl(position);
    if (!wdl) return std::nullopt;
    if (*wdl == tb::Wdl::Win) return table_win_in(ply);
    if (*wdl == tb::Wdl::Loss) return table_loss_in(ply);
    return kDrawScore;
  }
  // Every legal move of the root, a position where the game goes on, with its exact score (a
  // move that ends the game included), in generation order; nullopt unless every child is in
  // the tables. Adds the probes that answered to `probes`.
  static std::optional<std::vector<std::pair<Move, Score>>> root_table_scores(
      const Tables& tables, const Position& root, std::uint64_t& probes) {
    const auto moves = tables.probe_moves(root);
    if (!moves) return std::nullopt;
    std::vector<std::pair<Move, Score>> scores;
    for (const tb::MoveValue& entry : *moves) {
      // The child's value seen from the root: a child that ends the game needs no probe.
      if (!root.after(entry.move).is_game_over()) ++probes;
      scores.emplace_back(entry.move, table_score(entry.value, 0));
    }
    return scores;
  }
  // The line the tables play after `first` from `root`: each side's best move (the fastest win,
  // a draw, the slowest loss), the first of them in generation order, until the game ends, the
  // tables stop answering or the line has `max_plies` moves.
  static std::vector<Move> table_line(const Tables& tables, const Position& root, Move first,
                                      int max_plies) {
    std::vector<Move> line = {first};
    Position position = root.after(first);
    while (int(line.size()) < max_plies && !position.is_game_over()) {
      const std::vector<Move> best = tables.best_moves(position);
      if (best.empty()) break;
      line.push_back(best.front());
      position = position.after(best.front());
    }
    return line;
  }

  static TimeBudget plan(const SearchLimits& limits, const Position& root, int overhead_ms,
                         const SearchParams& params) {
    return plan_time(limits, root.side_to_move(), overhead_ms, params);
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
static_assert(SearchVariant<TwoPlayerVariant>);

}  // namespace quixo
