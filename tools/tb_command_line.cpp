#include "tb_command_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <istream>
#include <ostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/notation.hpp"
#include "program_options_message.hpp"
#include "tb/gen/generator.hpp"
#include "tb/gen/verify.hpp"
#include "tb/probe_report.hpp"
#include "tb/tablebase.hpp"
#include "tb/tb_file.hpp"

namespace quixo::tb {

namespace {

namespace po = boost::program_options;

constexpr int kExitDone = 0;
constexpr int kExitFailed = 1;  // a check failed, or the position is malformed or not in the tables
constexpr int kExitUsage = 2;

constexpr const char* kUsage =
    "Usage: quixo-tb COMMAND [options]\n"
    "\n"
    "Exact endgame tables for Quixo: every position with few blank cubes, solved.\n"
    "\n"
    "Commands:\n"
    "  generate --blanks K --dir DIR   solve layers 0..K (K blank cubes) and write one file per\n"
    "                                  layer, component by component ({x, o} cube counts); what\n"
    "                                  is already in DIR is reused, so an interrupted run resumes\n"
    "                                  at the component it was in (--component X,O: that one\n"
    "                                  component of layer K only, as a cluster job)\n"
    "  verify --blanks K --dir DIR     check every stored value against its children, with the\n"
    "                                  forward move generator only, and every file's checksum\n"
    "                                  (--every N: every N-th slot only, a quick look); a\n"
    "                                  layer counting to its exit is checked as one\n"
    "  stats --blanks K --dir DIR      per (x, o) counts of won, lost and drawn boards with O to\n"
    "                                  move, in the layout of the published counts\n"
    "  probe --dir DIR POSITION        the position's value (win N, loss N or draw: N plies to\n"
    "                                  the end), then every legal move with the value it leads to\n"
    "  probe --dir DIR --batch         a position per line of standard input, its value (or\n"
    "                                  \"error: <why>\") on a line of its own, in the same order\n"
    "  sample --blanks K --dir DIR     positions of layer K with the value asked for (--value,\n"
    "                                  --min-distance, --max-distance, --off-border), X to\n"
    "                                  move, one per line\n"
    "\n"
    "Example:\n"
    "  quixo-tb generate --blanks 2 --dir tb && quixo-tb probe --dir tb \"xxxxo/oxoxo/...\"\n";

std::uint64_t physical_memory_mb() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) >> 20 : 4096;
}

int default_threads() {
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

void describe_options(po::options_description& options) {
  options.add_options()("help,h", "show this help and exit")("dir", po::value<std::string>(),
                                                             "folder of the table files")(
      "blanks", po::value<int>(), "highest layer: number of blank cubes (0..6)")(
      "threads", po::value<int>()->default_value(default_threads()), "threads to use")(
      "memory", unsigned_value<std::uint64_t>(physical_memory_mb() * 9 / 10),
      "generate: refuse a component that needs more than this many MB")(
      "component", po::value<std::string>(),
      "generate: solve only this component of layer K, X,O (its cube counts), into part files")(
      "level", po::value<int>()->default_value(9), "generate: zstd compression level (1..19)")(
      "distance-to", po::value<std::string>()->default_value("end"),
      "generate: what layer K's distances count: end (plies to the end of the game, what the "
      "engine probes) or exit (plies to a blank taken or the game over, for training)")(
      "every", unsigned_value<std::uint64_t>(1),
      "verify: check every N-th slot of each layer (1: all of them)")(
      "position", po::value<std::string>(),
      "probe: the position, in the notation of docs/spec.md §3")(
      "batch", "probe: read positions from standard input, one per line, and answer each")(
      "count", po::value<int>()->default_value(100), "sample: positions to print")(
      "value", po::value<std::string>()->default_value("win"), "sample: win, loss or draw")(
      "min-distance", po::value<int>()->default_value(0), "sample: shortest distance in plies")(
      "max-distance", po::value<int>()->default_value(kMaxDistance),
      "sample: longest distance in plies")(
      "off-border", po::value<int>(),
      "sample: only positions with this many of their blank cubes off the border (on the nine "
      "inner squares, where no player can take one until a push brings it out)")(
      "seed", unsigned_value<std::uint64_t>(1), "sample: random seed");
}

std::string mb(std::uint64_t bytes) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << double(bytes) / (1 << 20) << " MB";
  return text.str();
}

int required_blanks(const po::variables_map& vm) {
  if (!vm.count("blanks")) throw po::error("--blanks K is required");
  const int blanks = vm["blanks"].as<int>();
  if (blanks < 0 || blanks > kMaxIndexedLayer)
    throw po::error("--blanks must be between 0 and " + std::to_string(kMaxIndexedLayer));
  return blanks;
}

