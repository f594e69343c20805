#include "data_sources.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <random>
#include <stdexcept>
#include <string_view>

#include "core/move_scan.hpp"
#include "parallel_work.hpp"
#include "search/engine.hpp"
#include "search/limits.hpp"
#include "self_play.hpp"
#include "tb/index.hpp"

namespace quixo::train {

namespace {

// What the two-player game gives the self-play template (self_play.hpp).
struct TwoPlayerGame {
  using Engine = quixo::Engine;
  using Position = quixo::Position;
  using Move = quixo::Move;
  using Record = TrainingRecord;
  static constexpr std::uint64_t kSeedSalt = 0;
  static constexpr std::string_view kWhat = "self-play";

  // In the order of their slides, so that a random index picks as the bit scan did.
  static std::vector<Move> safe_moves(const Position& position) {
    const MoveScan scan = scan_moves(position);
    std::vector<Move> moves;
    for (SlideSet safe = scan.legal & ~scan.losses; safe != 0; safe &= safe - 1)
      moves.push_back(Move(SlideIndex(std::countr_zero(safe))));
    return moves;
  }
  static bool mover_has_win(const Position& position) { return scan_moves(position).wins != 0; }
  static bool in_domain(const Position& position) { return in_evaluation_domain(position); }
  static Record record_of(const Position& position) {
    return make_record(position, Source::Game, 0);
  }
  static Color side_of(const Record& record) { return record.to_move; }
};

}  // namespace

std::vector<TrainingRecord> sample_table_positions(const tb::Tablebase& tables,
                                                   const TableSampleSettings& settings,
                                                   const Progress& progress) {
  std::vector<int> layers;
  for (int blanks = 0; blanks <= tb::kMaxIndexedLayer; ++blanks)
    if (tables.has_layer(blanks)) layers.push_back(blanks);
  std::vector<TrainingRecord> records;
  if (layers.empty() || settings.positions == 0) return records;
  const tb::Slot run_length = tb::Slot(std::max(1, settings.run_length));
  std::mt19937_64 random(mix64(settings.seed ^ 0x7461626c65ull));
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const tb::LayerIndex index(layers[i]);
    // Equal shares of what is left: a layer that runs out of positions in the domain (with
    // small settings or few tables) leaves the rest to the larger ones after it.
    const std::uint64_t wanted =
        (settings.positions - records.size()) / std::uint64_t(layers.size() - i);
    // Without replacement: each run of slots is read at most once, so a small layer gives each
    // of its positions once rather than some of them several times.
    const tb::Slot run_count = (index.slot_count() + run_length - 1) / run_length;
    std::vector<bool> visited(run_count, false);
    std::uint64_t found = 0, held_out = 0, slots_read = 0, runs_read = 0;
    while (found < wanted && runs_read < run_count) {
      const tb::Slot run = random_below(random, run_count);
      if (visited[run]) continue;
      visited[run] = true;
      ++runs_read;
      const tb::Slot end = std::min(run * run_length + run_length, index.slot_count());
      for (tb::Slot slot = run * run_length; slot < end && found < wanted; ++slot) {
        ++slots_read;
        const tb::LayerIndex::SlotContent content = index.board_of(slot);
        if (content.hole) continue;
        const Position position(content.board.mover, content.board.opponent, Color::X);
        if (!in_evaluation_domain(position)) continue;
        const std::optional<tb::TbValue> value = tables.probe(position);
        if (!value)
          throw std::runtime_error("layer " + std::to_string(layers[i]) +
                                   " could not be probed: " + tables.last_problem());
        TrainingRecord record = make_record(position, Source::Table,
                                            value->wdl == tb::Wdl::Win    ? 1.0f
                                            : value->wdl == tb::Wdl::Loss ? 0.0f
                                                                          : 0.5f);
        record.validation = is_held_out(position);
        held_out += record.validation;
        records.push_back(record);
        ++found;
      }
    }
    if (progress)
      progress("tables: layer " + std::to_string(layers[i]) + ": " + std::to_string(found) +
               " positions (" + std::to_string(held_out) + " held out) from " +
               std::to_string(slots_read) + " slots" +
               (found < wanted ? " (all of the layer's positions in the domain)" : ""));
  }
  return records;
}

bool is_validation_game(std::uint32_t game, int validation_percent) {
  return int(mix64(0x67616d65ull ^ game) % 100) < validation_percent;
}

std::vector<TrainingRecord> play_games(const SelfPlaySettings& settings, const Progress& progress) {
  return play_games_of<TwoPlayerGame>(settings, progress);
}

std::vector<TrainingRecord> deep_search(const std::vector<TrainingRecord>& games,
                                        const DeepSearchSettings& settings,
                                        const Progress& progress) {
  return deep_search_on_threads<Move, Engine>(
      games, settings, progress, "deep search",
      [](const TrainingRecord& record) { return !is_held_out(record.position()); },
      configure_data_engine<Engine>,
      [](const TrainingRecord& record) { return record.position(); });
}

}  // namespace quixo::train
