// The opening generator (tools/opening_generator.hpp) and its command line, quixo-openings:
// books that are deterministic for a seed, legal, unfinished, without a win in one (four players:
// not lost in two plies), distinct up to symmetry and within the score limit; requests it cannot
// meet refused; the command line's book file with the command that made it, its help and its
// one-line errors; and the shipped configs/openings.txt, configs/openings-uho.txt and
// configs/openings4.txt it made.
#include <unistd.h>

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"
#include "core/symmetry.hpp"
#include "opening_generator.hpp"
#include "openings.hpp"
#include "openings_command_line.hpp"
#include "search/engine.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo;
using namespace quixo::arena;
using namespace quixo::opening_generator;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The score of a fixed-depth search from the side to move's point of view, the last exact one.
int search_score(const Position& position, int depth) {
  quixo::Engine engine;
  quixo::EngineOptions options;
  options.hash_mb = 1;
  engine.set_options(options);
  engine.set_position(position, {});
  std::mutex mutex;
  std::optional<int> score;
  quixo::SearchCallbacks callbacks;
  callbacks.on_info = [&](const quixo::SearchInfo& info) {
    std::lock_guard lock(mutex);
    if (info.bound == quixo::Bound::Exact) score = info.score;
  };
  callbacks.on_bestmove = [](Move, Move) {};
  quixo::SearchLimits limits;
  limits.depth = depth;
  engine.go(limits, callbacks);
  engine.wait();
  std::lock_guard lock(mutex);
  BOOST_TEST_REQUIRE(score.has_value());
  return *score;
}

bool has_winning_move(const Position& position) {
  for (const Move move : position.legal_moves())
    if (position.after(move).outcome() == quixo::win_for(position.side_to_move())) return true;
  return false;
}

// What every book the generator makes, and the shipped one, must hold: canonical text, positions
// that are unfinished, without a win in one and distinct up to symmetry, no moves.
void check_book(const std::vector<Opening>& book) {
  std::set<std::uint64_t> canonical_keys;
  for (const Opening& opening : book) {
    const Position position = quixo::parse_position(opening.position);
    BOOST_TEST(quixo::to_string(position) == opening.position);
    BOOST_TEST(opening.moves.empty(), opening.position);
    BOOST_TEST(!position.is_game_over(), opening.position);
    BOOST_TEST(!has_winning_move(position), opening.position);
    BOOST_TEST(canonical_keys.insert(quixo::canonical(position).key()).second,
               opening.position << " repeats an earlier opening up to symmetry");
  }
}

// What a generated four-player book, and the shipped one, must hold.
void check_book4(const std::vector<Opening>& book) {
  std::set<std::string> canonical;
  for (const Opening& opening : book) {
    BOOST_TEST_CONTEXT(format_opening(opening)) {
      BOOST_TEST((variant_of(opening.position) == Variant::FourPlayer));
      Position4 position = parse_position4(opening.position);
      for (const std::string& move : opening.moves)
        position = position.after(parse_move(position, move));
      BOOST_TEST(!position.is_game_over());
      // Nobody can win at once, and the seat to move has a move that does not lose at once.
      const Outcome win = win_for(position.team_to_move());
      bool holds = false;
      for (const Move4 move : position.legal_moves()) {
        const Position4 next = position.after(move);
        BOOST_TEST((next.outcome() != win));
        bool reply_wins = next.outcome() == win_for(~position.team_to_move());
        for (const Move4 reply : next.legal_moves())
          reply_wins = reply_wins || next.after(reply).outcome() == win_for(next.team_to_move());
        holds = holds || !reply_wins;
      }
      BOOST_TEST(holds);
      std::string smallest = to_string(position);
      for (const Symmetry symmetry : kAllSymmetries)
        smallest = std::min(smallest, to_string(transform(symmetry, position)));
      BOOST_TEST(canonical.insert(smallest).second, "a repeat up to symmetry");
    }
  }
}

// ------------------------------------------------------------------------------ quixo-openings

struct ToolRun {
  int code = -1;
  std::string out;
  std::string err;
};
std::ostream& operator<<(std::ostream& out, const ToolRun& run) {
  return out << "exit " << run.code << "\n--- stderr:\n" << run.err << "--- stdout:\n" << run.out;
}

