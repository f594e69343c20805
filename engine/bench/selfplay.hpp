// Self-play matches between two in-process engines at a fixed node (or depth) budget per move:
// the quick way to measure what a search feature gains before the real arena exists. Every
// opening is a few seeded random plies from the start and is played twice with colours swapped,
// so results come in pairs and are summarised as a pentanomial (pair score 0, 0.5, 1, 1.5, 2).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "search/engine.hpp"

namespace quixo {

struct MatchConfig {
  EngineOptions a, b;  // threads is forced to 1 for both
  std::string name_a = "A", name_b = "B";
  std::uint64_t nodes_per_move = 20000;  // 0: no node limit
  int depth_per_move = 0;                // 0: no depth limit (at least one limit must be set)
  int move_time_ms = 0;  // 0: none; a time limit measures what a feature costs in speed too
  int game_pairs = 100;
  int opening_plies = 6;
  std::uint32_t seed = 1;
  int max_plies = 200;  // counted from the start position, opening plies included
  int concurrency = 1;  // games played at the same time, each with its own pair of engines
};

// How a game ended.
enum class GameEnd : std::uint8_t {
  Unfinished,   // never set in a finished match
  Line,         // a line of five (Position::outcome, the opponent-line rule included)
  Repetition,   // the same position (board and side to move) for the third time: draw
  PlyCap,       // max_plies reached: draw
  IllegalMove,  // the engine to move answered an illegal move or none: it loses
};

enum class GameResult : std::uint8_t { AWins, BWins, Draw };

struct GameRecord {
  int pair = 0;               // index of the opening
  bool a_is_x = true;         // engine A played X (the first game of a pair) or O (the second)
  std::vector<Move> opening;  // the random opening plies
  std::vector<Move> moves;    // the plies the engines played after it (a rejected move is not in)
  Position final_position;
  GameEnd end = GameEnd::Unfinished;
  GameResult result = GameResult::Draw;
  std::string illegal_move;  // what the losing engine answered, when end == IllegalMove

  int plies() const { return int(opening.size() + moves.size()); }
  // Engine A's score in half points: 2 win, 1 draw, 0 loss.
  int half_points_a() const {
    return result == GameResult::AWins ? 2 : result == GameResult::Draw ? 1 : 0;
  }
};

struct MatchResult {
  int wins_a = 0, losses_a = 0, draws = 0;
  // Pairs by engine A's pair score: index 0..4 = 0, 0.5, 1, 1.5, 2 points.
  std::array<int, 5> pentanomial = {0, 0, 0, 0, 0};
  std::vector<GameRecord> games;  // ordered by pair, then A as X before A as O

  int pairs() const;
};

// Called after each completed pair (in completion order, one call at a time) with the number of
// pairs done and the totals so far (their `games` stay empty).
using MatchProgress = std::function<void(int pairs_done, const MatchResult& totals)>;

// Plays the match; blocks until every game is over. Throws std::invalid_argument for a config
// without any per-move limit or with a negative count.
MatchResult play_match(const MatchConfig& config, const MatchProgress& progress = {});

// One opening: `plies` random legal moves from the start, none of them winning or losing at
// once, after which the side to move has no win in one. Deterministic for a given generator.
std::vector<Move> random_opening(int plies, std::mt19937& rng);

// Plays one game between `engine_a` and `engine_b` from `opening` (both get new_game() first).
GameRecord play_game(Engine& engine_a, Engine& engine_b, const std::vector<Move>& opening,
                     bool a_is_x, const MatchConfig& config);

// ---- Statistics (engine A's point of view) ----

// Elo difference of a score fraction: -400 log10(1/s - 1). +-infinity at s = 1 and s = 0.
double elo_from_score(double score);

// Mean and (population) variance of the pair score, in points per pair (0..2).
struct PairScoreMoments {
  double mean = 0;
  double variance = 0;
};
PairScoreMoments pair_score_moments(const std::array<int, 5>& pentanomial);

struct MatchStatistics {
  int pairs = 0;
  double score = 0.5;      // fraction of the points won by A
  double score_error = 0;  // standard error of `score`
  double elo = 0;          // from `score`
  double elo_low = 0;      // 95% interval: elo of score -+ 1.96 score_error
  double elo_high = 0;
  double los = 0.5;  // likelihood of superiority, P(A stronger), normal approximation
};
// Statistics of a pentanomial: the pair scores are independent samples, which accounts for the
// correlation between the two games of an opening. No pairs: score 0.5, Elo 0, LOS 0.5.
MatchStatistics match_statistics(const std::array<int, 5>& pentanomial);

std::string to_string(GameEnd end);

}  // namespace quixo
