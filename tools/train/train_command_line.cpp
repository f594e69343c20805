#include "train_command_line.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <numeric>
#include <ostream>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/symmetry.hpp"
#include "data_sources.hpp"
#include "fit.hpp"
#include "program_options_message.hpp"
#include "search/pattern_evaluation.hpp"
#include "search/team_pattern_evaluation.hpp"
#include "search_ranking.hpp"
#include "tb/tablebase.hpp"
#include "team_data.hpp"
#include "training_data.hpp"
#include "value_keeping.hpp"

namespace quixo::train {

namespace {

namespace po = boost::program_options;

constexpr int kExitDone = 0;
constexpr int kExitUsage = 2;

constexpr const char* kUsage =
    "Usage: quixo-train COMMAND [options]\n"
    "\n"
    "Trains the learned pattern evaluation (docs/design/learned-evaluation.md).\n"
    "\n"
    "Commands:\n"
    "  data --out DATA [--tables DIR]     build a data set: endgame-table positions with their\n"
    "                                     exact values, self-play positions with the games'\n"
    "                                     results, and some of those scored by a deeper search\n"
    "  fit --data DATA... --out FILE.qev  fit K on the hand-written evaluation, then the weights\n"
    "                                     (logistic regression, Adam), and write the weights file\n"
    "  all --tables DIR --out FILE.qev    data then fit, with the settings of the shipped weights\n"
    "                                     (the data set goes to --work, default: the out folder)\n"
    "  keep --tables DIR                  the share of value-keeping moves of the hand-written\n"
    "                                     and the learned evaluation on held-out table positions,\n"
    "                                     searched without the tables at a fixed time (or\n"
    "                                     --nodes) per move\n"
    "  merge --weights FILE.qev --from OTHER.qev --phases P... --out OUT.qev\n"
    "                                     FILE's weights with those of the phases P taken from\n"
    "                                     OTHER (a phase fitted once kept beside a refit)\n"
    "  rank --tables DIR --positions FILE... --out FILE.qev\n"
    "                                     fit the weights to the search's own choices: each\n"
    "                                     child of a won or drawn table position searched, the\n"
    "                                     evaluation of its line's end pushed toward the children\n"
    "                                     that keep the value (--learning-rate 0: only measure)\n"
    "  team --out FILE.qe4                the learned team evaluation (four players): team\n"
    "                                     self-play, deeper searches of a fifth of its\n"
    "                                     positions, the fit, with the settings of the shipped\n"
    "                                     team weights\n"
    "\n"
    "`quixo-train COMMAND --help` lists a command's options. Only positions in the\n"
    "evaluation's domain are kept: the game goes on, the side to move has no win in one, and\n"
    "some move does not lose at once. Table positions whose hash is 0 mod 16 are held out for\n"
    "validation and never trained on; so are 10 % of the self-play games. The same options\n"
    "give the same data and weights.\n";

const char* const kDataFileName = "train-data.qtd";
constexpr int kTeamGames = 20000;
constexpr std::uint64_t kTeamNodes = 2000;

// Options as the commands share them.
po::options_description common_options() {
  po::options_description options("General options", 100);
  options.add_options()("help,h", "show this help and exit")(
      "out,o", po::value<std::string>(), "the file to write (data set, or weights)")(
      "seed", unsigned_value<std::uint64_t>(1), "random seed")(
      "threads", po::value<int>()->default_value(2),
      "threads: self-play games and deep searches at once");
  return options;
}

// A real-valued option whose default --help shows as written ("0.05", not
// "0.050000000000000003").
po::typed_value<double>* with_default(double value) {
  std::ostringstream text;
  text << value;
  return po::value<double>()->default_value(value, text.str());
}

// The team game's defaults (`team`), those of its shipped team weights: 20,000 games at 2,000
// nodes a move, and deeper searches of a fifth of their positions (there are no table
// positions, so the deeper scores carry more of the labels).
SelfPlaySettings team_self_play_defaults() {
  SelfPlaySettings play;
  play.games = kTeamGames;
  play.nodes = kTeamNodes;
  return play;
}

// The defaults are the settings structs' own, which are the settings of the shipped weights.
po::options_description data_options(bool team) {
  const TableSampleSettings tables;
  const SelfPlaySettings play = team ? team_self_play_defaults() : SelfPlaySettings();
  const DeepSearchSettings deep;
  po::options_description options("Data options", 100);
  auto add = options.add_options();
  if (!team) {
    add("tables", po::value<std::string>(), "folder of endgame table files (layers 0..6)");
    add("table-positions", po::value<std::int64_t>()->default_value(std::int64_t(tables.positions)),
        "table positions in all, equal shares over the loaded layers");
    add("table-cache-mb", po::value<std::int64_t>()->default_value(1024),
        "decoded-block cache of the tables");
  }
  add("games", po::value<std::int64_t>()->default_value(play.games), "self-play games");
  add("nodes", po::value<std::int64_t>()->default_value(std::int64_t(play.nodes)),
      "self-play nodes per move");
  add("random-move-rate", with_default(play.random_move_rate),
      "chance that a self-play move is a random safe move");
  add("opening-min-plies", po::value<int>()->default_value(play.opening_min_plies),
      "random opening plies, at least");
  add("opening-max-plies", po::value<int>()->default_value(play.opening_max_plies),
      "random opening plies, at most");
  add("max-plies", po::value<int>()->default_value(play.max_plies), "a game this long is a draw");
  add("deep", po::value<std::int64_t>(),
      team ? "self-play positions to search deeper (default: a fifth of them)"
           : "self-play positions to search deeper (default: a tenth of them)");
  add("deep-nodes", po::value<std::int64_t>(),
      "nodes of a deeper search (default: 20 times --nodes)");
  add("deep-depth", po::value<int>()->default_value(deep.depth),
      "depth of a deeper search instead of nodes (0: use nodes)");
  add("hash", po::value<int>()->default_value(play.hash_mb),
      "MB of transposition table per engine");
  add("evaluation", po::value<std::string>()->default_value("hand"),
      "what the self-play and deeper searches evaluate with: hand, or learned (the built-in "
      "weights, or --eval-file's) for the data of a next generation");
  add("eval-file", po::value<std::string>(), "the learned weights they use (implies learned)");
  return options;
}

po::options_description fit_options(bool with_data_files) {
  const FitSettings fit;
  po::options_description options("Fit options", 100);
  auto add = options.add_options();
  if (with_data_files)
    add("data", po::value<std::vector<std::string>>()->multitoken(),
        "data sets to fit on (one or more files)");
  add("k", with_default(fit.scale),
      "the scale K of sigmoid(eval / K) (0: fit it on the hand evaluation)");
  add("epochs", po::value<int>()->default_value(fit.epochs), "epochs at most");
  add("patience", po::value<int>()->default_value(fit.patience),
      "stop after this many epochs without a better validation loss");
  add("batch-size", po::value<int>()->default_value(fit.batch_size), "records per Adam step");
  add("learning-rate", with_default(fit.learning_rate), "Adam's step (logit units)");
  add("l2", with_default(fit.l2), "L2 penalty per weight (logit units)");
  add("table-weight", with_default(fit.source_weights[0]), "weight of table records");
  add("game-weight", with_default(fit.source_weights[1]), "weight of self-play records");
  add("deep-weight", with_default(fit.source_weights[2]), "weight of deep-search records");
  return options;
}

po::options_description keep_options() {
  const ValueKeepingSettings keep;
  po::options_description options("Value-keeping options", 100);
  auto add = options.add_options();
  add("tables", po::value<std::string>(), "folder of endgame table files (layers 1.. are used)");
  add("table-cache-mb", po::value<std::int64_t>()->default_value(1024),
      "decoded-block cache of the tables");
  add("positions", po::value<int>()->default_value(keep.positions),
      "held-out positions, equal shares over the loaded layers 1..");
  add("movetime", po::value<int>()->default_value(keep.move_time_ms), "milliseconds per move");
  add("nodes", po::value<std::int64_t>(), "nodes per move instead of --movetime");
  add("min-win-plies", po::value<int>()->default_value(keep.min_win_plies),
      "a won position counts when its win takes at least this many plies");
  add("max-keeping-percent", po::value<int>()->default_value(keep.max_keeping_percent),
      "a position counts when at most this share of its moves keeps its value");
  add("values", po::value<std::string>()->default_value("both"),
      "the positions' values that count: win, draw or both");
  add("evaluations", po::value<std::string>()->default_value("both"),
      "the evaluations measured: hand, learned or both");
  add("eval-file", po::value<std::string>(),
      "weights of the learned evaluation (default: the ones built into the engine)");
  return options;
}

po::options_description merge_options() {
  po::options_description options("Merge options", 100);
  auto add = options.add_options();
  add("weights", po::value<std::string>(), "the weights file kept outside the phases named");
  add("from", po::value<std::string>(),
      "the weights file the phases named are taken from (format 1 files are read too)");
  add("phases", po::value<std::vector<int>>()->multitoken(),
      "the phases to take, by number: 0, 1, 2 (blanks), 3 (3-6), 4 (7-12), 5 (13-25)");
  return options;
}

po::options_description rank_options() {
  const SearchRankingSettings rank;
  po::options_description options("Search-ranking options", 100);
  auto add = options.add_options();
  add("tables", po::value<std::string>(),
      "folder of endgame table files: the positions' layers and those below them");
  add("table-cache-mb", po::value<std::int64_t>()->default_value(1024),
      "decoded-block cache of the tables");
  add("positions", po::value<std::vector<std::string>>()->multitoken(),
      "files of won or drawn positions, one per line (as `quixo-tb sample --value win|draw` "
      "writes them)");
  add("hold-out", po::value<std::vector<std::string>>()->multitoken(),
      "files of positions never learnt from (test sets): a position of --positions that is one "
      "of theirs, or a rotation or reflection of one, is left out");
  add("eval-file", po::value<std::string>(),
      "the weights to start from (default: the ones built into the engine)");
  add("epochs", po::value<int>()->default_value(1), "passes over the positions");
  add("nodes", po::value<std::int64_t>()->default_value(std::int64_t(rank.child_nodes)),
      "nodes of each child's search");
  add("learning-rate", with_default(rank.learning_rate),
      "centi-cubes per unit of gradient; 0 only measures");
  add("temperature", with_default(rank.temperature), "the softmax's scale, centi-cubes");
  add("progress", with_default(rank.progress_plies),
      "plies: in a won position a move that keeps the win counts by exp(-(its distance to the "
      "win - the shortest) / PLIES), so the faster wins weigh more; 0 counts them alike");
  add("progress-to", po::value<std::string>()->default_value("end"),
      "what --progress's distance counts: end (plies to the end of the game) or fill (plies to "
      "the first blank cube taken; needs tables from quixo-tb generate --distance-to exit)");
  add("batch", po::value<int>()->default_value(rank.batch), "positions per weight update");
  add("hash", po::value<int>()->default_value(rank.hash_mb),
      "MB of each thread's transposition table, cleared before every child's search");
  return options;
}

po::options_description options_of(const std::string& command) {
  po::options_description options = common_options();
  if (command == "rank") options.add(rank_options());
  if (command == "keep") options.add(keep_options());
  if (command == "merge") options.add(merge_options());
  if (command == "data" || command == "all" || command == "team")
    options.add(data_options(command == "team"));
  if (command == "fit" || command == "all" || command == "team")
    options.add(fit_options(command == "fit"));
  if (command == "all")
    options.add_options()("work", po::value<std::string>(),
                          "folder for the data set (default: the folder of --out)");
  return options;
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << seconds << " s";
  return text.str();
}

class Stopwatch {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

template <class T>
T at_least(const po::variables_map& vm, const char* name, T minimum) {
  const T value = vm[name].as<T>();
  if (value < minimum)
    throw po::error("--" + std::string(name) + " must be at least " + std::to_string(minimum));
  return value;
}

std::string required_out(const po::variables_map& vm) {
  if (!vm.count("out")) throw po::error("--out FILE is required");
  return vm["out"].as<std::string>();
}

// --evaluation and --eval-file; a weights file is read once here, for all the data's engines, so
// that a wrong one is refused before any game is played.
DataEvaluation data_evaluation(const po::variables_map& vm, bool team) {
  const std::string name = vm["evaluation"].as<std::string>();
  if (name != "hand" && name != "learned")
    throw po::error("--evaluation must be hand or learned, not '" + name + "'");
  DataEvaluation evaluation;
  evaluation.learned = name == "learned" || vm.count("eval-file");
  if (vm.count("eval-file")) {
    if (name == "hand" && !vm["evaluation"].defaulted())
      throw po::error("--eval-file is learned weights: it does not go with --evaluation hand");
    const std::string file = vm["eval-file"].as<std::string>();
    if (team)
      evaluation.weights = std::make_shared<const patterns::TeamPatternWeights>(
          patterns::TeamPatternWeights::load(file));
    else
      evaluation.weights =
          std::make_shared<const patterns::PatternWeights>(patterns::PatternWeights::load(file));
  }
  return evaluation;
}

SelfPlaySettings self_play_settings(const po::variables_map& vm, bool team) {
  SelfPlaySettings play;
  play.games = int(std::min<std::int64_t>(at_least<std::int64_t>(vm, "games", 0), 1 << 30));
  play.nodes = std::uint64_t(at_least<std::int64_t>(vm, "nodes", 1));
  play.threads = at_least(vm, "threads", 1);
  play.hash_mb = at_least(vm, "hash", 1);
  play.random_move_rate = vm["random-move-rate"].as<double>();
  if (!(play.random_move_rate >= 0 && play.random_move_rate <= 1))
    throw po::error("--random-move-rate must be between 0 and 1");
  play.opening_min_plies = at_least(vm, "opening-min-plies", 0);
  play.opening_max_plies = vm["opening-max-plies"].as<int>();
  if (play.opening_max_plies < play.opening_min_plies)
    throw po::error("--opening-max-plies must be at least --opening-min-plies");
  play.max_plies = at_least(vm, "max-plies", play.opening_max_plies + 1);
  play.seed = unsigned_option<std::uint64_t>(vm, "seed");
  play.evaluation = data_evaluation(vm, team);
  return play;
}

DeepSearchSettings deep_search_settings(const po::variables_map& vm, const SelfPlaySettings& play) {
  DeepSearchSettings deep;
  deep.nodes = vm.count("deep-nodes") ? std::uint64_t(at_least<std::int64_t>(vm, "deep-nodes", 1))
                                      : 20 * play.nodes;
  deep.depth = at_least(vm, "deep-depth", 0);
  deep.threads = play.threads;
  deep.hash_mb = play.hash_mb;
  deep.seed = play.seed;
  deep.evaluation = play.evaluation;
  return deep;
}

// Everything `data` does; the records made, and each stage's time on `out`.
std::vector<TrainingRecord> make_data(const po::variables_map& vm, std::ostream& out) {
  TableSampleSettings table_settings;
  table_settings.positions = std::uint64_t(at_least<std::int64_t>(vm, "table-positions", 0));
  table_settings.seed = unsigned_option<std::uint64_t>(vm, "seed");
  const SelfPlaySettings play = self_play_settings(vm, false);
  DeepSearchSettings deep = deep_search_settings(vm, play);
  const std::int64_t deep_count = vm.count("deep") ? at_least<std::int64_t>(vm, "deep", 0) : -1;

  const Progress progress = [&out](const std::string& line) { out << line << std::endl; };
  std::vector<TrainingRecord> records;
  if (vm.count("tables") && table_settings.positions > 0) {
    const Stopwatch stage;
    const std::string dir = vm["tables"].as<std::string>();
    tb::Tablebase tables;
    const auto loaded =
        tables.load(dir, std::size_t(at_least<std::int64_t>(vm, "table-cache-mb", 1)) << 20);
    for (const std::string& problem : loaded.problems) out << "tables: " << problem << "\n";
    if (loaded.layers.empty())
      throw std::runtime_error("no endgame table layers in \"" + dir + "\"");
    records = sample_table_positions(tables, table_settings, progress);
    out << "stage tables: " << records.size() << " records, " << seconds_text(stage.seconds())
        << std::endl;
  } else if (table_settings.positions > 0) {
    out << "no --tables: no table positions" << std::endl;
  }
  if (play.games > 0) {
    const Stopwatch stage;
    std::vector<TrainingRecord> games = play_games(play, progress);
    out << "stage self-play: " << play.games << " games at " << play.nodes << " nodes per move, "
        << games.size() << " records, " << seconds_text(stage.seconds()) << std::endl;
    deep.positions = deep_count >= 0 ? std::uint64_t(deep_count) : games.size() / 10;
    if (deep.positions > 0) {
      const Stopwatch deep_stage;
      std::vector<TrainingRecord> scored = deep_search(games, deep, progress);
      out << "stage deep search: " << scored.size() << " positions at "
          << (deep.depth > 0 ? "depth " + std::to_string(deep.depth)
                             : std::to_string(deep.nodes) + " nodes")
          << ", " << seconds_text(deep_stage.seconds()) << std::endl;
      games.insert(games.end(), scored.begin(), scored.end());
    }
    records.insert(records.end(), games.begin(), games.end());
  }
  return records;
}

FitSettings make_fit_settings(const po::variables_map& vm) {
  FitSettings settings;
  settings.scale = vm["k"].as<double>();
  if (!(settings.scale >= 0)) throw po::error("--k must not be negative");
  settings.epochs = at_least(vm, "epochs", 1);
  settings.patience = at_least(vm, "patience", 1);
  settings.batch_size = at_least(vm, "batch-size", 1);
  settings.learning_rate = vm["learning-rate"].as<double>();
  settings.l2 = vm["l2"].as<double>();
  if (!(settings.learning_rate > 0) || !(settings.l2 >= 0))
    throw po::error("--learning-rate must be positive and --l2 not negative");
  const char* const names[kSourceCount] = {"table-weight", "game-weight", "deep-weight"};
  for (int source = 0; source < kSourceCount; ++source) {
    settings.source_weights[source] = vm[names[source]].as<double>();
    if (!(settings.source_weights[source] >= 0))
      throw po::error("--" + std::string(names[source]) + " must not be negative");
  }
  settings.seed = unsigned_option<std::uint64_t>(vm, "seed");
  return settings;
}

// The fit, its report and the weights file.
void fit_and_write(const std::vector<TrainingRecord>& records, const FitSettings& settings,
                   const std::string& out_file, std::ostream& out) {
  const Progress progress = [&out](const std::string& line) { out << line << std::endl; };
  const FitResult result = fit_weights(records, settings, progress);
  out << "K = " << std::fixed << std::setprecision(2) << result.scale << "; "
      << result.training_records << " training and " << result.validation_records
      << " validation records; kept epoch " << result.best_epoch << " of " << result.epochs.size()
      << std::setprecision(5) << " (training loss " << result.training_loss << ", validation loss "
      << result.validation_loss << ")\n";
  const patterns::PatternWeights weights(result.weights);
  out << "\n";
  for (const std::string& line : evaluation_report(records, weights, result.scale))
    out << line << "\n";
  out << "\nlargest line weights (x: the side to move's cube, o: the opponent's):\n";
  for (const std::string& line : largest_line_weights(weights, 10)) out << "  " << line << "\n";
  weights.save(out_file);
  out << "wrote " << out_file << std::endl;
}

int run_data(const po::variables_map& vm, std::ostream& out) {
  const std::string out_file = required_out(vm);
  const Stopwatch total;
  const std::vector<TrainingRecord> records = make_data(vm, out);
  save_records(out_file, records);
  for (const std::string& line : data_summary(records)) out << line << "\n";
  out << "wrote " << out_file << " in " << seconds_text(total.seconds()) << std::endl;
  return kExitDone;
}

int run_fit(const po::variables_map& vm, std::ostream& out) {
  const std::string out_file = required_out(vm);
  if (!vm.count("data")) throw po::error("--data FILE... is required");
  const FitSettings settings = make_fit_settings(vm);
  std::vector<TrainingRecord> records;
  for (const std::string& file : vm["data"].as<std::vector<std::string>>()) {
    const std::vector<TrainingRecord> more = load_records(file);
    records.insert(records.end(), more.begin(), more.end());
  }
  for (const std::string& line : data_summary(records)) out << line << "\n";
  const Stopwatch stage;
  fit_and_write(records, settings, out_file, out);
  out << "stage fit: " << seconds_text(stage.seconds()) << std::endl;
  return kExitDone;
}

// Loads the tables of `dir` into `tables` with --table-cache-mb, reporting any problem; a folder
// without a layer is an error.
void load_tables(tb::Tablebase& tables, const std::string& dir, const po::variables_map& vm,
                 std::ostream& out) {
  const auto loaded =
      tables.load(dir, std::size_t(at_least<std::int64_t>(vm, "table-cache-mb", 1)) << 20);
  for (const std::string& problem : loaded.problems) out << "tables: " << problem << "\n";
  if (loaded.layers.empty()) throw std::runtime_error("no endgame table layers in \"" + dir + "\"");
}

int run_keep(const po::variables_map& vm, std::ostream& out) {
  ValueKeepingSettings settings;
  settings.positions = at_least(vm, "positions", 1);
  settings.move_time_ms = at_least(vm, "movetime", 1);
  if (vm.count("nodes")) settings.nodes = std::uint64_t(at_least<std::int64_t>(vm, "nodes", 1));
  settings.min_win_plies = at_least(vm, "min-win-plies", 0);
  settings.max_keeping_percent = at_least(vm, "max-keeping-percent", 0);
  if (settings.max_keeping_percent > 99)
    throw po::error("--max-keeping-percent must be below 100: some move must lose the value");
  settings.seed = unsigned_option<std::uint64_t>(vm, "seed");
  const std::string values = vm["values"].as<std::string>();
  if (values != "win" && values != "draw" && values != "both")
    throw po::error("--values must be win, draw or both, not '" + values + "'");
  settings.wins = values != "draw";
  settings.draws = values != "win";
  const std::string evaluations = vm["evaluations"].as<std::string>();
  if (evaluations != "hand" && evaluations != "learned" && evaluations != "both")
    throw po::error("--evaluations must be hand, learned or both, not '" + evaluations + "'");
  const Evaluator learned =
      vm.count("eval-file")
          ? Evaluator(std::make_shared<const patterns::PatternWeights>(
                patterns::PatternWeights::load(vm["eval-file"].as<std::string>())))
          : Evaluator::builtin_learned();
  if (!vm.count("tables")) throw po::error("--tables DIR is required");
  const std::string dir = vm["tables"].as<std::string>();
  tb::Tablebase tables;
  load_tables(tables, dir, vm, out);
  const Stopwatch total;
  const std::vector<ValueKeepingPosition> positions = value_keeping_positions(tables, settings);
  if (positions.empty())
    throw std::runtime_error("the tables hold no held-out position where a move loses the value");
  const std::string wins_text =
      "wins of at least " + std::to_string(settings.min_win_plies) + " plies";
  out << positions.size() << " held-out positions ("
      << (settings.wins && settings.draws ? wins_text + ", draws"
          : settings.wins                 ? wins_text
                                          : std::string("draws"))
      << "; at most " << settings.max_keeping_percent << " % of the moves keep the value), "
      << (settings.nodes > 0 ? std::to_string(settings.nodes) + " nodes"
                             : std::to_string(settings.move_time_ms) + " ms")
      << " per move, one thread, no tables" << std::endl;
  std::vector<ValueKeepingResult> results;
  if (evaluations != "learned")
    results.push_back(measure_value_keeping(tables, positions, Evaluator(), "hand", settings));
  if (evaluations != "hand")
    results.push_back(measure_value_keeping(tables, positions, learned, "learned", settings));
  for (const std::string& line : value_keeping_report(results)) out << line << "\n";
  out << "in " << seconds_text(total.seconds()) << std::endl;
  return kExitDone;
}

int run_merge(const po::variables_map& vm, std::ostream& out) {
  const std::string out_file = required_out(vm);
  for (const char* name : {"weights", "from", "phases"})
    if (!vm.count(name)) throw po::error("--" + std::string(name) + " is required");
  const std::string base_file = vm["weights"].as<std::string>();
  const std::string donor_file = vm["from"].as<std::string>();
  const std::vector<int> phases = vm["phases"].as<std::vector<int>>();
  for (const int phase : phases)
    if (phase < 0 || phase >= patterns::kPhases)
      throw po::error("--phases: " + std::to_string(phase) + " is not a phase (0.." +
                      std::to_string(patterns::kPhases - 1) + ")");
  const patterns::PatternWeights base = patterns::PatternWeights::load(base_file);
  const patterns::PatternWeights donor = patterns::PatternWeights::load(donor_file);
  const patterns::PatternWeights merged = merge_phases(base, donor, phases);
  for (int phase = 0; phase < patterns::kPhases; ++phase) {
    const bool taken = std::find(phases.begin(), phases.end(), phase) != phases.end();
    out << "phase " << phase << " (" << phase_blanks_text(phase)
        << "): " << (taken ? donor_file : base_file) << "\n";
  }
  const auto changed = std::inner_product(
      base.weights().begin(), base.weights().end(), merged.weights().begin(), std::size_t(0),
      std::plus<>(), [](std::int16_t a, std::int16_t b) { return std::size_t(a != b); });
  merged.save(out_file);
  out << changed << " of " << base.weights().size() << " weights differ from " << base_file
      << "\nwrote " << out_file << std::endl;
  return kExitDone;
}

// The positions of a file, one per line ('#' starts a comment line, as quixo-tb sample writes).
std::vector<Position> read_positions(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read the positions file \"" + file + "\"");
  std::vector<Position> positions;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    try {
      positions.push_back(parse_position(line));
    } catch (const std::exception& error) {
      throw std::runtime_error(file + ":" + std::to_string(number) + ": " + error.what());
    }
  }
  if (positions.empty()) throw std::runtime_error("no positions in \"" + file + "\"");
  return positions;
}

int run_rank(const po::variables_map& vm, std::ostream& out) {
  SearchRankingSettings settings;
  settings.child_nodes = std::uint64_t(at_least<std::int64_t>(vm, "nodes", 1));
  settings.batch = at_least(vm, "batch", 1);
  settings.hash_mb = at_least(vm, "hash", 1);
  settings.threads = at_least(vm, "threads", 1);
  settings.learning_rate = vm["learning-rate"].as<double>();
  settings.temperature = vm["temperature"].as<double>();
  settings.progress_plies = vm["progress"].as<double>();
  if (!(settings.learning_rate >= 0)) throw po::error("--learning-rate must not be negative");
  if (!(settings.progress_plies >= 0)) throw po::error("--progress must not be negative");
  const std::string progress_to = vm["progress-to"].as<std::string>();
  if (progress_to != "end" && progress_to != "fill")
    throw po::error("--progress-to \"" + progress_to + "\": expected end or fill");
  settings.progress_to_fill = progress_to == "fill";
  if (!(settings.temperature > 0)) throw po::error("--temperature must be above 0");
  const int epochs = at_least(vm, "epochs", 1);
  const bool measuring = settings.learning_rate == 0;
  const std::string out_file = measuring && !vm.count("out") ? "" : required_out(vm);
  if (!vm.count("tables")) throw po::error("--tables DIR is required");
  if (!vm.count("positions")) throw po::error("--positions FILE is required");
  // Each position once up to symmetry, none of the test sets' ones (the evaluation is symmetric:
  // an image of a test position is the test position to it) and none of the value-keeping
  // test's (is_held_out), which every fit leaves out.
  std::set<std::uint64_t> held_out;
  if (vm.count("hold-out"))
    for (const std::string& file : vm["hold-out"].as<std::vector<std::string>>())
      for (const Position& position : read_positions(file))
        held_out.insert(canonical(position).key());
  std::vector<Position> positions;
  std::set<std::uint64_t> seen;
  int left_out = 0, kept_for_value_test = 0, repeated = 0;
  for (const std::string& file : vm["positions"].as<std::vector<std::string>>())
    for (const Position& position : read_positions(file)) {
      const std::uint64_t key = canonical(position).key();
      if (held_out.count(key))
        ++left_out;
      else if (is_held_out(position))
        ++kept_for_value_test;
      else if (!seen.insert(key).second)
        ++repeated;
      else
        positions.push_back(position);
    }
  if (positions.empty()) throw std::runtime_error("every position is held out");
  // Learnt from in a random order (--seed): the wins and draws of separate files, each a block of
  // its own, would otherwise pull the weights one way for a whole file and then the other.
  std::shuffle(positions.begin(), positions.end(),
               std::mt19937_64(unsigned_option<std::uint64_t>(vm, "seed")));
  const patterns::PatternWeights start =
      vm.count("eval-file") ? patterns::PatternWeights::load(vm["eval-file"].as<std::string>())
                            : patterns::builtin_weights();
  std::vector<double> weights(start.weights().begin(), start.weights().end());
  const std::string dir = vm["tables"].as<std::string>();
  tb::Tablebase tables;
  load_tables(tables, dir, vm, out);
  // Counted to the fill over tables that count to the end, a fill would weigh 0 plies against
  // its siblings' whole games: a mixed label, refused rather than learnt.
  if (settings.progress_to_fill && settings.progress_plies > 0 &&
      tables.layers_counting_to_exit().empty())
    throw std::runtime_error("--progress-to fill: no layer of \"" + dir +
                             "\" counts plies to its exit (quixo-tb generate --distance-to exit)");
  out << positions.size() << " positions (" << left_out << " held out, " << kept_for_value_test
      << " kept for the value-keeping test, " << repeated
      << " repeated up to symmetry), each child searched to " << settings.child_nodes
      << " nodes, no tables" << std::endl;
  const Stopwatch total;
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    const SearchRankingStats stats = search_ranking_pass(tables, positions, weights, settings);
    out << "epoch " << epoch << ": loss " << std::fixed << std::setprecision(4)
        << (stats.ranked ? stats.loss / stats.ranked : 0.0) << " over " << stats.ranked
        << " positions with keeping and giving-away children; the best-scored child keeps the "
           "win in "
        << stats.picked_won << " of " << stats.won << " won positions, the draw in "
        << stats.picked_keeping - stats.picked_won << " of " << stats.positions - stats.won
        << " drawn ones; leaves learnt from: " << stats.leaves << " of " << stats.children
        << " children, " << seconds_text(total.seconds()) << std::endl;
    if (!out_file.empty()) patterns::PatternWeights(rounded_weights(weights)).save(out_file);
  }
  if (!out_file.empty()) out << "wrote " << out_file << std::endl;
  return kExitDone;
}

