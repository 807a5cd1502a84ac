// scaling_collectives_static.cpp: the collectives are usable in constant expressions: the bus
// factors, a ring all-reduce on a constexpr link, and a placed all-reduce on a cluster checked
// at compile time.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/scaling/cluster_collectives.hpp>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

// nccl-tests' bus-bandwidth factors (doc/PERFORMANCE.md), exact binary fractions at n = 8.
static_assert(bus_bandwidth_factor(collective::all_reduce, 8) == 1.75, "2(n-1)/n");
static_assert(bus_bandwidth_factor(collective::all_gather, 8) == 0.875, "(n-1)/n");
static_assert(bus_bandwidth_factor(collective::reduce_scatter, 8) == 0.875, "(n-1)/n");
static_assert(bus_bandwidth_factor(collective::all_to_all, 8) == 0.875, "(n-1)/n");
static_assert(bus_bandwidth_factor(collective::broadcast, 8) == 1.0, "1");
static_assert(bus_bandwidth_factor(collective::all_reduce, 1) == 0.0, "one rank moves nothing");
static_assert(algorithm_bandwidth(1.0_GB, 10.0_ms) == 100.0_GB_per_s, "S / t");
static_assert(approx_equal(bus_from_algorithm_bandwidth(collective::all_reduce, 8, 100.0_GB_per_s),
                           175.0_GB_per_s),
              "algbw x 2(n-1)/n");
static_assert(approx_equal(algorithm_from_bus_bandwidth(collective::all_reduce, 8, 175.0_GB_per_s),
                           100.0_GB_per_s),
              "busbw / 2(n-1)/n");

// Ring all-reduce on a constexpr link: 2(n-1)α + 2(n-1)/n · S/B (Thakur et al. 2005 §4.4).
constexpr link_spec test_link{"test", 100.0_GB_per_s, 5.0_us, 0, 1.0};
constexpr collective_time_estimate ring =
    collective_time({collective::all_reduce, 1.0_GB, 8, collective_algorithm::ring}, test_link);
static_assert(approx_equal(ring.latency_term, 70.0_us), "14 steps of 5 us");
static_assert(approx_equal(ring.bandwidth_term, 17.5_ms), "1.75 GB at 100 GB/s");
static_assert(approx_equal(ring.time, 17.57_ms), "the two terms");
static_assert(ring.algorithm == collective_algorithm::ring, "as asked");
static_assert(approx_equal(ring.bus_bandwidth, 1.75 * (1.0_GB / 17.57_ms)), "busbw");

// `fastest` resolves at compile time: the tree for 1 MB on 8 ranks, the ring for 1 GB.
static_assert(collective_time({collective::all_reduce, 1.0_MB, 8}, test_link).algorithm ==
                  collective_algorithm::tree,
              "6 steps beat 14 for small messages");
static_assert(collective_time({collective::all_reduce, 1.0_GB, 8}, test_link).algorithm ==
                  collective_algorithm::ring,
              "1.75 S beats 2 S for large ones");
static_assert(collective_time({collective::all_reduce, 1.0_GB, 1}, test_link).time == 0.0_s,
              "one rank");

// The catalog's NVLink 4: 8 x H100 ring busbw within the 365-370 GB/s a user measured
// (NVIDIA/nccl#1455; the efficiency itself came from NVIDIA/nccl-tests#212).
constexpr collective_time_estimate h100 = collective_time(
    {collective::all_reduce, 4.0_GiB, 8, collective_algorithm::ring}, cat::nvlink4);
static_assert(h100.bus_bandwidth > 365.0_GB_per_s && h100.bus_bandwidth < 370.0_GB_per_s,
              "8 x H100 NVLink ring all-reduce");

