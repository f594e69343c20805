#include "gui_command_line.hpp"

#include <boost/program_options.hpp>
#include <filesystem>
#include <ostream>

#include "engine_spec.hpp"
#include "game_store.hpp"
#include "gui_server.hpp"
#include "program_options_message.hpp"

namespace quixo::gui {
namespace po = boost::program_options;
namespace {

constexpr int kExitStopped = 0;
constexpr int kExitUsage = 2;

const char* const kUsage =
    "Usage: quixo-gui [options]\n"
    "\n"
    "A board in the browser for Quixo: play against any UQI engine, watch two engines play,\n"
    "analyse with MultiPV and the endgame tables, replay quixo-arena's PGN. It prints the URL to\n"
    "open. Only the engines given here can be used from the page.\n"
    "\n"
    "Example:\n"
    "  quixo-gui --engine name=quixo cmd=quixo-engine option.Hash=64 --tb tables/\n"
    "\n"
    "Engine keys (for --engine and --each), as in quixo-arena: name=NAME cmd=PATH args=\"A B\"\n"
    "  arg=A dir=DIR proto=uqi|ugi stderr=FILE option.NAME=VALUE. A cmd without '/' is also\n"
    "  looked for next to quixo-gui, then on PATH.\n"
    "\n"
    "Each engine is started once at start-up; one that cannot run stops quixo-gui with a message\n"
    "naming it. Requests must name the machine (its own names, or --allow-host); beyond the\n"
    "loopback address they must also carry the token of the printed URL.\n";

void describe_options(po::options_description& options) {
  options.add_options()("engine", po::value<std::vector<std::string>>(),
                        "an engine the page may use: KEYS as above (repeatable)")(
      "each", po::value<std::vector<std::string>>()->composing(),
      "keys applied to every engine first")(
      "host", po::value<std::string>()->default_value("127.0.0.1"),
      "the address to listen on (another than 127.0.0.1 lets other machines in)")(
      "port", po::value<int>()->default_value(8080), "the port to listen on (0: any free one)")(
      "allow-host", po::value<std::vector<std::string>>()->composing(),
      "a host name requests may use besides the machine's own (a name that reaches this machine "
      "through DNS or a proxy; repeatable)")(
      "token", po::value<std::string>(),
      "the secret every request must carry (default: a random one when --host is not a loopback "
      "address, none on loopback); it is in the printed URL")(
      "tb", po::value<std::string>(), "the folder of the endgame tables (quixo-tb's files)")(
      "data-dir", po::value<std::string>(),
      "the folder where games are saved (default: $XDG_DATA_HOME/quixo-gui, else "
      "~/.local/share/quixo-gui)")("no-save", po::bool_switch(),
                                   "do not save games (nothing is written; no recent games)");
}

// Starts each engine once, as quixo-arena does before its first game, so that one that cannot run
// (a wrong path, a binary that is not an engine) or is given an option it does not take is named
// now, not after the person's first move. Throws std::invalid_argument naming it.
void check_engines(const SessionConfig& session, std::ostream& out, std::ostream& err) {
  for (const arena::EngineConfig& engine : session.engines) {
    const arena::EngineProbe probe =
        arena::probe_engine(engine, session.launcher, session.handshake_timeout);
    if (!probe.error.empty())
      throw std::invalid_argument(probe.error + " (checked at start-up; see its --engine keys)");
    if (!probe.option_problems.empty())
      throw std::invalid_argument(probe.option_problems.front().message);
    for (const std::string& error : probe.option_errors)
      err << "quixo-gui: warning: engine \"" << engine.name << "\" answered its options: " << error
          << "\n";
    out << "engine " << engine.name << ": "
        << (probe.id_name.empty() ? "(no id name)" : probe.id_name) << "\n";
  }
}

}  // namespace

int run_gui_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  po::options_description file_options;
  describe_options(file_options);
  po::options_description command_line("Options", 100);
  command_line.add_options()("help,h", "show this help and exit")(
      "config,c", po::value<std::string>(),
      "read options from this file (`key = value` lines, the long option names; the command "
      "line wins)");
  describe_options(command_line);

