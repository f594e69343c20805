// What the data sources of both games share: random numbers that are the same on every machine,
// work spread over threads, and a search run to its bestmove with its last exact score.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "core/thread_start.hpp"
#include "data_sources.hpp"
#include "search/limits.hpp"
#include "search/search_types.hpp"

namespace quixo::train {

// Random numbers that are the same on every machine (the standard distributions are not). The
// modulo's bias is below 1e-9 for every bound used here.
inline std::uint64_t random_below(std::mt19937_64& random, std::uint64_t bound) {
  return random() % bound;
}
inline double random_unit(std::mt19937_64& random) {
  return double(random() >> 11) * 0x1.0p-53;
}

// Runs `work(worker)` on `threads` threads and rethrows the first exception one of them threw.
inline void run_workers(int threads, const std::function<void(int)>& work) {
  std::vector<std::thread> workers;
  std::mutex mutex;
  std::exception_ptr failure;
  const int count = std::max(1, threads);
  workers.reserve(std::size_t(count));
  for (int worker = 0; worker < count; ++worker) {
    try {
      workers.push_back(start_thread([&, worker] {
        try {
          work(worker);
        } catch (...) {
          const std::lock_guard lock(mutex);
          if (!failure) failure = std::current_exception();
        }
      }));
    } catch (const std::system_error& error) {
      // The threads started finish their share; the run then stops with this error.
      const std::lock_guard lock(mutex);
      if (!failure)
        failure =
            std::make_exception_ptr(std::runtime_error(thread_start_failure(worker, count, error)));
      break;
    }
  }
  for (std::thread& thread : workers) thread.join();
  if (failure) std::rethrow_exception(failure);
}

// A progress callback that several threads may call.
inline Progress serialized(const Progress& progress) {
  if (!progress) return {};
  auto mutex = std::make_shared<std::mutex>();
  return [progress, mutex](const std::string& line) {
    const std::lock_guard lock(*mutex);
    progress(line);
  };
}

template <class MoveT>
struct SearchResult {
  MoveT best;
  std::optional<Score> score;
  std::vector<MoveT> pv;  // the line of that score when it is exact; else empty
};

// A search of the engine's set position to its bestmove (Engine or Engine4, whose moves are
// MoveT). The score is that of the last iteration that finished inside its aspiration window
// (as the opening generator reads it).
template <class MoveT, class EngineT>
SearchResult<MoveT> search(EngineT& engine, const SearchLimits& limits) {
  std::mutex mutex;
  SearchResult<MoveT> result;
  std::optional<Score> any;
  BasicSearchCallbacks<MoveT> callbacks;
  callbacks.on_info = [&](const BasicSearchInfo<MoveT>& info) {
    const std::lock_guard lock(mutex);
    any = info.score;
    if (info.bound != Bound::Exact) return;
    result.score = info.score;
    result.pv = info.pv;
  };
  callbacks.on_bestmove = [&](MoveT best, MoveT) {
    const std::lock_guard lock(mutex);
    result.best = best;
  };
  engine.go(limits, std::move(callbacks));
  engine.wait();
  const std::lock_guard lock(mutex);
  if (!result.score) result.score = any;
  return result;
}

// Self-play of either game: settings.games games on settings.threads threads, each thread with
// its own engine set up by configure(engine, hash_mb, evaluation), a game played by
// play_game(engine, game); the records in game order, whatever thread played them. `what` names the
// games in the progress lines ("self-play").
template <class EngineT, class Record, class Configure, class PlayGame>
std::vector<Record> play_games_on_threads(const SelfPlaySettings& settings,
                                          const Progress& progress, const std::string& what,
                                          Configure configure, PlayGame play_game) {
  if (settings.opening_min_plies < 0 || settings.opening_max_plies < settings.opening_min_plies)
    throw std::invalid_argument("self-play needs 0 <= opening min plies <= opening max plies");
  std::vector<std::vector<Record>> games(std::size_t(std::max(0, settings.games)));
  std::atomic<std::size_t> next{0}, done{0};
  const Progress report = serialized(progress);
  run_workers(settings.threads, [&](int) {
    EngineT engine;
    configure(engine, settings.hash_mb, settings.evaluation);
    for (std::size_t game; (game = next++) < games.size();) {
      games[game] = play_game(engine, std::uint32_t(game));
      const std::size_t finished = ++done;
      if (report && finished % std::max<std::size_t>(1, games.size() / 10) == 0)
        report(what + ": " + std::to_string(finished) + " of " + std::to_string(games.size()) +
               " games");
    }
  });
  std::vector<Record> records;
  for (std::vector<Record>& game : games) records.insert(records.end(), game.begin(), game.end());
  return records;
}

// The deeper searches of either game: `settings.positions` of the records that are `eligible`,
// chosen at random, each searched afresh without history (position_of(record) gives its
// position), as Deep records that keep everything else of theirs, in the records' order.
template <class MoveT, class EngineT, class Record, class Eligible, class Configure,
          class PositionOf>
std::vector<Record> deep_search_on_threads(const std::vector<Record>& games,
                                           const DeepSearchSettings& settings,
                                           const Progress& progress, const std::string& what,
                                           Eligible eligible, Configure configure,
                                           PositionOf position_of) {
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < games.size(); ++i)
    if (games[i].source == Source::Game && eligible(games[i])) candidates.push_back(i);
  // A partial Fisher-Yates shuffle: the first `count` candidates are the chosen ones.
  std::mt19937_64 random(mix64(settings.seed ^ 0x64656570ull));
  const std::size_t count = std::min<std::size_t>(settings.positions, candidates.size());
  for (std::size_t i = 0; i < count; ++i)
    std::swap(candidates[i], candidates[i + random_below(random, candidates.size() - i)]);
  candidates.resize(count);
  std::sort(candidates.begin(), candidates.end());

  std::vector<Record> records(count);
  SearchLimits limits;
  if (settings.depth > 0)
    limits.depth = settings.depth;
  else
    limits.nodes = settings.nodes;
  std::atomic<std::size_t> next{0}, done{0};
  const Progress report = serialized(progress);
  run_workers(settings.threads, [&](int) {
    EngineT engine;
    configure(engine, settings.hash_mb, settings.evaluation);
    for (std::size_t i; (i = next++) < count;) {
      Record record = games[candidates[i]];
      // A fresh table for every position: each score depends on its position only.
      engine.new_game();
      engine.set_position(position_of(record), {});
      const std::optional<Score> score = search<MoveT>(engine, limits).score;
      if (!score) throw std::runtime_error("a " + what + " reported no score");
      record.source = Source::Deep;
      record.has_score = true;
      record.score = *score;
      records[i] = record;
      const std::size_t finished = ++done;
      if (report && finished % std::max<std::size_t>(1, count / 10) == 0)
        report(what + ": " + std::to_string(finished) + " of " + std::to_string(count) +
               " positions");
    }
  });
  return records;
}

}  // namespace quixo::train
