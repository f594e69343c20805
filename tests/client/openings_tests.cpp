// Opening books: parsing the book format (positions, `fen`, `startpos`, moves, comments) into
// canonical openings and refusing malformed lines with "<source>:<line>: ...", writing them back,
// the order in which a tournament takes them (sequential or a seeded permutation that must not
// change between machines or versions). The generator and the shipped books are
// opening_generator_tests'.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "game_record.hpp"
#include "openings.hpp"
#include "pgn_writer.hpp"

namespace bdata = boost::unit_test::data;
using namespace quixo::arena;

namespace {

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

std::string join(const std::vector<std::size_t>& numbers) {
  std::string text;
  for (const std::size_t n : numbers) text += (text.empty() ? "" : " ") + std::to_string(n);
  return text;
}

std::vector<Opening> parse_text(const std::string& text, const std::string& source = "book") {
  std::istringstream in(text);
  return parse_openings(in, source);
}

struct ValidLine {
  std::string line;
  std::string position;  // the canonical position...
  std::string moves;     // ...and moves, space-separated
};
std::ostream& operator<<(std::ostream& out, const ValidLine& sample) {
  return out << "'" << sample.line << "'";
}

const std::vector<ValidLine> kValidLines = {
    {"startpos", "5/5/5/5/5 x", ""},
    {"startpos moves a1e1 e5a5", "5/5/5/5/5 x", "a1e1 e5a5"},
    {"fen 5/5/5/5/5 o", "5/5/5/5/5 o", ""},
    {"fen x4/5/5/5/o4 x moves b1b5", "x4/5/5/5/o4 x", "b1b5"},
    {"x4/5/5/5/o4 x 12 moves b1b5 a1a5", "x4/5/5/5/o4 x 12", "b1b5 a1a5"},  // move number kept
    {"  5/5/5/5/5 x \t moves   a1e1  ", "5/5/5/5/5 x", "a1e1"},
    {"5/5/5/5/5 x moves", "5/5/5/5/5 x", ""},
    {"11111/5/23/5/14 x", "5/5/5/5/5 x", ""},                           // runs of blanks are merged
    {"xxxx1/oooo1/5/5/5 o moves e1e5", "xxxx1/oooo1/5/5/5 o", "e1e5"},  // O does not win
    {"5/5/5/5/5 1", "5/5/5/5/5 1", ""},  // four-player openings are read too (game4_tests)
    {"startpos4 moves b1b5X", "5/5/5/5/5 1", "b1b5X"},
};

struct BadLine {
  std::string line;
  std::string what;
};
std::ostream& operator<<(std::ostream& out, const BadLine& sample) {
  return out << "'" << sample.line << "'";
}

const std::vector<BadLine> kBadLines = {
    {"5/5/5/5 x", "expected 5 ranks"},
    {"5/5/5/5/5", "expected a position"},
    {"fen", "expected a position"},
    {"5/5/5/5/5 y", "bad side to move 'y'"},
    {"5/5/5/5/5 1 moves b1b5", "move 1 'b1b5': four-player move"},
    {"startpos foo", "unexpected 'foo' after the position"},
    {"5/5/5/5/5 x 0 moves a1e1", "unexpected '0' after the position"},
    {"5/5/5/5/5 x 1234567890 moves a1e1", "bad move number '1234567890'"},
    {"startpos moves a1a1", "move 1 'a1a1': a cube may not be pushed back in on a1"},
    {"startpos moves a1e1 e1a1", "move 2 'e1a1': e1 holds an X cube"},
    {"startpos moves a1e1X", "move 1 'a1e1X'"},
    {"xxxxx/5/5/5/5 o", "the game is already over (X wins)"},
    {"xxxx1/oooo1/5/5/5 x moves e1e5", "the game is already over (X wins) after the moves"},
    {"xxxx1/oooo1/5/5/5 x moves e1e5 a1e1", "move 2 'a1e1': no move is legal"},
};

std::filesystem::path temp_file(const std::string& name, const std::string& contents) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << contents;
  return path;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openings_tests)

