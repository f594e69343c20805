#include "tb/tb_file.hpp"

#include <zstd.h>

#include <algorithm>
#include <bit>
#include <boost/crc.hpp>
#include <cstring>
#include <fstream>

#include "tb/file_bytes.hpp"
#include "tb/parallel_for.hpp"

namespace quixo::tb {

namespace {

constexpr char kMagic[8] = {'Q', 'U', 'I', 'X', 'O', 'T', 'B', '\0'};
constexpr std::size_t kTrailerBytes = 4 + sizeof(kMagic);
constexpr std::size_t kSectionRecordOffset = 128;
constexpr std::size_t kSectionRecordBytes = 48;
constexpr std::size_t kHeaderCrcOffset = kHeaderBytes - 4;

using file_bytes::crc32;
using file_bytes::get;
using file_bytes::put;

std::size_t raw_block_bytes(int encoding) {
  return kBlockSlots / 4 + kBlockSlots * (encoding == 1 ? 1 : 2);
}

void encode_block(std::span<const PackedValue> values, int encoding,
                  std::vector<std::uint8_t>& raw) {
  raw.assign(raw_block_bytes(encoding), 0);
  std::uint8_t* codes = raw.data();
  std::uint8_t* distances = raw.data() + kBlockSlots / 4;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Wdl wdl = wdl_of(values[i]);
    codes[i / 4] |= std::uint8_t(int(wdl) << (2 * (i % 4)));
    const int distance = (wdl == Wdl::Win || wdl == Wdl::Loss) ? distance_of(values[i]) : 0;
    if (encoding == 1)
      distances[i] = std::uint8_t(distance);
    else
      put<std::uint16_t>(distances, 2 * i, std::uint16_t(distance));
  }
}

}  // namespace

std::filesystem::path layer_file_path(const std::filesystem::path& dir, int layer) {
  return dir / ("quixo-b" + std::to_string(layer) + ".qtb");
}

std::uint64_t write_layer_file(const std::filesystem::path& path, const LayerIndex& index,
                               std::span<const PackedValue> values, int threads,
                               int compression_level, DistanceCount distance_count) {
  if (values.size() != index.slot_count())
    throw TbFileError("internal: " + std::to_string(values.size()) + " values for a layer of " +
                      std::to_string(index.slot_count()) + " slots");
  return write_layer_file(
      path, index,
      [values](Slot first, std::span<PackedValue> out) {
        std::copy_n(values.begin() + std::ptrdiff_t(first), out.size(), out.begin());
      },
      threads, compression_level, distance_count);
}

