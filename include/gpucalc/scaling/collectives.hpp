// scaling/collectives.hpp: how long one collective (all-reduce, all-gather, ...) takes among the
// ranks of one link, in the α–β model, and how nccl-tests' algorithm and bus bandwidths relate
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../hardware/link.hpp"
#include "../units.hpp"

namespace gpucalc {

/// A collective operation. Its message size follows nccl-tests' convention (doc/PERFORMANCE.md
/// in github.com/NVIDIA/nccl-tests): all_reduce, all_to_all and broadcast: the buffer on each
/// rank; all_gather: the gathered (output) buffer, each rank contributing 1/n of it;
/// reduce_scatter: the input buffer, each rank keeping 1/n of it; point_to_point: the message.
enum class collective {
    all_reduce,
    all_gather,
    reduce_scatter,
    all_to_all,
    broadcast,
    point_to_point
};

/// How a collective is carried out. `fastest` picks the faster of ring and tree for the ops that
/// have both (all_reduce, broadcast), and otherwise the op's one pipelined algorithm (ring for
/// all_gather and reduce_scatter, direct for all_to_all and point_to_point). NCCL's own choice
/// also depends on its version, its protocol (LL, LL128, Simple) and its tuning tables, so
/// `fastest` is a model of it, not a prediction.
enum class collective_algorithm { ring, tree, halving_doubling, direct, fastest };

/// The op's name; "unknown" for a value outside the enumerators (printing never throws).
constexpr std::string_view to_string(collective c) {
    switch (c) {
        case collective::all_reduce: return "all_reduce";
        case collective::all_gather: return "all_gather";
        case collective::reduce_scatter: return "reduce_scatter";
        case collective::all_to_all: return "all_to_all";
        case collective::broadcast: return "broadcast";
        case collective::point_to_point: return "point_to_point";
    }
    return "unknown";
}

/// The algorithm's name; "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(collective_algorithm a) {
    switch (a) {
        case collective_algorithm::ring: return "ring";
        case collective_algorithm::tree: return "tree";
        case collective_algorithm::halving_doubling: return "halving_doubling";
        case collective_algorithm::direct: return "direct";
        case collective_algorithm::fastest: return "fastest";
    }
    return "unknown";
}

/// One collective among `ranks` ranks. Ranges: op and algorithm one of their enumerators (and
/// an algorithm the op has: tree is not defined for all_gather and reduce_scatter; direct only
/// for all_to_all and point_to_point, which take only direct or fastest); bytes 0 (latency
/// only) or in [1e-30 B, 1e30 B]; ranks in [1, 2^40], and exactly 2 for point_to_point.
struct collective_spec {
    collective op = collective::all_reduce;
    data_size bytes{};
    std::int64_t ranks = 2;
    collective_algorithm algorithm = collective_algorithm::fastest;
};

/// How long a collective takes, split into the α–β model's two terms, and the bandwidths
/// nccl-tests would report for it.
struct collective_time_estimate {
    duration time{};                   ///< latency_term + bandwidth_term; 0 for one rank
    /// The latency part: the base latency once, plus the per-hop α of each step on the
    /// critical path
    duration latency_term{};
    duration bandwidth_term{};         ///< the β part: bytes on the critical path ÷ bandwidth
    collective_algorithm algorithm = collective_algorithm::ring;  ///< the one used (never fastest)
    bandwidth algorithm_bandwidth{};   ///< bytes ÷ time (nccl-tests' algbw); 0 when time is 0
    bandwidth bus_bandwidth{};         ///< algorithm_bandwidth × bus_bandwidth_factor (busbw)
};

