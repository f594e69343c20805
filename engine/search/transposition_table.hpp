// The transposition table, shared by all search threads.
//
// Race policy: threads read and write entries without locks. Each entry is two 64-bit words
// written and read with relaxed atomics (so concurrent access is defined behaviour), the first
// holding key XOR data and the second the data (Hyatt's lockless hashing). A reader accepts an
// entry only when the two words XOR to its key: an entry torn by two simultaneous writers fails
// that test and is a miss, so a thread never receives data stored for another position. What
// is lost is at most an occasional entry, which the search tolerates.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include "core/position.hpp"
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

// Allocates `count` value-initialised buckets, or throws TableAllocationError (naming `megabytes`
// and the `kept_mb` of the table that stays).
template <class Bucket>
std::unique_ptr<Bucket[]> allocate_buckets(std::size_t count, std::size_t megabytes,
                                           std::size_t kept_mb) {
  Bucket* const buckets = new (std::nothrow) Bucket[count]();
  if (buckets == nullptr) throw TableAllocationError(megabytes, kept_mb);
  return std::unique_ptr<Bucket[]>(buckets);
}

struct TTHit {
  Move move;
  int depth = 0;
  Bound bound = Bound::None;
  Score score = 0;  // relative to the node (score_to_tt); convert with score_from_tt
};

class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t megabytes = 16) { resize(megabytes); }

  // Throws TableAllocationError, leaving the table as it was, when the memory is not there.
  void resize(std::size_t megabytes);
  std::size_t megabytes() const { return megabytes_; }
  void clear();
  // Called at the start of each search, so that entries of older searches are replaced first.
  void new_search() { generation_ = (generation_ + 1) & kGenerationMask; }

  bool probe(std::uint64_t key, TTHit& hit) const;
  void store(std::uint64_t key, Move move, int depth, Bound bound, Score score);
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&bucket_for(key)); }

  // Per mille of a sample of entries written in the current search, for `info hashfull`.
  int hashfull() const;
  std::size_t entry_count() const { return bucket_count_ * kEntriesPerBucket; }

 private:
  static constexpr int kEntriesPerBucket = 4;
  static constexpr std::uint32_t kGenerationMask = 63;
  struct Entry {
    std::atomic<std::uint64_t> key_xor_data{0};
    std::atomic<std::uint64_t> data{0};
  };
  struct alignas(64) Bucket {
    Entry entries[kEntriesPerBucket];
  };

  Bucket& bucket_for(std::uint64_t key) const;

  std::unique_ptr<Bucket[]> buckets_;
  std::size_t bucket_count_ = 0;
  std::size_t megabytes_ = 0;
  std::uint32_t generation_ = 0;
};

}  // namespace quixo
