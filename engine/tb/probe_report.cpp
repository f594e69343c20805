#include "tb/probe_report.hpp"

#include <algorithm>

#include "core/notation.hpp"

namespace quixo::tb {

std::optional<ProbeReport> probe_report(const Tablebase& tables, const Position& position) {
  if (position.is_game_over()) return std::nullopt;
  const auto value = tables.probe(position);
  if (!value) return std::nullopt;
  auto moves = tables.probe_moves(position);
  if (!moves) return std::nullopt;
  std::stable_sort(moves->begin(), moves->end(), [](const MoveValue& a, const MoveValue& b) {
    return preference(a.value) > preference(b.value);
  });
  return ProbeReport{*value, std::move(*moves)};
}

std::vector<std::string> format_probe_report(const ProbeReport& report) {
  std::vector<std::string> lines = {to_string(report.value)};
  for (const MoveValue& entry : report.moves)
    lines.push_back(to_string(entry.move) + " " + to_string(entry.value));
  return lines;
}

}  // namespace quixo::tb
