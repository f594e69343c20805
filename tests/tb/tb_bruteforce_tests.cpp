// Distances spot-checked against a plain search that knows nothing of the tables: for sampled
// positions of the fixture's layers, a depth-limited exhaustive search over Position finds the
// same value and distance whenever the stored distance is at most 4 plies, and finds no result
// within 4 plies for the draws and longer games.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "support/test_tables.hpp"
#include "tb/index.hpp"
#include "tb/tb_file.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::tb;

namespace {

// The exact value of an unfinished position when the game ends within `depth` plies under best
// play (the fastest win, or a loss whatever is played); nullopt otherwise (a draw, or longer).
std::optional<TbValue> solve_within(const Position& position, int depth) {
  int fastest_win = depth + 1, slowest_loss = 0;
  bool every_move_loses = true;
  for (const Move move : position.legal_moves()) {
    const Position child = position.after(move);
    std::optional<TbValue> value;
    if (child.outcome() == win_for(position.side_to_move())) return TbValue{Wdl::Win, 1};
    if (child.outcome() != Outcome::Ongoing)
      value = TbValue{Wdl::Loss, 1};
    else if (depth > 1)
      if (const auto child_value = solve_within(child, depth - 1))
        value = child_value->before_move();
    if (value && value->wdl == Wdl::Win) fastest_win = std::min(fastest_win, value->distance);
    if (value && value->wdl == Wdl::Loss)
      slowest_loss = std::max(slowest_loss, value->distance);
    else
      every_move_loses = false;
  }
  if (fastest_win <= depth) return TbValue{Wdl::Win, fastest_win};
  if (every_move_loses) return TbValue{Wdl::Loss, slowest_loss};
  return std::nullopt;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tb_bruteforce_tests)

BOOST_DATA_TEST_CASE(short_distances_match_a_plain_search, bdata::make({0, 1}), layer) {
  test::require_test_tables();
  if (layer > test::test_table_blanks()) {
    BOOST_TEST_MESSAGE("layer " << layer << " is not generated in this build");
    return;
  }
  const LayerIndex index(layer);
  const auto values =
      LayerFile(layer_file_path(test::test_tables_dir(), layer), layer).decode_all(2);
  constexpr int kDepth = 4;
  std::mt19937_64 random(std::uint64_t(layer) + 2024);
  int short_ones = 0, long_ones = 0, by_distance[kDepth + 1] = {};
  while (short_ones < 160 || long_ones < 60) {
    const Slot slot = random() % values.size();
    const TbValue stored = unpack_value(values[slot]);
    const auto content = index.board_of(slot);
    if (content.hole || (stored.distance == 0 && stored.wdl != Wdl::Draw)) continue;  // finished
    const bool is_short = stored.wdl != Wdl::Draw && stored.distance <= kDepth;
    if (is_short ? short_ones >= 160 : long_ones >= 60) continue;
    // prefer the rarer distances 2-4: skip most of the many wins in 1
    if (is_short && stored.distance == 1 && by_distance[1] >= 40) continue;
    (is_short ? short_ones : long_ones) += 1;
    if (is_short) ++by_distance[stored.distance];
    const Position position(content.board.mover, content.board.opponent, Color::X);
    const auto searched = solve_within(position, kDepth);
    if (is_short) {
      BOOST_TEST((searched && *searched == stored),
                 to_string(position) << ": stored " << to_string(stored) << ", search "
                                     << (searched ? to_string(*searched) : "none"));
    } else {
      // the message is built even when the check passes: no *searched of nothing
      BOOST_TEST(!searched.has_value(), to_string(position)
                                            << ": stored " << to_string(stored) << ", search "
                                            << (searched ? to_string(*searched) : "none"));
    }
  }
  BOOST_TEST(by_distance[2] + by_distance[3] + by_distance[4] > 30);
}

BOOST_AUTO_TEST_SUITE_END()
