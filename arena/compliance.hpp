// quixo-arena --compliance: one engine checked against the UQI contract of docs/spec.md §5, as
// fastchess's --compliance checks a UCI engine. Each check sends the engine a short, fixed
// conversation and judges its answers with the protocol's parsers and the rules core; every wait
// has a deadline, so an engine that stalls fails the check instead of hanging the arena, and one
// that crashes or stalls is started again for the next check.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine_client.hpp"

namespace quixo::arena {

struct ComplianceOptions {
  // The longest wait for an answer that no clock limits: the handshake, `readyok`, the
  // `bestmove` after `stop`, a search with a fixed limit.
  std::chrono::milliseconds timeout{5000};
  // How far past its time a `bestmove` may come under a clock or `movetime` (the arena's
  // --timemargin).
  std::chrono::milliseconds time_margin{50};
  // Random positions per variant for the legal-move checks, and the seed of the random play
  // that reaches them (the same seed gives the same positions on every machine).
  int positions = 40;
  std::uint64_t seed = 1;
};

struct ComplianceCheck {
  enum class Status { Pass, Fail, Skip };
  std::string name;  // e.g. "handshake", "stop"
  Status status = Status::Pass;
  std::string reason;  // why it failed or was skipped; empty for a pass
};

struct ComplianceReport {
  std::vector<ComplianceCheck> checks;
  int count(ComplianceCheck::Status status) const;
  bool all_passed() const { return count(ComplianceCheck::Status::Fail) == 0; }
};

// The checks in the order they run, each name as format_check() prints it.
const std::vector<std::string>& compliance_check_names();

// Runs every check on `engine` (its command, arguments, protocol and option.X settings, which
// are sent after each handshake); `on_check` is called as each check ends, so a caller can print
// progress. Throws ProcessStartError when the engine's command cannot be started at all (a user
// error rather than a failed check); every other failure is a failed check.
ComplianceReport run_compliance(const EngineConfig& engine, const ComplianceOptions& options,
                                const std::function<void(const ComplianceCheck&)>& on_check = {},
                                ProcessLauncher launcher = default_launcher());

// "PASS name", "FAIL name: reason", "SKIP name: reason".
std::string format_check(const ComplianceCheck& check);
// "compliance: PASS (14 passed, 0 failed, 1 skipped)", or FAIL when any check failed.
std::string format_summary(const ComplianceReport& report);

}  // namespace quixo::arena
