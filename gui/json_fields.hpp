// How quixo-gui's JSON messages write the fields that may be absent: null for an absent value,
// and a score as {"cp":N} or {"mate":N} (a mate wins over a cp score), or null; and the values
// the page's messages and the saved games share: a table value, a move's whole-game analysis.
#pragma once

#include <boost/json.hpp>
#include <optional>

#include "move_analysis.hpp"
#include "tb/value.hpp"

namespace quixo::gui {

template <typename T>
boost::json::value optional_json(const std::optional<T>& value) {
  if (value) return boost::json::value(*value);
  return nullptr;
}

inline boost::json::value score_json(const std::optional<int>& cp, const std::optional<int>& mate) {
  if (mate) return boost::json::object{{"mate", *mate}};
  if (cp) return boost::json::object{{"cp", *cp}};
  return nullptr;
}

// {"value":"win","distance":6}: "win", "loss" or "draw" (distance null).
boost::json::object tb_value_json(const tb::TbValue& value);

// A move's whole-game analysis as docs/gui-protocol.md shows it: {"score","tb","best","loss",
// "cp_loss","mark"}. The page gets `loss` to 3 decimals; `exact_loss` writes it whole (a saved
// game reads back the same value).
boost::json::object move_analysis_json(const MoveAnalysis& analysis, bool exact_loss = false);

}  // namespace quixo::gui