  ServerConfig config;
  try {
    po::variables_map vm;
    const std::vector<std::string> args =
        arena::group_arguments(argc, argv, {"--engine", "--each"});
    po::store(po::command_line_parser(args).options(command_line).run(), vm);
    if (vm.count("help")) {
      out << kUsage << "\n" << command_line;
      return kExitStopped;
    }
    if (vm.count("config")) {
      if (!store_config_file(vm["config"].as<std::string>(), file_options, vm, "quixo-gui", err))
        return kExitUsage;
    }
    po::notify(vm);
    config.session.engines = arena::make_engine_configs(
        vm.count("each") ? vm["each"].as<std::vector<std::string>>() : std::vector<std::string>(),
        vm.count("engine") ? vm["engine"].as<std::vector<std::string>>()
                           : std::vector<std::string>());
    for (std::size_t i = 0; i < config.session.engines.size(); ++i) {
      const std::string& name = config.session.engines[i].name;
      if (name == "human")
        throw std::invalid_argument(
            "an engine may not be called \"human\" (the page's name for "
            "a person); give it another name=");
      for (std::size_t j = 0; j < i; ++j)
        if (config.session.engines[j].name == name)
          throw std::invalid_argument("two engines are called \"" + name +
                                      "\"; give each its own name=");
    }
    check_engines(config.session, out, err);
    config.host = vm["host"].as<std::string>();
    if (vm.count("allow-host"))
      config.allowed_hosts = vm["allow-host"].as<std::vector<std::string>>();
    if (vm.count("token")) {
      config.token = vm["token"].as<std::string>();
      check_token(*config.token);
    } else if (!is_loopback_host(config.host)) {
      // Off loopback anyone on the network can reach the port: only who has the printed URL
      // may use the engines (as Jupyter does).
      config.token = make_token();
    }
    const int port = vm["port"].as<int>();
    if (port < 0 || port > 65535)
      throw std::invalid_argument("--port must be from 0 to 65535, not " + std::to_string(port));
    config.port = static_cast<std::uint16_t>(port);
    if (vm.count("tb")) {
      const std::string dir = vm["tb"].as<std::string>();
      if (dir.empty()) throw std::invalid_argument("--tb needs the folder of the endgame tables");
      auto tables = std::make_shared<tb::Tablebase>();
      const tb::Tablebase::LoadReport report = tables->load(dir);
      for (const std::string& problem : report.problems)
        err << "quixo-gui: --tb: " << problem << "\n";
      if (report.layers.empty())
        throw std::invalid_argument("--tb " + dir + ": no endgame table file could be loaded");
      out << "endgame tables: " << tables->describe() << "\n";
      config.session.tables = std::move(tables);
    }
    if (!vm["no-save"].as<bool>()) {
      const bool given = vm.count("data-dir") > 0;
      const std::filesystem::path folder =
          given ? std::filesystem::path(vm["data-dir"].as<std::string>()) : default_data_folder();
      try {
        config.session.store = std::make_shared<const GameStore>(folder);
        out << "games are saved in " << folder.string() << "\n";
      } catch (const std::runtime_error& problem) {
        if (given) throw std::invalid_argument(std::string("--data-dir: ") + problem.what());
        err << "quixo-gui: games are not saved: " << problem.what() << " (give --data-dir DIR)\n";
      }
    }
  } catch (const po::error& error) {
    err << "quixo-gui: " << program_options_message(error) << " (see --help)\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    err << "quixo-gui: " << error.what() << "\n";
    return kExitUsage;
  }

  try {
    GuiServer server(std::move(config));
    out << "quixo-gui: open " << server.url() << " in a browser (Ctrl-C stops)" << std::endl;
    server.run();
  } catch (const std::exception& error) {
    err << "quixo-gui: " << error.what() << "\n";
    return kExitUsage;
  }
  return kExitStopped;
}

}  // namespace quixo::gui
