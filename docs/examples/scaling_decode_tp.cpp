// Llama-3-70B decode on one node of 8 H100: NVLink (SXM) against PCIe Gen5, TP = 2, 4 and 8,
// at batch 1 and 64: time per token, the all-reduces' share, and which term binds.
#include <gpucalc/gpucalc.hpp>

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <string>

namespace {
/// `text` padded to `width` characters on screen ("µ" is one character, two bytes).
std::string padded(const std::string& text, std::size_t width) {
    std::size_t shown = 0;
    for (char c : text) shown += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return text + std::string(shown < width ? width - shown : 0, ' ');
}

std::string percent(double share) {
    return std::to_string(static_cast<int>(share * 100.0 + 0.5)) + " %";
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    const gpucalc::checked_model llama = gpucalc::check(cat::llama_3_70b);
    // 8 H100 SXM on an HGX board's NVSwitch, or 8 H100 PCIe cards whose bridges join pairs
    // only, so their all-reduces cross PCIe Gen5.
    const auto sxm = gpucalc::check({.node = {.gpu = cat::h100_sxm}, .nodes = 1});
    const auto pcie = gpucalc::check({.node = {.gpu = cat::h100_pcie}, .nodes = 1});

    std::cout << padded("8 x H100, TP x PP, batch", 30) << padded("per token", 11)
              << padded("all-reduces", 13) << padded("share", 7) << "all-reduce is, step bound\n";
    for (const auto* c : {&sxm, &pcie}) {
        const std::string name = c == &sxm ? "SXM (NVLink)" : "PCIe";
        for (std::int64_t tp : {2, 4, 8}) {
            for (std::int64_t batch : {1, 64}) {
                gpucalc::serving_setup s{};
                s.batch = batch;
                s.context = 4096;
                s.parallel.tensor = tp;
                const auto r = gpucalc::decode_step_time(llama, *c, s);
                std::cout << padded(name + ", " + std::to_string(tp) + " x 1, " +
                                        std::to_string(batch), 30)
                          << padded(to_string(r.time_per_token), 11)
                          << padded(to_string(r.tensor_comm_time), 13)
                          << padded(percent(r.communication_share), 7) << r.regime << ", "
                          << r.limiter << "\n";
            }
        }
    }

    // The same 8 GPUs as 4 stages of TP = 2: each token passes the stages in turn, and the
    // batch of 64 splits into 4 micro-batches that keep every stage busy.
    gpucalc::serving_setup s{};
    s.batch = 64;
    s.context = 4096;
    s.parallel.tensor = 2;
    s.parallel.pipeline = 4;
    const auto pp = gpucalc::decode_step_time(llama, sxm, s);
    std::cout << "SXM, 2 x 4, 64: " << pp.micro_batches << " micro-batches of "
              << pp.micro_batch << ", per token " << pp.time_per_token << ", "
              << pp.aggregate_rate << " (TP 8: "
              << gpucalc::decode_step_time(llama, sxm, [] {
                     gpucalc::serving_setup t{};
                     t.batch = 64;
                     t.context = 4096;
                     t.parallel.tensor = 8;
                     return t;
                 }()).aggregate_rate
              << ")\n";
}
