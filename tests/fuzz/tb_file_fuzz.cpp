// Fuzzes the endgame table file reader (engine/tb/tb_file.hpp), which maps files from disk.
//
// Input: the bytes of a layer file. Invariants:
//   - opening either succeeds or throws TbFileError with a message, and nothing else;
//   - an opened file's first and last blocks either decode into values with known codes or throw
//     TbFileError; the whole-file checksum either matches or throws TbFileError.
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "tb/tb_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace quixo::tb;
  std::vector<std::uint8_t> bytes(data, data + size);
  try {
    const LayerFile file(std::move(bytes), -1, "fuzz");
    std::vector<PackedValue> out(kBlockSlots);
    for (const std::uint64_t block : {std::uint64_t{0}, file.info().block_count - 1}) {
      try {
        file.decode_block(block, out);
        for (const PackedValue value : out)
          FUZZ_CHECK(distance_of(value) <= kMaxDistance, "distance");
      } catch (const TbFileError& error) {
        FUZZ_CHECK(std::string(error.what()).size() > 0, "empty error message");
      }
    }
    try {
      file.check_file_checksum();
    } catch (const TbFileError& error) {
      FUZZ_CHECK(std::string(error.what()).find("checksum") != std::string::npos, error.what());
    }
  } catch (const TbFileError& error) {
    FUZZ_CHECK(std::string(error.what()).rfind("fuzz: ", 0) == 0, error.what());
  }
  return 0;
}
