// checked_test.cpp: a model checked once gives the same answers, bit for bit, as the validating
// entry points, over the catalog and random shapes; check() rejects what the entry points reject.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/memory.hpp>
#include <gpucalc/model.hpp>
#include <gpucalc/roofline.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using namespace gpucalc;
namespace cat = gpucalc::catalog;

namespace {

/// A small deterministic generator (64-bit LCG, Knuth's MMIX constants), so a failure repeats.
struct shape_source {
    std::uint64_t state;
    std::int64_t below(std::int64_t n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::int64_t>((state >> 33) % static_cast<std::uint64_t>(n));
    }
    bool coin() { return below(2) == 1; }
};

/// A valid random decoder: GQA or MHA, gated or plain, dense or MoE, windowed or not.
transformer random_model(shape_source& r) {
    transformer m{};
    m.name = "random";
    const std::int64_t head_dims[] = {32, 64, 80, 96, 128, 256};
    m.heads = std::int64_t{1} << r.below(7);  // 1 .. 64
    const std::int64_t head_dim = head_dims[r.below(6)];
    m.hidden = m.heads * head_dim;
    if (r.coin()) {
        m.head_dim = head_dim;
        m.hidden = m.hidden + 8 * r.below(64);  // an explicit head_dim need not divide hidden
    }
    m.kv_heads = r.coin() ? 0 : std::int64_t{1} << r.below(1 + (m.heads > 1 ? 6 : 0));
    if (m.kv_heads > m.heads) m.kv_heads = m.heads;
    m.layers = 1 + r.below(96);
    m.ffn_hidden = 64 + 64 * r.below(4 * m.hidden / 64 + 1);
    m.vocab = 1000 + r.below(255000);
    m.mlp = r.coin() ? mlp_kind::gated : mlp_kind::plain;
    m.norm = r.coin() ? norm_kind::rms_norm : norm_kind::layer_norm;
    m.positions = r.coin() ? position_kind::rotary : position_kind::learned;
    m.max_context = 512 + r.below(131072);
    m.linear_biases = r.coin();
    m.tied_embeddings = r.coin();
    if (r.coin()) {
        m.experts = std::int64_t{2} << r.below(4);  // 2 .. 16
        m.experts_per_token = 1 + r.below(m.experts < 4 ? m.experts : 4);
    }
    m.sliding_window = r.coin() ? 0 : 256 + r.below(8192);
    return m;
}

/// Every model the tests compare on: the catalog, then random shapes.
std::vector<transformer> models_to_compare() {
    std::vector<transformer> models;
    for (const transformer* m : cat::all_models) models.push_back(*m);
    shape_source r{20261122};
    while (models.size() < 300) {
        const transformer m = random_model(r);
        // Shapes past the exact-count guard are rejected by both paths; the agreement is about
        // the ones that pass.
        try {
            (void)check(m);
            models.push_back(m);
        } catch (const invalid_input&) {
        }
    }
    return models;
}

template <class A, class B>
void same_bits(const A& a, const B& b) {
    CHECK(a.value() == b.value());
}

}  // namespace

