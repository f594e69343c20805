// quixo-gui's server over real sockets (a Beast client): the page's files, the WebSocket, and the
// security rules (Host and Origin, message size and rate, the number of pages).
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <thread>

#include "gui_server.hpp"

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
namespace json = boost::json;
using tcp = net::ip::tcp;
using namespace quixo::gui;

namespace {

const std::vector<WebAsset> kAssets = {
    {"/index.html", "text/html; charset=utf-8", "<!doctype html><title>quixo</title>"},
    {"/app.js", "text/javascript; charset=utf-8", "console.log(1);"},
};

// A server on a free port, run on its own thread for the test's length.
struct RunningServer {
  explicit RunningServer(ServerConfig config = {}) {
    config.port = 0;
    config.assets = kAssets;
    server = std::make_unique<GuiServer>(std::move(config));
    thread = std::thread([this] { server->run(); });
  }
  ~RunningServer() {
    server->stop();
    thread.join();
  }
  std::string host() const { return "127.0.0.1:" + std::to_string(server->port()); }

  std::unique_ptr<GuiServer> server;
  std::thread thread;
};

http::response<http::string_body> get(const RunningServer& server, const std::string& target,
                                      const std::string& host, const std::string& cookie = {}) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server.server->port()));
  http::request<http::empty_body> request(http::verb::get, target, 11);
  request.set(http::field::host, host);
  if (!cookie.empty()) request.set(http::field::cookie, cookie);
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  return response;
}

// A page's WebSocket, read synchronously with a time limit.
class Page {
 public:
  Page(const RunningServer& server, const std::string& origin, const std::string& cookie = {})
      : ws_(io_) {
    beast::get_lowest_layer(ws_).connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), server.server->port()));
    ws_.set_option(
        websocket::stream_base::decorator([origin, cookie](websocket::request_type& request) {
          if (!origin.empty()) request.set(http::field::origin, origin);
          if (!cookie.empty()) request.set(http::field::cookie, cookie);
        }));
    ws_.handshake(server.host(), "/ws");
  }
  void send(const std::string& text) {
    ws_.text(true);
    ws_.write(net::buffer(text));
  }
  // The next message; throws on a closed connection.
  json::object read() {
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(20));
    beast::flat_buffer buffer;
    ws_.read(buffer);
    return json::parse(beast::buffers_to_string(buffer.data())).as_object();
  }
  json::object read_type(const std::string& type) {
    for (;;) {
      json::object message = read();
      if (message.at("type").as_string() == type) return message;
    }
  }

 private:
  net::io_context io_;
  websocket::stream<beast::tcp_stream> ws_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(gui_server_tests)

BOOST_AUTO_TEST_CASE(the_page_is_served_with_a_policy_that_keeps_it_local) {
  RunningServer server;
  const auto index = get(server, "/", server.host());
  BOOST_TEST(index.result_int() == 200);
  BOOST_TEST(index.body() == "<!doctype html><title>quixo</title>");
  BOOST_TEST(std::string(index[http::field::content_type]).starts_with("text/html"));
  BOOST_TEST(std::string(index["Content-Security-Policy"]).find("default-src 'self'") !=
             std::string::npos);
  BOOST_TEST(get(server, "/app.js?v=2", server.host()).body() == "console.log(1);");
  BOOST_TEST(get(server, "/../etc/passwd", server.host()).result_int() == 404);
  BOOST_TEST(get(server, "/missing.js", server.host()).result_int() == 404);
  // localhost names the same loopback server.
  BOOST_TEST(get(server, "/", "localhost:" + std::to_string(server.server->port())).result_int() ==
             200);
}

