#include "time_manager.hpp"

#include <algorithm>
#include <cassert>

namespace quixo {

namespace {

// A GUI's "huge" clock, increment or move time (up to the int64 maximum, which the protocol
// parser keeps) is planned as this many milliseconds, some 35,000 years, so that the arithmetic
// below and the searches' `soft_ms * iteration_stop_permille / 1000` cannot overflow (found by
// fuzz_uqi_session): times a share of at most 1000 stay below 2^61.
constexpr std::int64_t kMaxPlannedMs = std::int64_t{1} << 50;

// The plan on one clock: `clock_ms` left (negative: none) and `increment_ms` a move.
TimeBudget plan_on_clock(const SearchLimits& limits, std::int64_t clock_ms,
                         std::int64_t increment_ms, int move_overhead_ms,
                         const SearchParams& params) {
  TimeBudget budget;
  const std::int64_t overhead = std::max(0, move_overhead_ms);
  if (limits.move_time_ms > 0) {
    const std::int64_t move_time = std::min(limits.move_time_ms, kMaxPlannedMs);
    budget.hard_ms =
        std::max<std::int64_t>(1, move_time - movetime_reserve_ms(move_time, overhead));
    budget.soft_ms = budget.hard_ms;
    budget.use_all = true;
    return budget;
  }
  const std::int64_t clock = std::min(clock_ms, kMaxPlannedMs);
  if (clock < 0) return budget;  // no clock for us: depth, nodes, infinite or ponder decide
  const std::int64_t increment = std::clamp<std::int64_t>(increment_ms, 0, kMaxPlannedMs);
  const int moves_to_go =
      limits.moves_to_go > 0 ? std::min(limits.moves_to_go, 50) : std::max(params.moves_to_go, 1);
  // What may be spent without ever reaching zero: the overhead is lost on every move, and a
  // small reserve stays for the moves after this one.
  const std::int64_t usable = std::max<std::int64_t>(1, clock - overhead - clock / 50);
  std::int64_t soft = usable / moves_to_go + increment * params.increment_permille / 1000;
  // With one move to go the whole usable time is ours; otherwise at most a share of it (40 %
  // by default), and no more than a multiple of the soft share (four times).
  const std::int64_t cap = moves_to_go == 1 ? usable : usable * params.hard_cap_permille / 1000;
  std::int64_t hard = std::min(cap, soft * params.hard_per_soft_percent / 100);
  soft = std::min(soft, hard);
  // Never plan the whole clock: with (almost) nothing left, answer at once (a hard limit of 0
  // still returns the best move known before the first iteration ends).
  const std::int64_t limit = std::max<std::int64_t>(0, clock - 1);
  budget.hard_ms = std::clamp<std::int64_t>(hard, 1, std::max<std::int64_t>(limit, 1));
  budget.hard_ms = std::min(budget.hard_ms, limit);
  budget.soft_ms = std::min(std::max<std::int64_t>(1, soft), budget.hard_ms);
  return budget;
}

}  // namespace

std::int64_t movetime_reserve_ms(std::int64_t move_time_ms, int move_overhead_ms) {
  return std::clamp<std::int64_t>(move_time_ms * kMoveTimeReservePercent / 100, 0,
                                  std::max(0, move_overhead_ms));
}

TimeBudget plan_time(const SearchLimits& limits, Color side_to_move, int move_overhead_ms,
                     const SearchParams& params) {
  return plan_on_clock(limits, limits.time_ms[int(side_to_move)],
                       limits.increment_ms[int(side_to_move)], move_overhead_ms, params);
}

TimeBudget plan_seat_time(const SearchLimits& limits, Seat seat, int move_overhead_ms,
                          const SearchParams& params) {
  assert(seat >= 0 && seat < kSeatCount);
  if (limits.seat_time_ms[seat] < 0)
    return plan_time(limits, team_of(seat), move_overhead_ms, params);
  return plan_on_clock(limits, limits.seat_time_ms[seat], limits.seat_increment_ms[seat],
                       move_overhead_ms, params);
}

SearchStability::SearchStability(const SearchParams& params)
    : move_change_permille_(params.stability_move_change_permille),
      score_drop_permille_(params.stability_score_drop_permille),
      settled_permille_(params.stability_settled_permille) {}

void SearchStability::iteration_done(bool best_move_changed, std::optional<int> score) {
  // Below 2000: a change is 1000 and the older ones halve.
  changes_permille_ = changes_permille_ / 2 + (best_move_changed ? 1000 : 0);
  settled_iterations_ = best_move_changed ? 0 : settled_iterations_ + 1;
  score_drop_ = score && last_score_ ? std::max(0, *last_score_ - *score) : 0;
  last_score_ = score;
}

int SearchStability::soft_scale_permille() const {
  // Each factor is bounded (the parameters' ranges are, and the drop's share is capped at
  // 1000), so no product below overflows an int64.
  std::int64_t scale = 1000 + std::int64_t(changes_permille_) * move_change_permille_ / 1000;
  const std::int64_t drop =
      std::min<std::int64_t>(std::int64_t(score_drop_) * score_drop_permille_, 1000);
  scale = scale * (1000 + drop) / 1000;
  if (settled_iterations_ >= kSettledIterations) scale = scale * settled_permille_ / 1000;
  return int(std::clamp<std::int64_t>(scale, 1, kMaxScalePermille));
}

std::int64_t SearchStability::scaled(std::int64_t soft_ms) const {
  if (soft_ms < 0) return soft_ms;
  return std::min(soft_ms, kMaxPlannedMs) * soft_scale_permille() / 1000;
}

}  // namespace quixo
