// The files a tournament writes (--pgn, --results, --epd-out, --log and the file reports such as
// --report-html), all under one policy, checked before anything is written:
// - each is a regular file or not there yet: a folder, a device, a FIFO or a socket is refused
//   (a device would be replaced by a regular file, a FIFO would block the run);
// - no two of them are one file (compared as files: the same path, a symbolic or a hard link),
//   nor one of them a file that another writes beside itself (RESULTS.journal, FILE.tmp, LOG.1,
//   FILE.lock) or an engine's stderr= file;
// - a run that starts afresh refuses an existing output that is not empty unless --overwrite
//   (which starts it afresh); a run that continues the one recorded in its results file
//   (--resume) appends to the PGN, the results and the log, and rewrites the final positions and
//   the page, which it writes from the whole tournament;
// - for the length of the run each is locked (an advisory lock on FILE.lock, which holds the
//   process id and host), and a second run on any of them is refused, naming the first one's
//   process. A crashed run's lock goes with its process: the file it leaves is taken over.
#pragma once

#include <string>
#include <vector>

#include "file_io.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

// One output file, as messages name it.
struct OutputFile {
  std::string option;  // "--pgn"
  std::string what;    // "PGN file"
  std::string path;
  std::vector<std::string> beside;  // the files written beside it (RESULTS.journal, PATH.tmp)
  bool appended = false;            // continued by a resume (the PGN, results, log), else rewritten
};

// The outputs that `config` names (those it leaves empty are not written), in option order.
[[nodiscard]] std::vector<OutputFile> output_files(const TournamentConfig& config);

// The lock file of an output: PATH.lock.
[[nodiscard]] std::string lock_file_path(const std::string& path);

// Whether the run continues the tournament recorded in its results file (--resume, and the file
// is there) rather than start afresh.
[[nodiscard]] bool continues_earlier_run(const TournamentConfig& config);

// A run's outputs, checked against the policy above and locked for the object's life; none may
// be one of `inputs`, the files the run reads (a merge's shards). Throws TournamentError naming
// the option, the file and what is wrong with it (or which process holds it) when the run may
// not write them.
class ClaimedOutputs {
 public:
  explicit ClaimedOutputs(const TournamentConfig& config,
                          const std::vector<std::string>& inputs = {});

 private:
  std::vector<FileLock> locks_;
};

}  // namespace quixo::arena
