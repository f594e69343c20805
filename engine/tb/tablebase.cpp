#include "tb/tablebase.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <list>
#include <mutex>
#include <unordered_map>

#include "tb/index.hpp"
#include "tb/tb_file.hpp"
#include "tb/wdl_file.hpp"

namespace quixo::tb {

struct Tablebase::Layer {
  Layer(int blanks, const std::filesystem::path& path) : index(blanks), file(path, blanks) {}
  LayerIndex index;
  LayerFile file;
  std::unique_ptr<WdlFile> wdl;  // null when the layer has no (usable) win/draw/loss file
  std::atomic<bool> broken{false};
};

// Decoded blocks, least recently used dropped first, in shards with their own lock so that the
// search's threads rarely wait on each other.
class BlockCache {
 public:
  explicit BlockCache(std::size_t bytes)
      : per_shard_(
            std::max<std::size_t>(4, bytes / (kBlockSlots * sizeof(PackedValue)) / kShards)) {}

  // The value of `slot` of `layer`; decodes the block on a miss (TbFileError when corrupt).
  PackedValue value(int blanks, const LayerFile& file, Slot slot) {
    const std::uint64_t block = slot / kBlockSlots;
    const std::uint64_t key = std::uint64_t(blanks) << 56 | block;
    Shard& shard = shards_[(key * 0x9E3779B97F4A7C15ull) >> 60];
    {
      const std::lock_guard lock(shard.mutex);
      if (auto it = shard.where.find(key); it != shard.where.end()) {
        shard.order.splice(shard.order.begin(), shard.order, it->second);
        return (*it->second->values)[slot % kBlockSlots];
      }
    }
    // decode outside the lock: a racing thread may decode the same block, which is harmless
    auto values = std::make_shared<std::vector<PackedValue>>(kBlockSlots);
    file.decode_block(block, *values);
    const PackedValue result = (*values)[slot % kBlockSlots];
    const std::lock_guard lock(shard.mutex);
    if (shard.where.find(key) == shard.where.end()) {
      shard.order.push_front({key, std::move(values)});
      shard.where[key] = shard.order.begin();
      if (shard.order.size() > per_shard_) {
        shard.where.erase(shard.order.back().key);
        shard.order.pop_back();
      }
    }
    return result;
  }

 private:
  static constexpr int kShards = 16;
  struct Entry {
    std::uint64_t key;
    std::shared_ptr<std::vector<PackedValue>> values;
  };
  struct Shard {
    std::mutex mutex;
    std::list<Entry> order;
    std::unordered_map<std::uint64_t, std::list<Entry>::iterator> where;
  };
  std::size_t per_shard_;
  Shard shards_[kShards];
};

Tablebase::Tablebase() = default;
Tablebase::~Tablebase() = default;

Tablebase::LoadReport Tablebase::load(const std::filesystem::path& dir, std::size_t cache_bytes,
                                      bool check_checksums) {
  layers_.clear();
  cache_.reset();
  LoadReport report;
  if (dir.empty()) return report;
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    report.problems.push_back(dir.string() + ": not a folder");
    return report;
  }
  for (int blanks = 0; blanks <= kMaxIndexedLayer; ++blanks) {
    const auto path = layer_file_path(dir, blanks);
    if (!std::filesystem::exists(path, error)) continue;
    try {
      auto layer = std::make_unique<Layer>(blanks, path);
      if (check_checksums) layer->file.check_file_checksum();
      if (layers_.size() <= std::size_t(blanks)) layers_.resize(blanks + 1);
      layers_[blanks] = std::move(layer);
      report.layers.push_back(blanks);
    } catch (const TbFileError& refused) {
      report.problems.push_back(refused.what());
      continue;
    }
    const auto wdl_path = wdl_file_path(dir, blanks);
    if (!std::filesystem::exists(wdl_path, error)) continue;
    try {
      Layer& layer = *layers_[blanks];
      auto wdl = std::make_unique<WdlFile>(wdl_path, blanks, layer.file.file_checksum());
      if (check_checksums) wdl->check_checksum();
      layer.wdl = std::move(wdl);
      report.wdl_layers.push_back(blanks);
    } catch (const TbFileError& refused) {
      report.problems.push_back(std::string(refused.what()) + " (the layer is probed without it)");
    }
  }
  if (!report.layers.empty()) cache_ = std::make_unique<BlockCache>(cache_bytes);
  return report;
}

bool Tablebase::empty() const {
  return std::none_of(layers_.begin(), layers_.end(),
                      [](const auto& layer) { return layer != nullptr; });
}

bool Tablebase::has_layer(int blanks) const {
  return blanks >= 0 && std::size_t(blanks) < layers_.size() && layers_[blanks] &&
         !layers_[blanks]->broken.load(std::memory_order_relaxed);
}