BOOST_DATA_TEST_CASE(valid_lines_give_canonical_openings, bdata::make(kValidLines), sample) {
  const std::vector<Opening> book = parse_text(sample.line);
  BOOST_TEST_REQUIRE(book.size() == 1u);
  BOOST_TEST(book[0].position == sample.position);
  BOOST_TEST(join(book[0].moves) == sample.moves);
}

// Comments and blank lines are skipped but counted: the error names the line in the file.
BOOST_DATA_TEST_CASE(malformed_lines_name_source_and_line, bdata::make(kBadLines), sample) {
  const std::string text = "# a book\n\nstartpos\n   # indented comment\n" + sample.line + "\n";
  BOOST_CHECK_EXCEPTION(parse_text(text, "test-book.txt"), OpeningError,
                        [&](const OpeningError& error) {
                          const std::string message = error.what();
                          BOOST_TEST_INFO("message: " << message);
                          return message.starts_with("test-book.txt:5: ") &&
                                 message.find(sample.what) != std::string::npos;
                        });
}

BOOST_AUTO_TEST_CASE(a_book_of_several_lines) {
  const std::vector<Opening> book =
      parse_text("# comment\nstartpos moves a1e1\n\n\nfen x4/5/5/5/5 o\r\n5/5/5/5/5 o\n");
  BOOST_TEST_REQUIRE(book.size() == 3u);
  BOOST_TEST(format_opening(book[0]) == "5/5/5/5/5 x moves a1e1");
  BOOST_TEST(format_opening(book[1]) == "x4/5/5/5/5 o");
  BOOST_TEST(format_opening(book[2]) == "5/5/5/5/5 o");
  BOOST_TEST(parse_text("# only comments\n\n").empty());
}

BOOST_AUTO_TEST_CASE(written_books_read_back_the_same) {
  const std::vector<Opening> book = {
      {"5/5/5/5/5 x", {}},
      {"5/5/5/5/5 x", {"a1e1", "e5a5", "b1b5"}},
      {"x4/5/2o2/5/o3x o", {"e5a5"}},
  };
  std::ostringstream out;
  write_openings(out, book);
  BOOST_TEST(out.str() ==
             "5/5/5/5/5 x\n5/5/5/5/5 x moves a1e1 e5a5 b1b5\nx4/5/2o2/5/o3x o moves e5a5\n");
  BOOST_TEST((parse_text(out.str()) == book));
}

BOOST_AUTO_TEST_CASE(load_openings_reads_a_file_and_refuses_empty_or_missing_ones) {
  const auto good = temp_file("quixo_openings_tests_good.txt", "# two\nstartpos\n5/5/5/5/5 o\n");
  BOOST_TEST(load_openings(good.string()).size() == 2u);
  const auto empty = temp_file("quixo_openings_tests_empty.txt", "# none\n\n");
  BOOST_CHECK_EXCEPTION(load_openings(empty.string()), OpeningError, [&](const OpeningError& e) {
    return std::string(e.what()) == empty.string() + ": the book holds no opening";
  });
  const auto bad = temp_file("quixo_openings_tests_bad.txt", "startpos\nstartpos moves z1\n");
  BOOST_CHECK_EXCEPTION(load_openings(bad.string()), OpeningError, [&](const OpeningError& e) {
    return std::string(e.what()).starts_with(bad.string() + ":2: ");
  });
  std::filesystem::remove(good);
  std::filesystem::remove(empty);
  std::filesystem::remove(bad);
  const std::string missing =
      (std::filesystem::temp_directory_path() / "quixo_openings_tests_missing.txt").string();
  BOOST_CHECK_EXCEPTION(load_openings(missing), OpeningError, [&](const OpeningError& e) {
    return std::string(e.what()) == missing + ": the opening book cannot be read";
  });
  // A directory said only "read error"; /dev/zero grew the arena until the kernel killed it.
  const std::string folder = std::filesystem::temp_directory_path().string();
  BOOST_CHECK_EXCEPTION(load_openings(folder), OpeningError, [&](const OpeningError& e) {
    return std::string(e.what()) == folder + ": the opening book is a directory, not a file";
  });
  for (const BookFormat format : {BookFormat::Text, BookFormat::Epd, BookFormat::Pgn}) {
    BOOST_CHECK_EXCEPTION(
        load_book({"/dev/zero", format, -1}), OpeningError, [&](const OpeningError& e) {
          return std::string(e.what()) == "/dev/zero: the opening book is not a regular file";
        });
  }
}

