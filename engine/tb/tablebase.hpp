// The endgame tables as the engine, the arena and `quixo-tb probe` use them: the layer files
// found in a folder, probed by position. Blocks are decoded on demand into a cache shared by all
// threads; probing is thread-safe. A layer's win/draw/loss file (wdl_file.hpp), when it is
// there, answers probe_wdl() with one byte read and no cache: that is what the search probes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "tb/value.hpp"

namespace quixo::tb {

class LayerFile;
class LayerIndex;
class BlockCache;

// A legal move and the value of the position it leads to, from the mover's point of view.
struct MoveValue {
  Move move;
  TbValue value;
};

class Tablebase {
 public:
  Tablebase();
  ~Tablebase();
  Tablebase(const Tablebase&) = delete;
  Tablebase& operator=(const Tablebase&) = delete;

  struct LoadReport {
    std::vector<int> layers;            // the layers now loaded, ascending
    std::vector<int> wdl_layers;        // those of them with their win/draw/loss file
    std::vector<std::string> problems;  // files that were refused, with the reason
  };
  // Replaces what is loaded by the layer files in `dir` (quixo-b0.qtb, quixo-b1.qtb, ...). A file
  // that fails its checks is refused and reported; the others are loaded. An empty path unloads.
  // A layer's win/draw/loss file that fails its checks is reported and not used; its layer is.
  // With `check_checksums`, every byte of each file is read against its checksum first (else a
  // damaged block is found when a probe decodes it).
  LoadReport load(const std::filesystem::path& dir, std::size_t cache_bytes = 64u << 20,
                  bool check_checksums = false);

  bool empty() const;
  bool has_layer(int blanks) const;
  // Whether that layer is loaded with its win/draw/loss file (probe_wdl reads a byte).
  bool has_wdl_file(int blanks) const;
  // The highest k such that every layer 0..k is loaded, or -1.
  int complete_up_to() const;
  // "layers 0 1 2" or "no layers"; "layers 0 1 2 (2 counts plies to its exit)" when a layer's
  // distances count to the layer's exit (value.hpp), not to the end of the game.
  std::string describe() const;
  // The loaded layers whose distances count to the layer's exit: tables for training and
  // analysis, which the search must not be given (its scores and fastest wins read distances).
  std::vector<int> layers_counting_to_exit() const;

  // The value of `position` for its side to move (finished positions included: win or loss 0);
  // nullopt when its layer is not loaded, or a block of it turned out corrupt (the layer is then
  // dropped and the reason kept in last_problem()).
  std::optional<TbValue> probe(const Position& position) const;
  // Win, draw or loss alone: from the layer's win/draw/loss file when it has one (a byte read),
  // else as probe() has it. The same nullopt cases as probe().
  std::optional<Wdl> probe_wdl(const Position& position) const;
  // Starts the memory read of probe_wdl(position) when its layer has a win/draw/loss file, so
  // that a probe made a little later finds the byte in the cache; false when it has none.
  bool prefetch_wdl(const Position& position) const;
  // Every legal move with the value it leads to; nullopt unless every child can be probed.
  std::optional<std::vector<MoveValue>> probe_moves(const Position& position) const;
  // The moves that keep the table's value, the fastest win or the slowest loss first; empty when
  // the position is not in the tables or the game is over.
  std::vector<Move> best_moves(const Position& position) const;

  std::string last_problem() const;

 private:
  // Drops `blanks`'s layer after a probe found it corrupt, keeping the reason.
  void drop_layer(int blanks, const std::string& reason) const;

  struct Layer;
  std::vector<std::unique_ptr<Layer>> layers_;  // indexed by blanks; null when not loaded
  std::unique_ptr<BlockCache> cache_;
  mutable std::mutex problem_mutex_;
  mutable std::string problem_;
};

}  // namespace quixo::tb
