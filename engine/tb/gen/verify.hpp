// Checks of finished tables that do not trust the generator: `quixo-tb verify` and `stats`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "tb/index.hpp"
#include "tb/value.hpp"

namespace quixo::tb {

struct VerifyReport {
  std::uint64_t checked = 0;              // slots checked (holes included)
  std::uint64_t failures = 0;             // slots whose stored value is wrong
  std::vector<std::string> first_errors;  // up to 10, as "position: stored X, expected Y"
};

// The slots verify_layer checks: those of [begin, end) (clipped to the layer) whose distance from
// begin is a multiple of step. The default is every slot; a step checks an even sample of a layer
// too big to check whole (`quixo-tb verify --every N`), a range the neighbourhood of one slot.
struct SlotSelection {
  Slot begin = 0;
  Slot end = ~Slot{0};
  Slot step = 1;
};

// Checks every selected slot of a layer against its children with the forward move generator only
// (Position::legal_moves, after, outcome): holes are exactly the non-canonical slots, every board
// and its 8 symmetric images map back to their slot, finished boards are win or loss 0, and every
// other value and distance is the best over the moves (the fastest win, a draw, or the slowest
// loss). Local consistency of values with distances implies that they are exact. `distance_count`
// says what the layer's distances count: with LayerExit (generate --distance-to exit) a child in
// the lower layer is an exit, read at distance 0 whatever its own distance.
VerifyReport verify_layer(const LayerIndex& index, std::span<const PackedValue> values,
                          const LayerIndex* lower_index, std::span<const PackedValue> lower_values,
                          int threads, SlotSelection selection = {},
                          DistanceCount distance_count = DistanceCount::GameEnd);

// One row of the published counts: x X-cubes and o O-cubes, O to move, counting every board
// (symmetric boards are not merged).
struct StatsRow {
  int x = 0;
  int o = 0;
  std::uint64_t win = 0;
  std::uint64_t loss = 0;
  std::uint64_t draw = 0;
};

// The rows of a layer, x from 25-k down to 0, each board counted with its class's size.
std::vector<StatsRow> layer_stats(const LayerIndex& index, std::span<const PackedValue> values,
                                  int threads);

// The rows as the reference files print them: "x o win loss draw" per line.
std::string format_stats(const std::vector<StatsRow>& rows);

}  // namespace quixo::tb
