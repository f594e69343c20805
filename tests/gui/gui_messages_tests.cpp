// The page's messages as typed values: every request type read with its fields, bad ones named,
// an engine's `info` line and the session's `state` formatted for the page.
#include <boost/json.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "gui_messages.hpp"

namespace bdata = boost::unit_test::data;
namespace json = boost::json;
using namespace quixo;
using namespace quixo::gui;

BOOST_AUTO_TEST_SUITE(gui_messages_tests)

BOOST_AUTO_TEST_CASE(requests_are_read_with_their_fields_and_unknown_fields_are_ignored) {
  const ParsedRequest game = parse_request(
      R"({"type":"new_game","variant":"4p","players":["human","a","human","a"],"time":"60+1","extra":1})");
  BOOST_REQUIRE(game.request.has_value());
  const auto& new_game = std::get<NewGameRequest>(*game.request);
  BOOST_TEST(new_game.variant == "4p");
  BOOST_TEST(new_game.players.size() == 4u);
  BOOST_TEST(new_game.time.value_or("") == "60+1");
  BOOST_TEST(!new_game.position.has_value());
  BOOST_TEST(!new_game.ponder);
  const ParsedRequest pondering =
      parse_request(R"({"type":"new_game","players":["human","a"],"ponder":true})");
  BOOST_REQUIRE(pondering.request.has_value());
  BOOST_TEST(std::get<NewGameRequest>(*pondering.request).ponder);

  const ParsedRequest analyze = parse_request(R"({"type":"analyze","on":true,"multipv":3})");
  BOOST_REQUIRE(analyze.request.has_value());
  BOOST_TEST(std::get<AnalyzeRequest>(*analyze.request).multipv == 3);
  BOOST_TEST(!std::get<AnalyzeRequest>(*analyze.request).engine.has_value());

  BOOST_TEST(std::get<GoToRequest>(*parse_request(R"({"type":"goto","ply":7})").request).ply == 7);
  BOOST_TEST(
      std::get<MoveRequest>(*parse_request(R"({"type":"move","move":"b1e1"})").request).move ==
      "b1e1");
  BOOST_TEST(
      std::holds_alternative<SavePgnRequest>(*parse_request(R"({"type":"save_pgn"})").request));
}

BOOST_DATA_TEST_CASE(malformed_requests_are_named,
                     bdata::make({std::string("{"), std::string("42"), std::string("{}"),
                                  std::string(R"({"type":1})"), std::string(R"({"type":"jump"})"),
                                  std::string(R"({"type":"goto","ply":"3"})"),
                                  std::string(R"({"type":"goto","ply":1.5})"),
                                  std::string(R"({"type":"goto","ply":99999999999})"),
                                  std::string(R"({"type":"analyze","on":true,"multipv":0})"),
                                  std::string(R"({"type":"new_game","players":"human"})"),
                                  std::string(R"({"type":"new_game","players":[1,2]})"),
                                  std::string(R"({"type":"open_game"})"),
                                  std::string(R"({"type":"new_game","players":[],"ponder":1})"),
                                  std::string(R"({"type":"analyze","on":"yes"})")}) ^
                         bdata::make({std::string("not JSON"), std::string("not a JSON object"),
                                      std::string("\"type\""), std::string("\"type\""),
                                      std::string("jump"), std::string("\"ply\""),
                                      std::string("\"ply\""), std::string("\"ply\""),
                                      std::string("\"multipv\""), std::string("\"players\""),
                                      std::string("\"players\""), std::string("\"index\""),
                                      std::string("\"ponder\" must be true or false"),
                                      std::string("\"on\" must be true or false")}),
                     text, named) {
  const ParsedRequest parsed = parse_request(text);
  BOOST_TEST(!parsed.request.has_value());
  BOOST_TEST(parsed.error.find(named) != std::string::npos, parsed.error);
}