namespace detail {

constexpr int collective_count = 6;
constexpr int collective_algorithm_count = 5;

/// ceil(log2 n) for n in [1, 2^40], by doubling (at most 40 steps).
constexpr std::int64_t ceil_log2(std::int64_t n) {
    std::int64_t steps = 0;
    for (std::int64_t reach = 1; reach < n; reach *= 2) ++steps;
    return steps;
}

/// The largest power of two not above n, for n in [1, 2^40].
constexpr std::int64_t floor_power_of_two(std::int64_t n) {
    std::int64_t p = 1;
    while (2 * p <= n) p *= 2;
    return p;
}

/// An algorithm's cost in the α–β model (Hockney 1994, "The communication challenge for MPP"):
/// time = base + latency_steps × α + volume × S ÷ B, with S the message (nccl-tests' convention),
/// B the bus bandwidth of the link, α its per-hop latency and `base` its per-collective latency
/// (NCCL's baseLat + steps × hwLat, src/graph/tuning.cc in github.com/NVIDIA/nccl).
struct alpha_beta_terms {
    double latency_steps = 0.0;
    double volume = 0.0;
};

/// The op's `algorithm` among n ranks on one link, for an algorithm the op has (checked by the
/// caller). Costs from Thakur, Rabenseifner and Gropp 2005, "Optimization of Collective
/// Communication Operations in MPICH", IJHPCA 19(1) (§ below), with the reduction's own
/// compute (their γ) left out: on a GPU it runs far faster than any link feeds it. One rank
/// communicates nothing and takes no time.
constexpr alpha_beta_terms flat_terms(collective op, collective_algorithm algorithm,
                                      std::int64_t n) {
    if (n <= 1) return {};
    const double ranks = static_cast<double>(n);
    const double share = (ranks - 1.0) / ranks;  // (n − 1)/n: what a rank receives of the rest
    const double log_steps = static_cast<double>(ceil_log2(n));
    switch (op) {
        case collective::all_reduce:
            if (algorithm == collective_algorithm::tree) {
                // NCCL's double binary tree (Sanders, Speck and Träff 2009, in NCCL 2.4): up
                // and down a tree of depth ceil(log2 n), each element once each way,
                // pipelined (derived).
                return {2.0 * log_steps, 2.0};
            }
            if (algorithm == collective_algorithm::halving_doubling) {
                // Rabenseifner: reduce-scatter by recursive halving, all-gather by recursive
                // doubling among p = 2^floor(log2 n) ranks (Thakur et al. §4.4); the n − p
                // extra ranks first hand their data to a partner and get the result back at
                // the end, one α + S/B each way (§4.4).
                const std::int64_t p = floor_power_of_two(n);
                const double powers = static_cast<double>(p);
                const double extra = p == n ? 0.0 : 2.0;
                return {2.0 * static_cast<double>(ceil_log2(p)) + extra,
                        2.0 * (powers - 1.0) / powers + extra};
            }
            // Ring: a reduce-scatter then an all-gather, n − 1 steps each (Thakur et al. §4.4;
            // Patarasuk and Yuan 2009, bandwidth-optimal).
            return {2.0 * (ranks - 1.0), 2.0 * share};
        case collective::all_gather:
        case collective::reduce_scatter:
            if (algorithm == collective_algorithm::halving_doubling) {
                // Recursive doubling for all-gather, recursive halving for reduce-scatter
                // (Thakur et al. §4.1, §4.3): log2 n steps. For n not a power of two, Bruck et
                // al. 1997's all-gather takes ceil(log2 n) steps at the same volume, and the
                // reduce-scatter its mirror image (valid for commutative reductions; derived).
                return {log_steps, share};
            }
            return {ranks - 1.0, share};  // ring (Thakur et al. §4.1, §4.3)
        case collective::broadcast:
            if (algorithm == collective_algorithm::tree) {
                return {log_steps, log_steps};  // binomial tree (Thakur et al. §4.2, short)
            }
            if (algorithm == collective_algorithm::halving_doubling) {
                // van de Geijn: a binomial scatter, then a ring all-gather (Thakur et al. §4.2,
                // long messages).
                return {log_steps + ranks - 1.0, 2.0 * share};
            }
            // Ring: a pipelined chain from the root, each rank forwarding every chunk as it
            // arrives: n − 1 hops, the message once over each link (NCCL's ring broadcast;
            // derived).
            return {ranks - 1.0, 1.0};
        case collective::all_to_all:
            // Pairwise exchange: n − 1 steps, each sending S/n to one peer (Thakur et al. §4.5,
            // long messages).
            return {ranks - 1.0, share};
        case collective::point_to_point:
            return {1.0, 1.0};
    }
    return {};
}

/// Whether `op` has `algorithm` (fastest aside).
constexpr bool has_algorithm(collective op, collective_algorithm algorithm) {
    switch (algorithm) {
        case collective_algorithm::ring:
        case collective_algorithm::halving_doubling:
            return op != collective::all_to_all && op != collective::point_to_point;
        case collective_algorithm::tree:
            return op == collective::all_reduce || op == collective::broadcast;
        case collective_algorithm::direct:
            return op == collective::all_to_all || op == collective::point_to_point;
        case collective_algorithm::fastest: return true;
    }
    return false;
}

/// The algorithm `fastest` falls back to where the op has one algorithm (or one rank).
constexpr collective_algorithm default_algorithm(collective op) {
    return op == collective::all_to_all || op == collective::point_to_point
               ? collective_algorithm::direct
               : collective_algorithm::ring;
}

/// Whether `fastest` compares ring and tree for `op`.
constexpr bool chooses_ring_or_tree(collective op) {
    return op == collective::all_reduce || op == collective::broadcast;
}

/// Rejects a spec outside the ranges collective_spec states, under `function`.
constexpr void check(const collective_spec& spec, const char* function) {
    require_enumerator(function, "spec.op", spec.op, collective_count, "collective");
    require_enumerator(function, "spec.algorithm", spec.algorithm, collective_algorithm_count,
                       "collective_algorithm");
    require_non_negative(function, "spec.bytes", spec.bytes);
    require_count(function, "spec.ranks", spec.ranks);
    if (spec.op == collective::point_to_point && spec.ranks != 2) {
        throw_invalid(function, "spec.ranks", static_cast<double>(spec.ranks), "",
                      "must be 2 for op = point_to_point (a message between two ranks)");
    }
    if (!has_algorithm(spec.op, spec.algorithm)) {
        throw_invalid_name(function, "spec.algorithm", to_string(spec.algorithm),
                           "is not defined for spec.op = ", to_string(spec.op),
                           spec.op == collective::all_to_all ||
                                   spec.op == collective::point_to_point
                               ? " (it takes direct or fastest)"
                               : " (it takes ring, halving_doubling, or fastest)");
    }
}

/// bus_bandwidth_factor() for a checked op and count.
constexpr double bus_factor_unchecked(collective op, std::int64_t ranks) {
    const double n = static_cast<double>(ranks);
    switch (op) {
        case collective::all_reduce: return 2.0 * (n - 1.0) / n;
        case collective::all_gather:
        case collective::reduce_scatter:
        case collective::all_to_all: return (n - 1.0) / n;
        case collective::broadcast:
        case collective::point_to_point: return 1.0;
    }
    return 1.0;
}

}  // namespace detail

