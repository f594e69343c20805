#include "command_line.hpp"

#include <boost/program_options.hpp>
#include <charconv>
#include <iostream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/perft.hpp"
#include "program_options_message.hpp"
#include "search/search_params.hpp"
#include "search/transposition_table.hpp"
#include "uqi_session.hpp"

namespace quixo {

namespace {

int parse_depth(const std::string& text) {
  int depth = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), depth);
  if (error != std::errc() || end != text.data() + text.size() || depth < 0 ||
      depth > kMaxPerftDepth)
    throw std::invalid_argument("bad depth '" + text.substr(0, 20) +
                                "': expected a whole number from 0 to " +
                                std::to_string(kMaxPerftDepth));
  return depth;
}

template <class PositionT>
void print_divide(const PositionT& position, int depth, std::ostream& out) {
  std::uint64_t total = depth == 0 ? 1 : 0;
  for (const auto& [move, count] : divide(position, depth)) {
    out << to_string(move) << ": " << count << '\n';
    total += count;
  }
  out << "\nNodes searched: " << total << '\n';
}

const char* const kUsage =
    "Usage: quixo-engine [options] [command [arguments]]\n"
    "\n"
    "Without a command, quixo-engine speaks UQI (UCI with Quixo notation) on standard input\n"
    "and output until 'quit' or the end of the input.\n"
    "\n"
    "Commands:\n"
    "  uqi                       the UQI loop (the default)\n"
    "  bench                     search the fixed bench positions; last line 'Nodes searched'\n"
    "  perft <position> <depth>  count move sequences of <depth> plies, divided by first move;\n"
    "                            <position> is a SPEC position string (quote it, e.g.\n"
    "                            \"5/5/5/5/5 x\"), startpos (two players) or startpos4 (four)\n"
    "\n";

// One parameter as the arena's SPSA tune takes it, fishtest's form:
// `--param NAME=start,min,max,c_end`, with the value the engine now has as the start.
std::string spsa_param_line(const SearchParamSpec& param, const SearchParams& params) {
  std::ostringstream line;
  line << "--param " << param.name << '=' << params.*param.field << ',' << param.min << ','
       << param.max << ',' << param.c_end;
  return line.str();
}

}  // namespace

void print_perft_divide(const std::string& position_text, const std::string& depth_text,
                        std::ostream& out) {
  const std::string text = position_text == "startpos"    ? std::string(kStartPosition)
                           : position_text == "startpos4" ? std::string(kStartPosition4)
                                                          : position_text;
  // Parse both before printing anything, so an error leaves no partial output.
  const Variant variant = variant_of(text);
  const int depth = parse_depth(depth_text);
  if (variant == Variant::TwoPlayer)
    print_divide(parse_position(text), depth, out);
  else
    print_divide(parse_position4(text), depth, out);
}

int run_engine_command_line(int argc, const char* const* argv, std::ostream& out,
                            std::ostream& err) {
  return run_engine_command_line(argc, argv, std::cin, out, err);
}

