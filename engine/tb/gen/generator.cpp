#include "tb/gen/generator.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <stdexcept>

#include "core/packed_slides.hpp"
#include "tb/file_bytes.hpp"
#include "tb/gen/unmove.hpp"
#include "tb/parallel_for.hpp"
#include "tb/tb_file.hpp"
#include "tb/wdl_file.hpp"

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
  Progress(const std::function<void(const std::string&)>& sink, std::string label)
      : sink_(sink), label_(std::move(label)), start_(Clock::now()), last_(start_) {}
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  // `fraction` of the phase done, or < 0 when unknown
  void report(const std::string& what, double fraction, bool force = false) {
    if (!sink_) return;
    const std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    if (!force && now - last_ < std::chrono::seconds(2)) return;
    last_ = now;
    std::string line = label_ + " " + what + " elapsed " + clock_text(elapsed());
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
  std::string label_;
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

// Solves one component. Its slots are numbered locally (SectionPair::local), and so are the
// slots of the two sections of the layer below that its positions reach.
class ComponentSolver {
 public:
  ComponentSolver(const LayerIndex& index, const Component& component,
                  const LayerIndex* lower_index, std::span<const PackedValue> lower,
                  DistanceCount distance_count, int threads,
                  const std::function<void(const std::string&)>& sink)
      : index_(index),
        pair_(index, component.low, component.high),
        lower_index_(lower_index),
        lower_pair_(lower_index ? SectionPair(*lower_index, component.low, component.high)
                                : SectionPair(index, component.low, component.low)),
        lower_(lower),
        exit_ends_count_(distance_count == DistanceCount::LayerExit),
        threads_(threads),
        progress_(sink,
                  "layer " + std::to_string(index.blanks()) + " " + component_name(component)),
        values_(pair_.size()),
        counts_(pair_.size()),
        pending_((pair_.size() + kChunk - 1) / kChunk) {}

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
    const auto content = index_.board_of(pair_.global(slot));
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
        below.add(lower_pair_.local(lower_index_->slot_of({other, moved})));
        __builtin_prefetch(&lower_[below.slots[below.size - 1]]);
      } else {
        children.add(pair_.local(index_.slot_of({other, moved})));
      }
    }
    // the reads of the layer below come after all are requested, so that their misses overlap
    for (int j = 0; j < below.size && tentative_win > 1; ++j) {
      const PackedValue child = lower_[below.slots[j]];
      // Counting to the layer's exit, every position below is where the count ends.
      const int distance = (exit_ends_count_ ? 0 : distance_of(child)) + 1;
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
    const TbBoard board = index_.board_of(pair_.global(slot)).board;
    // The predecessor was played by the side not to move here.
    const Bitboard moved = board.opponent, to_move = board.mover;
    SlotSet predecessors;
    for (const UnSlide& u : kUnSlides) {
      // t must hold a cube of the side that moved (f is always free once the segment slides
      // back toward t, so the taken cube goes there)
      if (!(moved & u.required)) continue;
      const UnmovedBoards before = unmove(u, moved, to_move);
      if (has_line_in_either(pack(before.moved_side, before.other_side))) continue;
      const Slot predecessor = pair_.local(index_.slot_of({before.moved_side, before.other_side}));
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
  SectionPair pair_;
  const LayerIndex* lower_index_;
  SectionPair lower_pair_;
  std::span<const PackedValue> lower_;
  bool exit_ends_count_;
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

// A section's part file: a 64-byte header (magic, layer, section, slot count, the CRC-32 of the
// values, what the distances count, then the header's own CRC-32) and the section's values as
// little-endian u16. Written through a temporary file that is synced and renamed, so a part that is
// there is whole.
constexpr char kPartMagic[8] = {'Q', 'X', 'P', 'A', 'R', 'T', '1', '\0'};
constexpr std::size_t kPartHeaderBytes = 64;

using file_bytes::crc32;
using file_bytes::get;
using file_bytes::put;

void write_section_part(const std::filesystem::path& path, int layer, int section,
                        DistanceCount distance_count, std::span<const PackedValue> values) {
  std::uint8_t header[kPartHeaderBytes] = {};
  std::memcpy(header, kPartMagic, sizeof(kPartMagic));
  put<std::uint32_t>(header, 8, std::uint32_t(layer));
  put<std::uint32_t>(header, 12, std::uint32_t(section));
  put<std::uint64_t>(header, 16, values.size());
  put<std::uint32_t>(header, 24, crc32(values.data(), values.size_bytes()));
  put<std::uint32_t>(header, 28, std::uint32_t(distance_count));
  put<std::uint32_t>(header, kPartHeaderBytes - 4, crc32(header, kPartHeaderBytes - 4));
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(header), kPartHeaderBytes);
    out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size_bytes()));
    out.close();
    if (!out) throw TbFileError("cannot write " + temporary.string());
  }
  file_bytes::sync_and_rename(temporary, path);
}

