// The frame of the evaluation weights files that quixo-train writes and the engine reads, for
// either game's weights: a magic, a format version, the layout's sizes (so that weights of
// another layout are refused, not misread), the weights as little-endian 16-bit integers in
// feature order, and an FNV-1a checksum of everything before it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace quixo::patterns {

// A weights file that cannot be read, with the sentence that says why.
class WeightsFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct WeightsFormat {
  std::array<char, 4> magic{};
  std::string_view kind;  // "quixo evaluation weights", for "not a ... file"
  std::uint32_t version = 0;
  std::span<const std::uint32_t> layout;
  std::string_view layout_names;  // what the layout's words count, for the refusal
  std::size_t weight_count = 0;

  [[nodiscard]] std::size_t header_bytes() const { return magic.size() + 4 * (1 + layout.size()); }
  [[nodiscard]] std::size_t file_bytes() const { return header_bytes() + 2 * weight_count + 8; }
};

// Whether `bytes` start with `magic`.
bool has_magic(std::span<const std::byte> bytes, const std::array<char, 4>& magic);
// The format version of a file of `format`'s magic; throws WeightsFileError when the magic is
// not there.
std::uint32_t format_version(std::span<const std::byte> bytes, const WeightsFormat& format);

std::vector<std::byte> encode_weights(const WeightsFormat& format,
                                      std::span<const std::int16_t> weights);
// The weights of a file whose magic and version are `format`'s (the caller checked them);
// throws WeightsFileError for another layout, a short or long file or a bad checksum.
std::vector<std::int16_t> decode_weights(std::span<const std::byte> bytes,
                                         const WeightsFormat& format);

// The whole of a weights file. A directory, device, FIFO or file over `max_mebibytes` is
// refused by name before it is read (a FIFO would block the engine).
std::vector<std::byte> read_weights_file(const std::string& file, std::size_t max_mebibytes);
void write_weights_file(const std::string& file, std::span<const std::byte> bytes);

// A WeightsFileError of `file`: the error's sentence after the file's name.
[[noreturn]] void throw_for_file(const std::string& file, const WeightsFileError& error);

// `bytes`, read from `file`, as `Weights` (Weights::parse); an error names the file.
template <class Weights>
Weights parse_weights_file(const std::string& file, std::span<const std::byte> bytes) {
  try {
    return Weights::parse(bytes);
  } catch (const WeightsFileError& error) {
    throw_for_file(file, error);
  }
}

// The weights in `file`, refused as read_weights_file() refuses it over
// Weights::kMaxFileMebibytes.
template <class Weights>
Weights load_weights(const std::string& file) {
  return parse_weights_file<Weights>(file, read_weights_file(file, Weights::kMaxFileMebibytes));
}

}  // namespace quixo::patterns
