// The HTML report (html_report.hpp): the page built from hand-made standings and histories carries
// the arena's own numbers (ratings, crosstable cells, histogram counts, the LLR after each game),
// is well-formed, loads nothing from elsewhere and escapes engine names; the history gives each
// engine the times of its own moves; the sink rewrites the page while a tournament runs (through
// the fan-out, beside another sink) and, on --resume, shows the earlier run's games from the
// results file.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "html_report.hpp"
#include "report_fan_out.hpp"
#include "results_store.hpp"
#include "standings.hpp"
#include "support/arena_printing.hpp"
#include "support/tournament_fixtures.hpp"

namespace {

using namespace quixo::arena;
using quixo::test::engine;
using quixo::test::kPolicies;
using quixo::test::launcher_by_name;
using quixo::test::read_file;
using quixo::test::RecordingSink;
using quixo::test::sprt_between;
using quixo::test::TempDir;
using quixo::test::two_engine_config;

const std::string kOddName = "<b>&\"x";

FinishedGame game(int id, std::size_t x, std::size_t o, GameResult result, int plies,
                  Termination termination = Termination::Line) {
  // A draw cannot end in a line: the default ending of a draw is a repetition.
  const Termination ending = result == GameResult::Draw && termination == Termination::Line
                                 ? Termination::Repetition
                                 : termination;
  return quixo::test::finished_game(id, x, o, result, ending, "by hand", plies);
}

// Three engines, the second with a name that needs escaping, two rounds: 12 games, each game pair
// (games 2k, 2k+1) between the same two engines with colours swapped.
TournamentConfig three_engines() {
  TournamentConfig config;
  config.engines = {engine("alpha"), engine(kOddName), engine("gamma")};
  config.rounds = 2;
  config.event = "html test";
  return config;
}

constexpr auto X = GameResult::XWins;
constexpr auto O = GameResult::OWins;
constexpr auto D = GameResult::Draw;

// alpha-odd: W D, L W (alpha 2.5/4); alpha-gamma: W W, D D (alpha 3/4); odd-gamma: L L, W D
// (odd 1.5/4), each from the first-named engine's point of view.
std::vector<FinishedGame> three_engine_games() {
  return {game(0, 0, 1, X, 11),  game(1, 1, 0, D, 40),
          game(2, 0, 2, X, 9),   game(3, 2, 0, O, 13, Termination::TimeForfeit),
          game(4, 1, 2, O, 10),  game(5, 2, 1, X, 12),
          game(6, 0, 1, O, 25),  game(7, 1, 0, O, 7),
          game(8, 0, 2, D, 40),  game(9, 2, 0, D, 41),
          game(10, 1, 2, X, 30), game(11, 2, 1, D, 3)};
}

std::string fixed(double value, int decimals) {
  if (std::fabs(value) < 0.5 * std::pow(10.0, -decimals)) value = 0.0;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// The text of the element that starts at the first `start` after `from` and ends at the first
// `end` after it (for picking a section or an SVG out of the page).
std::string between(const std::string& page, const std::string& start, const std::string& end,
                    std::size_t from = 0) {
  const std::size_t begin = page.find(start, from);
  BOOST_REQUIRE_MESSAGE(begin != std::string::npos, "no " << start);
  const std::size_t stop = page.find(end, begin);
  BOOST_REQUIRE_MESSAGE(stop != std::string::npos, "no " << end << " after " << start);
  return page.substr(begin, stop + end.size() - begin);
}

// Every value of `name="..."` in `text`, in order.
std::vector<std::string> attribute_values(const std::string& text, const std::string& name) {
  std::vector<std::string> values;
  const std::string key = " " + name + "=\"";
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
    at += key.size();
    const std::size_t end = text.find('"', at);
    if (end == std::string::npos) break;
    values.push_back(text.substr(at, end - at));
    at = end;
  }
  return values;
}

std::vector<std::int64_t> bar_counts(const std::string& svg) {
  std::vector<std::int64_t> counts;
  for (const std::string& value : attribute_values(svg, "data-count"))
    counts.push_back(std::stoll(value));
  return counts;
}

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_name_char(char c, bool colon) {
  return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || (colon && c == ':');
}
bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

// An opening tag `<name attr="value" ...>` or `<name .../>`, every attribute quoted and no '<'
// or '>' in a value: its element name and whether it closes itself, or nullopt when malformed.
std::optional<std::pair<std::string, bool>> parse_opening_tag(const std::string& tag) {
  if (tag.size() < 3 || tag.front() != '<' || tag.back() != '>' || !is_name_start(tag[1]))
    return std::nullopt;
  std::size_t at = 1;
  while (at < tag.size() && is_name_char(tag[at], false)) ++at;
  const std::string name = tag.substr(1, at - 1);
  const std::size_t end = tag.size() - 1;  // the '>'
  while (true) {
    const std::size_t before_space = at;
    while (at < end && is_space(tag[at])) ++at;
    if (at == end) return std::make_pair(name, false);
    if (tag[at] == '/') {
      if (at + 1 != end) return std::nullopt;
      return std::make_pair(name, true);
    }
    if (at == before_space || !is_name_start(tag[at])) return std::nullopt;
    while (at < end && is_name_char(tag[at], true)) ++at;
    if (tag.compare(at, 2, "=\"") != 0) return std::nullopt;
    at += 2;
    while (at < end && tag[at] != '"') {
      if (tag[at] == '<' || tag[at] == '>') return std::nullopt;
      ++at;
    }
    if (at == end) return std::nullopt;
    ++at;  // the closing quote
  }
}

// Whether `text` starts with an entity: &amp; &lt; &gt; &quot; or &#digits;.
bool starts_with_entity(std::string_view text) {
  for (const std::string_view named : {"&amp;", "&lt;", "&gt;", "&quot;"})
    if (text.starts_with(named)) return true;
  if (!text.starts_with("&#")) return false;
  std::size_t at = 2;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  return at > 2 && at < text.size() && text[at] == ';';
}

// A small well-formedness check, stricter than HTML: every element closed in order (void
// elements written as <x/>), every attribute quoted, every '&' an entity, no '<' in text, and one
// root, <html>. The page is then XML too, which the browser test parses with Python's.
void check_well_formed(const std::string& page) {
  const std::string doctype = "<!DOCTYPE html>\n";
  BOOST_REQUIRE(page.starts_with(doctype));
  std::vector<std::string> open;
  int roots = 0;
  std::size_t at = doctype.size();
  while (at < page.size()) {
    if (page[at] == '&') {
      BOOST_REQUIRE_MESSAGE(starts_with_entity(std::string_view(page).substr(at, 12)),
                            "a bare & at " << at << ": " << page.substr(at, 40));
      ++at;
      continue;
    }
    if (page[at] != '<') {
      ++at;
      continue;
    }
    const std::size_t close = page.find('>', at);
    BOOST_REQUIRE(close != std::string::npos);
    const std::string tag = page.substr(at, close + 1 - at);
    if (tag.starts_with("</")) {
      const std::string name = tag.substr(2, tag.size() - 3);
      BOOST_REQUIRE_MESSAGE(
          !open.empty() && open.back() == name,
          "</" << name << "> closes <" << (open.empty() ? "" : open.back()) << "> at " << at);
      open.pop_back();
    } else {
      const auto parsed = parse_opening_tag(tag);
      BOOST_REQUIRE_MESSAGE(parsed.has_value(), "a malformed tag " << tag);
      const auto& [name, closes_itself] = *parsed;
      if (open.empty()) ++roots;
      if (!closes_itself) {
        BOOST_REQUIRE_MESSAGE(name != "meta" && name != "br", "a void element not closed: " << tag);
        open.push_back(name);
      }
      if (open.size() == 1) BOOST_CHECK_EQUAL(open.front(), "html");
    }
    at = close + 1;
  }
  BOOST_CHECK(open.empty());
  BOOST_CHECK_EQUAL(roots, 1);
}

struct ThreeEngines {
  TournamentConfig config = three_engines();
  std::vector<FinishedGame> games = three_engine_games();
  Standings standings = compute_standings(config, games);
  ReportHistory history = replay_history(config, games);
  std::string page = build_html_report(config, standings, history, HtmlPageState{5, {}, "now"});
};

}  // namespace

