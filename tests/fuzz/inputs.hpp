// inputs.hpp: how the harness draws each of the library's input types: a catalog entry (or a
// realistic default) perturbed, with hostile values in as many fields as the call's hostility
// says, so that valid calls are exercised as well as every check.
#pragma once

#include <algorithm>
#include <cstdint>

#include "fuzz.hpp"

namespace fuzz {

// ---------------------------------------------------------------------------------------------
// Typical magnitudes, in base units (B, s, FLOP, USD, GPU, W, J, kg, tokens, sequences).
// ---------------------------------------------------------------------------------------------
namespace typical {
inline constexpr double memory = 85899345920.0;          // 80 GiB
inline constexpr double memory_bandwidth = 3.35e12;      // 3.35 TB/s
inline constexpr double peak = 989e12;                   // 989 TFLOP/s
inline constexpr double link_bandwidth = 450e9;          // NVLink 4, one direction
inline constexpr double latency = 0.6e-6;                // NVLink, per hop (catalog)
inline constexpr double base_latency = 6.6e-6;           // per collective (catalog)
inline constexpr double tdp = 700.0;                     // W
inline constexpr double gpu_price = 2.99 / 3600.0;       // $2.99/GPU·h
inline constexpr double instance_price = 98.32 / 3600.0; // $98.32/h
inline constexpr double hour = 3600.0;
inline constexpr double capex = 270000.0;
inline constexpr double server_power = 10200.0;          // DGX H100
inline constexpr double electricity = 0.0806 / 3.6e6;    // $0.0806/kWh
inline constexpr double egress = 0.09 / 1e9;             // $0.09/GB
inline constexpr double grid = 0.367 / 3.6e6;            // 367 g/kWh
inline constexpr double training_tokens = 1e12;
inline constexpr double token_rate = 1e4;                // tokens/s
inline constexpr double stream_rate = 50.0;              // tokens/s per stream
inline constexpr double flops = 1e15;
inline constexpr double bytes = 1e9;
}  // namespace typical

/// The draws, one function per input type of the library.
namespace draw {

// ---------------------------------------------------------------------------------------------
// Models.
// ---------------------------------------------------------------------------------------------

/// Shapes at the edges of what is valid: about 1e15 parameters; 2^16 experts; one of everything.
inline gpucalc::transformer huge_model() {
    gpucalc::transformer m{};
    m.name = "fuzz-1e15";
    m.layers = 1024;
    m.hidden = std::int64_t{1} << 18;
    m.heads = 2048;
    m.ffn_hidden = std::int64_t{1} << 20;
    m.vocab = 256000;
    m.max_context = std::int64_t{1} << 20;
    return m;
}
inline gpucalc::transformer wide_moe_model() {
    gpucalc::transformer m{};
    m.name = "fuzz-moe-65536";
    m.layers = 32;
    m.hidden = 4096;
    m.heads = 32;
    m.kv_heads = 8;
    m.ffn_hidden = 1024;
    m.vocab = 32000;
    m.max_context = 32768;
    m.experts = std::int64_t{1} << 16;
    m.experts_per_token = 8;
    return m;
}
inline gpucalc::transformer tiny_model() {
    gpucalc::transformer m{};
    m.name = "fuzz-tiny";
    m.layers = 1;
    m.hidden = 1;
    m.heads = 1;
    m.ffn_hidden = 1;
    m.vocab = 1;
    m.max_context = 1;
    return m;
}

/// Tiny shapes with one count at 2^40, each valid on its own: 2^40 experts (top-1), 2^40 heads.
inline gpucalc::transformer tiny_moe_model() {
    gpucalc::transformer m = tiny_model();
    m.name = "fuzz-tiny-moe";
    m.experts = std::int64_t{1} << 40;
    m.experts_per_token = 1;
    return m;
}
inline gpucalc::transformer many_heads_model() {
    gpucalc::transformer m = tiny_model();
    m.name = "fuzz-many-heads";
    m.heads = std::int64_t{1} << 40;
    m.kv_heads = 1;
    m.head_dim = 1;
    return m;
}

/// A plain-MLP MoE with biases whose bound in check() (3·h·ffn per expert) leaves out the
/// router and the biases: 2e15 experts of width 1 pass it, with 1e16 parameters.
inline gpucalc::transformer past_2_53_model() {
    gpucalc::transformer m = tiny_model();
    m.name = "fuzz-moe-2e15";
    m.mlp = gpucalc::mlp_kind::plain;
    m.linear_biases = true;
    m.experts = 2000000000000000;
    m.experts_per_token = 1;
    return m;
}

inline gpucalc::transformer model(generator& g) {
    namespace cat = gpucalc::catalog;
    static const gpucalc::transformer extremes[] = {huge_model(),     wide_moe_model(),
                                                    tiny_model(),     tiny_moe_model(),
                                                    many_heads_model(), past_2_53_model()};
    static const gpucalc::transformer* const bases[] = {
        &cat::llama_2_7b,     &cat::llama_2_13b,    &cat::llama_2_70b,   &cat::llama_3_8b,
        &cat::llama_3_70b,    &cat::llama_3_1_405b, &cat::mistral_7b,    &cat::mixtral_8x7b,
        &cat::gpt3_175b,      &cat::megatron_1_7b,  &cat::megatron_18_4b, &cat::megatron_1008b,
        &cat::korthikanti_22b, &extremes[0],        &extremes[1],        &extremes[2],
        &extremes[3],         &extremes[4],         &extremes[5]};
    gpucalc::transformer m = *g.one_of(bases);
    // Realistic variations that keep a model valid (or plausibly not): a window, GQA, depth.
    if (g.coin(0.1)) m.sliding_window = g.count(4096);
    if (g.coin(0.05)) m.layers = g.count(m.layers);
    if (g.coin(0.05)) m.tied_embeddings = !m.tied_embeddings;
    // Hostile fields.
    m.layers = g.keep(m.layers);
    m.hidden = g.keep(m.hidden);
    m.heads = g.keep(m.heads);
    m.kv_heads = g.keep(m.kv_heads);
    m.head_dim = g.keep(m.head_dim);
    m.ffn_hidden = g.keep(m.ffn_hidden);
    m.vocab = g.keep(m.vocab);
    m.max_context = g.keep(m.max_context);
    m.mlp = g.keep_enum(m.mlp, "model.mlp");
    m.norm = g.keep_enum(m.norm, "model.norm");
    m.positions = g.keep_enum(m.positions, "model.positions");
    m.experts = g.keep(m.experts);
    m.experts_per_token = g.keep(m.experts_per_token);
    m.sliding_window = g.keep(m.sliding_window);
    // Structured mistakes: top-k above the experts, KV heads that do not divide, a learned
    // table with no rows, a head_dim left implicit on an indivisible width.
    // (Formed without overflow: the harness must not be the one with undefined behaviour.)
    constexpr std::int64_t roomy = std::int64_t{1} << 60;
    if (g.hostile() && m.experts < roomy) m.experts_per_token = m.experts + 1;
    if (g.hostile() && m.heads < roomy) m.kv_heads = m.heads + 1;
    if (g.hostile()) {
        m.positions = gpucalc::position_kind::learned;
        m.max_context = 0;
    }
    if (g.hostile() && m.heads > 0 && m.heads < roomy) {
        m.head_dim = 0;
        m.hidden = m.heads * 3 + 1;
    }
    return m;
}

// ---------------------------------------------------------------------------------------------
// Formats, precisions, efficiencies.
// ---------------------------------------------------------------------------------------------
inline gpucalc::storage_format storage(generator& g, const char* field) {
    namespace f = gpucalc::formats;
    static const gpucalc::storage_format named[] = {
        f::bf16,      f::bf16, f::fp16, f::fp32,  f::fp8_e4m3, f::int8,
        f::int4_g128, f::nf4,  f::nf4_double_quant, f::mxfp4, f::nvfp4, f::int4};
    gpucalc::storage_format s = g.one_of(named);
    s.element = g.keep_enum(s.element, field, "element");
    s.block_size = g.keep(s.block_size);
    s.scale = g.keep_enum(s.scale, field, "scale");
    s.scale_block_size = g.keep(s.scale_block_size);
    s.scale_of_scales = g.keep_enum(s.scale_of_scales, field, "scale_of_scales");
    return s;
}

inline gpucalc::compute_precision precision(generator& g, const char* field) {
    using p = gpucalc::compute_precision;
    static constexpr p common[] = {p::bf16, p::bf16, p::bf16, p::bf16, p::bf16, p::bf16,
                                   p::fp16, p::fp8,  p::fp32, p::tf32, p::int8, p::fp64};
    return g.keep_enum(g.one_of(common), field);
}

inline gpucalc::kernel_efficiency efficiency(generator& g) {
    gpucalc::kernel_efficiency e{};
    e.compute = g.fraction(0.80);
    e.memory = g.fraction(0.85);
    return e;
}

inline gpucalc::runtime_overhead overhead(generator& g) {
    gpucalc::runtime_overhead o{};
    o.cuda_context = g.q_or_zero<gpucalc::data_size>(536870912.0);
    o.fragmentation = g.unit_interval(0.05);
    o.communication_buffers = g.q_or_zero<gpucalc::data_size>(536870912.0);
    return o;
}

// ---------------------------------------------------------------------------------------------
// Hardware.
// ---------------------------------------------------------------------------------------------
inline gpucalc::link_spec link(generator& g, gpucalc::link_spec l) {
    l.per_direction = g.keep_q(l.per_direction);
    l.latency = g.keep_q(l.latency);
    l.span = g.keep(l.span);
    l.collective_efficiency = g.hostile() ? g.fraction(1.0) : l.collective_efficiency;
    l.base_latency = g.keep_q(l.base_latency);
    return l;
}

inline gpucalc::link_spec link(generator& g) {
    namespace cat = gpucalc::catalog;
    static const gpucalc::link_spec none{};
    static const gpucalc::link_spec* const bases[] = {
        &cat::nvlink3,       &cat::nvlink4,        &cat::nvlink5,       &cat::nvlink5_nvl72,
        &cat::nvlink_bridge, &cat::infinity_fabric, &cat::pcie_gen4_x16, &cat::pcie_gen5_x16,
        &cat::nvlink_c2c,    &cat::infiniband_ndr, &cat::efa_400g,      &cat::ethernet_100g,
        &none};
    gpucalc::link_spec l = *g.one_of(bases);
    if (g.coin(0.2)) l.per_direction = g.q<gpucalc::bandwidth>(typical::link_bandwidth);
    return link(g, l);
}

/// A GPU from the catalog, perturbed. Its MIG profiles are copied into the generator's table
/// (`which` of its two), so a count past them reads past the table's end.
inline gpucalc::gpu_spec gpu(generator& g, int which = 0) {
    const gpucalc::gpu_spec& base = *gpucalc::catalog::all_gpus[g.r.below(
        gpucalc::catalog::all_gpus.size())];
    gpucalc::gpu_spec s = base;
    if (s.mig != nullptr) {
        gpucalc::mig_profile* table = g.mig_table(which);
        for (int i = 0; i < gpucalc::max_mig_profiles; ++i) table[i] = s.mig[i % s.mig_count];
        s.mig = table;
        if (g.hostile()) {
            gpucalc::mig_profile& p = table[g.r.below(static_cast<std::uint64_t>(s.mig_count))];
            p.memory = g.keep_q(p.memory);
            p.compute_slices = g.keep(p.compute_slices);
            p.max_instances = g.keep(p.max_instances);
        }
    }
    if (g.coin(0.1)) s.memory = g.q<gpucalc::data_size>(typical::memory);
    s.memory = g.keep_q(s.memory);
    s.memory_bandwidth = g.keep_q(s.memory_bandwidth);
    gpucalc::flop_rate* peaks[] = {&s.dense_peak.fp64, &s.dense_peak.fp64_tensor,
                                   &s.dense_peak.fp32, &s.dense_peak.tf32,
                                   &s.dense_peak.bf16, &s.dense_peak.fp16,
                                   &s.dense_peak.fp8,  &s.dense_peak.int8,
                                   &s.dense_peak.int4, &s.dense_peak.fp4};
    for (gpucalc::flop_rate* p : peaks) *p = g.keep_q(*p);
    s.tdp = g.keep_q(s.tdp);
    s.multiprocessors = g.keep(s.multiprocessors);
    s.scale_up = link(g, s.scale_up);
    s.host = link(g, s.host);
    // A count past the profiles, or without any. Not in the threaded sweep, where a read past
    // the table would make answers nondeterministic (today's library reads it).
    if (g.mode == profile::contract) {
        s.mig_count = g.keep(s.mig_count);
        if (g.hostile()) s.mig = nullptr;
    }
    return s;
}

inline gpucalc::node node(generator& g) {
    gpucalc::node n{};
    n.gpu = gpu(g);
    static constexpr std::int64_t sizes[] = {8, 8, 8, 4, 2, 1, 72};
    n.gpus_per_node = g.keep(g.one_of(sizes));
    if (g.coin(0.2)) n.intra_node = link(g);
    return n;
}

inline gpucalc::cluster cluster(generator& g) {
    gpucalc::cluster c{};
    c.node = node(g);
    static constexpr std::int64_t counts[] = {1, 1, 2, 4, 16, 128, 1024};
    c.nodes = g.keep(g.one_of(counts));
    c.inter_node = link(g, g.coin(0.8) ? gpucalc::catalog::infiniband_ndr : gpucalc::link_spec{});
    c.nics_per_node = g.keep(8);
    return c;
}

// ---------------------------------------------------------------------------------------------
// Layouts, serving setups, training jobs.
// ---------------------------------------------------------------------------------------------

/// A degree from {1, 2, 4, 8} that the model allows for TP (heads, and KV heads divided or
/// replicated), or 1.
inline std::int64_t tensor_degree(generator& g, const gpucalc::transformer& m) {
    static constexpr std::int64_t degrees[] = {1, 2, 4, 8};
    const std::int64_t t = g.one_of(degrees);
    const std::int64_t kv = m.kv_heads > 0 ? m.kv_heads : m.heads;
    const bool allowed = m.heads > 0 && kv > 0 && m.heads % t == 0 && (kv % t == 0 || t % kv == 0);
    return allowed ? t : 1;
}

inline std::int64_t pipeline_degree(generator& g, const gpucalc::transformer& m) {
    static constexpr std::int64_t degrees[] = {1, 1, 2, 4, 8};
    const std::int64_t p = g.one_of(degrees);
    return p <= m.layers ? p : 1;
}

inline gpucalc::parallel_layout serving_layout(generator& g, const gpucalc::transformer& m) {
    gpucalc::parallel_layout p{};
    p.tensor = g.keep(tensor_degree(g, m));
    p.pipeline = g.keep(pipeline_degree(g, m));
    p.data = g.keep(p.data);
    p.expert = g.keep(p.expert);
    p.context_parallel = g.keep(p.context_parallel);
    p.zero_stage = g.keep(p.zero_stage);
    p.interleave = g.keep(p.interleave);
    return p;
}

inline gpucalc::serving_setup serving(generator& g, const gpucalc::transformer& m) {
    gpucalc::serving_setup s{};
    s.batch = g.count(8);
    s.context = g.count(4096);
    s.prompt = g.count(1024);
    s.parallel = serving_layout(g, m);
    s.weights = storage(g, "setup.weights");
    s.embeddings = g.coin(0.8) ? gpucalc::formats::bf16 : storage(g, "setup.embeddings");
    s.kv_cache = g.coin(0.8) ? gpucalc::formats::bf16 : storage(g, "setup.kv_cache");
    s.activations = g.coin(0.9) ? gpucalc::formats::bf16 : storage(g, "setup.activations");
    s.compute = precision(g, "setup.compute");
    s.efficiency = efficiency(g);
    s.causal = g.coin(0.8);
    s.kv_block_tokens = g.keep(g.coin(0.3) ? 16 : 0);
    s.max_tokens_per_step = g.count(2048);
    s.overhead = overhead(g);
    return s;
}

inline gpucalc::parallel_layout training_layout(generator& g, const gpucalc::transformer& m) {
    gpucalc::parallel_layout p{};
    p.tensor = tensor_degree(g, m);
    p.pipeline = pipeline_degree(g, m);
    static constexpr std::int64_t data[] = {1, 2, 3, 4, 8, 8, 9, 64, 1024};
    p.data = g.one_of(data);
    if (m.experts > 1) {
        static constexpr std::int64_t experts[] = {1, 2, 4, 8};
        const std::int64_t e = g.one_of(experts);
        if (m.experts % e == 0 && p.data % e == 0) p.expert = e;
    }
    if (g.coin(0.15)) p.context_parallel = 2;
    p.sequence_parallel = p.tensor > 1 && g.coin(0.5);
    p.zero_stage = static_cast<std::int64_t>(g.r.below(4));
    if (p.pipeline > 1 && m.layers / p.pipeline >= 2 && g.coin(0.3)) p.interleave = 2;
    p.tensor = g.keep(p.tensor);
    p.pipeline = g.keep(p.pipeline);
    p.data = g.keep(p.data);
    p.expert = g.keep(p.expert);
    p.context_parallel = g.keep(p.context_parallel);
    p.zero_stage = g.keep(p.zero_stage);
    p.interleave = g.keep(p.interleave);
    return p;
}

inline gpucalc::training_strategy strategy(generator& g, const gpucalc::transformer& m) {
    gpucalc::training_strategy s{};
    s.parallel = training_layout(g, m);
    s.micro_batch = g.count(1);
    s.recompute = g.any_enum<gpucalc::recompute>(3, "strategy.recompute");
    s.offload_optimizer = s.parallel.zero_stage >= 1 ? g.coin(0.1) : g.hostile();
    s.offload_parameters = s.parallel.zero_stage == 3 ? g.coin(0.1) : g.hostile();
    return s;
}

inline gpucalc::lora_adapter adapter(generator& g) {
    gpucalc::lora_adapter a{};
    a.rank = g.count(16);
    // (Not chosen by m.mlp: a draw must not depend on an enum the harness may make invalid.
    // All linear layers of a plain MLP name a gate it does not have, which is rejected.)
    static constexpr std::uint32_t targets[] = {
        gpucalc::lora_q | gpucalc::lora_v, gpucalc::lora_attention, gpucalc::lora_all_linear,
        gpucalc::lora_attention | gpucalc::lora_up | gpucalc::lora_down};
    a.targets = g.one_of(targets);
    if (g.hostile()) a.targets = static_cast<std::uint32_t>(g.r.next());
    return a;
}

inline gpucalc::training_job job(generator& g, const gpucalc::training_strategy& s) {
    gpucalc::training_job j{};
    j.sequence = g.count(2048);
    if (g.coin(0.6)) {
        static constexpr std::int64_t rounds[] = {1, 2, 4, 16};
        const std::int64_t round = g.one_of(rounds);
        constexpr std::int64_t small = std::int64_t{1} << 20;
        if (s.micro_batch > 0 && s.micro_batch < small && s.parallel.data > 0 &&
            s.parallel.data < small) {
            j.global_batch = s.micro_batch * s.parallel.data * round;
        }
    }
    j.global_batch = g.keep(j.global_batch);
    j.optimizer = g.any_enum<gpucalc::optimizer>(4, "job.optimizer");
    j.fp32_master_weights = g.coin(0.8);
    j.parameters = g.coin(0.8) ? gpucalc::formats::bf16 : storage(g, "job.parameters");
    j.gradients = g.coin(0.8) ? gpucalc::formats::bf16 : storage(g, "job.gradients");
    j.activations = g.coin(0.9) ? gpucalc::formats::bf16 : storage(g, "job.activations");
    j.compute = precision(g, "job.compute");
    j.flash_attention = g.coin(0.8);
    j.dropout = g.coin(0.2);
    if (g.coin(0.2)) {
        j.lora.enabled = true;
        j.lora.adapter = adapter(g);
        j.lora.frozen_base = g.coin(0.5) ? gpucalc::formats::nf4_double_quant
                                         : storage(g, "job.lora.frozen_base");
    }
    j.overhead = overhead(g);
    return j;
}

inline gpucalc::pass_shape pass(generator& g) {
    gpucalc::pass_shape p{};
    p.batch = g.count(8);
    p.keys = g.count(2048);
    switch (g.r.below(3)) {
        case 0: p.queries = 1; break;                                         // decode
        case 1: p.queries = p.keys; break;                                    // prefill, training
        default: p.queries = 1 + static_cast<std::int64_t>(g.r.below(
                                 static_cast<std::uint64_t>(p.keys > 0 ? p.keys : 1)));
    }
    p.outputs = g.coin(0.5) ? 1 : p.queries;
    p.queries = g.keep(p.queries);
    p.outputs = g.keep(p.outputs);
    p.counted = g.any_enum<gpucalc::pair_count>(2, "pass.counted");
    return p;
}

inline gpucalc::cost_formats cost_formats(generator& g) {
    gpucalc::cost_formats f{};
    if (g.coin(0.7)) return f;
    f.weights = storage(g, "formats.weights");
    f.embeddings = storage(g, "formats.embeddings");
    f.activations = storage(g, "formats.activations");
    f.gradients = storage(g, "formats.gradients");
    return f;
}

inline gpucalc::mfu_assumption mfu(generator& g) {
    gpucalc::mfu_assumption a{};
    a.mfu = g.fraction(0.40);
    a.six_n_d = g.coin(0.3);
    return a;
}

// ---------------------------------------------------------------------------------------------
// Cost.
// ---------------------------------------------------------------------------------------------
inline gpucalc::ownership ownership(generator& g) {
    gpucalc::ownership o{};
    o.capex = g.q<gpucalc::money>(typical::capex);
    o.network_share = g.coin(0.5) ? 0.0 : g.unit_interval(0.23);
    o.installation = g.q_or_zero<gpucalc::money>(10000.0);
    o.service_life = g.q<gpucalc::duration>(5.0 * 31536000.0);
    o.residual_value = g.coin(0.5) ? 0.0 : g.unit_interval(0.1);
    o.cost_of_capital = g.coin(0.5) ? 0.0 : g.real(0.08);
    o.gpus = g.q<gpucalc::gpu_count>(8.0);
    o.full_power = g.q<gpucalc::power>(typical::server_power);
    o.idle_power_fraction = g.unit_interval(0.3);
    o.pue = g.hostile() ? g.hostile_double() : 1.0 + 0.6 * g.r.unit();
    o.electricity = g.q<gpucalc::energy_price>(typical::electricity);
    o.maintenance_per_year = g.coin(0.5) ? 0.0 : g.unit_interval(0.05);
    o.space = g.q_or_zero<gpucalc::cost_rate>(1.0 / 3600.0);
    o.staff = g.q_or_zero<gpucalc::cost_rate>(2.0 / 3600.0);
    return o;
}

inline gpucalc::spot_job spot(generator& g) {
    gpucalc::spot_job j{};
    j.work = g.q<gpucalc::duration>(100.0 * typical::hour);
    j.gpus = g.q<gpucalc::gpu_count>(8.0);
    j.on_demand = g.q<gpucalc::gpu_price>(typical::gpu_price);
    j.discount = g.unit_interval(0.6);
    j.mean_time_between_preemptions = g.q<gpucalc::duration>(4.0 * typical::hour);
    j.checkpoint_time = g.q<gpucalc::duration>(300.0);
    j.restart_time = g.q_or_zero<gpucalc::duration>(1800.0);
    j.interval = g.coin(0.6) ? gpucalc::duration{} : g.q<gpucalc::duration>(typical::hour);
    return j;
}

inline gpucalc::reservation reservation(generator& g) {
    gpucalc::reservation r{};
    r.term = g.q<gpucalc::duration>(31536000.0);
    r.upfront = g.q_or_zero<gpucalc::money>(10000.0);
    r.on_demand = g.q<gpucalc::gpu_price>(typical::gpu_price);
    r.discount = g.unit_interval(0.4);
    return r;
}

inline gpucalc::flex_start_offer flex_offer(generator& g) {
    gpucalc::flex_start_offer o{};
    o.on_demand = g.q<gpucalc::gpu_price>(typical::gpu_price);
    o.discount = g.unit_interval(0.5);
    o.expected_delay = g.q_or_zero<gpucalc::duration>(2.0 * typical::hour);
    return o;
}

inline carray<gpucalc::region_price, 3> regions(generator& g) {
    carray<gpucalc::region_price, 3> r{};
    static constexpr const char* names[] = {"us-east", "eu-west", "ap-south"};
    for (int i = 0; i < 3; ++i) {
        r.v[i].name = names[i];
        r.v[i].gpu = g.q<gpucalc::gpu_price>(typical::gpu_price);
        r.v[i].transfer_in =
            i == 0 ? gpucalc::data_price{} : g.q<gpucalc::data_price>(typical::egress);
    }
    return r;
}

/// A load-duration curve, sorted by decreasing demand unless a hostile draw unsorts it.
inline carray<gpucalc::demand_step, 3> demand(generator& g) {
    carray<gpucalc::demand_step, 3> d{};
    double level = 64.0;
    for (int i = 0; i < 3; ++i) {
        level = std::max(1.0, level * (0.3 + 0.7 * g.r.unit()));
        d.v[i].gpus = gpucalc::gpu_count::from_value(g.keep_real(std::floor(level)));
        d.v[i].time = g.q<gpucalc::duration>(1000.0 * typical::hour);
    }
    return d;
}

inline gpucalc::format_options format_options(generator& g) {
    gpucalc::format_options o{};
    static constexpr int digits[] = {3, 3, 3, 1, 5, 17, 0, -1, 100,
                                     std::numeric_limits<int>::min(),
                                     std::numeric_limits<int>::max()};
    o.significant_figures = g.one_of(digits);
    o.bytes = g.any_enum<gpucalc::byte_prefixes>(2, "options.bytes");
    o.exact = g.coin(0.2);
    return o;
}

/// A double to print or compare: any value at all, finite ones most often.
inline double any_double(generator& g) {
    if (g.coin(0.3)) return g.hostile_double();
    const double magnitude = std::exp2(400.0 * g.r.unit() - 200.0);
    return g.coin(0.2) ? -magnitude : magnitude;
}

}  // namespace draw
}  // namespace fuzz

