// Fitting the learned evaluation to the search's own choices (issue 29's long wins). Fits to the
// tables' labels of single positions rank a position's children better and still leave the search
// giving long wins away (README, "The stronger search of issue 29"): the search compares the
// evaluations of the leaves its lines end in, not of the children. So here, for each won or
// drawn position, every child that does not lose at once is searched at a small node budget, the
// static evaluation of the end of its principal variation is its score (TDLeaf's idea), and a
// softmax over the children's scores is pushed toward the children that keep the position's value
// (a win, or a draw against the moves that lose): the loss is -log(the softmax's share of the
// keeping children, each weighted by how fast it wins when progress_plies is set), and its
// gradient flows through the linear pattern weights of the leaves.
// The phases fitted also hold every defence of a draw, so draws are ranked too (README). A child
// whose search ends in a proven result, or whose line's end does not score what the search reported
// (a line cut short by the table), has no leaf to learn from and only takes part in the softmax.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/position.hpp"
#include "data_sources.hpp"
#include "tb/tablebase.hpp"

namespace quixo::train {

struct SearchRankingSettings {
  std::uint64_t child_nodes = 8000;  // each child's search
  double learning_rate = 30;         // centi-cubes per unit of gradient
  double temperature = 30;           // the softmax's scale, centi-cubes
  // In a won position, a child that keeps the win counts by exp(-(its distance - the shortest) /
  // progress_plies): the faster wins weigh more, so that the evaluation learns to make progress
  // and not only to keep the win (a fit without it kept more wins a move but took longer to win,
  // and so gave as many away in games; with it the games were no better either: README). 0
  // counts every child that keeps the win alike.
  double progress_plies = 0;
  // With progress_plies: a child's distance is to the first blank cube taken, not to the end
  // (`quixo-tb generate --distance-to exit` tables): a child with fewer blanks than its parent
  // counts 0, one with as many its table distance.
  bool progress_to_fill = false;
  int batch = 200;  // positions per weight update
  int threads = 2;
  // Each thread's transposition table, cleared before every child's search: at 8,000 nodes a
  // child needs little of it, and clearing a large one costs more than the search under the
  // sanitizers.
  int hash_mb = 16;
};

struct SearchRankingStats {
  int positions = 0;       // positions with a child searched
  int won = 0;             // ... of them won (the others drawn)
  int picked_keeping = 0;  // ... whose best-scored child keeps the value
  int picked_won = 0;      // ... of them won
  int ranked = 0;          // ... with both a keeping and a giving-away child (the loss's positions)
  int children = 0;
  int leaves = 0;   // children with a leaf to learn from
  double loss = 0;  // summed over the ranked positions
};

// One pass over `positions` (each won or drawn for the side to move, with its layer and the layers
// below loaded in `tables`), updating `weights` (the learned evaluation's, as real numbers) after
// every batch; a learning rate of 0 only measures. Throws std::invalid_argument for a position the
// tables call lost, or whose children they do not hold. The result does not depend on the number of
// threads.
SearchRankingStats search_ranking_pass(const tb::Tablebase& tables,
                                       std::span<const Position> positions,
                                       std::vector<double>& weights,
                                       const SearchRankingSettings& settings,
                                       const Progress& progress = {});

// The weights rounded to the weights file's 16-bit integers.
std::vector<std::int16_t> rounded_weights(std::span<const double> weights);

}  // namespace quixo::train