BOOST_AUTO_TEST_CASE(every_module_the_page_imports_is_built_in_as_javascript) {
  // The page is ES modules (app.js, a module per panel, and what they share): one that is not
  // built in, or is served as another type, stops the whole page in the browser.
  const std::vector<WebAsset>& assets = web_assets();
  const auto find = [&](std::string_view path) {
    return std::find_if(assets.begin(), assets.end(),
                        [&](const WebAsset& asset) { return asset.path == path; });
  };
  BOOST_REQUIRE(find("/index.html") != assets.end());
  BOOST_TEST(find("/index.html")->body.find(R"(<script type="module" src="app.js">)") !=
             std::string_view::npos);
  int imports = 0;
  for (const WebAsset& asset : assets) {
    if (!asset.path.ends_with(".js")) continue;
    BOOST_TEST(asset.content_type == "text/javascript; charset=utf-8", asset.path);
    constexpr std::string_view kFrom = "from './";
    for (std::size_t at = asset.body.find(kFrom); at != std::string_view::npos;
         at = asset.body.find(kFrom, at + 1)) {
      const std::size_t name = at + kFrom.size();
      const std::string path =
          "/" + std::string(asset.body.substr(name, asset.body.find('\'', name) - name));
      BOOST_TEST((find(path) != assets.end()), asset.path << " imports " << path);
      ++imports;
    }
  }
  BOOST_TEST(imports > 10);
}

BOOST_AUTO_TEST_CASE(a_request_for_another_host_is_refused) {
  RunningServer server;
  // A web site that rebinds its DNS name to 127.0.0.1 still sends its own name.
  BOOST_TEST(
      get(server, "/", "evil.example:" + std::to_string(server.server->port())).result_int() ==
      403);
}

BOOST_AUTO_TEST_CASE(a_name_given_by_allow_host_is_served_and_no_other) {
  ServerConfig config;
  config.allowed_hosts = {"Quixo.Example"};
  RunningServer server(std::move(config));
  const std::string port = std::to_string(server.server->port());
  BOOST_TEST(get(server, "/", "quixo.example:" + port).result_int() == 200);
  BOOST_TEST(get(server, "/", "quixo.example").result_int() == 200);
  BOOST_TEST(get(server, "/", "other.example:" + port).result_int() == 403);
  BOOST_TEST(get(server, "/", "").result_int() == 403);
}

// Listening on every address (--host 0.0.0.0), the Host header must still be one of the machine's
// own names (DNS rebinding), and every request must carry the token: in the URL, which sets a
// cookie, or in that cookie (issue 26, defect 4).
BOOST_AUTO_TEST_CASE(off_loopback_only_the_machines_names_with_the_token_are_served) {
  ServerConfig config;
  config.host = "0.0.0.0";
  config.token = "secret-token-26";
  RunningServer server(std::move(config));
  const std::string port = std::to_string(server.server->port());
  const std::string own = "127.0.0.1:" + port;
  BOOST_TEST(server.server->url().ends_with(":" + port + "/?token=secret-token-26"));
  const std::vector<std::string>& names = server.server->allowed_hosts();
  BOOST_TEST((std::find(names.begin(), names.end(), "localhost") != names.end()));
  BOOST_TEST((std::find(names.begin(), names.end(), "0.0.0.0") == names.end()));

  // Any Host but the machine's own is refused, even with the token (a rebound DNS name).
  BOOST_TEST(get(server, "/?token=secret-token-26", "evil.example:" + port).result_int() == 403);
  // Without the token, or with a wrong one, nothing is served.
  const auto without = get(server, "/", own);
  BOOST_TEST(without.result_int() == 403);
  BOOST_TEST(without.body().find("token") != std::string::npos);
  BOOST_TEST(get(server, "/?token=secret-token-27", own).result_int() == 403);
  BOOST_TEST(get(server, "/app.js", own, "quixo-gui-token-" + port + "=wrong-token").result_int() ==
             403);
  BOOST_CHECK_THROW(Page(server, "http://" + own), beast::system_error);

  // The printed URL serves the page and gives the cookie its other requests carry.
  const auto page = get(server, "/?token=secret-token-26", own);
  BOOST_TEST(page.result_int() == 200);
  const std::string set_cookie(page[http::field::set_cookie]);
  BOOST_TEST(set_cookie.starts_with("quixo-gui-token-" + port + "=secret-token-26;"));
  BOOST_TEST(set_cookie.find("HttpOnly") != std::string::npos);
  const std::string cookie = "theme=dark; quixo-gui-token-" + port + "=secret-token-26";
  BOOST_TEST(get(server, "/app.js", own, cookie).body() == "console.log(1);");
  Page socket(server, "http://" + own, cookie);
  BOOST_TEST(socket.read().at("type").as_string() == "hello");
}

