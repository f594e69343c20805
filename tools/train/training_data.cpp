#include "training_data.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <sstream>

#include "core/binary_io.hpp"
#include "core/move_scan.hpp"
#include "core/symmetry.hpp"
#include "core/text_helpers.hpp"
#include "search/pattern_evaluation.hpp"

namespace quixo::train {

namespace {

constexpr char kMagic[4] = {'Q', 'X', 'T', 'D'};
constexpr std::uint32_t kFormatVersion = 1;
// x cubes, o cubes, game, label (IEEE float), score: 4 bytes each; side to move, source, flags
// and a reserved zero byte.
constexpr std::uint32_t kRecordBytes = 24;
constexpr std::size_t kHeaderBytes = sizeof kMagic + 4 + 4 + 8;
constexpr std::size_t kChecksumBytes = 8;
constexpr std::uint8_t kValidationFlag = 1, kScoreFlag = 2;

using binary_io::fnv1a;
using binary_io::get;
using binary_io::put;

// What is wrong with a decoded record, or empty.
std::string record_problem(const TrainingRecord& record, std::uint8_t reserved) {
  if (((record.x_cubes | record.o_cubes) & ~kFullBoard) != 0) return "cubes outside the 25 squares";
  if ((record.x_cubes & record.o_cubes) != 0) return "a square holds both an x and an o cube";
  if (reserved != 0) return "unknown flags";
  if (!std::isfinite(record.label) || record.label < 0.0f || record.label > 1.0f)
    return "label outside [0, 1]";
  if (record.has_score && (record.score > kMateScore || record.score < -kMateScore))
    return "search score outside the score range";
  if ((record.source == Source::Deep) != record.has_score)
    return "a search score must come with a deep-search record, and only with one";
  if (!in_evaluation_domain(record.position()))
    return "the position is outside the evaluation's domain (over, a win in one, or lost)";
  return {};
}

}  // namespace

const char* source_name(Source source) {
  switch (source) {
    case Source::Table:
      return "table";
    case Source::Game:
      return "game";
    case Source::Deep:
      return "deep";
  }
  return "?";
}

TrainingRecord make_record(const Position& position, Source source, float label) {
  TrainingRecord record;
  record.x_cubes = position.cubes(Color::X);
  record.o_cubes = position.cubes(Color::O);
  record.to_move = position.side_to_move();
  record.source = source;
  record.label = label;
  return record;
}

bool in_evaluation_domain(const Position& position) {
  if (position.is_game_over()) return false;
  const MoveScan scan = scan_moves(position);
  return scan.wins == 0 && (scan.legal & ~scan.losses) != 0;
}

std::uint64_t mix64(std::uint64_t value) {
  value += 0x9e3779b97f4a7c15ull;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
  return value ^ (value >> 31);
}

bool is_held_out(const Position& position) {
  const Color mover = position.side_to_move();
  const Position as_x(position.cubes(mover), position.cubes(~mover), Color::X);
  return mix64(canonical_form(as_x).position.key()) % 16 == 0;
}

int phase_of(const Position& position) {
  return patterns::phase_of(std::popcount(position.blanks()));
}

std::vector<std::byte> serialize_records(std::span<const TrainingRecord> records) {
  std::vector<std::byte> out;
  out.reserve(kHeaderBytes + records.size() * kRecordBytes + kChecksumBytes);
  for (const char c : kMagic) out.push_back(std::byte(c));
  put(out, kFormatVersion, 4);
  put(out, kRecordBytes, 4);
  put(out, records.size(), 8);
  for (const TrainingRecord& record : records) {
    put(out, record.x_cubes, 4);
    put(out, record.o_cubes, 4);
    put(out, record.game, 4);
    put(out, std::bit_cast<std::uint32_t>(record.label), 4);
    put(out, std::uint32_t(record.score), 4);
    put(out, std::uint8_t(record.to_move), 1);
    put(out, std::uint8_t(record.source), 1);
    put(out, (record.validation ? kValidationFlag : 0) | (record.has_score ? kScoreFlag : 0), 1);
    put(out, 0, 1);
  }
  put(out, fnv1a(std::span(out).subspan(kHeaderBytes)), 8);
  return out;
}

std::vector<TrainingRecord> parse_records(std::span<const std::byte> bytes) {
  if (bytes.size() < kHeaderBytes ||
      !std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin(),
                  [](char c, std::byte b) { return std::byte(c) == b; }))
    throw DataFileError("not a quixo-train data file (no QXTD header)");
  if (const auto version = get(bytes, 4, 4); version != kFormatVersion)
    throw DataFileError("data format version " + std::to_string(version) +
                        ", this quixo-train reads " + std::to_string(kFormatVersion));
  if (const auto size = get(bytes, 8, 4); size != kRecordBytes)
    throw DataFileError("records of " + std::to_string(size) + " bytes, " +
                        std::to_string(kRecordBytes) + " expected");
  const std::uint64_t count = get(bytes, 12, 8);
  const std::uint64_t payload = bytes.size() - kHeaderBytes;
  // Compared by division so that a garbled count cannot overflow the expected size.
  if (payload < kChecksumBytes || (payload - kChecksumBytes) % kRecordBytes != 0 ||
      (payload - kChecksumBytes) / kRecordBytes != count)
    throw DataFileError("the header announces " + std::to_string(count) +
                        " records, the file has " + std::to_string(bytes.size()) +
                        " bytes (truncated or padded)");
  const std::size_t end = bytes.size() - kChecksumBytes;
  if (get(bytes, end, 8) != fnv1a(bytes.subspan(kHeaderBytes, end - kHeaderBytes)))
    throw DataFileError("checksum mismatch: the file is damaged");
  std::vector<TrainingRecord> records;
  records.reserve(count);
  for (std::size_t at = kHeaderBytes; at < end; at += kRecordBytes) {
    TrainingRecord record;
    record.x_cubes = Bitboard(get(bytes, at, 4));
    record.o_cubes = Bitboard(get(bytes, at + 4, 4));
    record.game = std::uint32_t(get(bytes, at + 8, 4));
    record.label = std::bit_cast<float>(std::uint32_t(get(bytes, at + 12, 4)));
    record.score = Score(std::int32_t(std::uint32_t(get(bytes, at + 16, 4))));
    const auto to_move = get(bytes, at + 20, 1), source = get(bytes, at + 21, 1),
               flags = get(bytes, at + 22, 1), reserved = get(bytes, at + 23, 1);
    const std::string where = "record " + std::to_string(records.size()) + ": ";
    if (to_move > 1) throw DataFileError(where + "side to move is neither x nor o");
    if (source >= std::uint64_t(kSourceCount)) throw DataFileError(where + "unknown source");
    record.to_move = Color(to_move);
    record.source = Source(source);
    record.validation = (flags & kValidationFlag) != 0;
    record.has_score = (flags & kScoreFlag) != 0;
    const std::uint8_t unknown = std::uint8_t((flags & ~(kValidationFlag | kScoreFlag)) | reserved);
    if (const std::string problem = record_problem(record, unknown); !problem.empty())
      throw DataFileError(where + problem);
    records.push_back(record);
  }
  return records;
}

