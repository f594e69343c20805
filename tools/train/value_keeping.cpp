#include "value_keeping.hpp"

#include <bit>
#include <condition_variable>
#include <iomanip>
#include <mutex>
#include <random>
#include <sstream>

#include "core/move_scan.hpp"
#include "search/engine.hpp"
#include "tb/index.hpp"
#include "training_data.hpp"

namespace quixo::train {

namespace {

constexpr int kMaxBlanks = 25;

std::string share(int kept, int total) {
  if (total == 0) return "-";
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << 100.0 * kept / total << " % (" << kept << "/"
      << total << ")";
  return out.str();
}

// The engine's move for `position` after a search of the settings' nodes or time.
Move search_move(Engine& engine, const Position& position, const ValueKeepingSettings& settings) {
  engine.new_game();
  engine.set_position(position, {});
  SearchLimits limits;
  if (settings.nodes > 0)
    limits.nodes = settings.nodes;
  else
    limits.move_time_ms = settings.move_time_ms;
  std::mutex mutex;
  std::condition_variable answered;
  std::optional<Move> best;
  SearchCallbacks callbacks;
  callbacks.on_bestmove = [&](Move move, Move) {
    const std::lock_guard lock(mutex);
    best = move;
    answered.notify_one();
  };
  engine.go(limits, std::move(callbacks));
  std::unique_lock lock(mutex);
  answered.wait(lock, [&] { return best.has_value(); });
  lock.unlock();
  engine.wait();
  return *best;
}

}  // namespace

std::vector<ValueKeepingPosition> value_keeping_positions(const tb::Tablebase& tables,
                                                          const ValueKeepingSettings& settings) {
  std::vector<int> layers;
  for (int blanks = settings.min_blanks; blanks <= tb::kMaxIndexedLayer; ++blanks)
    if (tables.has_layer(blanks)) layers.push_back(blanks);
  std::vector<ValueKeepingPosition> positions;
  if (layers.empty()) return positions;
  std::mt19937_64 rng(settings.seed);
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const tb::LayerIndex index(layers[i]);
    // Equal shares; the last layer takes what the division leaves.
    const int wanted = i + 1 < layers.size() ? settings.positions / int(layers.size())
                                             : settings.positions - int(positions.size());
    std::uniform_int_distribution<tb::Slot> slot_of(0, index.slot_count() - 1);
    int found = 0;
    // A layer too small to give its share (the tests' layer 1) ends after this many draws.
    for (std::uint64_t tries = 0; found < wanted && tries < 5000 * std::uint64_t(wanted) + 100000;
         ++tries) {
      const tb::LayerIndex::SlotContent content = index.board_of(slot_of(rng));
      if (content.hole) continue;
      const Position position(content.board.mover, content.board.opponent, Color::X);
      if (is_held_out(position) != settings.held_out || !in_evaluation_domain(position)) continue;
      const auto value = tables.probe(position);
      if (!value || value->wdl == tb::Wdl::Loss) continue;
      if (!(value->wdl == tb::Wdl::Win ? settings.wins : settings.draws)) continue;
      if (value->wdl == tb::Wdl::Win && value->distance < settings.min_win_plies) continue;
      const auto moves = tables.probe_moves(position);
      if (!moves) continue;
      ValueKeepingPosition entry{position, value->wdl, 0, int(moves->size())};
      for (const tb::MoveValue& move : *moves) entry.keeping_moves += move.value.wdl == value->wdl;
      if (100 * entry.keeping_moves > settings.max_keeping_percent * entry.legal_moves) continue;
      positions.push_back(entry);
      ++found;
    }
  }
  return positions;
}

ValueKeepingResult measure_value_keeping(const tb::Tablebase& tables,
                                         const std::vector<ValueKeepingPosition>& positions,
                                         const Evaluator& evaluator, const std::string& name,
                                         const ValueKeepingSettings& settings) {
  ValueKeepingResult result;
  result.evaluation = name;
  result.positions_by_blanks.assign(kMaxBlanks + 1, 0);
  result.kept_by_blanks.assign(kMaxBlanks + 1, 0);
  Engine engine;
  EngineOptions options;
  options.hash_mb = 64;
  options.threads = 1;
  engine.set_options(options);
  engine.set_evaluator(evaluator);
  for (const ValueKeepingPosition& entry : positions) {
    const Move move = search_move(engine, entry.position, settings);
    const auto after = tables.probe_moves(entry.position);
    bool kept = false;
    for (const tb::MoveValue& value : after.value_or(std::vector<tb::MoveValue>{}))
      if (value.move == move) kept = value.value.wdl == entry.value;
    const int blanks = std::popcount(entry.position.blanks());
    ++result.positions;
    ++result.positions_by_blanks[blanks];
    (entry.value == tb::Wdl::Win ? result.win_positions : result.draw_positions)++;
    if (!kept) continue;
    ++result.kept;
    ++result.kept_by_blanks[blanks];
    (entry.value == tb::Wdl::Win ? result.win_kept : result.draw_kept)++;
  }
  return result;
}

std::vector<std::string> value_keeping_report(const std::vector<ValueKeepingResult>& results) {
  std::vector<std::string> lines;
  for (const ValueKeepingResult& result : results) {
    std::ostringstream line;
    line << result.evaluation << ": kept " << share(result.kept, result.positions) << "; wins "
         << share(result.win_kept, result.win_positions) << ", draws "
         << share(result.draw_kept, result.draw_positions);
    for (int blanks = 0; blanks <= kMaxBlanks; ++blanks)
      if (result.positions_by_blanks[blanks] > 0)
        line << "; " << blanks << " blank" << (blanks == 1 ? "" : "s") << " "
             << share(result.kept_by_blanks[blanks], result.positions_by_blanks[blanks]);
    lines.push_back(line.str());
  }
  return lines;
}

}  // namespace quixo::train
