// Fuzzes the PGN reader (client/pgn_reader.hpp), which reads back a tournament's games.
//
// Input: PGN text. Invariants:
//   - parse_pgn either reads the games or throws PgnError;
//   - every game read, written by format_pgn, reads back as the same record (up to what the
//     header says is not kept: control characters in a tag become spaces), and writing that
//     gives the same text again; all the games written one after the other read back as all;
//   - the same for the annotated reading (quixo-gui's variations and comments), which reads
//     every game the strict one reads.
#include <string>

#include "fuzz_support.hpp"
#include "pgn_reader.hpp"
#include "pgn_writer.hpp"

namespace {

using namespace quixo::arena;

// What format_pgn does to a tag value: a tag is one line, control characters become spaces.
void blank_controls(std::string& text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
}

GameRecord as_written(GameRecord game) {
  for (std::string* field : {&game.event, &game.site, &game.date, &game.start_time, &game.end_time,
                             &game.duration, &game.round, &game.x_name, &game.o_name,
                             &game.start_position, &game.time_control, &game.reason})
    blank_controls(*field);
  if (game.o_time_control) blank_controls(*game.o_time_control);
  if (game.four_player)
    for (std::string& name : game.four_player->names) blank_controls(name);
  return game;
}

std::vector<GameRecord> read_back(const std::string& text,
                                  PgnReading reading = PgnReading::Strict) {
  try {
    return parse_pgn(text, reading);
  } catch (const PgnError& error) {
    FUZZ_CHECK(false, "written PGN is refused: " + std::string(error.what()) + "\n" + text);
  }
}

// The annotated reading: what it reads is written and read back the same, variations and all.
bool annotated_round_trip(std::string_view input) {
  std::vector<GameRecord> games;
  try {
    games = parse_pgn(input, PgnReading::Annotated);
  } catch (const PgnError& error) {
    FUZZ_CHECK(std::string_view(error.what()).size() > 0, "empty error message");
    return false;
  }
  for (const GameRecord& game : games) {
    const std::string text = format_pgn(game);
    const std::vector<GameRecord> again = read_back(text, PgnReading::Annotated);
    FUZZ_CHECK(again.size() == 1, "one game written, " + std::to_string(again.size()) + " read");
    FUZZ_CHECK(again[0] == as_written(game), "annotated game round trip:\n" + text);
    FUZZ_CHECK(format_pgn(again[0]) == text, "annotated writing is not a fixed point:\n" + text);
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool annotated = annotated_round_trip(quixo::fuzz::as_text(data, size));
  std::vector<GameRecord> games;
  try {
    games = parse_pgn(quixo::fuzz::as_text(data, size));
  } catch (const PgnError& error) {
    FUZZ_CHECK(std::string_view(error.what()).size() > 0, "empty error message");
    return 0;
  }
  FUZZ_CHECK(annotated, "the annotated reading refuses a game the strict one reads");
  std::string all;
  std::vector<GameRecord> expected;
  for (const GameRecord& game : games) {
    const std::string text = format_pgn(game);
    const std::vector<GameRecord> again = read_back(text);
    FUZZ_CHECK(again.size() == 1, "one game written, " + std::to_string(again.size()) + " read");
    FUZZ_CHECK(again[0] == as_written(game), "game round trip:\n" + text);
    FUZZ_CHECK(format_pgn(again[0]) == text, "writing is not a fixed point:\n" + text);
    all += text;
    expected.push_back(again[0]);
  }
  FUZZ_CHECK(read_back(all) == expected, "all games round trip");
  return 0;
}
