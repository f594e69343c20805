#include "data_sources.hpp"
#include "parallel_work.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>

#include "core/move_scan.hpp"
#include "core/thread_start.hpp"
#include "search/engine.hpp"
#include "search/limits.hpp"
#include "tb/index.hpp"

namespace quixo::train {

namespace {

// One move of a set, drawn at random; the set must not be empty.
Move random_move_of(std::mt19937_64& random, SlideSet moves) {
  for (auto skip = random_below(random, std::uint64_t(std::popcount(moves))); skip > 0; --skip)
    moves &= moves - 1;
  return Move(SlideIndex(std::countr_zero(moves)));
}

SlideSet safe_moves(const MoveScan& scan) {
  return scan.legal & ~scan.losses;
}

void configure(Engine& engine, int hash_mb) {
  EngineOptions options;
  options.threads = 1;  // one thread: a search at fixed nodes, and so the data, is deterministic
  options.hash_mb = hash_mb;
  engine.set_options(options);
  // The hand-written evaluation plays and scores, whatever the engine's default: the shipped
  // weights were fitted to its games, and the same command must make them again.
  engine.set_evaluator(Evaluator());
}

// The start of a game: random moves that do not lose at once, drawn again until the game is
// still on and the side to move has no win in one after them.
Position random_opening(std::mt19937_64& random, const SelfPlaySettings& settings,
                        std::vector<std::uint64_t>& history) {
  for (;;) {
    history.clear();
    Position position = Position::start();
    const int plies = settings.opening_min_plies +
                      int(random_below(random, std::uint64_t(settings.opening_max_plies -
                                                             settings.opening_min_plies + 1)));
    bool playable = true;
    for (int ply = 0; ply < plies && playable; ++ply) {
      const SlideSet moves = safe_moves(scan_moves(position));
      if (moves == 0) {
        playable = false;
        break;
      }
      history.push_back(position.key());
      position = position.after(random_move_of(random, moves));
      playable = !position.is_game_over();
    }
    if (playable && scan_moves(position).wins == 0) return position;
  }
}

std::vector<TrainingRecord> play_game(Engine& engine, std::uint32_t game,
                                      const SelfPlaySettings& settings) {
  std::mt19937_64 random(mix64(settings.seed ^ mix64(game)));
  std::vector<std::uint64_t> history;
  Position position = random_opening(random, settings, history);
  std::unordered_map<std::uint64_t, int> seen;
  for (const std::uint64_t key : history) ++seen[key];
  ++seen[position.key()];
  SearchLimits limits;
  limits.nodes = settings.nodes;
  std::vector<TrainingRecord> records;
  Outcome outcome = Outcome::Ongoing;
  engine.new_game();
  for (;;) {
    if (position.is_game_over()) {
      outcome = position.outcome();
      break;
    }
    // A third occurrence, or a game too long: a draw (outcome stays Ongoing).
    if (seen[position.key()] >= 3 || int(history.size()) >= settings.max_plies) break;
    const MoveScan scan = scan_moves(position);
    if (in_evaluation_domain(position)) records.push_back(make_record(position, Source::Game, 0));
    // Drawn every ply, so that a game's random numbers do not depend on the engine's moves.
    const bool random_move = random_unit(random) < settings.random_move_rate;
    Move move;
    if (random_move && scan.wins == 0 && safe_moves(scan) != 0) {
      move = random_move_of(random, safe_moves(scan));
    } else {
      engine.set_position(position, history);
      move = search<Move>(engine, limits).best;
      if (move.is_none() || !position.is_legal(move))
        throw std::runtime_error("the engine answered no legal move in a self-play game");
    }
    history.push_back(position.key());
    position = position.after(move);
    ++seen[position.key()];
  }
  const bool validation = is_validation_game(game, settings.validation_percent);
  for (TrainingRecord& record : records) {
    record.game = game;
    record.validation = validation;
    record.label = outcome == Outcome::Ongoing          ? 0.5f
                   : outcome == win_for(record.to_move) ? 1.0f
                                                        : 0.0f;
  }
  return records;
}

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
  return play_games_on_threads<Engine, TrainingRecord>(
      settings, progress, "self-play", configure, [&settings](Engine& engine, std::uint32_t game) {
        return play_game(engine, game, settings);
      });
}

std::vector<TrainingRecord> deep_search(const std::vector<TrainingRecord>& games,
                                        const DeepSearchSettings& settings,
                                        const Progress& progress) {
  return deep_search_on_threads<Move, Engine>(
      games, settings, progress, "deep search",
      [](const TrainingRecord& record) { return !is_held_out(record.position()); }, configure,
      [](const TrainingRecord& record) { return record.position(); });
}

}  // namespace quixo::train
