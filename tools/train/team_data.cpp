#include "team_data.hpp"

#include <bit>
#include <string_view>
#include <utility>

#include "core/move_scan.hpp"
#include "core/packed_slides.hpp"
#include "parallel_work.hpp"
#include "search/engine4.hpp"
#include "search/evaluation4.hpp"
#include "self_play.hpp"

namespace quixo::train {

namespace {

// What the team game gives the self-play template (self_play.hpp).
struct TeamGame {
  using Engine = Engine4;
  using Position = Position4;
  using Move = Move4;
  using Record = TeamRecord;
  static constexpr std::uint64_t kSeedSalt = 0x7465616dull;
  static constexpr std::string_view kWhat = "team self-play";

  // The legal moves of the seat to move that do not make the other team's line (a forced pass
  // is one of them).
  static std::vector<Move4> safe_moves(const Position4& position) {
    const SlideSet losses = team_scan(position).losses;
    std::vector<Move4> moves;
    for (const Move4 move : position.legal_moves())
      if (move.is_pass() || ((losses >> move.slide()) & 1) == 0) moves.push_back(move);
    return moves;
  }
  static bool mover_has_win(const Position4& position) {
    return (team_scan(position).wins & slides_from(position.takeable())) != 0;
  }
  static bool in_domain(const Position4& position) { return in_team_evaluation_domain(position); }
  static Record record_of(const Position4& position) {
    TeamRecord record;
    record.position = position;
    return record;
  }
  static Color side_of(const Record& record) { return record.position.team_to_move(); }
};

}  // namespace

bool in_team_evaluation_domain(const Position4& position) {
  if (position.is_game_over()) return false;
  const SlideSet slides = slides_from(position.takeable());
  const MoveScan scan = team_scan(position);
  return (scan.wins & slides) == 0 && (slides == 0 || (slides & ~scan.losses) != 0);
}

std::vector<TeamRecord> play_team_games(const SelfPlaySettings& settings,
                                        const Progress& progress) {
  return play_games_of<TeamGame>(settings, progress);
}

std::vector<TeamRecord> deep_search_team(const std::vector<TeamRecord>& games,
                                         const DeepSearchSettings& settings,
                                         const Progress& progress) {
  return deep_search_on_threads<Move4, Engine4>(
      games, settings, progress, "deep team search", [](const TeamRecord&) { return true; },
      configure_data_engine<Engine4>, [](const TeamRecord& record) { return record.position; });
}

Example prepare_team(const TeamRecord& record) {
  const SlideSet own_wins = team_scan(record.position).wins;
  const SlideSet opponent_wins = opponent_team_wins(record.position);
  const patterns::TeamFeatures active =
      patterns::team_features(record.position, own_wins, opponent_wins);
  Example example;
  for (int i = 0; i < active.count; ++i)
    example.features[example.feature_count++] = active.indices[i];
  example.source = record.source;
  example.label = record.label;
  example.has_score = record.has_score;
  example.score = record.score;
  example.hand = float(evaluate(record.position, own_wins, opponent_wins));
  return example;
}

FitResult fit_team_weights(std::span<const TeamRecord> records, const FitSettings& settings,
                           const Progress& progress) {
  std::vector<Example> training, validation;
  for (const TeamRecord& record : records)
    (record.validation ? validation : training).push_back(prepare_team(record));
  return fit_examples(std::move(training), std::move(validation), patterns::kTeamFeatureCount,
                      settings, progress);
}

std::vector<std::string> team_evaluation_report(std::span<const TeamRecord> records,
                                                const patterns::TeamPatternWeights& weights,
                                                double scale) {
  std::vector<ReportEntry> entries;
  for (const TeamRecord& record : records) {
    const SlideSet own_wins = team_scan(record.position).wins;
    const SlideSet opponent_wins = opponent_team_wins(record.position);
    entries.push_back(
        {record.validation, patterns::phase_of(std::popcount(record.position.blanks())),
         record.source, weights.evaluate(record.position, own_wins, opponent_wins) / scale,
         evaluate(record.position, own_wins, opponent_wins) / scale,
         fit_label(record.source, record.label, record.has_score, record.score, scale)});
  }
  return evaluation_report_lines(entries);
}

}  // namespace quixo::train