std::uint64_t write_layer_file(const std::filesystem::path& path, const LayerIndex& index,
                               const LayerValueReader& read, int threads, int compression_level,
                               DistanceCount distance_count) {
  const Slot slot_count = index.slot_count();
  // 256 blocks at a time: the unit of the statistics' pass and of the compression's batches.
  constexpr std::uint64_t kBatch = 256;
  std::vector<PackedValue> batch_values(kBatch * kBlockSlots);
  auto read_batch = [&](Slot first) {
    const std::span<PackedValue> out(batch_values.data(),
                                     std::min<Slot>(batch_values.size(), slot_count - first));
    read(first, out);
    return std::span<const PackedValue>(out);
  };
  std::vector<SectionSummary> sections(index.section_count());
  int max_distance = 0;
  for (Slot first = 0; first < slot_count; first += batch_values.size()) {
    const auto values = read_batch(first);
    int m = index.section_of(first);
    for (Slot i = 0; i < values.size(); ++i) {
      while (first + i >= index.section_end(m)) ++m;
      SectionSummary& summary = sections[m];
      const PackedValue value = values[i];
      const auto distance = std::uint32_t(distance_of(value));
      switch (wdl_of(value)) {
        case Wdl::Win:
          ++summary.wins;
          summary.max_win = std::max(summary.max_win, distance);
          break;
        case Wdl::Loss:
          ++summary.losses;
          summary.max_loss = std::max(summary.max_loss, distance);
          break;
        case Wdl::Draw:
          ++summary.draws;
          break;
        case Wdl::Hole:
          ++summary.holes;
          break;
      }
    }
  }
  for (const SectionSummary& summary : sections)
    max_distance = int(std::max({std::uint32_t(max_distance), summary.max_win, summary.max_loss}));
  const int encoding = max_distance <= 255 ? 1 : 2;
  const std::uint64_t block_count = (slot_count + kBlockSlots - 1) / kBlockSlots;

  std::vector<std::uint8_t> header(kHeaderBytes, 0);
  std::memcpy(header.data(), kMagic, sizeof(kMagic));
  put<std::uint32_t>(header.data(), 8, kFileVersion);
  put<std::uint32_t>(header.data(), 12, std::uint32_t(index.blanks()));
  put<std::uint32_t>(header.data(), 16, kIndexScheme);
  put<std::uint32_t>(header.data(), 20, std::uint32_t(encoding));
  put<std::uint32_t>(header.data(), 24, kBlockSlots);
  put<std::uint32_t>(header.data(), 28, std::uint32_t(index.section_count()));
  put<std::uint64_t>(header.data(), 32, index.slot_count());
  put<std::uint64_t>(header.data(), 40, block_count);
  put<std::uint64_t>(header.data(), 48, kHeaderBytes);  // the block table follows the header
  put<std::uint32_t>(header.data(), 64, std::uint32_t(max_distance));
  // 0 in every file written before the field was (2026-12-05): they all count to the end.
  put<std::uint32_t>(header.data(), 68, std::uint32_t(distance_count));
  // Bytes 72-79 held the generation time in the files of 2026-11: left 0, so that a layer solved
  // component by component, on one machine or on many, is the same file.
  for (int m = 0; m < index.section_count(); ++m) {
    const std::size_t at = kSectionRecordOffset + std::size_t(m) * kSectionRecordBytes;
    put<std::uint64_t>(header.data(), at, sections[m].wins);
    put<std::uint64_t>(header.data(), at + 8, sections[m].losses);
    put<std::uint64_t>(header.data(), at + 16, sections[m].draws);
    put<std::uint64_t>(header.data(), at + 24, sections[m].holes);
    put<std::uint32_t>(header.data(), at + 32, sections[m].max_win);
    put<std::uint32_t>(header.data(), at + 36, sections[m].max_loss);
  }

  // Compress in batches on all threads, write each batch in order.
  const std::uint64_t table_bytes = (block_count + 1) * 8 + 4;
  std::vector<std::uint64_t> offsets(block_count + 1);
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  if (!out) throw TbFileError("cannot write " + temporary.string());
  // the header and the table are written last, once the offsets are known
  std::vector<std::uint8_t> placeholder(kHeaderBytes + table_bytes, 0);
  out.write(reinterpret_cast<const char*>(placeholder.data()), std::streamsize(placeholder.size()));
  std::uint64_t position = placeholder.size();
  std::vector<std::vector<std::uint8_t>> compressed(kBatch);
  for (std::uint64_t first = 0; first < block_count; first += kBatch) {
    const std::uint64_t count = std::min(kBatch, block_count - first);
    const auto values = read_batch(first * kBlockSlots);
    parallel_for(count, 1, threads, [&](std::uint64_t begin, std::uint64_t end, int) {
      std::vector<std::uint8_t> raw;
      ZSTD_CCtx* context = ZSTD_createCCtx();
      ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, compression_level);
      ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
      for (std::uint64_t i = begin; i < end; ++i) {
        const std::uint64_t slot = i * kBlockSlots;
        const std::uint64_t length = std::min<std::uint64_t>(kBlockSlots, values.size() - slot);
        encode_block(values.subspan(slot, length), encoding, raw);
        auto& packed = compressed[i];
        packed.resize(ZSTD_compressBound(raw.size()));
        const std::size_t size =
            ZSTD_compress2(context, packed.data(), packed.size(), raw.data(), raw.size());
        if (ZSTD_isError(size)) {
          ZSTD_freeCCtx(context);
          throw TbFileError(std::string("zstd: ") + ZSTD_getErrorName(size));
        }
        packed.resize(size);
      }
      ZSTD_freeCCtx(context);
    });
    for (std::uint64_t i = 0; i < count; ++i) {
      offsets[first + i] = position;
      out.write(reinterpret_cast<const char*>(compressed[i].data()),
                std::streamsize(compressed[i].size()));
      position += compressed[i].size();
    }
  }
  offsets[block_count] = position;
  const std::uint64_t trailer_offset = position;
  put<std::uint64_t>(header.data(), 56, trailer_offset);
  put<std::uint32_t>(header.data(), kHeaderCrcOffset, crc32(header.data(), kHeaderCrcOffset));
  std::vector<std::uint8_t> table(table_bytes);
  std::memcpy(table.data(), offsets.data(), offsets.size() * 8);
  put<std::uint32_t>(table.data(), offsets.size() * 8, crc32(table.data(), offsets.size() * 8));
  out.seekp(0);
  out.write(reinterpret_cast<const char*>(header.data()), std::streamsize(header.size()));
  out.write(reinterpret_cast<const char*>(table.data()), std::streamsize(table.size()));
  out.close();
  if (!out) throw TbFileError("cannot write " + temporary.string());

  // The trailer's checksum covers the whole file: read it back once (the page cache holds it).
  boost::crc_32_type crc;
  {
    std::ifstream in(temporary, std::ios::binary);
    std::vector<char> buffer(1 << 20);
    std::uint64_t left = trailer_offset;
    while (left > 0) {
      const auto chunk = std::streamsize(std::min<std::uint64_t>(left, buffer.size()));
      in.read(buffer.data(), chunk);
      if (in.gcount() != chunk) throw TbFileError("cannot read back " + temporary.string());
      crc.process_bytes(buffer.data(), std::size_t(chunk));
      left -= std::uint64_t(chunk);
    }
  }
  {
    std::ofstream append(temporary, std::ios::binary | std::ios::app);
    std::uint8_t trailer[kTrailerBytes];
    put<std::uint32_t>(trailer, 0, crc.checksum());
    std::memcpy(trailer + 4, kMagic, sizeof(kMagic));
    append.write(reinterpret_cast<const char*>(trailer), kTrailerBytes);
    append.close();
    if (!append) throw TbFileError("cannot write " + temporary.string());
  }
  file_bytes::sync_and_rename(temporary, path);
  return trailer_offset + kTrailerBytes;
}

