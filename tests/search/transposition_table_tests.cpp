// The transposition table: what is stored comes back exactly (move, depth, bound, score, mate
// scores relative to the node), an empty slot is never a hit (not even for key 0, which is the
// empty board with X to move), replacement keeps the newest entry reachable, clear, hashfull,
// resize, and the lock-free race policy: under concurrent stores and probes a hit only ever
// returns data stored for the very key probed.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "core/position.hpp"
#include "core/position4.hpp"
#include "search/transposition_table.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;

namespace quixo {
// How many entries a table holds: what the tests size their loads by. Only they need it, so it
// is read through the friend the table declares instead of a member of its interface.
struct TranspositionTableProbe {
  template <class Key, class MoveT>
  static std::size_t entry_count(const BasicTranspositionTable<Key, MoveT>& table) {
    return table.bucket_count_ * BasicTranspositionTable<Key, MoveT>::kEntriesPerBucket;
  }
};
}  // namespace quixo

namespace {

Move move_at(int slide) {
  return Move(SlideIndex(slide));
}

// Real position keys (51 bits: both boards and the side to move), spread over the key space.
std::uint64_t some_key(std::uint64_t i) {
  const Bitboard x = Bitboard((i * 0x9e3779b1u) & kFullBoard);
  const Bitboard o = Bitboard((i * 0x85ebca6bu + 0x1234567u) & kFullBoard) & ~x;
  return Position(x, o, (i & 1) ? Color::O : Color::X).key();
}

// Keys that a 1 MB table puts in the same bucket as `anchor`, found through the public interface
// alone: the anchor is stored shallow and candidates deep, so once the anchor's bucket is full a
// candidate that lands in it evicts the anchor (the least valuable entry); the candidate is
// recorded and the anchor stored again.
std::vector<std::uint64_t> bucket_mates(std::uint64_t anchor, std::size_t count) {
  TranspositionTable table(1);
  std::vector<std::uint64_t> mates;
  TTHit hit;
  table.store(anchor, Move::none(), 0, Bound::Upper, 0);
  for (std::uint64_t i = 1; mates.size() < count && i < 10000000; ++i) {
    const std::uint64_t key = some_key(i);
    if (key == anchor) continue;
    table.store(key, Move(SlideIndex(0)), 200, Bound::Exact, 0);
    if (!table.probe(anchor, hit)) {
      mates.push_back(key);
      table.store(anchor, Move::none(), 0, Bound::Upper, 0);
    }
  }
  BOOST_TEST_REQUIRE(mates.size() == count);
  return mates;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(transposition_table_tests)

// Every score a search stores (small, negative, mate and mated at various plies) comes back
// through score_to_tt / score_from_tt unchanged, with its move, depth and bound.
BOOST_DATA_TEST_CASE(store_then_probe_round_trips,
                     bdata::make({0, 1, -1, 37, -250, 3000, -9999, mate_in(1), mate_in(7),
                                  mated_in(1), mated_in(12), kMateBound, -kMateBound,
                                  mate_in(kMaxPly - 1), mated_in(kMaxPly - 1)}) *
                         bdata::make({0, 1, 9, 60}),
                     score, ply) {
  TranspositionTable table(1);
  const std::uint64_t key = some_key(std::uint64_t(score) * 131 + std::uint64_t(ply));
  const int slide = (score & 0x3f) % kSlideCount;
  const int depth = (ply * 3 + 1) % 40;
  const Bound bound = ply % 3 == 0 ? Bound::Exact : ply % 3 == 1 ? Bound::Lower : Bound::Upper;
  table.store(key, move_at(slide), depth, bound, score_to_tt(score, ply));
  TTHit hit;
  BOOST_TEST_REQUIRE(table.probe(key, hit));
  BOOST_TEST((hit.move == move_at(slide)));
  BOOST_TEST(hit.depth == depth);
  BOOST_TEST(int(hit.bound) == int(bound));
  BOOST_TEST(score_from_tt(hit.score, ply) == score);
  // The stored mate score is relative to the node: the same entry read at another ply
  // describes a win the same number of plies from that node.
  if (score >= kMateBound) BOOST_TEST(score_from_tt(hit.score, ply + 2) == score - 2);
  if (score <= -kMateBound) BOOST_TEST(score_from_tt(hit.score, ply + 2) == score + 2);
}

BOOST_AUTO_TEST_CASE(every_move_depth_and_bound_round_trips) {
  TranspositionTable table(1);
  for (int slide = 0; slide < kSlideCount; ++slide)
    for (const Bound bound : {Bound::Upper, Bound::Lower, Bound::Exact})
      for (const int depth : {0, 1, 17, 100, 255}) {
        const std::uint64_t key = some_key(std::uint64_t(slide * 1000 + depth * 4 + int(bound)));
        table.store(key, move_at(slide), depth, bound, -slide);
        TTHit hit;
        BOOST_TEST_REQUIRE(table.probe(key, hit));
        BOOST_TEST((hit.move == move_at(slide)));
        BOOST_TEST(hit.depth == depth);
        BOOST_TEST(int(hit.bound) == int(bound));
        BOOST_TEST(hit.score == -slide);
      }
  // No move (a node where nothing beat alpha) comes back as none; depths beyond the field clamp.
  const std::uint64_t key = some_key(99999);
  table.store(key, Move::none(), 300, Bound::Upper, -5);
  TTHit hit;
  BOOST_TEST_REQUIRE(table.probe(key, hit));
  BOOST_TEST(hit.move.is_none());
  BOOST_TEST(hit.depth == 255);
}

BOOST_AUTO_TEST_CASE(other_keys_miss) {
  TranspositionTable table(1);
  const std::uint64_t key = some_key(5);
  table.store(key, move_at(3), 4, Bound::Exact, 12);
  TTHit hit;
  BOOST_TEST(table.probe(key, hit));
  for (std::uint64_t other : {key + 1, key - 1, key ^ (std::uint64_t{1} << 50), some_key(6),
                              std::uint64_t{0}, key ^ (std::uint64_t{1} << 40)})
    BOOST_TEST(!table.probe(other, hit));
}

// Key 0 is the start position (empty board, X to move). An empty slot holds zeros, which XOR to
// key 0: the table must still not report it as a hit, before or after clear().
BOOST_AUTO_TEST_CASE(key_zero_is_a_real_position_and_empty_slots_are_no_hit) {
  BOOST_TEST(Position::start().key() == 0u);
  TranspositionTable table(1);
  TTHit hit;
  BOOST_TEST(!table.probe(0, hit));
  table.store(0, move_at(7), 5, Bound::Lower, -33);
  BOOST_TEST_REQUIRE(table.probe(0, hit));
  BOOST_TEST((hit.move == move_at(7)));
  BOOST_TEST(hit.depth == 5);
  BOOST_TEST(int(hit.bound) == int(Bound::Lower));
  BOOST_TEST(hit.score == -33);
  table.clear();
  BOOST_TEST(!table.probe(0, hit));
  // A fresh table after many stores of other keys: still no phantom entry for key 0.
  TranspositionTable busy(1);
  for (std::uint64_t i = 1; i < 5000; ++i)
    busy.store(some_key(i) | 1, move_at(1), 1, Bound::Exact, 1);
  BOOST_TEST(!busy.probe(0, hit));
}

// Storing far more positions than the table holds fills every bucket; each new entry must still
// be stored (replacing the least valuable one) and found right after.
BOOST_AUTO_TEST_CASE(replacement_keeps_working_when_buckets_are_full) {
  TranspositionTable table(1);
  const std::size_t stores = 3 * TranspositionTableProbe::entry_count(table);
  std::size_t missed = 0;
  for (std::uint64_t i = 0; i < stores; ++i) {
    const std::uint64_t key = some_key(i);
    const int depth = int(i % 20);  // deep and shallow entries mixed
    table.store(key, move_at(int(i % kSlideCount)), depth, Bound::Exact, int(i % 1000));
    TTHit hit;
    if (!table.probe(key, hit) || hit.depth != depth || hit.score != int(i % 1000)) ++missed;
  }
  BOOST_TEST(missed == 0u);
  // The table is full: nearly every sampled entry belongs to this search.
  BOOST_TEST(table.hashfull() >= 990);

  // Nine keys of one bucket (of four entries), stored in turn at any depths: each is found
  // right after its store, and a deep entry of the bucket survives a run of shallow ones.
  const std::uint64_t anchor = some_key(123456789);
  std::vector<std::uint64_t> keys = bucket_mates(anchor, 8);
  keys.push_back(anchor);
  TranspositionTable bucket(1);
  for (int round = 0; round < 3; ++round)
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const int depth = int((i * 7 + std::size_t(round)) % 13);
      bucket.store(keys[i], move_at(int(i)), depth, Bound::Lower, int(i) - 4);
      TTHit hit;
      BOOST_TEST_REQUIRE(bucket.probe(keys[i], hit));
      BOOST_TEST(hit.depth == depth);
      BOOST_TEST(hit.score == int(i) - 4);
    }
  bucket.store(keys[0], move_at(40), 60, Bound::Exact, 99);
  for (std::size_t i = 1; i < keys.size(); ++i)
    bucket.store(keys[i], move_at(int(i)), 1, Bound::Upper, 0);
  TTHit deep;
  BOOST_TEST_REQUIRE(bucket.probe(keys[0], deep));
  BOOST_TEST(deep.depth == 60);
  BOOST_TEST(deep.score == 99);
}

// A result for the same position: a much deeper inexact result of this search is kept against a
// shallow inexact one, an exact result always replaces, an older search's entry is replaced, and
// a new result without a move keeps the old move.
BOOST_AUTO_TEST_CASE(same_position_replacement_policy) {
  TranspositionTable table(1);
  const std::uint64_t key = some_key(42);
  TTHit hit;
  table.store(key, move_at(10), 12, Bound::Lower, 50);
  table.store(key, move_at(11), 3, Bound::Upper, -20);
  BOOST_TEST_REQUIRE(table.probe(key, hit));
  BOOST_TEST(hit.depth == 12);
  BOOST_TEST((hit.move == move_at(10)));
  table.store(key, move_at(12), 3, Bound::Exact, 7);
  BOOST_TEST_REQUIRE(table.probe(key, hit));
  BOOST_TEST(hit.depth == 3);
  BOOST_TEST(int(hit.bound) == int(Bound::Exact));
  BOOST_TEST((hit.move == move_at(12)));
  table.store(key, move_at(13), 20, Bound::Lower, 9);
  table.new_search();
  table.store(key, move_at(14), 1, Bound::Upper, -1);
  BOOST_TEST_REQUIRE(table.probe(key, hit));
  BOOST_TEST(hit.depth == 1);
  BOOST_TEST((hit.move == move_at(14)));
  table.store(key, Move::none(), 2, Bound::Upper, -3);
  BOOST_TEST_REQUIRE(table.probe(key, hit));
  BOOST_TEST(hit.depth == 2);
  BOOST_TEST(hit.score == -3);
  BOOST_TEST((hit.move == move_at(14)));
}

BOOST_AUTO_TEST_CASE(clear_forgets_everything) {
  TranspositionTable table(1);
  for (std::uint64_t i = 0; i < 10000; ++i)
    table.store(some_key(i), move_at(int(i % kSlideCount)), 3, Bound::Exact, 1);
  BOOST_TEST(table.hashfull() > 0);
  table.clear();
  BOOST_TEST(table.hashfull() == 0);
  TTHit hit;
  for (std::uint64_t i = 0; i < 10000; ++i) BOOST_TEST_REQUIRE(!table.probe(some_key(i), hit));
}

// hashfull: 0 for a fresh table, grows with the entries of this search, stays within per mille,
// and forgets the entries of earlier searches.
BOOST_AUTO_TEST_CASE(hashfull_grows_from_zero) {
  TranspositionTable table(1);
  BOOST_TEST(table.hashfull() == 0);
  int previous = 0;
  std::uint64_t next = 0;
  for (const std::size_t target : {TranspositionTableProbe::entry_count(table) / 10,
                                   TranspositionTableProbe::entry_count(table) / 3,
                                   TranspositionTableProbe::entry_count(table),
                                   4 * TranspositionTableProbe::entry_count(table)}) {
    for (; next < target; ++next)
      table.store(some_key(next), move_at(int(next % kSlideCount)), 5, Bound::Lower, 0);
    const int full = table.hashfull();
    BOOST_TEST_CONTEXT("after " << next << " stores") {
      BOOST_TEST(full > previous);
      BOOST_TEST(full <= 1000);
    }
    previous = full;
  }
  BOOST_TEST(previous >= 900);
  table.new_search();
  BOOST_TEST(table.hashfull() == 0);
  // The old entries are still there to be probed, only not counted.
  TTHit hit;
  BOOST_TEST(table.probe(some_key(next - 1), hit));
}

BOOST_AUTO_TEST_CASE(resize_changes_the_size_and_empties) {
  TranspositionTable table(1);
  const std::size_t one_mb = TranspositionTableProbe::entry_count(table);
  BOOST_TEST(one_mb > 10000u);
  table.store(some_key(1), move_at(1), 1, Bound::Exact, 1);
  table.resize(4);
  BOOST_TEST(TranspositionTableProbe::entry_count(table) == 4 * one_mb);
  TTHit hit;
  BOOST_TEST(!table.probe(some_key(1), hit));
  BOOST_TEST(table.hashfull() == 0);
  for (std::uint64_t i = 0; i < 1000; ++i)
    table.store(some_key(i), move_at(int(i % kSlideCount)), int(i % 30), Bound::Upper, int(i));
  std::size_t found = 0;
  for (std::uint64_t i = 0; i < 1000; ++i)
    found += table.probe(some_key(i), hit) && hit.score == int(i) && hit.depth == int(i % 30);
  BOOST_TEST(found >= 995u);  // 1000 entries in 65536 buckets of 4: practically no eviction
  table.resize(2);
  BOOST_TEST(TranspositionTableProbe::entry_count(table) == 2 * one_mb);
  BOOST_TEST(!table.probe(some_key(5), hit));
  // Zero megabytes means the smallest table, not none.
  table.resize(0);
  BOOST_TEST(TranspositionTableProbe::entry_count(table) == one_mb);
  table.store(some_key(3), move_at(3), 3, Bound::Exact, 3);
  BOOST_TEST(table.probe(some_key(3), hit));
}

// The race policy: two (and four) threads store and probe for about 0.3 s, mostly nine keys of a
// single bucket (four entries), so that its entries are rewritten with another key's data all the
// time, by any thread, while the others read them; the rest of the time a range four times the
// table's size. Every stored field is a function of the key, so any hit must return exactly that
// key's data: an entry read while it is being rewritten (or torn by two writers) must be a miss.
// Meanwhile another thread reads hashfull, as the search's reports do. Under the tsan preset this
// is also the check that the lock-free entries are data-race free (relaxed atomics).
BOOST_DATA_TEST_CASE(concurrent_stores_and_probes_never_mix_entries, bdata::make({2, 4}),
                     thread_count) {
  TranspositionTable table(1);
  const std::uint64_t anchor = some_key(987654321);
  std::vector<std::uint64_t> keys = bucket_mates(anchor, 8);
  keys.push_back(anchor);
  constexpr std::uint64_t kBucketKeys = 9;
  const std::uint64_t key_count = 4 * TranspositionTableProbe::entry_count(table);
  // The wide range comes from indices far from those bucket_mates tried (all below 2^25, so all
  // keys are distinct).
  for (std::uint64_t i = 0; i < key_count; ++i) keys.push_back(some_key(20000000 + i));
  // Fields that differ between any two of the nine bucket keys.
  auto depth_of = [](std::uint64_t i) { return int(i % 251); };
  auto score_of = [](std::uint64_t i) { return int(i % 30011) - 15005; };
  auto slide_of = [](std::uint64_t i) { return int(i % kSlideCount); };
  auto bound_of = [](std::uint64_t i) { return Bound(1 + i % 3); };

  std::atomic<bool> go{false}, done{false};
  std::atomic<std::uint64_t> hits{0}, probes{0}, wrong{0};
  auto hammer = [&](unsigned seed) {
    std::mt19937_64 rng(seed);
    while (!go.load()) std::this_thread::yield();
    std::uint64_t local_hits = 0, local_probes = 0, local_wrong = 0;
    while (!done.load(std::memory_order_relaxed)) {
      for (int n = 0; n < 256; ++n) {
        // Mostly the nine keys of one bucket, sometimes the wide range.
        const std::uint64_t i =
            rng() % 4 != 0 ? rng() % kBucketKeys : kBucketKeys + rng() % key_count;
        if (rng() % 2 == 0) {
          table.store(keys[i], move_at(slide_of(i)), depth_of(i), bound_of(i), score_of(i));
        } else {
          TTHit hit;
          ++local_probes;
          if (table.probe(keys[i], hit)) {
            ++local_hits;
            if (!(hit.move == move_at(slide_of(i))) || hit.depth != depth_of(i) ||
                hit.bound != bound_of(i) || hit.score != score_of(i))
              ++local_wrong;
          }
        }
      }
    }
    hits += local_hits;
    probes += local_probes;
    wrong += local_wrong;
  };
  std::vector<std::thread> hammers;
  for (int i = 0; i < thread_count; ++i) hammers.emplace_back(hammer, unsigned(i + 1));
  std::atomic<int> bad_hashfull{0};
  std::thread reporter([&] {
    while (!done.load()) {
      const int permille = table.hashfull();
      if (permille < 0 || permille > 1000) ++bad_hashfull;
      std::this_thread::yield();
    }
  });
  go = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  done = true;
  for (std::thread& hammer_thread : hammers) hammer_thread.join();
  reporter.join();
  BOOST_TEST(bad_hashfull.load() == 0);
  BOOST_TEST_MESSAGE("probes " << probes.load() << ", hits " << hits.load());
  BOOST_TEST(probes.load() > 1000u);
  BOOST_TEST(hits.load() > 100u);  // the check below must have had something to check
  BOOST_TEST(wrong.load() == 0u);
}

// The team table (two-word keys of Position4, moves with a point or a pass): every geometry
// with either point, the pass and no move come back exactly.
BOOST_AUTO_TEST_CASE(team_table_round_trips_moves_points_and_passes) {
  TranspositionTable4 table(1);
  std::vector<Move4> moves = {Move4::pass(), Move4::none()};
  for (int slide = 0; slide < kSlideCount; ++slide)
    for (Seat point = 0; point < kSeatCount; ++point)
      moves.push_back(Move4(SlideIndex(slide), point));
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Position4Key key{some_key(i), some_key(i + 1000)};
    table.store(key, moves[i], int(i % 200), Bound::Exact, mated_in(int(i % 50)));
    TranspositionTable4::Hit hit;
    BOOST_TEST_REQUIRE(table.probe(key, hit));
    BOOST_TEST((hit.move == moves[i]));
    BOOST_TEST(hit.depth == int(i % 200));
    BOOST_TEST(hit.score == mated_in(int(i % 50)));
  }
}

