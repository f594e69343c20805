// The messages between the page and quixo-gui (docs/gui-protocol.md), as typed values: requests
// parsed from the page's JSON (with a sentence for the page when one is malformed), and the
// server's messages formatted as JSON. Nothing here knows the game or the engines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "uqi_client_messages.hpp"

namespace quixo::gui {

struct NewGameRequest {
  std::string variant;  // "2p" or "4p"
  std::vector<std::string> players;
  std::optional<std::string> time;
  std::optional<std::string> position;
  // Engines think on their opponent's time (`go ponder`), two-player games only.
  bool ponder = false;
};
struct MoveRequest {
  std::string move;
};
struct TakeBackRequest {};
struct GoToRequest {
  int ply = 0;
};
struct ThinkRequest {
  std::optional<std::string> engine;
};
struct StopRequest {};
struct AnalyzeRequest {
  bool on = false;
  std::optional<std::string> engine;
  int multipv = 1;
};
struct SetupRequest {
  std::string position;
};
struct SavePgnRequest {};
struct LoadPgnRequest {
  std::string text;
};
struct OpenGameRequest {
  int index = 0;
};

using Request = std::variant<NewGameRequest, MoveRequest, TakeBackRequest, GoToRequest,
                             ThinkRequest, StopRequest, AnalyzeRequest, SetupRequest,
                             SavePgnRequest, LoadPgnRequest, OpenGameRequest>;

// The request in `text`, or a sentence saying what is wrong with it (not JSON, not an object, an
// unknown type, a missing or mistyped field). Unknown fields are ignored.
struct ParsedRequest {
  std::optional<Request> request;
  std::string error;
};
ParsedRequest parse_request(std::string_view text);

// {"type":"error","message":...}
std::string format_error(std::string_view message);
// {"type":"info",...} for one `info` line of `engine`'s search of the position after `ply` moves;
// `purpose` is "move" or "analysis".
std::string format_info(const uqi::InfoLine& info, std::string_view engine,
                        std::string_view purpose, int ply);

}  // namespace quixo::gui
