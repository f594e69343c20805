#include "uqi_session.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <istream>
#include <ostream>
#include <variant>

#include "board_display.hpp"
#include "core/host_yield.hpp"
#include "core/notation.hpp"
#include "core/perft.hpp"
#include "core/text_helpers.hpp"
#include "core/thread_start.hpp"
#include "search/evaluation.hpp"
#include "search/evaluation4.hpp"
#include "search/search_params.hpp"
#include "tb/probe_report.hpp"
#include "tb/tablebase.hpp"

#ifndef QUIXO_VERSION
#define QUIXO_VERSION "dev"
#endif

namespace quixo {

namespace {

constexpr std::string_view kEngineName = "Quixo " QUIXO_VERSION;
constexpr std::string_view kEngineAuthor = "the quixo project";

// The spin options: name as announced, range, and the EngineOptions field it sets.
struct SpinOption {
  std::string_view name;
  int min;
  int max;
  int EngineOptions::*field;
};
constexpr SpinOption kSpinOptions[] = {
    {"Hash", 1, 65536, &EngineOptions::hash_mb},
    {"Threads", 1, host::kHasThreads ? 256 : 1, &EngineOptions::threads},
    {"MoveOverhead", 0, 5000, &EngineOptions::move_overhead_ms},
    {"MultiPV", 1, 16, &EngineOptions::multipv},
};
// The strength options (engine/search/skill.hpp), named as Stockfish names them: Skill Level
// 0..20 (20: full strength), or with UCI_LimitStrength the calibrated UCI_Elo (0: the uniformly
// random mover).
struct StrengthSpin {
  std::string_view name;
  int min;
  int max;
  int StrengthOptions::*field;
};
const StrengthSpin kStrengthSpins[] = {
    {"UCI_Elo", 0, kEloMax, &StrengthOptions::elo},
    {"Skill Level", 0, kSkillLevelMax, &StrengthOptions::skill_level},
};
constexpr std::string_view kLimitStrengthOption = "UCI_LimitStrength";
constexpr std::string_view kPonderOption = "Ponder";
// The folder of the endgame tables (docs/spec.md §6); empty: none.
constexpr std::string_view kTablebasePathOption = "TablebasePath";
// The tables' cache of decoded blocks, in MiB. A search probes blocks all over a layer, and a miss
// decodes a whole block: with layers 0-3 loaded, 64 MiB ran the search at a quarter of its
// speed without tables and 1 GiB at about two thirds (scripts/tb-nps.py, README).
constexpr std::string_view kTablebaseCacheOption = "TablebaseCache";
constexpr int kTablebaseCacheMaxMb = 65536;
// Whether loading the tables reads every byte of each file against its checksum (a damaged block
// is otherwise found when a probe first decodes it): off, since it reads the whole files at every
// load (1.3 s for the 417 MB of layers 0-3 here, against 0.02 s without).
constexpr std::string_view kTablebaseCheckOption = "TablebaseCheck";

// The evaluation (hand-written or learned, a combo) and the learned weights' file (empty: the
// weights built into the engine).
constexpr std::string_view kEvaluationOption = "Evaluation";
constexpr std::string_view kEvalFileOption = "EvalFile";

// Who plays (a combo: the search, or a reference opponent of another kind, issue 31), the
// iterations of a Monte Carlo move, and the seed of every random choice (the levels', the Monte
// Carlo player's, the random mover's; 0: a seed from the system, so that two games differ).
constexpr std::string_view kPlayerOption = "Player";
struct PlayerName {
  std::string_view name;
  Player player;
};
constexpr PlayerName kPlayerNames[] = {
    {"search", Player::Search}, {"mcts", Player::Mcts}, {"random", Player::Random}};
constexpr std::string_view kMctsIterationsOption = "MctsIterations";
constexpr int kMctsIterationsMax = 10'000'000;
constexpr std::string_view kRandomSeedOption = "RandomSeed";
constexpr int kRandomSeedMax = 2'147'483'647;

// The search's switchable features as check options, so that the arena can measure each one
// (an SPRT of the engine with a feature against itself without it) without a rebuild.
struct CheckOption {
  std::string_view name;
  bool SearchFeatures::*field;
  bool two_player_only = false;  // the team search ignores it (FourPlayerVariant::applicable)
};
constexpr CheckOption kFeatureOptions[] = {
    {"AspirationWindows", &SearchFeatures::aspiration_windows},
    {"KillersAndHistory", &SearchFeatures::killers_and_history},
    {"LateMoveReductions", &SearchFeatures::late_move_reductions},
    {"ThreatExtension", &SearchFeatures::threat_extension, true},
    {"ParryThreats", &SearchFeatures::parry_threats, true},
    {"SymmetricTable", &SearchFeatures::symmetric_table, true},
    {"NullMovePruning", &SearchFeatures::null_move_pruning, true},
    {"ReverseFutility", &SearchFeatures::reverse_futility, true},
    {"LateMovePruning", &SearchFeatures::late_move_pruning, true},
    {"InternalIterativeReduction", &SearchFeatures::internal_iterative_reduction, true},
    {"ContinuationHistory", &SearchFeatures::continuation_history, true},
    {"HistoryReductions", &SearchFeatures::history_reductions, true},
    {"SingularExtension", &SearchFeatures::singular_extension, true},
    {"ThreatsUnreduced", &SearchFeatures::threats_unreduced, true},
    {"CutNodeReductions", &SearchFeatures::cut_node_reductions, true},
    {"Razoring", &SearchFeatures::razoring, true},
    {"TimeStability", &SearchFeatures::time_stability, true},
};

// Option names compare case-insensitively and without spaces ("move overhead" = MoveOverhead).
std::string option_key(std::string_view name) {
  std::string key;
  for (const char c : text_helpers::to_lower(name))
    if (c != ' ') key += c;
  return key;
}

// The session's two-player Engine or its four-player Engine4.
template <bool kFourPlayer>
auto& engine_of(Engine& two_player, Engine4& four_player) {
  if constexpr (kFourPlayer)
    return four_player;
  else
    return two_player;
}

// A spin option's value, or the sentence that says what is wrong with it.
std::variant<int, std::string> spin_value(std::string_view name, int min, int max,
                                          std::optional<std::string_view> value) {
  const std::string range = std::to_string(min) + " to " + std::to_string(max);
  if (!value || value->empty())
    return "option " + std::string(name) + " needs a value from " + range;
  const auto number = text_helpers::parse_integer(*value);
  if (!number)
    return "option " + std::string(name) + ": " + text_helpers::quoted(*value) +
           " is not a whole number (expected " + range + ")";
  if (*number < min || *number > max)
    return "option " + std::string(name) + ": " + text_helpers::quoted(*value) +
           " is out of range (expected " + range + ")";
  return int(*number);
}

// A check option's value, or the sentence that says what is wrong with it.
std::variant<bool, std::string> check_value(std::string_view name,
                                            std::optional<std::string_view> value) {
  const std::string text = value ? text_helpers::to_lower(*value) : std::string();
  if (text != "true" && text != "false")
    return "option " + std::string(name) + " needs the value true or false, not " +
           (value ? text_helpers::quoted(*value) : std::string("nothing"));
  return text == "true";
}

}  // namespace

UqiSession::UqiSession(std::ostream& out, bool tuning) : out_(out), tuning_(tuning) {
  options_ = engine_.options();
  learned_evaluation_ = engine_.evaluator().learned() != nullptr;
  engine4_.set_options(options_);
}

UqiSession::~UqiSession() {
  try {
    stop_and_wait();
  } catch (...) {
    // Nothing sensible to report from a destructor; the engine stops its own threads.
  }
}

// ------------------------------------------------------------------------------------ output

void UqiSession::send(std::string_view line) {
  const std::lock_guard lock(out_mutex_);
  out_ << line << '\n';
  out_.flush();
}

void UqiSession::send_lines(const std::vector<std::string>& lines) {
  const std::lock_guard lock(out_mutex_);
  for (const std::string& line : lines) out_ << line << '\n';
  out_.flush();
}

void UqiSession::send_info_string(std::string_view text) {
  send(uqi::format_info_string(text));
}

// ----------------------------------------------------------------------------------- control

void UqiSession::stop_and_wait() {
  perft_cancel_ = true;
  if (perft_thread_.joinable()) perft_thread_.join();
  engine_.stop();
  engine4_.stop();
  engine_.wait();
  engine4_.wait();
  release_held_bestmove();
}

void UqiSession::release_held_bestmove() {
  if (!held_bestmove_) return;
  send(*held_bestmove_);
  held_bestmove_.reset();
  held_until_ponderhit_ = false;
}

void UqiSession::run(std::istream& in) {
  // std::cin is tied to std::cout: every read would flush the output outside the output mutex
  // while the search thread writes. Every line is flushed anyway, so the tie is not needed.
  std::ostream* const tied = in.tie(nullptr);
  std::string line;
  bool quit = false;
  while (!quit) {
    const text_helpers::LineRead read =
        text_helpers::read_line(in, line, kMaxInputLineMebibytes << 20);
    if (read == text_helpers::LineRead::End) break;
    if (read == text_helpers::LineRead::TooLong)
      refuse_too_long_line();
    else
      quit = !handle_line(line);
  }
  if (!quit) handle_line("quit");
  in.tie(tied);
}

void UqiSession::refuse_too_long_line() {
  send_info_string("error: an input line longer than " + std::to_string(kMaxInputLineMebibytes) +
                   " MiB was ignored");
}

bool UqiSession::handle_line(std::string_view line) {
  const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
  if (tokens.empty()) return true;
  const std::string_view command = tokens[0];
  const Args args = Args(tokens).subspan(1);
  try {
    if (command == "quit") {
      stop_and_wait();
      return false;
    }
    if (command == "isready") {
      send("readyok");
    } else if (command == "uqi" || command == "ugi") {
      handshake(command == "ugi");
    } else if (command == "uqinewgame" || command == "uginewgame" || command == "ucinewgame") {
      stop_and_wait();
      engine_.new_game();
      engine4_.new_game();
    } else if (command == "setoption") {
      setoption(args);
    } else if (command == "position") {
      position(args);
    } else if (command == "go") {
      go(args);
    } else if (command == "stop") {
      perft_cancel_ = true;
      engine_.stop();
      engine4_.stop();
      release_held_bestmove();
    } else if (command == "ponderhit") {
      engine_.ponderhit();
      engine4_.ponderhit();
      if (held_until_ponderhit_) release_held_bestmove();
    } else if (command == "d") {
      display();
    } else if (command == "eval") {
      evaluate();
    } else if (command == "tb") {
      table_report();
    } else if (command == "bench") {
      bench();
    } else if (command == "query") {
      query(args);
    } else if (command == "debug" || command == "register") {
      // Accepted and ignored, as UCI allows.
    } else {
      send_info_string("unknown command " + text_helpers::quoted(command));
    }
  } catch (const std::exception& e) {
    // Whatever goes wrong with one command, the session goes on.
    send_info_string(std::string("error: ") + e.what());
  }
  return true;
}

// ---------------------------------------------------------------------------------- commands

void UqiSession::handshake(bool ugi) {
  std::vector<std::string> lines = {"id name " + std::string(kEngineName),
                                    "id author " + std::string(kEngineAuthor)};
  const EngineOptions defaults;
  for (const SpinOption& spin : kSpinOptions)
    lines.push_back(uqi::format_option_line({std::string(spin.name),
                                             "spin",
                                             std::to_string(defaults.*spin.field),
                                             spin.min,
                                             spin.max,
                                             {}}));
  lines.push_back(uqi::format_option_line(
      {std::string(kPonderOption), "check", "false", std::nullopt, std::nullopt, {}}));
  lines.push_back(uqi::format_option_line({std::string(kLimitStrengthOption),
                                           "check",
                                           defaults.strength.limit_strength ? "true" : "false",
                                           std::nullopt,
                                           std::nullopt,
                                           {}}));
  for (const StrengthSpin& spin : kStrengthSpins)
    lines.push_back(uqi::format_option_line({std::string(spin.name),
                                             "spin",
                                             std::to_string(defaults.strength.*spin.field),
                                             spin.min,
                                             spin.max,
                                             {}}));
  for (const CheckOption& check : kFeatureOptions)
    lines.push_back(uqi::format_option_line({std::string(check.name),
                                             "check",
                                             defaults.features.*check.field ? "true" : "false",
                                             std::nullopt,
                                             std::nullopt,
                                             {}}));
  lines.push_back(uqi::format_option_line(
      {std::string(kTablebasePathOption), "string", "", std::nullopt, std::nullopt, {}}));
  lines.push_back(uqi::format_option_line({std::string(kTablebaseCacheOption),
                                           "spin",
                                           std::to_string(kDefaultTablebaseCacheMb),
                                           1,
                                           kTablebaseCacheMaxMb,
                                           {}}));
  lines.push_back(uqi::format_option_line(
      {std::string(kTablebaseCheckOption), "check", "false", std::nullopt, std::nullopt, {}}));
  lines.push_back(uqi::format_option_line({std::string(kEvaluationOption),
                                           "combo",
                                           Evaluator::standard().learned() ? "learned" : "hand",
                                           std::nullopt,
                                           std::nullopt,
                                           {"hand", "learned"}}));
  lines.push_back(uqi::format_option_line(
      {std::string(kEvalFileOption), "string", "", std::nullopt, std::nullopt, {}}));
  std::vector<std::string> player_names;
  for (const PlayerName& player : kPlayerNames) player_names.emplace_back(player.name);
  lines.push_back(uqi::format_option_line(
      {std::string(kPlayerOption), "combo", "search", std::nullopt, std::nullopt, player_names}));
  lines.push_back(uqi::format_option_line({std::string(kMctsIterationsOption),
                                           "spin",
                                           std::to_string(defaults.mcts_iterations),
                                           1,
                                           kMctsIterationsMax,
                                           {}}));
  lines.push_back(uqi::format_option_line(
      {std::string(kRandomSeedOption), "spin", "0", 0, kRandomSeedMax, {}}));
  // Last, so that the options a GUI shows keep their order.
  if (tuning_)
    for (const SearchParamSpec& param : kSearchParamSpecs)
      lines.push_back(uqi::format_option_line({std::string(param.name),
                                               "spin",
                                               std::to_string(defaults.params.*param.field),
                                               param.min,
                                               param.max,
                                               {}}));
  lines.push_back(ugi ? "ugiok" : "uqiok");
  send_lines(lines);
}

std::optional<std::string> UqiSession::set_option(std::string_view name,
                                                  std::optional<std::string_view> value) {
  const std::string key = option_key(name);
  if (key == option_key(kTablebasePathOption)) {
    // GUIs write an empty string option as <empty>, as it is announced.
    const std::string_view path = value && *value != "<empty>" ? *value : std::string_view();
    return set_tablebase_path(std::string(path));
  }
  if (key == option_key(kTablebaseCacheOption)) {
    const std::variant<int, std::string> number =
        spin_value(kTablebaseCacheOption, 1, kTablebaseCacheMaxMb, value);
    if (const auto* error = std::get_if<std::string>(&number)) return *error;
    tablebase_cache_mb_ = std::get<int>(number);
    // Loaded tables are loaded again with the new cache.
    return tables_ ? set_tablebase_path(tablebase_path_) : std::nullopt;
  }
  if (key == option_key(kTablebaseCheckOption)) {
    const std::variant<bool, std::string> check = check_value(kTablebaseCheckOption, value);
    if (const auto* error = std::get_if<std::string>(&check)) return *error;
    const bool was = tablebase_check_;
    tablebase_check_ = std::get<bool>(check);
    // Loaded tables are checked when the check is switched on.
    return tables_ && tablebase_check_ && !was ? set_tablebase_path(tablebase_path_) : std::nullopt;
  }
  if (key == option_key(kEvaluationOption) || key == option_key(kEvalFileOption))
    return set_evaluation(
        key == option_key(kEvaluationOption) ? kEvaluationOption : kEvalFileOption, value);
  if (key == option_key(kPlayerOption)) {
    const std::string text = value ? text_helpers::to_lower(*value) : std::string();
    for (const PlayerName& player : kPlayerNames) {
      if (text != player.name) continue;
      EngineOptions changed = options_;
      changed.player = player.player;
      apply_options(changed);
      return std::nullopt;
    }
    return "option Player needs the value search, mcts or random, not " +
           (value ? text_helpers::quoted(*value) : std::string("nothing"));
  }
  if (key == option_key(kMctsIterationsOption) || key == option_key(kRandomSeedOption)) {
    const bool iterations = key == option_key(kMctsIterationsOption);
    const std::variant<int, std::string> number =
        iterations ? spin_value(kMctsIterationsOption, 1, kMctsIterationsMax, value)
                   : spin_value(kRandomSeedOption, 0, kRandomSeedMax, value);
    if (const auto* error = std::get_if<std::string>(&number)) return *error;
    EngineOptions changed = options_;
    if (iterations)
      changed.mcts_iterations = std::get<int>(number);
    else
      changed.strength.random_seed = std::uint64_t(std::get<int>(number));
    apply_options(changed);
    return std::nullopt;
  }
  if (key == option_key(kPonderOption)) {
    const std::variant<bool, std::string> check = check_value(kPonderOption, value);
    if (const auto* error = std::get_if<std::string>(&check)) return *error;
    ponder_option_ = std::get<bool>(check);
    return std::nullopt;
  }
  for (const CheckOption& feature : kFeatureOptions) {
    if (key != option_key(feature.name)) continue;
    const std::variant<bool, std::string> check = check_value(feature.name, value);
    if (const auto* error = std::get_if<std::string>(&check)) return *error;
    EngineOptions changed = options_;
    changed.features.*feature.field = std::get<bool>(check);
    apply_options(changed);
    return std::nullopt;
  }
  if (key == option_key(kLimitStrengthOption)) {
    const std::variant<bool, std::string> check = check_value(kLimitStrengthOption, value);
    if (const auto* error = std::get_if<std::string>(&check)) return *error;
    EngineOptions changed = options_;
    changed.strength.limit_strength = std::get<bool>(check);
    apply_options(changed);
    return std::nullopt;
  }
  for (const StrengthSpin& spin : kStrengthSpins) {
    if (key != option_key(spin.name)) continue;
    const std::variant<int, std::string> number = spin_value(spin.name, spin.min, spin.max, value);
    if (const auto* error = std::get_if<std::string>(&number)) return *error;
    EngineOptions changed = options_;
    changed.strength.*spin.field = std::get<int>(number);
    apply_options(changed);
    return std::nullopt;
  }
  for (const SpinOption& spin : kSpinOptions) {
    if (key != option_key(spin.name)) continue;
    const std::variant<int, std::string> number = spin_value(spin.name, spin.min, spin.max, value);
    if (const auto* error = std::get_if<std::string>(&number)) return *error;
    EngineOptions changed = options_;
    changed.*spin.field = std::get<int>(number);
    apply_options(changed);
    return std::nullopt;
  }
  // Without --tune these names are unknown, as any other: the answer below.
  for (const SearchParamSpec& param : kSearchParamSpecs) {
    if (!tuning_ || key != option_key(param.name)) continue;
    const std::variant<int, std::string> number =
        spin_value(param.name, param.min, param.max, value);
    if (const auto* error = std::get_if<std::string>(&number)) return *error;
    EngineOptions changed = options_;
    changed.params.*param.field = std::get<int>(number);
    apply_options(changed);
    return std::nullopt;
  }
  return "no such option " + text_helpers::quoted(name);
}

std::optional<std::string> UqiSession::set_tablebase_path(const std::string& path) {
  stop_and_wait();
  if (path.empty()) {
    if (tables_) send_info_string("tablebase: unloaded");
    tables_.reset();
    engine_.set_tablebase(nullptr);
    return std::nullopt;
  }
  const std::string unchanged = tables_ ? " (the tables loaded before stay)" : "";
  std::error_code error;
  if (!std::filesystem::is_directory(path, error))
    return "option TablebasePath: " + text_helpers::quoted(path) + " is not a folder" + unchanged;
  auto tables = std::make_shared<tb::Tablebase>();
  const tb::Tablebase::LoadReport report =
      tables->load(path, std::size_t(tablebase_cache_mb_) << 20, tablebase_check_);
  for (const std::string& problem : report.problems)
    send_info_string("error: tablebase: refused " + problem);
  if (report.layers.empty())
    return "option TablebasePath: no usable table file in " + text_helpers::quoted(path) +
           unchanged;
  // Such a layer's distances are not to the end of the game: the search's scores and its choice
  // of the fastest win would be wrong with it.
  if (const std::vector<int> exits = tables->layers_counting_to_exit(); !exits.empty())
    return "option TablebasePath: " + text_helpers::quoted(path) + " holds tables made for " +
           "training (layer " + std::to_string(exits.front()) +
           " counts plies to a blank cube taken, quixo-tb generate --distance-to exit), not " +
           "for play" + unchanged;
  send_info_string("tablebase: " + tables->describe() + " loaded from " + path);
  std::string without_wdl;
  int without_wdl_count = 0;
  for (const int layer : report.layers)
    if (!tables->has_wdl_file(layer)) {
      without_wdl += " " + std::to_string(layer);
      ++without_wdl_count;
    }
  if (!without_wdl.empty())
    send_info_string(std::string("tablebase: no win/draw/loss file for ") +
                     (without_wdl_count == 1 ? "layer" : "layers") + without_wdl +
                     ": the search probes them through the layer files, slower (quixo-tb "
                     "generate --blanks " +
                     std::to_string(report.layers.back()) + " --dir DIR writes the files)");
  tables_ = std::move(tables);
  tablebase_path_ = path;
  reported_table_problem_.clear();
  engine_.set_tablebase(tables_);
  return std::nullopt;
}

std::optional<std::string> UqiSession::set_evaluation(std::string_view name,
                                                      std::optional<std::string_view> value) {
  if (name == kEvaluationOption) {
    const std::string text = value ? text_helpers::to_lower(*value) : std::string();
    if (text != "hand" && text != "learned")
      return "option Evaluation needs the value hand or learned, not " +
             (value ? text_helpers::quoted(*value) : std::string("nothing"));
    learned_evaluation_ = text == "learned";
  } else {
    // GUIs write an empty string option as <empty>, as it is announced.
    const std::string path = value && *value != "<empty>" ? std::string(*value) : std::string();
    if (path.empty()) {
      eval_weights_.reset();
      team_eval_weights_.reset();
      send_info_string("evaluation weights: built in");
    } else {
      // The file's magic says which game's weights it holds; the other game's stay.
      try {
        const std::vector<std::byte> bytes = patterns::read_weights_file(
            path, std::max(patterns::PatternWeights::kMaxFileMebibytes,
                           patterns::TeamPatternWeights::kMaxFileMebibytes));
        if (patterns::TeamPatternWeights::is_team_file(bytes)) {
          team_eval_weights_ = std::make_shared<const patterns::TeamPatternWeights>(
              patterns::parse_weights_file<patterns::TeamPatternWeights>(path, bytes));
          send_info_string("evaluation weights: four-player weights loaded from " + path);
        } else {
          eval_weights_ = std::make_shared<const patterns::PatternWeights>(
              patterns::parse_weights_file<patterns::PatternWeights>(path, bytes));
          send_info_string("evaluation weights: loaded from " + path);
        }
      } catch (const patterns::WeightsFileError& error) {
        return "option EvalFile: " + std::string(error.what()) +
               (eval_weights_ || team_eval_weights_ ? " (the weights loaded before stay)"
                                                    : " (the built-in weights stay)");
      }
    }
  }
  stop_and_wait();
  engine_.set_evaluator(Evaluator::chosen(learned_evaluation_, eval_weights_));
  engine4_.set_evaluator(TeamEvaluator::chosen(learned_evaluation_, team_eval_weights_));
  return std::nullopt;
}

void UqiSession::report_table_problem() {
  if (!tables_) return;
  const std::string problem = tables_->last_problem();
  if (problem.empty() || problem == reported_table_problem_) return;
  reported_table_problem_ = problem;
  send_info_string("error: tablebase: " + problem);
}

void UqiSession::apply_options(const EngineOptions& changed) {
  if (changed == options_) return;
  stop_and_wait();
  // Each engine keeps its old options when it cannot take the new ones (a hash table that
  // cannot be allocated): undo the first when the second fails, so both stay as they were.
  engine_.set_options(changed);
  try {
    engine4_.set_options(changed);
  } catch (...) {
    engine_.set_options(options_);
    throw;
  }
  options_ = changed;
}

void UqiSession::setoption(Args args) {
  const auto command = uqi::parse_setoption_command(args);
  if (!command) {
    send_info_string("error: expected 'setoption name <name> [value <value>]'");
    return;
  }
  const std::optional<std::string_view> value =
      command->value ? std::optional<std::string_view>(*command->value) : std::nullopt;
  if (const auto error = set_option(command->name, value)) send_info_string("error: " + *error);
}

void UqiSession::position(Args args) {
  stop_and_wait();
  uqi::PositionCommand command = uqi::parse_position_command(args);
  for (const std::string& note : command.notes) send_info_string(note);
  if (!command.game) {
    send_info_string("error: " + command.error + " (the position is unchanged)");
    return;
  }
  game_ = std::move(*command.game);
}

template <class PositionT, class MoveT>
void UqiSession::send_legal_bestmove(const PositionT& position, MoveT best, MoveT ponder) {
  if (!position.is_legal(best)) {
    const auto legal = position.legal_moves();
    if (legal.empty()) {
      send(uqi::format_bestmove("0000"));
      return;
    }
    send_info_string("error: the search returned " + text_helpers::quoted(to_string(best)) +
                     ", not a legal move; playing the first legal move");
    best = legal[0];
    ponder = MoveT::none();
  }
  if (!ponder.is_none() && !position.after(best).is_legal(ponder)) ponder = MoveT::none();
  send(uqi::format_bestmove(best, ponder));
}

void UqiSession::go(Args args) {
  stop_and_wait();
  const uqi::GoCommand command = uqi::parse_go_command(args, game_);
  for (const std::string& note : command.notes) send_info_string(note);
  if (command.perft_depth) {
    go_perft(*command.perft_depth);
    return;
  }
  if (game_.legal_move_texts().empty()) {
    answer_without_search(command.limits, "the game is over, there is no legal move", "0000");
    return;
  }
  game_.visit([&](const auto& line) { search(command, line); });
}

template <class PositionT>
void UqiSession::search(const uqi::GoCommand& command, const GameLine<PositionT>& line) {
  constexpr bool kFourPlayer = std::is_same_v<PositionT, Position4>;
  const PositionT position = line.position;
  SearchLimits limits = command.limits;
  if constexpr (kFourPlayer) {
    note_options_without_effect_on_four_players();
    // A seat without a clock of its own (a GUI that sends only xtime/otime, p1time/p2time) plays
    // on its team's.
    limits.search_moves.clear();
    limits.seat_time_ms = command.seat_time_ms;
    limits.seat_increment_ms = command.seat_increment_ms;
  }
  auto& engine = engine_of<kFourPlayer>(engine_, engine4_);
  engine.set_position(position, line.history);
  BasicSearchCallbacks<MoveOf<PositionT>> callbacks;
  callbacks.on_info = [this](const auto& info) { this->send(uqi::format_info(info)); };
  callbacks.on_note = [this](const std::string& note) { this->send_info_string(note); };
  callbacks.on_bestmove = [this, position](auto best, auto ponder) {
    if constexpr (!kFourPlayer) this->report_table_problem();
    this->send_legal_bestmove(position, best, ponder);
  };
  try {
    if constexpr (kFourPlayer)
      engine.go(limits, std::move(callbacks), command.search_moves4);
    else
      engine.go(limits, std::move(callbacks));
  } catch (const std::exception& e) {
    send_info_string(std::string("error: the search could not start: ") + e.what());
    send(uqi::format_bestmove(to_string(position.legal_moves()[0])));
  }
}

void UqiSession::note_options_without_effect_on_four_players() {
  // The team search has one principal variation and no threat extension, parry pruning,
  // symmetric table or issue 29's pruning and continuation history; everything else (Hash,
  // Threads, MoveOverhead, Ponder, Evaluation and EvalFile, the other features, the search's
  // parameters of --tune) applies to it. A two-player feature is noted when it is switched on
  // beyond the defaults: one on by default would otherwise be noted at every game.
  std::vector<std::string_view> unused;
  if (options_.multipv > 1) unused.push_back("MultiPV");
  const SearchFeatures defaults;
  for (const CheckOption& check : kFeatureOptions)
    if (check.two_player_only && options_.features.*check.field && !(defaults.*check.field))
      unused.push_back(check.name);
  for (const std::string_view name : unused)
    if (four_player_notes_sent_.insert(std::string(name)).second)
      send_info_string("option " + std::string(name) +
                       " applies to two-player positions only: the four-player search ignores it");
}

void UqiSession::answer_without_search(const SearchLimits& limits, std::string_view reason,
                                       const std::string& move) {
  send_info_string(reason);
  held_bestmove_ = uqi::format_bestmove(move);
  held_until_ponderhit_ = limits.ponder && !limits.infinite;
  if (!limits.infinite && !limits.ponder) release_held_bestmove();
}

void UqiSession::go_perft(int depth) {
  if (depth > kMaxPerftDepth) {
    send_info_string("error: perft depth " + std::to_string(depth) + " is above " +
                     std::to_string(kMaxPerftDepth));
    return;
  }
  perft_cancel_ = false;
  if constexpr (!host::kHasThreads) {
    // One thread (host_yield.hpp): the count runs to its end before the next command is read.
    perft(game_, depth);
    return;
  }
  // The thread counts its own copy of the game: a later `position` first stops it anyway.
  try {
    perft_thread_ = start_thread([this, depth, game = game_] { perft(game, depth); });
  } catch (const std::system_error& error) {
    send_info_string("error: perft: " + thread_start_failure(0, 1, error));
  }
}

void UqiSession::perft(const Game& game, int depth) {
  game.visit([&](const auto& variant) {
    const std::size_t move_count = variant.position.legal_moves().size();
    std::size_t moves_done = 0;
    std::uint64_t total = depth == 0 ? 1 : 0;
    const bool complete =
        divide(variant.position, depth, perft_cancel_, [&](auto move, std::uint64_t count) {
          send(to_string(move) + ": " + std::to_string(count));
          total += count;
          ++moves_done;
        });
    if (complete) {
      send_lines({"", "Nodes searched: " + std::to_string(total)});
    } else {
      // No `Nodes searched` line: a tool that reads it must never take a partial count
      // for the full one.
      send_info_string("perft stopped after " + std::to_string(moves_done) + " of " +
                       std::to_string(move_count) + " moves: partial count " +
                       std::to_string(total));
    }
  });
}

void UqiSession::display() {
  std::vector<std::string> lines = {""};
  for (std::string& line : uqi::draw_game(game_)) lines.push_back(std::move(line));
  lines.push_back("");
  send_lines(lines);
}

void UqiSession::evaluate() {
  const auto* two = game_.two_player();
  std::vector<std::string> lines =
      two ? engine_.evaluator().breakdown_lines(two->position)
          : engine4_.evaluator().breakdown_lines(game_.four_player()->position);
  for (std::string& line : lines) line = "info string eval: " + line;
  send_lines(lines);
}

void UqiSession::table_report() {
  const auto* two = game_.two_player();
  if (!two) {
    send_info_string("tb: the four-player game has no tables");
    return;
  }
  const Position& position = two->position;
  if (!tables_) {
    send_info_string("tb: no tables loaded (set the option TablebasePath)");
    return;
  }
  if (position.is_game_over()) {
    send_info_string("tb: the game is over (" + to_string(position.outcome()) + ")");
    return;
  }
  const auto report = tb::probe_report(*tables_, position);
  if (!report) {
    report_table_problem();  // a corrupt block that dropped a layer, named as after a search
    send_info_string("tb: position not in the tables (" +
                     std::to_string(std::popcount(position.blanks())) + " blank cubes; " +
                     tables_->describe() + " loaded)");
    return;
  }
  std::vector<std::string> lines = tb::format_probe_report(*report);
  for (std::string& line : lines) line = uqi::format_info_string("tb: " + line);
  send_lines(lines);
}

void UqiSession::bench() {
  stop_and_wait();
  const auto start = std::chrono::steady_clock::now();
  // Both variants' searches: the total is the signature of the whole engine.
  const auto report = [&](const std::string& line) { send(line); };
  const std::uint64_t nodes = engine_.bench(report) + engine4_.bench(report);
  const std::int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - start)
                              .count();
  // docs/spec.md §5: the node total is the last line.
  send_lines({"Total time (ms) : " + std::to_string(ms),
              "Nodes/second    : " + std::to_string(nodes * 1000 / std::uint64_t(ms > 0 ? ms : 1)),
              "Nodes searched : " + std::to_string(nodes)});
}

void UqiSession::query(Args args) {
  const std::string_view what = args.empty() ? std::string_view() : args[0];
  const Outcome outcome = game_.outcome();
  // The arena's convention (docs/spec.md §4): a threefold repetition is a draw.
  const bool repetition_draw = game_.repetition_count() >= 3;
  if (what == "p1turn") {
    const bool x_to_move = game_.team_to_move() == Color::X;
    send(std::string("response ") + (x_to_move ? "true" : "false"));
  } else if (what == "gameover") {
    send(std::string("response ") +
         (outcome != Outcome::Ongoing || repetition_draw ? "true" : "false"));
  } else if (what == "result") {
    const char* result = outcome == Outcome::XWins   ? "p1win"
                         : outcome == Outcome::OWins ? "p2win"
                         : repetition_draw           ? "draw"
                                                     : "none";
    send(std::string("response ") + result);
  } else {
    send_info_string("error: expected 'query p1turn', 'query gameover' or 'query result'");
  }
}

}  // namespace quixo