// =============================================================================================
// Scaling: collectives
// =============================================================================================
namespace fuzz {
namespace draw {

/// A collective with an algorithm its op has (drawn before any hostile value replaces them,
/// so the draw never depends on an enum the harness may make invalid), a realistic size from
/// 0 B to 16 GiB, and ranks from 1 to 1,024 (2 for point-to-point).
inline gpucalc::collective_spec collective(generator& g) {
    using gpucalc::collective;
    using gpucalc::collective_algorithm;
    gpucalc::collective_spec s{};
    const auto op = static_cast<collective>(static_cast<int>(g.r.below(6)));
    static constexpr collective_algorithm everyone[] = {
        collective_algorithm::ring, collective_algorithm::halving_doubling,
        collective_algorithm::fastest, collective_algorithm::fastest};
    static constexpr collective_algorithm with_tree[] = {
        collective_algorithm::ring, collective_algorithm::tree,
        collective_algorithm::halving_doubling, collective_algorithm::fastest};
    static constexpr collective_algorithm pairwise[] = {collective_algorithm::direct,
                                                        collective_algorithm::fastest};
    const bool has_tree = op == collective::all_reduce || op == collective::broadcast;
    const bool direct_only = op == collective::all_to_all || op == collective::point_to_point;
    const collective_algorithm a = direct_only ? g.one_of(pairwise)
                                   : has_tree  ? g.one_of(with_tree)
                                               : g.one_of(everyone);
    static constexpr std::int64_t ranks[] = {1, 2, 4, 8, 8, 8, 12, 16, 64, 1024};
    const std::int64_t n = op == collective::point_to_point ? 2 : g.one_of(ranks);
    s.op = g.keep_enum(op, "spec.op");
    s.algorithm = g.keep_enum(a, "spec.algorithm");
    s.ranks = g.keep(n);
    s.bytes = g.coin(0.1) ? gpucalc::data_size{}
                          : gpucalc::data_size::from_value(
                                g.real(std::exp2(34.0 * g.r.unit())));
    return s;
}

/// A group_placement: contiguous most often, a strided 1 or 2 ranks a node, the NICs shared
/// by every GPU (0) or by 1 or 2 groups, NCCL's tree derate or another fraction; or hostile.
inline gpucalc::group_placement placement(generator& g) {
    static constexpr std::int64_t ranks[] = {0, 0, 0, 1, 2};
    static constexpr std::int64_t groups[] = {0, 0, 0, 1, 2};
    gpucalc::group_placement p{};
    p.ranks_per_node = g.keep(g.one_of(ranks));
    p.groups_per_node = g.keep(g.one_of(groups));
    p.tree_bandwidth_derate = g.fraction(0.92);
    return p;
}

// ---------------------------------------------------------------------------------------------
// Serving across GPUs (scaling/inference.hpp).
// ---------------------------------------------------------------------------------------------

/// serving_parallel_assumptions: no overlap most often, a fraction otherwise; TP across nodes
/// allowed a fifth of the time; micro-batches automatic or a small count; or hostile.
inline gpucalc::serving_parallel_assumptions serving_parallel(generator& g) {
    static constexpr std::int64_t micro[] = {0, 0, 0, 1, 2, 4, 64};
    gpucalc::serving_parallel_assumptions a{};
    a.tensor_comm_overlap = g.coin(0.5) ? g.keep_real(0.0) : g.unit_interval(0.0);
    a.pipeline_comm_overlap = g.coin(0.5) ? g.keep_real(0.0) : g.unit_interval(0.0);
    a.allow_tensor_parallel_across_nodes = g.coin(0.2);
    a.micro_batches = g.keep(g.one_of(micro));
    return a;
}

}  // namespace draw
}  // namespace fuzz

