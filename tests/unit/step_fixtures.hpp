// step_fixtures.hpp: what the training-step tests share: a tiny model worked by hand, H100
// nodes on InfiniBand NDR, and a job of a sequence and a global batch.
#pragma once

#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/hardware.hpp>
#include <gpucalc/model.hpp>
#include <gpucalc/workload.hpp>

#include <cstdint>

namespace step_fixtures {

/// 4 layers, h = 256, 4 heads of 64, plain 1,024-wide MLP, vocab 1,024, LayerNorm, RoPE.
inline constexpr gpucalc::transformer tiny = [] {
    gpucalc::transformer m{};
    m.name = "tiny";
    m.layers = 4;
    m.hidden = 256;
    m.heads = 4;
    m.kv_heads = 4;
    m.head_dim = 64;
    m.ffn_hidden = 1024;
    m.vocab = 1024;
    m.max_context = 1024;
    m.mlp = gpucalc::mlp_kind::plain;
    m.norm = gpucalc::norm_kind::layer_norm;
    return m;
}();

/// `nodes` HGX H100 nodes (8 GPUs each) joined by InfiniBand NDR.
inline gpucalc::cluster h100_nodes(std::int64_t nodes) {
    gpucalc::cluster c{};
    c.node.gpu = gpucalc::catalog::h100_sxm;
    c.nodes = nodes;
    c.inter_node = gpucalc::catalog::infiniband_ndr;
    return c;
}

/// A job of `global_batch` sequences of `sequence` tokens a step.
inline gpucalc::training_job job_of(std::int64_t sequence, std::int64_t global_batch) {
    gpucalc::training_job j{};
    j.sequence = sequence;
    j.global_batch = global_batch;
    return j;
}

}  // namespace step_fixtures
