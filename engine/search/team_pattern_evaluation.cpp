#include "team_pattern_evaluation.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace quixo::patterns {

namespace {

constexpr std::uint32_t kFormatVersion = 1;
constexpr std::array<std::uint32_t, 6> kLayout = {kPhases,
                                                  kLineClasses,
                                                  kCanonicalContents,
                                                  kTeamWinSeats* kTeamWinBuckets,
                                                  kRelativeSeats* kTeamPointBuckets,
                                                  kRelativeSeats};
constexpr WeightsFormat kFormat = {{'Q', 'X', 'E', '4'},
                                   "quixo team evaluation weights",
                                   kFormatVersion,
                                   kLayout,
                                   "phases, line classes, contents, wins, points, passes",
                                   kTeamFeatureCount};

const char* const kRelativeSeatNames[kRelativeSeats] = {"mover", "next opponent", "partner",
                                                        "last opponent"};

}  // namespace

TeamFeatures team_features(const Position4& position, SlideSet own_team_wins,
                           SlideSet opponent_team_wins) {
  const Color team = position.team_to_move();
  const Bitboard mover = position.cubes(team), opponent = position.cubes(~team);
  TeamFeatures features;
  features.phase = phase_of(std::popcount(position.blanks()));
  const int base = features.phase * kTeamFeaturesPerPhase;
  const auto add = [&](int index) { features.indices[features.count++] = std::uint32_t(index); };
  for (int line = 0; line < kLineCount; ++line)
    add(base + kLineClass[line] * kCanonicalContents +
        canonical_content(line_content(mover, opponent, line)));
  const SeatFacts facts = seat_facts(position, own_team_wins, opponent_team_wins);
  for (int relative = 0; relative < kRelativeSeats; ++relative) {
    if (relative > 0 && facts.wins[relative] > 0)
      add(base + kTeamWinFeature + (relative - 1) * kTeamWinBuckets +
          std::min(facts.wins[relative], kTeamWinBuckets) - 1);
    add(base + kTeamPointFeature + relative * kTeamPointBuckets +
        std::min(facts.own_border_cubes[relative], kTeamPointBuckets - 1));
    if (facts.forced_pass[relative]) add(base + kTeamPassFeature + relative);
  }
  add(base + kTeamBiasFeature);
  return features;
}

TeamPatternWeights::TeamPatternWeights(std::span<const std::int16_t> weights)
    : weights_(weights.begin(), weights.end()) {
  if (weights_.size() != std::size_t(kTeamFeatureCount))
    throw std::invalid_argument("TeamPatternWeights: " + std::to_string(weights_.size()) +
                                " weights given, " + std::to_string(kTeamFeatureCount) +
                                " expected");
  for (int phase = 0; phase < kPhases; ++phase) {
    PhaseTable& table = phases_[phase];
    const std::int16_t* const base = weights_.data() + phase * kTeamFeaturesPerPhase;
    for (int line_class = 0; line_class < kLineClasses; ++line_class)
      for (int content = 0; content < kLineContents; ++content)
        table.lines[line_class][content] =
            base[line_class * kCanonicalContents + canonical_content(content)];
    for (int seat = 0; seat < kTeamWinSeats; ++seat)
      for (int bucket = 0; bucket < kTeamWinBuckets; ++bucket)
        table.wins[seat][bucket] = base[kTeamWinFeature + seat * kTeamWinBuckets + bucket];
    for (int seat = 0; seat < kRelativeSeats; ++seat) {
      for (int bucket = 0; bucket < kTeamPointBuckets; ++bucket)
        table.points[seat][bucket] = base[kTeamPointFeature + seat * kTeamPointBuckets + bucket];
      table.passes[seat] = base[kTeamPassFeature + seat];
    }
    table.bias = base[kTeamBiasFeature];
  }
}

Score TeamPatternWeights::evaluate(const Position4& position) const {
  return evaluate(position, team_scan(position).wins, opponent_team_wins(position));
}

std::vector<std::string> TeamPatternWeights::breakdown_lines(const Position4& position) const {
  const Color team = position.team_to_move();
  const Bitboard mover = position.cubes(team), opponent = position.cubes(~team);
  const int phase = phase_of(std::popcount(position.blanks()));
  const PhaseTable& table = phases_[phase];
  const SlideSet own_wins = team_scan(position).wins;
  const SeatFacts facts = seat_facts(position, own_wins, opponent_team_wins(position));
  std::vector<std::string> lines = {"learned team evaluation, phase " + std::to_string(phase) +
                                    " (" + std::to_string(std::popcount(position.blanks())) +
                                    " blanks)"};
  int line_sum = 0;
  for (int line = 0; line < kLineCount; ++line)
    line_sum += table.lines[kLineClass[line]][line_content(mover, opponent, line)];
  lines.push_back("lines " + std::to_string(line_sum));
  for (int relative = 0; relative < kRelativeSeats; ++relative) {
    const int cubes = facts.own_border_cubes[relative];
    int seat_sum = table.points[relative][std::min(cubes, kTeamPointBuckets - 1)];
    if (relative > 0 && facts.wins[relative] > 0)
      seat_sum += table.wins[relative - 1][std::min(facts.wins[relative], kTeamWinBuckets) - 1];
    if (facts.forced_pass[relative]) seat_sum += table.passes[relative];
    lines.push_back(std::string(kRelativeSeatNames[relative]) + " " + std::to_string(seat_sum) +
                    " (border cubes pointing to it: " + std::to_string(cubes) +
                    ", wins in one: " + std::to_string(facts.wins[relative]) +
                    (facts.forced_pass[relative] ? ", must pass" : "") + ")");
  }
  lines.push_back("bias " + std::to_string(table.bias));
  lines.push_back("immediate wins for the seat to move: " + std::to_string(facts.wins[0]));
  lines.push_back("total " + std::to_string(evaluate(position)) + " (team to move)");
  return lines;
}

std::vector<std::byte> TeamPatternWeights::serialize() const {
  return encode_weights(kFormat, weights_);
}

TeamPatternWeights TeamPatternWeights::parse(std::span<const std::byte> bytes) {
  const std::uint32_t version = format_version(bytes, kFormat);
  if (version != kFormatVersion)
    throw WeightsFileError("team weights format version " + std::to_string(version) +
                           ", this engine reads " + std::to_string(kFormatVersion));
  return TeamPatternWeights(decode_weights(bytes, kFormat));
}

bool TeamPatternWeights::is_team_file(std::span<const std::byte> bytes) {
  return has_magic(bytes, kFormat.magic);
}

void TeamPatternWeights::save(const std::string& file) const {
  write_weights_file(file, serialize());
}

}  // namespace quixo::patterns