// =============================================================================================
// Scaling: training step time
// =============================================================================================
namespace fuzz {
namespace draw {

/// A training job for the step time: the global batch stated more often than job() states it
/// (m = 1 to 64 rounds of micro_batch × DP), and no LoRA, nearly always, so that most calls
/// reach the step model itself rather than its refusals.
inline gpucalc::training_job step_job(generator& g, const gpucalc::training_strategy& s) {
    gpucalc::training_job j = job(g, s);
    static constexpr std::int64_t rounds[] = {1, 2, 8, 64};
    const std::int64_t round = g.one_of(rounds);
    constexpr std::int64_t small = std::int64_t{1} << 20;
    if (g.coin(0.95) && s.micro_batch > 0 && s.micro_batch < small && s.parallel.data > 0 &&
        s.parallel.data < small) {
        j.global_batch = g.keep(s.micro_batch * s.parallel.data * round);
    }
    if (g.coin(0.95)) j.lora.enabled = false;
    // CP must divide the sequence: a power of two does, most of the time.
    if (s.parallel.context_parallel > 1 && g.coin(0.9)) j.sequence = g.keep(std::int64_t{4096});
    return j;
}

/// A strategy for the step time: CP as training_layout draws it (2, 15% of the time), and no
/// offload nearly always (the step time refuses it).
inline gpucalc::training_strategy step_strategy(generator& g, const gpucalc::transformer& m) {
    gpucalc::training_strategy s = strategy(g, m);
    if (g.coin(0.95)) s.offload_optimizer = false;
    if (g.coin(0.95)) s.offload_parameters = false;
    return s;
}

/// A cluster with enough nodes for the strategy's GPUs most of the time (cluster() draws the
/// nodes apart from any layout), its nodes then of 8 GPUs most often, so that TP up to 8 stays
/// in one, or of the sizes whose groups straddle nodes in Megatron-LM's rank order (4, 16, 36
/// and 72: the GB200 NVL36 and NVL72 racks), and a third of the time with idle nodes beyond the
/// layout's.
inline gpucalc::cluster step_cluster(generator& g, const gpucalc::training_strategy& s) {
    gpucalc::cluster c = cluster(g);
    const gpucalc::parallel_layout& p = s.parallel;
    constexpr std::int64_t small = std::int64_t{1} << 20;
    if (g.coin(0.95) && p.tensor > 0 && p.tensor < small && p.pipeline > 0 &&
        p.pipeline < small && p.data > 0 && p.data < small && p.context_parallel > 0 &&
        p.context_parallel < small) {
        const std::int64_t gpus = p.tensor * p.pipeline * p.data * p.context_parallel;
        if (gpus <= std::int64_t{8} * 4096) {
            static constexpr std::int64_t sizes[] = {8, 8, 8, 8, 4, 16, 36, 72};
            const std::int64_t node_gpus = g.one_of(sizes);
            static constexpr std::int64_t idle[] = {0, 0, 0, 0, 1, 3};
            c.node.gpus_per_node = node_gpus;
            c.nodes = g.keep(static_cast<std::int64_t>((gpus + node_gpus - 1) / node_gpus) +
                               g.one_of(idle));
            // Several nodes need a scale-out link: give them one nearly always.
            if (c.nodes > 1 && g.coin(0.9)) c.inter_node = link(g, gpucalc::catalog::infiniband_ndr);
        }
    }
    return c;
}

/// step_assumptions: the defaults or other fractions and overlaps, tiles of 64–256, buckets of
/// 1–100 MB; or hostile.
inline gpucalc::step_assumptions step_assumptions(generator& g) {
    gpucalc::step_assumptions a{};
    a.gemm_efficiency = g.fraction(0.80);
    a.memory_efficiency = g.fraction(0.85);
    static constexpr std::int64_t tiles[] = {128, 128, 64, 256};
    a.gemm_tile_rows = g.keep(g.one_of(tiles));
    a.gemm_tile_columns = g.keep(g.one_of(tiles));
    a.attention_forward_efficiency = g.fraction(0.73);
    a.attention_backward_efficiency = g.fraction(0.63);
    static constexpr double overlaps[] = {0.0, 0.0, 0.5, 1.0};
    a.tensor_comm_overlap = g.keep_real(g.one_of(overlaps));
    a.pipeline_comm_overlap = g.keep_real(g.one_of(overlaps));
    a.expert_comm_overlap = g.keep_real(g.one_of(overlaps));
    a.data_parallel_overlap = g.keep_real(g.one_of(overlaps));
    a.parameter_gather_overlap = g.keep_real(g.one_of(overlaps));
    a.context_comm_overlap = g.keep_real(g.one_of(overlaps));
    a.bucket_bytes = g.keep_q(gpucalc::make<gpucalc::megabytes>(g.coin(0.7) ? 25.0 : 1.0));
    a.allow_tensor_parallel_across_nodes = g.coin(0.2);
    a.fused_gradient_accumulation = g.coin(0.7);
    a.fused_optimizer_step = g.coin(0.3);
    a.gradient_clipping = g.coin(0.8);
    a.pipeline_scatter_gather = g.coin(0.7);
    static constexpr double loss_bytes[] = {38.0, 14.0, 0.0, 2.0, 1024.0};
    a.loss_forward_bytes_per_logit = g.keep_real(g.one_of(loss_bytes));
    a.loss_backward_bytes_per_logit = g.keep_real(g.one_of(loss_bytes));
    a.gemm_epilogue_overlap = g.keep_real(g.one_of(overlaps));
    return a;
}

}  // namespace draw
}  // namespace fuzz
