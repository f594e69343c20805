// The learned evaluation of two-player positions: a weight for every content of every line, by
// the line's symmetry class and the game's phase, a weight for every content of every pair of
// neighbouring parallel lines, plus the opponent's threats of a win in one and a bias, all fitted
// to data by quixo-train (tools/train/). A position's score is the sum of the weights of its
// active features, seen from the side to move.
//
// The features are numbered once, here, for the engine and the trainer alike:
//   phase * kFeaturesPerPhase + class * kCanonicalContents + canonical content   (12 lines)
//   phase * kFeaturesPerPhase + kThreatFeature + min(threats, 3) - 1              (threats > 0)
//   phase * kFeaturesPerPhase + kBiasFeature                                      (always)
//   kPairFeature + phase * kPairFeaturesPerPhase + class * kCanonicalPairContents
//     + canonical pair content                              (8 pairs; phases below kPairPhases)
// docs/design/learned-evaluation.md has the why of each choice.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bit_gather.hpp"
#include "core/move_scan.hpp"
#include "core/position.hpp"
#include "score.hpp"
#include "weights_file.hpp"

namespace quixo::patterns {

inline constexpr int kLineCount = 12;
inline constexpr int kLineCells = 5;
// The 8 symmetries group the 12 lines into four classes: edge ranks and files, second ranks and
// files, the middle rank and file, the two diagonals.
inline constexpr int kLineClasses = 4;
inline constexpr int kLineContents = 243;  // 3^5: each cell blank, the mover's or the opponent's
// A line read backwards is the same line under a reflection, so a content and its reverse share
// one weight: 243 contents make 135 classes.
inline constexpr int kCanonicalContents = 135;
// The phase: buckets of the number of blank cubes (0, 1, 2, 3-6, 7-12, 13-25).
inline constexpr int kPhases = 6;
// The phases with pair features: those of 0-6 blanks, where the tables' exact values label
// millions of positions. With only games' results to learn from, the 7-25 blanks phases
// overfitted the pairs (docs/design/learned-evaluation.md).
inline constexpr int kPairPhases = 4;
inline constexpr int kThreatFeatures = 3;  // the opponent threatens 1, 2, or 3 or more wins

// Pairs of neighbouring parallel lines: an edge line with its second line, a second line with
// the middle one (8 pairs, 2 classes), read as one 10-cell content.
inline constexpr int kPairCount = 8;
inline constexpr int kPairClasses = 2;
inline constexpr int kPairContents = kLineContents * kLineContents;
// Both lines read backwards together are the same pair under a reflection.
inline constexpr int kCanonicalPairContents = (kPairContents + 27 * 27) / 2;

inline constexpr int kThreatFeature = kLineClasses * kCanonicalContents;
inline constexpr int kBiasFeature = kThreatFeature + kThreatFeatures;
inline constexpr int kFeaturesPerPhase = kBiasFeature + 1;
inline constexpr int kPairFeature = kPhases * kFeaturesPerPhase;
inline constexpr int kPairFeaturesPerPhase = kPairClasses * kCanonicalPairContents;
inline constexpr int kFeatureCount = kPairFeature + kPairPhases * kPairFeaturesPerPhase;

// The phase bucket of a board with `blanks` blank cubes.
constexpr int phase_of(int blanks) {
  return blanks <= 2 ? blanks : blanks <= 6 ? 3 : blanks <= 12 ? 4 : 5;
}

// The 12 lines (ranks 1-5, files a-e, the a1-e5 and a5-e1 diagonals) and their classes.
inline constexpr std::array<Bitboard, kLineCount> kLineMasks = {
    kRank1,      kRank1 << 5, kRank1 << 10, kRank1 << 15, kRank1 << 20,  kFileA,
    kFileA << 1, kFileA << 2, kFileA << 3,  kFileA << 4,  kDiagonalA1E5, kDiagonalA5E1};
inline constexpr std::array<int, kLineCount> kLineClass = {0, 1, 2, 1, 0, 0, 1, 2, 1, 0, 3, 3};
// Each pair as (outer line, inner line), so that a symmetry maps a pair onto one of its class
// with the same roles.
inline constexpr std::array<std::array<int, 2>, kPairCount> kPairLines = {
    {{0, 1}, {4, 3}, {5, 6}, {9, 8}, {1, 2}, {3, 2}, {6, 7}, {8, 7}}};
inline constexpr std::array<int, kPairCount> kPairClass = {0, 0, 0, 0, 1, 1, 1, 1};

namespace detail {
// The base-3 number whose digits are the bits of a 5-bit set: 3^i for bit i.
constexpr std::array<std::uint8_t, 32> make_base3() {
  std::array<std::uint8_t, 32> table{};
  for (int bits = 0; bits < 32; ++bits) {
    int value = 0;
    for (int cell = 4; cell >= 0; --cell) value = value * 3 + ((bits >> cell) & 1);
    table[bits] = std::uint8_t(value);
  }
  return table;
}
inline constexpr std::array<std::uint8_t, 32> kBase3 = make_base3();
}  // namespace detail

// A line's content: cell i (in square order) is the i-th base-3 digit, 0 blank, 1 the mover's
// cube, 2 the opponent's.
inline int line_content(Bitboard mover, Bitboard opponent, int line) {
  const Bitboard mask = kLineMasks[line];
  return detail::kBase3[extract_bits(mover, mask)] +
         2 * detail::kBase3[extract_bits(opponent, mask)];
}

// The content read backwards, and the number (0..134) of its class {content, reverse}.
int reversed_content(int content);
int canonical_content(int content);
// The number (0..kCanonicalPairContents-1) of a pair content's class {content, both reversed}.
int canonical_pair_content(int pair_content);

// The features a position activates, as indices into the weight vector (see the top).
struct ActiveFeatures {
  int phase = 0;
  std::array<std::uint32_t, kLineCount> lines{};
  std::array<std::uint32_t, kPairCount> pairs{};
  int pair_count = 0;  // kPairCount in the phases with pairs, else 0
  int threat = -1;     // none when the opponent threatens no win
  int bias = 0;
};
// `opponent_threats`: the opponent's winning moves if it were its turn (opponent_wins()).
ActiveFeatures active_features(const Position& position, SlideSet opponent_threats);

class PatternWeights {
 public:
  // Every feature's weight, in centi-cubes (kFeatureCount of them).
  explicit PatternWeights(std::span<const std::int16_t> weights);

