// The transposition table, shared by all threads of a search: one type for both games,
// parameterised on the position key (Position::key(), 51 bits in one word, or
// Position4::key(), 102 bits in two) and on the move it keeps.
//
// Race policy: threads read and write entries without locks. An entry is the key's words, each
// XOR-ed with the data word, and the data word, every word a relaxed atomic (so concurrent
// access is defined behaviour; Hyatt's lockless hashing). A reader accepts an entry only when
// every key word XOR-s back to its key with the data word it read: an entry torn by two
// simultaneous writers fails that test and is a miss, so a thread never receives data stored
// for another position. The key is compared whole (never a hash of it), so two positions never
// share an entry either. What is lost is at most an occasional entry, which the search
// tolerates. resize() and clear() are not concurrent with searching: the search manager calls
// them only after waiting for its threads.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "core/position.hpp"
#include "core/position4.hpp"
#include "score.hpp"

namespace quixo {

// Thrown when a table cannot get the memory for a new size. The table keeps its old size and
// contents, so the engine goes on as it was.
class TableAllocationError : public std::runtime_error {
 public:
  TableAllocationError(std::size_t requested_mb, std::size_t kept_mb)
      : std::runtime_error("cannot allocate " + std::to_string(requested_mb) +
                           " MB for the hash table" +
                           (kept_mb > 0 ? "; keeping " + std::to_string(kept_mb) + " MB"
                                        : std::string("; set a smaller Hash"))) {}
};

// Position keys are structured (boards side by side); mix them before picking a bucket.
[[nodiscard]] constexpr std::uint64_t mix_key(std::uint64_t key) {
  key ^= key >> 31;
  key *= 0x7fb5d329728ea185ULL;
  key ^= key >> 27;
  key *= 0x81dadef4bc2dd44dULL;
  return key ^ (key >> 33);
}

// What the table needs of a key: its words, compared whole, and a hash to pick the bucket.
template <class Key>
struct TableKey;

template <>
struct TableKey<std::uint64_t> {
  static constexpr int kWords = 1;
  static constexpr std::array<std::uint64_t, kWords> words(std::uint64_t key) { return {key}; }
  static constexpr std::uint64_t hash(std::uint64_t key) { return mix_key(key); }
};

template <>
struct TableKey<Position4Key> {
  static constexpr int kWords = 2;
  static constexpr std::array<std::uint64_t, kWords> words(const Position4Key& key) {
    return {key.low, key.high};
  }
  static constexpr std::uint64_t hash(const Position4Key& key) {
    return mix_key(key.low + key.high * 0x9e3779b97f4a7c15ULL);
  }
};

// What the table needs of a move: a code of at most 16 bits and back.
template <class MoveT>
struct TableMove;

template <>
struct TableMove<Move> {
  static constexpr std::uint64_t encode(Move move) { return move.slide(); }
  static constexpr Move decode(std::uint64_t code) {
    const auto slide = SlideIndex(code & 0xff);
    return slide < kSlideCount ? Move(slide) : Move::none();
  }
};

template <>
struct TableMove<Move4> {
  static constexpr std::uint64_t encode(Move4 move) {
    return std::uint64_t(move.slide()) | std::uint64_t(move.point() & 3) << 8;
  }
  static constexpr Move4 decode(std::uint64_t code) {
    const auto slide = SlideIndex(code & 0xff);
    if (slide == Move4::pass().slide()) return Move4::pass();
    if (slide >= kSlideCount) return Move4::none();
    return Move4(slide, Seat((code >> 8) & 3));
  }
};

template <class MoveT>
struct TableHit {
  MoveT move;
  int depth = 0;
  Bound bound = Bound::None;
  Score score = 0;  // relative to the node (score_to_tt); convert with score_from_tt
};

template <class Key, class MoveT>
class BasicTranspositionTable {
 public:
  using Hit = TableHit<MoveT>;

  // An empty table: allocated() is false until the first resize().
  BasicTranspositionTable() = default;
  explicit BasicTranspositionTable(std::size_t megabytes) { resize(megabytes); }

  [[nodiscard]] bool allocated() const { return bucket_count_ != 0; }
  [[nodiscard]] std::size_t megabytes() const { return megabytes_; }