std::filesystem::path required_dir(const po::variables_map& vm) {
  if (!vm.count("dir")) throw po::error("--dir DIR is required");
  return vm["dir"].as<std::string>();
}

int generate(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  GenerateOptions options;
  options.dir = required_dir(vm);
  options.blanks = required_blanks(vm);
  options.threads = std::max(1, vm["threads"].as<int>());
  options.compression_level = std::clamp(vm["level"].as<int>(), 1, 19);
  if (vm.count("component"))
    options.only_component = parse_component(vm["component"].as<std::string>(), options.blanks);
  const std::string distance_to = vm["distance-to"].as<std::string>();
  if (distance_to == "exit")
    options.top_layer_distance = DistanceCount::LayerExit;
  else if (distance_to != "end")
    throw po::error("--distance-to \"" + distance_to + "\": expected end or exit");
  // A component is solved in memory: 3 bytes per slot, plus two sections of the layer below.
  const std::uint64_t limit = unsigned_option<std::uint64_t>(vm, "memory") << 20;
  for (int k = 0; k <= options.blanks; ++k) {
    if (std::filesystem::exists(layer_file_path(options.dir, k))) continue;
    std::vector<Component> components = layer_components(k);
    if (options.only_component && k == options.blanks) components = {*options.only_component};
    for (const Component& component : components) {
      const std::uint64_t need = component_memory_bytes(component);
      if (need > limit)
        throw std::runtime_error("layer " + std::to_string(k) + "'s component " +
                                 component_name(component) + " needs about " + mb(need) +
                                 ", more than --memory " + mb(limit));
    }
  }
  options.progress = [&err](const std::string& line) { err << line << std::endl; };
  for (const LayerReport& report : generate_tables(options)) {
    out << "layer " << report.layer << ": ";
    // The win/draw/loss file the search probes, when this run has one for the layer.
    const std::string wdl = report.wdl_bytes == 0
                                ? ""
                                : std::string("; win/draw/loss file ") + mb(report.wdl_bytes) +
                                      (report.wdl_written ? " written" : " reused");
    if (report.reused) {
      out << "reused, " << mb(report.file_bytes) << ", longest " << report.max_distance << " plies"
          << wdl << "\n";
      continue;
    }
    out << (report.written ? "generated" : "component solved") << " (" << report.components_solved
        << " components solved, " << report.components_reused << " reused), ";
    if (report.written)
      out << mb(report.file_bytes) << ", longest " << report.max_distance << " plies, ";
    out << std::fixed << std::setprecision(1) << report.seconds << " s, peak memory "
        << mb(report.peak_rss_bytes) << wdl << "\n";
  }
  return kExitDone;
}

int verify(const po::variables_map& vm, std::ostream& out) {
  SlotSelection selection;
  selection.step = unsigned_option<std::uint64_t>(vm, "every");
  if (selection.step == 0) throw po::error("--every must be at least 1");
  const auto dir = required_dir(vm);
  const int blanks = required_blanks(vm);
  const int threads = std::max(1, vm["threads"].as<int>());
  LayerValues lower;
  std::unique_ptr<LayerIndex> lower_index;
  bool lower_counts_to_exit = false;
  bool all_good = true;
  for (int k = 0; k <= blanks; ++k) {
    const auto start = std::chrono::steady_clock::now();
    const LayerFile file(layer_file_path(dir, k), k);
    file.check_file_checksum();
    const DistanceCount distance_count = file.info().distance_count;
    // Distances to the end of the game rest on the layer below's: one counting to its own exit
    // (generate --distance-to exit makes only the top layer so) cannot check them.
    if (k > 0 && distance_count == DistanceCount::GameEnd && lower_counts_to_exit) {
      out << "layer " << k << ": not checked: layer " << k - 1
          << " below counts its distances to its exit, not to the end of the game\n";
      all_good = false;
      break;
    }
    auto index = std::make_unique<LayerIndex>(k);
    LayerValues values = file.decode_all(threads);
    const VerifyReport report =
        verify_layer(*index, values, lower_index.get(), lower, threads, selection, distance_count);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out << "layer " << k << ": " << report.checked << " slots checked, " << report.failures
        << " wrong (" << std::fixed << std::setprecision(1) << seconds << " s"
        << (distance_count == DistanceCount::LayerExit ? "; distances counted to its exit" : "")
        << ")\n";
    for (const std::string& error : report.first_errors) out << "  " << error << "\n";
    all_good = all_good && report.failures == 0;
    lower = std::move(values);
    lower_index = std::move(index);
    lower_counts_to_exit = distance_count == DistanceCount::LayerExit;
  }
  return all_good ? kExitDone : kExitFailed;
}