// A placed all-reduce on a cluster checked at compile time: 2 x DGX A100 with 8 HDR NICs each.
constexpr checked_cluster dgx_a100_pair = [] {
    cluster c{};
    c.node.gpu = cat::a100_80gb_sxm;
    c.nodes = 2;
    c.inter_node = cat::infiniband_hdr;
    return check(c);
}();
constexpr placed_collective_estimate placed = collective_time(
    {collective::all_reduce, 8.0_GB, 16, collective_algorithm::ring}, dgx_a100_pair);
static_assert(placed.nodes == 2 && placed.ranks_per_node == 8, "contiguous: two full nodes");
static_assert(placed.ranks_on_emptiest_node == 8, "an even group");
static_assert(placed.binding == link_level::inter_node, "8 HDR NICs bind, not NVLink 3");
// The NICs' 8 x 0.96 x 25 GB/s, capped by 8 A100s' PCIe Gen4 at 0.76 x 31.5 GB/s each.
constexpr bandwidth a100_nics = 8.0 * 0.76 * 31.5_GB_per_s;
static_assert(approx_equal(placed.inter_node_bandwidth, a100_nics), "PCIe under the NICs");
// Closed form: the base 6.6 us once; 2(k - 1) = 2 of 30 steps at α_inter = 2.7 us, 28 at
// NVLink 3's 0.6 us (NCCL's tuning.cc); 2·15/16 · 8 GB over the NICs, 7/8 of it over NVLink 3.
static_assert(approx_equal(placed.time, 6.6_us + 28.0 * 0.6_us + 2.0 * 2.7_us +
                                            1.875 * 8.0_GB / a100_nics),
              "ring across nodes");
static_assert(approx_equal(placed.intra_node_term,
                           0.875 * 1.875 * 8.0_GB / (0.77 * 300.0_GB_per_s)),
              "7/8 of the ring's volume on NVLink 3");

// One rank per node (a data-parallel group of TP = 8 replicas) gets one NIC.
constexpr placed_collective_estimate strided = collective_time(
    {collective::all_reduce, 8.0_GB, 2, collective_algorithm::ring}, dgx_a100_pair, {1});
static_assert(approx_equal(strided.inter_node_bandwidth, 0.76 * 31.5_GB_per_s),
              "one NIC, behind one GPU's PCIe");

// An uneven group, 12 ranks: the second node's 4 GPUs get half the NICs.
constexpr placed_collective_estimate uneven = collective_time(
    {collective::all_reduce, 8.0_GB, 12, collective_algorithm::ring}, dgx_a100_pair);
static_assert(uneven.ranks_per_node == 8 && uneven.ranks_on_emptiest_node == 4, "8 + 4");
static_assert(approx_equal(uneven.inter_node_bandwidth, 0.5 * a100_nics), "half the NICs");

// NCCL's tree inside one node: the base, then a chain, 2(g - 1) steps, its bus bandwidth
// derated by 0.92.
constexpr placed_collective_estimate chain = collective_time(
    {collective::all_reduce, 8.0_GB, 8, collective_algorithm::tree}, dgx_a100_pair);
static_assert(approx_equal(chain.latency_term, 6.6_us + 14.0 * 0.6_us), "a chain of 8");

// The base latency is paid once per collective: 20 us on the test link adds 20 us to a ring of
// 14 steps, not 14 x 20.
constexpr link_spec based_link = [] {
    link_spec l = test_link;
    l.base_latency = 20.0_us;
    return l;
}();
static_assert(approx_equal(collective_time({collective::all_reduce, 1.0_GB, 8,
                                            collective_algorithm::ring},
                                           based_link)
                               .latency_term,
                           90.0_us),
              "20 us once + 14 steps of 5 us");
static_assert(approx_equal(chain.bandwidth_term, 2.0 * 8.0_GB / (0.92 * 0.77 * 300.0_GB_per_s)),
              "2S / (0.92 B)");

static_assert(to_string(collective::reduce_scatter) == "reduce_scatter", "names");
static_assert(to_string(collective_algorithm::fastest) == "fastest", "names");
static_assert(to_string(link_level::intra_node) == "intra_node", "names");
}  // namespace