  // Throws TableAllocationError, leaving the table as it was, when the memory is not there.
  void resize(std::size_t megabytes) {
    megabytes = std::max<std::size_t>(megabytes, 1);
    const std::size_t count = std::max<std::size_t>((megabytes << 20) / sizeof(Bucket), 1);
    // The new table is allocated before the old one goes, so a failure changes nothing.
    Bucket* const buckets = allocate_buckets(count);
    if (buckets == nullptr) throw TableAllocationError(megabytes, megabytes_);
    buckets_.reset(buckets);
    bucket_count_ = count;
    megabytes_ = megabytes;
    generation_ = 0;
  }

  // Gives the memory back: allocated() is false until the next resize().
  void release() {
    buckets_.reset();
    bucket_count_ = 0;
    megabytes_ = 0;
    generation_ = 0;
  }

  void clear() {
    for (std::size_t i = 0; i < bucket_count_; ++i)
      for (Entry& entry : buckets_[i].entries) entry.write({}, 0);
    generation_ = 0;
  }

  // Called at the start of each search, so that entries of older searches are replaced first.
  void new_search() { generation_ = (generation_ + 1) & kGenerationMask; }

  // The hash that picks a key's bucket: a search computes it once per node, for its probe and
  // its store.
  [[nodiscard]] static std::uint64_t hash(const Key& key) { return TableKey<Key>::hash(key); }

  [[nodiscard]] bool probe(const Key& key, Hit& hit) const { return probe(key, hash(key), hit); }
  [[nodiscard]] bool probe(const Key& key, std::uint64_t key_hash, Hit& hit) const {
    assert(allocated() && key_hash == hash(key));
    const auto words = TableKey<Key>::words(key);
    for (const Entry& entry : bucket_for(key_hash).entries) {
      const std::uint64_t data = entry.data.load(std::memory_order_relaxed);
      // An empty slot is never a hit, even for a key whose words are all 0.
      if (!entry.holds(words, data) || data_bound(data) == Bound::None) continue;
      hit.move = TableMove<MoveT>::decode(data & 0xffff);
      hit.depth = data_depth(data);
      hit.bound = data_bound(data);
      hit.score = data_score(data);
      return true;
    }
    return false;
  }

  void store(const Key& key, MoveT move, int depth, Bound bound, Score score) {
    store(key, hash(key), move, depth, bound, score);
  }
  void store(const Key& key, std::uint64_t key_hash, MoveT move, int depth, Bound bound,
             Score score) {
    assert(allocated() && key_hash == hash(key));
    const auto words = TableKey<Key>::words(key);
    Bucket& bucket = bucket_for(key_hash);
    Entry* victim = nullptr;
    int victim_worth = 1 << 30;
    for (Entry& entry : bucket.entries) {
      const std::uint64_t data = entry.data.load(std::memory_order_relaxed);
      const bool used = data_bound(data) != Bound::None;
      if (used && entry.holds(words, data)) {
        // Same position: keep a much deeper result of this search unless the new one is exact,
        // and keep the old move when the new result has none.
        if (bound != Bound::Exact && data_generation(data) == generation_ &&
            data_depth(data) > depth + 2)
          return;
        if (move.is_none()) move = TableMove<MoveT>::decode(data & 0xffff);
        victim = &entry;
        break;
      }
      // Otherwise replace the shallowest entry, counting entries of older searches as
      // shallower and empty ones as the shallowest.
      const int age = int((generation_ - data_generation(data)) & kGenerationMask);
      const int worth = used ? data_depth(data) - 8 * age : -1000;
      if (worth < victim_worth) {
        victim_worth = worth;
        victim = &entry;
      }
    }
    victim->write(words, pack_data(move, depth, bound, score));
  }

  void prefetch(const Key& key) const { __builtin_prefetch(&bucket_for(hash(key))); }

  // Per mille of a sample of entries written in the current search, for `info hashfull`.
  [[nodiscard]] int hashfull() const {
    const std::size_t sample = std::min<std::size_t>(bucket_count_, 250);
    if (sample == 0) return 0;
    int used = 0;
    for (std::size_t i = 0; i < sample; ++i)
      for (const Entry& entry : buckets_[i].entries) {
        const std::uint64_t data = entry.data.load(std::memory_order_relaxed);
        used += data_bound(data) != Bound::None && data_generation(data) == generation_;
      }
    return int(used * 1000 / (sample * kEntriesPerBucket));
  }