BOOST_AUTO_TEST_CASE(an_info_line_is_formatted_with_nulls_for_what_it_lacks) {
  const std::optional<uqi::InfoLine> info =
      uqi::parse_info_line("info depth 9 multipv 2 score mate -3 nodes 1234 pv b1e1 a5a1");
  BOOST_REQUIRE(info.has_value());
  const json::object message = json::parse(format_info(*info, "quixo", "analysis", 4)).as_object();
  BOOST_TEST(message.at("type").as_string() == "info");
  BOOST_TEST(message.at("engine").as_string() == "quixo");
  BOOST_TEST(message.at("ply").as_int64() == 4);
  BOOST_TEST(message.at("multipv").as_int64() == 2);
  BOOST_TEST(message.at("score").at("mate").as_int64() == -3);
  BOOST_TEST(message.at("nps").is_null());
  BOOST_TEST(message.at("pv").as_array().size() == 2u);
  const json::object error = json::parse(format_error("bad \"move\"")).as_object();
  BOOST_TEST(error.at("message").as_string() == "bad \"move\"");
}

BOOST_AUTO_TEST_CASE(a_two_player_state_carries_its_moves_clocks_searches_and_table_values) {
  const std::vector<std::string> players{"human", "quixo"};
  GuiMove first = move_by("human");
  first.move = "c1c5";
  first.position = "2x2/5/5/5/5 o";
  first.time_ms = 1200;
  GuiMove second = move_by("quixo");
  second.move = "a1e1";
  second.position = "2x2/5/5/5/4o x";
  second.time_ms = 950;
  second.score_cp = 35;
  second.depth = 9;
  MoveAnalysis analysis;
  analysis.after.score_cp = -40;
  analysis.best = "b1e1";
  analysis.loss = 0.21234;
  analysis.cp_loss = 75;
  analysis.mark = MoveMark::Mistake;
  second.analysis = analysis;
  const std::vector<GuiMove> moves{first, second};
  StateMessage state;
  state.players = players;
  state.time = "60+1";
  state.start = "5/5/5/5/5 x";
  state.moves = moves;
  state.ply = 2;
  state.position = "2x2/5/5/5/4o x";
  state.to_move = "x";
  state.human_to_move = true;
  state.legal = {{"b1e1", "b1", "e1", std::nullopt}, {"a5a1", "a5", "a1", std::nullopt}};
  state.clock = StateClock{{59000, 60000}, 0};
  state.ponder = true;
  state.pondering = StatePondering{"quixo", "b1e1"};
  state.analysis = {false, "quixo", 3};
  state.tb =
      StateTb{{tb::Wdl::Win, 12}, {{"b1e1", {tb::Wdl::Loss, 11}}, {"a5a1", {tb::Wdl::Draw, 0}}}};
  const std::vector<std::optional<int>> levels{std::nullopt, 1200};
  const std::vector<std::string> names{"alpha", "beta"};
  state.levels = levels;
  state.names = names;
  state.paused = true;

  const json::value message = json::parse(format_state(state));
  BOOST_TEST(message == json::parse(R"({"type":"state","variant":"2p","players":["human","quixo"],
    "time":"60+1","start":"5/5/5/5/5 x",
    "moves":[{"move":"c1c5","by":"human","position":"2x2/5/5/5/5 o","time_ms":1200,"score":null,
              "depth":null,"analysis":null},
             {"move":"a1e1","by":"quixo","position":"2x2/5/5/5/4o x","time_ms":950,
              "score":{"cp":35},"depth":9,
              "analysis":{"score":{"cp":-40},"tb":null,"best":"b1e1","loss":0.212,"cp_loss":75,
                          "mark":"mistake"}}],
    "ply":2,"position":"2x2/5/5/5/4o x","to_move":"x","result":null,"human_to_move":true,
    "legal":[{"move":"b1e1","from":"b1","to":"e1","point":null},
             {"move":"a5a1","from":"a5","to":"a1","point":null}],
    "clock":{"remaining_ms":[59000,60000],"running":0},"thinking":null,"ponder":true,
    "pondering":{"engine":"quixo","move":"b1e1"},
    "analysis":{"on":false,"engine":"quixo","multipv":3},
    "tb":{"value":"win","distance":12,"moves":[{"value":"loss","distance":11,"move":"b1e1"},
                                               {"value":"draw","distance":null,"move":"a5a1"}]},
    "game_id":"","line":[],"node":0,"tree":[],
    "levels":[null,1200],"names":["alpha","beta"],"paused":true
  })"));
}

