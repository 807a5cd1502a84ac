// entries_collectives.cpp: the fuzz table's entries for scaling/collectives.hpp and
// scaling/placement.hpp and scaling/cluster_collectives.hpp: the bus-bandwidth conversions, a
// collective on one link, and a group placed on a cluster (checked and validating).
//
// The printing (repr.hpp) and checking (inspect.hpp) of the module's types live here, found by
// argument-dependent lookup through fuzz's own argument types (the inspector, the visitors),
// so this module touches no shared harness file; they may move into repr.hpp and inspect.hpp.
#include <gpucalc/scaling/cluster_collectives.hpp>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

// --- printing: enums and the spec ------------------------------------------------------------
#define FUZZ_SCALING_ENUM(type, values)                                 \
    template <>                                                         \
    struct enum_traits<gpucalc::type> {                                 \
        static constexpr const char* name = "gpucalc::" #type;          \
        static constexpr int count = values;                            \
    };
FUZZ_SCALING_ENUM(collective, 6)
FUZZ_SCALING_ENUM(collective_algorithm, 5)
FUZZ_SCALING_ENUM(link_level, 2)
#undef FUZZ_SCALING_ENUM

template <class F>
void fields(const gpucalc::collective_spec& a, const gpucalc::collective_spec& b, F&& f) {
    f("op", a.op, b.op);
    f("bytes", a.bytes, b.bytes);
    f("ranks", a.ranks, b.ranks);
    f("algorithm", a.algorithm, b.algorithm);
}
template <>
inline const char* type_name<gpucalc::collective_spec>() {
    return "gpucalc::collective_spec";
}
template <class F>
void fields(const gpucalc::group_placement& a, const gpucalc::group_placement& b, F&& f) {
    f("ranks_per_node", a.ranks_per_node, b.ranks_per_node);
    f("groups_per_node", a.groups_per_node, b.groups_per_node);
    f("tree_bandwidth_derate", a.tree_bandwidth_derate, b.tree_bandwidth_derate);
}
template <>
inline const char* type_name<gpucalc::group_placement>() {
    return "gpucalc::group_placement";
}

// --- checking: what each result promises -----------------------------------------------------
inline void inspect_collective(inspector& i, const gpucalc::collective_time_estimate& e) {
    i.amount("time", e.time);
    i.amount("latency_term", e.latency_term);
    i.amount("bandwidth_term", e.bandwidth_term);
    // `fastest` is resolved: the result names ring, tree, halving_doubling or direct.
    i.enumeration("algorithm", e.algorithm, 4);
    i.amount("algorithm_bandwidth", e.algorithm_bandwidth);
    i.amount("bus_bandwidth", e.bus_bandwidth);
    i.invariant("time == latency_term + bandwidth_term",
                e.time.value() == (e.latency_term + e.bandwidth_term).value(),
                number_text(e.time.value()));
    i.invariant("time == 0 implies algorithm_bandwidth == 0",
                e.time.value() > 0.0 || e.algorithm_bandwidth.value() == 0.0,
                number_text(e.algorithm_bandwidth.value()));
}
inline void inspect(inspector& i, const gpucalc::collective_time_estimate& e) {
    inspect_collective(i, e);
}
inline void inspect(inspector& i, const gpucalc::placed_collective_estimate& e) {
    inspect_collective(i, e);
    i.count("nodes", e.nodes);
    i.count("ranks_per_node", e.ranks_per_node);
    i.count("ranks_on_emptiest_node", e.ranks_on_emptiest_node);
    i.amount("intra_node_term", e.intra_node_term);
    i.amount("inter_node_term", e.inter_node_term);
    i.enumeration("binding", e.binding, 2);
    i.amount("inter_node_bandwidth", e.inter_node_bandwidth);
    i.invariant("nodes >= 1 and ranks_per_node >= 1", e.nodes >= 1 && e.ranks_per_node >= 1,
                std::to_string(e.nodes) + " x " + std::to_string(e.ranks_per_node));
    i.invariant("1 <= ranks_on_emptiest_node <= ranks_per_node",
                e.ranks_on_emptiest_node >= 1 && e.ranks_on_emptiest_node <= e.ranks_per_node,
                std::to_string(e.ranks_on_emptiest_node));
    i.invariant("time >= intra_node_term and time >= inter_node_term",
                e.time >= e.intra_node_term && e.time >= e.inter_node_term,
                number_text(e.time.value()));
    i.invariant("within one node: no inter_node_term, intra_node binds",
                e.nodes > 1 || (e.inter_node_term.value() == 0.0 &&
                                e.binding == gpucalc::link_level::intra_node),
                number_text(e.inter_node_term.value()));
    i.invariant("nodes == 1 iff inter_node_bandwidth == 0",
                (e.nodes == 1) == (e.inter_node_bandwidth.value() == 0.0),
                number_text(e.inter_node_bandwidth.value()));
}

