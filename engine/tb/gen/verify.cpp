#include "tb/gen/verify.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <span>
#include <stdexcept>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/symmetry.hpp"
#include "tb/parallel_for.hpp"

namespace quixo::tb {

VerifyReport verify_layer(const LayerIndex& index, std::span<const PackedValue> values,
                          const LayerIndex* lower_index, std::span<const PackedValue> lower_values,
                          int threads, SlotSelection selection, DistanceCount distance_count) {
  if (selection.step == 0) throw std::invalid_argument("verify_layer: a step of 0 slots");
  VerifyReport report;
  std::atomic<std::uint64_t> failures{0};
  std::mutex errors_mutex;
  auto fail = [&](const Position& position, const std::string& what) {
    failures.fetch_add(1, std::memory_order_relaxed);
    const std::lock_guard lock(errors_mutex);
    if (report.first_errors.size() < 10)
      report.first_errors.push_back(to_string(position) + ": " + what);
  };
  auto value_of = [&](const Position& position) -> TbValue {
    const TbBoard board{position.cubes(Color::X), position.cubes(Color::O)};
    const int blanks = std::popcount(position.blanks());
    if (blanks == index.blanks()) return unpack_value(values[index.slot_of(board)]);
    TbValue lower = unpack_value(lower_values[lower_index->slot_of(board)]);
    if (distance_count == DistanceCount::LayerExit) lower.distance = 0;
    return lower;
  };
  const Slot first = std::min<Slot>(selection.begin, values.size());
  const Slot last = std::clamp<Slot>(selection.end, first, values.size());
  const std::uint64_t count = last == first ? 0 : (last - first - 1) / selection.step + 1;
  parallel_for(count, 4096, threads, [&](std::uint64_t begin, std::uint64_t end, int) {
    for (std::uint64_t k = begin; k < end; ++k) {
      const Slot slot = first + k * selection.step;
      const auto content = index.board_of(slot);
      // the mover plays X here, so that the forward generator sees a plain position
      const Position position(content.board.mover, content.board.opponent, Color::X);
      const TbValue stored = unpack_value(values[slot]);
      if (content.hole) {
        if (stored.wdl != Wdl::Hole) fail(position, "slot " + std::to_string(slot) + " is a hole");
        continue;
      }
      if (stored.wdl == Wdl::Hole) {
        fail(position, "stored as a hole");
        continue;
      }
      bool maps_back = true;
      for (Symmetry g : kAllSymmetries)
        maps_back = maps_back && index.slot_of({transform(g, content.board.mover),
                                                transform(g, content.board.opponent)}) == slot;
      if (!maps_back) {
        fail(position, "a symmetric image does not map to slot " + std::to_string(slot));
        continue;
      }
      TbValue expected;
      const Outcome outcome = position.outcome();
      if (outcome != Outcome::Ongoing) {
        expected = {outcome == Outcome::XWins ? Wdl::Win : Wdl::Loss, 0};
      } else {
        int best = -1000000;
        for (const Move move : position.legal_moves()) {
          const Position child = position.after(move);
          // the child from its mover's (O's) point of view, as X to move
          const Position flipped(child.cubes(Color::O), child.cubes(Color::X), Color::X);
          TbValue value;
          if (const Outcome ended = child.outcome(); ended != Outcome::Ongoing)
            value = ended == Outcome::XWins ? TbValue{Wdl::Win, 1} : TbValue{Wdl::Loss, 1};
          else
            value = value_of(flipped).before_move();
          if (preference(value) > best) {
            best = preference(value);
            expected = value;
          }
        }
      }
      if (stored != expected)
        fail(position, "stored " + to_string(stored) + ", expected " + to_string(expected));
    }
  });
  report.checked = count;
  report.failures = failures.load();
  return report;
}

std::vector<StatsRow> layer_stats(const LayerIndex& index, std::span<const PackedValue> values,
                                  int threads) {
  const int cubes = index.cube_count();
  std::vector<std::vector<StatsRow>> per_thread(std::max(1, threads),
                                                std::vector<StatsRow>(cubes + 1));
  parallel_for(values.size(), 1 << 16, threads, [&](std::uint64_t begin, std::uint64_t end, int t) {
    auto& rows = per_thread[t];
    for (Slot slot = begin; slot < end; ++slot) {
      const Wdl wdl = wdl_of(values[slot]);
      if (wdl == Wdl::Hole) continue;
      const auto content = index.board_of(slot);
      const std::uint64_t boards = std::uint64_t(index.class_size(content.board));
      StatsRow& row = rows[std::popcount(content.board.mover)];  // O, the mover, has this many
      (wdl == Wdl::Win ? row.win : wdl == Wdl::Loss ? row.loss : row.draw) += boards;
    }
  });
  std::vector<StatsRow> rows;
  for (int x = cubes; x >= 0; --x) {
    StatsRow row;
    row.x = x;
    row.o = cubes - x;
    for (const auto& counts : per_thread) {
      row.win += counts[row.o].win;
      row.loss += counts[row.o].loss;
      row.draw += counts[row.o].draw;
    }
    rows.push_back(row);
  }
  return rows;
}

std::string format_stats(const std::vector<StatsRow>& rows) {
  std::string text;
  for (const StatsRow& row : rows)
    text += std::to_string(row.x) + " " + std::to_string(row.o) + " " + std::to_string(row.win) +
            " " + std::to_string(row.loss) + " " + std::to_string(row.draw) + "\n";
  return text;
}

}  // namespace quixo::tb
