#include "pattern_evaluation.hpp"

namespace quixo::patterns {

namespace {

constexpr int digit(int content, int cell) {
  for (int i = 0; i < cell; ++i) content /= 3;
  return content % 3;
}

constexpr int reverse_of(int content) {
  int reversed = 0;
  for (int cell = 0; cell < kLineCells; ++cell) reversed = reversed * 3 + digit(content, cell);
  return reversed;
}

// The class number of each content: classes numbered in order of their smallest member.
constexpr std::array<std::uint8_t, kLineContents> make_canonical() {
  std::array<std::uint8_t, kLineContents> table{};
  int next = 0;
  for (int content = 0; content < kLineContents; ++content) {
    const int reversed = reverse_of(content);
    table[content] = std::uint8_t(reversed < content ? table[reversed] : next++);
  }
  return table;
}
constexpr std::array<std::uint8_t, kLineContents> kCanonical = make_canonical();
static_assert(*std::max_element(kCanonical.begin(), kCanonical.end()) == kCanonicalContents - 1);

// The pair classes: numbered in order of their smallest member.
std::vector<std::uint16_t> make_pair_canonical() {
  std::vector<std::uint16_t> table(kPairContents);
  int next = 0;
  for (int content = 0; content < kPairContents; ++content) {
    const int reversed =
        reverse_of(content / kLineContents) * kLineContents + reverse_of(content % kLineContents);
    table[std::size_t(content)] =
        std::uint16_t(reversed < content ? table[std::size_t(reversed)] : next++);
  }
  if (next != kCanonicalPairContents) throw std::logic_error("pair classes miscounted");
  return table;
}
const std::vector<std::uint16_t>& pair_canonical() {
  static const std::vector<std::uint16_t> table = make_pair_canonical();
  return table;
}

constexpr std::uint32_t kFormatVersion = 2;
constexpr std::array<std::uint32_t, 7> kLayout = {
    kPhases,     kLineClasses, kCanonicalContents,    kThreatFeatures,
    kPairPhases, kPairClasses, kCanonicalPairContents};
constexpr std::string_view kLayoutNames = "phases, line classes, contents, threats, pairs";
constexpr WeightsFormat kFormat = {{'Q', 'X', 'E', 'V'}, "quixo evaluation weights",
                                   kFormatVersion,       kLayout,
                                   kLayoutNames,         kFeatureCount};

// Format 1, the layout before the pairs: four phases (0-2, 3-6, 7-12 and 13-25 blanks) of line,
// threat and bias weights. Such a file is read into today's layout so that it evaluates every
// position as it did: each phase takes the weights of the old phase that held its blank counts,
// and the pairs weigh nothing. Fits made before the pairs stay usable, for a match against
// today's weights or as the donor of some phases (quixo-train merge).
constexpr std::uint32_t kFormat1 = 1;
constexpr int kFormat1Phases = 4;
constexpr std::array<std::uint32_t, 4> kFormat1Layout = {kFormat1Phases, kLineClasses,
                                                         kCanonicalContents, kThreatFeatures};
constexpr std::array<int, kPhases> kFormat1PhaseOf = {0, 0, 0, 1, 2, 3};
constexpr WeightsFormat kFormat1Frame = {{'Q', 'X', 'E', 'V'},
                                         "quixo evaluation weights",
                                         kFormat1,
                                         kFormat1Layout,
                                         kLayoutNames,
                                         std::size_t(kFormat1Phases) * kFeaturesPerPhase};

const char* const kClassNames[kLineClasses] = {"edge", "second", "middle", "diagonal"};
const char* const kPairClassNames[kPairClasses] = {"edge and second", "second and middle"};
const char* const kLineNames[kLineCount] = {"rank 1", "rank 2", "rank 3",         "rank 4",
                                            "rank 5", "file a", "file b",         "file c",
                                            "file d", "file e", "diagonal a1-e5", "diagonal a5-e1"};

}  // namespace

int reversed_content(int content) {
  return reverse_of(content);
}

int canonical_content(int content) {
  return kCanonical[content];
}

int canonical_pair_content(int pair_content) {
  return pair_canonical()[std::size_t(pair_content)];
}

ActiveFeatures active_features(const Position& position, SlideSet opponent_threats) {
  const Bitboard mover = position.cubes(position.side_to_move());
  const Bitboard opponent = position.cubes(~position.side_to_move());
  ActiveFeatures features;
  features.phase = phase_of(std::popcount(position.blanks()));
  const int base = features.phase * kFeaturesPerPhase;
  std::array<int, kLineCount> contents;
  for (int line = 0; line < kLineCount; ++line) {
    contents[line] = line_content(mover, opponent, line);
    features.lines[line] =
        std::uint32_t(base + kLineClass[line] * kCanonicalContents + kCanonical[contents[line]]);
  }
  if (features.phase < kPairPhases) {
    features.pair_count = kPairCount;
    const int pair_base = kPairFeature + features.phase * kPairFeaturesPerPhase;
    for (int pair = 0; pair < kPairCount; ++pair)
      features.pairs[pair] =
          std::uint32_t(pair_base + kPairClass[pair] * kCanonicalPairContents +
                        canonical_pair_content(contents[kPairLines[pair][0]] * kLineContents +
                                               contents[kPairLines[pair][1]]));
  }
  if (opponent_threats != 0)
    features.threat = base + kThreatFeature + std::min(std::popcount(opponent_threats), 3) - 1;
  features.bias = base + kBiasFeature;
  return features;
}

PatternWeights::PatternWeights(std::span<const std::int16_t> weights)
    : weights_(weights.begin(), weights.end()) {
  if (weights_.size() != std::size_t(kFeatureCount))
    throw std::invalid_argument("PatternWeights: " + std::to_string(weights_.size()) +
                                " weights given, " + std::to_string(kFeatureCount) + " expected");
  for (int phase = 0; phase < kPhases; ++phase) {
    const std::int16_t* w = weights_.data() + phase * kFeaturesPerPhase;
    PhaseTable& table = phases_[phase];
    for (int line_class = 0; line_class < kLineClasses; ++line_class)
      for (int content = 0; content < kLineContents; ++content)
        table.lines[line_class][content] = w[line_class * kCanonicalContents + kCanonical[content]];
    for (int threat = 0; threat < kThreatFeatures; ++threat)
      table.threats[threat] = w[kThreatFeature + threat];
    table.bias = w[kBiasFeature];
  }
  for (int phase = 0; phase < kPairPhases; ++phase) {
    const std::int16_t* w = weights_.data() + kPairFeature + phase * kPairFeaturesPerPhase;
    for (int pair_class = 0; pair_class < kPairClasses; ++pair_class)
      for (int content = 0; content < kPairContents; ++content)
        pairs_[phase][pair_class][content] =
            w[pair_class * kCanonicalPairContents + canonical_pair_content(content)];
  }
}

std::vector<std::string> PatternWeights::breakdown_lines(const Position& position) const {
  const Bitboard mover = position.cubes(position.side_to_move());
  const Bitboard opponent = position.cubes(~position.side_to_move());
  const SlideSet threats = opponent_wins(position);
  const int phase = phase_of(std::popcount(position.blanks()));
  const PhaseTable& table = phases_[phase];
  std::vector<std::string> lines;
  lines.push_back("learned evaluation, phase " + std::to_string(phase) + " (" +
                  std::to_string(std::popcount(position.blanks())) + " blank cubes)");
  for (int line = 0; line < kLineCount; ++line) {
    const int content = line_content(mover, opponent, line);
    // The cells in square order, with the sides' own symbols.
    const bool x_moves = position.side_to_move() == Color::X;
    std::string cells;
    for (int cell = 0; cell < kLineCells; ++cell)
      cells += (x_moves ? ".xo" : ".ox")[digit(content, cell)];
    lines.push_back(std::string(kLineNames[line]) + " (" + kClassNames[kLineClass[line]] + ") " +
                    cells + " " + std::to_string(table.lines[kLineClass[line]][content]));
  }
  for (int pair = 0; pair < (phase < kPairPhases ? kPairCount : 0); ++pair) {
    const int outer = kPairLines[pair][0], inner = kPairLines[pair][1];
    const int content =
        line_content(mover, opponent, outer) * kLineContents + line_content(mover, opponent, inner);
    lines.push_back("pair " + std::string(kLineNames[outer]) + " + " + kLineNames[inner] + " (" +
                    kPairClassNames[kPairClass[pair]] + ") " +
                    std::to_string(pairs_[phase][kPairClass[pair]][content]));
  }
  const int threat_count = std::popcount(threats);
  const int threat_score = threat_count ? table.threats[std::min(threat_count, 3) - 1] : 0;
  lines.push_back("threats " + std::to_string(threat_score) +
                  " (opponent wins in one: " + std::to_string(threat_count) + ")");
  lines.push_back("bias " + std::to_string(table.bias));
  lines.push_back("immediate wins for the side to move: " +
                  std::to_string(std::popcount(scan_moves(position).wins)));
  lines.push_back("total " + std::to_string(evaluate(position, threats)) + " (side to move)");
  return lines;
}

std::vector<std::byte> PatternWeights::serialize() const {
  return encode_weights(kFormat, weights_);
}

PatternWeights PatternWeights::parse(std::span<const std::byte> bytes) {
  const std::uint32_t version = format_version(bytes, kFormat);
  if (version == kFormatVersion) return PatternWeights(decode_weights(bytes, kFormat));
  if (version != kFormat1)
    throw WeightsFileError("weights format version " + std::to_string(version) +
                           ", this engine reads " + std::to_string(kFormat1) + " and " +
                           std::to_string(kFormatVersion));
  const std::vector<std::int16_t> old = decode_weights(bytes, kFormat1Frame);
  std::vector<std::int16_t> weights(kFeatureCount);
  for (int phase = 0; phase < kPhases; ++phase)
    for (int feature = 0; feature < kFeaturesPerPhase; ++feature)
      weights[phase * kFeaturesPerPhase + feature] =
          old[std::size_t(kFormat1PhaseOf[phase] * kFeaturesPerPhase + feature)];
  return PatternWeights(weights);
}

void PatternWeights::save(const std::string& file) const {
  write_weights_file(file, serialize());
}

}  // namespace quixo::patterns
