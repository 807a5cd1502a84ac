// hostile_memory_test.cpp: memory footprints and decisions under hostile input (issue 13).
// Inside the stated ranges every footprint is finite, every decision answers (or says "no")
// after a bounded number of steps, and every table is checked before it is read; outside
// them, invalid_input names the function the user called and the member path the user wrote.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/memory.hpp>
#include <gpucalc/model.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
constexpr std::int64_t two_to_40 = std::int64_t{1} << 40;
constexpr std::int64_t two_to_62 = std::int64_t{1} << 62;

/// A model that passes check() with the most attention heads a count may have: one-wide heads
/// over a one-wide residual stream and one KV head (about 2^41 parameters). Every TP degree
/// that is a power of two up to 2^40 splits it.
transformer many_heads() {
    transformer m{};
    m.name = "many heads";
    m.layers = 1;
    m.hidden = 1;
    m.heads = two_to_40;
    m.kv_heads = 1;
    m.head_dim = 1;
    m.ffn_hidden = 1;
    m.vocab = 1;
    return m;
}

/// A tiny dense model: every footprint of it is a few bytes per token.
transformer tiny() {
    transformer m{};
    m.name = "tiny";
    m.layers = 1;
    m.hidden = 1;
    m.heads = 1;
    m.ffn_hidden = 1;
    m.vocab = 1;
    return m;
}

/// An H100 with `memory` in place of its own.
gpu_spec gpu_with(data_size memory) {
    gpu_spec g = cat::h100_sxm;
    g.memory = memory;
    return g;
}
}  // namespace

TEST_CASE("the largest KV block gives a large cache, not a wrapped one, and fits says no") {
    // 2^40 sequences of one token, each rounded up to a block of 2^40 tokens: 2^80 cached
    // tokens, which wrapped the old 64-bit product. Now 2^80 × 4 B (one layer's key and value,
    // one wide, 16 bits), exact in binary.
    serving_setup s{};
    s.batch = two_to_40;
    s.context = 1;
    s.kv_block_tokens = two_to_40;
    const inference_memory m = inference_memory_per_gpu(tiny(), s);
    CHECK(m.cached_tokens_per_sequence == two_to_40);
    CHECK(m.kv_cache == make<bytes>(std::ldexp(1.0, 82)));
    CHECK(std::isfinite(in<bytes>(m.total)));
    CHECK_FALSE(fits(m, cat::h100_sxm).ok);
    CHECK(fits(m, cat::h100_sxm).margin < 0.0_B);
}

TEST_CASE("min_gpus_for_training checks the degrees before it multiplies them") {
    training_strategy huge{};
    huge.parallel.tensor = two_to_62;
    huge.parallel.pipeline = 4;  // tensor × pipeline × context_parallel wrapped up front
    huge.parallel.zero_stage = 3;
    CHECK_THROWS_WITH_AS(min_gpus_for_training(cat::llama_2_7b, training_job{}, huge,
                                               cat::h100_sxm),
                         "min_gpus_for_training: parallel.tensor = 4.61168601842739e+18 must be "
                         "<= 2^40",
                         invalid_input);
}

TEST_CASE("min_gpus_for_training keeps the degrees it tries within 2^40 GPUs") {
    // TP 8 with max_data_parallel = 2^40 once probed 2^43 GPUs and threw; the search now stops
    // at 2^37 replicas and answers as at the default limit.
    training_strategy s{};
    s.parallel.tensor = 8;
    s.parallel.zero_stage = 3;
    const training_job job{};
    const training_fit at_default = min_gpus_for_training(cat::llama_2_70b, job, s, cat::h100_sxm);
    const training_fit at_most =
        min_gpus_for_training(cat::llama_2_70b, job, s, cat::h100_sxm, 0.0, two_to_40);
    CHECK(at_most.outcome == fit_outcome::found);
    CHECK(at_most.data_parallel == at_default.data_parallel);
    CHECK(at_most.gpus == 8 * at_most.data_parallel);
}