// Team self-play, deeper searches of some of its positions, the fit and the report, in one run.
int run_team(const po::variables_map& vm, std::ostream& out) {
  const std::string out_file = required_out(vm);
  const FitSettings settings = make_fit_settings(vm);
  const SelfPlaySettings play = self_play_settings(vm, true);
  DeepSearchSettings deep = deep_search_settings(vm, play);
  const Progress progress = [&out](const std::string& line) { out << line << std::endl; };
  const Stopwatch total;
  Stopwatch stage;
  std::vector<TeamRecord> records = play_team_games(play, progress);
  if (records.empty()) throw po::error("no team positions: --games must be at least 1");
  out << "stage team self-play: " << play.games << " games at " << play.nodes << " nodes per move, "
      << records.size() << " records, " << seconds_text(stage.seconds()) << std::endl;
  deep.positions =
      vm.count("deep") ? std::uint64_t(at_least<std::int64_t>(vm, "deep", 0)) : records.size() / 5;
  if (deep.positions > 0) {
    stage = Stopwatch();
    const std::vector<TeamRecord> scored = deep_search_team(records, deep, progress);
    out << "stage deep team search: " << scored.size() << " positions at "
        << (deep.depth > 0 ? "depth " + std::to_string(deep.depth)
                           : std::to_string(deep.nodes) + " nodes")
        << ", " << seconds_text(stage.seconds()) << std::endl;
    records.insert(records.end(), scored.begin(), scored.end());
  }
  stage = Stopwatch();
  const FitResult result = fit_team_weights(records, settings, progress);
  out << "K = " << std::fixed << std::setprecision(2) << result.scale << "; "
      << result.training_records << " training and " << result.validation_records
      << " validation records; kept epoch " << result.best_epoch << " of " << result.epochs.size()
      << std::setprecision(5) << " (training loss " << result.training_loss << ", validation loss "
      << result.validation_loss << ")\n\n";
  const patterns::TeamPatternWeights weights(result.weights);
  for (const std::string& line : team_evaluation_report(records, weights, result.scale))
    out << line << "\n";
  weights.save(out_file);
  out << "wrote " << out_file << "\nstage fit: " << seconds_text(stage.seconds())
      << "\ntotal: " << seconds_text(total.seconds()) << std::endl;
  return kExitDone;
}

