// quixo-mock-engine: a scriptable, deliberately misbehaving UQI engine for the arena's tests.
//
//   quixo-mock-engine --mode MODE [--after N] [--delay-ms MS] [--score CP] [--random-seed S]
//                     [--optimum A,B]
//
// MODE:
//   normal         a well-behaved engine that plays the first legal move (or, with
//                  --random-seed, a pseudo-random legal move that depends only on the seed and the
//                  position), after one `info` line whose score is --score (default 0)
//   crash-on-go    exits with code 3 when told `go`
//   stall          never answers `go`, not even after `stop`
//   illegal        answers `go` with a well-formed move that is illegal in the position (in a
//                  four-player position: the partner's cube when one is on the periphery, else
//                  a pass while a cube may be taken, else the centre cube)
//   malformed      answers `go` with `bestmove zz9`
//   overrun        sleeps --delay-ms before answering `go` (and reads nothing meanwhile)
//   garbage        prints random lines, some long and binary, around its correct answers
//   slow-start     sleeps --delay-ms before answering `uqi`/`ugi`
//   no-handshake   reads its input (and obeys `quit`) but answers nothing, so never `uqiok`
//   crash-on-start exits with code 1 before reading anything
//   close-stdout   when told `go`, closes its stdout and stays alive: it reads (and ignores) its
//                  input, `quit` included, until the input ends, so only the arena can end it
//   double-bestmove  answers each `go` (and the `stop` of an infinite one) with its `bestmove`
//                  twice, which UQI forbids (exactly one per `go`)
//   no-readyok-while-searching  a single-threaded engine: during `go infinite` (or `go ponder`)
//                  it keeps an `isready` until the search ends, so `readyok` comes only after
//                  the `bestmove`
//   options        a well-behaved engine that declares the options of kDeclaredOptions (Threads,
//                  Hash, Ponder, Style, Book, Clear Hash) instead of Hash alone, and answers a
//                  `setoption` it refuses (a name it does not declare, a value its option does not
//                  take) with `info string error: ...`; it writes every `setoption` it takes to
//                  stderr ("quixo-mock-engine: set NAME=VALUE")
//   levels         the options mode with the strength options on top (UCI_LimitStrength,
//                  UCI_Elo from 0 to 3000, Skill Level from 0 to 20), for a GUI's levels; it plays
//                  as the normal mode whatever they say
//   tunable        a well-behaved engine whose strength is a known function of two spin
//                  options, TuneA and TuneB (0 to 200, default 100), for the SPSA tests: with
//                  d the distance of (TuneA, TuneB) from --optimum A,B (default 150,50) it plays
//                  well (a winning move when it has one, else any move that does not make the
//                  opponent's line) with probability exp(-d / 50), and a uniformly
//                  random legal move otherwise
// Every mode answers `query p1turn|gameover|result` (the UGI names) from its position, without
// the repetition rule.
// --after N: the first N `go` commands are answered normally, the mode applies from then on (for
// the modes that concern `go`, and for garbage), so a game can run a few moves before the fault.
// --delay-ms defaults to 2000. Every line is flushed at once, as a real engine must. On start it
// writes one line to stderr: "quixo-mock-engine: mode MODE".
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "core/notation.hpp"
#include "core/position4.hpp"
#include "core/text_helpers.hpp"
#include "uqi_engine_messages.hpp"