TEST_CASE("the checked and validating paths agree bit for bit") {
    shape_source r{7};
    for (const transformer& m : models_to_compare()) {
        CAPTURE(m.name);
        CAPTURE(m.layers);
        CAPTURE(m.hidden);
        CAPTURE(m.heads);
        const checked_model cm = check(m);
        CHECK(cm.spec().hidden == m.hidden);
        CHECK(cm.head_dim() == head_dim_of(m));
        CHECK(cm.kv_heads() == kv_heads_of(m));
        CHECK(cm.parameters().total == parameter_count(m).total);
        CHECK(cm.parameters().active == parameter_count(m).active);

        serving_setup s{};
        s.batch = 1 + r.below(64);
        s.context = 1 + r.below(32768);
        s.prompt = 1 + r.below(4096);
        s.kv_block_tokens = r.coin() ? 0 : 16;
        s.parallel.tensor = 1;
        for (std::int64_t tp = 8; tp > 1; tp /= 2) {
            if (tensor_parallel_allowed(m, tp)) {
                s.parallel.tensor = tp;
                break;
            }
        }
        const inference_memory im = inference_memory_per_gpu(m, s);
        const inference_memory ic = inference_memory_per_gpu(cm, s);
        same_bits(im.total, ic.total);
        same_bits(im.kv_cache, ic.kv_cache);
        same_bits(im.weights, ic.weights);
        const decode_estimate dm = decode(m, cat::h100_sxm, s);
        const decode_estimate dc = decode(cm, cat::h100_sxm, s);
        same_bits(dm.time_per_token, dc.time_per_token);
        same_bits(dm.flops, dc.flops);
        same_bits(dm.bytes, dc.bytes);
        const prefill_estimate pm = prefill(m, cat::h100_sxm, s);
        const prefill_estimate pc = prefill(cm, cat::h100_sxm, s);
        same_bits(pm.time_to_first_token, pc.time_to_first_token);
        CHECK(max_batch_for_inference(m, s, cat::h100_sxm) ==
              max_batch_for_inference(cm, s, cat::h100_sxm));
        CHECK(max_context_for_inference(m, s, cat::h100_sxm, 0.0, 1 << 18) ==
              max_context_for_inference(cm, s, cat::h100_sxm, 0.0, 1 << 18));
        CHECK(min_gpus_for_inference(m, s, cat::h100_sxm).tensor_parallel ==
              min_gpus_for_inference(cm, s, cat::h100_sxm).tensor_parallel);

        training_job job{};
        job.sequence = 256 << r.below(5);
        training_strategy t{};
        t.parallel.tensor = s.parallel.tensor;
        t.parallel.data = 1 + r.below(8);
        t.parallel.zero_stage = r.below(4);
        t.micro_batch = 1 + r.below(4);
        t.recompute = static_cast<recompute>(r.below(3));
        t.parallel.sequence_parallel = r.coin();
        const training_memory tm = training_memory_per_gpu(m, job, t);
        const training_memory tc = training_memory_per_gpu(cm, job, t);
        same_bits(tm.total, tc.total);
        same_bits(tm.activations, tc.activations);
        same_bits(tm.optimizer_states, tc.optimizer_states);
        CHECK(max_micro_batch_for_training(m, job, t, cat::h100_sxm, 0.0, 64) ==
              max_micro_batch_for_training(cm, job, t, cat::h100_sxm, 0.0, 64));
        const training_fit fm = min_gpus_for_training(m, job, t, cat::h100_sxm, 0.0, 256);
        const training_fit fc = min_gpus_for_training(cm, job, t, cat::h100_sxm, 0.0, 256);
        CHECK(fm.outcome == fc.outcome);
        CHECK(fm.data_parallel == fc.data_parallel);
    }
}

TEST_CASE("check() rejects a bad shape once, naming the caller; the hot paths reject it by name") {
    transformer bad = cat::llama_3_8b;
    bad.kv_heads = 5;
    CHECK_THROWS_WITH_AS((void)check(bad), "check(transformer): kv_heads = 5 must divide heads = 32 "
                                           "(0 means kv_heads = heads)",
                         invalid_input);
    CHECK_THROWS_WITH_AS((void)check(bad, "my_scheduler"),
                         "my_scheduler: kv_heads = 5 must divide heads = 32 (0 means kv_heads = heads)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(decode(bad, cat::h100_sxm, serving_setup{}),
                         "decode: kv_heads = 5 must divide heads = 32 (0 means kv_heads = heads)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(max_batch_for_inference(bad, serving_setup{}, cat::h100_sxm),
                         "max_batch_for_inference: kv_heads = 5 must divide heads = 32 (0 means "
                         "kv_heads = heads)",
                         invalid_input);
    // A checked model skips only the model's checks: the setup's are still made.
    const checked_model llama = check(cat::llama_3_8b);
    serving_setup no_batch{};
    no_batch.batch = 0;
    CHECK_THROWS_WITH_AS(decode(llama, cat::h100_sxm, no_batch), "decode: batch = 0 must be >= 1",
                         invalid_input);
    training_strategy three{};
    three.parallel.tensor = 3;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(llama, training_job{}, three),
                         "training_memory_per_gpu: parallel.tensor = 3 must divide attention heads = 32",
                         invalid_input);
}
