// entries_model.cpp: the fuzz table's entries for model.hpp (shape, checked model, parameters,
// FLOPs, closed forms, LoRA), parallelism.hpp and parallelism/costs.hpp.
#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {

void register_model(registry& r) {
    using namespace gpucalc;

    // model/shape.hpp
    add_enum_to_string<mlp_kind>(r, "to_string(mlp_kind)", 2);
    add_enum_to_string<norm_kind>(r, "to_string(norm_kind)", 2);
    add_enum_to_string<position_kind>(r, "to_string(position_kind)", 2);
    const auto one_model = [](generator& g) { return std::tuple{draw::model(g)}; };
    add(r, "kv_heads_of", "kv_heads_of", "gpucalc::kv_heads_of({0})", one_model,
        [](const transformer& m) { return kv_heads_of(m); });
    add(r, "head_dim_of", "head_dim_of", "gpucalc::head_dim_of({0})", one_model,
        [](const transformer& m) { return head_dim_of(m); });
    add(r, "experts_of", "experts_of", "gpucalc::experts_of({0})", one_model,
        [](const transformer& m) { return experts_of(m); });
    add(r, "active_experts_of", "active_experts_of", "gpucalc::active_experts_of({0})", one_model,
        [](const transformer& m) { return active_experts_of(m); });
    add(r, "q_width_of", "q_width_of", "gpucalc::q_width_of({0})", one_model,
        [](const transformer& m) { return q_width_of(m); });
    add(r, "kv_width_of", "kv_width_of", "gpucalc::kv_width_of({0})", one_model,
        [](const transformer& m) { return kv_width_of(m); });
    add(r, "attended_tokens", "attended_tokens", "gpucalc::attended_tokens({0}, {1})",
        [](generator& g) { return std::tuple{draw::model(g), g.count(4096)}; },
        [](const transformer& m, std::int64_t context) { return attended_tokens(m, context); });

    // model/checked.hpp, model/parameters.hpp
    add(r, "check(transformer)", "check(transformer)", "gpucalc::check({0})", one_model,
        [](const transformer& m) { return check(m); });
    add(r, "parameter_count", "parameter_count", "gpucalc::parameter_count({0})", one_model,
        [](const transformer& m) { return parameter_count(m); });
    add(r, "parameter_count [checked_model]", "parameter_count",
        "gpucalc::parameter_count(gpucalc::check({0}))", one_model,
        [](const transformer& m) { return parameter_count(checked(m)); })
        .weight = 0.3;
    add(r, "kv_heads_of [checked_model]", "kv_heads_of",
        "gpucalc::kv_heads_of(gpucalc::check({0}))", one_model,
        [](const transformer& m) {
            const checked_model cm = checked(m);
            return kv_heads_of(cm);
        })
        .weight = 0.1;

    // model/closed_forms.hpp
    add(r, "megatron_parameter_count", "megatron_parameter_count",
        "gpucalc::megatron_parameter_count({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{g.count(96), g.count(12288), g.count(51200), g.count(2048)};
        },
        [](std::int64_t l, std::int64_t h, std::int64_t v, std::int64_t s) {
            return megatron_parameter_count(l, h, v, s);
        });
    add(r, "kaplan_training_flops", "kaplan_training_flops",
        "gpucalc::kaplan_training_flops({0}, {1})",
        [](generator& g) {
            return std::tuple{g.real(7e9), g.q<token_count>(typical::training_tokens)};
        },
        [](double parameters, const token_count& tokens) {
            return kaplan_training_flops(parameters, tokens);
        });
    add(r, "megatron_flops_per_iteration", "megatron_flops_per_iteration",
        "gpucalc::megatron_flops_per_iteration({0}, {1}, {2}, {3}, {4})",
        [](generator& g) {
            return std::tuple{g.count(1536), g.count(2048), g.count(96), g.count(12288),
                              g.count(51200)};
        },
        [](std::int64_t b, std::int64_t s, std::int64_t l, std::int64_t h, std::int64_t v) {
            return megatron_flops_per_iteration(b, s, l, h, v);
        });

    // model/flops.hpp
    add_enum_to_string<recompute>(r, "to_string(recompute)", 3);
    add_enum_to_string<pair_count>(r, "to_string(pair_count)", 2);
    add(r, "attention_pairs", "attention_pairs", "gpucalc::attention_pairs({0}, {1}, {2}, {3})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const std::int64_t keys = g.count(4096);
            const std::int64_t queries = g.coin() ? keys : g.count(1);
            return std::tuple{m, queries, keys, g.any_enum<pair_count>(2, "counted")};
        },
        [](const transformer& m, std::int64_t queries, std::int64_t keys, pair_count c) {
            return attention_pairs(m, queries, keys, c);
        });
    add(r, "forward_flops_per_token", "forward_flops_per_token",
        "gpucalc::forward_flops_per_token({0}, {1})",
        [](generator& g) { return std::tuple{draw::model(g), g.count(4096)}; },
        [](const transformer& m, std::int64_t context) {
            return forward_flops_per_token(m, context);
        });
    add(r, "training_flops_per_token", "training_flops_per_token",
        "gpucalc::training_flops_per_token({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::model(g), g.count(2048),
                              g.any_enum<recompute>(3, "policy")};
        },
        [](const transformer& m, std::int64_t sequence, recompute policy) {
            return training_flops_per_token(m, sequence, policy);
        });

    // model/lora.hpp
    add(r, "lora_parameter_count", "lora_parameter_count",
        "gpucalc::lora_parameter_count({0}, {1})",
        [](generator& g) {
            const transformer m = draw::model(g);
            return std::tuple{m, draw::adapter(g)};
        },
        [](const transformer& m, const lora_adapter& a) { return lora_parameter_count(m, a); });

    // parallelism.hpp
    add(r, "gpus_of(parallel_layout)", "gpus_of", "gpucalc::gpus_of({0})",
        [](generator& g) { return std::tuple{draw::training_layout(g, draw::model(g))}; },
        [](const parallel_layout& p) { return gpus_of(p); });
    add(r, "gpus_of(serving_setup)", "gpus_of", "gpucalc::gpus_of({0})",
        [](generator& g) { return std::tuple{draw::serving(g, draw::model(g))}; },
        [](const serving_setup& s) { return gpus_of(s); });
    add(r, "gpus_of(training_strategy)", "gpus_of", "gpucalc::gpus_of({0})",
        [](generator& g) { return std::tuple{draw::strategy(g, draw::model(g))}; },
        [](const training_strategy& s) { return gpus_of(s); });
    add(r, "zero_stage_of", "zero_stage_of", "gpucalc::zero_stage_of({0})",
        [](generator& g) {
            static constexpr fsdp strategies[] = {fsdp::no_shard, fsdp::shard_grad_op,
                                                  fsdp::full_shard};
            return std::tuple{g.keep_enum(g.one_of(strategies), "strategy")};
        },
        [](fsdp s) { return zero_stage_of(s); })
        .weight = 0.3;
    add(r, "tensor_parallel_allowed", "tensor_parallel_allowed",
        "gpucalc::tensor_parallel_allowed({0}, {1})",
        [](generator& g) { return std::tuple{draw::model(g), g.count(8)}; },
        [](const transformer& m, std::int64_t tp) { return tensor_parallel_allowed(m, tp); });

    // parallelism/costs.hpp
    const auto cost_args = [](generator& g) {
        const transformer m = draw::model(g);
        parallel_layout layout = draw::training_layout(g, m);
        if (!g.hostile()) layout.context_parallel = 1;
        return std::tuple{m, layout, draw::pass(g), draw::cost_formats(g)};
    };
    add(r, "layer_cost_of", "layer_cost_of", "gpucalc::layer_cost_of({0}, {1}, {2}, {3})",
        cost_args,
        [](const transformer& m, const parallel_layout& p, const pass_shape& s,
           const cost_formats& f) { return layer_cost_of(m, p, s, f); });
    add(r, "layer_cost_of [checked_model]", "layer_cost_of",
        "gpucalc::layer_cost_of(gpucalc::check({0}), {1}, {2}, {3})", cost_args,
        [](const transformer& m, const parallel_layout& p, const pass_shape& s,
           const cost_formats& f) { return layer_cost_of(checked(m), p, s, f); });
    add(r, "layers_on_stage", "layers_on_stage", "gpucalc::layers_on_stage({0}, {1}, {2})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const std::int64_t pipeline = g.count(4);
            return std::tuple{m, pipeline,
                              g.keep(static_cast<std::int64_t>(g.r.below(
                                  static_cast<std::uint64_t>(pipeline > 0 ? pipeline : 1))))};
        },
        [](const transformer& m, std::int64_t pipeline, std::int64_t stage) {
            return layers_on_stage(m, pipeline, stage);
        });
    const auto stage_args = [](generator& g) {
        const transformer m = draw::model(g);
        parallel_layout layout = draw::training_layout(g, m);
        if (!g.hostile()) layout.context_parallel = 1;
        const std::int64_t stage = g.keep(static_cast<std::int64_t>(
            g.r.below(static_cast<std::uint64_t>(layout.pipeline > 0 ? layout.pipeline : 1))));
        return std::tuple{m, layout, draw::pass(g), stage, draw::cost_formats(g)};
    };
    add(r, "stage_cost_of", "stage_cost_of", "gpucalc::stage_cost_of({0}, {1}, {2}, {3}, {4})",
        stage_args,
        [](const transformer& m, const parallel_layout& p, const pass_shape& s,
           std::int64_t stage, const cost_formats& f) { return stage_cost_of(m, p, s, stage, f); });
    add(r, "stage_cost_of [checked_model]", "stage_cost_of",
        "gpucalc::stage_cost_of(gpucalc::check({0}), {1}, {2}, {3}, {4})", stage_args,
        [](const transformer& m, const parallel_layout& p, const pass_shape& s,
           std::int64_t stage, const cost_formats& f) {
            return stage_cost_of(checked(m), p, s, stage, f);
        });
}

}  // namespace fuzz
