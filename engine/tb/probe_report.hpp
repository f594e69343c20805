// What the tables say about one position, as `quixo-tb probe` prints it and the engine's `tb`
// command sends it: the position's value, then every legal move with the value it leads to, the
// best first. One formatting for both, so that their outputs agree line for line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "tb/tablebase.hpp"
#include "tb/value.hpp"

namespace quixo::tb {

struct ProbeReport {
  TbValue value;                 // for the side to move
  std::vector<MoveValue> moves;  // every legal move; the fastest win first, then draws, then the
                                 // slowest loss first; equal values in generation order
};

// nullopt when the game is over, or the position or one of its children is not in the tables.
std::optional<ProbeReport> probe_report(const Tablebase& tables, const Position& position);

// "win 5" (the value), then one line "<move> <value>" per move, e.g. "a1b1 loss 4".
std::vector<std::string> format_probe_report(const ProbeReport& report);

}  // namespace quixo::tb