BOOST_AUTO_TEST_CASE(a_four_player_state_names_its_seats_points_and_result_with_nulls_elsewhere) {
  const std::vector<std::string> players{"human", "quixo", "human", "mock"};
  GuiMove pass = move_by("quixo");
  pass.move = "0000";
  pass.position = "xOxOx/O3O/x3x/O3O/xOxOx 3";
  pass.score_mate = -2;
  const std::vector<GuiMove> moves{pass};
  StateMessage state;
  state.variant = Variant::FourPlayer;
  state.players = players;
  state.start = "xOxOx/O3O/x3x/O3O/xOxOx 2";
  state.moves = moves;
  state.ply = 1;
  state.position = "xOxOx/O3O/x3x/O3O/xOxOx 3";
  state.to_move = "3";
  state.result = GuiResult{GameResult::OWins, Termination::Line, "team B makes five in a row"};
  state.legal = {{"a1a5X", "a1", "a5", "X"}, {"a1a5x", "a1", "a5", "x"}};
  state.thinking = StateThinking{"quixo", true};
  state.analysis = {true, "quixo", 1};

  const json::value message = json::parse(format_state(state));
  BOOST_TEST(message == json::parse(R"({"type":"state","variant":"4p",
    "players":["human","quixo","human","mock"],"time":null,"start":"xOxOx/O3O/x3x/O3O/xOxOx 2",
    "moves":[{"move":"0000","by":"quixo","position":"xOxOx/O3O/x3x/O3O/xOxOx 3","time_ms":0,
              "score":{"mate":-2},"depth":null,"analysis":null}],
    "ply":1,"position":"xOxOx/O3O/x3x/O3O/xOxOx 3","to_move":"3",
    "result":{"score":"0-1","reason":"team B makes five in a row"},"human_to_move":false,
    "legal":[{"move":"a1a5X","from":"a1","to":"a5","point":"X"},
             {"move":"a1a5x","from":"a1","to":"a5","point":"x"}],
    "clock":null,"thinking":{"engine":"quixo","purpose":"analysis"},"ponder":false,
    "pondering":null,"analysis":{"on":true,"engine":"quixo","multipv":1},"tb":null,
    "game_id":"","line":[],"node":0,"tree":[],"levels":[],"names":null,"paused":false})"));
  // The keys in the order docs/gui-protocol.md lists them.
  std::vector<std::string> keys;
  for (const auto& field : message.as_object()) keys.emplace_back(field.key());
  BOOST_TEST(keys == (std::vector<std::string>{
                         "type",          "variant",  "players",  "time",     "start",
                         "moves",         "ply",      "position", "to_move",  "result",
                         "human_to_move", "legal",    "clock",    "thinking", "ponder",
                         "pondering",     "analysis", "tb",       "game_id",  "line",
                         "node",          "tree",     "levels",   "names",    "paused"}),
             boost::test_tools::per_element());
}

// The game's tree: the main line, each move with the other moves played instead of it.
BOOST_AUTO_TEST_CASE(the_state_carries_the_games_tree_and_the_shown_node) {
  GuiGame game(Variant::TwoPlayer, {"human", "human"});
  const SteadyTime now{};
  for (const char* move : {"a1a5", "e5e1"}) game.play(move, move_by("human"), now);
  game.go_to(1, now);
  game.play("e1a1", move_by("human"), now);
  game.set_comment(game.node(), "sharp");
  StateMessage state;
  state.players = game.players();
  state.moves = game.moves();
  state.ply = game.ply();
  state.game_id = "abc";
  state.line = game.line();
  state.nodes = game.nodes();
  const json::object message = json::parse(format_state(state)).as_object();
  BOOST_TEST(message.at("game_id") == json::parse(R"("abc")"));
  BOOST_TEST(message.at("line") == json::parse("[1,3]"));
  BOOST_TEST(message.at("node") == json::parse("3"));
  BOOST_TEST(message.at("tree") == json::parse(R"([
    {"id":1,"move":"a1a5","ply":1,"comment":"","variations":[]},
    {"id":2,"move":"e5e1","ply":2,"comment":"","variations":[
      [{"id":3,"move":"e1a1","ply":2,"comment":"sharp","variations":[]}]]}])"));
}