namespace {

/// An op drawn for the conversions (any of the six, or a hostile value).
gpucalc::collective any_op(generator& g) {
    return g.any_enum<gpucalc::collective>(6, "op");
}
std::int64_t any_ranks(generator& g) {
    static constexpr std::int64_t ranks[] = {1, 2, 8, 16, 1024};
    return g.keep(g.one_of(ranks));
}
}  // namespace

void register_collectives(registry& r) {
    using namespace gpucalc;

    // scaling/collectives.hpp
    add_enum_to_string<collective>(r, "to_string(collective)", 6);
    add_enum_to_string<collective_algorithm>(r, "to_string(collective_algorithm)", 5);
    add(r, "bus_bandwidth_factor", "bus_bandwidth_factor",
        "gpucalc::bus_bandwidth_factor({0}, {1})",
        [](generator& g) { return std::tuple{any_op(g), any_ranks(g)}; },
        [](collective op, std::int64_t n) { return bus_bandwidth_factor(op, n); });
    add(r, "algorithm_bandwidth", "algorithm_bandwidth", "gpucalc::algorithm_bandwidth({0}, {1})",
        [](generator& g) {
            return std::tuple{g.q_or_zero<data_size>(typical::bytes), g.q<duration>(1e-3)};
        },
        [](const data_size& s, const duration& t) { return algorithm_bandwidth(s, t); });
    add(r, "bus_from_algorithm_bandwidth", "bus_from_algorithm_bandwidth",
        "gpucalc::bus_from_algorithm_bandwidth({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{any_op(g), any_ranks(g),
                              g.q_or_zero<bandwidth>(typical::link_bandwidth)};
        },
        [](collective op, std::int64_t n, const bandwidth& b) {
            return bus_from_algorithm_bandwidth(op, n, b);
        });
    add(r, "algorithm_from_bus_bandwidth", "algorithm_from_bus_bandwidth",
        "gpucalc::algorithm_from_bus_bandwidth({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{any_op(g), any_ranks(g),
                              g.q_or_zero<bandwidth>(typical::link_bandwidth)};
        },
        [](collective op, std::int64_t n, const bandwidth& b) {
            return algorithm_from_bus_bandwidth(op, n, b);
        });
    add(r, "collective_time [link]", "collective_time", "gpucalc::collective_time({0}, {1})",
        [](generator& g) { return std::tuple{draw::collective(g), draw::link(g)}; },
        [](const collective_spec& s, const link_spec& l) { return collective_time(s, l); });

    // scaling/placement.hpp, scaling/cluster_collectives.hpp
    add_enum_to_string<link_level>(r, "to_string(link_level)", 2);
    add(r, "collective_time [checked_cluster]", "collective_time",
        "gpucalc::collective_time({0}, gpucalc::check({1}), {2})",
        [](generator& g) {
            return std::tuple{draw::collective(g), draw::cluster(g), draw::placement(g)};
        },
        [](const collective_spec& s, const cluster& c, const group_placement& p) {
            return collective_time(s, checked(c), p);
        });
    add(r, "collective_time [cluster]", "collective_time",
        "gpucalc::collective_time({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::collective(g), draw::cluster(g), draw::placement(g)};
        },
        [](const collective_spec& s, const cluster& c, const group_placement& p) {
            return collective_time(s, c, p);
        });
}

}  // namespace fuzz
