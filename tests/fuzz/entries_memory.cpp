// entries_memory.cpp: the fuzz table's entries for memory.hpp: footprints, fits, and the
// searches for the fewest GPUs and the largest batch, context and micro-batch.
#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {

void register_memory(registry& r) {
    using namespace gpucalc;
    namespace cat = gpucalc::catalog;

    // memory/inference.hpp
    add(r, "kv_cache_bytes_per_token", "kv_cache_bytes_per_token",
        "gpucalc::kv_cache_bytes_per_token({0}, {1})",
        [](generator& g) { return std::tuple{draw::model(g), draw::storage(g, "kv")}; },
        [](const transformer& m, const storage_format& kv) {
            return kv_cache_bytes_per_token(m, kv);
        });
    const auto serving_args = [](generator& g) {
        const transformer m = draw::model(g);
        return std::tuple{m, draw::serving(g, m)};
    };
    add(r, "inference_memory_per_gpu", "inference_memory_per_gpu",
        "gpucalc::inference_memory_per_gpu({0}, {1})", serving_args,
        [](const transformer& m, const serving_setup& s) {
            return inference_memory_per_gpu(m, s);
        });
    add(r, "inference_memory_per_gpu [checked_model]", "inference_memory_per_gpu",
        "gpucalc::inference_memory_per_gpu(gpucalc::check({0}), {1})", serving_args,
        [](const transformer& m, const serving_setup& s) {
            return inference_memory_per_gpu(checked(m), s);
        });

    // memory/training.hpp
    add(r, "to_string(optimizer)", "to_string", "gpucalc::to_string({0})",
        [](generator& g) { return std::tuple{g.any_enum<optimizer>(4, "value")}; },
        [](optimizer o) { return to_string(o); })
        .weight = 0.3;
    add(r, "optimizer_state_bytes", "optimizer_state_bytes", "gpucalc::optimizer_state_bytes({0})",
        [](generator& g) { return std::tuple{g.any_enum<optimizer>(4, "o")}; },
        [](optimizer o) { return optimizer_state_bytes(o); })
        .weight = 0.3;
    const auto training_args = [](generator& g) {
        const transformer m = draw::model(g);
        const training_strategy s = draw::strategy(g, m);
        return std::tuple{m, draw::job(g, s), s};
    };
    add(r, "activation_bytes_per_layer", "activation_bytes_per_layer",
        "gpucalc::activation_bytes_per_layer({0}, {1}, {2})", training_args,
        [](const transformer& m, const training_job& j, const training_strategy& s) {
            return activation_bytes_per_layer(m, j, s);
        });
    add(r, "model_states_per_gpu", "model_states_per_gpu",
        "gpucalc::model_states_per_gpu({0}, {1}, {2})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::strategy(g, m);
            return std::tuple{g.real(7e9), draw::job(g, s), s.parallel};
        },
        [](double parameters, const training_job& j, const parallel_layout& p) {
            return model_states_per_gpu(parameters, j, p);
        });
    add(r, "training_memory_per_gpu", "training_memory_per_gpu",
        "gpucalc::training_memory_per_gpu({0}, {1}, {2})", training_args,
        [](const transformer& m, const training_job& j, const training_strategy& s) {
            return training_memory_per_gpu(m, j, s);
        });
    add(r, "training_memory_per_gpu [checked_model]", "training_memory_per_gpu",
        "gpucalc::training_memory_per_gpu(gpucalc::check({0}), {1}, {2})", training_args,
        [](const transformer& m, const training_job& j, const training_strategy& s) {
            return training_memory_per_gpu(checked(m), j, s);
        });

    // memory/fit.hpp
    add(r, "fits(data_size)", "fits", "gpucalc::fits({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.q_or_zero<data_size>(typical::memory),
                              g.q<data_size>(typical::memory), g.unit_interval(0.1)};
        },
        [](const data_size& required, const data_size& capacity, double headroom) {
            return fits(required, capacity, headroom);
        });
    add(r, "fits(inference_memory)", "fits",
        "gpucalc::fits(gpucalc::inference_memory_per_gpu({0}, {1}), {2}, {3})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const serving_setup s = draw::serving(g, m);
            return std::tuple{m, s, draw::gpu(g), g.unit_interval(0.1)};
        },
        [](const transformer& m, const serving_setup& s, const gpu_spec& gpu, double headroom) {
            const inference_memory need = setup([&] { return inference_memory_per_gpu(m, s); });
            return fits(need, gpu, headroom);
        });
    add(r, "fits(training_memory)", "fits",
        "gpucalc::fits(gpucalc::training_memory_per_gpu({0}, {1}, {2}), {3}, {4})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::strategy(g, m);
            return std::tuple{m, draw::job(g, s), s, draw::gpu(g), g.unit_interval(0.1)};
        },
        [](const transformer& m, const training_job& j, const training_strategy& s,
           const gpu_spec& gpu, double headroom) {
            const training_memory need = setup([&] { return training_memory_per_gpu(m, j, s); });
            return fits(need, gpu, headroom);
        });
    add(r, "to_string(fit_outcome)", "to_string", "gpucalc::to_string({0})",
        [](generator& g) { return std::tuple{g.any_enum<fit_outcome>(3, "value")}; },
        [](fit_outcome o) { return to_string(o); })
        .weight = 0.3;

    // A regression input (issue 13): a model check() accepts, with 2^40 heads, on a GPU it never
    // fits: the search must not try every TP degree up to 2^40.
    const auto inference_search_args = [](generator& g) {
        if (g.pinned == 0) {
            transformer m = draw::tiny_model();
            m.heads = std::int64_t{1} << 40;
            m.kv_heads = 1;
            m.head_dim = 1;
            gpu_spec gpu = cat::h100_sxm;
            gpu.memory = make<bytes>(1.0);
            return std::tuple{m, serving_setup{}, gpu, 0.0, std::int64_t{1} << 40};
        }
        const transformer m = draw::model(g);
        const serving_setup s = draw::serving(g, m);
        return std::tuple{m, s, draw::gpu(g), g.unit_interval(0.1), g.count(64)};
    };
    add(r, "min_gpus_for_inference", "min_gpus_for_inference",
        "gpucalc::min_gpus_for_inference({0}, {1}, {2}, {3}, {4})", inference_search_args,
        [](const transformer& m, const serving_setup& s, const gpu_spec& gpu, double headroom,
           std::int64_t max_tp) { return min_gpus_for_inference(m, s, gpu, headroom, max_tp); },
        1);
    add(r, "min_gpus_for_inference [checked_model]", "min_gpus_for_inference",
        "gpucalc::min_gpus_for_inference(gpucalc::check({0}), {1}, {2}, {3}, {4})",
        inference_search_args,
        [](const transformer& m, const serving_setup& s, const gpu_spec& gpu, double headroom,
           std::int64_t max_tp) {
            return min_gpus_for_inference(checked(m), s, gpu, headroom, max_tp);
        },
        1);

    const auto training_search_args = [](generator& g) {
        const transformer m = draw::model(g);
        const training_strategy s = draw::strategy(g, m);
        return std::tuple{m, draw::job(g, s), s, draw::gpu(g), g.unit_interval(0.1),
                          g.count(std::int64_t{1} << 16)};
    };
    add(r, "min_gpus_for_training", "min_gpus_for_training",
        "gpucalc::min_gpus_for_training({0}, {1}, {2}, {3}, {4}, {5})", training_search_args,
        [](const transformer& m, const training_job& j, const training_strategy& s,
           const gpu_spec& gpu, double headroom, std::int64_t max_dp) {
            return min_gpus_for_training(m, j, s, gpu, headroom, max_dp);
        });
    add(r, "min_gpus_for_training [checked_model]", "min_gpus_for_training",
        "gpucalc::min_gpus_for_training(gpucalc::check({0}), {1}, {2}, {3}, {4}, {5})",
        training_search_args,
        [](const transformer& m, const training_job& j, const training_strategy& s,
           const gpu_spec& gpu, double headroom, std::int64_t max_dp) {
            return min_gpus_for_training(checked(m), j, s, gpu, headroom, max_dp);
        });

    // The searches' regression inputs (issue 9): a 128k context used to trip the 2^53 guard
    // with the search's own probe. Each must be answered, not rejected.
    const auto batch_search_args = [](generator& g) {
        if (g.pinned == 0) {
            serving_setup s{};
            s.context = 131072;
            return std::tuple{cat::llama_3_8b, s, cat::h100_sxm, 0.0, std::int64_t{1} << 20};
        }
        const transformer m = draw::model(g);
        const serving_setup s = draw::serving(g, m);
        return std::tuple{m, s, draw::gpu(g), g.unit_interval(0.1), g.count(std::int64_t{1} << 20)};
    };
    add(r, "max_batch_for_inference", "max_batch_for_inference",
        "gpucalc::max_batch_for_inference({0}, {1}, {2}, {3}, {4})", batch_search_args,
        [](const transformer& m, const serving_setup& s, const gpu_spec& gpu, double headroom,
           std::int64_t limit) { return max_batch_for_inference(m, s, gpu, headroom, limit); },
        1)
        .pins_answered = true;
    add(r, "max_batch_for_inference [checked_model]", "max_batch_for_inference",
        "gpucalc::max_batch_for_inference(gpucalc::check({0}), {1}, {2}, {3}, {4})",
        batch_search_args,
        [](const transformer& m, const serving_setup& s, const gpu_spec& gpu, double headroom,
           std::int64_t limit) {
            return max_batch_for_inference(checked(m), s, gpu, headroom, limit);
        },
        1)
        .pins_answered = true;
    const auto context_search_args = [](generator& g) {
        if (g.pinned == 0) {
            serving_setup s{};
            s.context = 131072;
            s.weights = formats::fp8_e4m3;
            s.parallel.tensor = 8;
            return std::tuple{cat::llama_3_1_405b, s, cat::h100_sxm, 0.0, std::int64_t{1} << 40};
        }
        const transformer m = draw::model(g);
        const serving_setup s = draw::serving(g, m);
        return std::tuple{m, s, draw::gpu(g), g.unit_interval(0.1),
                          g.coin() ? std::int64_t{0} : g.count(std::int64_t{1} << 20)};
    };
    add(r, "max_context_for_inference", "max_context_for_inference",
        "gpucalc::max_context_for_inference({0}, {1}, {2}, {3}, {4})", context_search_args,
        [](const transformer& m, const serving_setup& s, const gpu_spec& gpu, double headroom,
           std::int64_t limit) { return max_context_for_inference(m, s, gpu, headroom, limit); },
        1)
        .pins_answered = true;
    add(r, "max_context_for_inference [checked_model]", "max_context_for_inference",
        "gpucalc::max_context_for_inference(gpucalc::check({0}), {1}, {2}, {3}, {4})",
        context_search_args,
        [](const transformer& m, const serving_setup& s, const gpu_spec& gpu, double headroom,
           std::int64_t limit) {
            return max_context_for_inference(checked(m), s, gpu, headroom, limit);
        },
        1)
        .pins_answered = true;
    add(r, "max_micro_batch_for_training", "max_micro_batch_for_training",
        "gpucalc::max_micro_batch_for_training({0}, {1}, {2}, {3}, {4}, {5})",
        training_search_args,
        [](const transformer& m, const training_job& j, const training_strategy& s,
           const gpu_spec& gpu, double headroom, std::int64_t limit) {
            return max_micro_batch_for_training(m, j, s, gpu, headroom, limit);
        });
    add(r, "max_micro_batch_for_training [checked_model]", "max_micro_batch_for_training",
        "gpucalc::max_micro_batch_for_training(gpucalc::check({0}), {1}, {2}, {3}, {4}, {5})",
        training_search_args,
        [](const transformer& m, const training_job& j, const training_strategy& s,
           const gpu_spec& gpu, double headroom, std::int64_t limit) {
            return max_micro_batch_for_training(checked(m), j, s, gpu, headroom, limit);
        });
    add(r, "smallest_mig_profile", "smallest_mig_profile",
        "gpucalc::smallest_mig_profile({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::gpu(g), g.q_or_zero<data_size>(20e9), g.unit_interval(0.1)};
        },
        [](const gpu_spec& gpu, const data_size& required, double headroom) {
            return mig_choice{smallest_mig_profile(gpu, required, headroom), &gpu};
        });
}

}  // namespace fuzz
