// Times in UTC as the records write them: the PGN's Date, the reports' "updated at" lines.
#pragma once

#include <chrono>
#include <ctime>
#include <string>

namespace quixo::arena {

// `when` in UTC, as strftime's `format` writes it.
inline std::string utc_text(std::chrono::system_clock::time_point when, const char* format) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  char text[40];
  std::strftime(text, sizeof text, format, &parts);
  return text;
}

// The PGN's Date of today: "2026.11.27".
inline std::string utc_date() {
  return utc_text(std::chrono::system_clock::now(), "%Y.%m.%d");
}

}  // namespace quixo::arena