// A part file mapped for reading, checked against the section it should hold.
class SectionPart {
 public:
  SectionPart(const std::filesystem::path& path, int layer, int section,
              DistanceCount distance_count, Slot slots, bool check_values)
      : name_(path.string()) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw TbFileError(name_ + ": cannot open: " + std::strerror(errno));
    struct stat status {};
    const bool regular = ::fstat(fd, &status) == 0 && S_ISREG(status.st_mode);
    size_ = regular ? std::uint64_t(status.st_size) : 0;
    if (!regular || size_ != kPartHeaderBytes + slots * sizeof(PackedValue)) {
      ::close(fd);
      throw TbFileError(name_ + ": is not the part file of a section of " + std::to_string(slots) +
                        " slots (wrong size)");
    }
    void* mapping = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (mapping == MAP_FAILED) throw TbFileError(name_ + ": cannot map: " + std::strerror(errno));
    mapping_ = mapping;
    const auto* bytes = static_cast<const std::uint8_t*>(mapping);
    values_ = {reinterpret_cast<const PackedValue*>(bytes + kPartHeaderBytes), slots};
    const char* problem = nullptr;
    if (std::memcmp(bytes, kPartMagic, sizeof(kPartMagic)) != 0 ||
        get<std::uint32_t>(bytes, kPartHeaderBytes - 4) != crc32(bytes, kPartHeaderBytes - 4))
      problem = "bad header";
    else if (get<std::uint32_t>(bytes, 8) != std::uint32_t(layer) ||
             get<std::uint32_t>(bytes, 12) != std::uint32_t(section) ||
             get<std::uint64_t>(bytes, 16) != slots)
      problem = "holds another section";
    else if (get<std::uint32_t>(bytes, 28) != std::uint32_t(distance_count))
      problem = "counts other distances";
    else if (check_values &&
             get<std::uint32_t>(bytes, 24) != crc32(values_.data(), values_.size_bytes()))
      problem = "checksum mismatch";
    if (problem) {
      ::munmap(mapping_, size_);
      throw TbFileError(name_ + ": " + problem);
    }
  }
  ~SectionPart() { ::munmap(mapping_, size_); }
  SectionPart(const SectionPart&) = delete;
  SectionPart& operator=(const SectionPart&) = delete;
  std::span<const PackedValue> values() const { return values_; }

 private:
  std::string name_;
  void* mapping_ = nullptr;
  std::uint64_t size_ = 0;
  std::span<const PackedValue> values_;
};

Slot section_size(const LayerIndex& index, int section) {
  return index.section_end(section) - index.section_begin(section);
}

// Whether both sections of `component` have whole part files.
bool component_parts_exist(const std::filesystem::path& dir, const LayerIndex& index,
                           const Component& component, DistanceCount distance_count) {
  for (const int section : {component.low, component.high}) {
    const auto path = section_part_path(dir, component.layer, section);
    if (!std::filesystem::exists(path)) return false;
    try {
      SectionPart(path, component.layer, section, distance_count, section_size(index, section),
                  true);
    } catch (const TbFileError&) {
      return false;  // solved again and rewritten
    }
  }
  return true;
}

