// Fuzzes the endgame table file reader (engine/tb/tb_file.hpp), which maps files from disk.
//
// Input: one flags byte, two bytes naming a block, then the bytes of a layer file. When the
// flags' low bit is set, the harness first makes the file's three CRC-32s match its bytes
// (tb_file_layout.hpp), so that mutations of the header's fields, the block table and the
// blocks reach the checks behind the checksums and the block decoder; the seed maker
// (tb_file_seeds.cpp) writes valid layer files whose blocks carry no zstd checksum, so a mutated
// block decodes to other values instead of failing its checksum. Invariants:
//   - opening either succeeds or throws TbFileError naming the file, and nothing else;
//   - the first, the last and the named block of an opened file either decode into values of at
//     most kMaxDistance or throw TbFileError with a message naming the file;
//   - the whole-file checksum either matches (always, when sealed) or throws TbFileError.
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "tb/tb_file.hpp"
#include "tb_file_layout.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace quixo::tb;
  constexpr std::size_t kPrefix = 3;
  if (size < kPrefix) return 0;
  const bool sealed = (data[0] & 1) != 0;
  const std::uint64_t named_block = data[1] | std::uint64_t{data[2]} << 8;
  std::vector<std::uint8_t> bytes(data + kPrefix, data + size);
  if (sealed) quixo::fuzz::tb_layout::seal(bytes);
  try {
    const LayerFile file(std::move(bytes), -1, "fuzz");
    std::vector<PackedValue> out(kBlockSlots);
    const std::uint64_t blocks = file.info().block_count;
    for (const std::uint64_t block : {std::uint64_t{0}, blocks - 1, named_block % blocks}) {
      try {
        file.decode_block(block, out);
        for (const PackedValue value : out)
          FUZZ_CHECK(distance_of(value) <= kMaxDistance, "distance");
      } catch (const TbFileError& error) {
        FUZZ_CHECK(std::string(error.what()).rfind("fuzz: ", 0) == 0, error.what());
      }
    }
    try {
      file.check_file_checksum();
    } catch (const TbFileError& error) {
      FUZZ_CHECK(!sealed, "a sealed file failed its checksum");
      FUZZ_CHECK(std::string(error.what()).find("checksum") != std::string::npos, error.what());
    }
  } catch (const TbFileError& error) {
    FUZZ_CHECK(std::string(error.what()).rfind("fuzz: ", 0) == 0, error.what());
  }
  return 0;
}