// A team key is compared whole: a key that differs in either word, or has its words swapped,
// misses, even where it shares the bucket; the all-zero key (the empty board, seat 1 to move)
// is a real position and an empty slot is no hit for it.
BOOST_AUTO_TEST_CASE(team_keys_are_compared_in_both_words) {
  BOOST_TEST((Position4::start().key() == Position4Key{}));
  TranspositionTable4 table(1);
  TranspositionTable4::Hit hit;
  BOOST_TEST(!table.probe(Position4Key{}, hit));
  const Position4Key key{some_key(11), some_key(12)};
  table.store(key, Move4(SlideIndex(5), 2), 7, Bound::Lower, 40);
  BOOST_TEST_REQUIRE(table.probe(key, hit));
  // The same low + high * 0x9e3779b97f4a7c15 picks the same bucket.
  const Position4Key same_bucket{key.low - 0x9e3779b97f4a7c15ULL, key.high + 1};
  for (const Position4Key& other :
       {Position4Key{key.low ^ 1, key.high}, Position4Key{key.low, key.high ^ 1},
        Position4Key{key.high, key.low}, same_bucket, Position4Key{}})
    BOOST_TEST(!table.probe(other, hit));
}

// The race policy with two key words: threads store and probe keys that all share one bucket
// (the same low + high * 0x9e3779b97f4a7c15, so the same hash) and differ in both words, their
// data a function of the key. A hit must return exactly the probed key's data.
BOOST_AUTO_TEST_CASE(team_table_concurrent_stores_and_probes_never_mix_entries) {
  TranspositionTable4 table(1);
  constexpr std::uint64_t kKeys = 9;
  std::vector<Position4Key> keys;
  for (std::uint64_t i = 0; i < kKeys; ++i)
    keys.push_back({some_key(77) - i * 0x9e3779b97f4a7c15ULL, some_key(78) + i});
  auto move_of = [](std::uint64_t i) {
    return Move4(SlideIndex(i * 5 % kSlideCount), Seat(i % 4));
  };
  auto depth_of = [](std::uint64_t i) { return int(i * 29 % 251); };
  auto score_of = [](std::uint64_t i) { return int(i * 1009 % 30011) - 15005; };
  std::atomic<bool> go{false}, done{false};
  std::atomic<std::uint64_t> hits{0}, wrong{0};
  auto hammer = [&](unsigned seed) {
    std::mt19937_64 rng(seed);
    while (!go.load()) std::this_thread::yield();
    std::uint64_t local_hits = 0, local_wrong = 0;
    while (!done.load(std::memory_order_relaxed)) {
      for (int n = 0; n < 256; ++n) {
        const std::uint64_t i = rng() % kKeys;
        if (rng() % 2 == 0) {
          table.store(keys[i], move_of(i), depth_of(i), Bound::Exact, score_of(i));
        } else {
          TranspositionTable4::Hit hit;
          if (table.probe(keys[i], hit)) {
            ++local_hits;
            if (!(hit.move == move_of(i)) || hit.depth != depth_of(i) || hit.score != score_of(i))
              ++local_wrong;
          }
        }
      }
    }
    hits += local_hits;
    wrong += local_wrong;
  };
  std::vector<std::thread> hammers;
  for (unsigned i = 0; i < 3; ++i) hammers.emplace_back(hammer, i + 1);
  go = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  done = true;
  for (std::thread& thread : hammers) thread.join();
  BOOST_TEST(hits.load() > 0u);
  BOOST_TEST(wrong.load() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
