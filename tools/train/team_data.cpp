#include "team_data.hpp"

#include <atomic>
#include <bit>
#include <map>
#include <random>
#include <stdexcept>

#include "core/move_scan.hpp"
#include "core/packed_slides.hpp"
#include "parallel_work.hpp"
#include "search/engine4.hpp"
#include "search/evaluation4.hpp"

namespace quixo::train {

namespace {

// The legal moves of the seat to move that do not make the other team's line (a forced pass is
// one of them).
std::vector<Move4> safe_moves(const Position4& position) {
  const SlideSet losses = team_scan(position).losses;
  std::vector<Move4> moves;
  for (const Move4 move : position.legal_moves())
    if (move.is_pass() || ((losses >> move.slide()) & 1) == 0) moves.push_back(move);
  return moves;
}

bool seat_has_win(const Position4& position) {
  return (team_scan(position).wins & slides_from(position.takeable())) != 0;
}

Move4 random_move_of(std::mt19937_64& random, const std::vector<Move4>& moves) {
  return moves[random_below(random, moves.size())];
}

void configure(Engine4& engine, int hash_mb) {
  EngineOptions options;
  options.threads = 1;  // one thread: a search at fixed nodes, and so the data, is deterministic
  options.hash_mb = hash_mb;
  engine.set_options(options);
  // The hand-written evaluation plays and scores, whatever the engine's default, so that the
  // same command makes the same weights again.
  engine.set_evaluator(TeamEvaluator());
}

// The start of a game: random moves that do not lose at once, drawn again until the game is
// still on and the seat to move has no win in one after them.
Position4 random_team_opening(std::mt19937_64& random, const SelfPlaySettings& settings,
                              std::vector<Position4Key>& history) {
  for (;;) {
    history.clear();
    Position4 position = Position4::start();
    const int plies = settings.opening_min_plies +
                      int(random_below(random, std::uint64_t(settings.opening_max_plies -
                                                             settings.opening_min_plies + 1)));
    bool playable = true;
    for (int ply = 0; ply < plies && playable; ++ply) {
      const std::vector<Move4> moves = safe_moves(position);
      if (moves.empty()) {
        playable = false;
        break;
      }
      history.push_back(position.key());
      position = position.after(random_move_of(random, moves));
      playable = !position.is_game_over();
    }
    if (playable && !seat_has_win(position)) return position;
  }
}

std::vector<TeamRecord> play_team_game(Engine4& engine, std::uint32_t game,
                                       const SelfPlaySettings& settings) {
  std::mt19937_64 random(mix64(settings.seed ^ mix64(game) ^ 0x7465616dull));
  std::vector<Position4Key> history;
  Position4 position = random_team_opening(random, settings, history);
  std::map<Position4Key, int> seen;
  for (const Position4Key& key : history) ++seen[key];
  ++seen[position.key()];
  SearchLimits limits;
  limits.nodes = settings.nodes;
  std::vector<TeamRecord> records;
  Outcome outcome = Outcome::Ongoing;
  engine.new_game();
  for (;;) {
    if (position.is_game_over()) {
      outcome = position.outcome();
      break;
    }
    // A third occurrence, or a game too long: a draw (outcome stays Ongoing).
    if (seen[position.key()] >= 3 || int(history.size()) >= settings.max_plies) break;
    if (in_team_evaluation_domain(position)) {
      TeamRecord record;
      record.position = position;
      records.push_back(record);
    }
    // Drawn every ply, so that a game's random numbers do not depend on the engine's moves.
    const bool random_move = random_unit(random) < settings.random_move_rate;
    const std::vector<Move4> safe = safe_moves(position);
    Move4 move;
    if (random_move && !seat_has_win(position) && !safe.empty()) {
      move = random_move_of(random, safe);
    } else {
      engine.set_position(position, history);
      move = search<Move4>(engine, limits).best;
      if (move.is_none() || !position.is_legal(move))
        throw std::runtime_error("the engine answered no legal move in a team self-play game");
    }
    history.push_back(position.key());
    position = position.after(move);
    ++seen[position.key()];
  }
  const bool validation = is_validation_game(game, settings.validation_percent);
  for (TeamRecord& record : records) {
    record.game = game;
    record.validation = validation;
    record.label = outcome == Outcome::Ongoing                          ? 0.5f
                   : outcome == win_for(record.position.team_to_move()) ? 1.0f
                                                                        : 0.0f;
  }
  return records;
}

}  // namespace

bool in_team_evaluation_domain(const Position4& position) {
  if (position.is_game_over()) return false;
  const SlideSet slides = slides_from(position.takeable());
  const MoveScan scan = team_scan(position);
  return (scan.wins & slides) == 0 && (slides == 0 || (slides & ~scan.losses) != 0);
}

std::vector<TeamRecord> play_team_games(const SelfPlaySettings& settings,
                                        const Progress& progress) {
  return play_games_on_threads<Engine4, TeamRecord>(
      settings, progress, "team self-play", configure,
      [&settings](Engine4& engine, std::uint32_t game) {
        return play_team_game(engine, game, settings);
      });
}

std::vector<TeamRecord> deep_search_team(const std::vector<TeamRecord>& games,
                                         const DeepSearchSettings& settings,
                                         const Progress& progress) {
  return deep_search_on_threads<Move4, Engine4>(
      games, settings, progress, "deep team search", [](const TeamRecord&) { return true; },
      configure, [](const TeamRecord& record) { return record.position; });
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
