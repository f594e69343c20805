// The learned evaluation of four-player (team) positions: the design of the two-player one
// (pattern_evaluation.hpp) seen from the team to move, fitted by quixo-train to team self-play
// games and deeper searches (there are no tables of this game). A position's score is the sum of
// the weights of its active features, by the game's phase (the blank count, as in the
// two-player game):
//   - the 12 lines' contents (blank, the team to move's cube, the other team's), by line class,
//     a content and its reverse sharing one weight, as in the two-player evaluation;
//   - the points of the cubes, through each seat's facts (evaluation4.hpp's SeatFacts), by seat
//     relative to the mover: its team's wins in one it could play (1, 2, 3 or more) for the next
//     opponent, the partner and the last opponent (the mover has none in the domain: it would
//     play it); the border cubes that point to it, which only it may take (0-6, 7 or more); and
//     whether it has nothing to take, so that it must pass;
//   - a bias.
// The features are numbered once, here, for the engine and the trainer alike:
//   phase * kTeamFeaturesPerPhase + class * kCanonicalContents + canonical content   (12 lines)
//   phase * kTeamFeaturesPerPhase + kTeamWinFeature + (relative - 1) * 3 + min(wins, 3) - 1
//   phase * kTeamFeaturesPerPhase + kTeamPointFeature + relative * 8 + min(cubes, 7)
//   phase * kTeamFeaturesPerPhase + kTeamPassFeature + relative               (a forced pass)
//   phase * kTeamFeaturesPerPhase + kTeamBiasFeature                               (always)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/position4.hpp"
#include "evaluation4.hpp"
#include "evaluator.hpp"
#include "pattern_evaluation.hpp"
#include "score.hpp"
#include "weights_file.hpp"

namespace quixo::patterns {

inline constexpr int kTeamWinSeats = 3;    // relative seats 1..3
inline constexpr int kTeamWinBuckets = 3;  // 1, 2, 3 or more wins
inline constexpr int kTeamPointBuckets = 8;
inline constexpr int kTeamLineFeatures = kLineClasses * kCanonicalContents;
inline constexpr int kTeamWinFeature = kTeamLineFeatures;
inline constexpr int kTeamPointFeature = kTeamWinFeature + kTeamWinSeats * kTeamWinBuckets;
inline constexpr int kTeamPassFeature = kTeamPointFeature + kRelativeSeats * kTeamPointBuckets;
inline constexpr int kTeamBiasFeature = kTeamPassFeature + kRelativeSeats;
inline constexpr int kTeamFeaturesPerPhase = kTeamBiasFeature + 1;
inline constexpr int kTeamFeatureCount = kPhases * kTeamFeaturesPerPhase;

// The active features of a position, as indices into the weight vector (see the top).
struct TeamFeatures {
  static constexpr int kMaxCount = kLineCount + kTeamWinSeats + 2 * kRelativeSeats + 1;
  std::array<std::uint32_t, kMaxCount> indices{};
  int count = 0;
  int phase = 0;
};
// `own_team_wins` / `opponent_team_wins` as evaluate() (evaluation4.hpp) takes them.
TeamFeatures team_features(const Position4& position, SlideSet own_team_wins,
                           SlideSet opponent_team_wins);

class TeamPatternWeights {
 public:
  // Every feature's weight, in centi-cubes (kTeamFeatureCount of them).
  explicit TeamPatternWeights(std::span<const std::int16_t> weights);

  // The score of a position where the game goes on, for the team to move.
  Score evaluate(const Position4& position, SlideSet own_team_wins,
                 SlideSet opponent_team_wins) const {
    const Color team = position.team_to_move();
    const Bitboard mover = position.cubes(team), opponent = position.cubes(~team);
    const PhaseTable& table = phases_[phase_of(std::popcount(position.blanks()))];
    int score = table.bias;
    for (int line = 0; line < kLineCount; ++line)
      score += table.lines[kLineClass[line]][line_content(mover, opponent, line)];
    const SeatFacts facts = seat_facts(position, own_team_wins, opponent_team_wins);
    for (int relative = 0; relative < kRelativeSeats; ++relative) {
      if (relative > 0 && facts.wins[relative] > 0)
        score += table.wins[relative - 1][std::min(facts.wins[relative], kTeamWinBuckets) - 1];
      score +=
          table.points[relative][std::min(facts.own_border_cubes[relative], kTeamPointBuckets - 1)];
      if (facts.forced_pass[relative]) score += table.passes[relative];
    }
    return score;
  }
  Score evaluate(const Position4& position) const;

  // The terms of one evaluation, one line of text each, for the `eval` command.
  std::vector<std::string> breakdown_lines(const Position4& position) const;

  [[nodiscard]] std::span<const std::int16_t> weights() const { return weights_; }

  // The weights file: magic "QXE4", then as the two-player file (weights_file.hpp).
  [[nodiscard]] std::vector<std::byte> serialize() const;
  // Throws WeightsFileError naming what is wrong.
  static TeamPatternWeights parse(std::span<const std::byte> bytes);
  // Whether `bytes` are meant as a team weights file (its magic), for a loader that takes
  // either game's file.
  static bool is_team_file(std::span<const std::byte> bytes);
  static TeamPatternWeights load(const std::string& file) {
    return load_weights<TeamPatternWeights>(file);
  }
  static constexpr std::size_t kMaxFileMebibytes = 1;
  void save(const std::string& file) const;

 private:
  // The line weights expanded to every one of the 243 contents, so that a line is one lookup.
  struct PhaseTable {
    std::array<std::array<std::int16_t, kLineContents>, kLineClasses> lines{};
    std::array<std::array<std::int16_t, kTeamWinBuckets>, kTeamWinSeats> wins{};
    std::array<std::array<std::int16_t, kTeamPointBuckets>, kRelativeSeats> points{};
    std::array<std::int16_t, kRelativeSeats> passes{};
    std::int16_t bias = 0;
  };
  std::vector<std::int16_t> weights_;
  std::array<PhaseTable, kPhases> phases_{};
};

// The team weights built into the binary (engine/search/weights/), fitted by quixo-train.
const TeamPatternWeights& builtin_team_weights();

}  // namespace quixo::patterns

namespace quixo {

// What the team game gives BasicEvaluator (evaluator.hpp).
struct TeamEvaluation {
  using Weights = patterns::TeamPatternWeights;
  static Score hand(const Position4& position, SlideSet own_team_wins,
                    SlideSet opponent_team_wins) {
    return evaluate(position, own_team_wins, opponent_team_wins);
  }
  static std::vector<std::string> hand_breakdown_lines(const Position4& position) {
    return breakdown_lines(evaluate_with_breakdown(position));
  }
  static const Weights& builtin_weights() { return patterns::builtin_team_weights(); }
};
// The learned team weights won their SPRT against the hand-written evaluation (README, "The team
// game's weights").
using TeamEvaluator = BasicEvaluator<TeamEvaluation>;

}  // namespace quixo
