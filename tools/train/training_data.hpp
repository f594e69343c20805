// The data set of quixo-train (issue 13): labelled two-player positions from the endgame tables,
// from self-play and from deeper searches, in a small binary file, and the rules that decide
// which positions may be used at all: the evaluation's domain and the held-out table positions
// that no fit ever trains on (the value-keeping measurement reuses them).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "search/score.hpp"

namespace quixo::train {

// Where a record's label comes from.
enum class Source : std::uint8_t {
  Table = 0,  // the exact value of an endgame table
  Game = 1,   // the result of a self-play game
  Deep = 2,   // the score of a deeper search (the fit turns it into a label)
};
inline constexpr int kSourceCount = 3;
const char* source_name(Source source);

struct TrainingRecord {
  Bitboard x_cubes = 0;
  Bitboard o_cubes = 0;
  Color to_move = Color::X;
  Source source = Source::Table;
  // The expected result for the side to move in [0, 1]: win 1, draw 0.5, loss 0. A Deep record
  // carries its game's result here; the fit labels it from `score`.
  float label = 0.5f;
  bool validation = false;  // never trained on; measures the fit
  bool has_score = false;
  Score score = 0;         // a search's score (centi-cubes or mate), side to move; Deep only
  std::uint32_t game = 0;  // the self-play game the position comes from (Game and Deep)

  [[nodiscard]] Position position() const { return Position(x_cubes, o_cubes, to_move); }
  bool operator==(const TrainingRecord&) const = default;
};

TrainingRecord make_record(const Position& position, Source source, float label);

// The positions the evaluation is ever asked about: the game goes on, the side to move has no
// win in one, and not every move loses at once. The search scores all others exactly, so they
// teach the evaluation nothing.
bool in_evaluation_domain(const Position& position);

// A strong 64-bit mix (splitmix64's finaliser).
std::uint64_t mix64(std::uint64_t value);

// Whether a position belongs to the held-out set that is never trained on: the mix of its
// canonical symmetric form's key is 0 mod 16. The position is first seen from its side to move
// (the mover as X), because the evaluation is blind to the colours: a board and its
// colour-swapped twin are one case for the fit, and both are held out or neither.
bool is_held_out(const Position& position);

// The phase bucket (patterns::phase_of) of a position.
int phase_of(const Position& position);

// A data file that cannot be read, with the sentence that says why.
class DataFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The file: magic "QXTD", format version, record size, record count, the records as fixed-size
// little-endian structures, and an FNV-1a checksum of the records.
std::vector<std::byte> serialize_records(std::span<const TrainingRecord> records);
// Throws DataFileError naming the first thing wrong: not a data file, another version, a short
// or long file, a bad checksum, or a record that is no legal position in the domain.
std::vector<TrainingRecord> parse_records(std::span<const std::byte> bytes);
void save_records(const std::string& file, std::span<const TrainingRecord> records);
std::vector<TrainingRecord> load_records(const std::string& file);

// Counts by source and phase, training and validation, as lines of a table.
std::vector<std::string> data_summary(std::span<const TrainingRecord> records);

}  // namespace quixo::train
