// quixo-gui's saved games: a game with variations, comments, a clock and a shown position saved
// and read back as it was; every bad file refused with a sentence; the data folder written
// atomically, listed newest first, and refused with a message when it cannot be used.
#include <unistd.h>

#include <boost/json.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "game_store.hpp"

namespace bdata = boost::unit_test::data;
namespace fs = std::filesystem;
using namespace quixo;
using namespace quixo::gui;
using std::chrono::milliseconds;

BOOST_AUTO_TEST_SUITE(game_store_tests)

namespace {

const SteadyTime kT0{};

// A whole-game analysis's blunder, its loss not a round number.
MoveAnalysis blunder() {
  MoveAnalysis analysis;
  analysis.after.score_cp = -40;
  analysis.best = "b1b5";
  analysis.loss = 0.17668734291;
  analysis.cp_loss = 80;
  analysis.mark = MoveMark::Blunder;
  return analysis;
}

struct ScratchFolder {
  fs::path path;
  ScratchFolder() {
    static int counter = 0;
    path = fs::temp_directory_path() / ("quixo-game-store-tests-" + std::to_string(::getpid()) +
                                        "-" + std::to_string(counter++));
    fs::remove_all(path);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::permissions(path, fs::perms::owner_all, ignored);
    fs::remove_all(path, ignored);
  }
};

// A game between a person and an engine with a clock, a variation, a comment, shown at ply 1.
SavedGame sample_game() {
  SavedGame saved;
  saved.id = "0123456789abcdef";
  saved.saved_ms = 1'790'000'000'000;
  saved.game =
      GuiGame(Variant::TwoPlayer, {"human", "quixo"}, arena::TimeControl::parse("60+1"), {}, kT0);
  saved.game.play("a1a5", move_by("human"), kT0 + milliseconds(5000));
  GuiMove reply = move_by("quixo");
  reply.score_cp = 35;
  reply.depth = 9;
  reply.time_ms = 950;
  saved.game.play("e5e1", reply, kT0 + milliseconds(6000));
  saved.game.set_comment(saved.game.node(), "sharp");
  saved.game.go_to(1, kT0 + milliseconds(6000));
  saved.game.play("e1a1", move_by("human"), kT0 + milliseconds(6000));
  saved.game.go_to(1, kT0 + milliseconds(6000));
  saved.analysis_on = true;
  saved.analysis_engine = "quixo";
  saved.analysis_multipv = 3;
  // Issue 26: the engine's level, whole-game analysis of the current line, a pause.
  saved.game.set_levels({std::nullopt, 1200});
  saved.game.set_analysis(0, blunder());
  MoveAnalysis exact;
  exact.after.exact = tb::TbValue{tb::Wdl::Win, 6};
  saved.game.set_analysis(1, exact);
  saved.game.pause(kT0 + milliseconds(6000));
  return saved;
}

// A game read from a PGN: the file's tags and players.
SavedGame loaded_game(Variant variant) {
  arena::GameRecord file;
  file.event = "Autumn cup";
  file.site = "lab";
  file.date = "2026.11.20";
  file.round = "7";
  file.x_name = "alpha";
  file.o_name = "beta";
  file.x_elo = 1800;
  file.time_control = "10+0.1";
  file.o_time_control = "20+0.2";
  file.start_time = "2026-11-20T10:00:00 +0000";
  file.end_time = "2026-11-20T10:05:00 +0000";
  file.duration = "00:05:00";
  file.start_position = Game::start(variant).text();
  file.result = arena::GameResult::Unfinished;
  file.termination = arena::Termination::Unterminated;
  if (variant == Variant::FourPlayer)
    file.four_player = arena::FourPlayerSeats{arena::Seating::PerTeam, {"a1", "b1", "a2", "b2"}};
  else
    file.moves.push_back(arena::MoveRecord{"a1a5", 12, {}, 5, 100, {}, "a start", {}});
  SavedGame saved;
  saved.id = "feed";
  saved.game = GuiGame::from_record(file);
  return saved;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_saved_game_reads_back_as_it_was) {
  const SavedGame saved = sample_game();
  const std::string text = format_saved_game(saved, kT0 + milliseconds(6000));
  const SavedGame read = parse_saved_game(text, kT0 + milliseconds(60'000));
  BOOST_TEST(read.id == saved.id);
  BOOST_TEST(read.saved_ms == saved.saved_ms);
  BOOST_TEST(read.game.players() == saved.game.players());
  BOOST_TEST(read.game.ply() == 1);
  BOOST_TEST(read.game.moves()[1].move == "e1a1");  // the current line is the variation
  BOOST_TEST(read.game.nodes()[1].children.size() == 2u);
  BOOST_TEST(read.game.nodes()[2].comment == "sharp");
  BOOST_TEST(read.game.nodes()[2].move.score_cp.value_or(0) == 35);
  BOOST_TEST(read.analysis_on);
  BOOST_TEST(read.analysis_multipv == 3);
  // The clocks as they stood when saved; the time away is not charged.
  BOOST_TEST(read.game.remaining_ms(kT0 + milliseconds(60'000)) ==
                 saved.game.remaining_ms(kT0 + milliseconds(6000)),
             boost::test_tools::per_element());
  BOOST_TEST(read.game.remaining_ms(kT0)[1] == 60'000);  // O: 1 s used, 1 s added
  // Levels, whole-game analysis and the pause come back too.
  BOOST_TEST(read.game.levels() == saved.game.levels());
  BOOST_TEST((read.game.moves()[0].analysis == blunder()));
  BOOST_TEST((read.game.moves()[1].analysis == saved.game.moves()[1].analysis));
  BOOST_TEST(!read.game.nodes()[2].move.analysis.has_value());  // the main line's reply
  BOOST_TEST(read.game.paused());
  // Written again, it is the same file.
  BOOST_TEST(format_saved_game(read, kT0 + milliseconds(60'000)) == text);
}

// Issue 26: a game opened from a PGN keeps the file's tags, and so its PGN when it is saved.
BOOST_DATA_TEST_CASE(a_game_read_from_a_pgn_keeps_its_tags, bdata::make({2, 4}), players) {
  const SavedGame saved = loaded_game(players == 2 ? Variant::TwoPlayer : Variant::FourPlayer);
  const std::string text = format_saved_game(saved, kT0);
  const SavedGame read = parse_saved_game(text, kT0);
  BOOST_TEST(read.game.loaded());
  BOOST_TEST((read.game.tags() == saved.game.tags()));
  BOOST_TEST(read.game.names() == saved.game.names());
  BOOST_TEST((read.game.record() == saved.game.record()));
  BOOST_TEST(format_saved_game(read, kT0) == text);
}

// A file saved before levels, analysis, tags and the pause were kept reads as a new game's.
BOOST_AUTO_TEST_CASE(a_file_without_the_later_fields_still_reads) {
  boost::json::object file = boost::json::parse(format_saved_game(sample_game(), kT0)).as_object();
  for (const char* name : {"levels", "tags", "paused"}) BOOST_TEST(file.erase(name) == 1u);
  for (boost::json::value& node : file["nodes"].as_array())
    BOOST_TEST(node.as_object().erase("analysis") == 1u);
  const SavedGame read = parse_saved_game(boost::json::serialize(file), kT0);
  BOOST_TEST(read.game.levels() == (std::vector<std::optional<int>>{std::nullopt, std::nullopt}));
  BOOST_TEST(!read.game.moves()[0].analysis.has_value());
  BOOST_TEST(!read.game.loaded());
  BOOST_TEST(read.game.tags().event == "quixo-gui");
  BOOST_TEST(!read.game.paused());
}

// Each breaks a good file in one place; the message says what.
BOOST_DATA_TEST_CASE(bad_files_are_refused_with_a_sentence,
                     bdata::make({std::string("not json"), std::string("format"),
                                  std::string("version"), std::string("illegal"),
                                  std::string("parent"), std::string("players"),
                                  std::string("line_end"), std::string("ply"), std::string("clock"),
                                  std::string("id"), std::string("mark"), std::string("best"),
                                  std::string("loss"), std::string("score"), std::string("tb"),
                                  std::string("levels"), std::string("seats")}),
                     broken) {
  std::string text = format_saved_game(sample_game(), kT0);
  boost::json::object file = boost::json::parse(text).as_object();
  std::string expected;
  if (broken == "not json") {
    text = "{\"format\":";
    expected = "not JSON";
  } else {
    if (broken == "format") {
      file["format"] = "a chess game";
      expected = "not a quixo-gui game";
    } else if (broken == "version") {
      file["version"] = 7;
      expected = "version 7";
    } else if (broken == "illegal") {
      file["nodes"].as_array()[0].as_object()["move"] = "c3c1";
      expected = "illegal move c3c1";
    } else if (broken == "parent") {
      file["nodes"].as_array()[0].as_object()["parent"] = 5;
      expected = "\"parent\" must be from 0 to 0";
    } else if (broken == "players") {
      file["players"] = boost::json::array{"human"};
      expected = "needs 2 players";
    } else if (broken == "line_end") {
      file["line_end"] = 9;
      expected = "\"line_end\" must be from 0 to 3";
    } else if (broken == "ply") {
      file["ply"] = 3;
      expected = "\"ply\" must be from 0 to 2";
    } else if (broken == "clock") {
      file["clock"] = nullptr;
      expected = "no saved clock";
    } else if (broken == "id") {
      file["id"] = "../../etc/passwd";
      expected = "bad id";
    } else if (broken == "levels") {
      file["levels"] = boost::json::array{1200};
      expected = "one level per player (2)";
    } else if (broken == "seats") {
      file["tags"].as_object()["seats"] = boost::json::array{"a", "b", "c", "d"};
      expected = "only for, a four-player game read from a PGN";
    } else {
      // A field of the first move's whole-game analysis.
      boost::json::object& analysis =
          file["nodes"].as_array()[0].as_object()["analysis"].as_object();
      if (broken == "mark") {
        analysis["mark"] = "brilliant";
        expected = "move 1 of the tree, \"analysis\": unknown mark \"brilliant\"";
      } else if (broken == "best") {
        analysis["best"] = "c3c1";
        expected = "the best move c3c1 is not legal there";
      } else if (broken == "loss") {
        analysis["loss"] = 1.5;
        expected = "field \"loss\" must be a number from 0 to 1";
      } else if (broken == "score") {
        analysis["score"] = boost::json::object{{"cp", 10}, {"mate", 2}};
        expected = "field \"score\" must be {\"cp\":N}, {\"mate\":N} or null";
      } else {
        analysis["tb"] = boost::json::object{{"value", "won"}, {"distance", 3}};
        expected = "bad value \"won\" (win, loss or draw)";
      }
    }
    text = boost::json::serialize(file);
  }
  BOOST_CHECK_EXCEPTION(parse_saved_game(text, kT0), std::invalid_argument,
                        [&](const std::invalid_argument& error) {
                          BOOST_TEST_INFO(error.what());
                          return std::string(error.what()).find(expected) != std::string::npos;
                        });
}

BOOST_AUTO_TEST_CASE(the_store_saves_atomically_and_lists_the_newest_first) {
  const ScratchFolder scratch;
  const GameStore store(scratch.path / "deeper" / "games");  // created
  store.save("aaaa", "first");
  std::this_thread::sleep_for(milliseconds(20));
  store.save("bbbb", "second");
  std::this_thread::sleep_for(milliseconds(20));
  store.save("aaaa", "first again");
  BOOST_TEST(store.load("aaaa") == "first again");
  BOOST_TEST(store.newest(10) == (std::vector<std::string>{"aaaa", "bbbb"}),
             boost::test_tools::per_element());
  BOOST_TEST(store.newest(1).size() == 1u);
  // Only the games' files are left: no temporary file.
  std::size_t files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(store.folder())) {
    BOOST_TEST(entry.path().extension() == ".json");
    ++files;
  }
  BOOST_TEST(files == 2u);
  BOOST_CHECK_THROW(store.load("cccc"), std::runtime_error);
  BOOST_CHECK_THROW(store.save("../x", "escape"), std::runtime_error);
  BOOST_CHECK_THROW(store.load("A/B"), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(a_folder_that_cannot_be_used_is_refused_with_its_name) {
  const ScratchFolder scratch;
  fs::create_directories(scratch.path);
  const fs::path file = scratch.path / "a-file";
  std::ofstream(file) << "not a folder";
  BOOST_CHECK_EXCEPTION(GameStore(file / "games"), std::runtime_error,
                        [&](const std::runtime_error& error) {
                          return std::string(error.what()).find(file.string()) != std::string::npos;
                        });
  if (::geteuid() != 0) {  // root writes anywhere
    const fs::path locked = scratch.path / "locked";
    fs::create_directories(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    BOOST_CHECK_EXCEPTION(
        GameStore{locked}, std::runtime_error, [&](const std::runtime_error& error) {
          return std::string(error.what()).find("cannot write") != std::string::npos;
        });
    fs::permissions(locked, fs::perms::owner_all);
  }
}

BOOST_AUTO_TEST_SUITE_END()