bool Tablebase::has_wdl_file(int blanks) const {
  return has_layer(blanks) && layers_[blanks]->wdl != nullptr;
}

int Tablebase::complete_up_to() const {
  int k = -1;
  while (has_layer(k + 1)) ++k;
  return k;
}

std::string Tablebase::describe() const {
  std::string text;
  for (int blanks = 0; std::size_t(blanks) < layers_.size(); ++blanks)
    if (has_layer(blanks)) text += (text.empty() ? "layers " : " ") + std::to_string(blanks);
  if (text.empty()) return "no layers";
  const std::vector<int> exits = layers_counting_to_exit();
  if (exits.empty()) return text;
  text += " (";
  for (const int blanks : exits) text += std::to_string(blanks) + " ";
  return text + (exits.size() == 1 ? "counts" : "count") + " plies to its exit)";
}

std::vector<int> Tablebase::layers_counting_to_exit() const {
  std::vector<int> layers;
  for (int blanks = 0; std::size_t(blanks) < layers_.size(); ++blanks)
    if (has_layer(blanks) &&
        layers_[blanks]->file.info().distance_count == DistanceCount::LayerExit)
      layers.push_back(blanks);
  return layers;
}

std::string Tablebase::last_problem() const {
  const std::lock_guard lock(problem_mutex_);
  return problem_;
}

std::optional<TbValue> Tablebase::probe(const Position& position) const {
  const int blanks = std::popcount(position.blanks());
  if (!has_layer(blanks)) return std::nullopt;
  Layer& layer = *layers_[blanks];
  const Color mover = position.side_to_move();
  const TbBoard board{position.cubes(mover), position.cubes(~mover)};
  try {
    const PackedValue value = cache_->value(blanks, layer.file, layer.index.slot_of(board));
    if (wdl_of(value) == Wdl::Hole) throw TbFileError(layer.file.name() + ": probe hit a hole");
    return unpack_value(value);
  } catch (const TbFileError& corrupt) {
    drop_layer(blanks, corrupt.what());
    return std::nullopt;
  }
}

std::optional<Wdl> Tablebase::probe_wdl(const Position& position) const {
  const int blanks = std::popcount(position.blanks());
  if (!has_layer(blanks)) return std::nullopt;
  const Layer& layer = *layers_[blanks];
  if (!layer.wdl) {
    const auto value = probe(position);
    return value ? std::optional(value->wdl) : std::nullopt;
  }
  const Color mover = position.side_to_move();
  const Wdl wdl =
      layer.wdl->code(layer.index.slot_of({position.cubes(mover), position.cubes(~mover)}));
  if (wdl == Wdl::Hole) {
    drop_layer(blanks, layer.wdl->name() + ": probe hit a hole");
    return std::nullopt;
  }
  return wdl;
}

bool Tablebase::prefetch_wdl(const Position& position) const {
  const int blanks = std::popcount(position.blanks());
  if (!has_layer(blanks)) return false;
  const Layer& layer = *layers_[blanks];
  if (!layer.wdl) return false;
  const Color mover = position.side_to_move();
  layer.wdl->prefetch(layer.index.slot_of({position.cubes(mover), position.cubes(~mover)}));
  return true;
}

void Tablebase::drop_layer(int blanks, const std::string& reason) const {
  layers_[blanks]->broken = true;
  const std::lock_guard lock(problem_mutex_);
  problem_ = reason + "; layer " + std::to_string(blanks) + " dropped";
}

std::optional<std::vector<MoveValue>> Tablebase::probe_moves(const Position& position) const {
  std::vector<MoveValue> moves;
  for (const Move move : position.legal_moves()) {
    const Position child = position.after(move);
    TbValue value;
    if (child.outcome() != Outcome::Ongoing) {
      value = child.outcome() == win_for(position.side_to_move()) ? TbValue{Wdl::Win, 1}
                                                                  : TbValue{Wdl::Loss, 1};
    } else {
      const auto child_value = probe(child);
      if (!child_value) return std::nullopt;
      value = child_value->before_move();
    }
    moves.push_back({move, value});
  }
  return moves;
}

std::vector<Move> Tablebase::best_moves(const Position& position) const {
  if (position.is_game_over()) return {};
  const auto moves = probe_moves(position);
  if (!moves || moves->empty()) return {};
  int best = preference(moves->front().value);
  for (const auto& entry : *moves) best = std::max(best, preference(entry.value));
  std::vector<Move> result;
  for (const auto& entry : *moves)
    if (preference(entry.value) == best) result.push_back(entry.move);
  return result;
}

}  // namespace quixo::tb
