// ctrlsched-truth: class=order_violation fails=assertion
// ctrlsched-truth: cause * W1@36 R2@45 R2@46 W1@37
// ctrlsched-truth: cause * W1@36 R2@45 R2@47 W1@38
// ctrlsched-truth: cause * W1@36 R2@45 R2@47 W1@37
//
// config_reload.cpp - hot reload of a server configuration.
//
// Bug: ConfigManager::reload() publishes the freshly allocated Config through
// the plain pointer g_config *before* filling in its fields. A request thread
// that picks up the pointer in between sees a Config whose port and connection
// limit are still zero and fails its sanity check. (The fields must be filled
// first and the pointer published last, with release/acquire ordering.)
#include <cassert>
#include <cstdio>
#include <thread>

struct Config {
    int port = 0;
    int max_conn = 0;
};

Config* g_config = nullptr;

class ConfigManager {
public:
    void load_initial() {
        Config* c = new Config;
        c->port = 8080;
        c->max_conn = 64;
        g_config = c;
    }

    // Old configs are retired, not freed: requests may still hold them.
    void reload(int port, int max_conn) {
        Config* c = new Config;
        g_config = c;
        c->port = port;
        c->max_conn = max_conn;
    }
};

ConfigManager g_manager;

void handle_request(int n) {
    Config* c = g_config;
    int port = c->port;
    int max_conn = c->max_conn;
    std::printf("request %d: port=%d max_conn=%d\n", n, port, max_conn);
    assert(port > 0 && max_conn > 0);
}

int main() {
    g_manager.load_initial();
    std::thread reloader([] { g_manager.reload(9090, 128); });
    std::thread server([] { handle_request(1); });
    reloader.join();
    server.join();
    return 0;
}