// The values of the two sections of the layer below that `component` reaches.
LayerValues read_lower_sections(const LayerFile& lower_file, const LayerIndex& lower_index,
                                const Component& component, int threads) {
  const SectionPair pair(lower_index, component.low, component.high);
  LayerValues values(pair.size());
  lower_file.decode_range(pair.first_begin(), std::span(values).subspan(0, pair.first_size()),
                          threads);
  lower_file.decode_range(pair.second_begin(),
                          std::span(values).subspan(pair.first_size(), pair.second_size()),
                          threads);
  return values;
}

// Writes the layer file from its sections' part files, then removes them.
std::uint64_t assemble_layer(const std::filesystem::path& dir, const LayerIndex& index, int threads,
                             int compression_level, DistanceCount distance_count) {
  const int layer = index.blanks();
  std::vector<std::unique_ptr<SectionPart>> parts;
  for (int m = 0; m < index.section_count(); ++m)
    parts.push_back(std::make_unique<SectionPart>(section_part_path(dir, layer, m), layer, m,
                                                  distance_count, section_size(index, m), false));
  const auto bytes = write_layer_file(
      layer_file_path(dir, layer), index,
      [&](Slot first, std::span<PackedValue> out) {
        for (Slot done = 0; done < out.size();) {
          const Slot slot = first + done;
          const int m = index.section_of(slot);
          const auto values = parts[m]->values();
          const Slot offset = slot - index.section_begin(m);
          const Slot count = std::min<Slot>(out.size() - done, values.size() - offset);
          std::copy_n(values.begin() + std::ptrdiff_t(offset), count,
                      out.begin() + std::ptrdiff_t(done));
          done += count;
        }
      },
      threads, compression_level, distance_count);
  parts.clear();
  std::filesystem::remove_all(section_part_path(dir, layer, 0).parent_path());
  return bytes;
}

}  // namespace

std::vector<Component> layer_components(int layer) {
  const int cubes = kSquareCount - layer;
  std::vector<Component> components;
  for (int low = 0; 2 * low <= cubes; ++low) components.push_back({layer, low, cubes - low});
  return components;
}

Component parse_component(const std::string& text, int layer) {
  const int cubes = kSquareCount - layer;
  int x = -1, o = -1;
  char comma = 0;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%n", &x, &comma, &o, &consumed) != 3 || comma != ',' ||
      consumed != int(text.size()) || x < 0 || o < 0)
    throw std::invalid_argument("--component \"" + text +
                                "\": expected two cube counts, x,o (for example 10,11)");
  if (x + o != cubes)
    throw std::invalid_argument("--component " + text + ": layer " + std::to_string(layer) +
                                " has " + std::to_string(cubes) + " cubes, so x + o must be " +
                                std::to_string(cubes));
  return {layer, std::min(x, o), std::max(x, o)};
}

std::string component_name(const Component& component) {
  return "{" + std::to_string(component.low) + "," + std::to_string(component.high) + "}";
}

SectionPair::SectionPair(const LayerIndex& index, int first, int second)
    : first_begin_(index.section_begin(first)),
      first_size_(index.section_end(first) - index.section_begin(first)),
      second_begin_(index.section_begin(second)),
      second_size_(first == second ? 0 : index.section_end(second) - index.section_begin(second)) {}

std::uint64_t component_memory_bytes(const Component& component) {
  const LayerIndex index(component.layer);
  std::uint64_t bytes = SectionPair(index, component.low, component.high).size() * 3;
  if (component.layer > 0)
    bytes += SectionPair(LayerIndex(component.layer - 1), component.low, component.high).size() *
             sizeof(PackedValue);
  return bytes;
}

std::filesystem::path section_part_path(const std::filesystem::path& dir, int layer, int section) {
  return dir / ("quixo-b" + std::to_string(layer) + ".parts") /
         ("section-" + std::to_string(section) + ".values");
}