  // The score of a position where the game goes on and the side to move has no win in one.
  Score evaluate(const Position& position, SlideSet opponent_threats) const {
    const Bitboard mover = position.cubes(position.side_to_move());
    const Bitboard opponent = position.cubes(~position.side_to_move());
    const int phase = phase_of(std::popcount(position.blanks()));
    const PhaseTable& table = phases_[phase];
    int score = table.bias;
    std::array<int, kLineCount> contents;
    for (int line = 0; line < kLineCount; ++line) {
      contents[line] = line_content(mover, opponent, line);
      score += table.lines[kLineClass[line]][contents[line]];
    }
    if (phase < kPairPhases) {
      const PairTable& pairs = pairs_[phase];
      for (int pair = 0; pair < kPairCount; ++pair)
        score += pairs[kPairClass[pair]][contents[kPairLines[pair][0]] * kLineContents +
                                         contents[kPairLines[pair][1]]];
    }
    if (opponent_threats != 0)
      score += table.threats[std::min(std::popcount(opponent_threats), 3) - 1];
    return score;
  }

  // The terms of one evaluation, one line of text each, for the `eval` command.
  std::vector<std::string> breakdown_lines(const Position& position) const;

  [[nodiscard]] std::span<const std::int16_t> weights() const { return weights_; }

  // The weights file: magic "QXEV", format version, the layout (phases, line classes, canonical
  // contents, threat features), the weights as little-endian 16-bit integers in feature order,
  // and an FNV-1a checksum of everything before it.
  [[nodiscard]] std::vector<std::byte> serialize() const;
  // Reads format 2 and format 1 (the four phases before the pairs, which evaluates as it did).
  // Throws WeightsFileError naming what is wrong (not a weights file, another layout, a bad
  // checksum, a short file).
  static PatternWeights parse(std::span<const std::byte> bytes);
  // The same from a file; a directory, device, FIFO or file over kMaxFileMebibytes is refused.
  static PatternWeights load(const std::string& file) { return load_weights<PatternWeights>(file); }
  static constexpr std::size_t kMaxFileMebibytes = 1;
  void save(const std::string& file) const;

 private:
  // The weights expanded for evaluation: every one of the 243 contents of each class, so that a
  // line's score is one lookup.
  struct PhaseTable {
    std::array<std::array<std::int16_t, kLineContents>, kLineClasses> lines{};
    std::array<std::int16_t, kThreatFeatures> threats{};
    std::int16_t bias = 0;
  };
  // Every one of the 59,049 contents of each pair class, some 240 KB a phase (so on the heap).
  using PairTable = std::array<std::array<std::int16_t, kPairContents>, kPairClasses>;
  std::vector<std::int16_t> weights_;
  std::array<PhaseTable, kPhases> phases_{};
  std::vector<PairTable> pairs_ = std::vector<PairTable>(kPairPhases);
};

// The weights built into the binary (engine/search/weights/), fitted by quixo-train.
const PatternWeights& builtin_weights();

}  // namespace quixo::patterns
