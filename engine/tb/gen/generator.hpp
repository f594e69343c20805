// Builds the endgame tables by retrograde analysis, one layer (number of blank cubes) at a time.
// A layer's moves lead only into itself and into the layer below, so layer k needs the file of
// layer k-1 and nothing else. docs/design/endgame-tables.md describes the algorithm.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "tb/huge_page_allocator.hpp"
#include "tb/index.hpp"
#include "tb/value.hpp"

namespace quixo::tb {

struct GenerateOptions {
  std::filesystem::path dir;
  int blanks = 0;  // generate layers 0..blanks
  int threads = 1;
  int compression_level = 9;
  // Receives progress lines (every couple of seconds on long layers); may be empty.
  std::function<void(const std::string&)> progress;
};

struct LayerReport {
  int layer = 0;
  bool reused = false;  // a valid file was already there
  double seconds = 0;
  std::uint64_t file_bytes = 0;
  int max_distance = 0;
  std::uint64_t peak_rss_bytes = 0;  // of the whole process, after the layer
};

// Writes DIR/quixo-b{k}.qtb for k = 0..blanks, reusing every layer file that is already there
// and valid (so an interrupted run resumes at the layer it was in). Throws TbFileError or
// std::runtime_error on failure.
std::vector<LayerReport> generate_tables(const GenerateOptions& options);

// Solves one layer in memory: one PackedValue per slot of `index`, given the values of the layer
// below (empty for layer 0). Exposed for the tests.
LayerValues solve_layer(const LayerIndex& index, const LayerIndex* lower_index,
                        std::span<const PackedValue> lower_values, int threads,
                        const std::function<void(const std::string&)>& progress = {});

}  // namespace quixo::tb
