#include "gui_server.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <cctype>
#include <chrono>
#include <deque>
#include <random>
#include <stdexcept>
#include <utility>

namespace quixo::gui {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using std::chrono::milliseconds;

constexpr std::size_t kHttpBodyLimit = 64 * 1024;
constexpr std::uint32_t kHttpHeaderLimit = 16 * 1024;
constexpr std::chrono::seconds kHttpTimeout{30};
constexpr milliseconds kTickInterval{200};
// A page that stops reading its WebSocket is dropped rather than buffered without end.
constexpr std::size_t kMaxQueuedBytes = 64u << 20;

class WebSocketConnection;

struct Shared {
  ServerConfig config;
  std::string host_port;                   // "127.0.0.1:8080", once bound
  std::vector<std::string> allowed_hosts;  // host_name_of() forms
  std::string token_cookie;                // "quixo-gui-token-8080", the cookie's name
  std::atomic<std::size_t> sessions{0};
  // The open pages (touched on the server's thread only), so that stop() ends their sessions,
  // and with them their engines, while the server still runs.
  std::vector<std::weak_ptr<WebSocketConnection>> connections;
};

// The name part of a Host header, lower case: "Name:8080" -> "name", "[::1]:8080" -> "[::1]".
std::string host_name_of(std::string_view host) {
  std::string_view name = host;
  if (name.starts_with('[')) {
    name = name.substr(0, name.find(']') + 1);
  } else if (const std::size_t colon = name.find(':'); colon != std::string_view::npos) {
    name = name.substr(0, colon);
  }
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

bool host_allowed(const Shared& shared, std::string_view host) {
  const std::string name = host_name_of(host);
  return !name.empty() && std::find(shared.allowed_hosts.begin(), shared.allowed_hosts.end(),
                                    name) != shared.allowed_hosts.end();
}

// Compares two secrets in a time that does not depend on where they differ.
bool same_secret(std::string_view given, std::string_view secret) {
  if (given.size() != secret.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < given.size(); ++i)
    difference |= static_cast<unsigned char>(given[i] ^ secret[i]);
  return difference == 0;
}

// The value of `key` in a list of `key=value` pairs separated by `separator` ("a=1&b=2" with '&',
// a Cookie header "a=1; b=2" with ';'), or none.
std::optional<std::string_view> find_pair(std::string_view list, std::string_view key,
                                          char separator) {
  while (!list.empty()) {
    const std::size_t end = list.find(separator);
    std::string_view pair = list.substr(0, end);
    while (pair.starts_with(' ')) pair.remove_prefix(1);
    if (pair.starts_with(key) && pair.substr(key.size()).starts_with('='))
      return pair.substr(key.size() + 1);
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return std::nullopt;
}

// The names a request may give in its Host header for a server bound to `bound`: the address
// itself; for a loopback address the loopback names; otherwise the machine's host name, and, for
// an unspecified address (every interface), the loopback names and each interface's address.
std::vector<std::string> own_host_names(const net::ip::address& bound) {
  std::vector<std::string> names;
  const auto add = [&names](std::string name) {
    name = host_name_of(name + ":");
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(std::move(name));
  };
  const auto add_address = [&add](const net::ip::address& address) {
    add(address.is_v6() ? "[" + address.to_v6().to_string() + "]" : address.to_string());
  };
  const auto add_loopback = [&add] {
    for (const char* name : {"localhost", "127.0.0.1", "[::1]"}) add(name);
  };
  if (!bound.is_unspecified()) add_address(bound);
  if (bound.is_loopback()) {
    add_loopback();
    return names;
  }
  beast::error_code error;
  const std::string host = net::ip::host_name(error);
  if (!error) add(host);
  if (!bound.is_unspecified()) return names;
  add_loopback();
  ifaddrs* interfaces = nullptr;
  if (getifaddrs(&interfaces) != 0) return names;
  for (const ifaddrs* entry = interfaces; entry != nullptr; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr) continue;
    if (entry->ifa_addr->sa_family == AF_INET) {
      const auto* ipv4 = reinterpret_cast<const sockaddr_in*>(entry->ifa_addr);
      add_address(net::ip::address_v4(ntohl(ipv4->sin_addr.s_addr)));
    } else if (entry->ifa_addr->sa_family == AF_INET6) {
      const auto* ipv6 = reinterpret_cast<const sockaddr_in6*>(entry->ifa_addr);
      net::ip::address_v6::bytes_type bytes;
      std::copy_n(ipv6->sin6_addr.s6_addr, bytes.size(), bytes.begin());
      // A link-local address needs its zone in a URL, which browsers do not send: leave it out.
      const net::ip::address_v6 address(bytes);
      if (!address.is_link_local()) add_address(address);
    }
  }
  freeifaddrs(interfaces);
  return names;
}

class WebSocketConnection : public std::enable_shared_from_this<WebSocketConnection> {
 public:
  WebSocketConnection(tcp::socket socket, std::shared_ptr<Shared> shared)
      : ws_(std::move(socket)),
        shared_(std::move(shared)),
        timer_(ws_.get_executor()),
        tokens_(shared_->config.message_burst),
        last_refill_(std::chrono::steady_clock::now()) {
    ++shared_->sessions;
  }
  ~WebSocketConnection() { --shared_->sessions; }

  void accept(http::request<http::string_body> request) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(shared_->config.max_message_bytes);
    ws_.async_accept(
        request, beast::bind_front_handler(&WebSocketConnection::on_accept, shared_from_this()));
  }

  // Ends the session (its searches and engines) and the connection.
  void close() {
    if (closed_) return;
    closed_ = true;
    timer_.cancel();
    session_.reset();  // stops the searches and quits the engines now, not when the last handler
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

 private:
  void on_accept(beast::error_code error) {
    if (error) return;
    // Engine threads report through `send`: the message is carried to this connection's thread,
    // and a connection that is gone by then drops it (the weak pointer is only locked here).
    std::weak_ptr<WebSocketConnection> weak = weak_from_this();
    auto executor = ws_.get_executor();
    try {
      session_ =
          std::make_unique<GuiSession>(shared_->config.session, [weak, executor](std::string m) {
            net::post(executor, [weak, m = std::move(m)]() mutable {
              if (const auto self = weak.lock()) self->queue(std::move(m));
            });
          });
    } catch (const std::exception& failure) {
      queue(format_error(failure.what()));
      return;
    }
    std::erase_if(shared_->connections,
                  [](const auto& connection) { return connection.expired(); });
    shared_->connections.push_back(weak);
    session_->open();
    tick();
    read();
  }

  void read() {
    ws_.async_read(buffer_,
                   beast::bind_front_handler(&WebSocketConnection::on_read, shared_from_this()));
  }

  void on_read(beast::error_code error, std::size_t) {
    if (error) {
      // Closed by the page, too large a message, or a network error: the session ends, and its
      // engines with it.
      close();
      return;
    }
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (!take_token()) {
      queue(format_error("too many messages: at most " +
                         std::to_string(int(shared_->config.max_messages_per_second)) +
                         " a second; this one was ignored"));
    } else if (!ws_.got_text()) {
      queue(format_error("messages must be JSON text, not binary"));
    } else if (session_) {
      session_->receive(text);
    }
    read();
  }

  // A token bucket: max_messages_per_second on average, message_burst at once.
  bool take_token() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_refill_).count();
    last_refill_ = now;
    tokens_ = std::min(shared_->config.message_burst,
                       tokens_ + seconds * shared_->config.max_messages_per_second);
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

  void tick() {
    timer_.expires_after(kTickInterval);
    timer_.async_wait([self = shared_from_this()](beast::error_code error) {
      if (error || !self->session_) return;
      self->session_->tick();
      self->tick();
    });
  }

  void queue(std::string message) {
    if (closed_) return;
    queued_bytes_ += message.size();
    if (queued_bytes_ > kMaxQueuedBytes) {
      close();
      return;
    }
    queue_.push_back(std::move(message));
    if (queue_.size() == 1) write();
  }

  void write() {
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front()),
                    beast::bind_front_handler(&WebSocketConnection::on_write, shared_from_this()));
  }

  void on_write(beast::error_code error, std::size_t) {
    if (error) {
      close();
      return;
    }
    queued_bytes_ -= queue_.front().size();
    queue_.pop_front();
    if (!queue_.empty()) write();
  }

  websocket::stream<beast::tcp_stream> ws_;
  std::shared_ptr<Shared> shared_;
  net::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  double tokens_;
  std::chrono::steady_clock::time_point last_refill_;
  bool closed_ = false;
  std::unique_ptr<GuiSession> session_;
};

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(tcp::socket socket, std::shared_ptr<Shared> shared)
      : stream_(std::move(socket)), shared_(std::move(shared)) {}

  void read() {
    parser_.emplace();
    parser_->body_limit(kHttpBodyLimit);
    parser_->header_limit(kHttpHeaderLimit);
    stream_.expires_after(kHttpTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpConnection::on_read, shared_from_this()));
  }

 private:
  void on_read(beast::error_code error, std::size_t) {
    if (error == http::error::end_of_stream) {
      stream_.socket().shutdown(tcp::socket::shutdown_send, error);
      return;
    }
    if (error) {
      if (error == http::error::body_limit || error == http::error::header_limit)
        respond(http::status::payload_too_large, "text/plain", "request too large\n", 11, false);
      return;
    }
    http::request<http::string_body> request = parser_->release();
    const std::string host(request[http::field::host]);
    if (!host_allowed(*shared_, host)) {
      respond(http::status::forbidden, "text/plain",
              "quixo-gui answers only requests for its own names (" + host_name_of(host) +
                  " is not one; --allow-host adds it)\n",
              request.version(), false);
      return;
    }
    if (const std::optional<std::string>& token = shared_->config.token) {
      const std::string_view target = request.target();
      const std::optional<std::string_view> in_url =
          target.find('?') == std::string_view::npos
              ? std::nullopt
              : find_pair(target.substr(target.find('?') + 1), "token", '&');
      const std::optional<std::string_view> in_cookie =
          find_pair(request[http::field::cookie], shared_->token_cookie, ';');
      if (in_url && same_secret(*in_url, *token)) {
        // The page's own requests (its scripts, its WebSocket) carry the cookie instead.
        cookie_ = shared_->token_cookie + "=" + *token + "; Path=/; HttpOnly; SameSite=Strict";
      } else if (!in_cookie || !same_secret(*in_cookie, *token)) {
        respond(http::status::forbidden, "text/plain",
                "quixo-gui needs its token: open the URL it printed when it started "
                "(http://.../?token=...)\n",
                request.version(), false);
        return;
      }
    }
    if (websocket::is_upgrade(request)) {
      upgrade(std::move(request), host);
      return;
    }
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      respond(http::status::method_not_allowed, "text/plain", "only GET\n", request.version(),
              request.keep_alive());
      return;
    }
    std::string_view target = request.target();
    target = target.substr(0, target.find('?'));
    if (target == "/") target = "/index.html";
    const auto asset =
        std::find_if(shared_->config.assets.begin(), shared_->config.assets.end(),
                     [&](const WebAsset& candidate) { return candidate.path == target; });
    if (asset == shared_->config.assets.end()) {
      respond(http::status::not_found, "text/plain", "not found\n", request.version(),
              request.keep_alive());
      return;
    }
    // HEAD: no body, but the length a GET's would have.
    const bool head = request.method() == http::verb::head;
    respond(http::status::ok, std::string(asset->content_type),
            head ? std::string() : std::string(asset->body), request.version(),
            request.keep_alive(), head ? std::optional(asset->body.size()) : std::nullopt);
  }

  void upgrade(http::request<http::string_body> request, const std::string& host) {
    if (request.target() != "/ws") {
      respond(http::status::not_found, "text/plain", "the WebSocket is at /ws\n", request.version(),
              false);
      return;
    }
    // Browsers always send Origin with a WebSocket; it must be this server's own page. (A program
    // that sends none is not a browser page that another site could have opened.)
    const auto origin = request.find(http::field::origin);
    if (origin != request.end() && origin->value() != "http://" + host) {
      respond(http::status::forbidden, "text/plain",
              "WebSocket refused: its page is not quixo-gui's own\n", request.version(), false);
      return;
    }
    if (shared_->sessions.load() >= shared_->config.max_sessions) {
      respond(http::status::service_unavailable, "text/plain",
              "too many pages are open (at most " + std::to_string(shared_->config.max_sessions) +
                  ")\n",
              request.version(), false);
      return;
    }
    stream_.expires_never();
    std::make_shared<WebSocketConnection>(stream_.release_socket(), shared_)
        ->accept(std::move(request));
  }

  void respond(http::status status, const std::string& content_type, std::string body,
               unsigned version, bool keep_alive,
               std::optional<std::size_t> head_length = std::nullopt) {
    auto response = std::make_shared<http::response<http::string_body>>(status, version);
    response->set(http::field::server, "quixo-gui");
    response->set(http::field::content_type, content_type);
    // The page loads nothing from elsewhere, and may talk only to this server.
    response->set("Content-Security-Policy",
                  "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
                  "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    response->set(http::field::cache_control, "no-store");
    response->set("X-Content-Type-Options", "nosniff");
    if (!cookie_.empty()) response->set(http::field::set_cookie, std::exchange(cookie_, {}));
    response->body() = std::move(body);
    response->keep_alive(keep_alive);
    response->prepare_payload();
    if (head_length) response->content_length(*head_length);
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response](beast::error_code error, std::size_t) {
                        if (error || !response->keep_alive()) {
                          beast::error_code ignored;
                          self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                          return;
                        }
                        self->read();
                      });
  }

  beast::tcp_stream stream_;
  std::shared_ptr<Shared> shared_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string cookie_;  // a Set-Cookie for the next response: the token, given in its URL
};

}  // namespace