int run_all(const po::variables_map& vm, std::ostream& out) {
  const std::string out_file = required_out(vm);
  if (!vm.count("tables")) throw po::error("--tables DIR is required");
  const FitSettings settings = make_fit_settings(vm);
  std::filesystem::path work = vm.count("work")
                                   ? std::filesystem::path(vm["work"].as<std::string>())
                                   : std::filesystem::path(out_file).parent_path();
  if (work.empty()) work = ".";
  std::filesystem::create_directories(work);
  const Stopwatch total;
  Stopwatch stage;
  const std::vector<TrainingRecord> records = make_data(vm, out);
  const std::string data_file = (work / kDataFileName).string();
  save_records(data_file, records);
  for (const std::string& line : data_summary(records)) out << line << "\n";
  const double data_seconds = stage.seconds();
  out << "stage data: wrote " << data_file << ", " << seconds_text(data_seconds) << std::endl;
  stage = Stopwatch();
  fit_and_write(records, settings, out_file, out);
  out << "stage fit: " << seconds_text(stage.seconds()) << "\n"
      << "total: " << seconds_text(total.seconds()) << " (data " << seconds_text(data_seconds)
      << ")" << std::endl;
  return kExitDone;
}

}  // namespace

int run_train_command_line(int argc, const char* const* argv, std::ostream& out,
                           std::ostream& err) {
  const std::string command = argc >= 2 ? argv[1] : "";
  if (command.empty()) {
    err << "quixo-train: expected a command: data, fit, all, keep, merge, rank or team (see "
           "--help)\n";
    return kExitUsage;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    out << kUsage;
    return kExitDone;
  }
  if (command != "data" && command != "fit" && command != "all" && command != "keep" &&
      command != "merge" && command != "rank" && command != "team") {
    err << "quixo-train: unknown command \"" << command
        << "\": expected data, fit, all, keep, merge, rank or team (see --help)\n";
    return kExitUsage;
  }
  const po::options_description options = options_of(command);
  try {
    po::variables_map vm;
    // No positional arguments: a stray word is an error, not silently ignored.
    const po::positional_options_description none;
    po::store(po::command_line_parser(argc - 1, argv + 1).options(options).positional(none).run(),
              vm);
    if (vm.count("help")) {
      out << kUsage << "\n" << options;
      return kExitDone;
    }
    po::notify(vm);
    if (command == "data") return run_data(vm, out);
    if (command == "fit") return run_fit(vm, out);
    if (command == "keep") return run_keep(vm, out);
    if (command == "merge") return run_merge(vm, out);
    if (command == "rank") return run_rank(vm, out);
    if (command == "team") return run_team(vm, out);
    return run_all(vm, out);
  } catch (const po::error& error) {
    err << "quixo-train: " << program_options_message(error) << " (see " << command << " --help)\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    err << "quixo-train: " << error.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace quixo::train
