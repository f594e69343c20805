// Levels below full strength (engine/search/skill.hpp): the strength options as the UQI session
// declares and takes them, the Elo map, and the weakened search of both games through the Engine
// and Engine4 facades: legal moves always, a forced pass still played, the random mover at
// UCI_Elo 0, more moves other than the best the lower the level, an answer without a limit, and
// full strength left as it was. The searches' randomness is seeded (StrengthOptions::random_seed),
// so every run checks the same choices; the bounds are wide besides.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "search/engine.hpp"
#include "search/engine4.hpp"
#include "search/skill.hpp"
#include "support/random_positions.hpp"
#include "support/search.hpp"
#include "support/search4.hpp"
#include "support/search_limits.hpp"
#include "uqi_client_messages.hpp"
#include "uqi_session.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::test;

namespace {

EngineOptions at_skill(int level, std::uint64_t seed = 1) {
  EngineOptions options;
  options.strength.skill_level = level;
  options.strength.random_seed = seed;
  return options;
}

EngineOptions at_elo(int elo, std::uint64_t seed = 1) {
  EngineOptions options;
  options.strength.limit_strength = true;
  options.strength.elo = elo;
  options.strength.random_seed = seed;
  return options;
}

// Positions of both games from seeded random games, unfinished.
const std::vector<Position> kPositions = random_positions<Position>(26, 40, {4, 40, Keep::Last});
const std::vector<Position4> kPositions4 =
    random_positions<Position4>(27, 24, {4, 40, Keep::LastOngoing});

const std::vector<Position> kOngoing = [] {
  std::vector<Position> result;
  for (const Position& position : kPositions)
    if (!position.is_game_over()) result.push_back(position);
  return result;
}();

// A four-player position whose seat to move has nothing to take: its only move is the pass.
Position4 forced_pass_position() {
  for (const Position4& position : random_positions<Position4>(5, 4000, {1, 80, Keep::Ongoing})) {
    const auto moves = position.legal_moves();
    if (moves.size() == 1 && moves[0].is_pass()) return position;
  }
  BOOST_FAIL("no forced pass among the random positions");
  return Position4::start();
}

// The session's answer to the lines, as its output lines.
std::vector<std::string> session_lines(const std::vector<std::string>& commands) {
  std::ostringstream out;
  {
    UqiSession session(out);
    for (const std::string& command : commands) session.handle_line(command);
    session.handle_line("quit");
  }
  std::vector<std::string> lines;
  std::istringstream text(out.str());
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

std::string bestmove_of(const std::vector<std::string>& lines) {
  for (const std::string& line : lines)
    if (line.starts_with("bestmove ")) {
      const std::string rest = line.substr(9);
      return rest.substr(0, rest.find(' '));
    }
  return "";
}

// A limited session's `go` without limits in `position` answers a legal move of its own (the
// session replaces an illegal one with an error line, which must not come).
template <class PositionT>
void check_session_move(const PositionT& position, const std::string& level) {
  // UCI_Elo counts with UCI_LimitStrength only.
  const std::string limit = level.find("UCI_Elo") != std::string::npos
                                ? "setoption name UCI_LimitStrength value true"
                                : "isready";
  const std::vector<std::string> lines =
      session_lines({limit, level, "position fen " + to_string(position), "go", "isready"});
  BOOST_TEST_CONTEXT(level << " at " << to_string(position)) {
    for (const std::string& line : lines) BOOST_TEST(line.find("error") == std::string::npos, line);
    const std::string best = bestmove_of(lines);
    BOOST_CHECK_NO_THROW(parse_move(position, best));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(skill_tests)

BOOST_AUTO_TEST_CASE(the_elo_map_is_monotonic_and_anchored_at_the_random_mover) {
  for (int level = 0; level < kSkillLevelMax; ++level)
    BOOST_TEST(level_elo(level) < level_elo(level + 1), "level " << level);
  BOOST_TEST(level_elo(0) == 0);
  BOOST_TEST(level_elo(kSkillLevelMax) == kEloMax);
  BOOST_TEST(skill_of_elo(0) == 0.0);
  BOOST_TEST(skill_of_elo(kEloMax) == double(kSkillLevelMax));
  double previous = -1;
  for (int elo = 0; elo <= kEloMax; elo += 7) {
    const double skill = skill_of_elo(elo);
    BOOST_TEST(skill > previous, "UCI_Elo " << elo);
    BOOST_TEST(std::abs(elo_of_skill(skill) - elo) < 1e-6, "UCI_Elo " << elo);
    previous = skill;
  }
  // Between integer levels the skill is fractional: the map is smooth, not a staircase.
  const double between = skill_of_elo((level_elo(10) + level_elo(11)) / 2);
  BOOST_TEST(between > 10.0);
  BOOST_TEST(between < 11.0);
  // Depth grows and noise falls with the skill; the noise is unbounded at the weakest.
  for (double skill = 0.25; skill < kSkillLevelMax; skill += 0.25) {
    BOOST_TEST(skill_depth(skill) >= skill_depth(skill - 0.25));
    BOOST_TEST(skill_temperature(skill) < skill_temperature(skill - 0.25));
  }
  BOOST_TEST(std::isinf(skill_temperature(0)));
}

BOOST_AUTO_TEST_CASE(the_options_choose_the_skill) {
  StrengthOptions strength;
  BOOST_TEST(full_strength(strength));
  strength.skill_level = 7;
  BOOST_TEST(skill_of(strength) == 7.0);
  BOOST_TEST(!full_strength(strength));
  // UCI_LimitStrength takes UCI_Elo instead of Skill Level, as Stockfish does.
  strength.limit_strength = true;
  strength.elo = 0;
  BOOST_TEST(skill_of(strength) == 0.0);
  strength.elo = kEloMax;
  BOOST_TEST(full_strength(strength));
}

BOOST_AUTO_TEST_CASE(pick_line_prefers_the_best_lines_more_the_colder_it_is) {
  const std::vector<Score> scores = {50, 40, 0, -200, mated_in(1)};
  std::mt19937_64 random(3);
  const auto counts = [&](double temperature) {
    std::vector<int> count(scores.size());
    for (int i = 0; i < 4000; ++i) ++count[pick_line(scores, temperature, random)];
    return count;
  };
  const std::vector<int> cold = counts(5), warm = counts(60), hot = counts(1e9);
  BOOST_TEST(cold[0] > 3000);
  BOOST_TEST(cold[4] == 0);
  BOOST_TEST(warm[0] > warm[2]);
  BOOST_TEST(warm[2] > warm[3]);
  BOOST_TEST(warm[0] < cold[0]);
  for (const int count : hot) BOOST_TEST(count > 600);  // about 800 each
  BOOST_TEST(pick_line(std::vector<Score>{7}, 10, random) == 0u);
}

BOOST_AUTO_TEST_CASE(the_session_declares_the_strength_options) {
  for (const std::string handshake : {"uqi", "ugi"}) {
    std::map<std::string, uqi::OptionLine> options;
    for (const std::string& line : session_lines({handshake}))
      if (const auto option = uqi::parse_option_line(line)) options[option->name] = *option;
    BOOST_TEST_REQUIRE(options.count("UCI_LimitStrength") == 1u);
    BOOST_TEST(options["UCI_LimitStrength"].type == "check");
    BOOST_TEST(options["UCI_LimitStrength"].default_value.value_or("?") == "false");
    BOOST_TEST_REQUIRE(options.count("UCI_Elo") == 1u);
    BOOST_TEST(options["UCI_Elo"].type == "spin");
    BOOST_TEST(options["UCI_Elo"].min.value_or(-1) == 0);
    BOOST_TEST(options["UCI_Elo"].max.value_or(-1) == kEloMax);
    BOOST_TEST_REQUIRE(options.count("Skill Level") == 1u);
    BOOST_TEST(options["Skill Level"].type == "spin");
    BOOST_TEST(options["Skill Level"].min.value_or(-1) == 0);
    BOOST_TEST(options["Skill Level"].max.value_or(-1) == kSkillLevelMax);
    BOOST_TEST(options["Skill Level"].default_value.value_or("?") ==
               std::to_string(kSkillLevelMax));
  }
}

BOOST_AUTO_TEST_CASE(the_session_refuses_bad_strength_values_by_name) {
  const std::vector<std::string> lines = session_lines(
      {"setoption name UCI_Elo value " + std::to_string(kEloMax + 1),
       "setoption name Skill Level value -1", "setoption name UCI_LimitStrength value 2"});
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  BOOST_TEST(text.find("option UCI_Elo: '" + std::to_string(kEloMax + 1) + "' is out of range") !=
                 std::string::npos,
             text);
  BOOST_TEST(text.find("option Skill Level: '-1' is out of range") != std::string::npos, text);
  BOOST_TEST(
      text.find("option UCI_LimitStrength needs the value true or false") != std::string::npos,
      text);
}

// Through the protocol, a limited session plays legal moves in both games (a `go` without any
// limit answers: the level bounds its search).
BOOST_DATA_TEST_CASE(a_limited_session_plays_legal_moves_in_both_games,
                     bdata::make(std::vector<std::string>{
                         "setoption name Skill Level value 0", "setoption name Skill Level value 6",
                         "setoption name UCI_Elo value " + std::to_string(kEloMax / 2)}),
                     level) {
  for (int i = 0; i < 4; ++i) {
    const Position& position = kOngoing.at(std::size_t(i));
    check_session_move(position, level);
  }
  for (int i = 0; i < 4; ++i) {
    const Position4& position = kPositions4.at(std::size_t(i));
    check_session_move(position, level);
  }
}

BOOST_DATA_TEST_CASE(a_weakened_engine_plays_legal_moves, bdata::make({0, 1, 4, 9, 14, 19}),
                     level) {
  Engine engine;
  engine.set_options(at_skill(level));
  for (const Position& position : kOngoing) {
    // No limit: the level bounds the search, so it answers at once.
    const SearchRun<Move> run = search(engine, position, SearchLimits{});
    BOOST_TEST_CONTEXT("skill " << level << " at " << to_string(position)) {
      check_legal_answer(position, run);
    }
  }
  Engine4 engine4;
  engine4.set_options(at_skill(level));
  std::vector<Position4> positions = kPositions4;
  positions.push_back(forced_pass_position());
  for (const Position4& position : positions) {
    const SearchRun<Move4> run = search(engine4, position, SearchLimits{});
    BOOST_TEST_CONTEXT("skill " << level << " at " << to_string(position)) {
      check_legal_answer(position, run);
    }
  }
  const SearchRun<Move4> pass = search(engine4, positions.back(), SearchLimits{});
  BOOST_TEST(pass.best.is_pass());
}

BOOST_AUTO_TEST_CASE(uci_elo_0_spreads_its_choices_over_every_legal_move) {
  // Every legal move, those that make the opponent's line included.
  const Position position = kOngoing.at(3);
  const auto legal = position.legal_moves();
  Engine engine;
  engine.set_options(at_elo(0));
  std::map<std::string, int> counts;
  const int per_move = 24;
  const int searches = per_move * int(legal.size());
  for (int i = 0; i < searches; ++i)
    ++counts[to_string(search(engine, position, SearchLimits{}).best)];
  BOOST_TEST(counts.size() == legal.size());
  for (const auto& [move, count] : counts) {
    BOOST_TEST(count >= per_move / 4, move << " " << count);
    BOOST_TEST(count <= per_move * 3, move << " " << count);
  }
  // The four-player game alike.
  const Position4 position4 = kPositions4.at(2);
  const auto legal4 = position4.legal_moves();
  Engine4 engine4;
  engine4.set_options(at_elo(0));
  std::map<std::string, int> counts4;
  for (int i = 0; i < per_move * int(legal4.size()); ++i)
    ++counts4[to_string(search(engine4, position4, SearchLimits{}).best)];
  BOOST_TEST(counts4.size() == legal4.size());
  for (const auto& [move, count] : counts4) BOOST_TEST(count >= per_move / 4, move << " " << count);
}

BOOST_AUTO_TEST_CASE(lower_levels_miss_the_best_move_more_often) {
  // The best move: the full-strength search's at depth 6. A level's miss rate over the positions
  // falls as the level rises, from nearly every move at level 1 to about a quarter just below
  // full strength.
  const std::vector<Position> positions = kOngoing;
  Engine reference;
  std::vector<Move> best;
  for (const Position& position : positions)
    best.push_back(search(reference, position, depth_limit(6)).best);
  const std::vector<int> levels = {1, 7, 13, 19};
  std::vector<double> miss_rate;
  for (const int level : levels) {
    Engine engine;
    engine.set_options(at_skill(level));
    int misses = 0, tries = 0;
    for (std::size_t i = 0; i < positions.size(); ++i, ++tries)
      misses += search(engine, positions[i], SearchLimits{}).best != best[i];
    miss_rate.push_back(double(misses) / tries);
    BOOST_TEST_MESSAGE("skill " << level << ": misses the best move " << misses << "/" << tries);
  }
  BOOST_TEST(miss_rate[0] > 0.6);
  BOOST_TEST(miss_rate[3] < 0.5);
  for (std::size_t i = 1; i < levels.size(); ++i)
    BOOST_TEST(miss_rate[i] < miss_rate[i - 1] + 0.05, "skill " << levels[i]);
  BOOST_TEST(miss_rate[0] > miss_rate[3] + 0.3);
}

BOOST_AUTO_TEST_CASE(a_weakened_engine_keeps_to_the_limits_it_is_given) {
  const Position position = kOngoing.at(5);
  Engine engine;
  engine.set_options(at_skill(19));
  // Its own depth bounds a search without limits.
  const SearchRun<Move> free_run = search(engine, position, SearchLimits{});
  for (const SearchInfo& info : free_run.infos)
    BOOST_TEST(info.depth <= int(std::ceil(skill_depth(19))));
  // A node limit below what its depth would take holds.
  const SearchRun<Move> limited = search(engine, position, node_limit(300));
  check_legal_answer(position, limited);
  BOOST_TEST(limited.last().nodes <= 300u + 64u);
  // So do a move time and a stop.
  check_legal_answer(position, search(engine, position, move_time(20)));
  engine.set_position(position, {});
  const auto observer = start(engine, infinite());
  engine.stop();
  check_legal_answer(position, finish_search(engine, *observer));
}

BOOST_AUTO_TEST_CASE(full_strength_searches_as_the_default_engine) {
  // UCI_LimitStrength at the top Elo, and Skill Level at its top, are the engine as it plays:
  // the same nodes and move at a fixed depth as the default options.
  for (const EngineOptions& options : {at_elo(kEloMax), at_skill(kSkillLevelMax)}) {
    Engine plain, top;
    top.set_options(options);
    for (std::size_t i = 0; i < 6; ++i) {
      const Position& position = kOngoing.at(i);
      const SearchRun<Move> a = search(plain, position, depth_limit(5));
      const SearchRun<Move> b = search(top, position, depth_limit(5));
      BOOST_TEST(to_string(a.best) == to_string(b.best));
      BOOST_TEST(a.last().nodes == b.last().nodes);
    }
  }
}

BOOST_AUTO_TEST_CASE(two_unseeded_engines_do_not_repeat_each_other) {
  // Without a seed each engine takes one from the system: the same level plays other games.
  Engine first, second;
  first.set_options(at_skill(4, 0));
  second.set_options(at_skill(4, 0));
  int differences = 0;
  for (const Position& position : kOngoing)
    differences += search(first, position, SearchLimits{}).best !=
                   search(second, position, SearchLimits{}).best;
  BOOST_TEST(differences > 0);
}

BOOST_AUTO_TEST_SUITE_END()
