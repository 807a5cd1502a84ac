// cost/run.hpp: what a training run or a served model costs, with its duration or throughput
// taken from roofline.hpp (this module never estimates a duration itself)
#pragma once

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../model.hpp"
#include "../roofline.hpp"
#include "../units.hpp"
#include "prices.hpp"

namespace gpucalc {

/// A training run's wall time (roofline.hpp's time_to_train), its GPU-hours and its cost.
struct training_cost_estimate {
    duration time{};
    gpu_time usage{};
    money cost{};
};

constexpr training_cost_estimate training_cost(const transformer& m, const gpu_spec& gpu,
                                               double tokens, const training_run& run,
                                               gpu_price price) {
    detail::require_non_negative("training_cost", "price", price);
    training_cost_estimate e{};
    e.time = time_to_train(m, gpu, tokens, run);
    e.usage = make<gpus>(static_cast<double>(run.gpus)) * e.time;
    e.cost = job_cost(e.usage, price);
    return e;
}

/// Serving cost per million output tokens for one replica decoding at `setup` (roofline.hpp's
/// decode: aggregate tokens/s of the batch), on `setup.tensor_parallel` GPUs at `price`.
constexpr money serving_cost_per_million_tokens(const transformer& m, const gpu_spec& gpu,
                                                const decode_setup& setup, gpu_price price) {
    const decode_estimate d = decode(m, gpu, setup);
    return cost_per_million_tokens(price, make<gpus>(static_cast<double>(setup.tensor_parallel)),
                                   d.aggregate_tokens_per_second);
}

}  // namespace gpucalc
