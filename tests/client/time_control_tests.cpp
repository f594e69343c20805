// The arena's time controls and clocks: the cutechess/fastchess text forms (parse, canonical text,
// errors that name the text), and how a clock is charged for each reply, gets its increment,
// renews its period, flags on a late reply (time left + margin) and fills `go`.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "time_control.hpp"

namespace bdata = boost::unit_test::data;
using quixo::arena::Clock;
using quixo::arena::GoLimits;
using quixo::arena::TimeControl;
using Kind = quixo::arena::TimeControl::Kind;

BOOST_AUTO_TEST_SUITE(time_control_tests)

namespace {

// A game-clock text, what it means, and its canonical spelling.
struct ClockSample {
  std::string text;
  std::int64_t base_ms;
  std::int64_t increment_ms;
  int moves;
  std::string canonical;
};
std::ostream& operator<<(std::ostream& out, const ClockSample& s) {
  return out << "'" << s.text << "'";
}

const std::vector<ClockSample> kClocks = {
    {"40/60+0.6", 60000, 600, 40, "40/60+0.6"},
    {"10+0.1", 10000, 100, 0, "10+0.1"},
    {"60", 60000, 0, 0, "60"},
    {"0:30+0.5", 30000, 500, 0, "30+0.5"},
    {"1:30", 90000, 0, 0, "90"},
    {"40/1:00:00", 3600000, 0, 40, "40/3600"},
    {"1:00:30.25+1", 3630250, 1000, 0, "3630.25+1"},
    {"2.5+0.05", 2500, 50, 0, "2.5+0.05"},
    {"40/60", 60000, 0, 40, "40/60"},
    {"10+0", 10000, 0, 0, "10"},
    {"0.001", 1, 0, 0, "0.001"},
    {"0.0005", 1, 0, 0, "0.001"},  // rounded to the nearest millisecond
    {"1.23449+0.0015", 1234, 2, 0, "1.234+0.002"},
    {".5+.1", 500, 100, 0, "0.5+0.1"},
    {"1/0:59.999+0:01", 59999, 1000, 1, "1/59.999+1"},
    {"300+3", 300000, 3000, 0, "300+3"},
    {"120/7200+30", 7200000, 30000, 120, "120/7200+30"},
    {"0:0:1", 1000, 0, 0, "1"},
    // The most seconds a time may have (12 digits), here written with minutes.
    {"16666666666:39.999", 999999999999999, 0, 0, "999999999999.999"},
};

// A fixed-per-move or unlimited text, its kind and value, and its canonical spelling.
struct FixedSample {
  std::string text;
  Kind kind;
  std::int64_t value;  // ms, nodes or depth
  std::string canonical;
};
std::ostream& operator<<(std::ostream& out, const FixedSample& s) {
  return out << "'" << s.text << "'";
}

const std::vector<FixedSample> kFixed = {
    {"st=1.5", Kind::FixedTime, 1500, "st=1.5"},
    {"st=0:02", Kind::FixedTime, 2000, "st=2"},
    {"st=0.05", Kind::FixedTime, 50, "st=0.05"},
    {"nodes=1000", Kind::FixedNodes, 1000, "nodes=1000"},
    {"nodes=18446744073709551615", Kind::FixedNodes, -1, "nodes=18446744073709551615"},
    {"depth=8", Kind::FixedDepth, 8, "depth=8"},
    {"plies=12", Kind::FixedDepth, 12, "depth=12"},
    {"inf", Kind::Infinite, 0, "inf"},
    {"infinite", Kind::Infinite, 0, "inf"},
};

const std::vector<std::string> kMalformed = {
    "",
    "abc",
    "40/",
    "/60",
    "0/60",
    "-10",
    "10+",
    "+0.1",
    "10+-1",
    "10++1",
    "1:60",
    "1:75:00",
    "1:2:3:4",
    "10 + 0.1",
    " 10",
    "40/60/2",
    "0",
    "0.0004",  // rounds to 0 ms
    "0:00",
    "st=",
    "st=0",
    "st=abc",
    "st=-1",
    "nodes=0",
    "nodes=-5",
    "nodes=1.5",
    "nodes=18446744073709551616",
    "depth=0",
    "depth=x",
    "depth=99999999999",
    "foo=3",
    "=3",
    "99999999999999999999",
    "1234567890123",  // more than 12 digits of seconds
    // Found by fuzz_time_control: 12 digits of hours or minutes are more than 12 digits of
    // seconds, which the canonical text (seconds only) could not give back.
    "999998256492:59:59.9959",
    "16666666666:40",
    "40.5/60",
    "10+0.1x",
    "1e3",
    ":30",
    "1:",
    "1::30",
    "inf+1",
    "INF",
    ".",
    "10+.",
    "99999999999/60",
};

std::string error_of(const std::string& text) {
  try {
    (void)TimeControl::parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

}  // namespace

BOOST_DATA_TEST_CASE(game_clocks_parse_and_print, bdata::make(kClocks), sample) {
  const TimeControl tc = TimeControl::parse(sample.text);
  BOOST_TEST((tc.kind() == Kind::Clock));
  BOOST_TEST(tc.base_ms() == sample.base_ms);
  BOOST_TEST(tc.increment_ms() == sample.increment_ms);
  BOOST_TEST(tc.moves_per_period() == sample.moves);
  BOOST_TEST(tc.margin_ms() == 0);
  BOOST_TEST(tc.to_string() == sample.canonical);
  BOOST_TEST((TimeControl::parse(tc.to_string()) == tc));
  BOOST_TEST((tc == TimeControl::clock(sample.base_ms, sample.increment_ms, sample.moves)));
}

BOOST_DATA_TEST_CASE(fixed_and_unlimited_controls_parse_and_print, bdata::make(kFixed), sample) {
  const TimeControl tc = TimeControl::parse(sample.text);
  BOOST_TEST((tc.kind() == sample.kind));
  switch (sample.kind) {
    case Kind::FixedTime:
      BOOST_TEST(tc.move_time_ms() == sample.value);
      BOOST_TEST((tc == TimeControl::fixed_time(sample.value)));
      break;
    case Kind::FixedNodes:
      BOOST_TEST(tc.nodes() == static_cast<std::uint64_t>(sample.value));
      BOOST_TEST((tc == TimeControl::fixed_nodes(static_cast<std::uint64_t>(sample.value))));
      break;
    case Kind::FixedDepth:
      BOOST_TEST(tc.depth() == sample.value);
      BOOST_TEST((tc == TimeControl::fixed_depth(static_cast<int>(sample.value))));
      break;
    default:
      BOOST_TEST(tc.is_infinite());
      BOOST_TEST((tc == TimeControl::infinite()));
      BOOST_TEST((tc == TimeControl()));
      break;
  }
  BOOST_TEST(tc.to_string() == sample.canonical);
  BOOST_TEST((TimeControl::parse(tc.to_string()) == tc));
}

// Every malformed text is refused with std::invalid_argument, and the message quotes the text.
BOOST_DATA_TEST_CASE(malformed_texts_are_refused_by_name, bdata::make(kMalformed), text) {
  const std::string message = error_of(text);
  BOOST_TEST(!message.empty(), "'" << text << "' was accepted");
  BOOST_TEST(message.find("'" + text + "'") != std::string::npos,
             "message '" << message << "' does not name '" << text << "'");
}

BOOST_AUTO_TEST_CASE(factories_refuse_impossible_values) {
  BOOST_CHECK_THROW(TimeControl::clock(0), std::invalid_argument);
  BOOST_CHECK_THROW(TimeControl::clock(-5), std::invalid_argument);
  BOOST_CHECK_THROW(TimeControl::clock(1000, -1), std::invalid_argument);
  BOOST_CHECK_THROW(TimeControl::clock(1000, 0, -1), std::invalid_argument);
  BOOST_CHECK_THROW(TimeControl::fixed_time(0), std::invalid_argument);
  BOOST_CHECK_THROW(TimeControl::fixed_nodes(0), std::invalid_argument);
  BOOST_CHECK_THROW(TimeControl::fixed_depth(0), std::invalid_argument);
  BOOST_CHECK_THROW(TimeControl::clock(1000).with_margin(-1), std::invalid_argument);
  BOOST_CHECK_NO_THROW(TimeControl::clock(1));
  BOOST_CHECK_NO_THROW(TimeControl::fixed_time(1));
}

// The margin is a separate setting: not in the text, but part of the value.
BOOST_AUTO_TEST_CASE(margin_is_kept_apart_from_the_text) {
  const TimeControl plain = TimeControl::parse("40/60+0.6");
  const TimeControl margin = plain.with_margin(100);
  BOOST_TEST(margin.margin_ms() == 100);
  BOOST_TEST(margin.to_string() == "40/60+0.6");
  BOOST_TEST(!(margin == plain));
  BOOST_TEST((margin.with_margin(0) == plain));
  BOOST_TEST((TimeControl::parse("st=1").with_margin(5).move_time_ms() == 1000));
}

BOOST_AUTO_TEST_CASE(sudden_death_with_increment) {
  Clock clock(TimeControl::parse("10+0.1"));
  GoLimits go = clock.go_limits();
  BOOST_TEST(go.time_ms.value() == 10000);
  BOOST_TEST(go.increment_ms.value() == 100);
  BOOST_TEST(!go.moves_to_go.has_value());
  BOOST_TEST(!go.move_time_ms.has_value());
  BOOST_TEST(!go.infinite);

  BOOST_TEST(clock.start_move().value() == 10000);
  BOOST_TEST(clock.thinking());
  BOOST_TEST(clock.stop_move(1000));
  BOOST_TEST(!clock.thinking());
  BOOST_TEST(clock.remaining_ms() == 9100);
  BOOST_TEST(clock.moves_made() == 1);
  BOOST_TEST(clock.moves_to_go() == 0);

  BOOST_TEST(clock.start_move().value() == 9100);
  BOOST_TEST(clock.stop_move(0));
  BOOST_TEST(clock.remaining_ms() == 9200);  // an instant reply gains the increment
  go = clock.go_limits();
  BOOST_TEST(go.time_ms.value() == 9200);
  BOOST_TEST(go.increment_ms.value() == 100);
}

// A reply is late when it takes longer than the time left plus the margin: (time left, margin,
// elapsed) -> in time?, time left afterwards (with a 50 ms increment; when late, the time left
// minus the elapsed time, no increment).
BOOST_DATA_TEST_CASE(late_replies_flag_the_clock,
                     bdata::make({1000, 1000, 1000, 1000, 1000, 1000, 1, 5000}) ^
                         bdata::make({0, 0, 50, 50, 50, 0, 0, 1000}) ^
                         bdata::make({999, 1001, 1000, 1050, 1051, 1000, 2, 5999}) ^
                         bdata::make({1, 0, 1, 1, 0, 1, 0, 1}) ^
                         bdata::make({51, -1, 50, 50, -51, 50, -1, 50}),
                     base, margin, elapsed, in_time, after) {
  Clock clock(TimeControl::clock(base, 50).with_margin(margin));
  BOOST_TEST(clock.start_move().value() == base + margin);
  BOOST_TEST(clock.stop_move(elapsed) == (in_time == 1));
  BOOST_TEST(clock.flagged() == (in_time == 0));
  BOOST_TEST(clock.remaining_ms() == after);
  if (in_time == 0) {
    BOOST_CHECK_THROW(clock.start_move(), std::logic_error);
    BOOST_TEST(clock.moves_made() == 0);
    BOOST_TEST(clock.go_limits().time_ms.value() == 0);
  }
}

// 2 moves in 1 s: the period's time is added to what is left when its last move is made.
BOOST_AUTO_TEST_CASE(periods_renew_and_carry_over) {
  Clock clock(TimeControl::parse("2/1"));
  BOOST_TEST(clock.moves_to_go() == 2);
  BOOST_TEST(clock.go_limits().moves_to_go.value() == 2);
  clock.start_move();
  BOOST_TEST(clock.stop_move(300));
  BOOST_TEST(clock.remaining_ms() == 700);
  BOOST_TEST(clock.moves_to_go() == 1);
  BOOST_TEST(clock.go_limits().moves_to_go.value() == 1);
  clock.start_move();
  BOOST_TEST(clock.stop_move(200));
  BOOST_TEST(clock.remaining_ms() == 1500);  // 500 left + 1000 for the next period
  BOOST_TEST(clock.moves_to_go() == 2);
  BOOST_TEST(clock.go_limits().time_ms.value() == 1500);
  BOOST_TEST(clock.go_limits().increment_ms.value() == 0);
}

// 40/60+0.6 over 100 moves of 1 s: each period adds 60 s, each move 0.6 s.
BOOST_AUTO_TEST_CASE(forty_moves_in_sixty_seconds) {
  Clock clock(TimeControl::parse("40/60+0.6"));
  for (int move = 1; move <= 100; ++move) {
    const std::int64_t before = clock.remaining_ms();
    BOOST_TEST(clock.start_move().value() == before);
    BOOST_TEST(clock.stop_move(1000));
    const int periods_done = move / 40;
    BOOST_TEST(clock.remaining_ms() == 60000 - move * 400 + periods_done * 60000);
    BOOST_TEST(clock.moves_to_go() == 40 - move % 40);
  }
  BOOST_TEST(clock.moves_made() == 100);
}

BOOST_AUTO_TEST_CASE(fixed_move_time_with_margin) {
  Clock clock(TimeControl::parse("st=1.5").with_margin(100));
  const GoLimits go = clock.go_limits();
  BOOST_TEST(go.move_time_ms.value() == 1500);
  BOOST_TEST(!go.time_ms.has_value());
  BOOST_TEST(!go.increment_ms.has_value());
  for (int i = 0; i < 3; ++i) {
    BOOST_TEST(clock.start_move().value() == 1600);
    BOOST_TEST(clock.stop_move(1600));
  }
  BOOST_TEST(clock.remaining_ms() == 0);
  BOOST_TEST(clock.moves_made() == 3);
  clock.start_move();
  BOOST_TEST(!clock.stop_move(1601));
  BOOST_TEST(clock.flagged());
}

// Nodes, depth and infinite: no deadline, no time to charge.
BOOST_DATA_TEST_CASE(controls_without_a_deadline, bdata::make({"nodes=5000", "depth=7", "inf"}),
                     text) {
  Clock clock(TimeControl::parse(text));
  for (const std::int64_t elapsed : {0, 1, 1000000000}) {
    BOOST_TEST(!clock.start_move().has_value());
    BOOST_TEST(clock.stop_move(elapsed));
  }
  BOOST_TEST(!clock.flagged());
  BOOST_TEST(clock.moves_made() == 3);
  const GoLimits go = clock.go_limits();
  BOOST_TEST(!go.time_ms.has_value());
  BOOST_TEST(!go.move_time_ms.has_value());
  GoLimits expected;
  switch (clock.control().kind()) {
    case Kind::FixedNodes:
      expected.nodes = 5000;
      break;
    case Kind::FixedDepth:
      expected.depth = 7;
      break;
    default:
      expected.infinite = true;
      break;
  }
  BOOST_TEST((go == expected));
}

BOOST_AUTO_TEST_CASE(clock_calls_out_of_order_are_refused) {
  Clock clock(TimeControl::parse("5+0"));
  BOOST_CHECK_THROW(clock.stop_move(10), std::logic_error);
  clock.start_move();
  BOOST_CHECK_THROW(clock.start_move(), std::logic_error);
  BOOST_CHECK_THROW(clock.stop_move(-1), std::invalid_argument);
  BOOST_TEST(clock.thinking());
  BOOST_TEST(clock.stop_move(10));
  BOOST_TEST(clock.remaining_ms() == 4990);
}

BOOST_AUTO_TEST_SUITE_END()
