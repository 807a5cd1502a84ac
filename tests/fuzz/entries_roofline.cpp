// entries_roofline.cpp: the fuzz table's entries for roofline.hpp: ops, attention, decode and
// prefill, measured utilization and claims, and the MFU-based training time.
#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {

void register_roofline(registry& r) {
    using namespace gpucalc;

    // roofline/op.hpp
    add(r, "to_string(bound)", "to_string", "gpucalc::to_string({0})",
        [](generator& g) { return std::tuple{g.any_enum<bound>(2, "value")}; },
        [](bound b) { return to_string(b); })
        .weight = 0.3;
    add(r, "ridge_point", "ridge_point", "gpucalc::ridge_point({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::gpu(g), draw::precision(g, "precision"), draw::efficiency(g)};
        },
        [](const gpu_spec& gpu, compute_precision p, const kernel_efficiency& e) {
            return ridge_point(gpu, p, e);
        });
    add(r, "attainable", "attainable", "gpucalc::attainable({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{draw::gpu(g), draw::precision(g, "precision"),
                              g.q<arithmetic_intensity>(100.0), draw::efficiency(g)};
        },
        [](const gpu_spec& gpu, compute_precision p, const arithmetic_intensity& i,
           const kernel_efficiency& e) { return attainable(gpu, p, i, e); });
    add(r, "op_time", "op_time", "gpucalc::op_time({0}, {1}, {2}, {3})",
        [](generator& g) {
            op_cost op{};
            op.flops = g.q<flop_count>(typical::flops);
            op.bytes = g.q<data_size>(typical::bytes);
            return std::tuple{op, g.q<flop_rate>(typical::peak),
                              g.q<bandwidth>(typical::memory_bandwidth), draw::efficiency(g)};
        },
        [](const op_cost& op, const flop_rate& peak_rate, const bandwidth& b,
           const kernel_efficiency& e) { return op_time(op, peak_rate, b, e); });
    add(r, "op_time(gpu_spec)", "op_time", "gpucalc::op_time({0}, {1}, {2}, {3})",
        [](generator& g) {
            op_cost op{};
            op.flops = g.q<flop_count>(typical::flops);
            op.bytes = g.q<data_size>(typical::bytes);
            return std::tuple{op, draw::gpu(g), draw::precision(g, "precision"),
                              draw::efficiency(g)};
        },
        [](const op_cost& op, const gpu_spec& gpu, compute_precision p,
           const kernel_efficiency& e) { return op_time(op, gpu, p, e); });
    add(r, "gemm", "gemm", "gpucalc::gemm({0}, {1}, {2}, {3}, {4})",
        [](generator& g) {
            return std::tuple{g.count(4096), g.count(4096), g.count(4096),
                              draw::storage(g, "inputs"), draw::storage(g, "output")};
        },
        [](std::int64_t m, std::int64_t n, std::int64_t k, const storage_format& in,
           const storage_format& out) { return gemm(m, n, k, in, out); });

    // roofline/attention.hpp
    add(r, "attention_cost", "attention_cost",
        "gpucalc::attention_cost({0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const std::int64_t keys = g.count(4096);
            const std::int64_t queries = g.coin() ? keys : g.count(1);
            return std::tuple{m,
                              g.count(8),
                              queries,
                              keys,
                              g.coin(0.8),
                              g.coin(0.8),
                              draw::storage(g, "activations"),
                              draw::tensor_degree(g, m),
                              g.count(default_flash_query_block)};
        },
        [](const transformer& m, std::int64_t batch, std::int64_t queries, std::int64_t keys,
           bool flash, bool causal, const storage_format& act, std::int64_t tp,
           std::int64_t block) {
            return attention_cost(m, batch, queries, keys, flash, causal, act, tp, block);
        });

    // roofline/inference.hpp
    const auto pass_args = [](generator& g) {
        const transformer m = draw::model(g);
        return std::tuple{m, draw::gpu(g), draw::serving(g, m)};
    };
    // A regression input (issue 13): 2^40 experts, top-1, a batch of 2^40 on a model check()
    // accepts: the experts a batch touches must not be counted one sequence at a time.
    const auto decode_args = [](generator& g) {
        if (g.pinned == 0) {
            transformer m = draw::tiny_model();
            m.experts = std::int64_t{1} << 40;
            m.experts_per_token = 1;
            serving_setup s{};
            s.batch = std::int64_t{1} << 40;
            s.context = 1;
            s.max_tokens_per_step = 1;
            return std::tuple{m, gpucalc::catalog::h100_sxm, s};
        }
        const transformer m = draw::model(g);
        return std::tuple{m, draw::gpu(g), draw::serving(g, m)};
    };
    add(r, "decode", "decode", "gpucalc::decode({0}, {1}, {2})", decode_args,
        [](const transformer& m, const gpu_spec& gpu, const serving_setup& s) {
            return decode(m, gpu, s);
        },
        1);
    add(r, "decode [checked_model]", "decode", "gpucalc::decode(gpucalc::check({0}), {1}, {2})",
        decode_args,
        [](const transformer& m, const gpu_spec& gpu, const serving_setup& s) {
            return decode(checked(m), gpu, s);
        },
        1);
    const auto crossover_args = [](generator& g) {
        const transformer m = draw::model(g);
        return std::tuple{m, draw::gpu(g), draw::serving(g, m), g.count(std::int64_t{1} << 20)};
    };
    add(r, "decode_compute_bound_batch", "decode_compute_bound_batch",
        "gpucalc::decode_compute_bound_batch({0}, {1}, {2}, {3})", crossover_args,
        [](const transformer& m, const gpu_spec& gpu, const serving_setup& s,
           std::int64_t limit) { return decode_compute_bound_batch(m, gpu, s, limit); });
    add(r, "decode_compute_bound_batch [checked_model]", "decode_compute_bound_batch",
        "gpucalc::decode_compute_bound_batch(gpucalc::check({0}), {1}, {2}, {3})", crossover_args,
        [](const transformer& m, const gpu_spec& gpu, const serving_setup& s,
           std::int64_t limit) { return decode_compute_bound_batch(checked(m), gpu, s, limit); });
    add(r, "prefill", "prefill", "gpucalc::prefill({0}, {1}, {2})", pass_args,
        [](const transformer& m, const gpu_spec& gpu, const serving_setup& s) {
            return prefill(m, gpu, s);
        });
    add(r, "prefill [checked_model]", "prefill", "gpucalc::prefill(gpucalc::check({0}), {1}, {2})",
        pass_args, [](const transformer& m, const gpu_spec& gpu, const serving_setup& s) {
            return prefill(checked(m), gpu, s);
        });

    // roofline/measured.hpp
    add(r, "decode_utilization", "decode_utilization",
        "gpucalc::decode_utilization({0}, {1}, {2}, {3})",
        [](generator& g) {
            const transformer m = draw::model(g);
            return std::tuple{m, draw::gpu(g), draw::serving(g, m),
                              g.q<stream_token_rate>(typical::stream_rate)};
        },
        [](const transformer& m, const gpu_spec& gpu, const serving_setup& s,
           const stream_token_rate& measured) { return decode_utilization(m, gpu, s, measured); });
    add(r, "check_decode_claim", "check_decode_claim",
        "gpucalc::check_decode_claim({0}, {1}, {2}, {3})",
        [](generator& g) {
            const transformer m = draw::model(g);
            return std::tuple{m, draw::gpu(g), draw::serving(g, m),
                              g.q<stream_token_rate>(typical::stream_rate)};
        },
        [](const transformer& m, const gpu_spec& gpu, const serving_setup& s,
           const stream_token_rate& claimed) { return check_decode_claim(m, gpu, s, claimed); });

    // roofline/training.hpp
    const auto training_time_args = [](generator& g) {
        const transformer m = draw::model(g);
        const training_strategy s = draw::strategy(g, m);
        return std::tuple{m, draw::gpu(g), draw::job(g, s), s.parallel, draw::mfu(g)};
    };
    add(r, "training_step_time_at_mfu", "training_step_time_at_mfu",
        "gpucalc::training_step_time_at_mfu({0}, {1}, {2}, {3}, {4})", training_time_args,
        [](const transformer& m, const gpu_spec& gpu, const training_job& j,
           const parallel_layout& p, const mfu_assumption& a) {
            return training_step_time_at_mfu(m, gpu, j, p, a);
        });
    add(r, "time_to_train_at_mfu", "time_to_train_at_mfu",
        "gpucalc::time_to_train_at_mfu({0}, {1}, {2}, {3}, {4}, {5})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::strategy(g, m);
            return std::tuple{m, draw::gpu(g), g.q<token_count>(typical::training_tokens),
                              draw::job(g, s), s.parallel, draw::mfu(g)};
        },
        [](const transformer& m, const gpu_spec& gpu, const token_count& tokens,
           const training_job& j, const parallel_layout& p, const mfu_assumption& a) {
            return time_to_train_at_mfu(m, gpu, tokens, j, p, a);
        });
    add(r, "training_mfu", "training_mfu", "gpucalc::training_mfu({0}, {1}, {2}, {3}, {4}, {5})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::strategy(g, m);
            return std::tuple{m, draw::gpu(g), g.q<token_rate>(1e5), draw::job(g, s), s.parallel,
                              g.coin(0.3)};
        },
        [](const transformer& m, const gpu_spec& gpu, const token_rate& measured,
           const training_job& j, const parallel_layout& p, bool six_n_d) {
            return training_mfu(m, gpu, measured, j, p, six_n_d);
        });
    add(r, "megatron_training_time", "megatron_training_time",
        "gpucalc::megatron_training_time({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{g.q<token_count>(typical::training_tokens), g.real(1.75e11),
                              g.count(1024), g.q<flop_rate>(140e12)};
        },
        [](const token_count& tokens, double parameters, std::int64_t gpus,
           const flop_rate& per_gpu) {
            return megatron_training_time(tokens, parameters, gpus, per_gpu);
        });
}

}  // namespace fuzz
