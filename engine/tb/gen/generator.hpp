// Builds the endgame tables by retrograde analysis, one layer (number of blank cubes) at a time
// and, inside a layer, one component at a time. A layer's moves lead only into itself and into
// the layer below; inside the layer they keep both cube counts and swap the sides, so the layer's
// game graph splits into components {m, n}: the positions whose side to move has m or n cubes,
// m + n the layer's cube count. A component needs its own slots and the same two sections of the
// layer below, nothing else, so memory follows the largest component, an interrupted layer
// resumes at the component it was in, and a cluster can solve the components of a layer as
// independent jobs. docs/design/endgame-tables.md describes the algorithm.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tb/huge_page_allocator.hpp"
#include "tb/index.hpp"
#include "tb/value.hpp"

namespace quixo::tb {

// One component of a layer: the index sections `low` and `high` = cube count - low (low <= high;
// one section when they are equal).
struct Component {
  int layer = 0;
  int low = 0;
  int high = 0;
  constexpr bool operator==(const Component&) const = default;
};

// The components of a layer, by `low` ascending.
std::vector<Component> layer_components(int layer);
// "x,o": the component holding the positions with x and o cubes on the board (either side to
// move), checked against the layer. Throws std::invalid_argument with the reason.
Component parse_component(const std::string& text, int layer);
// "{10,11}"
std::string component_name(const Component& component);

// The slots of two sections of a layer's index as one run: the first section's, then the
// second's (none when both are the same section).
class SectionPair {
 public:
  SectionPair(const LayerIndex& index, int first, int second);
  Slot size() const { return first_size_ + second_size_; }
  bool contains(Slot slot) const {
    return (slot - first_begin_ < first_size_) || (slot - second_begin_ < second_size_);
  }
  // A slot of the layer as a position in the run, and back.
  Slot local(Slot slot) const {
    return slot - first_begin_ < first_size_ ? slot - first_begin_
                                             : slot - second_begin_ + first_size_;
  }
  Slot global(Slot local) const {
    return local < first_size_ ? first_begin_ + local : second_begin_ + (local - first_size_);
  }
  // The two ranges of the layer's slots, [begin, begin + size).
  Slot first_begin() const { return first_begin_; }
  Slot first_size() const { return first_size_; }
  Slot second_begin() const { return second_begin_; }
  Slot second_size() const { return second_size_; }

 private:
  Slot first_begin_, first_size_, second_begin_, second_size_;
};

// Bytes that solving `component` holds: 3 a slot of its own, 2 a slot of the two sections below.
std::uint64_t component_memory_bytes(const Component& component);

struct GenerateOptions {
  std::filesystem::path dir;
  int blanks = 0;  // generate layers 0..blanks
  int threads = 1;
  int compression_level = 9;
  // What the distances of layer `blanks` count (value.hpp); the layers below it always count to
  // the end. A layer file of the other count already in `dir` is refused, not replaced: a layer
  // counting to its exit goes to a folder of its own.
  DistanceCount top_layer_distance = DistanceCount::GameEnd;
  // Solve this component of layer `blanks` only, into its part files (the layers below must be
  // there): one job of a cluster's array. The layer file is written by a later run without it.
  std::optional<Component> only_component;
  // Receives progress lines (every couple of seconds on long layers); may be empty.
  std::function<void(const std::string&)> progress;
};

struct LayerReport {
  int layer = 0;
  bool reused = false;   // a valid file was already there
  bool written = false;  // the layer file was written (false after a run of one component)
  int components_solved = 0;
  int components_reused = 0;  // their part files were there from an earlier run or another job
  double seconds = 0;
  std::uint64_t file_bytes = 0;
  std::uint64_t wdl_bytes = 0;  // its win/draw/loss file (0 after a run of one component)
  bool wdl_written = false;     // that file was written, not reused
  int max_distance = 0;
  std::uint64_t peak_rss_bytes = 0;  // of the whole process, after the layer
};

// Writes DIR/quixo-b{k}.qtb and its win/draw/loss file DIR/quixo-b{k}.qtbw for k = 0..blanks,
// reusing every file that is already there and valid. A layer is solved component by component;
// each component's values go to part files (DIR/quixo-b{k}.parts/section-{m}.values) first, so an
// interrupted run resumes at the component it was in. Once a layer's parts are all there they
// become its file and are removed. With `only_component`, solves that one component into its parts.
// Throws TbFileError or std::runtime_error on failure.
std::vector<LayerReport> generate_tables(const GenerateOptions& options);

// Where the values of section `section` of layer `layer` wait for the layer file.
std::filesystem::path section_part_path(const std::filesystem::path& dir, int layer, int section);

// Solves one component: one PackedValue per slot of SectionPair(index, low, high), given the
// values of the layer below on SectionPair(lower_index, low, high) (empty for layer 0), its
// distances counted as `distance_count` says (the lower values' distances are not read when they
// count to the layer's exit). Exposed for the tests.
LayerValues solve_component(const LayerIndex& index, const Component& component,
                            const LayerIndex* lower_index,
                            std::span<const PackedValue> lower_values, int threads,
                            const std::function<void(const std::string&)>& progress = {},
                            DistanceCount distance_count = DistanceCount::GameEnd);

// Solves a whole layer in memory, component by component, given the whole layer below (empty for
// layer 0). Exposed for the tests.
LayerValues solve_layer(const LayerIndex& index, const LayerIndex* lower_index,
                        std::span<const PackedValue> lower_values, int threads,
                        const std::function<void(const std::string&)>& progress = {});

}  // namespace quixo::tb
