// Per-run working directories (see private_directory.h).
#include "runs/private_directory.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "exit_codes.h"

namespace ctrlsched::driver {

PrivateDirectory::PrivateDirectory() {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string base = tmpdir && *tmpdir ? tmpdir : "/tmp";
  std::vector<char> name(base.begin(), base.end());
  const std::string suffix = "/ctrlsched-run-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr) {
    throw DriverError(ExitCode::Internal, "cannot create a private working directory under " + base + ": " +
                                              std::strerror(errno));
  }
  path_ = name.data();
}

PrivateDirectory::~PrivateDirectory() {
  if (!path_.empty()) remove_directory_tree(path_);
}

bool remove_directory_tree(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::remove_all(path, ec);
  if (!ec) return true;
  // A directory without write or search permission keeps its entries: open every directory up
  // for its owner (us) and try once more. Symbolic links are not followed.
  ::chmod(path.c_str(), S_IRWXU);
  for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), S_IRWXU);
  }
  ec.clear();
  fs::remove_all(path, ec);
  return !ec;
}

}  // namespace ctrlsched::driver