void save_records(const std::string& file, std::span<const TrainingRecord> records) {
  if (!binary_io::write_file(file, serialize_records(records)))
    throw DataFileError("cannot write " + text_helpers::quoted(file));
}

std::vector<TrainingRecord> load_records(const std::string& file) {
  const auto bytes = binary_io::read_file(file);
  if (!bytes) throw DataFileError("cannot open " + text_helpers::quoted(file));
  try {
    return parse_records(*bytes);
  } catch (const DataFileError& error) {
    throw DataFileError(text_helpers::quoted(file) + ": " + error.what());
  }
}

std::vector<std::string> data_summary(std::span<const TrainingRecord> records) {
  // counts[source][phase][validation]
  std::array<std::array<std::array<std::uint64_t, 2>, patterns::kPhases>, kSourceCount> counts{};
  for (const TrainingRecord& record : records)
    ++counts[int(record.source)][phase_of(record.position())][record.validation];
  std::vector<std::string> lines;
  std::ostringstream header;
  header << std::left << std::setw(8) << "source" << std::setw(8) << "phase" << std::right
         << std::setw(12) << "training" << std::setw(12) << "validation";
  lines.push_back(header.str());
  for (int source = 0; source < kSourceCount; ++source)
    for (int phase = 0; phase < patterns::kPhases; ++phase) {
      const auto& count = counts[source][phase];
      if (count[0] + count[1] == 0) continue;
      std::ostringstream line;
      line << std::left << std::setw(8) << source_name(Source(source)) << std::setw(8) << phase
           << std::right << std::setw(12) << count[0] << std::setw(12) << count[1];
      lines.push_back(line.str());
    }
  std::uint64_t validation = 0;
  for (const TrainingRecord& record : records) validation += record.validation;
  lines.push_back("total " + std::to_string(records.size()) + " records, " +
                  std::to_string(validation) + " for validation");
  return lines;
}

}  // namespace quixo::train
