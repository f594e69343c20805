// The time manager: how plan_time turns a `go` command's clocks, increments, moves to go, fixed
// move time and the move overhead into a soft limit (start no new iteration after it) and a hard
// limit (stop at once), and that it never plans to spend time the clock does not have.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include "core/text_helpers.hpp"
#include "search/search_params.hpp"
#include "search/time_manager.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;

namespace {

SearchLimits clock_limits(std::int64_t x_ms, std::int64_t o_ms, std::int64_t x_inc = 0,
                          std::int64_t o_inc = 0, int moves_to_go = 0) {
  SearchLimits limits;
  limits.time_ms = {x_ms, o_ms};
  limits.increment_ms = {x_inc, o_inc};
  limits.moves_to_go = moves_to_go;
  return limits;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(time_manager_tests)

// `go movetime T`: T minus what is kept back for passing the move on, which is the overhead but
// at most 5 % of T (rounded down), for both limits, and never below 1 ms (a limit of 0 would mean
// "no time at all", a negative one "unlimited"). A fixed time per move is searched for about that
// time: `go movetime 5` and `go movetime 20` are not 1 ms searches under the default overhead.
BOOST_DATA_TEST_CASE(movetime_keeps_back_at_most_a_small_share,
                     bdata::make({1000, 600, 100, 50, 31, 30, 20, 10, 5, 1, 500, 100, 2500}) ^
                         bdata::make({30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 0, -5, 100}) ^
                         bdata::make({970, 570, 95, 48, 30, 29, 19, 10, 5, 1, 500, 100, 2400}),
                     move_time, overhead, expected) {
  SearchLimits limits;
  limits.move_time_ms = move_time;
  BOOST_TEST(movetime_reserve_ms(move_time, overhead) == move_time - expected);
  for (const Color side : {Color::X, Color::O}) {
    const TimeBudget budget = plan_time(limits, side, overhead);
    BOOST_TEST(budget.limited());
    BOOST_TEST(budget.use_all);
    BOOST_TEST(budget.hard_ms == expected);
    BOOST_TEST(budget.soft_ms == expected);
    // Never more than the share, never more than the overhead.
    BOOST_TEST((move_time - budget.hard_ms) * 100 <= move_time * kMoveTimeReservePercent);
    BOOST_TEST(move_time - budget.hard_ms <= std::max(0, overhead));
  }
}

// A fixed move time wins over the clocks (UCI: the time for this move, whatever the clock says).
BOOST_AUTO_TEST_CASE(movetime_takes_precedence_over_clocks) {
  SearchLimits limits = clock_limits(60000, 60000, 1000, 1000);
  limits.move_time_ms = 300;
  const TimeBudget budget = plan_time(limits, Color::X, 30);
  BOOST_TEST(budget.hard_ms == 285);
  BOOST_TEST(budget.soft_ms == 285);
}

// Without a clock for the side to move (depth, nodes, mate, infinite or ponder decide), or with
// no limits at all, the budget is unlimited.
BOOST_AUTO_TEST_CASE(no_clock_means_unlimited) {
  SearchLimits none;
  BOOST_TEST(!none.uses_clock());
  for (const Color side : {Color::X, Color::O}) {
    const TimeBudget budget = plan_time(none, side, 30);
    BOOST_TEST(!budget.limited());
    BOOST_TEST(budget.hard_ms < 0);
    BOOST_TEST(budget.soft_ms < 0);
  }
  SearchLimits depth_only;
  depth_only.depth = 5;
  depth_only.nodes = 1000;
  depth_only.infinite = true;
  BOOST_TEST(!plan_time(depth_only, Color::X, 30).limited());
  // Only the opponent's clock given: nothing limits the side to move.
  BOOST_TEST(!plan_time(clock_limits(-1, 5000), Color::X, 30).limited());
  BOOST_TEST(!plan_time(clock_limits(5000, -1), Color::O, 30).limited());
  BOOST_TEST(plan_time(clock_limits(5000, -1), Color::X, 30).limited());
}

// The clock of the side to move is the one used: a big clock gives a big budget, a small one a
// small budget, and swapping the clocks and the side to move gives the same plan.
BOOST_DATA_TEST_CASE(the_clock_of_the_side_to_move_counts,
                     bdata::make({60000, 2000, 300000, 1000}) ^
                         bdata::make({2000, 60000, 1000, 300000}),
                     x_ms, o_ms) {
  const SearchLimits limits = clock_limits(x_ms, o_ms, 100, 200);
  const SearchLimits swapped = clock_limits(o_ms, x_ms, 200, 100);
  const TimeBudget x_plan = plan_time(limits, Color::X, 30);
  const TimeBudget o_plan = plan_time(limits, Color::O, 30);
  const TimeBudget x_swapped = plan_time(swapped, Color::O, 30);
  BOOST_TEST(x_plan.soft_ms == x_swapped.soft_ms);
  BOOST_TEST(x_plan.hard_ms == x_swapped.hard_ms);
  if (x_ms > o_ms) {
    BOOST_TEST(x_plan.soft_ms > o_plan.soft_ms);
    BOOST_TEST(x_plan.hard_ms > o_plan.hard_ms);
  } else {
    BOOST_TEST(x_plan.soft_ms < o_plan.soft_ms);
    BOOST_TEST(x_plan.hard_ms < o_plan.hard_ms);
  }
  BOOST_TEST(x_plan.hard_ms < x_ms - 30);
  BOOST_TEST(o_plan.hard_ms < o_ms - 30);
}

// An increment of the side to move adds to its budget; the opponent's increment does not.
BOOST_DATA_TEST_CASE(increments_add_to_the_budget,
                     bdata::make({60000, 10000, 5000, 120000}) ^
                         bdata::make({1000, 500, 2000, 100}),
                     clock, increment) {
  const TimeBudget bare = plan_time(clock_limits(clock, clock), Color::X, 30);
  const TimeBudget with_increment =
      plan_time(clock_limits(clock, clock, increment, 0), Color::X, 30);
  const TimeBudget opponent_increment =
      plan_time(clock_limits(clock, clock, 0, increment), Color::X, 30);
  BOOST_TEST(with_increment.soft_ms > bare.soft_ms);
  BOOST_TEST(with_increment.hard_ms >= bare.hard_ms);
  BOOST_TEST(opponent_increment.soft_ms == bare.soft_ms);
  BOOST_TEST(opponent_increment.hard_ms == bare.hard_ms);
  // Even a large increment never lets one move spend the clock.
  BOOST_TEST(with_increment.hard_ms < clock - 30);
}

// With one move to go before the clock is refilled the move may use nearly all of the usable
// time (clock minus overhead), and never more.
BOOST_DATA_TEST_CASE(one_move_to_go_may_use_nearly_all_the_time,
                     bdata::make({100, 1000, 10000, 60000, 600000}) ^
                         bdata::make({30, 30, 30, 50, 1000}),
                     clock, overhead) {
  const TimeBudget budget = plan_time(clock_limits(clock, clock, 0, 0, 1), Color::X, overhead);
  const std::int64_t usable = clock - overhead;
  BOOST_TEST(budget.hard_ms <= usable);
  BOOST_TEST(budget.hard_ms * 10 >= usable * 9);
  BOOST_TEST(budget.soft_ms <= budget.hard_ms);
  BOOST_TEST(budget.soft_ms * 10 >= usable * 5);
  // An increment does not raise the limit above the clock either.
  const TimeBudget with_increment =
      plan_time(clock_limits(clock, clock, 5000, 5000, 1), Color::X, overhead);
  BOOST_TEST(with_increment.hard_ms <= usable);
}

// More moves to go means a smaller share of the clock per move.
BOOST_DATA_TEST_CASE(more_moves_to_go_means_less_time_per_move, bdata::make({10000, 60000, 300000}),
                     clock) {
  std::int64_t previous_soft = clock;
  std::int64_t previous_hard = clock;
  for (const int moves_to_go : {1, 2, 3, 5, 10, 20, 40}) {
    const TimeBudget budget =
        plan_time(clock_limits(clock, clock, 0, 0, moves_to_go), Color::X, 30);
    BOOST_TEST_CONTEXT("movestogo " << moves_to_go) {
      BOOST_TEST(budget.soft_ms <= previous_soft);
      BOOST_TEST(budget.hard_ms <= previous_hard);
      BOOST_TEST(budget.soft_ms * 2 >= (clock - 30) / moves_to_go);  // at least half a share
    }
    previous_soft = budget.soft_ms;
    previous_hard = budget.hard_ms;
  }
  // A huge movestogo must not break anything: still a positive, small budget.
  const TimeBudget many = plan_time(clock_limits(clock, clock, 0, 0, 10000), Color::X, 30);
  BOOST_TEST(many.soft_ms >= 1);
  BOOST_TEST(many.hard_ms <= previous_hard);
}

// Sudden death (no movestogo): the clock is spread over SearchParams::moves_to_go moves, so one
// move gets about clock / 16 to aim for and a hard limit a few times that, well below half the
// clock.
BOOST_DATA_TEST_CASE(sudden_death_spreads_the_clock,
                     bdata::make({3000, 10000, 60000, 300000, 3600000}), clock) {
  const TimeBudget budget = plan_time(clock_limits(clock, clock), Color::X, 30);
  const int moves_to_go = SearchParams{}.moves_to_go;
  BOOST_TEST(budget.soft_ms >= clock / (2 * moves_to_go));
  BOOST_TEST(budget.soft_ms <= 2 * clock / moves_to_go);
  BOOST_TEST(budget.hard_ms >= budget.soft_ms);
  BOOST_TEST(budget.hard_ms <= clock / 2);
}

// Tiny clocks with a 30 ms overhead: whatever is left, the hard limit stays below it (the move
// must be made before the flag falls), and the plan is still a limited one.
BOOST_DATA_TEST_CASE(tiny_clocks_never_plan_the_whole_clock,
                     bdata::make({1, 2, 3, 5, 10, 20, 29, 30, 31, 40, 50}) * bdata::make({0, 1}) *
                         bdata::make({0, 1}),
                     clock, moves_to_go, increment) {
  const TimeBudget budget =
      plan_time(clock_limits(clock, clock, increment * 10, 0, moves_to_go), Color::X, 30);
  BOOST_TEST(budget.limited());
  BOOST_TEST(budget.hard_ms < clock);
  BOOST_TEST(budget.soft_ms <= budget.hard_ms);
  BOOST_TEST(budget.soft_ms >= 0);
}

// Over a grid of clocks, increments, moves to go and overheads: soft <= hard, both positive,
// and the hard limit never reaches past the clock minus the overhead once the clock exceeds it.
BOOST_DATA_TEST_CASE(soft_never_exceeds_hard,
                     bdata::make({100, 500, 1000, 5000, 20000, 100000, 1000000}) *
                         bdata::make({0, 10, 1000, 30000}) * bdata::make({0, 1, 2, 7, 30, 80}) *
                         bdata::make({0, 30, 200}),
                     clock, increment, moves_to_go, overhead) {
  for (const Color side : {Color::X, Color::O}) {
    const TimeBudget budget =
        plan_time(clock_limits(clock, clock, increment, increment, moves_to_go), side, overhead);
    BOOST_TEST(budget.limited());
    BOOST_TEST(budget.soft_ms >= 1);
    BOOST_TEST(budget.soft_ms <= budget.hard_ms);
    if (clock > overhead + 1) BOOST_TEST(budget.hard_ms <= clock - overhead);
  }
}

// Found by fuzz_uqi_session: a clock, increment or move time near the int64 maximum (a GUI's
// "huge" value, which the parser keeps) overflowed the budget's arithmetic, undefined behaviour
// that UBSan reports. They now plan a very long but finite think, small enough that the searches'
// `soft_ms * iteration_stop_permille / 1000` stays in range too, also with every time parameter
// at the largest value its option takes.
BOOST_DATA_TEST_CASE(huge_clocks_plan_without_overflow, bdata::make({0, 1, 40}), moves_to_go) {
  constexpr std::int64_t kHuge = std::numeric_limits<std::int64_t>::max();
  SearchParams largest;
  for (const SearchParamSpec& param : kSearchParamSpecs) largest.*param.field = param.max;
  for (const SearchParams& params : {SearchParams{}, largest}) {
    for (const std::int64_t increment : {std::int64_t{0}, kHuge}) {
      const TimeBudget budget = plan_time(
          clock_limits(kHuge, kHuge, increment, increment, moves_to_go), Color::O, 30, params);
      BOOST_TEST(budget.limited());
      BOOST_TEST(budget.soft_ms >= 1);
      BOOST_TEST(budget.soft_ms <= budget.hard_ms);
      BOOST_TEST(budget.hard_ms <= kHuge / 10);
      BOOST_TEST(budget.soft_ms <= kHuge / params.iteration_stop_permille);
    }
  }
  SearchLimits limits;
  limits.move_time_ms = kHuge;
  const TimeBudget fixed = plan_time(limits, Color::X, 30);
  BOOST_TEST(fixed.hard_ms >= 1);
  BOOST_TEST(fixed.hard_ms <= kHuge / 10);
}

// Four players: a seat with a clock of its own plans on it (and its increment), whatever the
// team clocks and the other seats' clocks say; a seat without one plans on its team's clock.
BOOST_AUTO_TEST_CASE(a_seat_plans_on_its_own_clock_else_its_teams) {
  const SearchLimits team_clocks = clock_limits(60000, 90000, 500, 700);
  SearchLimits seat_clocks = team_clocks;
  seat_clocks.seat_time_ms = {3000, -1, 120000, 5000};
  seat_clocks.seat_increment_ms = {100, 900, 0, 0};
  for (Seat seat = 0; seat < kSeatCount; ++seat) {
    const TimeBudget planned = plan_seat_time(seat_clocks, seat, 30);
    SearchLimits expected_clock = clock_limits(-1, -1);
    if (seat_clocks.seat_time_ms[seat] >= 0) {
      // The seat's own clock, at its team's place.
      expected_clock.time_ms[int(team_of(seat))] = seat_clocks.seat_time_ms[seat];
      expected_clock.increment_ms[int(team_of(seat))] = seat_clocks.seat_increment_ms[seat];
    } else {
      expected_clock = team_clocks;
    }
    const TimeBudget expected = plan_time(expected_clock, team_of(seat), 30);
    BOOST_TEST_CONTEXT("seat " << seat) {
      BOOST_TEST(planned.limited());
      BOOST_TEST(planned.soft_ms == expected.soft_ms);
      BOOST_TEST(planned.hard_ms == expected.hard_ms);
      BOOST_TEST(planned.use_all == expected.use_all);
    }
  }
  // Seat 0's 3 s clock plans far less than seat 2's 120 s one, though they are one team.
  BOOST_TEST(plan_seat_time(seat_clocks, 0, 30).hard_ms <
             plan_seat_time(seat_clocks, 2, 30).hard_ms);
  // No clock at all: no limit.
  BOOST_TEST(!plan_seat_time(SearchLimits{}, 1, 30).limited());
  SearchLimits only_seat;
  only_seat.seat_time_ms[3] = 1000;
  BOOST_TEST(only_seat.uses_clock());
  BOOST_TEST(plan_seat_time(only_seat, 3, 30).limited());
  BOOST_TEST(!plan_seat_time(only_seat, 1, 30).limited());
}

// The table of tunable parameters (search_params.hpp) describes every field of SearchParams once:
// a struct whose fields are all spoiled, then each set to its default through its row, is the
// default struct (a field without a row, or with two, fails). The names are unique as the UQI
// session compares them (case and spaces aside), every default lies inside its option's range, and
// the SPSA step is positive and smaller than the range.
BOOST_AUTO_TEST_CASE(the_parameter_table_describes_every_field_once) {
  constexpr int kSpoiled = -987654;
  std::array<int, std::size(kSearchParamSpecs)> spoiled;
  spoiled.fill(kSpoiled);
  SearchParams from_table = std::bit_cast<SearchParams>(spoiled);
  const SearchParams defaults;
  std::set<std::string> keys;
  for (const SearchParamSpec& param : kSearchParamSpecs) {
    BOOST_TEST_CONTEXT(param.name) {
      const int before = from_table.*param.field;
      BOOST_TEST(before == kSpoiled);  // no earlier row set this field
      const int standard = defaults.*param.field;
      from_table.*param.field = standard;
      std::string key;
      for (const char c : text_helpers::to_lower(param.name))
        if (c != ' ') key += c;
      BOOST_TEST(keys.insert(key).second);
      BOOST_TEST(param.min < param.max);
      BOOST_TEST(param.min <= standard);
      BOOST_TEST(standard <= param.max);
      BOOST_TEST(param.c_end > 0);
      BOOST_TEST(param.c_end < param.max - param.min);
    }
  }
  BOOST_TEST((from_table == defaults));
}

// The time parameters shape the plan as search_params.hpp says, and the default ones plan as a
// call without parameters does. A clock of 60 s with 1 s increments, 30 ms overhead: 58770 ms
// usable, a soft share of 58770 / 16 + 3/4 of the increment, a hard limit of four times that
// (below the cap of 40 % of the usable clock).
BOOST_AUTO_TEST_CASE(the_time_parameters_shape_the_plan) {
  const SearchLimits limits = clock_limits(60000, 60000, 1000, 1000);
  const std::int64_t usable = 60000 - 30 - 60000 / 50;
  const TimeBudget standard = plan_time(limits, Color::X, 30);
  const auto plan_with = [&](int SearchParams::*field, int value) {
    SearchParams params;
    params.*field = value;
    return plan_time(limits, Color::X, 30, params);
  };
  BOOST_TEST(standard.soft_ms == usable / 16 + 750);
  BOOST_TEST(standard.hard_ms == 4 * standard.soft_ms);
  const TimeBudget defaults = plan_time(limits, Color::X, 30, SearchParams{});
  BOOST_TEST(defaults.soft_ms == standard.soft_ms);
  BOOST_TEST(defaults.hard_ms == standard.hard_ms);

  BOOST_TEST(plan_with(&SearchParams::moves_to_go, 60).soft_ms == usable / 60 + 750);
  BOOST_TEST(plan_with(&SearchParams::increment_permille, 1000).soft_ms == usable / 16 + 1000);
  const TimeBudget twice = plan_with(&SearchParams::hard_per_soft_percent, 200);
  BOOST_TEST(twice.soft_ms == standard.soft_ms);
  BOOST_TEST(twice.hard_ms == 2 * standard.soft_ms);
  // A cap of 15 % of the usable clock binds below four times the soft share.
  BOOST_TEST(plan_with(&SearchParams::hard_cap_permille, 150).hard_ms == usable * 150 / 1000);
}

// TimeStability's scale of the soft limit (SearchStability), with the default weights (1000 per
// mille a change, 25 per centipawn of fall, 700 once settled): as planned before anything is
// known and after a first iteration; twice after a change of the best move, the change's share
// halving with each iteration since; more when the score falls; less once the best move has
// stayed for four iterations; a proven score (none) measures no fall, not even against the next.
BOOST_AUTO_TEST_CASE(search_stability_scales_the_soft_limit) {
  SearchStability stability{SearchParams{}};
  BOOST_TEST(stability.soft_scale_permille() == 1000);
  stability.iteration_done(false, 30);
  BOOST_TEST(stability.soft_scale_permille() == 1000);
  stability.iteration_done(true, 30);
  BOOST_TEST(stability.soft_scale_permille() == 2000);
  BOOST_TEST(stability.scaled(600) == 1200);
  stability.iteration_done(false, 30);
  BOOST_TEST(stability.soft_scale_permille() == 1500);
  // A change 250, a fall of 10 cp: 1250 * (1000 + 250) / 1000.
  stability.iteration_done(false, 20);
  BOOST_TEST(stability.soft_scale_permille() == 1562);
  stability.iteration_done(false, std::nullopt);
  BOOST_TEST(stability.soft_scale_permille() == 1125);
  // Settled (four iterations without a change): 1062 * 700 / 1000.
  stability.iteration_done(false, -500);
  BOOST_TEST(stability.soft_scale_permille() == 743);
  // A fall of 200 cp is capped at twice the time: 1031 * 2 * 700 / 1000.
  stability.iteration_done(false, -700);
  BOOST_TEST(stability.soft_scale_permille() == 1443);
  stability.iteration_done(true, -700);
  BOOST_TEST(stability.soft_scale_permille() == 2015);
  BOOST_TEST(stability.scaled(-1) == -1);
  BOOST_TEST(stability.scaled(0) == 0);
}

// At the ends of the parameters' ranges and through any sequence of iterations, the scale stays
// within 1 to 3000 per mille, and a huge soft limit scales (and is then taken a share of, as the
// search does) without overflow.
BOOST_DATA_TEST_CASE(search_stability_stays_within_its_bounds, bdata::xrange(2), use_max) {
  SearchParams params;
  for (const SearchParamSpec& param : kSearchParamSpecs)
    if (param.name == "TimeMoveChange" || param.name == "TimeScoreDrop" ||
        param.name == "TimeSettled")
      params.*param.field = use_max ? param.max : param.min;
  SearchStability stability(params);
  const std::optional<int> scores[] = {0, -30000, 30000, std::nullopt, -30000, 5};
  for (int i = 0; i < 40; ++i) {
    stability.iteration_done(i % 3 != 2, scores[i % std::size(scores)]);
    const int scale = stability.soft_scale_permille();
    BOOST_TEST(scale >= 1);
    BOOST_TEST(scale <= SearchStability::kMaxScalePermille);
    const std::int64_t huge = stability.scaled(std::numeric_limits<std::int64_t>::max());
    BOOST_TEST(huge > 0);
    BOOST_TEST(huge <= (std::int64_t{3} << 50));
    // The search multiplies it by TimeIterationStop, at most 1000 per mille.
    BOOST_TEST(huge <= std::numeric_limits<std::int64_t>::max() / 1000);
  }
}

BOOST_AUTO_TEST_SUITE_END()
