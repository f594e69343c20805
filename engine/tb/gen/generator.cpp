#include "tb/gen/generator.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <stdexcept>

#include "core/packed_slides.hpp"
#include "tb/gen/unmove.hpp"
#include "tb/parallel_for.hpp"
#include "tb/tb_file.hpp"

namespace quixo::tb {

namespace {

using Clock = std::chrono::steady_clock;

// cnt value of a position that can never lose: it has a move to a draw of the layer below.
constexpr std::uint8_t kCannotLose = 255;
constexpr std::uint64_t kChunk = 4096;

std::string clock_text(double seconds) {
  const auto whole = long(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", whole / 60, whole % 60);
  return text;
}

// Rate-limited progress lines.
class Progress {
 public:
  Progress(const std::function<void(const std::string&)>& sink, int layer)
      : sink_(sink), layer_(layer), start_(Clock::now()), last_(start_) {}
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  // `fraction` of the phase done, or < 0 when unknown
  void report(const std::string& what, double fraction, bool force = false) {
    if (!sink_) return;
    const std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    if (!force && now - last_ < std::chrono::seconds(2)) return;
    last_ = now;
    std::string line =
        "layer " + std::to_string(layer_) + " " + what + " elapsed " + clock_text(elapsed());
    if (fraction > 0 && fraction < 1)
      line += " eta " + clock_text(phase_elapsed() * (1 - fraction) / fraction);
    sink_(line);
  }
  void start_phase() { phase_start_ = Clock::now(); }
  double phase_elapsed() const {
    return std::chrono::duration<double>(Clock::now() - phase_start_).count();
  }

 private:
  const std::function<void(const std::string&)>& sink_;
  int layer_;
  Clock::time_point start_, last_, phase_start_;
  std::mutex mutex_;
};

void raise_to(std::atomic<int>& maximum, int value) {
  int seen = maximum.load(std::memory_order_relaxed);
  while (seen < value && !maximum.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}

// A small sorted set of distinct slots (a position has at most 44 moves).
struct SlotSet {
  Slot slots[kSlideCount];
  int size = 0;
  void add(Slot slot) { slots[size++] = slot; }
  void make_unique() {
    std::sort(slots, slots + size);
    size = int(std::unique(slots, slots + size) - slots);
  }
};

class LayerSolver {
 public:
  LayerSolver(const LayerIndex& index, const LayerIndex* lower_index,
              std::span<const PackedValue> lower, int threads,
              const std::function<void(const std::string&)>& sink)
      : index_(index),
        lower_index_(lower_index),
        lower_(lower),
        threads_(threads),
        progress_(sink, index.blanks()),
        values_(index.slot_count()),
        counts_(index.slot_count()),
        pending_((index.slot_count() + kChunk - 1) / kChunk) {}

  LayerValues solve() {
    initialise();
    propagate();
    // what is still unresolved can never be forced: a draw
    parallel_for(values_.size(), kChunk * 16, threads_,
                 [&](std::uint64_t begin, std::uint64_t end, int) {
                   for (std::uint64_t slot = begin; slot < end; ++slot)
                     if (wdl_of(values_[slot]) == Wdl::Draw)
                       values_[slot] = pack_value(Wdl::Draw, 0);
                 });
    counts_.clear();
    counts_.shrink_to_fit();
    return std::move(values_);
  }

 private:
  // Unresolved positions hold Wdl::Draw with their loss floor as the distance.
  void initialise() {
    progress_.start_phase();
    std::atomic<std::uint64_t> done{0};
    parallel_for(values_.size(), kChunk, threads_,
                 [&](std::uint64_t begin, std::uint64_t end, int) {
                   for (Slot slot = begin; slot < end; ++slot) initialise_slot(slot);
                   const std::uint64_t total = done.fetch_add(end - begin) + (end - begin);
                   progress_.report("initialising " + std::to_string(total) + "/" +
                                        std::to_string(values_.size()) + " slots",
                                    double(total) / double(values_.size()));
                 });
  }

  void initialise_slot(Slot slot) {
    const auto content = index_.board_of(slot);
    if (content.hole) {
      values_[slot] = pack_value(Wdl::Hole, 0);
      return;
    }
    const Bitboard mover = content.board.mover, opponent = content.board.opponent;
    if (has_line(mover)) return set_final(slot, Wdl::Win, 0);
    if (has_line(opponent)) return set_final(slot, Wdl::Loss, 0);
    int tentative_win = kMaxDistance + 1, floor = 0;
    bool draw_exit = false;
    SlotSet children, below;
    const PackedBoards boards = pack(mover, opponent);
    const Bitboard occupied = mover | opponent;
    for (std::uint64_t legal = slides_from(kBorder & ~opponent); legal; legal &= legal - 1) {
      const int i = std::countr_zero(legal);
      const PackedBoards after = apply_packed(kPackedSlides[i], boards) | kPackedSlides[i].inserted;
      const auto moved = Bitboard(after), other = Bitboard(after >> 32);
      if (has_line(other)) {  // the opponent's line: lost at once
        floor = std::max(floor, 1);
        continue;
      }
      if (has_line(moved)) {
        tentative_win = 1;
        break;
      }
      if (!(occupied & square_bb(kSlides[i].from))) {  // a blank was taken: the layer below
        below.add(lower_index_->slot_of({other, moved}));
        __builtin_prefetch(&lower_[below.slots[below.size - 1]]);
      } else {
        children.add(index_.slot_of({other, moved}));
      }
    }
    // the reads of the layer below come after all are requested, so that their misses overlap
    for (int j = 0; j < below.size && tentative_win > 1; ++j) {
      const PackedValue child = lower_[below.slots[j]];
      const int distance = distance_of(child) + 1;
      if (wdl_of(child) == Wdl::Loss)
        tentative_win = std::min(tentative_win, distance);
      else if (wdl_of(child) == Wdl::Win)
        floor = std::max(floor, distance);
      else
        draw_exit = true;
    }
    if (tentative_win <= kMaxDistance) {
      values_[slot] = pack_value(Wdl::Win, tentative_win);
      note(slot, tentative_win);
      return;
    }
    children.make_unique();
    if (children.size == 0 && !draw_exit) return set_final(slot, Wdl::Loss, floor);
    values_[slot] = pack_value(Wdl::Draw, floor);
    raise_to(max_floor_, floor);
    counts_[slot] = draw_exit ? kCannotLose : std::uint8_t(children.size);
  }

  void set_final(Slot slot, Wdl wdl, int distance) {
    values_[slot] = pack_value(wdl, distance);
    note(slot, distance);
  }

  // Records that `slot` got a value at `distance`: the step that propagates from that distance
  // visits only the chunks marked for it. Marks are kept modulo 256 distances; that is exact as
  // long as no value is ever assigned 256 or more plies beyond the current step (checked below).
  void note(Slot slot, int distance) {
    raise_to(max_assigned_, distance);
    std::atomic_ref(pending_[slot / kChunk][(distance >> 6) & 3])
        .fetch_or(std::uint64_t{1} << (distance & 63), std::memory_order_relaxed);
  }
  bool marked(std::uint64_t chunk, int distance) {
    return (std::atomic_ref(pending_[chunk][(distance >> 6) & 3]).load(std::memory_order_relaxed) >>
            (distance & 63)) &
           1;
  }
  void unmark_all(int distance) {
    for (auto& marks : pending_)
      marks[(distance >> 6) & 3] &= ~(std::uint64_t{1} << (distance & 63));
  }

  // Step d resolves what the positions of final distance d-1 decide: their predecessors win in
  // d (from a loss) or lose one move closer to having no way out (from a win).
  void propagate() {
    // Every distance assigned from here on is at most max(step, the largest floor or tentative
    // win of the initialisation), so 256 distances of marks never alias unless that passes 255.
    const bool exact_marks = std::max(max_floor_.load(), max_assigned_.load()) < 255;
    const std::uint64_t chunks = pending_.size();
    std::uint64_t resolved_total = 0;
    for (int d = 1; d - 1 <= max_assigned_.load(); ++d) {
      progress_.start_phase();
      std::atomic<std::uint64_t> sources{0};
      if (d > 1) {
        parallel_for(chunks, 4, threads_, [&](std::uint64_t begin, std::uint64_t end, int) {
          std::uint64_t local = 0;
          for (std::uint64_t chunk = begin; chunk < end; ++chunk) {
            if (!marked(chunk, d - 1)) continue;
            const Slot last = std::min<Slot>(values_.size(), (chunk + 1) * kChunk);
            for (Slot slot = chunk * kChunk; slot < last; ++slot) {
              const PackedValue value =
                  std::atomic_ref(values_[slot]).load(std::memory_order_relaxed);
              const Wdl wdl = wdl_of(value);
              if ((wdl == Wdl::Win || wdl == Wdl::Loss) && distance_of(value) == d - 1) {
                propagate_from(slot, wdl, d);
                ++local;
              }
            }
          }
          sources += local;
          progress_.report("step " + std::to_string(d) + " (longest so far " +
                               std::to_string(max_assigned_.load()) + ") positions propagated " +
                               std::to_string(resolved_total + sources.load()),
                           -1);
        });
      }
      if (exact_marks) unmark_all(d - 1);
      resolved_total += sources.load();
    }
    progress_.report("solved, longest " + std::to_string(max_assigned_.load()), -1, true);
  }

  void propagate_from(Slot slot, Wdl wdl, int d) {
    const TbBoard board = index_.board_of(slot).board;
    // The predecessor was played by the side not to move here.
    const Bitboard moved = board.opponent, to_move = board.mover;
    SlotSet predecessors;
    for (const UnSlide& u : kUnSlides) {
      // t must hold a cube of the side that moved (f is always free once the segment slides
      // back toward t, so the taken cube goes there)
      if (!(moved & u.required)) continue;
      const UnmovedBoards before = unmove(u, moved, to_move);
      if (has_line_in_either(pack(before.moved_side, before.other_side))) continue;
      const Slot predecessor = index_.slot_of({before.moved_side, before.other_side});
      // request the lines now: the updates below then find most of them in the cache
      __builtin_prefetch(&values_[predecessor], 1);
      if (wdl == Wdl::Win) __builtin_prefetch(&counts_[predecessor], 1);
      predecessors.add(predecessor);
    }
    predecessors.make_unique();
    for (int i = 0; i < predecessors.size; ++i) {
      const Slot p = predecessors.slots[i];
      std::atomic_ref value(values_[p]);
      if (wdl == Wdl::Loss) {  // the predecessor wins in d
        PackedValue seen = value.load(std::memory_order_relaxed);
        for (;;) {
          const Wdl state = wdl_of(seen);
          if (state == Wdl::Loss || state == Wdl::Hole) break;
          if (state == Wdl::Win && distance_of(seen) <= d) break;
          if (value.compare_exchange_weak(seen, pack_value(Wdl::Win, d),
                                          std::memory_order_relaxed)) {
            note(p, d);
            break;
          }
        }
      } else {  // one more of the predecessor's moves leads to a win for the other side
        const PackedValue seen = value.load(std::memory_order_relaxed);
        if (wdl_of(seen) != Wdl::Draw) continue;
        std::atomic_ref count(counts_[p]);
        if (count.load(std::memory_order_relaxed) == kCannotLose) continue;
        if (count.fetch_sub(1, std::memory_order_relaxed) == 1) {
          // every in-layer move now loses; this was the slowest, unless a move to the layer
          // below or an immediate loss lasts longer (the floor)
          const int distance = std::max(d, distance_of(seen));
          value.store(pack_value(Wdl::Loss, distance), std::memory_order_relaxed);
          note(p, distance);
        }
      }
    }
  }

  const LayerIndex& index_;
  const LayerIndex* lower_index_;
  std::span<const PackedValue> lower_;
  int threads_;
  Progress progress_;
  LayerValues values_;
  std::vector<std::uint8_t, HugePageAllocator<std::uint8_t>> counts_;
  std::vector<std::array<std::uint64_t, 4>> pending_;  // per chunk: distances (mod 256) to visit
  std::atomic<int> max_assigned_{0};
  std::atomic<int> max_floor_{0};
};

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return std::uint64_t(usage.ru_maxrss) * 1024;
}

}  // namespace

LayerValues solve_layer(const LayerIndex& index, const LayerIndex* lower_index,
                        std::span<const PackedValue> lower_values, int threads,
                        const std::function<void(const std::string&)>& progress) {
  if (index.blanks() > 0 && (!lower_index || lower_values.size() != lower_index->slot_count()))
    throw std::invalid_argument("solve_layer: layer " + std::to_string(index.blanks()) +
                                " needs the values of the layer below");
  LayerSolver solver(index, lower_index, lower_values, threads, progress);
  return solver.solve();
}

std::vector<LayerReport> generate_tables(const GenerateOptions& options) {
  if (options.blanks < 0 || options.blanks > kMaxIndexedLayer)
    throw std::invalid_argument("--blanks must be between 0 and " +
                                std::to_string(kMaxIndexedLayer));
  std::filesystem::create_directories(options.dir);
  std::vector<LayerReport> reports;
  LayerValues lower;
  std::unique_ptr<LayerIndex> lower_index;
  for (int k = 0; k <= options.blanks; ++k) {
    const auto start = Clock::now();
    const auto path = layer_file_path(options.dir, k);
    auto index = std::make_unique<LayerIndex>(k);
    LayerReport report;
    report.layer = k;
    LayerValues values;
    bool reused = false;
    if (std::filesystem::exists(path)) {
      try {
        const LayerFile file(path, k);
        file.check_file_checksum();
        // the layer below is only needed to build the next one
        if (k < options.blanks) values = file.decode_all(options.threads);
        report.file_bytes = file.file_size();
        report.max_distance = file.info().max_distance;
        reused = true;
        if (options.progress)
          options.progress("layer " + std::to_string(k) + ": reusing " + path.string());
      } catch (const TbFileError& refused) {
        if (options.progress)
          options.progress(std::string("layer ") + std::to_string(k) + ": " + refused.what() +
                           "; generating it again");
      }
    }
    if (!reused) {
      values = solve_layer(*index, lower_index.get(), lower, options.threads, options.progress);
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      report.file_bytes = write_layer_file(path, *index, values, seconds, options.threads,
                                           options.compression_level);
      for (const PackedValue value : values)
        report.max_distance = std::max(report.max_distance, distance_of(value));
    }
    report.reused = reused;
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    report.peak_rss_bytes = peak_rss_bytes();
    reports.push_back(report);
    lower = std::move(values);
    lower_index = std::move(index);
  }
  return reports;
}

}  // namespace quixo::tb
