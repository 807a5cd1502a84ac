// hardware/cluster.hpp: how GPUs are put together: a node and its intra-node link, a cluster of
// nodes, the cluster checked once for many evaluations, and cloud instance shapes
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../units.hpp"
#include "device.hpp"
#include "link.hpp"

namespace gpucalc {

/// GPUs in one server and the link between them.
struct node {
    gpu_spec gpu{};
    std::int64_t gpus_per_node = 8;
    /// The link between the node's GPUs, when set explicitly. Left empty (zero bandwidth, the
    /// default), it is derived from the GPU: see intra_node_link. Set it to describe a server
    /// the GPU's links do not, e.g. one whose NVLink bridges were left out.
    link_spec intra_node{};
};

namespace detail {
/// intra_node_link(node) for a node whose links are checked.
constexpr link_spec intra_node_link_unchecked(const node& n) {
    if (n.intra_node.per_direction > bandwidth{}) return n.intra_node;
    if (n.gpu.scale_up.per_direction > bandwidth{} && n.gpu.scale_up.span >= n.gpus_per_node) {
        return n.gpu.scale_up;
    }
    return n.gpu.host;
}
}  // namespace detail

/// The link collectives inside `n` run over:
/// - `n.intra_node` when it is set (non-zero bandwidth);
/// - otherwise the GPU's scale_up link, when its span covers all `gpus_per_node` GPUs (an HGX
///   board's NVSwitch joins 8, a GB200 NVL72 rack 72);
/// - otherwise the GPU's host link: a ring over 8 PCIe cards crosses PCIe even where pairs of
///   them are bridged, so an 8 × A100 PCIe node gets PCIe Gen4, not the bridge's 300 GB/s.
/// Empty when the GPU has neither link; check(cluster) rejects that for more than one GPU.
/// Ranges: gpus_per_node in [1, 2^40]; the three links as link_spec states (named
/// "intra_node.", "gpu.scale_up." and "gpu.host."), so the link returned is a valid one.
constexpr link_spec intra_node_link(const node& n) {
    constexpr const char* function = "intra_node_link";
    detail::require_count(function, "gpus_per_node", n.gpus_per_node);
    detail::check(n.intra_node, detail::field_path{function, "intra_node."});
    detail::check(n.gpu.scale_up, detail::field_path{function, "gpu.", "scale_up."});
    detail::check(n.gpu.host, detail::field_path{function, "gpu.", "host."});
    return detail::intra_node_link_unchecked(n);
}

/// Identical nodes joined by a scale-out network.
struct cluster {
    gpucalc::node node{};
    std::int64_t nodes = 1;
    link_spec inter_node{};         ///< one network interface, e.g. InfiniBand NDR 400 Gb/s
    std::int64_t nics_per_node = 8; ///< rail-optimized fabrics give each GPU its own NIC
};

class checked_cluster;

namespace detail {
constexpr checked_cluster check_cluster(const cluster& c, const char* function);
}  // namespace detail

/// A cluster checked once, holding a copy and the values every evaluation needs. It is
/// obtainable only from check(cluster), so a function taking one never re-checks it, and it is
/// a literal type: a checked cluster can be a constexpr variable.
class checked_cluster {
public:
    /// The cluster as the caller wrote it.
    constexpr const cluster& spec() const { return spec_; }

private:
    constexpr checked_cluster(const cluster& c, std::int64_t total_gpus,
                              const link_spec& intra_node, bandwidth node_network)
        : spec_(c), total_gpus_(total_gpus), intra_node_(intra_node), node_network_(node_network) {}

    friend constexpr checked_cluster detail::check_cluster(const cluster& c, const char* function);
    friend constexpr std::int64_t total_gpus(const checked_cluster& c);
    friend constexpr const link_spec& intra_node_link(const checked_cluster& c);
    friend constexpr bandwidth node_network_bandwidth(const checked_cluster& c);

