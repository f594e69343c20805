// What a game must say of itself to be searched by search.hpp: the contract of its Variant class
// (two_player_variant.hpp, four_player_variant.hpp) as a C++20 concept, so that a variant that
// misses or misspells a member fails to compile at the search's template with the member's name,
// not deep inside it. The comment at the top of search.hpp says what each member means.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/move_scan.hpp"
#include "engine_options.hpp"
#include "limits.hpp"
#include "score.hpp"
#include "time_manager.hpp"

namespace quixo {

// The endgame-table members, required of a variant with kHasTables only.
template <class V>
concept SearchVariantTables = requires(const typename V::Tables& tables,
                                       const typename V::Position& position, typename V::Move move,
                                       std::uint32_t layers, int ply, std::uint64_t& probes) {
  { V::table_layers(tables) } -> std::same_as<std::uint32_t>;
  { V::in_table_layers(position, layers) } -> std::same_as<bool>;
  { V::probe_table(tables, position, ply) } -> std::same_as<std::optional<Score>>;
  { V::table_probe_is_direct(tables, position) } -> std::same_as<bool>;
  { V::prefetch_table(tables, position) } -> std::same_as<bool>;
  V::root_table_scores(tables, position, probes);
  { V::table_line(tables, position, move, ply) } -> std::same_as<std::vector<typename V::Move>>;
};

template <class V>
concept SearchVariant = requires(const typename V::Position& position, typename V::Move move,
                                 const typename V::Node& node,
                                 const typename V::Evaluator& evaluator, const MoveScan& scan,
                                 std::span<const typename V::Move> search_moves,
                                 const SearchLimits& limits, const SearchFeatures& features,
                                 SlideIndex slide, SlideSet slides, const typename V::Key& key) {
  // The game's types; a position's key is its identity in the table and for repetitions.
  typename V::Position;
  typename V::Move;
  typename V::Key;
  typename V::Node;
  typename V::Evaluator;
  typename V::Tables;
  { position.key() } -> std::convertible_to<typename V::Key>;
  // Sizes and switches.
  { V::kHistorySize } -> std::convertible_to<int>;
  { V::kRepetitionCycle } -> std::convertible_to<int>;
  { V::kMultiPv } -> std::convertible_to<bool>;
  { V::kThreatsAtEveryNode } -> std::convertible_to<bool>;
  { V::kMateDistanceNarrowsWindow } -> std::convertible_to<bool>;
  { V::kSpreadHelperRoots } -> std::convertible_to<bool>;
  { V::kStopOnSingleRootMove } -> std::convertible_to<bool>;
  { V::kEveryThreadChecksLimits } -> std::convertible_to<bool>;
  { V::kHasTables } -> std::convertible_to<bool>;
  { V::kNullMove } -> std::convertible_to<bool>;
  // A node: its scan, threats, evaluation and moves.
  { V::scan(position) } -> std::same_as<typename V::Node>;
  { V::move_of_slide(position, slide) } -> std::same_as<typename V::Move>;
  { V::threats(position) } -> std::same_as<SlideSet>;
  { V::threats(position, node) } -> std::same_as<SlideSet>;
  { V::standard_evaluator() } -> std::same_as<typename V::Evaluator>;
  { V::evaluate(evaluator, position, node, slides) } -> std::same_as<Score>;
  V::generate_moves(position, node, slides, [](typename V::Move, int) {});
  { V::has_history(move) } -> std::same_as<bool>;
  { V::history_index(position, move) } -> std::same_as<int>;
  { V::usable_table_move(position, node, move) } -> std::same_as<bool>;
  { V::table_view(position, key, features).key } -> std::convertible_to<typename V::Key>;
  { V::table_view(position, key, features).to_table(move) } -> std::same_as<typename V::Move>;
  { V::table_view(position, key, features).from_table(move) } -> std::same_as<typename V::Move>;
  // The root.
  { V::root_scan(position) } -> std::same_as<MoveScan>;
  {
    V::root_candidates(position, scan, search_moves, true)
    } -> std::same_as<std::vector<typename V::Move>>;
  { V::wins_at_once(scan, move) } -> std::same_as<bool>;
  { V::loses_at_once(scan, move) } -> std::same_as<bool>;
  { V::root_order(evaluator, position) } -> std::same_as<Score>;
  { V::plan(limits, position, 0, SearchParams{}) } -> std::same_as<TimeBudget>;
  { V::applicable(features) } -> std::same_as<SearchFeatures>;
  // The bench.
  { V::parse(std::string_view()) } -> std::same_as<typename V::Position>;
  { V::kBenchLabel } -> std::convertible_to<std::string_view>;
  { std::size(V::kBenchPositions) } -> std::convertible_to<std::size_t>;
}
&&(!V::kHasTables || SearchVariantTables<V>);

}  // namespace quixo
