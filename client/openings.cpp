#include "openings.hpp"

#include <algorithm>
#include <fstream>
#include <istream>
#include <numeric>
#include <ostream>
#include <random>
#include <sstream>
#include <utility>

#include "core/game.hpp"
#include "core/notation.hpp"
#include "core/text_helpers.hpp"
#include "pgn_reader.hpp"

namespace quixo::arena {

namespace {

bool is_move_number(std::string_view token) {
  if (token.empty() || token[0] == '0') return false;
  for (const char c : token)
    if (c < '0' || c > '9') return false;
  return true;
}

// One book line (not blank, not a comment) as an Opening; throws NotationError or
// std::invalid_argument with the problem, which the caller prefixes with source:line.
Opening parse_opening_line(std::string_view line) {
  const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
  std::size_t next = 0;
  std::string position_text;
  std::string move_number;
  if (tokens[0] == "startpos" || tokens[0] == "startpos4") {
    position_text = std::string(tokens[0] == "startpos" ? kStartPosition : kStartPosition4);
    next = 1;
  } else {
    next = tokens[0] == "fen" ? 1 : 0;
    if (tokens.size() < next + 2)
      throw std::invalid_argument(
          "expected a position '<board> <side>', 'fen <board> <side>', 'startpos' or "
          "'startpos4', optionally followed by 'moves ...'");
    position_text = std::string(tokens[next]) + " " + std::string(tokens[next + 1]);
    next += 2;
    // The position string may carry a move number (docs/spec.md §3.3). It is kept, so that the
    // PGN's FEN tag and move numbers go on from it as in the book.
    if (next < tokens.size() && is_move_number(tokens[next])) move_number = tokens[next++];
  }
  Game position =
      Game::parse(move_number.empty() ? position_text : position_text + " " + move_number);
  Opening opening{position.text() + (move_number.empty() ? "" : " " + move_number), {}};
  if (next < tokens.size()) {
    if (tokens[next] != "moves")
      throw std::invalid_argument("unexpected '" + std::string(tokens[next]) +
                                  "' after the position (expected 'moves')");
    for (++next; next < tokens.size(); ++next) {
      const std::string_view text = tokens[next];
      try {
        opening.moves.push_back(position.play(text));
      } catch (const NotationError& error) {
        throw NotationError("move " + std::to_string(opening.moves.size() + 1) + " '" +
                            std::string(text) + "': " + error.what());
      }
    }
  }
  if (position.is_game_over())
    throw std::invalid_argument("the game is already over (" + to_string(position.outcome()) + ")" +
                                (opening.moves.empty() ? "" : " after the moves"));
  return opening;
}

}  // namespace

std::vector<Opening> parse_openings(std::istream& in, std::string_view source_name) {
  std::vector<Opening> openings;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
    if (tokens.empty() || tokens[0][0] == '#') continue;
    try {
      openings.push_back(parse_opening_line(line));
    } catch (const std::invalid_argument& error) {  // NotationError is one too
      throw OpeningError(std::string(source_name) + ":" + std::to_string(line_number) + ": " +
                         error.what());
    }
  }
  return openings;
}

std::optional<BookFormat> parse_book_format(std::string_view name) {
  if (name == "text") return BookFormat::Text;
  if (name == "epd") return BookFormat::Epd;
  if (name == "pgn") return BookFormat::Pgn;
  return std::nullopt;
}

namespace {

// The bytes of a book, or OpeningError "<path>: <why not>" for a path that is not a regular file
// (`--openings /tmp` said only "read error", `/dev/zero` grew the arena until the kernel killed
// it) or a file over kBookMaxMebibytes MiB.
std::string read_book(const std::string& path) {
  text_helpers::FileText file = text_helpers::read_regular_file(path, kBookMaxMebibytes);
  if (!file.error.empty()) throw OpeningError(path + ": the opening book " + file.error);
  return std::move(file.text);
}

}  // namespace