/// The factor nccl-tests multiplies its algorithm bandwidth by to get a bus bandwidth that
/// compares with the link's peak whatever the number of ranks (doc/PERFORMANCE.md in
/// github.com/NVIDIA/nccl-tests): all_reduce 2(n − 1)/n; all_gather, reduce_scatter and
/// all_to_all (n − 1)/n; broadcast and point_to_point 1. It is the data each rank moves
/// over its link, in units of the message. Ranges: op a collective value; ranks in [1, 2^40]
/// (1: a factor of 0 for the ops that exchange, as nccl-tests reports).
constexpr double bus_bandwidth_factor(collective op, std::int64_t ranks) {
    constexpr const char* function = "bus_bandwidth_factor";
    detail::require_enumerator(function, "op", op, detail::collective_count, "collective");
    detail::require_count(function, "ranks", ranks);
    return detail::bus_factor_unchecked(op, ranks);
}

/// nccl-tests' algorithm bandwidth: the message size over the time (doc/PERFORMANCE.md).
/// Ranges: bytes 0 or in [1e-30 B, 1e30 B]; time in [1e-30 s, 1e6 years].
constexpr bandwidth algorithm_bandwidth(data_size bytes, duration time) {
    detail::require_non_negative("algorithm_bandwidth", "bytes", bytes);
    detail::require_positive("algorithm_bandwidth", "time", time);
    return bytes / time;
}