LayerValues solve_component(const LayerIndex& index, const Component& component,
                            const LayerIndex* lower_index,
                            std::span<const PackedValue> lower_values, int threads,
                            const std::function<void(const std::string&)>& progress,
                            DistanceCount distance_count) {
  if (component.layer != index.blanks() || component.low > component.high ||
      component.low + component.high != index.cube_count())
    throw std::invalid_argument("solve_component: " + component_name(component) +
                                " is not a component of layer " + std::to_string(index.blanks()));
  if (index.blanks() > 0 &&
      (!lower_index || lower_index->blanks() != index.blanks() - 1 ||
       lower_values.size() != SectionPair(*lower_index, component.low, component.high).size()))
    throw std::invalid_argument("solve_component: layer " + std::to_string(index.blanks()) +
                                " needs the values of the layer below");
  ComponentSolver solver(index, component, index.blanks() > 0 ? lower_index : nullptr, lower_values,
                         distance_count, threads, progress);
  return solver.solve();
}

LayerValues solve_layer(const LayerIndex& index, const LayerIndex* lower_index,
                        std::span<const PackedValue> lower_values, int threads,
                        const std::function<void(const std::string&)>& progress) {
  if (index.blanks() > 0 && (!lower_index || lower_values.size() != lower_index->slot_count()))
    throw std::invalid_argument("solve_layer: layer " + std::to_string(index.blanks()) +
                                " needs the values of the layer below");
  LayerValues values(index.slot_count());
  for (const Component& component : layer_components(index.blanks())) {
    LayerValues lower;
    if (lower_index) {
      const SectionPair pair(*lower_index, component.low, component.high);
      lower.resize(pair.size());
      for (Slot local = 0; local < pair.size(); ++local)
        lower[local] = lower_values[pair.global(local)];
    }
    const SectionPair pair(index, component.low, component.high);
    const LayerValues solved =
        solve_component(index, component, lower_index, lower, threads, progress);
    for (Slot local = 0; local < pair.size(); ++local) values[pair.global(local)] = solved[local];
  }
  return values;
}