 private:
  // The tests' window on the table's size (tests/search/transposition_table_tests.cpp).
  friend struct TranspositionTableProbe;
  static constexpr int kEntriesPerBucket = 4;
  static constexpr std::uint32_t kGenerationMask = 63;
  static constexpr int kKeyWords = TableKey<Key>::kWords;
  using KeyWords = std::array<std::uint64_t, kKeyWords>;

  struct Entry {
    std::array<std::atomic<std::uint64_t>, kKeyWords> key_xor_data{};
    // move code (16 bits) | depth (8) | bound (2) | generation (6) | score (16)
    std::atomic<std::uint64_t> data{0};

    bool holds(const KeyWords& words, std::uint64_t entry_data) const {
      for (int i = 0; i < kKeyWords; ++i)
        if ((key_xor_data[i].load(std::memory_order_relaxed) ^ entry_data) != words[i])
          return false;
      return true;
    }
    void write(const KeyWords& words, std::uint64_t new_data) {
      for (int i = 0; i < kKeyWords; ++i)
        key_xor_data[i].store(words[i] ^ new_data, std::memory_order_relaxed);
      data.store(new_data, std::memory_order_relaxed);
    }
  };
  // A bucket is aligned as far as its size allows (64 bytes for one-word keys, 32 for two), so
  // that it spans no more cache lines than it must.
  static constexpr std::size_t kBucketBytes = kEntriesPerBucket * sizeof(Entry);
  struct alignas(std::min<std::size_t>(64, kBucketBytes&(~kBucketBytes + 1))) Bucket {
    Entry entries[kEntriesPerBucket];
  };
  static_assert(sizeof(Bucket) == kBucketBytes);

  std::uint64_t pack_data(MoveT move, int depth, Bound bound, Score score) const {
    return TableMove<MoveT>::encode(move) | std::uint64_t(std::clamp(depth, 0, 255)) << 16 |
           std::uint64_t(bound) << 24 | std::uint64_t(generation_) << 26 |
           std::uint64_t(std::uint16_t(std::int16_t(score))) << 32;
  }
  static int data_depth(std::uint64_t data) { return int((data >> 16) & 0xff); }
  static Bound data_bound(std::uint64_t data) { return Bound((data >> 24) & 3); }
  static std::uint32_t data_generation(std::uint64_t data) {
    return std::uint32_t((data >> 26) & kGenerationMask);
  }
  static Score data_score(std::uint64_t data) { return std::int16_t(std::uint16_t(data >> 32)); }

  Bucket& bucket_for(std::uint64_t key_hash) const {
    // A multiply-high maps the hash onto [0, bucket_count_) without a power of two.
    __extension__ using Wide = unsigned __int128;
    return buckets_[std::size_t(Wide(key_hash) * bucket_count_ >> 64)];
  }

  // The table on huge pages where the system gives them (Linux's transparent huge pages, asked
  // for with madvise): a probe lands on a random bucket, and with 4 KB pages nearly every probe
  // of a table larger than the TLB's reach also misses the TLB and walks the page tables.
  static constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;
  static Bucket* allocate_buckets(std::size_t count) {
    const std::size_t bytes = count * sizeof(Bucket);
    const std::size_t alignment = bytes >= kHugePageBytes ? kHugePageBytes : alignof(Bucket);
    // aligned_alloc wants a size that is a multiple of the alignment.
    void* const memory =
        std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
    if (memory == nullptr) return nullptr;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (alignment == kHugePageBytes) madvise(memory, bytes, MADV_HUGEPAGE);
#endif
    Bucket* const buckets = static_cast<Bucket*>(memory);
    std::uninitialized_value_construct_n(buckets, count);
    return buckets;
  }
  struct FreeBuckets {
    void operator()(Bucket* buckets) const { std::free(buckets); }
  };
  std::unique_ptr<Bucket[], FreeBuckets> buckets_;
  std::size_t bucket_count_ = 0;
  std::size_t megabytes_ = 0;
  std::uint32_t generation_ = 0;
};

// The two-player table (keys of Position) and the team table (keys of Position4).
using TranspositionTable = BasicTranspositionTable<std::uint64_t, Move>;
using TTHit = TranspositionTable::Hit;
using TranspositionTable4 = BasicTranspositionTable<Position4Key, Move4>;

}  // namespace quixo
