// A fresh directory under the system's temporary folder, removed with everything in it when the
// object goes: each end-to-end test works in its own, so a suite can run in parallel with itself.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace quixo::testing {

class TempDir {
 public:
  // `prefix` names the folder (PREFIX<pid>-<n>), so a folder left by a killed test says whose it
  // is.
  explicit TempDir(std::string_view prefix = "quixo-test-") {
    static int counter = 0;
    do {
      path_ = std::filesystem::temp_directory_path() /
              (std::string(prefix) + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    } while (!std::filesystem::create_directory(path_));
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] std::string file(std::string_view name) const { return (path_ / name).string(); }
  [[nodiscard]] std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace quixo::testing