LayerFile::LayerFile(const std::filesystem::path& path, int expected_layer) : name_(path.string()) {
  // The file is mapped, not read: its size is bounded by what its header says (validate()).
  if (const std::string problem = mapped_.open(path); !problem.empty())
    throw TbFileError(name_ + ": " + problem);
  data_ = mapped_.data();
  size_ = mapped_.size();
  validate(expected_layer);
}

LayerFile::LayerFile(std::vector<std::uint8_t> bytes, int expected_layer, std::string name)
    : name_(std::move(name)), owned_(std::move(bytes)) {
  data_ = owned_.data();
  size_ = owned_.size();
  validate(expected_layer);
}

LayerFile::~LayerFile() = default;

void LayerFile::validate(int expected_layer) {
  auto refuse = [&](const std::string& why) { throw TbFileError(name_ + ": " + why); };
  if (size_ < kHeaderBytes + kTrailerBytes)
    refuse("file is shorter than its header (" + std::to_string(size_) + " bytes): truncated?");
  if (std::memcmp(data_, kMagic, sizeof(kMagic)) != 0) refuse("not a quixo table (bad magic)");
  const auto version = get<std::uint32_t>(data_, 8);
  if (version != kFileVersion)
    refuse("file version " + std::to_string(version) + ", this program reads version " +
           std::to_string(kFileVersion));
  if (get<std::uint32_t>(data_, kHeaderCrcOffset) != crc32(data_, kHeaderCrcOffset))
    refuse("header checksum mismatch: the file is corrupt");
  const auto layer = get<std::uint32_t>(data_, 12);  // compared unsigned: no negative layers
  if (layer > std::uint32_t(kMaxIndexedLayer))
    refuse("layer " + std::to_string(layer) + " is unknown");
  info_.layer = int(layer);
  if (expected_layer >= 0 && info_.layer != expected_layer)
    refuse("holds layer " + std::to_string(info_.layer) + ", expected layer " +
           std::to_string(expected_layer));
  if (get<std::uint32_t>(data_, 16) != kIndexScheme) refuse("unknown index scheme");
  info_.encoding = int(get<std::uint32_t>(data_, 20));
  if (info_.encoding != 1 && info_.encoding != 2)
    refuse("unknown encoding " + std::to_string(info_.encoding));
  if (get<std::uint32_t>(data_, 24) != kBlockSlots) refuse("unexpected block size");
  const LayerIndex index(info_.layer);
  const auto section_count = int(get<std::uint32_t>(data_, 28));
  info_.slot_count = get<std::uint64_t>(data_, 32);
  info_.block_count = get<std::uint64_t>(data_, 40);
  if (section_count != index.section_count() || info_.slot_count != index.slot_count() ||
      info_.block_count != (info_.slot_count + kBlockSlots - 1) / kBlockSlots)
    refuse("counts do not match layer " + std::to_string(info_.layer) + "'s index");
  block_table_offset_ = get<std::uint64_t>(data_, 48);
  trailer_offset_ = get<std::uint64_t>(data_, 56);
  info_.max_distance = int(get<std::uint32_t>(data_, 64));
  const std::uint32_t distance_count = get<std::uint32_t>(data_, 68);
  if (distance_count > std::uint32_t(DistanceCount::LayerExit))
    refuse("unknown distance count " + std::to_string(distance_count));
  info_.distance_count = DistanceCount(distance_count);
  if (trailer_offset_ + kTrailerBytes != size_)
    refuse("file is " + std::to_string(size_) + " bytes, its header says " +
           std::to_string(trailer_offset_ + kTrailerBytes) + ": truncated or padded");
  if (std::memcmp(data_ + trailer_offset_ + 4, kMagic, sizeof(kMagic)) != 0)
    refuse("bad trailer: the file is corrupt");
  const std::uint64_t table_entries = info_.block_count + 1;
  if (block_table_offset_ != kHeaderBytes || table_entries * 8 + 4 > trailer_offset_ - kHeaderBytes)
    refuse("bad block table position");
  if (get<std::uint32_t>(data_, block_table_offset_ + table_entries * 8) !=
      crc32(data_ + block_table_offset_, table_entries * 8))
    refuse("block table checksum mismatch: the file is corrupt");
  const std::uint64_t blocks_begin = block_table_offset_ + table_entries * 8 + 4;
  std::uint64_t previous = blocks_begin;
  for (std::uint64_t block = 0; block < table_entries; ++block) {
    const std::uint64_t offset = block_offset(block);
    if (offset < previous || offset > trailer_offset_) refuse("bad block table entry");
    previous = offset;
  }
  if (block_offset(0) != blocks_begin || block_offset(info_.block_count) != trailer_offset_)
    refuse("block table does not cover the blocks");
  info_.sections.resize(section_count);
  for (int m = 0; m < section_count; ++m) {
    const std::size_t at = kSectionRecordOffset + std::size_t(m) * kSectionRecordBytes;
    SectionSummary& summary = info_.sections[m];
    summary.wins = get<std::uint64_t>(data_, at);
    summary.losses = get<std::uint64_t>(data_, at + 8);
    summary.draws = get<std::uint64_t>(data_, at + 16);
    summary.holes = get<std::uint64_t>(data_, at + 24);
    summary.max_win = get<std::uint32_t>(data_, at + 32);
    summary.max_loss = get<std::uint32_t>(data_, at + 36);
  }
}