BOOST_AUTO_TEST_CASE(sequential_order_starts_at_the_offset_and_wraps) {
  BOOST_TEST(join(opening_sequence(5, OpeningOrder::Sequential, 99, 0, 5)) == "0 1 2 3 4");
  BOOST_TEST(join(opening_sequence(5, OpeningOrder::Sequential, 99, 3, 7)) == "3 4 0 1 2 3 4");
  BOOST_TEST(join(opening_sequence(5, OpeningOrder::Sequential, 99, 12, 3)) == "2 3 4");
  BOOST_TEST(join(opening_sequence(1, OpeningOrder::Sequential, 99, 0, 3)) == "0 0 0");
  BOOST_TEST(opening_sequence(5, OpeningOrder::Sequential, 99, 0, 0).empty());
  BOOST_TEST(opening_sequence(0, OpeningOrder::Random, 99, 0, 0).empty());
  BOOST_CHECK_THROW(opening_sequence(0, OpeningOrder::Sequential, 99, 0, 1), OpeningError);
}

// Seeds and the first indices of their orders, pinned: a tournament resumed with the same seed on
// another machine or after an upgrade must play the same openings in the same order. The values
// were computed by a separate python3 script: mt19937_64 written out from the standard's
// definition (checked against its required 10000th output 9981545732273789042 for the default
// seed), then the documented Fisher-Yates from the back with index = draw % (i + 1).
struct PinnedOrder {
  std::size_t book_size;
  std::uint64_t seed;
  std::string first;
};
std::ostream& operator<<(std::ostream& out, const PinnedOrder& sample) {
  return out << "book " << sample.book_size << " seed " << sample.seed;
}

const std::vector<PinnedOrder> kPinnedOrders = {
    {10, 1, "1 7 3 9 4 0 5 2 6 8"},
    {10, 2, "9 4 6 1 7 0 2 5 3 8"},
    {200, 20261126, "61 85 58 117 14 166 188 34 5 132"},
    {1000, 18446744073709551615u, "412 726 766 405 768 448 607 615 957 611"},
};

BOOST_DATA_TEST_CASE(random_order_is_a_pinned_permutation, bdata::make(kPinnedOrders), sample) {
  const std::vector<std::size_t> order =
      opening_sequence(sample.book_size, OpeningOrder::Random, sample.seed, 0, sample.book_size);
  std::vector<std::size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sample.book_size; ++i) BOOST_TEST_REQUIRE(sorted[i] == i);
  const std::vector<std::size_t> first(order.begin(), order.begin() + 10);
  BOOST_TEST(join(first) == sample.first);
  // The same seed gives the same order; an offset starts later in it, and when the book wraps
  // round the next pass is shuffled anew: a permutation again, in another order.
  BOOST_TEST(opening_sequence(sample.book_size, OpeningOrder::Random, sample.seed, 0,
                              sample.book_size) == order);
  const std::size_t offset = sample.book_size - 3;
  const std::vector<std::size_t> shifted = opening_sequence(
      sample.book_size, OpeningOrder::Random, sample.seed, offset, 2 * sample.book_size);
  for (std::size_t i = 0; i < sample.book_size; ++i)
    BOOST_TEST(shifted[i] == order[(offset + i) % sample.book_size]);
  std::vector<std::size_t> second_pass(
      shifted.begin() + static_cast<std::ptrdiff_t>(sample.book_size), shifted.end());
  const std::vector<std::size_t> first_pass(
      shifted.begin(), shifted.begin() + static_cast<std::ptrdiff_t>(sample.book_size));
  BOOST_TEST((second_pass != first_pass));
  std::sort(second_pass.begin(), second_pass.end());
  for (std::size_t i = 0; i < sample.book_size; ++i) BOOST_TEST_REQUIRE(second_pass[i] == i);
  // Sequential order wraps round as it is.
  const std::vector<std::size_t> sequential = opening_sequence(
      sample.book_size, OpeningOrder::Sequential, sample.seed, offset, sample.book_size + 3);
  for (std::size_t i = 0; i < sequential.size(); ++i)
    BOOST_TEST(sequential[i] == (offset + i) % sample.book_size);
}

