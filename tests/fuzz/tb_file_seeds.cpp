// Writes the seed inputs of fuzz_tb_file into a folder: small valid layer files, made by the
// project's own writer, in the harness's input format (tb_file_fuzz.cpp). A real layer file is
// megabytes and its blocks carry zstd checksums that a mutation breaks; these hold one layer-0
// file whose blocks are all holes except the first and the last (so they compress to a few dozen
// bytes each), with every zstd checksum taken out and the container's CRCs made right again.
//
//   fuzz_tb_file_seeds FOLDER
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/index.hpp"
#include "tb/tb_file.hpp"
#include "tb_file_layout.hpp"

namespace {

using namespace quixo;
namespace layout = fuzz::tb_layout;

constexpr std::uint8_t kFrameChecksumFlag = 0x04;  // in a zstd frame header's descriptor byte
constexpr std::uint32_t kZstdMagic = 0xFD2FB528;

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The same file with each block's zstd frame shortened by its 4-byte content checksum and its
// descriptor's checksum flag cleared; the block table and the trailer's offset follow.
std::vector<std::uint8_t> without_frame_checksums(const std::vector<std::uint8_t>& file) {
  const std::uint64_t table = layout::get_u64(file, layout::kBlockTableOffset);
  const std::uint64_t blocks = layout::get_u64(file, layout::kBlockCountOffset);
  const std::uint64_t trailer = layout::get_u64(file, layout::kTrailerOffset);
  std::vector<std::uint8_t> out(file.begin(),
                                file.begin() + std::ptrdiff_t(table + (blocks + 1) * 8 + 4));
  for (std::uint64_t block = 0; block < blocks; ++block) {
    const std::uint64_t begin = layout::get_u64(file, table + block * 8);
    const std::uint64_t end = layout::get_u64(file, table + (block + 1) * 8);
    std::uint32_t magic;
    std::memcpy(&magic, file.data() + begin, 4);
    if (magic != kZstdMagic || (file[begin + 4] & kFrameChecksumFlag) == 0)
      throw std::runtime_error("block " + std::to_string(block) + " is not a checksummed frame");
    layout::put_u64(out, table + block * 8, out.size());
    const std::size_t frame_start = out.size();
    out.insert(out.end(), file.begin() + std::ptrdiff_t(begin),
               file.begin() + std::ptrdiff_t(end - 4));
    out[frame_start + 4] &= std::uint8_t(~kFrameChecksumFlag);
  }
  layout::put_u64(out, table + blocks * 8, out.size());
  const std::uint64_t new_trailer = out.size();
  out.insert(out.end(), file.begin() + std::ptrdiff_t(trailer), file.end());
  layout::put_u64(out, layout::kTrailerOffset, new_trailer);
  layout::seal(out);
  return out;
}

// A seed that the reader refuses would leave the decoder unfuzzed again: each must open and
// decode its first and last block, after the harness's sealing when its flag asks for it.
void check_reaches_decoder(std::vector<std::uint8_t> file, std::uint8_t flags) {
  if (flags & 1) layout::seal(file);
  const tb::LayerFile layer(std::move(file), 0, "seed");
  std::vector<tb::PackedValue> out(tb::kBlockSlots);
  layer.decode_block(0, out);
  layer.decode_block(layer.info().block_count - 1, out);
}

void write_seed(const std::filesystem::path& path, std::uint8_t flags, std::uint16_t block,
                const std::vector<std::uint8_t>& file) {
  check_reaches_decoder(file, flags);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const std::uint8_t prefix[3] = {flags, std::uint8_t(block & 0xff), std::uint8_t(block >> 8)};
  out.write(reinterpret_cast<const char*>(prefix), sizeof prefix);
  out.write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Layer 0's values: holes everywhere but the first and the last block, which hold every class
// with distances up to `longest` (above 255, the file takes the two-byte encoding).
std::vector<std::uint8_t> layer0_file(const std::filesystem::path& folder, int longest) {
  const tb::LayerIndex index(0);
  std::vector<tb::PackedValue> values(index.slot_count(), tb::pack_value(tb::Wdl::Hole, 0));
  const std::uint64_t last = values.size() - tb::kBlockSlots;
  for (std::uint64_t i = 0; i < tb::kBlockSlots; ++i) {
    const auto wdl = tb::Wdl(i % 4);
    const int distance = (wdl == tb::Wdl::Win || wdl == tb::Wdl::Loss) ? int(i % (longest + 1)) : 0;
    values[i] = tb::pack_value(wdl, distance);
    values[last + i] = tb::pack_value(tb::Wdl(3 - i % 4), distance);
  }
  const std::filesystem::path path = folder / "layer0.tmp.qtb";
  tb::write_layer_file(path, index, values, 1, /*compression_level=*/1);
  std::vector<std::uint8_t> bytes = read_file(path);
  std::filesystem::remove(path);
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_tb_file_seeds FOLDER\n");
    return 2;
  }
  try {
    const std::filesystem::path folder = argv[1];
    std::filesystem::create_directories(folder);
    for (const int longest : {200, 3000}) {
      const std::vector<std::uint8_t> file = layer0_file(folder, longest);
      const std::string name = "seed-layer0-distance" + std::to_string(longest);
      // As written: checksums kept, mutations checked by the CRCs (flags 0).
      write_seed(folder / (name + "-raw"), 0, 1, file);
      // Blocks without zstd checksums, CRCs made right after each mutation (flags 1).
      write_seed(folder / (name + "-sealed"), 1, 2047, without_frame_checksums(file));
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "fuzz_tb_file_seeds: %s\n", error.what());
    return 1;
  }
  return 0;
}
