// ctrlsched-truth: class=atomicity fails=signal
// ctrlsched-truth: cause g_log,g_files R1@56:g_log W2@65:g_log W2@35:g_files R1@28:g_files
// Rotating application log. Log files are preallocated slots; rotate() opens the next one and
// closes the current one (its buffer is flushed and released, the slot stays for the archiver).
// Each file serializes its own appends, so write() only holds the log lock long enough to pick
// the current file.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

namespace {

class LogFile {
 public:
  static constexpr std::size_t kCapacity = 256;

  void open(int index) {
    std::lock_guard<std::mutex> lock(mu_);
    index_ = index;
    buf_ = new char[kCapacity];
    len_ = 0;
  }
  void append(const char* line) {
    std::lock_guard<std::mutex> lock(mu_);
    std::size_t n = std::strlen(line);
    if (len_ + n > kCapacity) return;  // a real logger would rotate; dropped in this sketch
    std::memcpy(buf_ + len_, line, n);
    len_ += n;
    lines_++;
  }
  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    delete[] buf_;  // (flushing to disk elided)
    buf_ = nullptr;
  }
  int lines() const { return lines_; }

 private:
  std::mutex mu_;
  int index_ = -1;
  char* buf_ = nullptr;
  std::size_t len_ = 0;
  int lines_ = 0;
};

LogFile g_files[4];

class RotatingLog {
 public:
  RotatingLog() { g_files[0].open(0); }
  void write(const char* line) {
    LogFile* file;
    {
      std::lock_guard<std::mutex> lock(mu_);
      file = current_;
    }
    file->append(line);
  }
  void rotate() {
    std::lock_guard<std::mutex> lock(mu_);
    LogFile* old = current_;
    ++index_;
    g_files[index_].open(index_);
    current_ = &g_files[index_];
    old->close();
  }
  ~RotatingLog() { current_->close(); }

 private:
  std::mutex mu_;
  LogFile* current_ = &g_files[0];
  int index_ = 0;
};

RotatingLog g_log;
}  // namespace

int main() {
  std::thread request_thread([] {
    g_log.write("GET /index.html 200\n");
    g_log.write("GET /style.css 200\n");
  });
  std::thread admin_thread([] { g_log.rotate(); });  // logrotate asked for a new file
  request_thread.join();
  admin_thread.join();
  int total = g_files[0].lines() + g_files[1].lines();
  std::printf("%d lines logged\n", total);
  return total == 2 ? 0 : 1;
}