/// The bus bandwidth nccl-tests reports for an algorithm bandwidth: algbw × the op's factor.
/// Ranges: op and ranks as bus_bandwidth_factor; algbw 0 or in [1e-30 B/s, 1e30 B/s].
constexpr bandwidth bus_from_algorithm_bandwidth(collective op, std::int64_t ranks,
                                                 bandwidth algbw) {
    constexpr const char* function = "bus_from_algorithm_bandwidth";
    detail::require_enumerator(function, "op", op, detail::collective_count, "collective");
    detail::require_count(function, "ranks", ranks);
    detail::require_non_negative(function, "algbw", algbw);
    return detail::bus_factor_unchecked(op, ranks) * algbw;
}

/// The algorithm bandwidth a bus bandwidth stands for: busbw ÷ the op's factor. Ranges: op a
/// collective value; ranks in [2, 2^40] (one rank moves nothing, so no bus bandwidth maps back
/// to it); busbw 0 or in [1e-30 B/s, 1e30 B/s].
constexpr bandwidth algorithm_from_bus_bandwidth(collective op, std::int64_t ranks,
                                                 bandwidth busbw) {
    constexpr const char* function = "algorithm_from_bus_bandwidth";
    detail::require_enumerator(function, "op", op, detail::collective_count, "collective");
    detail::require_count(function, "ranks", ranks);
    if (ranks < 2) {
        detail::throw_invalid(function, "ranks", static_cast<double>(ranks), "",
                              "must be >= 2 (one rank moves no data: its bus bandwidth factor "
                              "is 0)");
    }
    detail::require_non_negative(function, "busbw", busbw);
    return busbw / detail::bus_factor_unchecked(op, ranks);
}

namespace detail {

/// The estimate's time from its two terms, and the bandwidths nccl-tests reports for it.
GPUCALC_DETAIL_INLINE constexpr void complete(collective_time_estimate& e, collective op,
                                             std::int64_t n, data_size bytes) {
    e.time = e.latency_term + e.bandwidth_term;
    if (e.time > duration{}) {
        e.algorithm_bandwidth = bytes / e.time;
        e.bus_bandwidth = bus_factor_unchecked(op, n) * e.algorithm_bandwidth;
    }
}

/// One algorithm on one link of n ranks, with the base latency, α and the bus bandwidth B
/// already derived from a checked link (B > 0 whenever n > 1). The base is paid once, by any
/// collective among two ranks or more (NCCL's baseLat, src/graph/tuning.cc).
GPUCALC_DETAIL_INLINE constexpr collective_time_estimate flat_estimate(
    collective op, collective_algorithm algorithm, std::int64_t n, data_size bytes, duration base,
    duration alpha, bandwidth bus) {
    collective_time_estimate e{};
    e.algorithm = algorithm;
    if (n > 1) {
        const alpha_beta_terms t = flat_terms(op, algorithm, n);
        e.latency_term = base + t.latency_steps * alpha;
        e.bandwidth_term = t.volume * (bytes / bus);
    }
    complete(e, op, n, bytes);
    return e;
}

/// collective_time(spec, link) for a checked spec and link: `fastest` resolved. The spec's
/// fields are read once, before anything is written to the result: the result is returned
/// through a pointer the compiler cannot prove distinct from `spec`, and Clang 14 reloaded
/// them from memory after the first estimate's stores (docs/benchmarks.md).
GPUCALC_DETAIL_INLINE constexpr collective_time_estimate flat_collective_time(
    const collective_spec& spec, duration base, duration alpha, bandwidth bus) {
    const collective op = spec.op;
    const collective_algorithm algorithm = spec.algorithm;
    const std::int64_t n = spec.ranks;
    const data_size bytes = spec.bytes;
    if (algorithm != collective_algorithm::fastest) {
        return flat_estimate(op, algorithm, n, bytes, base, alpha, bus);
    }
    const collective_time_estimate first =
        flat_estimate(op, default_algorithm(op), n, bytes, base, alpha, bus);
    if (!chooses_ring_or_tree(op) || n <= 1) return first;
    const collective_time_estimate tree =
        flat_estimate(op, collective_algorithm::tree, n, bytes, base, alpha, bus);
    // The faster of the two through a pair of addresses, not `tree.time < first.time ? tree :
    // first`: with the estimates in registers, GCC 12 compiled that choice of a struct that is
    // not trivially copyable to a branch, mispredicted whenever the winner varies from call to
    // call (a third of the calls over the benchmark's message sizes: 1.21x the raw-double
    // twin's time at 2 % more instructions), where the twin's trivially copyable struct got a
    // conditional move of its address. Indexing the addresses picks one without a branch.
    // (Indexing a pair of copies instead made GCC's twin 1.2x slower, and Clang both.)
    const collective_time_estimate* const pair[2] = {&first, &tree};
    return *pair[tree.time < first.time ? 1 : 0];  // a tie keeps the ring
}

}  // namespace detail

