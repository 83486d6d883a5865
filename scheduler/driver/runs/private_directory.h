// A fresh, empty working directory for one test run (--private-cwd), removed with everything in
// it when the run is over.
//
// Why: tests that create files in their working directory see each other's files when runs
// share it (-j > 1), and even with -j 1 a run sees what the previous seed left, so a seed's
// outcome would depend on which seeds ran before it. A private directory per run gives every
// run the same starting point: an empty directory.
#pragma once

#include <string>
#include <utility>

namespace ctrlsched::driver {

class PrivateDirectory {
 public:
  // Creates $TMPDIR/ctrlsched-run-XXXXXX (or under /tmp). Throws DriverError(Internal).
  PrivateDirectory();
  ~PrivateDirectory();  // removes the directory tree; failures are ignored (nothing to report to)
  PrivateDirectory(const PrivateDirectory&) = delete;
  PrivateDirectory& operator=(const PrivateDirectory&) = delete;
  PrivateDirectory(PrivateDirectory&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  PrivateDirectory& operator=(PrivateDirectory&&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Removes a directory tree that a test may have left unreadable (mode 000 subdirectories):
// grants the owner access to every directory first. Returns false if something remained.
bool remove_directory_tree(const std::string& path);

}  // namespace ctrlsched::driver
