#include "transposition_table.hpp"

#include <algorithm>

namespace quixo {

namespace {

// The data word: move (8 bits) | depth (8) | bound (2) | generation (6) | score (16).
std::uint64_t pack_data(Move move, int depth, Bound bound, std::uint32_t generation, Score score) {
  return std::uint64_t(move.slide()) | std::uint64_t(std::clamp(depth, 0, 255)) << 8 |
         std::uint64_t(bound) << 16 | std::uint64_t(generation) << 18 |
         std::uint64_t(std::uint16_t(std::int16_t(score))) << 24;
}
Move data_move(std::uint64_t data) {
  return Move(SlideIndex(data & 0xff));
}
int data_depth(std::uint64_t data) {
  return int((data >> 8) & 0xff);
}
Bound data_bound(std::uint64_t data) {
  return Bound((data >> 16) & 3);
}
std::uint32_t data_generation(std::uint64_t data) {
  return std::uint32_t((data >> 18) & 63);
}
Score data_score(std::uint64_t data) {
  return std::int16_t(std::uint16_t(data >> 24));
}

// Position keys are structured (two boards and a side); mix them before picking a bucket.
std::uint64_t mix(std::uint64_t key) {
  key ^= key >> 31;
  key *= 0x7fb5d329728ea185ULL;
  key ^= key >> 27;
  key *= 0x81dadef4bc2dd44dULL;
  return key ^ (key >> 33);
}

}  // namespace

void TranspositionTable::resize(std::size_t megabytes) {
  megabytes = std::max<std::size_t>(megabytes, 1);
  const std::size_t count = (megabytes << 20) / sizeof(Bucket);
  // The new table is allocated before the old one goes, so a failure changes nothing.
  buckets_ = allocate_buckets<Bucket>(count, megabytes, megabytes_);
  bucket_count_ = count;
  megabytes_ = megabytes;
  generation_ = 0;
}

void TranspositionTable::clear() {
  for (std::size_t i = 0; i < bucket_count_; ++i)
    for (Entry& entry : buckets_[i].entries) {
      entry.key_xor_data.store(0, std::memory_order_relaxed);
      entry.data.store(0, std::memory_order_relaxed);
    }
  generation_ = 0;
}

TranspositionTable::Bucket& TranspositionTable::bucket_for(std::uint64_t key) const {
  // Map the mixed key onto [0, bucket_count_) with a multiply-high, which needs no power of two.
  __extension__ using Wide = unsigned __int128;
  const auto index = std::size_t(Wide(mix(key)) * bucket_count_ >> 64);
  return buckets_[index];
}

bool TranspositionTable::probe(std::uint64_t key, TTHit& hit) const {
  for (const Entry& entry : bucket_for(key).entries) {
    const std::uint64_t data = entry.data.load(std::memory_order_relaxed);
    if ((entry.key_xor_data.load(std::memory_order_relaxed) ^ data) != key) continue;
    if (data_bound(data) == Bound::None) continue;  // an empty slot (key 0 is a real position)
    const std::uint8_t slide = std::uint8_t(data & 0xff);
    hit.move = slide < kSlideCount ? Move(slide) : Move::none();
    hit.depth = data_depth(data);
    hit.bound = data_bound(data);
    hit.score = data_score(data);
    return true;
  }
  return false;
}

void TranspositionTable::store(std::uint64_t key, Move move, int depth, Bound bound, Score score) {
  Bucket& bucket = bucket_for(key);
  Entry* victim = nullptr;
  int victim_worth = 1 << 30;
  for (Entry& entry : bucket.entries) {
    const std::uint64_t data = entry.data.load(std::memory_order_relaxed);
    if ((entry.key_xor_data.load(std::memory_order_relaxed) ^ data) == key) {
      // Same position: keep a deeper result of this search unless the new one is exact, and
      // keep the old move when the new result has none.
      if (data_bound(data) != Bound::None && bound != Bound::Exact &&
          data_generation(data) == generation_ && data_depth(data) > depth + 2)
        return;
      if (move.is_none() && data_bound(data) != Bound::None) move = data_move(data);
      victim = &entry;
      break;
    }
    // Otherwise replace the shallowest entry, counting entries of older searches as shallower.
    const int age = int((generation_ - data_generation(data)) & kGenerationMask);
    const int worth = data_bound(data) == Bound::None ? -1000 : data_depth(data) - 8 * age;
    if (worth < victim_worth) {
      victim_worth = worth;
      victim = &entry;
    }
  }
  const std::uint64_t data = pack_data(move, depth, bound, generation_, score);
  victim->key_xor_data.store(key ^ data, std::memory_order_relaxed);
  victim->data.store(data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
  const std::size_t sample = std::min<std::size_t>(bucket_count_, 250);
  int used = 0;
  for (std::size_t i = 0; i < sample; ++i)
    for (const Entry& entry : buckets_[i].entries) {
      const std::uint64_t data = entry.data.load(std::memory_order_relaxed);
      used += data_bound(data) != Bound::None && data_generation(data) == generation_;
    }
  return int(used * 1000 / (sample * kEntriesPerBucket));
}

}  // namespace quixo