namespace {

namespace text_helpers = quixo::text_helpers;
namespace uqi = quixo::uqi;

enum class Mode {
  Normal,
  CrashOnGo,
  Stall,
  Illegal,
  Malformed,
  Overrun,
  Garbage,
  SlowStart,
  NoHandshake,
  CrashOnStart,
  CloseStdout,
  DoubleBestmove,
  NoReadyokWhileSearching,
  Options,
  Levels,
  Tunable,
};

struct ModeName {
  Mode mode;
  std::string_view name;
};
constexpr ModeName kModes[] = {
    {Mode::Normal, "normal"},
    {Mode::CrashOnGo, "crash-on-go"},
    {Mode::Stall, "stall"},
    {Mode::Illegal, "illegal"},
    {Mode::Malformed, "malformed"},
    {Mode::Overrun, "overrun"},
    {Mode::Garbage, "garbage"},
    {Mode::SlowStart, "slow-start"},
    {Mode::NoHandshake, "no-handshake"},
    {Mode::CrashOnStart, "crash-on-start"},
    {Mode::CloseStdout, "close-stdout"},
    {Mode::DoubleBestmove, "double-bestmove"},
    {Mode::NoReadyokWhileSearching, "no-readyok-while-searching"},
    {Mode::Options, "options"},
    {Mode::Levels, "levels"},
    {Mode::Tunable, "tunable"},
};

// What the options mode declares.
const uqi::OptionLine kDeclaredOptions[] = {
    {"Threads", "spin", "1", 1, 8, {}},
    {"Hash", "spin", "16", 1, 64, {}},
    {"Ponder", "check", "false", std::nullopt, std::nullopt, {}},
    {"Style", "combo", "solid", std::nullopt, std::nullopt, {"solid", "sharp"}},
    {"Book", "string", "", std::nullopt, std::nullopt, {}},
    {"Clear Hash", "button", std::nullopt, std::nullopt, std::nullopt, {}},
};
// What the levels mode declares on top.
const uqi::OptionLine kStrengthOptions[] = {
    {"UCI_LimitStrength", "check", "false", std::nullopt, std::nullopt, {}},
    {"UCI_Elo", "spin", "1500", 0, 3000, {}},
    {"Skill Level", "spin", "20", 0, 20, {}},
};

// What the tunable mode declares: Hash, and the two options its strength depends on.
const uqi::OptionLine kTunableOptions[] = {
    {"Hash", "spin", "1", 1, 16, {}},
    {"TuneA", "spin", "100", 0, 200, {}},
    {"TuneB", "spin", "100", 0, 200, {}},
};

std::vector<uqi::OptionLine> declared_options(Mode mode) {
  if (mode == Mode::Tunable) return {std::begin(kTunableOptions), std::end(kTunableOptions)};
  std::vector<uqi::OptionLine> declared(std::begin(kDeclaredOptions), std::end(kDeclaredOptions));
  if (mode == Mode::Levels)
    declared.insert(declared.end(), std::begin(kStrengthOptions), std::end(kStrengthOptions));
  return declared;
}

struct Options {
  Mode mode = Mode::Normal;
  std::string mode_name = "normal";
  int after = 0;
  int delay_ms = 2000;
  int score = 0;
  std::optional<std::uint64_t> random_seed;
  std::pair<double, double> optimum{150, 50};  // tunable: where TuneA and TuneB play best
};

[[noreturn]] void usage_error(const std::string& message) {
  std::cerr << "quixo-mock-engine: " << message
            << "\nusage: quixo-mock-engine --mode MODE [--after N] [--delay-ms MS] [--score CP]"
               " [--random-seed S] [--optimum A,B]\n";
  std::exit(2);
}

std::int64_t integer_argument(std::string_view flag, std::string_view text) {
  const std::optional<std::int64_t> value = text_helpers::parse_integer(text);
  if (!value)
    usage_error(std::string(flag) + " needs a whole number, not " + text_helpers::quoted(text));
  return *value;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) usage_error(std::string(flag) + " needs a value");
    const std::string_view value = argv[++i];
    if (flag == "--mode") {
      bool known = false;
      for (const ModeName& entry : kModes) {
        if (entry.name == value) {
          options.mode = entry.mode;
          options.mode_name = std::string(value);
          known = true;
        }
      }
      if (!known) usage_error("unknown mode " + text_helpers::quoted(value));
    } else if (flag == "--after") {
      options.after = static_cast<int>(integer_argument(flag, value));
    } else if (flag == "--delay-ms") {
      options.delay_ms = static_cast<int>(integer_argument(flag, value));
    } else if (flag == "--score") {
      options.score = static_cast<int>(integer_argument(flag, value));
    } else if (flag == "--random-seed") {
      options.random_seed = static_cast<std::uint64_t>(integer_argument(flag, value));
    } else if (flag == "--optimum") {
      const std::size_t comma = value.find(',');
      if (comma == std::string_view::npos) usage_error("--optimum needs A,B");
      options.optimum = {double(integer_argument(flag, value.substr(0, comma))),
                         double(integer_argument(flag, value.substr(comma + 1)))};
    } else {
      usage_error("unknown option " + text_helpers::quoted(flag));
    }
  }
  return options;
}

void send(std::string_view line) {
  std::cout.write(line.data(), static_cast<std::streamsize>(line.size()));
  std::cout.put('\n');
  std::cout.flush();
}

void sleep_ms(int milliseconds) {
  std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
}

