// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_alpha,g_beta,g_gamma lock1@36:g_alpha lock2@36:g_beta lock3@36:g_gamma lock1@40:g_beta lock2@40:g_gamma lock3@40:g_alpha
// ctrlsched-truth: cause g_alpha,g_beta,g_gamma lock1@36:g_beta lock2@36:g_gamma lock3@36:g_alpha lock1@40:g_gamma lock2@40:g_alpha lock3@40:g_beta
// ctrlsched-truth: cause g_alpha,g_beta,g_gamma lock1@36:g_gamma lock2@36:g_alpha lock3@36:g_beta lock1@40:g_alpha lock2@40:g_beta lock3@40:g_gamma
// Chain replication over a ring of three replicas: every replica appends a
// client write to its own log and forwards it to its successor before it
// acknowledges, so each entry is stored on two replicas.
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

constexpr int kLogCap = 16;

struct Replica {
    std::mutex mu;
    const char* name;
    int log[kLogCap];
    int len;
    unsigned digest;
    Replica* next;
};

static Replica g_alpha, g_beta, g_gamma;

static void append_locked(Replica& r, int entry) {
    if (r.len == kLogCap) {
        std::fprintf(stderr, "%s: log full\n", r.name);
        std::abort();
    }
    r.log[r.len++] = entry;
    r.digest = r.digest * 31u + static_cast<unsigned>(entry);
}

static void client_write(Replica& self, int entry) {
    std::lock_guard<std::mutex> own(self.mu);
    append_locked(self, entry);
    // Forward while holding our own lock, so the successor sees entries in
    // the order we stored them.
    std::lock_guard<std::mutex> succ(self.next->mu);
    append_locked(*self.next, entry);
}

static void serve(Replica* r, int base) {
    for (int i = 0; i < 2; ++i)
        client_write(*r, base + i);
}

int main() {
    g_alpha.name = "alpha";
    g_beta.name = "beta";
    g_gamma.name = "gamma";
    g_alpha.next = &g_beta;
    g_beta.next = &g_gamma;
    g_gamma.next = &g_alpha;

    std::thread ta(serve, &g_alpha, 100);
    std::thread tb(serve, &g_beta, 200);
    std::thread tc(serve, &g_gamma, 300);
    ta.join();
    tb.join();
    tc.join();

    for (Replica* r : {&g_alpha, &g_beta, &g_gamma})
        std::printf("%s: %d entries, digest %08x\n", r->name, r->len, r->digest);
    return g_alpha.len == 4 && g_beta.len == 4 && g_gamma.len == 4 ? 0 : 1;
}