/// How long `spec` takes among ranks joined by `link`: link.base_latency once, plus the algorithm's α–β cost with α = link.latency per hop and B = bus_bandwidth(link)
/// (per_direction × collective_efficiency) (Hockney's model; algorithms and costs from Thakur,
/// Rabenseifner and Gropp 2005; the base as NCCL's baseLat, src/graph/tuning.cc; the
/// reduction's compute is left out). The costs below leave out the base, which every one of them
/// adds when n > 1:
/// - all_reduce: ring 2(n − 1)α + 2(n − 1)/n · S/B; tree 2⌈log2 n⌉α + 2S/B (NCCL's double binary
///   tree, pipelined); halving_doubling 2 log2 p · α + 2(p − 1)/p · S/B for p = 2^⌊log2 n⌋, plus
///   2(α + S/B) when n is not a power of two (Rabenseifner).
/// - all_gather, reduce_scatter: ring (n − 1)α + (n − 1)/n · S/B; halving_doubling
///   ⌈log2 n⌉α + (n − 1)/n · S/B.
/// - broadcast: ring (a pipelined chain) (n − 1)α + S/B; tree (binomial) ⌈log2 n⌉(α + S/B);
///   halving_doubling (scatter + all-gather) (⌈log2 n⌉ + n − 1)α + 2(n − 1)/n · S/B.
/// - all_to_all: direct (pairwise exchange) (n − 1)α + (n − 1)/n · S/B.
/// - point_to_point: direct α + S/B.
/// One rank takes no time. These are the textbook algorithms among n endpoints of one link; the
/// cluster overload (scaling/cluster_collectives.hpp) follows NCCL's structure instead, whose
/// tree inside a node is a chain. Ranges: the spec as collective_spec states, spec.ranks at most
/// link.span when the span is set (> 0); the link as link_spec states (named "link."), with
/// per_direction > 0 whenever ranks > 1.
GPUCALC_DETAIL_HOT constexpr collective_time_estimate collective_time(const collective_spec& spec,
                                                                      const link_spec& link) {
    constexpr const char* function = "collective_time";
    detail::check(spec, function);
    detail::check(link, detail::field_path{function, "link."});
    if (spec.ranks > 1 && !(link.per_direction > bandwidth{})) {
        detail::throw_invalid(function, "link.per_direction", 0.0, "B/s",
                              "must be > 0 when spec.ranks = ",
                              static_cast<double>(spec.ranks),
                              " (the collective moves its data over the link)");
    }
    if (link.span > 0 && spec.ranks > link.span) {
        detail::throw_invalid(function, "spec.ranks", static_cast<double>(spec.ranks), "",
                              "must not exceed link.span = ", static_cast<double>(link.span),
                              " (the GPUs the link joins into one domain)");
    }
    return detail::flat_collective_time(spec, link.base_latency, link.latency,
                                        link.collective_efficiency * link.per_direction);
}

}  // namespace gpucalc
