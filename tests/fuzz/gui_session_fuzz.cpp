// Fuzzes what a page may send to quixo-gui (gui/gui_session.hpp): every line of the input is one
// WebSocket message handed to a GuiSession with no engines (so nothing starts a process) and
// endgame tables absent. Invariants: no crash, hang, leak or UB; every reply is one JSON object
// with a known "type"; each message is answered (an error, or the state, pgn, pgn_games,
// recent_games, preview, game_analysis, warning or engine_options it asks for) except a `stop`
// with nothing to stop and a part of a PGN that more parts follow; and the state's shown position
// always parses and equals the last move's position at the last ply, and the shown node is the
// line's node there.
#include <boost/json.hpp>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "fuzz_support.hpp"
#include "gui_session.hpp"

namespace {

namespace json = boost::json;
using namespace quixo;

void check_reply(const std::string& text) {
  boost::system::error_code error;
  const json::value value = json::parse(text, error);
  FUZZ_CHECK(!error && value.is_object(), "a reply that is not a JSON object: " + text);
  const json::object& object = value.get_object();
  const json::value* type = object.if_contains("type");
  FUZZ_CHECK(type && type->is_string(), "a reply without a type: " + text);
  const std::string name(type->get_string());
  FUZZ_CHECK(name == "hello" || name == "state" || name == "error" || name == "pgn" ||
                 name == "pgn_games" || name == "recent_games" || name == "game_analysis" ||
                 name == "preview" || name == "warning" || name == "engine_options",
             "a reply of unknown type: " + text);
  if (name != "state") return;
  const std::string position(object.at("position").as_string());
  try {
    (void)Game::parse(position);
  } catch (const NotationError& bad) {
    FUZZ_CHECK(false, "the state's position does not parse: " + position + " (" + bad.what() + ")");
  }
  const json::array& moves = object.at("moves").as_array();
  const auto ply = object.at("ply").as_int64();
  FUZZ_CHECK(ply >= 0 && ply <= std::int64_t(moves.size()), "ply out of the game: " + text);
  if (ply > 0)
    FUZZ_CHECK(moves[std::size_t(ply) - 1].at("position").as_string() == position,
               "the shown position is not the position after the shown ply: " + text);
  // The tree: a node for each move of the line, the shown one the node at the shown ply.
  const json::array& line = object.at("line").as_array();
  FUZZ_CHECK(line.size() == moves.size(), "a line of another length than the moves: " + text);
  const std::int64_t node = object.at("node").as_int64();
  FUZZ_CHECK(node == (ply == 0 ? 0 : line[std::size_t(ply) - 1].as_int64()),
             "the shown node is not the line's node at the shown ply: " + text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> replies;
  gui::GuiSession session(gui::SessionConfig{}, [&](std::string text) { replies.push_back(text); });
  session.open();
  int lines = 0;
  for (const std::string_view line : fuzz::lines_of(fuzz::as_text(data, size))) {
    if (++lines > 64) break;
    const std::size_t before = replies.size();
    session.receive(line);
    for (std::size_t i = before; i < replies.size(); ++i) check_reply(replies[i]);
    const bool is_stop = line.find("\"stop\"") != std::string_view::npos;
    const bool is_part = line.find("\"more\"") != std::string_view::npos;
    FUZZ_CHECK(replies.size() > before || is_stop || is_part,
               "no answer to the message: " + std::string(line));
  }
  return 0;
}