int run_engine_command_line(int argc, const char* const* argv, std::istream& in, std::ostream& out,
                            std::ostream& err) {
  namespace po = boost::program_options;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help and exit")(
      "option,o", po::value<std::vector<std::string>>()->composing(),
      "set an engine option before running, as NAME=VALUE (repeatable), e.g. --option Hash=64")(
      "config,c", po::value<std::string>(),
      "read options from this file: lines 'option = NAME=VALUE' (the command line wins)")(
      "tune",
      "tuning: the search's parameters (aspiration, reductions, history, time shares) become "
      "spin options, in the handshake, setoption and --option")(
      "print-params",
      "print every tunable parameter as the arena's SPSA takes it, '--param "
      "NAME=value,min,max,c_end' (the value after --option and --config), and exit");
  po::options_description all;
  all.add(visible).add_options()("command", po::value<std::string>(), "")(
      "arguments", po::value<std::vector<std::string>>()->default_value({}, "")->composing(), "");
  po::positional_options_description positional;
  positional.add("command", 1).add("arguments", -1);

  po::variables_map vm;
  try {
    // A negative number is an argument (a bad perft depth, reported as such), not an option.
    const auto negative_number =
        [](const std::string& token) -> std::pair<std::string, std::string> {
      if (token.size() > 1 && token[0] == '-' && token[1] >= '0' && token[1] <= '9')
        return {"arguments", token};
      return {};
    };
    po::store(po::command_line_parser(argc, argv)
                  .options(all)
                  .positional(positional)
                  .extra_parser(negative_number)
                  .run(),
              vm);
    if (vm.count("config")) {
      // Stored after the command line, so a file's options come first and the command line's,
      // applied later, win.
      po::options_description file_options;
      file_options.add_options()("option", po::value<std::vector<std::string>>()->composing(), "");
      po::variables_map from_file;
      if (!store_config_file(vm["config"].as<std::string>(), file_options, from_file,
                             "quixo-engine", err))
        return 2;
      std::vector<std::string> merged = from_file.count("option")
                                            ? from_file["option"].as<std::vector<std::string>>()
                                            : std::vector<std::string>();
      if (vm.count("option")) {
        const auto& given = vm["option"].as<std::vector<std::string>>();
        merged.insert(merged.end(), given.begin(), given.end());
      }
      vm.erase("option");
      vm.emplace("option", po::variable_value(merged, false));
    }
    po::notify(vm);
  } catch (const po::error& e) {
    err << "quixo-engine: " << program_options_message(e) << "\n" << kUsage << visible;
    return 2;
  }
  if (vm.count("help")) {
    out << kUsage << visible;
    return 0;
  }
  const std::string command = vm.count("command") ? vm["command"].as<std::string>() : "uqi";
  const auto arguments = vm["arguments"].as<std::vector<std::string>>();
  const auto options =
      vm.count("option") ? vm["option"].as<std::vector<std::string>>() : std::vector<std::string>();
  const bool print_params = vm.count("print-params") != 0;
  if (command == "uqi" || command == "bench" || print_params) {
    UqiSession session(out, vm.count("tune") != 0);
    for (const std::string& option : options) {
      const std::size_t equals = option.find('=');
      if (equals == std::string::npos) {
        err << "quixo-engine: --option needs NAME=VALUE, not '" << option.substr(0, 40) << "'\n";
        return 2;
      }
      std::optional<std::string> error;
      try {
        error = session.set_option(option.substr(0, equals),
                                   std::string_view(option).substr(equals + 1));
      } catch (const TableAllocationError& e) {
        // Not a bad command line: the machine lacks the memory asked for.
        err << "quixo-engine: --option " << option.substr(0, 40) << ": " << e.what() << "\n";
        return 1;
      }
      if (error) {
        err << "quixo-engine: --option " << option.substr(0, 40) << ": " << *error << "\n";
        return 2;
      }
    }
    if (print_params) {
      for (const SearchParamSpec& param : kSearchParamSpecs)
        out << spsa_param_line(param, session.options().params) << '\n';
    } else if (command == "bench") {
      session.handle_line("bench");
    } else {
      session.run(in);
    }
    return 0;
  }
  try {
    if (command == "perft") {
      if (arguments.size() < 2) {
        err << "quixo-engine: perft needs a position and a depth, e.g. perft startpos 4\n";
        return 2;
      }
      // The position may come as one quoted argument or as its space-separated fields.
      std::string position_text;
      for (std::size_t i = 0; i + 1 < arguments.size(); ++i)
        position_text += (i ? " " : "") + arguments[i];
      print_perft_divide(position_text, arguments.back(), out);
      return 0;
    }
  } catch (const std::invalid_argument& e) {
    err << "quixo-engine: " << e.what() << "\n";
    return 1;
  }
  err << "quixo-engine: unknown command '" << command.substr(0, 40) << "'\n" << kUsage;
  return 2;
}

}  // namespace quixo
