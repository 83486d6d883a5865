// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause g_sink R1@45 W2@52
// An asynchronous logger: the I/O thread opens the shared sink and produces records; a flusher
// thread checksums and writes out the records pending in the sink.
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>

struct Sink {
  char lines[8][32];
  int pending = 0;
  int written = 0;

  void append(const char* text) {
    std::snprintf(lines[pending % 8], sizeof lines[0], "%s", text);
    ++pending;
  }
  std::uint32_t flush(const std::uint32_t* table, std::uint32_t crc) {
    for (int i = 0; i < pending; ++i) {
      for (const char* p = lines[i]; *p; ++p)
        crc = table[(crc ^ static_cast<unsigned char>(*p)) & 0xff] ^ (crc >> 8);
    }
    written += pending;
    pending = 0;
    return crc;
  }
};

Sink* g_sink = nullptr;
std::mutex g_sink_mu;
std::uint32_t g_crc;

static void flush_loop() {
  std::uint32_t table[256];  // CRC-32 table, built once by the flusher
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  std::uint32_t crc = 0xffffffffu;
  for (int pass = 0; pass < 3; ++pass) {
    std::lock_guard<std::mutex> lk(g_sink_mu);
    crc = g_sink->flush(table, crc);
  }
  g_crc = ~crc;
}

// The I/O thread owns the sink: it opens it, then produces the start-up records.
static void io_main() {
  g_sink = new Sink;
  const char* records[] = {"start", "config loaded", "worker 1 up", "worker 2 up", "ready"};
  for (const char* r : records) {
    std::lock_guard<std::mutex> lk(g_sink_mu);
    g_sink->append(r);
  }
}

int main() {
  std::thread io(io_main);
  std::thread flusher(flush_loop);
  io.join();
  flusher.join();
  assert(g_sink->written + g_sink->pending == 5);
  std::printf("%d records written by the flusher (crc %08x), %d left\n", g_sink->written,
              static_cast<unsigned>(g_crc), g_sink->pending);
  delete g_sink;
  return 0;
}