BOOST_AUTO_TEST_SUITE(html_report_tests)

BOOST_AUTO_TEST_CASE(the_rating_chart_and_table_carry_the_arena_s_ratings) {
  const ThreeEngines t;
  const std::optional<Ratings> ratings = rate_engines(t.config, t.standings);
  BOOST_REQUIRE(ratings);
  const std::string chart = between(t.page, "<svg class=\"chart ratings-chart\"", "</svg>");
  // A row per engine, in rank order (alpha 5.5/8 first, the odd name 3/8 last), each with its
  // Elo and 95 % error and an error bar and a dot.
  const std::vector<std::string> names = attribute_values(chart, "data-engine");
  BOOST_TEST(names == (std::vector<std::string>{"alpha", "gamma", "&lt;b&gt;&amp;&quot;x"}),
             boost::test_tools::per_element());
  const std::vector<std::string> elos = attribute_values(chart, "data-elo");
  const std::vector<std::string> errors = attribute_values(chart, "data-error");
  const std::size_t order[] = {0, 2, 1};
  for (std::size_t rank = 0; rank < 3; ++rank) {
    BOOST_CHECK_EQUAL(elos[rank], fixed(ratings->elo[order[rank]], 1));
    BOOST_CHECK_EQUAL(errors[rank], fixed(1.959964 * ratings->error[order[rank]], 1));
  }
  BOOST_CHECK_GT(ratings->elo[0], ratings->elo[2]);
  // Each row has its error bar and its dot, and the bar's ends bracket the dot.
  std::size_t from = 0;
  for (std::size_t rank = 0; rank < 3; ++rank) {
    const std::string row = between(chart, "<g class=\"rating-row\"", "</g>", from);
    from = chart.find(row, from) + row.size();
    const std::string bar = between(row, "<line class=\"error-bar\"", "/>");
    const std::string dot = between(row, "<circle class=\"rating\"", ">");
    const double x1 = std::stod(attribute_values(bar, "x1").at(0));
    const double x2 = std::stod(attribute_values(bar, "x2").at(0));
    const double cx = std::stod(attribute_values(dot, "cx").at(0));
    BOOST_CHECK_LT(x1, cx);
    BOOST_CHECK_LT(cx, x2);
  }
  BOOST_CHECK_EQUAL(chart.find("<g class=\"rating-row\"", from), std::string::npos);
  // The table: the same numbers in the same order, with the games and the score.
  const std::string table = between(t.page, "<table class=\"ranking\">", "</table>");
  const std::string expected_first_row =
      "<tr><td>1</td><td class=\"name\">alpha</td><td>" + fixed(ratings->elo[0], 1) + "</td><td>" +
      fixed(1.959964 * ratings->error[0], 1) + "</td><td>8</td><td>68.8 %</td>";
  BOOST_CHECK_MESSAGE(table.find(expected_first_row) != std::string::npos, table);
  BOOST_CHECK(table.find("<td class=\"name\">&lt;b&gt;&amp;&quot;x</td>") != std::string::npos);
  // What the error is, said on the page.
  BOOST_CHECK(t.page.find("95 % intervals: 1.96 standard errors from the sandwich covariance") !=
              std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_crosstable_holds_each_engine_s_points_against_each_other) {
  const ThreeEngines t;
  const std::string table = between(t.page, "<table class=\"crosstable\">", "</table>");
  const std::vector<std::string> rows = attribute_values(table, "data-row");
  const std::vector<std::string> columns = attribute_values(table, "data-column");
  const std::vector<std::string> points = attribute_values(table, "data-points");
  const std::vector<std::string> games = attribute_values(table, "data-games");
  BOOST_REQUIRE_EQUAL(rows.size(), 6u);  // the diagonal has none
  std::map<std::pair<std::string, std::string>, std::string> cells;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    cells[{rows[i], columns[i]}] = points[i] + "/" + games[i];
  }
  const std::string odd = "&lt;b&gt;&amp;&quot;x";
  BOOST_CHECK_EQUAL((cells[{"alpha", odd}]), "2.5/4");
  BOOST_CHECK_EQUAL((cells[{odd, "alpha"}]), "1.5/4");
  BOOST_CHECK_EQUAL((cells[{"alpha", "gamma"}]), "3.0/4");
  BOOST_CHECK_EQUAL((cells[{"gamma", "alpha"}]), "1.0/4");
  BOOST_CHECK_EQUAL((cells[{odd, "gamma"}]), "1.5/4");
  BOOST_CHECK_EQUAL((cells[{"gamma", odd}]), "2.5/4");
  // Rows in rank order, with the totals.
  BOOST_CHECK(table.find("<td class=\"total\">5.5/8</td></tr><tr><th class=\"name\">gamma</th>") !=
              std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_histograms_count_the_pairs_the_plies_the_endings) {
  const ThreeEngines t;
  // Pentanomial bars (LL, LD, WL+DD, WD, WW) per pairing, from its first engine's view.
  std::map<std::string, std::vector<std::int64_t>> pentanomials;
  std::size_t from = 0;
  for (int pairing = 0; pairing < 3; ++pairing) {
    const std::string block = between(t.page, "<div class=\"pairing\"", "</div></div>", from);
    from = t.page.find(block) + block.size();
    const std::string first = attribute_values(block, "data-first").at(0);
    const std::string second = attribute_values(block, "data-second").at(0);
    pentanomials[first + " vs " + second] =
        bar_counts(between(block, "<svg class=\"chart pentanomial\"", "</svg>"));
  }
  const std::string odd = "&lt;b&gt;&amp;&quot;x";
  BOOST_TEST(pentanomials["alpha vs " + odd] == (std::vector<std::int64_t>{0, 0, 1, 1, 0}),
             boost::test_tools::per_element());
  BOOST_TEST(pentanomials["alpha vs gamma"] == (std::vector<std::int64_t>{0, 0, 1, 0, 1}),
             boost::test_tools::per_element());
  BOOST_TEST(pentanomials[odd + " vs gamma"] == (std::vector<std::int64_t>{1, 0, 0, 1, 0}),
             boost::test_tools::per_element());
  // Game lengths up to 41 plies: bins of 2 plies (0-1, ..., 40-41), every game in one.
  const std::string plies = between(t.page, "<svg class=\"chart plies\"", "</svg>");
  const std::vector<std::int64_t> counts = bar_counts(plies);
  BOOST_REQUIRE_EQUAL(counts.size(), 21u);
  BOOST_CHECK_EQUAL(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}), 12);
  BOOST_CHECK_EQUAL(counts[20], 3);  // 40, 40, 41
  BOOST_CHECK_EQUAL(counts[5], 2);   // 10, 11
  BOOST_CHECK_EQUAL(counts[4], 1);   // 9
  BOOST_CHECK(plies.find("<title>40-41: 3</title>") != std::string::npos);
  // Endings: only those that happened, with their counts.
  const std::string endings = between(t.page, "<svg class=\"chart endings\"", "</svg>");
  BOOST_TEST(bar_counts(endings) == (std::vector<std::int64_t>{7, 4, 1}),
             boost::test_tools::per_element());
  BOOST_CHECK(endings.find("<title>line: 7</title>") != std::string::npos);
  BOOST_CHECK(endings.find("<title>repetition: 4</title>") != std::string::npos);
  BOOST_CHECK(endings.find("<title>time forfeit: 1</title>") != std::string::npos);
  // Without --sprt there is no LLR chart; the Elo chart is there for every pairing.
  BOOST_CHECK(t.page.find("llr-chart") == std::string::npos);
  std::size_t elo_charts = 0;
  for (std::size_t at = t.page.find("<svg class=\"chart elo-chart\""); at != std::string::npos;
       at = t.page.find("<svg class=\"chart elo-chart\"", at + 1))
    ++elo_charts;
  BOOST_CHECK_EQUAL(elo_charts, 3u);
}