// splitmix64's finaliser: spreads the seed and the position hash over all bits.
std::uint64_t mix(std::uint64_t value) {
  value += 0x9e3779b97f4a7c15ULL;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

// A four-player move that is written correctly but breaks a rule only the four-player game has:
// taking a cube of the mover's team that points to the partner, or passing while a cube may be
// taken. When neither applies (the seat must pass and its partner has no cube on the periphery),
// the centre cube, which is never on the periphery.
std::string illegal_move4(const quixo::Position4& position) {
  using namespace quixo;
  const Seat seat = position.seat_to_move();
  const Bitboard partners = position.cubes_pointing_to(partner_of(seat)) & kBorder;
  if (partners != 0 && !position.is_game_over()) {
    const Square from = std::countr_zero(partners);
    const int file = file_of(from);
    const int rank = rank_of(from);
    // An end of its rank or file other than itself: a destination the geometry allows.
    const Square to = file != 0 ? make_square(0, rank) : make_square(4, rank);
    return square_name(from) + square_name(to) + cube_letter(seat);
  }
  if (position.takeable() != 0) return "0000";
  return std::string("c3c1") + cube_letter(seat);
}

// A move written correctly (two squares, plus a cube letter in the four-player game) that no
// position allows: a cube of the opponent's on the periphery pushed along its row or column when
// there is one, else the centre cube, which is never on the periphery.
std::string illegal_move(const std::optional<quixo::Game>& game) {
  if (!game) return "c3c1x";
  if (const auto* four = game->four_player()) return illegal_move4(four->position);
  const std::string text = game->text();
  const std::size_t space = text.find(' ');
  const char opponent = space + 1 < text.size() && text[space + 1] == 'x' ? 'o' : 'x';
  // The board as 5 ranks of 5 cells, rank 5 first, from the position string.
  std::vector<std::string> ranks(1);
  for (std::size_t i = 0; i < space; ++i) {
    const char c = text[i];
    if (c == '/') {
      ranks.emplace_back();
    } else if (c >= '1' && c <= '5') {
      ranks.back().append(static_cast<std::size_t>(c - '0'), '.');
    } else {
      ranks.back() += c;
    }
  }
  const auto square = [](int file, int rank) {
    return std::string{static_cast<char>('a' + file), static_cast<char>('1' + rank)};
  };
  for (int rank = 0; rank < 5; ++rank) {
    for (int file = 0; file < 5; ++file) {
      const bool periphery = file == 0 || file == 4 || rank == 0 || rank == 4;
      const std::string& row = ranks[static_cast<std::size_t>(4 - rank)];
      if (!periphery || row.size() != 5 || row[static_cast<std::size_t>(file)] != opponent)
        continue;
      // The ends of its row and of its column; the first that is not the square itself is a
      // destination the geometry allows.
      const int ends[4][2] = {{0, rank}, {4, rank}, {file, 0}, {file, 4}};
      for (const auto& end : ends) {
        if (end[0] != file || end[1] != rank) return square(file, rank) + square(end[0], end[1]);
      }
    }
  }
  return "c3c1";
}

class MockEngine {
 public:
  explicit MockEngine(Options options)
      : options_(std::move(options)),
        garbage_random_(static_cast<std::mt19937::result_type>(options_.random_seed.value_or(1))) {}

  int run() {
    if (options_.mode == Mode::CrashOnStart) return 1;
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
      if (tokens.empty()) continue;
      const std::string_view command = tokens.front();
      if (command == "quit") return 0;
      if (options_.mode == Mode::NoHandshake) continue;  // stuck: reads on, answers nothing
      if (command == "uqi" || command == "ugi") {
        handshake(command == "uqi" ? "uqiok" : "ugiok");
      } else if (command == "isready") {
        if (options_.mode == Mode::NoReadyokWhileSearching && pending_infinite_) {
          held_readyok_ = true;
          continue;
        }
        garbage_if_active();
        send("readyok");
      } else if (command == "position") {
        game_ = uqi::parse_position_command(std::span(tokens).subspan(1)).game;
      } else if (command == "go") {
        go(tokens);
      } else if (command == "stop" ||
                 (command == "ponderhit" && pending_infinite_ && !pending_is_infinite_)) {
        // `ponderhit` turns a ponder search into a normal one, which the mock ends at once; an
        // infinite search goes on until `stop`.
        if (pending_infinite_) {
          pending_infinite_ = false;
          answer();
        }
        if (held_readyok_) {
          held_readyok_ = false;
          send("readyok");
        }
      } else if (command == "query") {
        query(tokens.size() > 1 ? tokens[1] : std::string_view());
      } else if (command == "setoption" &&
                 (options_.mode == Mode::Options || options_.mode == Mode::Levels ||
                  options_.mode == Mode::Tunable)) {
        setoption(tokens);
      }
      // uqinewgame, setoption and anything unknown need no answer.
    }
    return 0;  // EOF acts as quit
  }

 private:
  bool faults_active() const { return normal_gos_ >= options_.after; }

  void handshake(std::string_view ok) {
    if (options_.mode == Mode::SlowStart) sleep_ms(options_.delay_ms);
    garbage_if_active();
    send("id name mock-" + options_.mode_name);
    garbage_if_active();
    send("id author the quixo arena tests");
    if (options_.mode == Mode::Options || options_.mode == Mode::Levels ||
        options_.mode == Mode::Tunable) {
      for (const uqi::OptionLine& option : declared_options(options_.mode))
        send(uqi::format_option_line(option));
    } else {
      send("option name Hash type spin default 1 min 1 max 16");
    }
    garbage_if_active();
    send(ok);
    garbage_if_active();
  }

  void go(const std::vector<std::string_view>& tokens) {
    const bool fault = faults_active();
    if (!fault) ++normal_gos_;
    if (fault) {
      switch (options_.mode) {
        case Mode::CrashOnGo:
          std::exit(3);
        case Mode::CloseStdout:
          close_stdout_and_linger();
        case Mode::Stall:
          return;
        case Mode::Illegal:
          send("bestmove " + illegal_move(game_));
          return;
        case Mode::Malformed:
          send("bestmove zz9");
          return;
        case Mode::Overrun:
          sleep_ms(options_.delay_ms);
          break;
        default:
          break;
      }
    }
    // In infinite (and ponder) mode a bestmove may only follow `stop` (or, pondering,
    // `ponderhit`).
    pending_is_infinite_ = std::find(tokens.begin(), tokens.end(), "infinite") != tokens.end();
    if (pending_is_infinite_ || std::find(tokens.begin(), tokens.end(), "ponder") != tokens.end()) {
      pending_infinite_ = true;
      return;
    }
    answer();
  }

  // Closes stdout (the only descriptor of it this process holds, if the arena started it right)
  // and lives on without a word until its input ends.
  [[noreturn]] static void close_stdout_and_linger() {
    std::cout.flush();
    ::close(STDOUT_FILENO);
    std::string ignored;
    while (std::getline(std::cin, ignored)) {
    }
    std::exit(0);
  }

  void answer() {
    const std::vector<std::string> moves =
        game_ ? game_->legal_move_texts() : std::vector<std::string>{};
    std::string move = "0000";
    if (!moves.empty() && options_.mode == Mode::Tunable) {
      move = tunable_move(moves);
    } else if (!moves.empty()) {
      std::size_t index = 0;
      if (options_.random_seed)
        index = mix(*options_.random_seed ^ fnv1a(game_->text())) % moves.size();
      move = moves[index];
    }
    garbage_if_active();
    send("info depth 1 score cp " + std::to_string(options_.score) + " time 0 nodes 1 pv " + move);
    garbage_if_active();
    send("bestmove " + move);
    if (options_.mode == Mode::DoubleBestmove && faults_active()) send("bestmove " + move);
    garbage_if_active();
  }

  // The options mode's `setoption`: taken (and written to stderr) when the name is declared and
  // the value fits, else refused with an `info string error`.
  void setoption(const std::vector<std::string_view>& tokens) {
    const std::optional<uqi::SetOptionCommand> command =
        uqi::parse_setoption_command(std::span(tokens).subspan(1));
    if (!command) {
      send("info string error: expected 'setoption name <name> [value <value>]'");
      return;
    }
    const std::string value = command->value.value_or("");
    for (const uqi::OptionLine& option : declared_options(options_.mode)) {
      if (option.name != command->name) continue;
      const std::optional<std::int64_t> number = text_helpers::parse_integer(value);
      const bool fits =
          option.type == "spin"    ? number && *number >= *option.min && *number <= *option.max
          : option.type == "check" ? value == "true" || value == "false"
          : option.type == "combo"
              ? std::find(option.vars.begin(), option.vars.end(), value) != option.vars.end()
              : true;
      if (!fits) {
        send("info string error: " + option.name + " does not take " + text_helpers::quoted(value));
        return;
      }
      if (options_.mode == Mode::Tunable) {
        if (option.name == "TuneA") tune_a_ = double(*number);
        if (option.name == "TuneB") tune_b_ = double(*number);
        return;  // set before every game of a tuning run: too many for stderr
      }
      std::cerr << "quixo-mock-engine: set " << option.name << "=" << value << std::endl;
      return;
    }
    send("info string error: no such option " + text_helpers::quoted(command->name));
  }

  // The tunable mode's move: well played with a probability that falls with the distance of the
  // options from the optimum, else a random one.
  std::string tunable_move(const std::vector<std::string>& moves) {
    const double da = tune_a_ - options_.optimum.first, db = tune_b_ - options_.optimum.second;
    // A cone, not a bowl: the pull towards the optimum does not fade near it.
    const double good = std::exp(-std::sqrt(da * da + db * db) / 50.0);
    std::uniform_int_distribution<std::size_t> any(0, moves.size() - 1);
    if (std::uniform_real_distribution<double>(0, 1)(tune_random_) >= good)
      return moves[any(tune_random_)];
    const quixo::Color mover = game_->team_to_move();
    const quixo::Outcome win =
        mover == quixo::Color::X ? quixo::Outcome::XWins : quixo::Outcome::OWins;
    std::vector<std::string> safe;
    for (const std::string& move : moves) {
      quixo::Game after = *game_;
      after.play(move);
      if (after.outcome() == win) return move;
      if (after.outcome() == quixo::Outcome::Ongoing) safe.push_back(move);
    }
    if (safe.empty()) return moves[any(tune_random_)];
    return safe[std::uniform_int_distribution<std::size_t>(0, safe.size() - 1)(tune_random_)];
  }

  // UGI's `query`, answered from the position (no repetition rule: the mock keeps no history).
  void query(std::string_view what) {
    if (!game_) return;
    const quixo::Outcome outcome = game_->outcome();
    if (what == "p1turn") {
      const std::string text = game_->text();
      const char mover = text[text.find(' ') + 1];
      // X moves in two-player positions with 'x', in four-player ones with the seats 1 and 3.
      send(std::string("response ") +
           (mover == 'x' || mover == '1' || mover == '3' ? "true" : "false"));
    } else if (what == "gameover") {
      send(std::string("response ") + (outcome != quixo::Outcome::Ongoing ? "true" : "false"));
    } else if (what == "result") {
      send(std::string("response ") + (outcome == quixo::Outcome::XWins   ? "p1win"
                                       : outcome == quixo::Outcome::OWins ? "p2win"
                                                                          : "none"));
    }
  }

  // In garbage mode, once faults are active: a few lines that mean nothing, none of which starts
  // with a word of the protocol. Some are long (longer than a pipe's buffer) and hold control
  // and non-ASCII bytes, NUL included.
  void garbage_if_active() {
    if (options_.mode != Mode::Garbage || !faults_active()) return;
    std::uniform_int_distribution<int> count_of(1, 3);
    std::uniform_int_distribution<int> kind_of(0, 7);
    std::uniform_int_distribution<int> byte_of(0, 255);
    const int count = count_of(garbage_random_);
    for (int i = 0; i < count; ++i) {
      const int kind = kind_of(garbage_random_);
      if (kind == 0) {
        send("");
      } else if (kind == 1) {
        send("info depth banana score cp nodes -");  // an `info` line with no usable field
      } else if (kind == 2) {
        send("bestmovee1a1 uqiok readyok");  // protocol words, but not as the first token
      } else {
        std::size_t length = static_cast<std::size_t>(byte_of(garbage_random_));
        if (kind == 3) length = 70000 + length * 100;
        std::string text = "~";
        for (std::size_t j = 0; j < length; ++j) {
          char c = static_cast<char>(byte_of(garbage_random_));
          if (c == '\n') c = '?';
          text += c;
        }
        send(text);
      }
    }
  }

  Options options_;
  std::mt19937 garbage_random_;
  // The tunable mode's choices differ from process to process (a tuning run's games must), unless
  // --random-seed fixes them.
  std::mt19937_64 tune_random_{options_.random_seed.value_or(std::random_device{}())};
  double tune_a_ = 100, tune_b_ = 100;
  std::optional<quixo::Game> game_;
  int normal_gos_ = 0;                // `go` commands answered before faults began
  bool pending_infinite_ = false;     // a `go infinite` or `go ponder` waits for its end
  bool pending_is_infinite_ = false;  // it was `go infinite` (which `ponderhit` does not end)
  bool held_readyok_ = false;  // no-readyok-while-searching: an `isready` kept until the bestmove
};

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  Options options = parse_options(argc, argv);
  // One line on stderr, so that a test can see where the arena puts an engine's stderr.
  std::cerr << "quixo-mock-engine: mode " << options.mode_name << std::endl;
  return MockEngine(std::move(options)).run();
}
