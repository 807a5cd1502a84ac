// hardware/cluster.hpp: how GPUs are put together: a node and the link between its GPUs, a
// cluster of nodes, and cloud instance shapes
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../units.hpp"
#include "device.hpp"
#include "link.hpp"

namespace gpucalc {

/// GPUs in one server and the link between them.
struct node {
    gpu_spec gpu{};
    std::int32_t gpus_per_node = 8;
    /// The link between GPUs of the node. It starts empty (no bandwidth): set it, usually to
    /// the GPU's scale_up link (NVLink), or to its host link for PCIe-only servers.
    link_spec intra_node{};
};

/// Identical nodes joined by a scale-out network.
struct cluster {
    gpucalc::node node{};
    std::int32_t nodes = 1;
    link_spec inter_node{};         ///< one network interface, e.g. InfiniBand NDR 400 Gb/s
    std::int32_t nics_per_node = 8; ///< rail-optimized fabrics give each GPU its own NIC
};

/// All GPUs in the cluster.
constexpr std::int64_t total_gpus(const cluster& c) {
    detail::require_count("total_gpus", "nodes", c.nodes);
    detail::require_count("total_gpus", "node.gpus_per_node", c.node.gpus_per_node);
    return static_cast<std::int64_t>(c.nodes) * c.node.gpus_per_node;
}

/// A node's scale-out bandwidth in one direction: NICs × per-NIC bandwidth.
constexpr bandwidth node_network_bandwidth(const cluster& c) {
    detail::require_count("node_network_bandwidth", "nics_per_node", c.nics_per_node);
    detail::require_positive("node_network_bandwidth", "inter_node.per_direction",
                             c.inter_node.per_direction);
    return static_cast<double>(c.nics_per_node) * c.inter_node.per_direction;
}

/// A cloud instance shape: which GPUs, how many, and the host around them.
/// Its price is a cost_rate for the whole instance ($/h), never a per-GPU price.
struct instance_spec {
    std::string_view provider{};  ///< "AWS", "Google Cloud", "Azure"
    std::string_view name{};      ///< the provider's name for the shape, e.g. "p5.48xlarge"
    gpu_spec gpu{};
    std::int32_t gpus = 1;
    std::int32_t vcpus = 0;
    data_size host_memory{};
    bandwidth network{};          ///< the instance's total scale-out bandwidth, one direction
};

}  // namespace gpucalc