std::vector<LayerReport> generate_tables(const GenerateOptions& options) {
  if (options.blanks < 0 || options.blanks > kMaxIndexedLayer)
    throw std::invalid_argument("--blanks must be between 0 and " +
                                std::to_string(kMaxIndexedLayer));
  if (options.only_component && options.only_component->layer != options.blanks)
    throw std::invalid_argument("the component to solve is not of layer " +
                                std::to_string(options.blanks));
  std::filesystem::create_directories(options.dir);
  auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  std::vector<LayerReport> reports;
  for (int k = 0; k <= options.blanks; ++k) {
    const auto start = Clock::now();
    const auto path = layer_file_path(options.dir, k);
    const LayerIndex index(k);
    LayerReport report;
    report.layer = k;
    const DistanceCount distance_count =
        k == options.blanks ? options.top_layer_distance : DistanceCount::GameEnd;
    if (std::filesystem::exists(path)) {
      try {
        const LayerFile file(path, k);
        // A valid file of the other count is someone's tables: refused, never overwritten.
        if (file.info().distance_count != distance_count)
          throw std::runtime_error(
              path.string() + " counts its distances to the " +
              (file.info().distance_count == DistanceCount::LayerExit ? "layer's exit"
                                                                      : "end of the game") +
              (k == options.blanks
                   ? ", not as asked: generate into another folder"
                   : ": the layers below the one generated must count to the end of the game"));
        file.check_file_checksum();
        report.file_bytes = file.file_size();
        report.max_distance = file.info().max_distance;
        report.reused = true;
        say("layer " + std::to_string(k) + ": reusing " + path.string());
      } catch (const TbFileError& refused) {
        say(std::string("layer ") + std::to_string(k) + ": " + refused.what() +
            "; generating it again");
      }
    }
    if (!report.reused && options.only_component && k < options.blanks)
      throw std::runtime_error("layer " + std::to_string(k) + " (" + path.string() +
                               ") is needed before a component of layer " +
                               std::to_string(options.blanks) + " can be solved");
    if (!report.reused) {
      std::unique_ptr<LayerFile> lower_file;
      std::unique_ptr<LayerIndex> lower_index;
      if (k > 0) {
        lower_file = std::make_unique<LayerFile>(layer_file_path(options.dir, k - 1), k - 1);
        lower_index = std::make_unique<LayerIndex>(k - 1);
      }
      std::filesystem::create_directories(section_part_path(options.dir, k, 0).parent_path());
      std::vector<Component> components = layer_components(k);
      if (options.only_component) components = {*options.only_component};
      // The layer's time left, from the slots solved so far in this run.
      const Slot total_slots = options.only_component ? 0 : index.slot_count();
      Slot done_slots = 0, solved_slots = 0;
      double solving_seconds = 0;
      for (std::size_t i = 0; i < components.size(); ++i) {
        const Component& component = components[i];
        const SectionPair pair(index, component.low, component.high);
        const std::string name = "layer " + std::to_string(k) + " " + component_name(component);
        if (component_parts_exist(options.dir, index, component, distance_count)) {
          ++report.components_reused;
          done_slots += pair.size();
          say(name + ": reusing its part files");
          continue;
        }
        const auto component_start = Clock::now();
        auto since = [](Clock::time_point then) {
          return std::chrono::duration<double>(Clock::now() - then).count();
        };
        // The layer's time left, at the pace of the components solved so far in this run: shown
        // once they hold 5 % of the layer's slots (the small ones' fixed costs mislead before).
        auto layer_eta = [&]() -> std::string {
          if (total_slots == 0 || solved_slots * 20 < total_slots) return "";
          const double per_slot = solving_seconds / double(solved_slots);
          const double left = per_slot * double(total_slots - done_slots) - since(component_start);
          return ", layer eta " + clock_text(std::max(0.0, left));
        };
        // The solver's lines (its steps have no known end) carry the layer's estimate.
        const auto component_progress = [&](const std::string& line) {
          if (options.progress) options.progress(line + layer_eta());
        };
        LayerValues lower;
        if (lower_file)
          lower = read_lower_sections(*lower_file, *lower_index, component, options.threads);
        const LayerValues values =
            solve_component(index, component, lower_index.get(), lower, options.threads,
                            component_progress, distance_count);
        const std::span<const PackedValue> all(values);
        write_section_part(section_part_path(options.dir, k, component.low), k, component.low,
                           distance_count, all.subspan(0, pair.first_size()));
        if (component.high != component.low)
          write_section_part(section_part_path(options.dir, k, component.high), k, component.high,
                             distance_count, all.subspan(pair.first_size()));
        ++report.components_solved;
        const double seconds = since(component_start);
        done_slots += pair.size();
        solved_slots += pair.size();
        solving_seconds += seconds;
        std::string line = name + ": solved (" + std::to_string(i + 1) + "/" +
                           std::to_string(components.size()) + ") in " + clock_text(seconds);
        if (total_slots > 0 && done_slots < total_slots)
          line += ", " + std::to_string(int(100.0 * double(done_slots) / double(total_slots))) +
                  "% of the layer's slots done" + layer_eta();
        say(line);
      }
      if (!options.only_component) {
        report.file_bytes = assemble_layer(options.dir, index, options.threads,
                                           options.compression_level, distance_count);
        report.max_distance = LayerFile(path, k).info().max_distance;
        report.written = true;
      }
    }
    // The layer's win/draw/loss file, from its layer file, unless a valid one is there. Not in a
    // run of one component: the jobs of an array would write the same file at once.
    if (!options.only_component) {
      const LayerFile file(path, k);
      const auto wdl_path = wdl_file_path(options.dir, k);
      try {
        if (std::filesystem::exists(wdl_path)) {
          const WdlFile wdl(wdl_path, k, file.file_checksum());
          wdl.check_checksum();
          report.wdl_bytes = wdl.file_size();
        }
      } catch (const TbFileError& refused) {
        say(std::string("layer ") + std::to_string(k) + ": " + refused.what() +
            "; writing it again");
      }
      if (report.wdl_bytes == 0) {
        report.wdl_bytes = write_wdl_file(wdl_path, file, options.threads);
        report.wdl_written = true;
        say("layer " + std::to_string(k) + ": wrote " + wdl_path.string());
      }
    }
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    report.peak_rss_bytes = peak_rss_bytes();
    reports.push_back(report);
  }
  return reports;
}

}  // namespace quixo::tb
