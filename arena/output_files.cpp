#include "output_files.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <stdexcept>

namespace quixo::arena {
namespace {

// What makes two names one file: the device and inode of a file that is there, the path with
// every symbolic link of its folders resolved for one that is not.
std::string file_identity(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0)
    return "inode " + std::to_string(status.st_dev) + ":" + std::to_string(status.st_ino);
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(absolute, error);
  return "path " + (error ? absolute : canonical).lexically_normal().string();
}

// "--pgn games.pgn", or "games.pgn.lock (which --pgn games.pgn writes beside it)".
std::string named(const OutputFile& output, const std::string& path) {
  const std::string option = output.option + " " + output.path;
  return path == output.path ? option : path + " (which " + option + " writes beside it)";
}

// "process 1234 on node17" from a lock file's "1234 node17".
std::string holder_text(const std::string& holder) {
  if (holder.empty()) return "a process that has not written its id yet";
  const std::size_t space = holder.find(' ');
  if (space == std::string::npos) return "process " + holder;
  return "process " + holder.substr(0, space) + " on " + holder.substr(space + 1);
}

// A run that starts afresh empties its outputs: refused for one that holds something, unless
// told to.
void refuse_to_replace(const OutputFile& output, const TournamentConfig& config) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(output.path, error)) return;
  const auto size = std::filesystem::file_size(output.path, error);
  if (error || size == 0) return;
  const std::string held =
      output.what + " " + output.path + " (" + std::to_string(size) + " bytes)";
  if (config.resume)
    throw TournamentError("--resume found no results file " + config.results_path +
                          ", so the tournament would start afresh and replace the existing " +
                          held + "; give the earlier run's --results file, or --overwrite " +
                          "(overwrite = true in a config file) to start afresh, or another " +
                          output.option + " file");
  throw TournamentError("the " + held + " already exists and a new tournament would replace it; " +
                        "give --overwrite (overwrite = true in a config file) to replace it, " +
                        "--resume to continue the tournament recorded in the results file, or " +
                        "another " + output.option + " file");
}

}  // namespace

std::string lock_file_path(const std::string& path) {
  return path + ".lock";
}

std::vector<OutputFile> output_files(const TournamentConfig& config) {
  std::vector<OutputFile> outputs;
  const auto add = [&](std::string option, std::string what, const std::string& path,
                       std::vector<std::string> beside, bool appended) {
    if (path.empty()) return;
    beside.push_back(lock_file_path(path));
    outputs.push_back({std::move(option), std::move(what), path, std::move(beside), appended});
  };
  add("--pgn", "PGN file", config.pgn_path, {}, true);
  add("--results", "results file", config.results_path,
      {config.results_path + ".journal", config.results_path + ".tmp"}, true);
  add("--epd-out", "EPD file", config.epd_path, {config.epd_path + ".tmp"}, false);
  add("--log", "log file", config.log_path, {config.log_path + ".1"}, true);
  for (const auto& [option, path] : config.report_files)
    add("--" + option, "report file", path, {path + ".tmp"}, false);
  return outputs;
}

bool continues_earlier_run(const TournamentConfig& config) {
  std::error_code error;
  return config.resume && !config.results_path.empty() &&
         std::filesystem::exists(config.results_path, error);
}

ClaimedOutputs::ClaimedOutputs(const TournamentConfig& config,
                               const std::vector<std::string>& inputs) {
  const std::vector<OutputFile> outputs = output_files(config);
  // Every file, by identity: the output that writes it and its name.
  std::map<std::string, std::pair<const OutputFile*, std::string>> files;
  for (const OutputFile& output : outputs) {
    std::vector<std::string> paths = {output.path};
    paths.insert(paths.end(), output.beside.begin(), output.beside.end());
    for (const std::string& path : paths) {
      if (const std::string kind = special_file_kind(path); !kind.empty())
        throw TournamentError(named(output, path) + " is " + kind +
                              ", not a regular file; the arena writes its outputs to regular "
                              "files only");
      const auto [place, fresh] = files.emplace(file_identity(path), std::pair(&output, path));
      if (!fresh)
        throw TournamentError(named(output, path) + " is the same file as " +
                              named(*place->second.first, place->second.second) +
                              "; give each output a file of its own");
    }
  }
  for (const std::string& input : inputs) {
    const auto place = files.find(file_identity(input));
    if (place != files.end())
      throw TournamentError(named(*place->second.first, place->second.second) +
                            " is the same file as " + input +
                            ", which this run reads; give each output a file of its own");
  }
  // An engine's stderr is appended by the engine (several may share one, or a device such as
  // /dev/null), but never into one of the arena's files.
  for (const EngineConfig& engine : config.engines) {
    if (engine.process.stderr_path.empty()) continue;
    const auto place = files.find(file_identity(engine.process.stderr_path));
    if (place != files.end())
      throw TournamentError("engine \"" + engine.name +
                            "\"'s stderr=" + engine.process.stderr_path + " is the same file as " +
                            named(*place->second.first, place->second.second) +
                            "; give the engine's stderr a file of its own");
  }
  // Locked before anything else is looked at: a second run is told of the first, not of the
  // files the first one is writing.
  for (const OutputFile& output : outputs) {
    std::string holder;
    std::optional<FileLock> lock;
    try {
      lock = FileLock::try_lock(lock_file_path(output.path), holder);
    } catch (const std::runtime_error& error) {
      throw TournamentError(output.option + ": cannot write " + output.path + " (" + error.what() +
                            ")");
    }
    if (!lock)
      throw TournamentError(output.option + " " + output.path + " is in use by another run (" +
                            holder_text(holder) + ", lock file " + lock_file_path(output.path) +
                            "); wait for it to end, or give this run other files");
    locks_.push_back(std::move(*lock));
  }
  if (!continues_earlier_run(config) && !config.overwrite)
    for (const OutputFile& output : outputs) refuse_to_replace(output, config);
}

}  // namespace quixo::arena