ToolRun run_tool(const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"quixo-openings"};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  std::ostringstream out;
  std::ostringstream err;
  ToolRun run;
  run.code = run_openings_command_line(static_cast<int>(argv.size()), argv.data(), out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

// A fresh path in the temporary directory, removed (with its .tmp) at the end of the test.
class TempBook {
 public:
  explicit TempBook(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("quixo-opening-generator-tests-" + std::to_string(::getpid()) + "-" + name)) {
    std::filesystem::remove(path_);
  }
  ~TempBook() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    std::filesystem::remove(path_.string() + ".tmp", ignored);
  }
  TempBook(const TempBook&) = delete;
  TempBook& operator=(const TempBook&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// A book shipped in configs/, found from this file's path (tests/ is next to configs/).
std::vector<Opening> shipped_book(const char* name) {
  return load_openings((std::filesystem::path(QUIXO_SOURCE_DIR) / "configs" / name).string());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(opening_generator_tests)

BOOST_AUTO_TEST_CASE(the_generator_is_deterministic_and_its_openings_are_sound) {
  OpeningGeneratorOptions options;
  options.count = 12;
  options.min_plies = 3;
  options.max_plies = 10;
  options.seed = 7;
  options.search_depth = 3;
  options.max_abs_score_cp = 100;
  const std::vector<Opening> book = generate_openings(options);
  BOOST_TEST_REQUIRE(book.size() == options.count);
  check_book(book);
  std::set<Color> sides;
  for (const Opening& opening : book) {
    const Position position = quixo::parse_position(opening.position);
    sides.insert(position.side_to_move());
    // Each ply adds at most one cube.
    const int cubes = std::popcount(position.cubes(Color::X) | position.cubes(Color::O));
    BOOST_TEST(cubes <= options.max_plies, opening.position);
    const int score = search_score(position, options.search_depth);
    BOOST_TEST(score <= options.max_abs_score_cp, opening.position << " scores " << score);
    BOOST_TEST(score >= -options.max_abs_score_cp, opening.position << " scores " << score);
  }
  BOOST_TEST(sides.size() == 2u);  // an odd or even number of plies: either side to move

  BOOST_TEST((generate_openings(options) == book));
  options.seed = 8;
  BOOST_TEST((generate_openings(options) != book));
}

// An unbalanced book: the side to move is better by at least --min-score in every opening, and
// bands outside [-max, max] or without the search are refused.
BOOST_AUTO_TEST_CASE(an_unbalanced_book_keeps_the_side_to_move_better_within_the_band) {
  OpeningGeneratorOptions options;
  options.count = 10;
  options.min_plies = 3;
  options.max_plies = 10;
  options.seed = 11;
  options.search_depth = 3;
  options.max_abs_score_cp = 150;
  options.min_score_cp = 40;
  const std::vector<Opening> book = generate_openings(options);
  BOOST_TEST_REQUIRE(book.size() == options.count);
  check_book(book);
  for (const Opening& opening : book) {
    const int score = search_score(quixo::parse_position(opening.position), options.search_depth);
    BOOST_TEST(score >= 40, opening.position << " scores " << score);
    BOOST_TEST(score <= 150, opening.position << " scores " << score);
  }
  options.min_score_cp = 151;
  BOOST_CHECK_THROW(generate_openings(options), quixo::arena::OpeningError);
  options.min_score_cp = 40;
  options.search_depth = 0;
  BOOST_CHECK_THROW(generate_openings(options), quixo::arena::OpeningError);
}

// Without the search the book is the random walk alone; a smaller count is a prefix of a larger
// one, because the candidates do not depend on the count.
BOOST_AUTO_TEST_CASE(a_smaller_count_gives_a_prefix) {
  OpeningGeneratorOptions options;
  options.count = 30;
  options.search_depth = 0;
  options.seed = 3;
  const std::vector<Opening> book = generate_openings(options);
  check_book(book);
  options.count = 10;
  const std::vector<Opening> prefix = generate_openings(options);
  BOOST_TEST((prefix == std::vector<Opening>(book.begin(), book.begin() + 10)));
}

BOOST_AUTO_TEST_CASE(impossible_requests_are_refused) {
  OpeningGeneratorOptions options;
  options.search_depth = 0;
  options.min_plies = 5;
  options.max_plies = 4;
  BOOST_CHECK_THROW(generate_openings(options), OpeningError);
  options.min_plies = -1;
  BOOST_CHECK_THROW(generate_openings(options), OpeningError);
  // One ply from the start gives only a handful of positions up to symmetry.
  options.min_plies = 1;
  options.max_plies = 1;
  options.count = 20;
  BOOST_CHECK_EXCEPTION(generate_openings(options), OpeningError, [](const OpeningError& e) {
    return std::string(e.what()).find("made only") != std::string::npos;
  });
}

// The shipped two-player book.
BOOST_AUTO_TEST_CASE(the_shipped_book_loads_and_is_sound) {
  const std::vector<Opening> book = shipped_book("openings.txt");
  BOOST_TEST(book.size() == 200u);
  check_book(book);
}

// The shipped unbalanced book, which configs/sprt.ini plays.
BOOST_AUTO_TEST_CASE(the_shipped_unbalanced_book_loads_and_is_sound) {
  const std::vector<Opening> book = shipped_book("openings-uho.txt");
  BOOST_TEST(book.size() == 2000u);
  check_book(book);
}

BOOST_AUTO_TEST_CASE(the_generator_makes_sound_four_player_books) {
  OpeningGeneratorOptions options;
  options.variant = Variant::FourPlayer;
  options.count = 40;
  options.min_plies = 4;
  options.max_plies = 9;
  options.seed = 11;
  options.search_depth = 2;  // the search check has its own test; keep this one quick
  const std::vector<Opening> book = generate_openings(options);
  BOOST_TEST_REQUIRE(book.size() == options.count);
  check_book4(book);
  std::set<Seat> seats;
  for (const Opening& opening : book) {
    const Position4 position = parse_position4(opening.position);
    seats.insert(position.seat_to_move());
    const int cubes = std::popcount(position.cubes(Color::X) | position.cubes(Color::O));
    BOOST_TEST(cubes <= options.max_plies, opening.position);
  }
  BOOST_TEST(seats.size() == 4u);  // 4 to 9 plies: every seat is to move somewhere
  BOOST_TEST((generate_openings(options) == book));
  options.seed = 12;
  BOOST_TEST((generate_openings(options) != book));
  options.min_plies = 1;
  options.max_plies = 1;
  BOOST_CHECK_EXCEPTION(generate_openings(options), OpeningError,
                        [](const OpeningError& e) { return contains(e.what(), "made only"); });
}

// With the engine's team search in the build, a strict score limit drops openings that the rules
// alone keep; without it the limit changes nothing.
BOOST_AUTO_TEST_CASE(the_search_check_of_four_player_openings_applies_when_built) {
  OpeningGeneratorOptions options;
  options.variant = Variant::FourPlayer;
  options.count = 20;
  options.min_plies = 6;
  options.max_plies = 12;
  options.seed = 4;
  options.search_depth = 0;
  const std::vector<Opening> unchecked = generate_openings(options);
  options.search_depth = 3;
  options.max_abs_score_cp = 10;
  const std::vector<Opening> checked = generate_openings(options);
  check_book4(checked);
  // The team search drops openings it scores beyond 0.10, so the books differ.
  BOOST_TEST((checked != unchecked));
}

BOOST_AUTO_TEST_CASE(the_shipped_four_player_book_loads_and_is_sound) {
  const std::vector<Opening> book = shipped_book("openings4.txt");
  BOOST_TEST(book.size() == 100u);
  check_book4(book);
}

BOOST_AUTO_TEST_CASE(the_tool_writes_the_generators_book_under_the_command_that_made_it) {
  const TempBook book("book.txt");
  const ToolRun run = run_tool(
      {"--output", book.path(), "--count", "6", "--depth", "2", "--seed", "3", "--max-plies", "9"});
  BOOST_TEST_REQUIRE(run.code == 0, run);
  BOOST_TEST(run.err.empty(), run);
  BOOST_TEST(run.out.starts_with("Wrote 6 openings to " + book.path() + " in "), run);
  BOOST_TEST(first_line(book.path()) == "# quixo-openings --output " + book.path() +
                                            " --count 6 --min-plies 4 --max-plies 9 --seed 3 "
                                            "--depth 2 --max-score 150");
  BOOST_TEST(!std::filesystem::exists(book.path() + ".tmp"));
  OpeningGeneratorOptions options;
  options.count = 6;
  options.max_plies = 9;
  options.seed = 3;
  options.search_depth = 2;
  BOOST_TEST((load_openings(book.path()) == generate_openings(options)));
}

BOOST_AUTO_TEST_CASE(the_tool_makes_four_player_books) {
  const TempBook book("book4.txt");
  const ToolRun run = run_tool(
      {"--output", book.path(), "--variant", "4p", "--count", "5", "--seed", "5", "--depth", "2"});
  BOOST_TEST_REQUIRE(run.code == 0, run);
  BOOST_TEST(contains(first_line(book.path()), " --variant 4p --count 5 "));
  OpeningGeneratorOptions options;
  options.variant = Variant::FourPlayer;
  options.count = 5;
  options.max_plies = 10;  // the tool's default
  options.seed = 5;
  options.search_depth = 2;
  const std::vector<Opening> openings = load_openings(book.path());
  BOOST_TEST((openings == generate_openings(options)));
  check_book4(openings);
}

BOOST_DATA_TEST_CASE(help_describes_every_option,
                     bdata::make(std::vector<std::string>{"--help", "-h"}), flag) {
  const ToolRun run = run_tool({flag});
  BOOST_TEST_REQUIRE(run.code == 0, run);
  BOOST_TEST(run.err.empty(), run);
  for (const std::string part : {"Usage: quixo-openings", "--output", "--variant", "--count",
                                 "--min-plies", "--max-plies", "--seed", "--depth", "--max-score"})
    BOOST_TEST(contains(run.out, part), "--help does not mention " << part);
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);)
    BOOST_TEST(line.size() <= 100u, "help line longer than 100 columns: " << line);
}

struct BadToolInput {
  std::vector<std::string> args;  // "BOOK" is replaced by a path in the temporary directory
  std::string expected;           // part of the one error line
};
std::ostream& operator<<(std::ostream& out, const BadToolInput& input) {
  for (const std::string& arg : input.args) out << arg << ' ';
  return out;
}

const std::vector<BadToolInput> kBadToolInputs = {
    {{}, "--output FILE is required"},
    {{"--count", "3"}, "--output FILE is required"},
    {{"--output", "BOOK", "--count", "0"}, "count >= 1"},
    {{"--output", "BOOK", "--min-plies", "5", "--max-plies", "4"}, "min-plies <= max-plies"},
    {{"--output", "BOOK", "--depth", "-1"}, "depth >= 0"},
    {{"--output", "BOOK", "--max-score", "-1", "--depth", "0"}, "must not be negative"},
    {{"--output", "BOOK", "--variant", "3p"}, "--variant: expected 2p or 4p"},
    // An unbalanced book's band (--min-score) lies inside the balanced one and needs the search.
    {{"--output", "BOOK", "--min-score", "200"},
     "--min-score must lie between minus --max-score and --max-score (-150 and 150), not 200"},
    {{"--output", "BOOK", "--min-score", "-60", "--max-score", "50"}, "(-50 and 50), not -60"},
    {{"--output", "BOOK", "--min-score", "20", "--depth", "0"},
     "--min-score needs the check search (--depth above 0)"},
    {{"--output", "BOOK", "--min-score", "ten"}, "min-score"},
    {{"--output", "BOOK", "--count", "many"}, "count"},
    {{"--output", "BOOK", "--generate-count", "5"}, "generate-count"},
    {{"--output", "BOOK", "--min-plies", "1", "--max-plies", "1", "--count", "20", "--depth", "0"},
     "made only"},
    {{"--output", "/nonexistent-directory/book.txt", "--count", "1", "--depth", "0"},
     "cannot write"},
};

BOOST_DATA_TEST_CASE(bad_input_exits_2_with_one_line_and_no_book, bdata::make(kBadToolInputs),
                     input) {
  const TempBook book("bad.txt");
  std::vector<std::string> args = input.args;
  for (std::string& arg : args)
    if (arg == "BOOK") arg = book.path();
  const ToolRun run = run_tool(args);
  BOOST_TEST(run.code == 2, run);
  BOOST_TEST(run.err.starts_with("quixo-openings: "), run);
  BOOST_TEST(std::count(run.err.begin(), run.err.end(), '\n') == 1, run);
  BOOST_TEST(contains(run.err, input.expected), run);
  BOOST_TEST(run.out.empty(), run);
  BOOST_TEST(!std::filesystem::exists(book.path()));
}

BOOST_AUTO_TEST_SUITE_END()