std::uint64_t LayerFile::block_offset(std::uint64_t block) const {
  return get<std::uint64_t>(data_, block_table_offset_ + block * 8);
}

void LayerFile::decode_block(std::uint64_t block, std::span<PackedValue> out) const {
  if (block >= info_.block_count) throw TbFileError(name_ + ": block number out of range");
  const std::uint64_t first_slot = block * kBlockSlots;
  const std::uint64_t length = std::min<std::uint64_t>(kBlockSlots, info_.slot_count - first_slot);
  if (out.size() < length) throw TbFileError(name_ + ": internal: decode buffer too small");
  const std::uint64_t begin = block_offset(block);
  const std::uint64_t end = block_offset(block + 1);
  thread_local std::vector<std::uint8_t> raw;
  raw.resize(raw_block_bytes(info_.encoding));
  const std::size_t size = ZSTD_decompress(raw.data(), raw.size(), data_ + begin, end - begin);
  if (ZSTD_isError(size) || size != raw.size())
    throw TbFileError(name_ + ": block " + std::to_string(block) + " is corrupt (" +
                      (ZSTD_isError(size) ? ZSTD_getErrorName(size) : "wrong size") + ")");
  const std::uint8_t* codes = raw.data();
  const std::uint8_t* distances = raw.data() + kBlockSlots / 4;
  for (std::uint64_t i = 0; i < length; ++i) {
    const auto wdl = Wdl((codes[i / 4] >> (2 * (i % 4))) & 3);
    const int distance = info_.encoding == 1 ? distances[i] : get<std::uint16_t>(distances, 2 * i);
    if (distance > kMaxDistance) throw TbFileError(name_ + ": distance out of range");
    out[i] = pack_value(wdl, distance);
  }
}

