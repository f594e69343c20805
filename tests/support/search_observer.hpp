// The harness of the search suites (both games): start a search through an engine facade's
// `go`, collect its `info` lines and its `bestmove` from the callbacks, and wait for it with a
// timeout, so that a search that never answers fails its test instead of hanging the suite; and
// the checks that every answer of either game passes.
#pragma once

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "search/search_types.hpp"

namespace quixo::test {

using Clock = std::chrono::steady_clock;

// Long enough for any search here under a sanitizer on a loaded machine.
inline constexpr auto kAnswerTimeout = std::chrono::seconds(60);

// What one `go` produced.
template <class MoveT>
struct SearchRun {
  std::vector<BasicSearchInfo<MoveT>> infos;
  int bestmove_count = 0;
  MoveT best = MoveT::none();
  MoveT ponder = MoveT::none();
  Clock::time_point started;
  Clock::time_point answered;

  std::int64_t elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(answered - started).count();
  }
  // The main line's last report (MultiPV line 1; the team search has no other).
  const BasicSearchInfo<MoveT>& last() const {
    BOOST_TEST_REQUIRE(!infos.empty());
    for (auto it = infos.rbegin(); it != infos.rend(); ++it)
      if (it->multipv == 1) return *it;
    BOOST_FAIL("no info for multipv 1");
    return infos.back();
  }
  // The main line's last report of a completed iteration (exact bound), skipping a last line
  // sent for a move that improved in an iteration cut short.
  const BasicSearchInfo<MoveT>& last_completed() const {
    for (auto it = infos.rbegin(); it != infos.rend(); ++it)
      if (it->multipv == 1 && it->bound == Bound::Exact) return *it;
    BOOST_FAIL("no exact info for multipv 1");
    return infos.back();
  }
};

// Collects the callbacks of one search. Shared with the callbacks, so that it outlives a search
// that a failed test leaves running.
template <class MoveT>
struct SearchObserver {
  std::mutex mutex;
  std::condition_variable signal;
  SearchRun<MoveT> run;

  static BasicSearchCallbacks<MoveT> callbacks_for(
      const std::shared_ptr<SearchObserver>& observer) {
    BasicSearchCallbacks<MoveT> callbacks;
    callbacks.on_info = [observer](const BasicSearchInfo<MoveT>& info) {
      std::lock_guard lock(observer->mutex);
      observer->run.infos.push_back(info);
    };
    callbacks.on_bestmove = [observer](MoveT best, MoveT ponder) {
      std::lock_guard lock(observer->mutex);
      if (++observer->run.bestmove_count == 1) observer->run.answered = Clock::now();
      observer->run.best = best;
      observer->run.ponder = ponder;
      observer->signal.notify_all();
    };
    return callbacks;
  }
  bool answered_within(Clock::duration timeout) {
    std::unique_lock lock(mutex);
    return signal.wait_for(lock, timeout, [this] { return run.bestmove_count > 0; });
  }
  int bestmove_count() {
    std::lock_guard lock(mutex);
    return run.bestmove_count;
  }
  SearchRun<MoveT> snapshot() {
    std::lock_guard lock(mutex);
    return run;
  }
};

// Starts a search: `go` passes the callbacks to the facade's go with the test's limits.
template <class MoveT>
std::shared_ptr<SearchObserver<MoveT>> start_search(
    const std::function<void(BasicSearchCallbacks<MoveT>)>& go) {
  auto observer = std::make_shared<SearchObserver<MoveT>>();
  observer->run.started = Clock::now();
  go(SearchObserver<MoveT>::callbacks_for(observer));
  return observer;
}

// Waits for the bestmove of a started search (stopping it if it never comes) and for the search
// to end; exactly one bestmove is expected.
template <class EngineT, class MoveT>
SearchRun<MoveT> finish_search(EngineT& engine, SearchObserver<MoveT>& observer) {
  if (!observer.answered_within(kAnswerTimeout)) {
    BOOST_ERROR("no bestmove within the timeout: stopping the search");
    engine.stop();
  }
  engine.wait();
  BOOST_TEST(!engine.searching());
  SearchRun<MoveT> run = observer.snapshot();
  BOOST_TEST(run.bestmove_count == 1);
  return run;
}

// The moves' names, separated by spaces.
template <class MoveT>
std::string names(const std::vector<MoveT>& moves) {
  std::string text;
  for (const MoveT move : moves) text += (text.empty() ? "" : " ") + to_string(move);
  return text;
}

template <class MoveT>
bool contains(const std::vector<MoveT>& moves, MoveT move) {
  return std::find(moves.begin(), moves.end(), move) != moves.end();
}

// Every move of the line is legal where it is played, and the line ends where the game does.
template <class PositionT, class MoveT>
void check_pv(const PositionT& root, const BasicSearchInfo<MoveT>& info) {
  BOOST_TEST_CONTEXT("pv " << names(info.pv) << " from " << to_string(root)) {
    BOOST_TEST(!info.pv.empty());
    PositionT position = root;
    for (const MoveT move : info.pv) {
      BOOST_TEST_REQUIRE(!position.is_game_over());
      BOOST_TEST_REQUIRE(position.is_legal(move));
      position = position.after(move);
    }
  }
}

// What any answer to a search of an unfinished game shows, in either game: one legal bestmove,
// a legal ponder move after it (if any), legal lines with sound depths and table fill. The
// suites' check_answer adds each game's tactics.
template <class PositionT, class MoveT>
void check_legal_answer(const PositionT& position, const SearchRun<MoveT>& run) {
  BOOST_TEST(run.bestmove_count == 1);
  BOOST_TEST_REQUIRE(!run.best.is_none());
  BOOST_TEST_REQUIRE(position.is_legal(run.best));
  const PositionT next = position.after(run.best);
  if (!run.ponder.is_none()) {
    BOOST_TEST(!next.is_game_over());
    BOOST_TEST(next.is_legal(run.ponder));
  }
  for (const BasicSearchInfo<MoveT>& info : run.infos) {
    check_pv(position, info);
    BOOST_TEST(info.depth >= 1);
    BOOST_TEST(info.selective_depth >= info.depth);
    BOOST_TEST(info.hashfull >= 0);
    BOOST_TEST(info.hashfull <= 1000);
  }
}

}  // namespace quixo::test
