// ctrlsched-truth: class=double_checked_locking fails=assertion
// ctrlsched-truth: cause g_codecs W1@77:g_codecs+40 R2@72:g_codecs+40 R2@114:g_codecs+48 W1@105:g_codecs+48
//
// Codec table for the media gateway. The built-in codecs are registered on
// first use so that tools linking the library without ever touching media do
// not pay for it.

#include <array>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

namespace {

struct Codec {
    const char* name;
    int payload_type;   // static RTP payload type, or -1 for dynamic
    int clock_rate;
    int channels;
    std::size_t (*encode)(const std::int16_t* pcm, std::size_t samples, std::uint8_t* out);
};

std::uint8_t linear_to_ulaw(std::int16_t sample) {
    constexpr int kBias = 0x84;
    int s = sample;
    int sign = (s >> 8) & 0x80;
    if (sign)
        s = -s;
    if (s > 32635)
        s = 32635;
    s += kBias;
    int exponent = 7;
    for (int mask = 0x4000; (s & mask) == 0 && exponent > 0; mask >>= 1)
        --exponent;
    int mantissa = (s >> (exponent + 3)) & 0x0f;
    return static_cast<std::uint8_t>(~(sign | (exponent << 4) | mantissa));
}

std::size_t encode_pcmu(const std::int16_t* pcm, std::size_t n, std::uint8_t* out) {
    for (std::size_t i = 0; i < n; ++i)
        out[i] = linear_to_ulaw(pcm[i]);
    return n;
}

std::size_t encode_pcma(const std::int16_t* pcm, std::size_t n, std::uint8_t* out) {
    for (std::size_t i = 0; i < n; ++i)
        out[i] = static_cast<std::uint8_t>(linear_to_ulaw(pcm[i]) ^ 0x55);
    return n;
}

std::size_t encode_l16(const std::int16_t* pcm, std::size_t n, std::uint8_t* out) {
    for (std::size_t i = 0; i < n; ++i) {
        auto v = static_cast<std::uint16_t>(pcm[i]);
        out[2 * i] = static_cast<std::uint8_t>(v >> 8);   // network byte order
        out[2 * i + 1] = static_cast<std::uint8_t>(v);
    }
    return 2 * n;
}

const Codec kPcmu{"PCMU", 0, 8000, 1, encode_pcmu};
const Codec kPcma{"PCMA", 8, 8000, 1, encode_pcma};
const Codec kL16{"L16", 11, 44100, 1, encode_l16};
const Codec kL16Wide{"L16/16000", -1, 16000, 1, encode_l16};

class CodecTable {
public:
    const Codec* find(std::string_view name) {
        if (!loaded_) {
            std::lock_guard lk(mu_);
            if (!loaded_) {
                // Set before registering: the aliases resolve their targets
                // through find(), and mu_ is not recursive.
                loaded_ = true;
                register_builtins();
            }
        }
        return lookup(name);
    }

private:
    struct Entry {
        std::string_view name;
        const Codec* codec;
    };

    void register_builtins() {
        add(kPcmu.name, &kPcmu);
        add(kPcma.name, &kPcma);
        add(kL16.name, &kL16);
        add(kL16Wide.name, &kL16Wide);
        add_alias("ulaw", "PCMU");
        add_alias("alaw", "PCMA");
        add_alias("g711u", "PCMU");
        add_alias("g711a", "PCMA");
    }

    void add(std::string_view name, const Codec* codec) {
        if (count_ == entries_.size())
            return;
        entries_[count_] = Entry{name, codec};
        ++count_;
    }

    void add_alias(std::string_view alias, std::string_view target) {
        if (const Codec* codec = find(target))
            add(alias, codec);
    }

    const Codec* lookup(std::string_view name) const {
        for (std::size_t i = 0; i < count_; ++i) {
            if (entries_[i].name == name)
                return entries_[i].codec;
        }
        return nullptr;
    }

    std::mutex mu_;
    bool loaded_ = false;
    std::size_t count_ = 0;
    std::array<Entry, 16> entries_{};
};

}  // namespace

CodecTable g_codecs;

namespace {

// One call leg: negotiate the codec named in the remote SDP and packetize
// 20 ms of a test tone.
void run_leg(std::string_view offered, std::size_t* bytes_out) {
    const Codec* codec = g_codecs.find(offered);
    assert(codec != nullptr && "offered codec is not registered");

    std::size_t samples = static_cast<std::size_t>(codec->clock_rate) / 50;
    std::vector<std::int16_t> pcm(samples);
    for (std::size_t i = 0; i < samples; ++i)
        pcm[i] = static_cast<std::int16_t>((i % 40 < 20 ? 1 : -1) * 8000);
    std::vector<std::uint8_t> payload(2 * samples);
    *bytes_out = codec->encode(pcm.data(), samples, payload.data());
}

}  // namespace

int main() {
    const std::string_view offers[] = {"PCMU", "PCMA", "L16/16000"};
    std::array<std::size_t, 3> bytes{};

    std::vector<std::thread> legs;
    for (std::size_t i = 0; i < 3; ++i)
        legs.emplace_back(run_leg, offers[i], &bytes[i]);
    for (auto& t : legs)
        t.join();

    for (std::size_t i = 0; i < 3; ++i)
        std::printf("%.*s: %zu bytes per packet\n", static_cast<int>(offers[i].size()),
                    offers[i].data(), bytes[i]);
    return 0;
}
