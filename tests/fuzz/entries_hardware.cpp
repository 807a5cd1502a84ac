// entries_hardware.cpp: the fuzz table's entries for hardware.hpp: devices and their peaks, links,
// nodes and clusters, and the equality of specs.
#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {

void register_hardware(registry& r) {
    using namespace gpucalc;

    // hardware/device.hpp
    add(r, "supports", "supports", "gpucalc::supports({0}, {1})",
        [](generator& g) { return std::tuple{draw::gpu(g), draw::precision(g, "precision")}; },
        [](const gpu_spec& gpu, compute_precision p) { return supports(gpu, p); });
    add(r, "peak", "peak", "gpucalc::peak({0}, {1})",
        [](generator& g) { return std::tuple{draw::gpu(g), draw::precision(g, "precision")}; },
        [](const gpu_spec& gpu, compute_precision p) { return peak(gpu, p); });
    add(r, "check(gpu_spec)", "check(gpu_spec)", "gpucalc::check({0})",
        [](generator& g) { return std::tuple{draw::gpu(g)}; },
        [](const gpu_spec& gpu) {
            check(gpu);
            return true;
        });
    add(r, "kernel_efficiency::ideal", "kernel_efficiency::ideal",
        "gpucalc::kernel_efficiency::ideal()", [](generator&) { return std::tuple<>{}; },
        [] { return kernel_efficiency::ideal(); })
        .weight = 0.05;
    // Equality: the second spec a copy of the first (or another draw), its MIG profiles in a
    // table of its own, so the profiles are compared by content.
    add(r, "operator==(gpu_spec)", "operator==", "{0} == {1}",
        [](generator& g) {
            const gpu_spec a = draw::gpu(g, 0);
            gpu_spec b = g.coin(0.7) ? a : draw::gpu(g, 1);
            if (a.mig != nullptr && b.mig == a.mig) {
                mig_profile* table = g.mig_table(1);
                for (int i = 0; i < max_mig_profiles; ++i) table[i] = a.mig[i];
                b.mig = table;
            }
            return std::tuple{a, b};
        },
        [](const gpu_spec& a, const gpu_spec& b) { return a == b; })
        .weight = 0.5;
    add(r, "operator==(peak_rates)", "operator==", "{0}.dense_peak == {1}.dense_peak",
        [](generator& g) { return std::tuple{draw::gpu(g, 0), draw::gpu(g, 1)}; },
        [](const gpu_spec& a, const gpu_spec& b) { return a.dense_peak == b.dense_peak; })
        .weight = 0.2;
    add(r, "operator==(mig_profile)", "operator==", "{0} == {1}",
        [](generator& g) {
            const mig_profile& a = gpucalc::catalog::detail_mig::h100_80gb[g.r.below(6)];
            mig_profile b = g.coin() ? a : gpucalc::catalog::detail_mig::a100_80gb[g.r.below(6)];
            b.memory = g.keep_q(b.memory);
            return std::tuple{a, b};
        },
        [](const mig_profile& a, const mig_profile& b) { return a == b; })
        .weight = 0.2;

    // hardware/link.hpp
    add(r, "operator==(link_spec)", "operator==", "{0} == {1}",
        [](generator& g) {
            const link_spec a = draw::link(g);
            return std::tuple{a, g.coin() ? a : draw::link(g)};
        },
        [](const link_spec& a, const link_spec& b) { return a == b; })
        .weight = 0.2;
    add(r, "link_from_bidirectional", "link_from_bidirectional",
        "gpucalc::link_from_bidirectional({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{std::string_view("NVLink 4"),
                              g.q<bandwidth>(2.0 * typical::link_bandwidth),
                              g.q_or_zero<duration>(typical::latency),
                              g.q_or_zero<duration>(typical::base_latency)};
        },
        [](std::string_view name, const bandwidth& both, const duration& latency,
           const duration& base_latency) {
            return link_from_bidirectional(name, both, latency, base_latency);
        });
    add(r, "bus_bandwidth", "bus_bandwidth", "gpucalc::bus_bandwidth({0})",
        [](generator& g) { return std::tuple{draw::link(g)}; },
        [](const link_spec& l) { return bus_bandwidth(l); });

    // hardware/cluster.hpp
    add(r, "intra_node_link(node)", "intra_node_link", "gpucalc::intra_node_link({0})",
        [](generator& g) { return std::tuple{draw::node(g)}; },
        [](const node& n) { return intra_node_link(n); });
    add(r, "check(cluster)", "check(cluster)", "gpucalc::check({0})",
        [](generator& g) { return std::tuple{draw::cluster(g)}; },
        [](const cluster& c) { return check(c); });
    add(r, "total_gpus(cluster)", "total_gpus", "gpucalc::total_gpus({0})",
        [](generator& g) { return std::tuple{draw::cluster(g)}; },
        [](const cluster& c) { return total_gpus(c); });
    add(r, "total_gpus [checked_cluster]", "total_gpus", "gpucalc::total_gpus(gpucalc::check({0}))",
        [](generator& g) { return std::tuple{draw::cluster(g)}; },
        [](const cluster& c) { return total_gpus(checked(c)); })
        .weight = 0.3;
    add(r, "intra_node_link [checked_cluster]", "intra_node_link",
        "gpucalc::intra_node_link(gpucalc::check({0}))",
        [](generator& g) { return std::tuple{draw::cluster(g)}; },
        [](const cluster& c) {
            const checked_cluster cc = checked(c);
            return intra_node_link(cc);
        })
        .weight = 0.3;
    add(r, "node_network_bandwidth(cluster)", "node_network_bandwidth",
        "gpucalc::node_network_bandwidth({0})",
        [](generator& g) { return std::tuple{draw::cluster(g)}; },
        [](const cluster& c) { return node_network_bandwidth(c); });
    add(r, "node_network_bandwidth [checked_cluster]", "node_network_bandwidth",
        "gpucalc::node_network_bandwidth(gpucalc::check({0}))",
        [](generator& g) { return std::tuple{draw::cluster(g)}; },
        [](const cluster& c) { return node_network_bandwidth(checked(c)); })
        .weight = 0.3;
}

}  // namespace fuzz