TEST_CASE("min_gpus_for_inference bounds its search: at most 1,024 TP degrees") {
    const transformer m = many_heads();
    const gpu_spec small = gpu_with(1.0_KiB);  // the CUDA context alone does not fit
    // Every power of two up to 2^40 splits this model: trying each degree up to 2^40 hung.
    CHECK_THROWS_WITH_AS(min_gpus_for_inference(m, serving_setup{}, small, 0.0, two_to_40),
                         "min_gpus_for_inference: max_tensor_parallel = 1099511627776 must be <= "
                         "1024, the most degrees the search tries",
                         invalid_input);
    const serving_fit fit = min_gpus_for_inference(m, serving_setup{}, small, 0.0, 1024);
    CHECK(fit.outcome == fit_outcome::too_large_at_limit);
    CHECK(fit.tensor_parallel == 1024);
    CHECK(fit.gpus == 1024);
    CHECK_FALSE(fit.verdict.ok);
}

TEST_CASE("the searches that walk splits of a global batch visit divisors, not every integer") {
    const gpu_spec small = gpu_with(1.0_KiB);
    training_job job{};
    job.sequence = 1;
    training_strategy zero3{};
    zero3.parallel.zero_stage = 3;
    // A prime global batch near 2^40: only 1 and itself split it. The old walk tried every
    // degree up to it.
    job.global_batch = 1099511627689;  // the largest prime below 2^40
    training_fit fit = min_gpus_for_training(tiny(), job, zero3, small, 0.0, two_to_40);
    CHECK(fit.outcome == fit_outcome::too_large_at_limit);
    CHECK(fit.data_parallel == 1099511627689);
    CHECK(fit.gpus == 1099511627689);
    // 2^40 has 41 divisors; none fits, and the last tried is 2^40 itself.
    job.global_batch = two_to_40;
    fit = min_gpus_for_training(tiny(), job, zero3, small, 0.0, two_to_40);
    CHECK(fit.outcome == fit_outcome::too_large_at_limit);
    CHECK(fit.data_parallel == two_to_40);
    // The largest micro-batch that splits a prime global batch is the batch itself, when
    // everything fits (a tiny model on a GPU of 1e30 B).
    job.global_batch = 1099511627689;
    CHECK(max_micro_batch_for_training(tiny(), job, training_strategy{},
                                       gpu_with(make<bytes>(1e30)), 0.0, two_to_40) ==
          1099511627689);
}

TEST_CASE("smallest_mig_profile checks the GPU's profile table before reading it") {
    gpu_spec g = cat::a100_80gb_sxm;
    g.mig_count = 17;  // read past the catalog's table
    CHECK_THROWS_WITH_AS(smallest_mig_profile(g, 5.0_GiB),
                         "smallest_mig_profile: gpu.mig_count = 17 must be in [0, 16]",
                         invalid_input);
    g.mig_count = -1;
    CHECK_THROWS_WITH_AS(smallest_mig_profile(g, 5.0_GiB),
                         "smallest_mig_profile: gpu.mig_count = -1 must be in [0, 16]",
                         invalid_input);
    g.mig_count = 3;
    g.mig = nullptr;
    CHECK_THROWS_WITH_AS(smallest_mig_profile(g, 5.0_GiB),
                         "smallest_mig_profile: gpu.mig_count = 3 must be 0 when gpu.mig points "
                         "to no profiles",
                         invalid_input);
    g = cat::a100_80gb_sxm;
    g.memory = 0.0_GiB;
    CHECK_THROWS_WITH_AS(smallest_mig_profile(g, 5.0_GiB),
                         "smallest_mig_profile: gpu.memory = 0 B must be finite and > 0",
                         invalid_input);
    CHECK(smallest_mig_profile(cat::a100_80gb_sxm, 5.0_GiB) != nullptr);
}

