#include "selfplay.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <exception>
#include <future>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "core/move_scan.hpp"
#include "core/notation.hpp"

namespace quixo {

namespace {

// How many times a random opening is redrawn before giving up: only a position in which every
// move ends the game could exhaust it, and the first plies of a game never get there.
constexpr int kOpeningAttempts = 10000;
// How many times play_match redraws an opening that an earlier pair already uses. Fixed-budget
// engines are deterministic, so a repeated opening would just repeat both games.
constexpr int kFreshOpeningAttempts = 100;

Move pick(SlideSet moves, std::mt19937& rng) {
  std::uniform_int_distribution<int> choose(0, std::popcount(moves) - 1);
  for (int skip = choose(rng); skip > 0; --skip) moves &= moves - 1;
  return Move(SlideIndex(std::countr_zero(moves)));
}

// The engine's answer to one search: go, then wait for the one bestmove.
Move search_move(Engine& engine, const SearchLimits& limits) {
  auto answer = std::make_shared<std::promise<Move>>();
  std::future<Move> best = answer->get_future();
  SearchCallbacks callbacks;
  callbacks.on_bestmove = [answer](Move move, Move) { answer->set_value(move); };
  engine.go(limits, std::move(callbacks));
  const Move move = best.get();
  engine.wait();
  return move;
}

GameResult win_for_engine(bool engine_a) {
  return engine_a ? GameResult::AWins : GameResult::BWins;
}

}  // namespace

int MatchResult::pairs() const {
  int total = 0;
  for (const int count : pentanomial) total += count;
  return total;
}

std::vector<Move> random_opening(int plies, std::mt19937& rng) {
  for (int attempt = 0; attempt < kOpeningAttempts; ++attempt) {
    Position position = Position::start();
    std::vector<Move> moves;
    for (int ply = 0; ply < plies; ++ply) {
      const MoveScan scan = scan_moves(position);
      const SlideSet quiet = scan.legal & ~scan.wins & ~scan.losses;
      if (quiet == 0) break;
      moves.push_back(pick(quiet, rng));
      position = position.after(moves.back());
    }
    if (int(moves.size()) == plies && scan_moves(position).wins == 0) return moves;
  }
  throw std::runtime_error("no random opening of " + std::to_string(plies) +
                           " plies without a win in one found");
}

GameRecord play_game(Engine& engine_a, Engine& engine_b, const std::vector<Move>& opening,
                     bool a_is_x, const MatchConfig& config) {
  GameRecord record;
  record.a_is_x = a_is_x;
  record.opening = opening;
  engine_a.new_game();
  engine_b.new_game();

  // Keys of every position of the game so far, the current one last, and how often each came.
  std::vector<std::uint64_t> keys;
  std::unordered_map<std::uint64_t, int> occurrences;
  Position position = Position::start();
  int repeats = 0;  // occurrences of the current position
  const auto enter = [&](const Position& next) {
    position = next;
    keys.push_back(position.key());
    repeats = ++occurrences[position.key()];
  };
  enter(position);
  for (const Move move : opening) {
    if (!position.is_legal(move)) throw std::invalid_argument("illegal opening move");
    enter(position.after(move));
  }

  SearchLimits limits;
  limits.nodes = config.nodes_per_move;
  limits.depth = config.depth_per_move;
  limits.move_time_ms = config.move_time_ms;
  while (true) {
    const Outcome outcome = position.outcome();
    if (outcome != Outcome::Ongoing) {
      record.end = GameEnd::Line;
      record.result = win_for_engine((outcome == Outcome::XWins) == a_is_x);
      break;
    }
    if (repeats >= 3) {
      record.end = GameEnd::Repetition;
      record.result = GameResult::Draw;
      break;
    }
    if (record.plies() >= config.max_plies) {
      record.end = GameEnd::PlyCap;
      record.result = GameResult::Draw;
      break;
    }
    if (position.legal_move_count() == 0)  // SPEC 1: cannot arise in a game that goes on
      throw std::logic_error("an ongoing game without legal moves");

    const bool a_to_move = (position.side_to_move() == Color::X) == a_is_x;
    Engine& engine = a_to_move ? engine_a : engine_b;
    engine.set_position(position, std::vector<std::uint64_t>(keys.begin(), keys.end() - 1));
    const Move move = search_move(engine, limits);
    if (move.is_none() || move.slide() >= kSlideCount || !position.is_legal(move)) {
      record.end = GameEnd::IllegalMove;
      record.result = win_for_engine(!a_to_move);
      record.illegal_move = move.is_none()                ? "(none)"
                            : move.slide() >= kSlideCount ? "(slide index out of range)"
                                                          : to_string(move);
      break;
    }
    record.moves.push_back(move);
    enter(position.after(move));
  }
  record.final_position = position;
  return record;
}

MatchResult play_match(const MatchConfig& config, const MatchProgress& progress) {
  if (config.nodes_per_move == 0 && config.depth_per_move <= 0 && config.move_time_ms <= 0)
    throw std::invalid_argument("a match needs a node, depth or time limit per move");
  if (config.game_pairs < 0 || config.opening_plies < 0 || config.max_plies < 0 ||
      config.depth_per_move < 0)
    throw std::invalid_argument("negative match setting");

  // All openings first, from one generator, so that the match does not depend on concurrency.
  std::mt19937 rng(config.seed);
  std::vector<std::vector<Move>> openings;
  std::unordered_set<std::uint64_t> used;
  for (int pair = 0; pair < config.game_pairs; ++pair) {
    std::vector<Move> opening;
    for (int attempt = 0; attempt < kFreshOpeningAttempts; ++attempt) {
      opening = random_opening(config.opening_plies, rng);
      Position position = Position::start();
      for (const Move move : opening) position = position.after(move);
      if (used.insert(position.key()).second) break;
    }
    openings.push_back(std::move(opening));
  }

  EngineOptions options_a = config.a, options_b = config.b;
  options_a.threads = options_b.threads = 1;

  const int game_count = 2 * config.game_pairs;
  MatchResult result;
  result.games.resize(std::size_t(game_count));
  MatchResult totals;  // the same counts without the games, for the progress reports
  std::vector<int> games_done_in_pair(std::size_t(config.game_pairs), 0);
  int pairs_done = 0;
  std::mutex mutex;
  std::atomic<int> next_game{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;

  const auto record_game = [&](int index, GameRecord record) {
    const std::lock_guard lock(mutex);
    switch (record.result) {
      case GameResult::AWins:
        ++totals.wins_a;
        break;
      case GameResult::BWins:
        ++totals.losses_a;
        break;
      case GameResult::Draw:
        ++totals.draws;
        break;
    }
    const int pair = record.pair;
    result.games[std::size_t(index)] = std::move(record);
    if (++games_done_in_pair[std::size_t(pair)] < 2) return;
    const int pair_half_points = result.games[std::size_t(2 * pair)].half_points_a() +
                                 result.games[std::size_t(2 * pair + 1)].half_points_a();
    ++totals.pentanomial[std::size_t(pair_half_points)];
    ++pairs_done;
    if (progress) progress(pairs_done, totals);
  };

  const auto worker = [&] {
    try {
      Engine engine_a, engine_b;
      engine_a.set_options(options_a);
      engine_b.set_options(options_b);
      while (!failed) {
        const int index = next_game++;
        if (index >= game_count) break;
        const int pair = index / 2;
        const bool a_is_x = index % 2 == 0;
        GameRecord record =
            play_game(engine_a, engine_b, openings[std::size_t(pair)], a_is_x, config);
        record.pair = pair;
        record_game(index, std::move(record));
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      failed = true;
    }
  };

  const int thread_count = std::max(1, std::min(config.concurrency, game_count));
  std::vector<std::thread> threads;
  for (int i = 1; i < thread_count; ++i) threads.emplace_back(worker);
  worker();
  for (std::thread& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);

  result.wins_a = totals.wins_a;
  result.losses_a = totals.losses_a;
  result.draws = totals.draws;
  result.pentanomial = totals.pentanomial;
  return result;
}

double elo_from_score(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  return 400.0 * std::log10(score / (1.0 - score));  // = -400 log10(1/s - 1), +0 at s = 0.5
}

PairScoreMoments pair_score_moments(const std::array<int, 5>& pentanomial) {
  PairScoreMoments moments;
  double pairs = 0;
  for (std::size_t i = 0; i < pentanomial.size(); ++i) {
    pairs += pentanomial[i];
    moments.mean += pentanomial[i] * (0.5 * double(i));
  }
  if (pairs == 0) return moments;
  moments.mean /= pairs;
  for (std::size_t i = 0; i < pentanomial.size(); ++i) {
    const double deviation = 0.5 * double(i) - moments.mean;
    moments.variance += pentanomial[i] * deviation * deviation;
  }
  moments.variance /= pairs;
  return moments;
}

MatchStatistics match_statistics(const std::array<int, 5>& pentanomial) {
  MatchStatistics stats;
  for (const int count : pentanomial) stats.pairs += count;
  if (stats.pairs == 0) return stats;
  const PairScoreMoments moments = pair_score_moments(pentanomial);
  // A pair is worth 2 points: halve the pair mean and its standard error to get fractions.
  stats.score = moments.mean / 2;
  stats.score_error = std::sqrt(moments.variance / stats.pairs) / 2;
  stats.elo = elo_from_score(stats.score);
  constexpr double kZ95 = 1.96;  // two-sided 95% of the normal distribution
  stats.elo_low = elo_from_score(stats.score - kZ95 * stats.score_error);
  stats.elo_high = elo_from_score(stats.score + kZ95 * stats.score_error);
  if (stats.score_error > 0)
    stats.los = 0.5 * std::erfc(-(stats.score - 0.5) / (stats.score_error * std::sqrt(2.0)));
  else
    stats.los = stats.score > 0.5 ? 1.0 : stats.score < 0.5 ? 0.0 : 0.5;
  return stats;
}

std::string to_string(GameEnd end) {
  switch (end) {
    case GameEnd::Unfinished:
      return "unfinished";
    case GameEnd::Line:
      return "line";
    case GameEnd::Repetition:
      return "threefold repetition";
    case GameEnd::PlyCap:
      return "ply cap";
    case GameEnd::IllegalMove:
      return "illegal move";
  }
  return "?";
}

}  // namespace quixo
