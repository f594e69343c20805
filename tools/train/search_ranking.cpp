#include "search_ranking.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <utility>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "parallel_work.hpp"
#include "search/engine.hpp"
#include "search/pattern_evaluation.hpp"

namespace quixo::train {

namespace {

// A weight's share of the gradient: (feature, d value / d weight).
using SparseGradient = std::vector<std::pair<std::uint32_t, double>>;

struct ChildScore {
  bool keeps_value = false;  // the parent's win, or its draw
  double target_weight = 1;  // of a keeping child in the loss: 1 but for slower wins (progress)
  double value = 0;          // for the parent's side to move
  // The leaf's features with the sign that turns its score into `value`; empty without a leaf.
  std::vector<std::pair<std::uint32_t, int>> leaf_features;
};

struct PositionResult {
  SearchRankingStats stats;
  SparseGradient gradient;
};

// The last exact score and its line at `nodes`, from a new game (no line: none was exact).
SearchResult<Move> search_line(Engine& engine, const Position& position, std::uint64_t nodes) {
  engine.new_game();
  engine.set_position(position, {});
  SearchLimits limits;
  limits.nodes = nodes;
  return search<Move>(engine, limits);
}

void append_features(const Position& leaf, int sign,
                     std::vector<std::pair<std::uint32_t, int>>& features) {
  const patterns::ActiveFeatures active = patterns::active_features(leaf, opponent_wins(leaf));
  for (const std::uint32_t line : active.lines) features.emplace_back(line, sign);
  for (int pair = 0; pair < active.pair_count; ++pair)
    features.emplace_back(active.pairs[std::size_t(pair)], sign);
  if (active.threat >= 0) features.emplace_back(std::uint32_t(active.threat), sign);
  features.emplace_back(std::uint32_t(active.bias), sign);
}

// The child's score after its search, and the leaf behind it when the line's end scores exactly
// what the search reported (a quiet position that the evaluation scored).
ChildScore score_child(Engine& engine, const patterns::PatternWeights& weights,
                       const Position& child, std::uint64_t nodes) {
  ChildScore result;
  const SearchResult<Move> line = search_line(engine, child, nodes);
  const Score score = line.score.value_or(0);
  result.value = -double(score);
  if (line.pv.empty() || is_decisive_score(score)) return result;
  Position end = child;
  for (const Move move : line.pv) {
    if (end.is_game_over() || !end.is_legal(move)) return result;
    end = end.after(move);
  }
  if (end.is_game_over() || scan_moves(end).wins != 0) return result;
  // The child's mover moves again at the end of a line of even length.
  const int parity = line.pv.size() % 2 == 0 ? 1 : -1;
  if (weights.evaluate(end, opponent_wins(end)) * parity != score) return result;
  append_features(end, -parity, result.leaf_features);
  return result;
}

PositionResult rank_position(Engine& engine, const patterns::PatternWeights& weights,
                             const tb::Tablebase& tables, const Position& position,
                             const SearchRankingSettings& settings) {
  const auto value = tables.probe_wdl(position);
  if (!value || *value == tb::Wdl::Loss)
    throw std::invalid_argument(
        "search ranking: " + to_string(position) +
        (value ? " is lost for the side to move" : " is not in the loaded tables"));
  // The child's value (for its side to move) that keeps the parent's.
  const tb::Wdl keeping = *value == tb::Wdl::Win ? tb::Wdl::Loss : tb::Wdl::Draw;
  PositionResult result;
  const MoveScan scan = scan_moves(position);
  if (scan.wins != 0) return result;  // a win in one: nothing to rank
  const bool weigh_progress = *value == tb::Wdl::Win && settings.progress_plies > 0;
  std::vector<ChildScore> children;
  std::vector<int> distances;  // of the keeping children's losses, when weighing progress
  for (const Move move : position.legal_moves()) {
    if (((scan.losses >> move.slide()) & 1) != 0) continue;
    const Position child = position.after(move);
    const auto child_value = tables.probe_wdl(child);
    if (!child_value)
      throw std::invalid_argument("search ranking: a child of " + to_string(position) +
                                  " is not in the loaded tables");
    ChildScore scored = score_child(engine, weights, child, settings.child_nodes);
    scored.keeps_value = *child_value == keeping;
    if (weigh_progress && scored.keeps_value) {
      const bool filled = std::popcount(child.blanks()) < std::popcount(position.blanks());
      distances.push_back(settings.progress_to_fill && filled ? 0 : tables.probe(child)->distance);
    }
    result.stats.leaves += !scored.leaf_features.empty();
    children.push_back(std::move(scored));
  }
  if (children.empty()) return result;
  if (!distances.empty()) {
    const int shortest = *std::min_element(distances.begin(), distances.end());
    auto distance = distances.begin();
    for (ChildScore& child : children)
      if (child.keeps_value)
        child.target_weight = std::exp(-(*distance++ - shortest) / settings.progress_plies);
  }
  result.stats.children = int(children.size());
  result.stats.positions = 1;
  const auto best =
      std::max_element(children.begin(), children.end(),
                       [](const ChildScore& a, const ChildScore& b) { return a.value < b.value; });
  result.stats.picked_keeping = best->keeps_value;
  if (*value == tb::Wdl::Win) {
    result.stats.won = 1;
    result.stats.picked_won = best->keeps_value;
  }
  const auto keepers = std::count_if(children.begin(), children.end(),
                                     [](const ChildScore& child) { return child.keeps_value; });
  if (keepers == 0 || keepers == std::ptrdiff_t(children.size())) return result;
  result.stats.ranked = 1;
  // softmax(value / T); loss = -log(sum over the keeping children of w * it), w their
  // target_weight (at most 1, so the loss is not negative); d loss / d value = (p - q) / T, q the
  // softmax restricted to the keeping children and weighted by w.
  std::vector<double> exponent(children.size());
  double all = 0, kept = 0;
  for (std::size_t i = 0; i < children.size(); ++i) {
    exponent[i] = std::exp((children[i].value - best->value) / settings.temperature);
    all += exponent[i];
    if (children[i].keeps_value) kept += children[i].target_weight * exponent[i];
  }
  result.stats.loss = -std::log(kept / all);
  for (std::size_t i = 0; i < children.size(); ++i) {
    const double share = exponent[i] / all;
    const double keeping_share =
        children[i].keeps_value ? children[i].target_weight * exponent[i] / kept : 0;
    const double d_value = (share - keeping_share) / settings.temperature;
    for (const auto& [feature, sign] : children[i].leaf_features)
      result.gradient.emplace_back(feature, d_value * sign);
  }
  return result;
}

void add(SearchRankingStats& total, const SearchRankingStats& part) {
  total.positions += part.positions;
  total.won += part.won;
  total.picked_keeping += part.picked_keeping;
  total.picked_won += part.picked_won;
  total.ranked += part.ranked;
  total.children += part.children;
  total.leaves += part.leaves;
  total.loss += part.loss;
}

}  // namespace

std::vector<std::int16_t> rounded_weights(std::span<const double> weights) {
  std::vector<std::int16_t> result(weights.size());
  std::transform(weights.begin(), weights.end(), result.begin(), [](double weight) {
    return std::int16_t(std::clamp(std::lround(weight), -32767L, 32767L));
  });
  return result;
}

SearchRankingStats search_ranking_pass(const tb::Tablebase& tables,
                                       std::span<const Position> positions,
                                       std::vector<double>& weights,
                                       const SearchRankingSettings& settings,
                                       const Progress& progress) {
  if (weights.size() != std::size_t(patterns::kFeatureCount))
    throw std::invalid_argument("search ranking: the weights are not the learned evaluation's");
  if (settings.child_nodes == 0 || settings.batch < 1 || settings.hash_mb < 1 ||
      !(settings.temperature > 0) || !(settings.learning_rate >= 0) ||
      !(settings.progress_plies >= 0))
    throw std::invalid_argument(
        "search ranking: nodes, batch and hash must be positive, the temperature above 0 and the "
        "learning rate and progress plies not negative");
  const int threads = std::max(1, settings.threads);
  std::vector<std::unique_ptr<Engine>> engines;
  EngineOptions options;
  options.hash_mb = settings.hash_mb;
  for (int thread = 0; thread < threads; ++thread) {
    engines.push_back(std::make_unique<Engine>());
    engines.back()->set_options(options);
  }
  SearchRankingStats total;
  for (std::size_t start = 0; start < positions.size(); start += std::size_t(settings.batch)) {
    const std::size_t end = std::min(positions.size(), start + std::size_t(settings.batch));
    const auto current = std::make_shared<const patterns::PatternWeights>(rounded_weights(weights));
    for (const auto& engine : engines) engine->set_evaluator(Evaluator(current));
    // Each position's result in its own slot, summed in order: the same on any thread count.
    std::vector<PositionResult> results(end - start);
    std::atomic<std::size_t> next{start};
    run_workers(threads, [&](int thread) {
      for (std::size_t index; (index = next++) < end;)
        results[index - start] = rank_position(*engines[std::size_t(thread)], *current, tables,
                                               positions[index], settings);
    });
    for (const PositionResult& result : results) {
      add(total, result.stats);
      for (const auto& [feature, gradient] : result.gradient)
        weights[feature] -= settings.learning_rate * gradient;
    }
    if (progress)
      progress("search ranking: " + std::to_string(end) + " of " +
               std::to_string(positions.size()) + " positions");
  }
  return total;
}

}  // namespace quixo::train
