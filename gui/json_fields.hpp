// How quixo-gui's JSON messages write the fields that may be absent: null for an absent value,
// and a score as {"cp":N} or {"mate":N} (a mate wins over a cp score), or null.
#pragma once

#include <boost/json.hpp>
#include <optional>

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

}  // namespace quixo::gui
