#include "openings_command_line.hpp"

#include <boost/program_options.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "opening_generator.hpp"
#include "program_options_message.hpp"

namespace quixo::opening_generator {

namespace {

namespace po = boost::program_options;

constexpr int kExitDone = 0;
constexpr int kExitUsage = 2;  // as quixo-arena's: bad command line or files

constexpr const char* kUsage =
    "Usage: quixo-openings --output FILE [options]\n"
    "\n"
    "Makes an opening book for quixo-arena (--openings FILE): random legal play from the start,\n"
    "each candidate checked by a short search of the engine and dropped when the game is over,\n"
    "the side to move can win at once, the search scores it beyond --max-score (or, with\n"
    "--min-score, the side to move is not better by that much: an unbalanced book), or it repeats\n"
    "an earlier opening up to symmetry. The same options give the same book on every machine\n"
    "(for the same engine). The first line of the book is the command that made it.\n"
    "\n"
    "Example:\n"
    "  quixo-openings --output book.txt --count 500 --min-plies 4 --max-plies 12 --seed 7\n";

void describe_options(po::options_description& options) {
  options.add_options()("help,h", "show this help and exit")(
      "output,o", po::value<std::string>(), "write the book to this file (replaced if it exists)")(
      "variant", po::value<std::string>()->default_value("2p"),
      "2p (two players) or 4p (the four-player team game)")(
      "count", unsigned_value<std::size_t>(200), "openings to make")(
      "min-plies", po::value<int>()->default_value(4), "random plies, at least")(
      "max-plies", po::value<int>()->default_value(10), "random plies, at most")(
      "seed", unsigned_value<std::uint64_t>(1), "random seed")(
      "depth", po::value<int>()->default_value(6),
      "depth of the search that drops unbalanced openings (0: none)")(
      "max-score", po::value<int>()->default_value(150),
      "drop openings scored beyond this many centipawns")(
      "min-score", po::value<int>(),
      "an unbalanced book: keep only openings the side to move is better in by at least this "
      "many centipawns (default: -max-score, a balanced book)");
}

Variant parse_variant(const std::string& name) {
  if (name == "2p") return Variant::TwoPlayer;
  if (name == "4p") return Variant::FourPlayer;
  throw std::invalid_argument("--variant: expected 2p or 4p, not \"" + name + "\"");
}

OpeningGeneratorOptions make_options(const po::variables_map& vm) {
  OpeningGeneratorOptions options;
  options.count = unsigned_option<std::size_t>(vm, "count");
  options.min_plies = vm["min-plies"].as<int>();
  options.max_plies = vm["max-plies"].as<int>();
  options.seed = unsigned_option<std::uint64_t>(vm, "seed");
  options.search_depth = vm["depth"].as<int>();
  options.max_abs_score_cp = vm["max-score"].as<int>();
  if (vm.count("min-score")) {
    options.min_score_cp = vm["min-score"].as<int>();
    if (*options.min_score_cp > options.max_abs_score_cp ||
        *options.min_score_cp < -options.max_abs_score_cp)
      throw std::invalid_argument(
          "--min-score must lie between minus --max-score and --max-score (" +
          std::to_string(-options.max_abs_score_cp) + " and " +
          std::to_string(options.max_abs_score_cp) + "), not " +
          std::to_string(*options.min_score_cp));
    if (options.search_depth == 0)
      throw std::invalid_argument("--min-score needs the check search (--depth above 0)");
  }
  options.variant = parse_variant(vm["variant"].as<std::string>());
  if (options.count < 1 || options.min_plies < 0 || options.max_plies < options.min_plies ||
      options.search_depth < 0)
    throw std::invalid_argument(
        "the generator needs count >= 1, 0 <= min-plies <= max-plies and depth >= 0");
  return options;
}

// The book's first line: the command that makes it again.
std::string command_comment(const std::string& path, const OpeningGeneratorOptions& options) {
  std::string line = "# quixo-openings --output " + path;
  if (options.variant == Variant::FourPlayer) line += " --variant 4p";
  line += " --count " + std::to_string(options.count) + " --min-plies " +
          std::to_string(options.min_plies) + " --max-plies " + std::to_string(options.max_plies) +
          " --seed " + std::to_string(options.seed) + " --depth " +
          std::to_string(options.search_depth) + " --max-score " +
          std::to_string(options.max_abs_score_cp);
  if (options.min_score_cp) line += " --min-score " + std::to_string(*options.min_score_cp);
  return line;
}

int generate(const po::variables_map& vm, std::ostream& out) {
  const OpeningGeneratorOptions options = make_options(vm);
  const std::string path = vm["output"].as<std::string>();
  const auto begin = std::chrono::steady_clock::now();
  const std::vector<arena::Opening> book = generate_openings(options);
  const std::string temporary = path + ".tmp";
  {
    std::ofstream file(temporary);
    if (!file) throw std::runtime_error("cannot write " + path);
    file << command_comment(path, options) << "\n";
    arena::write_openings(file, book);
    if (!file.flush()) throw std::runtime_error("cannot write " + path);
  }
  std::filesystem::rename(temporary, path);
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  out << "Wrote " << book.size() << " openings to " << path << " in " << seconds << " s\n";
  return kExitDone;
}

}  // namespace

int run_openings_command_line(int argc, const char* const* argv, std::ostream& out,
                              std::ostream& err) {
  po::options_description options("Options", 100);
  describe_options(options);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(options).run(), vm);
    if (vm.count("help")) {
      out << kUsage << "\n" << options;
      return kExitDone;
    }
    po::notify(vm);
    if (!vm.count("output")) {
      err << "quixo-openings: --output FILE is required (see --help)\n";
      return kExitUsage;
    }
  } catch (const po::error& error) {
    err << "quixo-openings: " << program_options_message(error) << " (see --help)\n";
    return kExitUsage;
  }
  try {
    return generate(vm, out);
  } catch (const std::exception& error) {
    err << "quixo-openings: " << error.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace quixo::opening_generator