int stats(const po::variables_map& vm, std::ostream& out) {
  const auto dir = required_dir(vm);
  const int blanks = required_blanks(vm);
  const int threads = std::max(1, vm["threads"].as<int>());
  for (int k = 0; k <= blanks; ++k) {
    const LayerFile file(layer_file_path(dir, k), k);
    const LayerIndex index(k);
    const auto values = file.decode_all(threads);
    out << "# layer " << k << " (" << k << " blank cubes): x o win loss draw, O to move\n"
        << format_stats(layer_stats(index, values, threads));
  }
  return kExitDone;
}

// Loads `dir`'s tables for probe, naming on stderr each file refused and any layer whose
// distances count to its exit (generate --distance-to exit): its values read "win N" as the
// others do, N being plies to a blank taken there.
void load_for_probe(Tablebase& tables, const std::filesystem::path& dir, std::ostream& err) {
  const auto loaded = tables.load(dir);
  for (const std::string& problem : loaded.problems) err << "quixo-tb: " << problem << "\n";
  if (!tables.layers_counting_to_exit().empty())
    err << "quixo-tb: " << dir.string() << " holds " << tables.describe()
        << ": there a distance is the plies to a blank cube taken, not to the end\n";
}

// probe --batch: a line of output for every line of input, so answers pair with positions by
// line number; the tables are loaded once. Exit 1 when some line had no value.
int probe_batch(const std::filesystem::path& dir, std::istream& in, std::ostream& out,
                std::ostream& err) {
  Tablebase tables;
  load_for_probe(tables, dir, err);
  if (tables.empty()) {
    err << "quixo-tb: no table files in " << dir.string() << "\n";
    return kExitUsage;
  }
  std::uint64_t lines = 0, unanswered = 0;
  std::string reported;  // the tables' last problem, once said
  for (std::string line; std::getline(in, line);) {
    ++lines;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string answer;
    try {
      const Position position = parse_position(line);
      if (position.is_game_over()) {
        answer = "error: the game is over (" + to_string(position.outcome()) + ")";
      } else if (const auto value = tables.probe(position)) {
        answer = to_string(*value);
      } else {
        // A block found corrupt drops its layer: said once on stderr, and its positions then
        // have no layer, like any layer not loaded.
        if (const std::string problem = tables.last_problem(); problem != reported) {
          err << "quixo-tb: " << problem << "\n";
          reported = problem;
        }
        answer = "error: " + std::to_string(std::popcount(position.blanks())) +
                 " blank cubes; the tables hold " + tables.describe();
      }
    } catch (const std::exception& error) {
      answer = std::string("error: malformed position: ") + error.what();
    }
    if (answer.rfind("error: ", 0) == 0) ++unanswered;
    out << answer << "\n";
  }
  out.flush();
  if (unanswered > 0)
    err << "quixo-tb: " << unanswered << " of " << lines << " positions had no value\n";
  return unanswered == 0 ? kExitDone : kExitFailed;
}

int probe(const po::variables_map& vm, std::istream& in, std::ostream& out, std::ostream& err) {
  const auto dir = required_dir(vm);
  if (vm.count("batch")) {
    if (vm.count("position")) throw po::error("probe --batch reads its positions from stdin");
    return probe_batch(dir, in, out, err);
  }
  if (!vm.count("position")) throw po::error("probe needs a POSITION (or --batch)");
  Position position;
  try {
    position = parse_position(vm["position"].as<std::string>());
  } catch (const std::exception& error) {
    err << "quixo-tb: malformed position: " << error.what() << "\n";
    return kExitFailed;
  }
  if (position.is_game_over()) {
    err << "quixo-tb: the game is over (" << to_string(position.outcome())
        << "): a finished position has no value\n";
    return kExitFailed;
  }
  Tablebase tables;
  load_for_probe(tables, dir, err);
  const auto report = probe_report(tables, position);
  if (!report && !tables.last_problem().empty()) {
    // A block found corrupt while probing dropped its layer: named as the engine and the arena
    // name it.
    err << "quixo-tb: " << tables.last_problem() << "\n";
    return kExitFailed;
  }
  if (!report) {
    const int blanks = std::popcount(position.blanks());
    err << "quixo-tb: the position has " << blanks << " blank cubes; " << dir.string() << " holds "
        << tables.describe()
        << (tables.has_layer(blanks)
                ? " (its moves need layer " + std::to_string(blanks - 1) + " too)"
                : "")
        << "\n";
    return kExitFailed;
  }
  for (const std::string& line : format_probe_report(*report)) out << line << "\n";
  return kExitDone;
}

