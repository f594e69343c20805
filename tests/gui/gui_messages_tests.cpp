// The page's messages as typed values: every request type read with its fields, bad ones named,
// and an engine's `info` line formatted for the page.
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

BOOST_AUTO_TEST_SUITE_END()
