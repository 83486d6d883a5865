// ctrlsched-truth: class=order_violation fails=assertion
// ctrlsched-truth: cause g_limits R1@36 W2@31
// Request limits for the API front end. The limits come from the config
// loader, which runs on its own thread so start-up does not wait on parsing;
// handlers read the current limits under a shared lock.
#include <cassert>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>

struct Limits {
    int max_body_kb;
    int timeout_ms;
};

static std::shared_mutex g_cfg_mu;
static Limits g_limits;  // zero until the loader has run
static std::once_flag g_banner_once;

static Limits parse_limits(const char* text) {
    Limits l{};
    if (std::sscanf(text, "max_body_kb=%d timeout_ms=%d", &l.max_body_kb, &l.timeout_ms) != 2)
        l = Limits{64, 1000};
    return l;
}

static void load_config() {
    Limits l = parse_limits("max_body_kb=512 timeout_ms=250");
    std::unique_lock<std::shared_mutex> lk(g_cfg_mu);
    g_limits = l;
}

static Limits current_limits() {
    std::shared_lock<std::shared_mutex> lk(g_cfg_mu);
    return g_limits;
}

static int handle_request(int body_kb) {
    std::call_once(g_banner_once, [] { std::puts("front end: serving"); });
    Limits l = current_limits();
    assert(l.timeout_ms > 0 && "request served without limits");
    return body_kb <= l.max_body_kb ? 200 : 413;
}

static void listener(int* statuses, int n) {
    static const int bodies[] = {12, 700, 64, 3};
    for (int i = 0; i < n; ++i)
        statuses[i] = handle_request(bodies[i % 4]);
}

int main() {
    int statuses[4] = {};
    std::thread loader(load_config);
    std::thread http(listener, statuses, 4);
    loader.join();
    http.join();
    for (int s : statuses)
        std::printf("%d ", s);
    std::printf("\n");
    return statuses[1] == 413 ? 0 : 1;
}
