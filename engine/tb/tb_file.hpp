// One layer of the endgame tables on disk: `quixo-b{k}.qtb`.
//
// Layout (little-endian): a 4096-byte header (magic, version, layer, index scheme, encoding,
// counts, what the distances count (value.hpp), per-section statistics, then its own CRC-32), a
// block table (one file offset per block and one past the last, then its CRC-32), the blocks, and a
// trailer (the CRC-32 of everything before it, then the magic again). A block is one zstd frame,
// with zstd's content checksum, of 16384 slots: their 2-bit codes (Wdl), then their distances as u8
// (encoding 1) or u16 (encoding 2, when a distance passes 255). Holes, draws and finished boards
// store distance 0. A file whose header, block table, size or trailer does not check out is refused
// when opened; a block that does not decode is refused when it is read.
// docs/design/endgame-tables.md has why.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/file_bytes.hpp"
#include "tb/huge_page_allocator.hpp"
#include "tb/index.hpp"
#include "tb/value.hpp"

namespace quixo::tb {

class TbFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::uint32_t kBlockSlots = 16384;
inline constexpr std::uint32_t kFileVersion = 1;
inline constexpr std::uint32_t kIndexScheme = 1;
inline constexpr std::size_t kHeaderBytes = 4096;

// "quixo-b2.qtb" in `dir`.
std::filesystem::path layer_file_path(const std::filesystem::path& dir, int layer);

// Class counts (slots, not boards) of one section, and its longest win and loss.
struct SectionSummary {
  std::uint64_t wins = 0;
  std::uint64_t losses = 0;
  std::uint64_t draws = 0;
  std::uint64_t holes = 0;
  std::uint32_t max_win = 0;
  std::uint32_t max_loss = 0;
};

struct LayerFileInfo {
  int layer = 0;
  int encoding = 1;
  std::uint64_t slot_count = 0;
  std::uint64_t block_count = 0;
  int max_distance = 0;
  DistanceCount distance_count = DistanceCount::GameEnd;  // what the distances count
  std::vector<SectionSummary> sections;
};

// Fills `out` with the values of the slots first .. first + out.size() - 1 of a layer.
using LayerValueReader = std::function<void(Slot first, std::span<PackedValue> out)>;

// Writes a whole layer to `path`, through a temporary file that is synced and renamed, so that an
// interrupted write leaves no layer file. The values come from `read`, asked for in slot order a
// few million at a time (twice: once for the header's statistics, once for the blocks), so a
// layer can be written from its sections' part files without being held in memory. The file
// holds nothing but the values and what follows from them, so the same values give the same
// bytes wherever they were solved. Returns the file's size.
std::uint64_t write_layer_file(const std::filesystem::path& path, const LayerIndex& index,
                               const LayerValueReader& read, int threads, int compression_level = 9,
                               DistanceCount distance_count = DistanceCount::GameEnd);
// The same, from a whole layer in memory (one PackedValue per slot of `index`).
std::uint64_t write_layer_file(const std::filesystem::path& path, const LayerIndex& index,
                               std::span<const PackedValue> values, int threads,
                               int compression_level = 9,
                               DistanceCount distance_count = DistanceCount::GameEnd);

// A layer file opened for reading (memory-mapped, or bytes held in memory for tests and fuzzing).
// Thread-safe once constructed.
class LayerFile {
 public:
  // Checks the header, the block table, the size and the trailer; throws TbFileError with the
  // reason and the path when one is wrong. `expected_layer` < 0 accepts any layer.
  explicit LayerFile(const std::filesystem::path& path, int expected_layer = -1);
  LayerFile(std::vector<std::uint8_t> bytes, int expected_layer, std::string name = "<memory>");
  ~LayerFile();
  LayerFile(const LayerFile&) = delete;
  LayerFile& operator=(const LayerFile&) = delete;

  const LayerFileInfo& info() const { return info_; }
  const std::string& name() const { return name_; }
  std::uint64_t file_size() const { return size_; }

  // The values of block `block` (kBlockSlots of them, fewer in the last block). Throws
  // TbFileError when the block does not decode or its checksum fails.
  void decode_block(std::uint64_t block, std::span<PackedValue> out) const;
  // The whole layer, decoded on `threads` threads.
  LayerValues decode_all(int threads) const;
  // The values of the slots first .. first + out.size() - 1, decoded on `threads` threads.
  void decode_range(Slot first, std::span<PackedValue> out, int threads) const;
  // The CRC-32 of the whole file against its trailer (reads every byte).
  void check_file_checksum() const;
  // The CRC-32 of the whole file as its trailer states it: what names this file's contents.
  std::uint32_t file_checksum() const;

 private:
  void validate(int expected_layer);
  std::uint64_t block_offset(std::uint64_t block) const;

  std::string name_;
  const std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
  std::vector<std::uint8_t> owned_;
  file_bytes::MappedFile mapped_;
  LayerFileInfo info_;
  std::uint64_t block_table_offset_ = 0;
  std::uint64_t trailer_offset_ = 0;
};

}  // namespace quixo::tb
