// Fuzzes the engine's UQI command loop (protocol/uqi_session.hpp) with the real engines behind
// it: every line of the input is a GUI command handed to a UqiSession, which writes to a string
// stream. One session serves every input (making one, with its two 16 MB tables, costs more than
// most inputs); after each input it is put back as new: `quit` (which waits for the search),
// then `uqinewgame` when a search ran, `position startpos` and every option at its default
// (Hash at 1 MB, see kBaseHashMb). So an input replayed alone (build/fuzz/bin/fuzz_uqi_session
// crash-...) starts from the same state. The session is a tuning one (quixo-engine --tune), so
// the search's parameters (search/search_params.hpp) are options too: any of their values in
// range must search and end as the defaults do, since a tune sets them to whatever SPSA reaches.
//
// So that every input ends in milliseconds:
//   - every `go` that is not `go perft` gets " depth 2" appended (the last value wins), so a
//     search ends by itself unless it is `infinite` or `ponder`, which end at the next `stop`,
//     `go`, `position` or the final `quit`; `go perft N` runs on its own thread and is cancelled
//     the same way;
//   - `bench` (a fixed search of seconds) is dropped, and so are `setoption` lines that would
//     set Hash above 16 MB or Threads above 4 (the range checks of larger values still run for
//     values that are not numbers or out of the option's range);
//   - at most 64 lines; the input ends with `stop` and `quit`.
// Invariants: no crash, hang, leak or UB; exactly one `bestmove` per search started
// (docs/spec.md §5), in the order of the searches, each of the form
// `bestmove <move> [ponder <move>]` with a move legal in the searched position (`0000` when it has
// none), one of the `searchmoves` when they name legal moves, and a ponder move legal after it;
// one `readyok` per `isready`.
#include <algorithm>
#include <sstream>
#include <string>

#include "core/text_helpers.hpp"
#include "fuzz_support.hpp"
#include "search/search_params.hpp"
#include "uqi_client_messages.hpp"
#include "uqi_engine_messages.hpp"
#include "uqi_session.hpp"