BOOST_AUTO_TEST_CASE(the_llr_line_has_the_sprt_of_every_game_between_its_bounds) {
  TournamentConfig config = two_engine_config(4);
  config.sprt = sprt_between(-50, 50);
  // From seeded-1's point of view: W W, W D, D L, W W.
  const std::vector<FinishedGame> games = {
      game(0, 0, 1, X, 10), game(1, 1, 0, O, 10), game(2, 0, 1, X, 10), game(3, 1, 0, D, 10),
      game(4, 0, 1, D, 10), game(5, 1, 0, X, 10), game(6, 0, 1, X, 10), game(7, 1, 0, O, 10)};
  const Standings standings = compute_standings(config, games);
  const ReportHistory history = replay_history(config, games);
  const std::string page = build_html_report(config, standings, history, {});
  const std::string chart = between(page, "<svg class=\"chart llr-chart\"", "</svg>");
  // One point after each game: 0 until the first pair is complete, then the SPRT's LLR of the
  // pairs so far.
  std::vector<std::string> expected;
  Pentanomial pairs;
  const EngineResult results[] = {EngineResult::Win,  EngineResult::Win,  EngineResult::Win,
                                  EngineResult::Draw, EngineResult::Draw, EngineResult::Loss,
                                  EngineResult::Win,  EngineResult::Win};
  std::vector<double> llrs;
  for (std::size_t k = 0; k < 8; ++k) {
    if (k % 2 == 1) pairs.add(results[k - 1], results[k]);
    const double llr = pairs.pairs() == 0 ? 0.0 : sprt(pairs, *config.sprt).llr;
    llrs.push_back(llr);
    expected.push_back(std::to_string(k + 1) + ":" + fixed(llr, 3));
  }
  const std::string line = between(chart, "<polyline class=\"llr\"", "/>");
  std::vector<std::string> values;
  const std::string data = attribute_values(line, "data-values").at(0);
  for (std::size_t start = 0; start < data.size();) {
    const std::size_t end = std::min(data.find(' ', start), data.size());
    values.push_back(data.substr(start, end - start));
    start = end + 1;
  }
  BOOST_TEST(values == expected, boost::test_tools::per_element());
  BOOST_CHECK_NE(llrs.back(), 0.0);
  BOOST_CHECK_EQUAL(history.pairings.at(0).back().llr.value(), standings.sprt->llr);
  // The drawing: a higher LLR is higher on the picture (a smaller y), and the two bound lines
  // lie at the bounds, the upper one above the lower.
  std::vector<double> ys;
  const std::string points = attribute_values(line, "points").at(0);
  for (std::size_t comma = points.find(','); comma != std::string::npos;
       comma = points.find(',', comma + 1))
    ys.push_back(std::stod(points.substr(comma + 1)));
  BOOST_REQUIRE_EQUAL(ys.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 8; ++j)
      if (llrs[i] > llrs[j] + 0.01) BOOST_CHECK_LT(ys[i], ys[j]);
  const std::string upper = between(chart, "<line class=\"bound upper\"", "/>");
  const std::string lower = between(chart, "<line class=\"bound lower\"", "/>");
  const double upper_y = std::stod(attribute_values(upper, "y1").at(0));
  const double lower_y = std::stod(attribute_values(lower, "y1").at(0));
  BOOST_CHECK_LT(upper_y, lower_y);
  BOOST_CHECK(chart.find("H1 above " + fixed(config.sprt->upper_bound(), 2)) != std::string::npos);
  BOOST_CHECK(chart.find("H0 below " + fixed(config.sprt->lower_bound(), 2)) != std::string::npos);
  // The SPRT line as the text report prints it.
  BOOST_CHECK(page.find(html_escape(format_sprt(*standings.sprt, *config.sprt))) !=
              std::string::npos);
  // The Elo line: a point after each game from the first complete pair on, at the estimate of
  // the pairs so far, inside its band.
  const std::string elo = between(page, "<polyline class=\"elo\"", "/>");
  const std::string elo_values = attribute_values(elo, "data-values").at(0);
  const EloEstimate last = estimate_elo(standings.pairings.front().pairs);
  BOOST_CHECK_MESSAGE(elo_values.ends_with("8:" + fixed(last.elo, 3)), elo_values);
  // Before game 4 the only pair was won twice: no finite estimate.
  BOOST_CHECK_MESSAGE(elo_values.starts_with("4:"), elo_values);
  BOOST_CHECK(page.find("<polygon class=\"elo-band\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_long_run_draws_at_most_400_points_a_line_the_last_game_included) {
  TournamentConfig config = two_engine_config(500);
  config.sprt = sprt_between(-100, 100);
  std::vector<FinishedGame> games;
  for (int id = 0; id < 1000; ++id)
    games.push_back(game(id, id % 2 == 0 ? 0 : 1, id % 2 == 0 ? 1 : 0,
                         id % 3 == 0 ? X : (id % 3 == 1 ? O : D), 20));
  const Standings standings = compute_standings(config, games);
  const std::string page = build_html_report(config, standings, replay_history(config, games), {});
  for (const std::string start : {"<polyline class=\"llr\"", "<polyline class=\"elo\""}) {
    const std::string values = attribute_values(between(page, start, "/>"), "data-values").at(0);
    BOOST_CHECK_EQUAL(std::count(values.begin(), values.end(), ':'), 400);
    BOOST_CHECK_MESSAGE(values.find(" 1000:") != std::string::npos, values.substr(0, 80));
  }
  const std::string llr =
      attribute_values(between(page, "<polyline class=\"llr\"", "/>"), "data-values").at(0);
  BOOST_CHECK(llr.starts_with("1:0.000 "));
  BOOST_CHECK(llr.ends_with("1000:" + fixed(standings.sprt->llr, 3)));
}

// The well-formedness check's own parts, so that its passes mean something.
BOOST_AUTO_TEST_CASE(the_well_formedness_check_refuses_malformed_tags_and_bare_ampersands) {
  using Tag = std::optional<std::pair<std::string, bool>>;
  BOOST_TEST((parse_opening_tag("<br/>") == Tag{{"br", true}}));
  BOOST_TEST((parse_opening_tag("<svg width=\"3\" viewBox=\"0 0 1 1\">") == Tag{{"svg", false}}));
  BOOST_TEST((parse_opening_tag("<rect x=\"1\" />") == Tag{{"rect", true}}));
  for (const std::string bad :
       {"<a href=x>", "<a b=\"<\">", "<a b=\"1\"c=\"2\">", "<1a>", "<a b=\"1>", "<a / >", "<a b>"})
    BOOST_TEST(!parse_opening_tag(bad).has_value(), bad);
  BOOST_TEST(starts_with_entity("&amp;x"));
  BOOST_TEST(starts_with_entity("&#12;"));
  BOOST_TEST(!starts_with_entity("&x"));
  BOOST_TEST(!starts_with_entity("&#;"));
  BOOST_TEST(!starts_with_entity("&#12"));
}

BOOST_AUTO_TEST_CASE(the_page_is_well_formed_and_loads_nothing) {
  const ThreeEngines t;
  check_well_formed(t.page);
  for (const char* outside :
       {"http:", "https:", "//", "src=", "href=", "<script", "@import", "url(", "<link", "<iframe"})
    BOOST_CHECK_MESSAGE(t.page.find(outside) == std::string::npos, "the page has " << outside);
  // While the run goes on it reloads itself; the final page does not.
  BOOST_CHECK(t.page.find("<meta http-equiv=\"refresh\" content=\"5\"/>") != std::string::npos);
  HtmlPageState final_state;
  final_state.refresh_seconds = 5;
  final_state.end = TournamentEnd::Completed;
  const std::string final_page = build_html_report(t.config, t.standings, t.history, final_state);
  check_well_formed(final_page);
  BOOST_CHECK(final_page.find("refresh") == std::string::npos);
  BOOST_CHECK(final_page.find("data-status=\"completed\"") != std::string::npos);
  BOOST_CHECK(t.page.find("data-status=\"running\"") != std::string::npos);
  BOOST_CHECK(t.page.find("data-games=\"12\" data-total=\"12\"") != std::string::npos);
  // An empty tournament is a page too.
  const Standings none = compute_standings(t.config, {});
  const std::string empty = build_html_report(t.config, none, ReportHistory(t.config, none), {});
  check_well_formed(empty);
  BOOST_CHECK(empty.find("Not yet: the engines are not all connected by games.") !=
              std::string::npos);
}

BOOST_AUTO_TEST_CASE(engine_names_and_warnings_are_escaped) {
  ThreeEngines t;
  t.history.add_warning("engine <b>&\"x restarted");
  const std::string page = build_html_report(t.config, t.standings, t.history, {});
  check_well_formed(page);
  BOOST_CHECK(page.find(kOddName) == std::string::npos);
  BOOST_CHECK(page.find("<b>&") == std::string::npos);
  BOOST_CHECK(page.find("&lt;b&gt;&amp;&quot;x") != std::string::npos);
  BOOST_CHECK(page.find("<li>engine &lt;b&gt;&amp;&quot;x restarted</li>") != std::string::npos);
  BOOST_CHECK_EQUAL(html_escape("a<b>&\"c'd"), "a&lt;b&gt;&amp;&quot;c&#39;d");
}

BOOST_AUTO_TEST_CASE(each_engine_gets_the_times_of_its_own_moves) {
  TournamentConfig config = two_engine_config(1);
  const Standings standings = compute_standings(config, {});
  ReportHistory history(config, standings);
  // After the book move b1b5 O moves first: O (seeded-2) replies in 10 and 30 ms, X in 20 ms.
  GameRecord record;
  record.start_position = "5/5/5/5/5 x";
  record.opening_moves = {"b1b5"};
  record.moves.resize(3);
  record.moves[0].time_ms = 10;
  record.moves[1].time_ms = 20;
  record.moves[2].time_ms = 30;
  history.add_moves(game(0, 0, 1, X, 3), record);
  BOOST_CHECK_EQUAL(history.move_times[0].moves, 1);
  BOOST_CHECK_EQUAL(history.move_times[0].total_ms, 20);
  BOOST_CHECK_EQUAL(history.move_times[1].moves, 2);
  BOOST_CHECK_EQUAL(history.move_times[1].total_ms, 40);
  BOOST_CHECK_EQUAL(history.move_times[1].max_ms, 30);
  BOOST_CHECK_EQUAL(history.move_times[1].bins[4], 1);  // 10-20 ms
  BOOST_CHECK_EQUAL(history.move_times[1].bins[5], 1);  // 20-50 ms
  // Colours swapped: the same record gives seeded-1 (now O) two moves.
  history.add_moves(game(1, 1, 0, X, 3), record);
  BOOST_CHECK_EQUAL(history.move_times[0].moves, 3);
  BOOST_CHECK_EQUAL(history.move_times[1].moves, 3);
  // The four-player game: seats 1 2 3 4 are teams A B A B.
  GameRecord four;
  four.start_position = "5/5/5/5/5 1";
  four.moves.resize(4);
  for (int i = 0; i < 4; ++i) four.moves[static_cast<std::size_t>(i)].time_ms = 1000 * (i + 1);
  ReportHistory history4(config, standings);
  history4.add_moves(game(0, 1, 0, X, 4), four);
  BOOST_CHECK_EQUAL(history4.move_times[1].total_ms, 1000 + 3000);
  BOOST_CHECK_EQUAL(history4.move_times[0].total_ms, 2000 + 4000);
  // A record that does not read back gives nobody anything.
  GameRecord broken = record;
  broken.start_position = "not a position";
  ReportHistory untouched(config, standings);
  untouched.add_moves(game(0, 0, 1, X, 3), broken);
  BOOST_CHECK_EQUAL(untouched.move_times[0].moves + untouched.move_times[1].moves, 0);
  // The bins' edges: 0-1, 1-2, 2-5, ..., 5-10 s, 10 s and more.
  MoveTimes times;
  for (const std::int64_t ms : {-3, 0, 1, 4, 5, 9999, 10000, 99999}) times.add(ms);
  BOOST_TEST(std::vector<std::int64_t>(times.bins.begin(), times.bins.end()) ==
                 (std::vector<std::int64_t>{2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2}),
             boost::test_tools::per_element());
  // On the page: the table's moves and mean, and a histogram per engine with every bin.
  const std::string page = build_html_report(config, standings, history, {});
  const std::string table = between(page, "<table class=\"move-times\">", "</table>");
  BOOST_CHECK(table.find("<td>3</td><td>20.0</td><td>30</td>") != std::string::npos);
  const std::string chart = between(page, "<svg class=\"chart move-times\"", "</svg>");
  const std::vector<std::int64_t> bins = bar_counts(chart);
  BOOST_CHECK_EQUAL(bins.size(), kMoveTimeBinEdges.size());
  BOOST_CHECK_EQUAL(std::accumulate(bins.begin(), bins.end(), std::int64_t{0}), 3);
}

// A listener after the page's sink: it reads the page each time a game has finished, which the
// sink before it has just rewritten (no minimum interval here).
class PageReader : public ReportSink {
 public:
  explicit PageReader(std::string path) : path_(std::move(path)) {}
  void tournament_started(const TournamentConfig&, const Standings&) override {
    pages.push_back(read_file(path_));
  }
  void game_started(const TournamentConfig&, const ScheduledGame&) override {}
  void game_recorded(const TournamentConfig&, const FinishedGame&, const GameRecord&) override {
    ++records;
  }
  void game_finished(const TournamentConfig&, const FinishedGame&, const Standings&) override {
    pages.push_back(read_file(path_));
  }
  void interval_report(const TournamentConfig&, const Standings&) override {}
  void tournament_finished(const TournamentConfig&, const Standings&, TournamentEnd) override {}
  void warning(const std::string&) override {}
  void tablebase_loaded(const TournamentConfig&, const std::string&) override {}
  std::vector<std::string> pages;
  int records = 0;

 private:
  std::string path_;
};

std::string games_attribute(const std::string& page) {
  return attribute_values(between(page, "<p class=\"summary\"", ">"), "data-games").at(0);
}

BOOST_AUTO_TEST_CASE(the_sink_rewrites_the_page_as_games_finish_and_resumes_from_the_results) {
  const TempDir dir;
  TournamentConfig config = two_engine_config(4);  // 8 games
  config.results_path = dir.file("results.json");
  config.sprt = sprt_between(-400, 400);
  const std::string path = dir.file("report.html");
  HtmlReportOptions options;
  options.min_interval = std::chrono::milliseconds(0);
  std::atomic<bool> interrupt{false};
  {
    // The first run: stopped after 3 games. The page comes first, the recording sink after it.
    const auto html = make_html_report(path, options);
    PageReader reader(path);
    RecordingSink recording(&interrupt, 3);
    ReportFanOut sink({html.get(), &reader, &recording});
    const TournamentOutcome outcome =
        run_tournament(config, sink, interrupt, launcher_by_name(kPolicies));
    BOOST_CHECK_EQUAL(outcome.end, TournamentEnd::Interrupted);
    // The fan-out told every sink everything, in order.
    BOOST_CHECK_EQUAL(recording.games_at_start, 0);
    BOOST_CHECK(recording.last_end == TournamentEnd::Interrupted);
    BOOST_CHECK_EQUAL(static_cast<std::int64_t>(recording.finished_ids.size()),
                      outcome.standings.games);
    BOOST_CHECK_EQUAL(reader.records, static_cast<int>(outcome.standings.games));
    // The page after each game shows that game: 0, 1, 2, 3 (and perhaps a game in flight).
    BOOST_REQUIRE_GE(reader.pages.size(), 4u);
    for (std::size_t i = 0; i < reader.pages.size(); ++i) {
      BOOST_CHECK_EQUAL(games_attribute(reader.pages[i]), std::to_string(i));
      BOOST_CHECK(reader.pages[i].find("http-equiv=\"refresh\"") != std::string::npos);
    }
  }
  const std::string interrupted = read_file(path);
  BOOST_CHECK(interrupted.find("data-status=\"interrupted\"") != std::string::npos);
  BOOST_CHECK(interrupted.find("http-equiv") == std::string::npos);
  BOOST_CHECK(!std::filesystem::exists(path + ".tmp"));
  const std::vector<FinishedGame> first_games = read_results_file(config.results_path);
  const std::int64_t earlier = static_cast<std::int64_t>(first_games.size());
  BOOST_REQUIRE_GE(earlier, 3);

  // The resumed run: the page's series start with the earlier games from the results file.
  config.resume = true;
  interrupt = false;
  const auto html = make_html_report(path, options);
  const TournamentOutcome outcome =
      run_tournament(config, *html, interrupt, launcher_by_name(kPolicies));
  const std::string page = read_file(path);
  check_well_formed(page);
  BOOST_CHECK_EQUAL(games_attribute(page), std::to_string(outcome.standings.games));
  BOOST_CHECK(page.find("Resumed: " + std::to_string(earlier) + " of the games") !=
              std::string::npos);
  BOOST_CHECK(page.find("the " + std::to_string(earlier) +
                        " games of the earlier run were read back from the results file") !=
              std::string::npos);
  const std::string llr = between(page, "<polyline class=\"llr\"", "/>");
  const std::string values = attribute_values(llr, "data-values").at(0);
  BOOST_CHECK_EQUAL(std::count(values.begin(), values.end(), ':'), outcome.standings.games);
  BOOST_CHECK(values.starts_with("1:0.000 2:"));
  // Move times only of the games this run played: their plies.
  const std::vector<FinishedGame> all = read_results_file(config.results_path);
  std::int64_t moves_this_run = 0;
  for (std::size_t i = static_cast<std::size_t>(earlier); i < all.size(); ++i)
    moves_this_run += all[i].plies;
  std::int64_t moves_shown = 0;
  for (const std::string& moves :
       attribute_values(between(page, "<table class=\"move-times\">", "</table>"), "data-moves"))
    moves_shown += std::stoll(moves);
  BOOST_CHECK_EQUAL(moves_shown, moves_this_run);
  BOOST_CHECK_GT(moves_shown, 0);
  // The plies histogram has every game, the earlier run's too.
  const std::vector<std::int64_t> plies =
      bar_counts(between(page, "<svg class=\"chart plies\"", "</svg>"));
  BOOST_CHECK_EQUAL(std::accumulate(plies.begin(), plies.end(), std::int64_t{0}),
                    outcome.standings.games);
}

BOOST_AUTO_TEST_CASE(a_page_that_cannot_be_written_is_refused_before_the_tournament) {
  const TempDir dir;
  BOOST_CHECK_THROW((void)make_html_report(dir.file("missing/report.html")), TournamentError);
  BOOST_CHECK_THROW((void)make_html_report(dir.path.string()), TournamentError);
  BOOST_CHECK_THROW((void)make_html_report(""), TournamentError);
  BOOST_CHECK_THROW((void)ReportFanOut(std::vector<ReportSink*>{nullptr}), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
