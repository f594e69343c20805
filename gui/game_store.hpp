// Keeping a person's work in quixo-gui: each game (its tree of moves with the variations and
// comments, the players, the clock, the shown position, the analysis setting) saved as one JSON
// file per game in a data folder, so that it survives a reload, a closed tab and a restart of
// the server. The session saves after every change and opens a saved game again by its id.
//
// A saved file is read back like any outside input: every field checked, every move checked by
// the rules; a bad file gives a sentence naming the file and what is wrong.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gui_game.hpp"

namespace quixo::gui {

// A game as the session saves it.
struct SavedGame {
  std::string id;
  std::int64_t saved_ms = 0;  // when it was saved, Unix time in milliseconds
  GuiGame game;
  bool ponder = false;
  bool analysis_on = false;
  std::string analysis_engine;
  int analysis_multipv = 1;
};

// The file's text: {"format":"quixo-gui game","version":1,...} (docs/gui-protocol.md). The
// clocks are saved as they stand at `now`.
std::string format_saved_game(const SavedGame& saved, SteadyTime now);
// Reads a saved game back; its clock (when it has one) runs from `now`. Throws
// std::invalid_argument with a sentence saying what is wrong.
SavedGame parse_saved_game(std::string_view text, SteadyTime now);

// The data folder: one file per game, `<id>.json`. Thread-safe (it holds no state that
// changes): each session saves its own game's file.
class GameStore {
 public:
  // Creates the folder when it does not exist and checks that a file can be written there;
  // throws std::runtime_error naming the folder when not.
  explicit GameStore(std::filesystem::path folder);

  const std::filesystem::path& folder() const { return folder_; }
  // A fresh id: 16 random hex digits.
  static std::string new_id();
  // Ids are 1 to 64 of [0-9a-z-], so that an id never names a file outside the folder.
  static bool valid_id(std::string_view id);

  // Writes the game's file atomically (a temporary file, then a rename); throws
  // std::runtime_error with a sentence when it cannot.
  void save(const std::string& id, const std::string& text) const;
  // The saved text; throws std::runtime_error when there is no such game or it cannot be read.
  std::string load(const std::string& id) const;
  // The ids of the saved games, the most recently saved first, at most `count`.
  std::vector<std::string> newest(std::size_t count) const;

 private:
  std::filesystem::path file_of(const std::string& id) const;
  std::filesystem::path folder_;
};

// The default data folder: $XDG_DATA_HOME/quixo-gui, else $HOME/.local/share/quixo-gui; empty
// when neither variable is set.
std::filesystem::path default_data_folder();

}  // namespace quixo::gui