LayerValues LayerFile::decode_all(int threads) const {
  LayerValues values(info_.slot_count);
  parallel_for(info_.block_count, 64, threads, [&](std::uint64_t begin, std::uint64_t end, int) {
    for (std::uint64_t block = begin; block < end; ++block) {
      const std::uint64_t first = block * kBlockSlots;
      decode_block(block, std::span(values).subspan(
                              first, std::min<std::uint64_t>(kBlockSlots, values.size() - first)));
    }
  });
  return values;
}

void LayerFile::decode_range(Slot first, std::span<PackedValue> out, int threads) const {
  if (first > info_.slot_count || out.size() > info_.slot_count - first)
    throw TbFileError(name_ + ": internal: slot range out of the layer");
  if (out.empty()) return;
  const std::uint64_t first_block = first / kBlockSlots;
  const std::uint64_t end_block = (first + out.size() - 1) / kBlockSlots + 1;
  parallel_for(end_block - first_block, 16, threads,
               [&](std::uint64_t begin, std::uint64_t end, int) {
                 std::vector<PackedValue> block_values(kBlockSlots);
                 for (std::uint64_t i = begin; i < end; ++i) {
                   const std::uint64_t block = first_block + i;
                   decode_block(block, block_values);
                   // the part of the block inside the range
                   const Slot block_first = block * kBlockSlots;
                   const Slot from = std::max(first, block_first);
                   const Slot to = std::min<Slot>(first + out.size(), block_first + kBlockSlots);
                   std::copy(block_values.begin() + std::ptrdiff_t(from - block_first),
                             block_values.begin() + std::ptrdiff_t(to - block_first),
                             out.begin() + std::ptrdiff_t(from - first));
                 }
               });
}

std::uint32_t LayerFile::file_checksum() const {
  return get<std::uint32_t>(data_, trailer_offset_);
}

void LayerFile::check_file_checksum() const {
  if (get<std::uint32_t>(data_, trailer_offset_) != crc32(data_, trailer_offset_))
    throw TbFileError(name_ + ": file checksum mismatch: the file is corrupt");
}

}  // namespace quixo::tb
