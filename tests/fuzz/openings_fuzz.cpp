// Fuzzes the opening book reader (client/openings.hpp) and the book order.
//
// Input: the text of a book. Invariants:
//   - parse_openings either reads the book or throws OpeningError (the header's contract: any
//     other exception, NotationError included, escapes and is a crash);
//   - every opening read is canonical and playable: its position parses (with its move number),
//     its moves are legal in turn and the game is not over after them;
//   - format_opening / write_openings give text that reads back to the same openings;
//   - opening_sequence (with the book's size and parameters taken from the input) gives indices
//     inside the book, in order or as a permutation that covers the book.
#include <algorithm>
#include <sstream>
#include <string>

#include "core/game.hpp"
#include "fuzz_support.hpp"
#include "openings.hpp"

namespace {

using namespace quixo;
using namespace quixo::arena;

std::string quote(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::vector<Opening> read_back(const std::string& text) {
  std::istringstream in(text);
  try {
    return parse_openings(in, "written");
  } catch (const OpeningError& error) {
    FUZZ_CHECK(false, "written book " + quote(text) + " is refused: " + error.what());
  }
}

void check_opening(const Opening& opening) {
  Game position;
  try {
    position = Game::parse(opening.position);
  } catch (const NotationError& error) {
    FUZZ_CHECK(false, "opening position " + quote(opening.position) + ": " + error.what());
  }
  const std::string canonical = position.text();
  FUZZ_CHECK(opening.position.starts_with(canonical),
             "position " + quote(opening.position) + " is not canonical (" + canonical + ")");
  for (const std::string& move : opening.moves) {
    try {
      FUZZ_CHECK(position.play(move) == move, "move " + quote(move) + " is not canonical");
    } catch (const NotationError& error) {
      FUZZ_CHECK(false, "opening move " + quote(move) + ": " + error.what());
    }
  }
  FUZZ_CHECK(!position.is_game_over(), "an opening whose game is over: " + format_opening(opening));
  const std::vector<Opening> again = read_back(format_opening(opening) + "\n");
  FUZZ_CHECK(again.size() == 1 && again[0] == opening,
             "opening " + quote(format_opening(opening)) + " round trip");
}

void check_sequence(std::size_t book_size, std::string_view input) {
  std::uint64_t seed = 0;
  for (const char c : input) seed = seed * 131 + static_cast<unsigned char>(c);
  const std::size_t offset = seed % 1000;
  const std::size_t needed = (seed >> 10) % 700;
  for (const OpeningOrder order : {OpeningOrder::Sequential, OpeningOrder::Random}) {
    const std::vector<std::size_t> sequence =
        opening_sequence(book_size, order, seed, offset, needed);
    FUZZ_CHECK(sequence.size() == needed, "sequence length");
    for (std::size_t i = 0; i < sequence.size(); ++i) {
      FUZZ_CHECK(sequence[i] < book_size, "index outside the book");
      if (order == OpeningOrder::Sequential)
        FUZZ_CHECK(sequence[i] == (offset + i) % book_size, "sequential order");
      // A sequential book repeats itself when it wraps round; a random one is shuffled anew.
      if (order == OpeningOrder::Sequential && i >= book_size)
        FUZZ_CHECK(sequence[i] == sequence[i - book_size], "wrap around");
    }
    // Every pass of book_size openings uses each opening once.
    for (std::size_t start = 0; start < sequence.size(); start += book_size) {
      std::vector<std::size_t> pass(sequence.begin() + static_cast<std::ptrdiff_t>(start),
                                    sequence.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                           start + book_size, sequence.size())));
      std::sort(pass.begin(), pass.end());
      FUZZ_CHECK(std::adjacent_find(pass.begin(), pass.end()) == pass.end(),
                 "an opening repeated before the book is used up");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  std::istringstream in{std::string(text)};
  std::vector<Opening> openings;
  try {
    openings = parse_openings(in, "fuzz");
  } catch (const OpeningError& error) {
    FUZZ_CHECK(std::string_view(error.what()).starts_with("fuzz:"),
               std::string("error without its source: ") + error.what());
    return 0;
  }
  for (const Opening& opening : openings) check_opening(opening);
  std::ostringstream out;
  write_openings(out, openings);
  FUZZ_CHECK(read_back(out.str()) == openings, "book round trip");
  if (!openings.empty()) check_sequence(openings.size(), text);
  return 0;
}