    cluster spec_;
    std::int64_t total_gpus_;
    link_spec intra_node_;      ///< intra_node_link(spec_.node), resolved once
    bandwidth node_network_;    ///< nics_per_node × inter_node.per_direction
};

namespace detail {
/// check(cluster)'s rules, reported under the name of the function the caller called.
constexpr checked_cluster check_cluster(const cluster& c, const char* function) {
    require_count(function, "nodes", c.nodes);
    require_count(function, "node.gpus_per_node", c.node.gpus_per_node);
    require_count(function, "nics_per_node", c.nics_per_node);
    check(c.node.gpu, field_path{function, "node.gpu."});
    check(c.node.intra_node, field_path{function, "node.", "intra_node."});
    check(c.inter_node, field_path{function, "", "inter_node."});
    const link_spec intra_node = intra_node_link_unchecked(c.node);
    if (c.node.gpus_per_node > 1 && !(intra_node.per_direction > bandwidth{})) {
        throw_invalid(function, "node.intra_node.per_direction", 0.0, "B/s",
                      "must be > 0 when node.gpus_per_node = ",
                      static_cast<double>(c.node.gpus_per_node),
                      " (node.gpu has no scale_up link spanning them and no host link)");
    }
    if (c.nodes > 1 && !(c.inter_node.per_direction > bandwidth{})) {
        throw_invalid(function, "inter_node.per_direction", 0.0, "B/s",
                      "must be > 0 when nodes = ", static_cast<double>(c.nodes),
                      " (a scale-out link joins them)");
    }
    // Both counts are at most 2^40, so their product is formed in double (exact below 2^53)
    // and checked before it becomes an integer.
    const double product = static_cast<double>(c.nodes) * static_cast<double>(c.node.gpus_per_node);
    if (product > static_cast<double>(largest_count)) {
        throw_invalid(function, "nodes x node.gpus_per_node", product, "", "must be <= 2^40");
    }
    const std::int64_t gpus = c.nodes * c.node.gpus_per_node;
    const bandwidth network = static_cast<double>(c.nics_per_node) * c.inter_node.per_direction;
    return checked_cluster(c, gpus, intra_node, network);
}
}  // namespace detail

/// Checks `c` once. Ranges: nodes, node.gpus_per_node and nics_per_node in [1, 2^40], and
/// nodes × node.gpus_per_node at most 2^40; the GPU as check(gpu_spec) (its
/// fields named under "node.gpu."); every link as link_spec states; a link between the GPUs of
/// a node of more than one (set or derived), and a scale-out link between more than one node.
/// The handle it returns carries the derived values, so the overloads below taking it check
/// nothing again.
constexpr checked_cluster check(const cluster& c) {
    return detail::check_cluster(c, "check(cluster)");
}

/// All GPUs in the cluster.
constexpr std::int64_t total_gpus(const checked_cluster& c) { return c.total_gpus_; }

/// The link collectives inside each node run over (see intra_node_link(node)).
constexpr const link_spec& intra_node_link(const checked_cluster& c) { return c.intra_node_; }

/// A node's scale-out bandwidth in one direction: NICs × per-NIC bandwidth. Zero for a single
/// node that names no scale-out link.
constexpr bandwidth node_network_bandwidth(const checked_cluster& c) { return c.node_network_; }

/// All GPUs in the cluster; checks `c` first (see check(cluster)).
constexpr std::int64_t total_gpus(const cluster& c) {
    return total_gpus(detail::check_cluster(c, "total_gpus"));
}

/// A node's scale-out bandwidth in one direction; checks `c` first (see check(cluster)).
constexpr bandwidth node_network_bandwidth(const cluster& c) {
    return node_network_bandwidth(detail::check_cluster(c, "node_network_bandwidth"));
}

/// A cloud instance shape: which GPUs, how many, and the host around them.
/// Its price is a cost_rate for the whole instance ($/h), never a per-GPU price.
struct instance_spec {
    std::string_view provider{};  ///< "AWS", "Google Cloud", "Azure"
    std::string_view name{};      ///< the provider's name for the shape, e.g. "p5.48xlarge"
    gpu_spec gpu{};
    std::int64_t gpus = 1;
    std::int64_t vcpus = 0;
    data_size host_memory{};
    bandwidth network{};          ///< the instance's total scale-out bandwidth, one direction
};

}  // namespace gpucalc
