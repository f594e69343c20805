// The game loop's helpers (game_loop.hpp): the date, the scores used by adjudication and the
// `position` arguments. Internal to the arena library.
#pragma once

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "game_record.hpp"
#include "game_rules.hpp"
#include "utc_text.hpp"

namespace quixo::arena::detail {

// A mate score counts as larger than any centipawn score when adjudicating.
inline constexpr int kMateAsCp = 100'000;
// After a timed-out `go`, how long a late `bestmove` may take before the engine is restarted.
inline constexpr std::chrono::milliseconds kStopGrace{1000};

// The time of day as the PGN's GameStartTime and GameEndTime give it: "2026-11-27T05:50:25 +0000".
inline std::string utc_time(std::chrono::system_clock::time_point when) {
  return utc_text(when, "%Y-%m-%dT%H:%M:%S +0000");
}

// A game's length as GameDuration gives it: "HH:MM:SS" (hours beyond 99 as they come).
inline std::string duration_text(std::chrono::steady_clock::duration length) {
  const auto total = std::chrono::duration_cast<std::chrono::seconds>(length).count();
  char text[32];
  std::snprintf(text, sizeof text, "%02lld:%02lld:%02lld", static_cast<long long>(total / 3600),
                static_cast<long long>(total / 60 % 60), static_cast<long long>(total % 60));
  return text;
}

inline std::optional<int> adjudication_score(const MoveRecord& move) {
  if (move.score_mate) return *move.score_mate > 0 ? kMateAsCp : -kMateAsCp;
  return move.score_cp;
}

// Whether each of the last `count` scores satisfies `test` (false when there are fewer).
template <typename Test>
bool last_scores_all(const std::vector<std::optional<int>>& scores, int count, Test test) {
  if (count <= 0 || static_cast<int>(scores.size()) < count) return false;
  for (auto it = scores.end() - count; it != scores.end(); ++it)
    if (!*it || !test(**it)) return false;
  return true;
}

// The scores of each side's moves (index 0: X, or team A), most recent last.
using ScoreHistory = std::array<std::vector<std::optional<int>>, 2>;

// Resign adjudication for `side`, which has just moved: its last resign_move_count scores were
// all at most -resign_score_cp and, when two-sided, the other side's all at least as good.
inline bool adjudicate_resign(const ScoreHistory& scores, int side, const Adjudication& rules) {
  const int count = rules.resign_move_count;
  const int score = rules.resign_score_cp;
  return last_scores_all(scores[static_cast<std::size_t>(side)], count,
                         [&](int value) { return value <= -score; }) &&
         (!rules.resign_two_sided ||
          last_scores_all(scores[static_cast<std::size_t>(1 - side)], count,
                          [&](int value) { return value >= score; }));
}

// Draw adjudication after `plies` plies: from full move draw_move_number on, both sides' last
// draw_move_count scores were all within +-draw_score_cp.
inline bool adjudicate_draw(const ScoreHistory& scores, std::size_t plies,
                            const Adjudication& rules) {
  const int full_move = static_cast<int>(plies) / 2 + 1;
  const auto near_zero = [&](int value) {
    return value >= -rules.draw_score_cp && value <= rules.draw_score_cp;
  };
  return rules.draw_move_count > 0 && full_move >= rules.draw_move_number &&
         last_scores_all(scores[0], rules.draw_move_count, near_zero) &&
         last_scores_all(scores[1], rules.draw_move_count, near_zero);
}

// A game that the endgame tables decide (--tb): the result they give and why.
struct TableEnding {
  GameResult result = GameResult::Draw;
  std::string reason;  // "tablebase: X (name) wins in 17 plies", "tablebase: draw"
};

// The arguments of `position` for a game from `start` with `moves` played.
inline std::string position_arguments(const std::string& start,
                                      const std::vector<std::string>& moves) {
  std::string text = "fen " + start;
  if (!moves.empty()) {
    text += " moves";
    for (const std::string& move : moves) text += ' ' + move;
  }
  return text;
}

}  // namespace quixo::arena::detail