// Distinct random positions of one layer with the requested value, X to move; the same options
// give the same positions on every machine.
int sample(const po::variables_map& vm, std::ostream& out) {
  const auto dir = required_dir(vm);
  const int blanks = required_blanks(vm);
  const int count = vm["count"].as<int>();
  const std::string wanted = vm["value"].as<std::string>();
  const int min_distance = vm["min-distance"].as<int>(),
            max_distance = vm["max-distance"].as<int>();
  if (wanted != "win" && wanted != "loss" && wanted != "draw")
    throw po::error("--value must be win, loss or draw, not \"" + wanted + "\"");
  if (count < 1 || min_distance > max_distance)
    throw po::error("sample needs --count >= 1 and --min-distance <= --max-distance");
  // The blank cubes wanted off the border; -1: any number.
  const int off_border = vm.count("off-border") ? vm["off-border"].as<int>() : -1;
  if (vm.count("off-border") && (off_border < 0 || off_border > blanks))
    throw po::error("--off-border must be 0.." + std::to_string(blanks) +
                    " (the layer's blank cubes), not " + std::to_string(off_border));
  const Wdl wdl = wanted == "win" ? Wdl::Win : wanted == "loss" ? Wdl::Loss : Wdl::Draw;
  const LayerFile file(layer_file_path(dir, blanks), blanks);
  const LayerIndex index(blanks);
  const auto values = file.decode_all(std::max(1, vm["threads"].as<int>()));
  std::vector<Slot> matching;
  for (Slot slot = 0; slot < values.size(); ++slot) {
    const TbValue value = unpack_value(values[slot]);
    if (value.wdl == wdl &&
        (wdl == Wdl::Draw ||
         (value.distance >= min_distance && value.distance <= max_distance && value.distance > 0)))
      matching.push_back(slot);
  }
  if (matching.empty())
    throw std::runtime_error("no position of layer " + std::to_string(blanks) + " has that value");
  std::mt19937_64 random(unsigned_option<std::uint64_t>(vm, "seed"));
  std::shuffle(matching.begin(), matching.end(), random);
  out << "# quixo-tb sample --blanks " << blanks << " --value " << wanted << " --min-distance "
      << min_distance << " --max-distance " << max_distance << " --count " << count << " --seed "
      << unsigned_option<std::uint64_t>(vm, "seed");
  if (off_border >= 0) out << " --off-border " << off_border;
  out << "\n";
  int printed = 0;
  for (std::size_t i = 0; i < matching.size() && printed < count; ++i) {
    const auto content = index.board_of(matching[i]);
    const Position position(content.board.mover, content.board.opponent, Color::X);
    if (position.is_game_over()) continue;
    if (off_border >= 0 && std::popcount(position.blanks() & ~kBorder) != off_border) continue;
    out << to_string(position) << "\n";
    ++printed;
  }
  return kExitDone;
}

}  // namespace

int run_tb_command_line(int argc, const char* const* argv, std::istream& in, std::ostream& out,
                        std::ostream& err) {
  po::options_description options("Options", 100);
  describe_options(options);
  po::positional_options_description positional;
  positional.add("position", 1);
  const std::string command = argc >= 2 ? argv[1] : "";
  if (command.empty()) {
    err << "quixo-tb: expected a command: generate, verify, stats, probe or sample (see --help)\n";
    return kExitUsage;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    out << kUsage << "\n" << options;
    return kExitDone;
  }
  po::variables_map vm;
  try {
    po::store(
        po::command_line_parser(argc - 1, argv + 1).options(options).positional(positional).run(),
        vm);
    if (vm.count("help")) {
      out << kUsage << "\n" << options;
      return kExitDone;
    }
    po::notify(vm);
    if (command != "probe" && vm.count("position"))
      throw po::error("unexpected argument \"" + vm["position"].as<std::string>() + "\"");
    if (command != "probe" && vm.count("batch")) throw po::error("--batch belongs to probe");
    if (command == "generate") return generate(vm, out, err);
    if (command == "verify") return verify(vm, out);
    if (command == "stats") return stats(vm, out);
    if (command == "probe") return probe(vm, in, out, err);
    if (command == "sample") return sample(vm, out);
    err << "quixo-tb: unknown command \"" << command
        << "\": expected generate, verify, stats, probe or sample (see --help)\n";
    return kExitUsage;
  } catch (const po::error& error) {
    err << "quixo-tb: " << program_options_message(error) << " (see --help)\n";
    return kExitUsage;
  } catch (const TbFileError& error) {
    err << "quixo-tb: " << error.what() << "\n";
    return command == "verify" ? kExitFailed : kExitUsage;  // a corrupt file fails verification
  } catch (const std::exception& error) {
    err << "quixo-tb: " << error.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace quixo::tb