struct GuiServer::Impl {
  net::io_context io{1};
  tcp::acceptor acceptor{io};
  net::signal_set signals{io};
  std::shared_ptr<Shared> shared = std::make_shared<Shared>();

  void accept() {
    acceptor.async_accept(net::make_strand(io),
                          [this](beast::error_code error, tcp::socket socket) {
                            if (error == net::error::operation_aborted) return;
                            if (!error)
                              std::make_shared<HttpConnection>(std::move(socket), shared)->read();
                            accept();
                          });
  }
};

GuiServer::GuiServer(ServerConfig config) : impl_(std::make_unique<Impl>()) {
  impl_->shared->config = std::move(config);
  const ServerConfig& settings = impl_->shared->config;
  beast::error_code error;
  const net::ip::address address = net::ip::make_address(
      settings.host == "localhost" ? std::string("127.0.0.1") : settings.host, error);
  if (error)
    throw std::runtime_error("--host " + settings.host +
                             " is not an IP address: " + error.message());
  const tcp::endpoint endpoint(address, settings.port);
  tcp::acceptor& acceptor = impl_->acceptor;
  acceptor.open(endpoint.protocol(), error);
  if (!error) acceptor.set_option(net::socket_base::reuse_address(true), error);
  if (!error) acceptor.bind(endpoint, error);
  if (!error) acceptor.listen(net::socket_base::max_listen_connections, error);
  if (error)
    throw std::runtime_error("cannot listen on " + settings.host + ":" +
                             std::to_string(settings.port) + ": " + error.message());
  const std::string shown_host =
      address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  impl_->shared->host_port = shown_host + ":" + std::to_string(acceptor.local_endpoint().port());
  if (settings.token) check_token(*settings.token);
  impl_->shared->token_cookie = "quixo-gui-token-" + std::to_string(port());
  std::vector<std::string>& allowed = impl_->shared->allowed_hosts;
  allowed = own_host_names(address);
  for (const std::string& name : settings.allowed_hosts) {
    if (name.empty() || name.find_first_of(" /?#@") != std::string::npos)
      throw std::invalid_argument("--allow-host \"" + name + "\" is not a host name");
    // "name:port" and "[v6]" are taken as the Host header gives them.
    const std::string plain = host_name_of(name);
    if (std::find(allowed.begin(), allowed.end(), plain) == allowed.end()) allowed.push_back(plain);
  }
}