TEST_CASE("answers are finite, or an explicit no, at the edges of the ranges") {
    // Without FlashAttention the scores are sequence² per head: 2^40 heads (a model that passes
    // check) at a sequence of 2^20 keep 2^81 B of them, finite and far from fitting.
    training_job job{};
    job.sequence = std::int64_t{1} << 20;
    job.flash_attention = false;
    const training_memory t = training_memory_per_gpu(many_heads(), job, training_strategy{});
    CHECK(std::isfinite(in<bytes>(t.total)));
    CHECK(t.activations > make<bytes>(2e24));
    CHECK_FALSE(fits(t, cat::h100_sxm).ok);
    CHECK(std::isfinite(in<bytes>(fits(t, cat::h100_sxm).margin)));
    // A footprint is a size, so fits takes any finite one; a non-finite one is a broken rule.
    training_memory broken{};
    broken.total = make<bytes>(std::numeric_limits<double>::infinity());
    CHECK_THROWS_WITH_AS(fits(broken, cat::h100_sxm),
                         "fits: need.total = inf B must be finite and >= 0", invalid_input);
    // A denormal parameter count sharded 8 ways underflowed to 0 B.
    parallel_layout eight{};
    eight.data = 8;
    eight.zero_stage = 3;
    CHECK_THROWS_WITH_AS(model_states_per_gpu(5e-324, training_job{}, eight),
                         "model_states_per_gpu: parameters = 4.94065645841247e-324 must be 0 or "
                         "in [1e-30, 2^53]",
                         invalid_input);
    CHECK(model_states_per_gpu(0.0, training_job{}, eight).weights == 0.0_B);
    eight.data = two_to_40;
    eight.context_parallel = 2;
    CHECK_THROWS_WITH_AS(model_states_per_gpu(1e9, training_job{}, eight),
                         "model_states_per_gpu: layout.data x layout.context_parallel = "
                         "2199023255552 must be <= 2^40",
                         invalid_input);
    // The largest batch on a GPU of 1e30 B: the limit, not an exception.
    CHECK(max_batch_for_inference(tiny(), serving_setup{}, gpu_with(make<bytes>(1e30)), 0.0,
                                  two_to_40) > 0);
}

TEST_CASE("an optimizer outside its enumerators is invalid_input, not 0 bytes of state") {
    training_job job{};
    job.optimizer = static_cast<optimizer>(4);
    CHECK_THROWS_WITH_AS(model_states_per_gpu(1e9, job, parallel_layout{}),
                         "model_states_per_gpu: optimizer = 4 must be a gpucalc::optimizer value",
                         invalid_input);
    CHECK_THROWS_WITH_AS(optimizer_state_bytes(static_cast<optimizer>(9)),
                         "optimizer_state_bytes: o = 9 must be a gpucalc::optimizer value",
                         invalid_input);
    CHECK_THROWS_WITH_AS(kv_cache_bytes_per_token(cat::llama_2_7b,
                                                  storage_format{static_cast<number_format>(40)}),
                         "kv_cache_bytes_per_token: kv.element = 40 must be a number_format value",
                         invalid_input);
}

TEST_CASE("a search's errors name the search and the member path the user wrote") {
    // Headroom and capacity were once reported by the fits() each probe called.
    CHECK_THROWS_WITH_AS(min_gpus_for_training(cat::llama_2_7b, training_job{}, training_strategy{},
                                               cat::h100_sxm, 1.5),
                         "min_gpus_for_training: headroom = 1.5 must be in [0, 1)", invalid_input);
    CHECK_THROWS_WITH_AS(max_batch_for_inference(cat::llama_2_7b, serving_setup{},
                                                 gpu_with(0.0_GiB)),
                         "max_batch_for_inference: gpu.memory = 0 B must be finite and > 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(min_gpus_for_inference(cat::llama_2_7b, {}, cat::h100_sxm, -0.5),
                         "min_gpus_for_inference: headroom = -0.5 must be in [0, 1)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(fits(inference_memory_per_gpu(cat::llama_2_7b, serving_setup{}),
                              gpu_with(-1.0_GiB)),
                         "fits: gpu.memory = -1 GiB must be finite and > 0", invalid_input);
    // Layout errors inside a search name the search.
    training_strategy three{};
    three.parallel.tensor = 3;
    CHECK_THROWS_WITH_AS(min_gpus_for_training(cat::llama_2_7b, training_job{}, three,
                                               cat::h100_sxm),
                         "min_gpus_for_training: parallel.tensor = 3 must divide attention "
                         "heads = 32",
                         invalid_input);
}