namespace {

using namespace quixo;

std::string option_key(std::string_view name) {
  std::string key;
  for (const char c : text_helpers::to_lower(name))
    if (c != ' ') key += c;
  return key;
}

// True for a `setoption` that would make the input slow: a big table or many threads.
bool too_costly(std::span<const std::string_view> args) {
  const auto command = uqi::parse_setoption_command(args);
  if (!command || !command->value) return false;
  const std::string key = option_key(command->name);
  const auto value = text_helpers::parse_integer(*command->value);
  if (!value) return false;
  if (key == "hash") return *value > 16 && *value <= 65536;
  if (key == "threads") return *value > 4 && *value <= 256;
  return false;
}

// The table size every input starts with: clearing the default 16 MB tables (`uqinewgame`, and
// the reset after every input that searched) costs a quarter of a second under ASan.
constexpr int kBaseHashMb = 1;

// The session and its output stream, made once; never destroyed (the process just exits).
struct Fixture {
  Fixture() {
    const auto error = session.set_option("Hash", std::to_string(kBaseHashMb));
    FUZZ_CHECK(!error, "cannot set Hash: " + error.value_or(""));
  }
  std::ostringstream out;
  UqiSession session{out, /*tuning=*/true};
};

Fixture& fixture() {
  static Fixture* const instance = new Fixture;
  return *instance;
}

// Every option back at its default, as a new session has them (Hash at kBaseHashMb).
void reset_options(UqiSession& session) {
  const EngineOptions defaults;
  const auto check = [](bool on) { return on ? std::string("true") : std::string("false"); };
  const std::pair<std::string, std::string> options[] = {
      {"Hash", std::to_string(kBaseHashMb)},
      {"Threads", std::to_string(defaults.threads)},
      {"MoveOverhead", std::to_string(defaults.move_overhead_ms)},
      {"MultiPV", std::to_string(defaults.multipv)},
      {"Ponder", "false"},
      {"UCI_LimitStrength", check(defaults.strength.limit_strength)},
      {"UCI_Elo", std::to_string(defaults.strength.elo)},
      {"Skill Level", std::to_string(defaults.strength.skill_level)},
      {"AspirationWindows", check(defaults.features.aspiration_windows)},
      {"KillersAndHistory", check(defaults.features.killers_and_history)},
      {"LateMoveReductions", check(defaults.features.late_move_reductions)},
      {"ThreatExtension", check(defaults.features.threat_extension)},
      {"ParryThreats", check(defaults.features.parry_threats)},
      {"SymmetricTable", check(defaults.features.symmetric_table)},
      {"NullMovePruning", check(defaults.features.null_move_pruning)},
      {"ReverseFutility", check(defaults.features.reverse_futility)},
      {"LateMovePruning", check(defaults.features.late_move_pruning)},
      {"InternalIterativeReduction", check(defaults.features.internal_iterative_reduction)},
      {"ContinuationHistory", check(defaults.features.continuation_history)},
      {"HistoryReductions", check(defaults.features.history_reductions)},
      {"SingularExtension", check(defaults.features.singular_extension)},
      {"ThreatsUnreduced", check(defaults.features.threats_unreduced)},
      {"CutNodeReductions", check(defaults.features.cut_node_reductions)},
      {"Razoring", check(defaults.features.razoring)},
      {"TimeStability", check(defaults.features.time_stability)},
      {"Player", "search"},
      {"MctsIterations", std::to_string(defaults.mcts_iterations)},
      {"RandomSeed", "0"},
  };
  for (const auto& [name, value] : options) {
    const auto error = session.set_option(name, value);
    FUZZ_CHECK(!error, "cannot reset option " + name + ": " + error.value_or(""));
  }
  const SearchParams default_params;
  for (const SearchParamSpec& param : kSearchParamSpecs) {
    const std::string name(param.name);
    const auto error = session.set_option(name, std::to_string(default_params.*param.field));
    FUZZ_CHECK(!error, "cannot reset parameter " + name + ": " + error.value_or(""));
  }
}

// A search the harness started: the position as the session has it (the harness follows the
// `position` commands with the same parser) and the legal `searchmoves`, as text.
struct Search {
  Game game;
  std::vector<std::string> search_moves;
};

std::vector<std::string> search_move_texts(const uqi::GoCommand& go) {
  std::vector<std::string> texts;
  for (const Move move : go.limits.search_moves) texts.push_back(to_string(move));
  for (const Move4 move : go.search_moves4) texts.push_back(to_string(move));
  return texts;
}

bool contains(const std::vector<std::string>& texts, std::string_view text) {
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

// Whether `moves` can be played in turn from the game's position.
bool playable(const Game& game, const std::vector<std::string_view>& moves) {
  std::string line = "fen " + game.text() + " moves";
  for (const std::string_view move : moves) line += " " + std::string(move);
  const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
  return uqi::parse_position_command(tokens).game.has_value();
}

void check_bestmove(const std::vector<std::string_view>& tokens, const Search& search,
                    const std::string& transcript) {
  const std::string_view best = tokens[1];
  const std::vector<std::string> legal = search.game.legal_move_texts();
  const std::string where = " in " + search.game.text() + "\ninput:\n" + transcript;
  if (legal.empty()) {
    FUZZ_CHECK(best == "0000" && tokens.size() == 2,
               "bestmove " + std::string(best) + " without a legal move" + where);
    return;
  }
  FUZZ_CHECK(contains(legal, best), "illegal bestmove " + std::string(best) + where);
  if (!search.search_moves.empty())
    FUZZ_CHECK(contains(search.search_moves, best),
               "bestmove " + std::string(best) + " is not one of the searchmoves" + where);
  if (tokens.size() == 4)
    FUZZ_CHECK(
        playable(search.game, {best, tokens[3]}),
        "illegal ponder move " + std::string(tokens[3]) + " after " + std::string(best) + where);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string_view> lines = fuzz::lines_of(fuzz::as_text(data, size));
  if (lines.size() > 64) lines.resize(64);

  Fixture& state = fixture();
  UqiSession& session = state.session;
  state.out.str("");
  state.out.clear();
  int searches = 0;
  std::vector<Search> started;
  Game game;  // the session's position, as `position` sets it
  int ready_requests = 0;
  bool options_set = false;
  std::string transcript;  // what was fed, for the failure message
  for (const std::string_view line : lines) {
    const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
    std::string fed(line);
    if (!tokens.empty()) {
      const std::string_view command = tokens[0];
      const std::span<const std::string_view> args =
          std::span<const std::string_view>(tokens).subspan(1);
      if (command == "bench") continue;
      if (command == "setoption") {
        if (too_costly(args)) continue;
        options_set = true;
      }
      if (command == "position") {
        if (auto position = uqi::parse_position_command(args); position.game)
          game = std::move(*position.game);
      }
      if (command == "go" && !uqi::parse_go_command(args).perft_depth) {
        fed += " depth 2";
        ++searches;
        started.push_back({game, search_move_texts(uqi::parse_go_command(args, game))});
      }
      if (command == "isready") ++ready_requests;
    }
    transcript += fed + "\n";
    if (!session.handle_line(fed)) break;
  }
  session.handle_line("stop");
  FUZZ_CHECK(!session.handle_line("quit"), "quit did not end the session");
  const std::string output = state.out.str();

  // Back to a new session's state for the next input.
  if (searches > 0) session.handle_line("uqinewgame");
  session.handle_line("position startpos");
  if (options_set) reset_options(session);
  state.out.str("");

  int bestmoves = 0;
  int readyoks = 0;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line == "readyok") ++readyoks;
    const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
    if (tokens.empty() || tokens[0] != "bestmove") continue;
    const auto best = uqi::parse_bestmove_line(line);
    FUZZ_CHECK(best && (tokens.size() == 2 || (tokens.size() == 4 && tokens[2] == "ponder")),
               "malformed " + line + "\nafter:\n" + transcript);
    FUZZ_CHECK(bestmoves < searches,
               "a bestmove without a search\ninput:\n" + transcript + "output:\n" + output);
    check_bestmove(tokens, started[std::size_t(bestmoves)], transcript);
    ++bestmoves;
  }
  FUZZ_CHECK(bestmoves == searches, std::to_string(searches) + " searches gave " +
                                        std::to_string(bestmoves) + " bestmove lines\ninput:\n" +
                                        transcript + "output:\n" + output);
  FUZZ_CHECK(readyoks == ready_requests, "isready/readyok mismatch\ninput:\n" + transcript);
  return 0;
}
