// cost/run.hpp: what a training run or a served model costs, from a duration or a throughput:
// any estimate (roofline.hpp's quick ones, or scaling/step.hpp's composed step) can be priced.
// This module never estimates a duration itself; the conveniences below take one from
// roofline.hpp (an assumed MFU) or from a training_step the caller computed.
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../roofline.hpp"
#include "../scaling/step.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "prices.hpp"

namespace gpucalc {

/// A training run's wall time, its GPU-hours and its cost.
struct training_cost_estimate {
    duration time{};
    gpu_time usage{};
    money cost{};
};

namespace detail {
/// A run of `time` on `gpus` GPUs at `price`. The time may be an estimate longer than any input
/// duration, so the usage and the cost are formed here without job_cost's input checks.
constexpr training_cost_estimate priced_run(duration time, std::int64_t gpus, gpu_price price) {
    training_cost_estimate e{};
    e.time = time;
    e.usage = make<gpucalc::gpus>(static_cast<double>(gpus)) * time;
    e.cost = e.usage * price;
    return e;
}
}  // namespace detail

/// A training run that takes `time` on the GPUs of `layout`, at `price` per GPU-hour. Ranges:
/// time in [1e-30 s, 1e6 years]; the layout's tensor, pipeline, context_parallel and data
/// degrees in [1, 2^40], their product at most 2^40 (the other members are not read); price 0
/// or in [1e-30, $1e9/GPU·h] in base units.
constexpr training_cost_estimate training_cost(duration time, const parallel_layout& layout,
                                               gpu_price price) {
    constexpr const char* function = "training_cost";
    detail::require_positive(function, "time", time);
    // A layout passed on its own is named "layout." (parallelism.hpp).
    const std::int64_t gpus = detail::checked_gpus(layout, {function, "layout."});
    detail::require_non_negative(function, "price", price);
    return detail::priced_run(time, gpus, price);
}

/// The same with the time from roofline.hpp's quick estimate, time_to_train_at_mfu
/// (default_training_mfu): a quick estimate, with communication, the pipeline bubble and the
/// kernels' efficiency all folded into that one figure. For a prediction from the layout's
/// compute and collectives, price a composed step: training_cost(step, tokens, price) below.
/// Ranges: price as above; the rest as time_to_train_at_mfu states (errors name training_cost).
constexpr training_cost_estimate training_cost(const transformer& m, const gpu_spec& gpu,
                                               token_count tokens, const training_job& job,
                                               const parallel_layout& layout, gpu_price price,
                                               const mfu_assumption& assumption = {}) {
    constexpr const char* function = "training_cost";
    detail::require_non_negative(function, "price", price);
    detail::require_positive(function, "tokens", tokens);
    const duration time = detail::time_for_tokens(m, gpu, in<gpucalc::tokens>(tokens), job, layout,
                                                  assumption, function);
    return detail::priced_run(time, detail::gpus_unchecked(layout), price);
}

/// A training run of `tokens` at the pace of a composed step (scaling/step.hpp's
/// training_step_time, communication and bubble included): time = tokens ÷
/// step.tokens_per_second, as time_to_train(step, tokens), on step.gpus GPUs at `price` per
/// GPU-hour, so cost = tokens ÷ tokens/s × GPUs × price (derived). Ranges: price 0 or in
/// [1e-30, $1e9/GPU·h] in base units; tokens in [1e-30, 1e20]; the step as training_step_time
/// returns it: step.tokens_per_second > 0 and step.gpus in [1, 2^40] (the other members are
/// not read; errors name training_cost).
constexpr training_cost_estimate training_cost(const training_step& step, token_count tokens,
                                               gpu_price price) {
    constexpr const char* function = "training_cost";
    detail::require_non_negative(function, "price", price);
    detail::require_positive(function, "tokens", tokens);
    detail::require_positive(function, "step.tokens_per_second", step.tokens_per_second);
    detail::require_count(function, "step.gpus", step.gpus);
    return detail::priced_run(tokens / step.tokens_per_second, step.gpus, price);
}

/// Serving cost per output token (shown per million) for one replica decoding `setup`
/// (roofline.hpp's decode: the aggregate tokens/s of the batch), on its tensor × pipeline GPUs
/// at `price`. For another estimate of the throughput, call cost_per_million_tokens with it.
/// Ranges: price 0 or in [1e-30, $1e9/GPU·h] in base units; the rest as decode states (errors
/// name serving_cost_per_million_tokens).
constexpr token_price serving_cost_per_million_tokens(const transformer& m, const gpu_spec& gpu,
                                                const serving_setup& setup, gpu_price price) {
    constexpr const char* function = "serving_cost_per_million_tokens";
    detail::require_non_negative(function, "price", price);
    const decode_estimate d = detail::decode_step(check(m, function), gpu, setup, false, function);
    // The decode answer is finite and positive, but may lie outside the token rates an input
    // may have, so cost_per_million_tokens' checks are not run on it.
    return price * make<gpus>(static_cast<double>(detail::gpus_unchecked(setup.parallel))) /
           d.aggregate_rate;
}

// A $/h instance price where these take a $/GPU·h price: a sentence instead of "no matching
// function" (see prices.hpp).
template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr training_cost_estimate training_cost(duration, const parallel_layout&, const Price&) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("training_cost", "price");
    return training_cost_estimate{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr training_cost_estimate training_cost(const transformer&, const gpu_spec&, token_count,
                                               const training_job&, const parallel_layout&,
                                               const Price&, const mfu_assumption& = {}) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("training_cost", "price");
    return training_cost_estimate{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr training_cost_estimate training_cost(const training_step&, token_count, const Price&) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("training_cost", "price");
    return training_cost_estimate{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr token_price serving_cost_per_million_tokens(const transformer&, const gpu_spec&,
                                                      const serving_setup&, const Price&) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("serving_cost_per_million_tokens", "price");
    return token_price{};
}

}  // namespace gpucalc
