#include "weights_file.hpp"

#include <algorithm>

#include "core/binary_io.hpp"
#include "core/text_helpers.hpp"

namespace quixo::patterns {

using binary_io::fnv1a;
using binary_io::get;
using binary_io::put;

bool has_magic(std::span<const std::byte> bytes, const std::array<char, 4>& magic) {
  return bytes.size() >= magic.size() &&
         std::equal(magic.begin(), magic.end(), bytes.begin(),
                    [](char c, std::byte b) { return std::byte(c) == b; });
}

std::uint32_t format_version(std::span<const std::byte> bytes, const WeightsFormat& format) {
  if (bytes.size() < format.magic.size() + 4 || !has_magic(bytes, format.magic))
    throw WeightsFileError("not a " + std::string(format.kind) + " file (no " +
                           std::string(format.magic.begin(), format.magic.end()) + " header)");
  return std::uint32_t(get(bytes, format.magic.size(), 4));
}

std::vector<std::byte> encode_weights(const WeightsFormat& format,
                                      std::span<const std::int16_t> weights) {
  std::vector<std::byte> out;
  out.reserve(format.file_bytes());
  for (const char c : format.magic) out.push_back(std::byte(c));
  put(out, format.version, 4);
  for (const std::uint32_t size : format.layout) put(out, size, 4);
  for (const std::int16_t weight : weights) put(out, std::uint16_t(weight), 2);
  put(out, fnv1a(out), 8);
  return out;
}

std::vector<std::int16_t> decode_weights(std::span<const std::byte> bytes,
                                         const WeightsFormat& format) {
  const std::string size_problem = "the file has " + std::to_string(bytes.size()) + " bytes, " +
                                   std::to_string(format.file_bytes()) + " expected";
  if (bytes.size() < format.header_bytes()) throw WeightsFileError(size_problem);
  for (std::size_t i = 0; i < format.layout.size(); ++i)
    if (get(bytes, format.magic.size() + 4 + 4 * i, 4) != format.layout[i])
      throw WeightsFileError("the weights have another layout (" +
                             std::string(format.layout_names) + ") than this engine's");
  if (bytes.size() != format.file_bytes()) throw WeightsFileError(size_problem);
  const std::size_t checked = format.file_bytes() - 8;
  if (get(bytes, checked, 8) != fnv1a(bytes.first(checked)))
    throw WeightsFileError("checksum mismatch: the file is damaged");
  std::vector<std::int16_t> weights(format.weight_count);
  for (std::size_t i = 0; i < weights.size(); ++i)
    weights[i] = std::int16_t(std::uint16_t(get(bytes, format.header_bytes() + 2 * i, 2)));
  return weights;
}

std::vector<std::byte> read_weights_file(const std::string& file, std::size_t max_mebibytes) {
  const text_helpers::FileText read = text_helpers::read_regular_file(file, max_mebibytes);
  if (!read.error.empty()) throw WeightsFileError(text_helpers::quoted(file) + " " + read.error);
  const auto* const data = reinterpret_cast<const std::byte*>(read.text.data());
  return {data, data + read.text.size()};
}

void write_weights_file(const std::string& file, std::span<const std::byte> bytes) {
  if (!binary_io::write_file(file, bytes))
    throw WeightsFileError("cannot write " + text_helpers::quoted(file));
}

void throw_for_file(const std::string& file, const WeightsFileError& error) {
  throw WeightsFileError(text_helpers::quoted(file) + ": " + error.what());
}

}  // namespace quixo::patterns