std::vector<Opening> load_book(const BookSource& source) {
  if (source.format == BookFormat::Text) return load_openings(source.path);
  const std::string book = read_book(source.path);
  std::istringstream in(book);
  std::vector<Opening> openings;
  if (source.format == BookFormat::Epd) {
    std::string line;
    int line_number = 0;
    while (std::getline(in, line)) {
      ++line_number;
      const std::string position = line.substr(0, line.find(';'));
      const std::vector<std::string_view> tokens = text_helpers::tokenize(position);
      if (tokens.empty() || tokens[0][0] == '#') continue;
      try {
        openings.push_back(parse_opening_line(position));
      } catch (const std::invalid_argument& error) {
        throw OpeningError(source.path + ":" + std::to_string(line_number) + ": " + error.what());
      }
    }
  } else {
    std::vector<GameRecord> games;
    try {
      games = parse_pgn(book);
    } catch (const PgnError& error) {
      throw OpeningError(source.path + ": " + error.what());
    }
    for (std::size_t number = 0; number < games.size(); ++number) {
      const GameRecord& game = games[number];
      std::vector<std::string> moves = game.opening_moves;
      for (const MoveRecord& move : game.moves) moves.push_back(move.move);
      if (source.plies >= 0 && moves.size() > static_cast<std::size_t>(source.plies))
        moves.resize(static_cast<std::size_t>(source.plies));
      // The game's last moves may end it (a line): the opening stops before the position is over.
      while (true) {
        Game position = Game::parse(game.start_position);
        for (const std::string& move : moves) position.play(move);
        if (!position.is_game_over()) break;
        if (moves.empty())
          throw OpeningError(source.path + ": game " + std::to_string(number + 1) +
                             " starts from a finished position");
        moves.pop_back();
      }
      openings.push_back({game.start_position, std::move(moves)});
    }
  }
  if (openings.empty()) throw OpeningError(source.path + ": the book holds no opening");
  return openings;
}

std::vector<Opening> load_openings(const std::string& path) {
  std::istringstream in(read_book(path));
  std::vector<Opening> openings = parse_openings(in, path);
  if (openings.empty()) throw OpeningError(path + ": the book holds no opening");
  return openings;
}

std::string format_opening(const Opening& opening) {
  std::string text = opening.position;
  if (!opening.moves.empty()) {
    text += " moves";
    for (const std::string& move : opening.moves) text += " " + move;
  }
  return text;
}

void write_openings(std::ostream& out, const std::vector<Opening>& openings) {
  for (const Opening& opening : openings) out << format_opening(opening) << '\n';
}

std::size_t random_below(std::mt19937_64& random, std::size_t bound) {
  return static_cast<std::size_t>(random() % static_cast<std::uint64_t>(bound));
}

std::vector<std::size_t> opening_sequence(std::size_t book_size, OpeningOrder order,
                                          std::uint64_t seed, std::size_t offset,
                                          std::size_t needed) {
  if (needed == 0) return {};
  if (book_size == 0) throw OpeningError("the opening book is empty");
  // The book's order for one pass through it: the first pass from `seed`, each later one shuffled
  // anew, so that a wrapped book does not repeat its openings in the same order.
  const auto pass_order = [&](std::size_t pass) {
    std::vector<std::size_t> order_of_book(book_size);
    std::iota(order_of_book.begin(), order_of_book.end(), std::size_t{0});
    if (order == OpeningOrder::Random) {
      // Fisher-Yates from the back, with the portable reduction above.
      std::mt19937_64 random(seed + pass * 0x9E3779B97F4A7C15ULL);
      for (std::size_t i = book_size - 1; i > 0; --i)
        std::swap(order_of_book[i], order_of_book[random_below(random, i + 1)]);
    }
    return order_of_book;
  };
  // Passes are counted from the run's first opening, so each run of book_size openings (the
  // first as it always was) uses every opening once.
  std::vector<std::size_t> sequence;
  sequence.reserve(needed);
  std::vector<std::size_t> order_of_book;
  for (std::size_t i = 0; i < needed; ++i) {
    if (i % book_size == 0) order_of_book = pass_order(i / book_size);
    sequence.push_back(order_of_book[(offset % book_size + i) % book_size]);
  }
  return sequence;
}

}  // namespace quixo::arena