bool is_loopback_host(std::string_view address) {
  if (address == "localhost") return true;
  beast::error_code error;
  const net::ip::address parsed = net::ip::make_address(std::string(address), error);
  return !error && parsed.is_loopback();
}

std::string make_token() {
  std::random_device device;
  std::string token;
  constexpr char kDigits[] = "0123456789abcdef";
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t bits = device();
    for (int shift = 28; shift >= 0; shift -= 4) token += kDigits[(bits >> shift) & 0xf];
  }
  return token;
}

void check_token(std::string_view token) {
  const bool plain = std::all_of(token.begin(), token.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '_';
  });
  if (token.size() < 8 || !plain)
    throw std::invalid_argument(
        "--token must be at least 8 letters, digits, '-' or '_' (it goes into a URL)");
}

const std::vector<std::string>& GuiServer::allowed_hosts() const {
  return impl_->shared->allowed_hosts;
}

GuiServer::~GuiServer() = default;

std::uint16_t GuiServer::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::string GuiServer::url() const {
  const Shared& shared = *impl_->shared;
  std::string host_port = shared.host_port;
  const std::string& bound = shared.config.host;
  // 0.0.0.0 is where it listens, not an address to open; the machine's name is.
  if (bound == "0.0.0.0" || bound == "::") {
    beast::error_code error;
    const std::string host = net::ip::host_name(error);
    if (!error && !host.empty()) host_port = host + ":" + std::to_string(port());
  }
  return "http://" + host_port + "/" +
         (shared.config.token ? "?token=" + *shared.config.token : "");
}

void GuiServer::run() {
  impl_->accept();
  impl_->signals.add(SIGINT);
  impl_->signals.add(SIGTERM);
  impl_->signals.async_wait([this](beast::error_code error, int) {
    if (!error) stop();
  });
  impl_->io.run();
}

void GuiServer::stop() {
  net::post(impl_->io, [impl = impl_.get()] {
    beast::error_code ignored;
    impl->acceptor.close(ignored);
    impl->signals.cancel(ignored);
    for (const std::weak_ptr<WebSocketConnection>& weak : impl->shared->connections)
      if (const auto connection = weak.lock()) connection->close();
    impl->io.stop();
  });
}

}  // namespace quixo::gui