BOOST_AUTO_TEST_CASE(goto_takes_a_node_and_the_work_messages_parse) {
  const GoToRequest to_node =
      std::get<GoToRequest>(*parse_request(R"({"type":"goto","node":7})").request);
  BOOST_TEST(to_node.node.value_or(-1) == 7);
  BOOST_TEST(std::get<ResumeRequest>(*parse_request(R"({"type":"resume","game_id":"ab"})").request)
                 .game_id == "ab");
  BOOST_TEST(
      std::get<CommentRequest>(*parse_request(R"({"type":"comment","node":2,"text":"hm"})").request)
          .text == "hm");
  BOOST_TEST(std::get<SetPlayersRequest>(
                 *parse_request(R"({"type":"set_players","players":["human","q"]})").request)
                 .players.size() == 2u);
  for (const char* bad :
       {R"({"type":"resume"})", R"({"type":"comment","node":2})", R"({"type":"delete","node":-1})",
        R"({"type":"set_players"})", R"({"type":"promote","node":"x"})"})
    BOOST_TEST(!parse_request(bad).error.empty(), bad);
}

BOOST_AUTO_TEST_CASE(whole_game_analysis_preview_and_play_line_requests_are_read) {
  const auto analyze = std::get<AnalyzeGameRequest>(
      *parse_request(R"({"type":"analyze_game","on":true,"engine":"e","movetime_ms":250})")
           .request);
  BOOST_TEST(analyze.on);
  BOOST_TEST(analyze.engine.value_or("") == "e");
  BOOST_TEST(analyze.movetime_ms == 250);
  const auto cancel =
      std::get<AnalyzeGameRequest>(*parse_request(R"({"type":"analyze_game","on":false})").request);
  BOOST_TEST(!cancel.on);
  BOOST_TEST(cancel.movetime_ms == 1000);
  const auto preview = std::get<PreviewRequest>(
      *parse_request(R"({"type":"preview","moves":["b1e1","a5a1"]})").request);
  BOOST_TEST(preview.moves == (std::vector<std::string>{"b1e1", "a5a1"}),
             boost::test_tools::per_element());
  const auto line =
      std::get<PlayLineRequest>(*parse_request(R"({"type":"play_line","moves":["b1e1"]})").request);
  BOOST_TEST(line.moves.size() == 1u);
}

BOOST_DATA_TEST_CASE(
    malformed_analysis_requests_are_named,
    bdata::make({std::string(R"({"type":"analyze_game"})"),
                 std::string(R"({"type":"analyze_game","on":true,"movetime_ms":5})"),
                 std::string(R"({"type":"analyze_game","on":true,"movetime_ms":60001})"),
                 std::string(R"({"type":"preview"})"),
                 std::string(R"({"type":"preview","moves":"b1e1"})"),
                 std::string(R"({"type":"play_line","moves":[1]})")}) ^
        bdata::make({std::string("\"on\""), std::string("\"movetime_ms\""),
                     std::string("\"movetime_ms\""), std::string("\"moves\""),
                     std::string("\"moves\""), std::string("\"moves\"")}),
    text, named) {
  const ParsedRequest parsed = parse_request(text);
  BOOST_TEST(!parsed.request.has_value());
  BOOST_TEST(parsed.error.find(named) != std::string::npos, parsed.error);
}

BOOST_AUTO_TEST_CASE(a_too_long_line_is_refused) {
  std::string text = R"({"type":"preview","moves":[)";
  for (std::size_t i = 0; i <= kMaxLineMoves; ++i) text += std::string(i ? "," : "") + "\"a1a5\"";
  text += "]}";
  const ParsedRequest parsed = parse_request(text);
  BOOST_TEST(!parsed.request.has_value());
  BOOST_TEST(parsed.error.find("more than 128 moves") != std::string::npos, parsed.error);
}

