// cost/run.hpp: what a training run or a served model costs, from a duration or a throughput:
// any estimate (roofline.hpp's quick ones, or a composed multi-GPU one) can be priced. This
// module never estimates a duration itself; the conveniences below call roofline.hpp for one.
#pragma once

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../roofline.hpp"
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

/// A training run that takes `time` on the GPUs of `layout`, at `price` per GPU-hour.
constexpr training_cost_estimate training_cost(duration time, const parallel_layout& layout,
                                               gpu_price price) {
    constexpr const char* function = "training_cost";
    detail::require_positive(function, "time", time);
    detail::require_count(function, "gpus_of(layout)", gpus_of(layout));
    training_cost_estimate e{};
    e.time = time;
    e.usage = make<gpus>(static_cast<double>(gpus_of(layout))) * time;
    e.cost = job_cost(e.usage, price);
    return e;
}

/// The same with the time from roofline.hpp's quick estimate, time_to_train at an assumed MFU.
constexpr training_cost_estimate training_cost(const transformer& m, const gpu_spec& gpu,
                                               token_count tokens, const training_job& job,
                                               const parallel_layout& layout, gpu_price price,
                                               const mfu_assumption& assumption = {}) {
    detail::require_non_negative("training_cost", "price", price);
    return training_cost(time_to_train(m, gpu, tokens, job, layout, assumption), layout, price);
}

/// Serving cost per output token (shown per million) for one replica decoding `setup`
/// (roofline.hpp's decode: the aggregate tokens/s of the batch), on its tensor × pipeline GPUs
/// at `price`. For another estimate of the throughput, call cost_per_million_tokens with it.
constexpr token_price serving_cost_per_million_tokens(const transformer& m, const gpu_spec& gpu,
                                                const serving_setup& setup, gpu_price price) {
    const decode_estimate d = decode(m, gpu, setup);
    return cost_per_million_tokens(price, make<gpus>(static_cast<double>(gpus_of(setup))),
                                   d.aggregate_rate);
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
constexpr token_price serving_cost_per_million_tokens(const transformer&, const gpu_spec&,
                                                      const serving_setup&, const Price&) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("serving_cost_per_million_tokens", "price");
    return token_price{};
}

}  // namespace gpucalc
