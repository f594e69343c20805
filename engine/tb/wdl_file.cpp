#include "tb/wdl_file.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <vector>

#include "tb/tb_file.hpp"

namespace quixo::tb {

namespace {

constexpr char kWdlMagic[8] = {'Q', 'U', 'I', 'X', 'O', 'W', 'D', 'L'};
constexpr std::size_t kWdlHeaderCrcOffset = kHeaderBytes - 4;

using file_bytes::crc32;
using file_bytes::get;
using file_bytes::put;

std::uint64_t code_bytes(std::uint64_t slots) {
  return (slots + 3) / 4;
}

}  // namespace

std::filesystem::path wdl_file_path(const std::filesystem::path& dir, int layer) {
  return dir / ("quixo-b" + std::to_string(layer) + ".qtbw");
}

std::uint64_t write_wdl_file(const std::filesystem::path& path, const LayerFile& layer_file,
                             int threads) {
  const std::uint64_t slots = layer_file.info().slot_count;
  std::vector<std::uint8_t> codes(code_bytes(slots));
  // A chunk of whole blocks at a time, so that a layer is never held decoded in memory.
  constexpr std::uint64_t kChunkSlots = std::uint64_t(kBlockSlots) * 256;
  std::vector<PackedValue> values;
  for (Slot first = 0; first < slots; first += kChunkSlots) {
    values.resize(std::min<std::uint64_t>(kChunkSlots, slots - first));
    layer_file.decode_range(first, values, threads);
    // first is a multiple of 4: each chunk fills whole bytes.
    for (std::uint64_t i = 0; i < values.size(); ++i)
      codes[(first + i) / 4] |= std::uint8_t(int(wdl_of(values[i])) << (2 * ((first + i) % 4)));
  }
  std::vector<std::uint8_t> header(kHeaderBytes, 0);
  std::memcpy(header.data(), kWdlMagic, sizeof(kWdlMagic));
  put<std::uint32_t>(header.data(), 8, kWdlFileVersion);
  put<std::uint32_t>(header.data(), 12, std::uint32_t(layer_file.info().layer));
  put<std::uint32_t>(header.data(), 16, kIndexScheme);
  put<std::uint64_t>(header.data(), 24, slots);
  put<std::uint32_t>(header.data(), 32, layer_file.file_checksum());
  put<std::uint32_t>(header.data(), 36, crc32(codes.data(), codes.size()));
  put<std::uint32_t>(header.data(), kWdlHeaderCrcOffset, crc32(header.data(), kWdlHeaderCrcOffset));
  auto temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(header.data()), std::streamsize(header.size()));
    out.write(reinterpret_cast<const char*>(codes.data()), std::streamsize(codes.size()));
    out.close();
    if (!out) throw TbFileError("cannot write " + temporary.string());
  }
  file_bytes::sync_and_rename(temporary, path);
  return kHeaderBytes + codes.size();
}

WdlFile::WdlFile(const std::filesystem::path& path, int layer, std::uint32_t layer_file_checksum)
    : name_(path.string()) {
  auto refuse = [&](const std::string& why) { throw TbFileError(name_ + ": " + why); };
  file_bytes::MappedFile mapped;
  if (const std::string problem = mapped.open(path); !problem.empty()) refuse(problem);
  const std::uint8_t* data = mapped.data();
  if (mapped.size() < kHeaderBytes)
    refuse("file is shorter than its header (" + std::to_string(mapped.size()) +
           " bytes): truncated?");
  if (std::memcmp(data, kWdlMagic, sizeof(kWdlMagic)) != 0)
    refuse("not a quixo win/draw/loss file (bad magic)");
  const auto version = get<std::uint32_t>(data, 8);
  if (version != kWdlFileVersion)
    refuse("file version " + std::to_string(version) + ", this program reads version " +
           std::to_string(kWdlFileVersion));
  if (get<std::uint32_t>(data, kWdlHeaderCrcOffset) != crc32(data, kWdlHeaderCrcOffset))
    refuse("header checksum mismatch: the file is corrupt");
  if (get<std::uint32_t>(data, 12) != std::uint32_t(layer))
    refuse("holds layer " + std::to_string(get<std::uint32_t>(data, 12)) + ", expected layer " +
           std::to_string(layer));
  if (get<std::uint32_t>(data, 16) != kIndexScheme) refuse("unknown index scheme");
  slot_count_ = get<std::uint64_t>(data, 24);
  if (slot_count_ != LayerIndex(layer).slot_count())
    refuse("counts do not match layer " + std::to_string(layer) + "'s index");
  if (get<std::uint32_t>(data, 32) != layer_file_checksum)
    refuse("was made from another " + layer_file_path({}, layer).string() +
           " than the one beside it: write it again (quixo-tb generate)");
  if (mapped.size() != kHeaderBytes + code_bytes(slot_count_))
    refuse("file is " + std::to_string(mapped.size()) + " bytes, its header says " +
           std::to_string(kHeaderBytes + code_bytes(slot_count_)) + ": truncated or padded");
  codes_checksum_ = get<std::uint32_t>(data, 36);
  codes_.assign(data + kHeaderBytes, data + mapped.size());
}

void WdlFile::check_checksum() const {
  if (codes_checksum_ != crc32(codes_.data(), codes_.size()))
    throw TbFileError(name_ + ": checksum mismatch: the file is corrupt");
}

}  // namespace quixo::tb
