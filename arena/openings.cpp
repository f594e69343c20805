#include "openings.hpp"

#include <algorithm>
#include <fstream>
#include <istream>
#include <numeric>
#include <ostream>
#include <random>
#include <utility>

#include "core/notation.hpp"
#include "core/text_helpers.hpp"
#include "game_position.hpp"

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
    // The position string may carry a move number (SPEC section 3). It is kept, so that the
    // PGN's FEN tag and move numbers go on from it as in the book.
    if (next < tokens.size() && is_move_number(tokens[next])) move_number = tokens[next++];
  }
  GamePosition position =
      GamePosition::parse(move_number.empty() ? position_text : position_text + " " + move_number);
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

std::vector<Opening> load_openings(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw OpeningError(path + ": cannot open the opening book");
  std::vector<Opening> openings = parse_openings(in, path);
  if (in.bad()) throw OpeningError(path + ": read error");
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
  std::vector<std::size_t> order_of_book(book_size);
  std::iota(order_of_book.begin(), order_of_book.end(), std::size_t{0});
  if (order == OpeningOrder::Random) {
    // Fisher-Yates from the back, with the portable reduction above.
    std::mt19937_64 random(seed);
    for (std::size_t i = book_size - 1; i > 0; --i)
      std::swap(order_of_book[i], order_of_book[random_below(random, i + 1)]);
  }
  std::vector<std::size_t> sequence;
  sequence.reserve(needed);
  for (std::size_t i = 0; i < needed; ++i)
    sequence.push_back(order_of_book[(offset % book_size + i) % book_size]);
  return sequence;
}

}  // namespace quixo::arena