BOOST_AUTO_TEST_CASE(progress_and_preview_messages_are_formatted) {
  GameAnalysisProgress progress;
  progress.running = true;
  progress.done = 3;
  progress.total = 11;
  progress.engine = "quixo";
  progress.movetime_ms = 500;
  BOOST_TEST(json::parse(format_game_analysis(progress)) ==
             json::parse(R"({"type":"game_analysis","running":true,"done":3,"total":11,
                             "engine":"quixo","movetime_ms":500,"cancelled":false})"));
  progress.engine.clear();
  progress.running = false;
  progress.cancelled = true;
  BOOST_TEST(json::parse(format_game_analysis(progress)).at("engine").is_null());
  const std::vector<std::string> moves{"b1e1", "a5a1"};
  const std::vector<std::string> positions{"5/5/5/5/4x o", "5/5/5/5/o3x x"};
  BOOST_TEST(json::parse(format_preview(4, moves, positions)) ==
             json::parse(R"({"type":"preview","ply":4,"moves":["b1e1","a5a1"],
                             "positions":["5/5/5/5/4x o","5/5/5/5/o3x x"]})"));
}

// Issue 26: the level, the options, pausing and the PGN in parts and pages.
BOOST_AUTO_TEST_CASE(the_people_requests_are_read_with_their_fields) {
  const ParsedRequest game =
      parse_request(R"({"type":"new_game","players":["human","a"],"elo":1200})");
  BOOST_REQUIRE(game.request.has_value());
  BOOST_TEST(std::get<NewGameRequest>(*game.request).elo.value_or(-1) == 1200);
  BOOST_TEST(
      !std::get<NewGameRequest>(*parse_request(R"({"type":"new_game","players":[]})").request)
           .elo.has_value());
  BOOST_TEST(!parse_request(R"({"type":"new_game","players":[],"elo":-1})").request.has_value());
  const auto part = std::get<LoadPgnRequest>(
      *parse_request(R"({"type":"load_pgn","text":"[Event","more":true})").request);
  BOOST_TEST(part.more);
  const auto set = std::get<SetOptionRequest>(
      *parse_request(R"({"type":"set_option","engine":"a","name":"Hash","value":"64"})").request);
  BOOST_TEST((set.engine == "a" && set.name == "Hash" && set.value == "64"));
  BOOST_TEST(std::get<PauseRequest>(*parse_request(R"({"type":"pause","on":true})").request).on);
  BOOST_TEST(!parse_request(R"({"type":"pause"})").request.has_value());
  const auto list = std::get<PgnListRequest>(
      *parse_request(R"({"type":"pgn_list","offset":200,"player":"quixo","result":"1-0"})")
           .request);
  BOOST_TEST(list.offset == 200);
  BOOST_TEST(list.limit == 100);
  BOOST_TEST(list.player.value_or("") == "quixo");
  BOOST_TEST(list.result.value_or("") == "1-0");
  BOOST_TEST(!parse_request(R"({"type":"pgn_list","limit":0})").request.has_value());
  BOOST_TEST(std::get<EngineOptionsRequest>(
                 *parse_request(R"({"type":"engine_options","engine":"a"})").request)
                 .engine == "a");
}

BOOST_AUTO_TEST_CASE(engine_options_list_the_declaration_with_the_values_set) {
  const std::vector<uqi::OptionLine> declared = {
      {"Hash", "spin", "16", 1, 1024, {}},
      {"Style", "combo", "solid", std::nullopt, std::nullopt, {"solid", "sharp"}}};
  const json::object message =
      json::parse(format_engine_options("quixo", "Quixo 1.0", declared, {{"Hash", "64"}}))
          .as_object();
  BOOST_TEST(message.at("type").as_string() == "engine_options");
  BOOST_TEST(message.at("id").as_string() == "Quixo 1.0");
  const json::array& options = message.at("options").as_array();
  BOOST_REQUIRE(options.size() == 2u);
  BOOST_TEST(
      json::serialize(options[0]) ==
      R"({"name":"Hash","type":"spin","default":"16","min":1,"max":1024,"vars":[],"value":"64"})");
  BOOST_TEST(options[1].at("value").is_null());
  BOOST_TEST(options[1].at("vars").as_array().size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