BOOST_AUTO_TEST_CASE(tokens_are_random_and_checked) {
  const std::string first = make_token();
  BOOST_TEST(first.size() == 32u);
  BOOST_TEST(first.find_first_not_of("0123456789abcdef") == std::string::npos);
  BOOST_TEST(first != make_token());
  BOOST_CHECK_NO_THROW(check_token(first));
  BOOST_CHECK_THROW(check_token("short"), std::invalid_argument);
  BOOST_CHECK_THROW(check_token("has a space"), std::invalid_argument);
  BOOST_TEST(is_loopback_host("127.0.0.1"));
  BOOST_TEST(is_loopback_host("::1"));
  BOOST_TEST(is_loopback_host("localhost"));
  BOOST_TEST(!is_loopback_host("0.0.0.0"));
  BOOST_TEST(!is_loopback_host("192.168.1.5"));
}

BOOST_AUTO_TEST_CASE(the_websocket_plays_and_answers_bad_messages_without_closing) {
  RunningServer server;
  Page page(server, "http://" + server.host());
  BOOST_TEST(page.read().at("type").as_string() == "hello");
  BOOST_TEST(page.read().at("type").as_string() == "state");
  page.send("{not json");
  BOOST_TEST(page.read().at("type").as_string() == "error");
  page.send(R"({"type":"move","move":"a1a5"})");
  const json::object state = page.read_type("state");
  BOOST_TEST(state.at("moves").as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_websocket_from_another_origin_is_refused) {
  RunningServer server;
  BOOST_CHECK_THROW(Page(server, "http://evil.example"), beast::system_error);
}

BOOST_AUTO_TEST_CASE(a_message_over_the_size_limit_closes_that_connection_only) {
  ServerConfig config;
  config.max_message_bytes = 1000;
  RunningServer server(std::move(config));
  Page page(server, "");
  page.read_type("state");
  page.send(std::string(2000, ' '));
  BOOST_CHECK_THROW(page.read(), beast::system_error);
  Page next(server, "");
  BOOST_TEST(next.read().at("type").as_string() == "hello");
}

BOOST_AUTO_TEST_CASE(messages_beyond_the_rate_get_an_error_and_are_not_acted_on) {
  ServerConfig config;
  config.max_messages_per_second = 1;
  config.message_burst = 3;
  RunningServer server(std::move(config));
  Page page(server, "");
  page.read_type("state");
  for (const char* move : {"a1a5", "e5e1", "b1b5", "e1a1"})
    page.send(std::string(R"({"type":"move","move":")") + move + "\"}");
  int states = 0;
  int errors = 0;
  while (states + errors < 4) {
    const json::object message = page.read();
    if (message.at("type") == "state") ++states;
    if (message.at("type") == "error") {
      ++errors;
      BOOST_TEST(std::string(message.at("message").as_string()).find("too many") !=
                 std::string::npos);
    }
  }
  BOOST_TEST(states == 3);
  BOOST_TEST(errors == 1);
}

BOOST_AUTO_TEST_CASE(no_more_pages_than_the_limit_are_served_at_once) {
  ServerConfig config;
  config.max_sessions = 2;
  RunningServer server(std::move(config));
  Page first(server, "");
  Page second(server, "");
  first.read_type("state");
  second.read_type("state");
  BOOST_CHECK_THROW(Page(server, ""), beast::system_error);
}

// Issue 26, defect 8: HEAD tells the length a GET's body has, with no body.
BOOST_AUTO_TEST_CASE(head_answers_the_length_of_the_page_without_it) {
  RunningServer server;
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server.server->port()));
  http::request<http::empty_body> request(http::verb::head, "/", 11);
  request.set(http::field::host, server.host());
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response_parser<http::empty_body> parser;
  parser.skip(true);  // a HEAD answer has no body, whatever its Content-Length says
  http::read(stream, buffer, parser);
  BOOST_TEST(parser.get().result_int() == 200);
  BOOST_TEST(std::string(parser.get()[http::field::content_length]) ==
             std::to_string(get(server, "/", server.host()).body().size()));
  BOOST_TEST(buffer.size() == 0u);  // nothing after the header
}

BOOST_AUTO_TEST_SUITE_END()
