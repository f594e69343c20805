// The win/draw/loss file of one layer, `quixo-b{k}.qtbw`: what the search probes, as Syzygy's
// WDL files are, beside the layer file with distances (tb_file.hpp) that only the root, `probe`
// and the GUI read.
//
// Layout (little-endian): a 4096-byte header, then the 2-bit codes (Wdl) of every slot in slot
// order, four to a byte, the first slot in the low bits. The header holds the magic, the version,
// the layer, the index scheme, the slot count, the CRC-32 of the layer file it was made from (so
// that a file left beside a regenerated layer is refused), the CRC-32 of the codes, and its own
// CRC-32 in its last four bytes. The codes are not compressed (0.25 bytes a slot): a probe is
// one byte read, without a cache or a lock. They are read into memory on huge pages when the file
// is opened, not left mapped: the search probes all over a layer, and with the page cache's 4 KiB
// pages nearly every probe missed the TLB (0.89 of the speed without tables instead of 0.93 on
// scripts/tb-nps.py's positions, layers 0-3).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tb/huge_page_allocator.hpp"
#include "tb/index.hpp"
#include "tb/tb_file.hpp"
#include "tb/value.hpp"

namespace quixo::tb {

inline constexpr std::uint32_t kWdlFileVersion = 1;

// "quixo-b2.qtbw" in `dir`.
std::filesystem::path wdl_file_path(const std::filesystem::path& dir, int layer);

// Writes the win/draw/loss file of `layer_file`'s layer to `path` (through a synced temporary
// file, as the layer files are). Returns the file's size.
std::uint64_t write_wdl_file(const std::filesystem::path& path, const LayerFile& layer_file,
                             int threads);

// A win/draw/loss file read for probing. Thread-safe once constructed.
class WdlFile {
 public:
  // Checks the header and the size, and that the file was made from the layer file whose
  // checksum is `layer_file_checksum`; throws TbFileError with the path and the reason.
  WdlFile(const std::filesystem::path& path, int layer, std::uint32_t layer_file_checksum);

  Wdl code(Slot slot) const { return Wdl((codes_[slot / 4] >> (2 * (slot % 4))) & 3); }
  // Asks the processor to bring the byte of `slot` into the cache, so that a code() of it soon
  // after does not wait for memory.
  void prefetch(Slot slot) const { __builtin_prefetch(&codes_[slot / 4]); }
  std::uint64_t slot_count() const { return slot_count_; }
  std::uint64_t file_size() const { return kHeaderBytes + codes_.size(); }
  const std::string& name() const { return name_; }
  // The codes' CRC-32 against the header (reads every byte); throws TbFileError.
  void check_checksum() const;

 private:
  std::string name_;
  std::vector<std::uint8_t, HugePageAllocator<std::uint8_t>> codes_;
  std::uint32_t codes_checksum_ = 0;
  std::uint64_t slot_count_ = 0;
};

}  // namespace quixo::tb
