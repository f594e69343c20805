// The command line of quixo-train, the trainer of the learned evaluation (Boost.Program_options):
// data, fit, all, keep and merge. The streams are parameters so tests can run it in-process.
#pragma once

#include <iosfwd>

namespace quixo::train {

// Runs one invocation of quixo-train. Returns 0 on success and 2 for a bad command line or
// unusable files (an unreadable or damaged data file, tables that do not load, an output that
// cannot be written). Every error is one line "quixo-train: <what is wrong>" on `err`.
int run_train_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace quixo::train