// format=epd: a position per line, anything after ';' ignored (what --epd-out writes reads back);
// format=pgn: each game's start and moves, cut to plies= and back before the game is over.
BOOST_AUTO_TEST_CASE(epd_and_pgn_books_are_read) {
  const auto epd = temp_file("quixo_openings_tests.epd",
                             "# final positions\nx4/5/5/5/4o o ; result \"1-0\" ; game 1\n\n"
                             "5/5/2x2/5/5 o\n5/5/5/5/5 1 ; id \"four players\"\n");
  const std::vector<Opening> from_epd = load_book({epd.string(), BookFormat::Epd, -1});
  BOOST_TEST_REQUIRE(from_epd.size() == 3u);
  BOOST_TEST(from_epd[0].position == "x4/5/5/5/4o o");
  BOOST_TEST(from_epd[0].moves.empty());
  BOOST_TEST(from_epd[2].position == "5/5/5/5/5 1");
  const auto bad_epd = temp_file("quixo_openings_tests_bad.epd", "5/5/5/5/5 x\n5/5/5 x ; x\n");
  BOOST_CHECK_EXCEPTION((void)load_book({bad_epd.string(), BookFormat::Epd, -1}), OpeningError,
                        [&](const OpeningError& e) {
                          return std::string(e.what()).starts_with(bad_epd.string() + ":2: ");
                        });

  // A game played to its end (a line), written by the arena's PGN writer.
  quixo::Position position = quixo::Position::start();
  GameRecord record;
  record.start_position = quixo::to_string(position);
  std::uint64_t draw = 12345;
  while (position.outcome() == quixo::Outcome::Ongoing && record.moves.size() < 400) {
    const auto moves = position.legal_moves();
    quixo::Move chosen = moves[0];
    draw = draw * 6364136223846793005ULL + 1442695040888963407ULL;
    chosen = moves[static_cast<std::size_t>((draw >> 33) % moves.size())];
    for (const quixo::Move move : moves)  // a win when there is one, so the game ends
      if (position.after(move).outcome() != quixo::Outcome::Ongoing &&
          (position.after(move).outcome() == quixo::Outcome::XWins) ==
              (position.side_to_move() == quixo::Color::X))
        chosen = move;
    MoveRecord played;
    played.move = quixo::to_string(chosen);
    record.moves.push_back(played);
    position = position.after(chosen);
  }
  BOOST_TEST_REQUIRE((position.outcome() != quixo::Outcome::Ongoing));
  record.result =
      position.outcome() == quixo::Outcome::XWins ? GameResult::XWins : GameResult::OWins;
  record.termination = Termination::Line;
  const auto pgn = temp_file("quixo_openings_tests.pgn", format_pgn(record) + format_pgn(record));
  const std::vector<Opening> all = load_book({pgn.string(), BookFormat::Pgn, -1});
  BOOST_TEST_REQUIRE(all.size() == 2u);
  BOOST_TEST(all[0].position == record.start_position);
  // The whole game ends it: the opening stops a move before.
  BOOST_TEST(all[0].moves.size() + 1 == record.moves.size());
  const std::vector<Opening> cut = load_book({pgn.string(), BookFormat::Pgn, 3});
  BOOST_TEST(cut[1].moves.size() == 3u);
  BOOST_TEST(cut[1].moves[2] == record.moves[2].move);
  std::filesystem::remove(epd);
  std::filesystem::remove(bad_epd);
  std::filesystem::remove(pgn);
}

BOOST_AUTO_TEST_CASE(different_seeds_give_different_orders) {
  BOOST_TEST(opening_sequence(50, OpeningOrder::Random, 1, 0, 50) !=
             opening_sequence(50, OpeningOrder::Random, 2, 0, 50));
  BOOST_TEST(opening_sequence(50, OpeningOrder::Random, 1, 0, 50) !=
             opening_sequence(50, OpeningOrder::Sequential, 1, 0, 50));
}

BOOST_AUTO_TEST_SUITE_END()
