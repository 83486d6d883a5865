// ctrlsched-truth: class=lost_update fails=exit
// ctrlsched-truth: cause g_store R1@21 W2@28 W1@28
// A small versioned document store: save() reads the current version under the lock,
// serializes the new body outside it (at most two serializations at a time), then installs the
// body as version base + 1. Two concurrent saves can both start from the same version.
#include <cstdio>
#include <mutex>
#include <semaphore>
#include <string>
#include <thread>
#include <vector>

std::counting_semaphore<2> g_serialize_slots(2);

class DocStore {
public:
    int save(const std::string &text) {
        int base;
        {
            std::lock_guard<std::mutex> lk(mu_);
            base = version_;
        }
        g_serialize_slots.acquire();
        std::string blob = "v" + std::to_string(base + 1) + "\n" + text + "\n";
        g_serialize_slots.release();
        {
            std::lock_guard<std::mutex> lk(mu_);
            version_ = base + 1;
            body_ = std::move(blob);
        }
        return base + 1;
    }

    int version() {
        std::lock_guard<std::mutex> lk(mu_);
        return version_;
    }

private:
    std::mutex mu_;
    int version_ = 0;
    std::string body_;
};

DocStore g_store;

int main() {
    {
        std::vector<std::jthread> editors;
        editors.emplace_back([] { g_store.save("intro, revised by alice"); });
        editors.emplace_back([] { g_store.save("intro, typo fixed by bob"); });
    }
    int v = g_store.version();
    if (v != 2) {
        std::fprintf(stderr, "lost a save: version %d after 2 saves\n", v);
        return 1;
    }
    std::printf("version %d\n", v);
    return 0;
}
