// cost/prices.hpp: what GPU time costs: per-GPU and per-instance prices, job cost, reserved
// and flex-start pricing, platform premiums, egress, and the cheapest region for a job
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "../detail/checks.hpp"
#include "../units.hpp"

namespace gpucalc {

// Prices are inputs, never defaults inside a function (catalog/prices.hpp holds dated
// examples). A per-GPU price is a gpu_price ($/GPU·h); an instance's price is a cost_rate ($/h)
// for all its GPUs. The two are different types, so mixing them does not compile.
//
// Ranges: every quantity lies in its dimension's range (docs/units.md, "Input ranges": a price
// is 0 or in [1e-30, $1e9/GPU·h] in base units, a duration in [1e-30 s, 1e6 years], ...);
// each function's comment states what is narrower or what is not a quantity.
//
// What one function returns, the next accepts: a function whose answer is itself an input of
// others (a price here; an ownership, a checkpoint interval, an energy, a rack's power in the
// other cost headers) returns it inside that input's range, or refuses the input that would
// leave it, as invalid_input naming the expression of the caller's fields it came from
// ("discounted: (1 - discount) * list = 8.4e-31 USD/(GPU*s) must be 0 or at least 1e-30
// USD/(GPU*s)"). Within each function's own ranges that happens only at their far ends.

namespace detail {

/// A quantity's value for an error message, in its display unit, as exactly as it was given.
template <class Quantity>
GPUCALC_DETAIL_COLD std::string value_text(const Quantity& q) {
    format_options options;
    options.significant_figures = 15;
    return to_string(q, options);
}

/// "array[i].member", the path to a field of one element of an array the caller passed.
GPUCALC_DETAIL_COLD inline std::string indexed_field(const char* array, std::size_t i,
                                                     const char* member) {
    return std::string(array) + "[" + std::to_string(i) + "]." + member;
}

/// require_non_negative for a member of element `i` of an array, naming it "array[i].member".
template <class Quantity>
constexpr void require_non_negative_at(const char* function, const char* array, std::size_t i,
                                       const char* member, const Quantity& q) {
    if (!((q.value() >= smallest_input && q.value() <= input_range<Quantity>::largest) ||
          exactly_equal(q.value(), 0.0))) {
        require_non_negative(function, indexed_field(array, i, member).c_str(), q);
    }
}

/// require_positive for a member of element `i` of an array, naming it "array[i].member".
template <class Quantity>
constexpr void require_positive_at(const char* function, const char* array, std::size_t i,
                                   const char* member, const Quantity& q) {
    if (!(q.value() >= smallest_input && q.value() <= input_range<Quantity>::largest)) {
        require_positive(function, indexed_field(array, i, member).c_str(), q);
    }
}

/// A utilization: the fraction of the hours a GPU does work, in (0, 1], and at least 1e-30, as
/// a positive input quantity is, so that a price per used hour (divided by it) stays finite.
constexpr void require_utilization(const char* function, const char* field, double value) {
    if (!(value >= smallest_input && value <= 1.0)) {
        throw_invalid(function, field, value, "",
                      value > 0.0 && value < smallest_input ? "must be at least 1e-30"
                                                            : "must be in (0, 1]");
    }
}

/// The largest plain ratio a cost input may be (a premium, a network share, a yearly
/// maintenance fraction, a cost of capital, a PUE): far past any real one, and small enough
/// that a product with a few other inputs stays finite.
inline constexpr double largest_ratio = 1e6;

/// A ratio in [lowest, 1e6]: "must be finite and >= lowest" below, "must be at most 1e6" above.
constexpr void require_ratio(const char* function, const char* field, double value,
                             double lowest = 0.0) {
    if (!(value >= lowest && value <= largest_ratio)) {
        throw_invalid(function, field, value, "",
                      value > largest_ratio ? "must be at most 1e6" : "must be finite and >= ",
                      lowest, value > largest_ratio ? nullptr : "");
    }
}

}  // namespace detail

/// The per-GPU price of an instance: its hourly price over its GPUs (an 8 × H100 instance at
/// $98.32/h is $12.29/GPU·h). Ranges: instance 0 or in its range, gpus positive, and the answer,
/// instance ÷ gpus, 0 or in [1e-30, $1e9/GPU·h] in base units, as every price input is.
constexpr gpu_price per_gpu(cost_rate instance, gpu_count gpus) {
    detail::require_non_negative("per_gpu", "instance", instance);
    detail::require_positive("per_gpu", "gpus", gpus);
    const gpu_price price = instance / gpus;
    detail::require_non_negative("per_gpu", "instance / gpus", price);  // a price, passed on
    return price;
}

/// What `usage` GPU-hours cost at `price` per GPU-hour.
constexpr money job_cost(gpu_time usage, gpu_price price) {
    detail::require_non_negative("job_cost", "usage", usage);
    detail::require_non_negative("job_cost", "price", price);
    return usage * price;
}

/// What `gpus` GPUs held for `held` cost at `price` (billing runs for every hour they are held,
/// used or idle).
constexpr money job_cost(gpu_count gpus, duration held, gpu_price price) {
    detail::require_non_negative("job_cost", "gpus", gpus);
    detail::require_non_negative("job_cost", "held", held);
    detail::require_non_negative("job_cost", "price", price);
    // 2^40 GPUs for 1e6 years is inside the largest GPU time, so the product is a usage
    // job_cost(usage, price) would take; it is priced here so that no check names `usage`.
    return (gpus * held) * price;
}

namespace detail {
/// Rejects a discount outside [0, 1).
constexpr void require_discount(const char* function, const char* field, double discount) {
    if (!(discount >= 0.0 && discount < 1.0)) {
        throw_invalid(function, field, discount, "", "must be in [0, 1)");
    }
}
}  // namespace detail

/// The price after a discount (spot, committed use, a negotiated rate). The discount is in
/// [0, 1): 0 is the list price; 1 would make it free. The answer, (1 − discount) × list, must
/// be 0 or at least 1e-30 in base units, as every price input is (a list price near that floor
/// with a discount can fall below it).
constexpr gpu_price discounted(gpu_price list, double discount) {
    detail::require_non_negative("discounted", "list", list);
    detail::require_discount("discounted", "discount", discount);
    const gpu_price price = (1.0 - discount) * list;
    detail::require_non_negative("discounted", "(1 - discount) * list", price);  // passed on
    return price;
}

/// A reserved or committed-use contract: a term paid whether used or not, an upfront payment,
/// and an hourly rate at a discount to on-demand (AWS Savings Plans and Reserved Instances,
/// Google committed use, Azure reservations all reduce to this).
struct reservation {
    duration term = make<years>(1.0);
    money upfront{};                  ///< per GPU, paid at the start
    gpu_price on_demand{};            ///< the list price the discount applies to
    double discount = 0.0;            ///< on the hourly rate, in [0, 1)
};

/// The effective price per GPU-hour actually used, at `utilization` (the fraction of the term's
/// hours the GPU does work, in [1e-30, 1]): (upfront spread over the term + the discounted
/// rate) ÷ utilization (derived: a committed GPU bills every hour of the term). Ranges: term
/// positive, upfront and on_demand 0 or positive, each in its dimension's range; discount in
/// [0, 1); and the answer 0 or in [1e-30, $1e9/GPU·h] in base units, as every price input is.
constexpr gpu_price reserved_price(const reservation& r, double utilization) {
    constexpr const char* function = "reserved_price";
    detail::require_positive(function, "term", r.term);
    detail::require_non_negative(function, "upfront", r.upfront);
    detail::require_non_negative(function, "on_demand", r.on_demand);
    detail::require_discount(function, "discount", r.discount);
    detail::require_utilization(function, "utilization", utilization);
    const gpu_price upfront_per_hour = r.upfront / (make<gpus>(1.0) * r.term);
    const gpu_price price = (upfront_per_hour + (1.0 - r.discount) * r.on_demand) / utilization;
    detail::require_non_negative(  // a price, passed on
        function, "(upfront / term + (1 - discount) * on_demand) / utilization", price);
    return price;
}

/// Flex-start / queued capacity: a discount for accepting a start delay. The saving, and the
/// most a delay may cost per hour before on-demand is the better deal.
struct flex_start_offer {
    gpu_price on_demand{};
    double discount = 0.0;        ///< in [0, 1)
    duration expected_delay{};
};

struct flex_start_verdict {
    money saving{};                      ///< on the whole job
    /// saving ÷ expected delay: flex-start pays while an hour of delay costs less than this.
    /// Meaningful only when `delayed` (0 otherwise): an offer with no expected delay always pays.
    cost_rate breakeven_delay_cost{};
    bool delayed = false;
};

/// Ranges: offer.discount in [0, 1); the quantities in their dimensions' ranges, usage and the
/// expected delay possibly 0.
constexpr flex_start_verdict flex_start(const flex_start_offer& offer, gpu_time usage) {
    constexpr const char* function = "flex_start";
    detail::require_non_negative(function, "on_demand", offer.on_demand);
    detail::require_discount(function, "discount", offer.discount);
    detail::require_non_negative(function, "expected_delay", offer.expected_delay);
    detail::require_non_negative(function, "usage", usage);
    flex_start_verdict v{};
    v.saving = offer.discount * offer.on_demand * usage;
    v.delayed = offer.expected_delay > duration{};
    if (v.delayed) v.breakeven_delay_cost = v.saving / offer.expected_delay;
    return v;
}

/// A managed ML platform's price: the raw price plus a premium fraction (a practitioners' rule
/// of thumb puts it at 20–40%; compare the platform's price page with the raw instance's).
/// Ranges: premium in [0, 1e6]; the answer, (1 + premium) × raw, at most $1e9/GPU·h, as every
/// price input is.
constexpr gpu_price with_premium(gpu_price raw, double premium) {
    detail::require_non_negative("with_premium", "raw", raw);
    detail::require_ratio("with_premium", "premium", premium);
    const gpu_price price = (1.0 + premium) * raw;
    detail::require_non_negative("with_premium", "(1 + premium) * raw", price);  // passed on
    return price;
}

/// What moving `data` out of a cloud costs at `rate` per byte (e.g. $0.09/GB).
constexpr money egress_cost(data_size data, data_price rate) {
    detail::require_non_negative("egress_cost", "data", data);
    detail::require_non_negative("egress_cost", "rate", rate);
    return data * rate;
}

/// One region's prices for a job that must first move its data there.
struct region_price {
    std::string_view name{};
    gpu_price gpu{};
    data_price transfer_in{};  ///< to bring the job's data into this region (0 where it lives)
};

/// The cheapest region for `usage` GPU-hours with `data` to move: GPU cost plus transfer.
struct region_choice {
    std::size_t index = 0;
    money total{};
};

/// Ranges: every price, the usage and the data 0 or in their dimensions' ranges; an error names
/// the region by its index ("regions[1].gpu").
template <std::size_t N>
constexpr region_choice cheapest_region(const region_price (&regions)[N], gpu_time usage,
                                        data_size data) {
    static_assert(N > 0, "gpucalc::cheapest_region needs at least one region");
    constexpr const char* function = "cheapest_region";
    detail::require_non_negative(function, "usage", usage);
    detail::require_non_negative(function, "data", data);
    region_choice best{};
    for (std::size_t i = 0; i < N; ++i) {
        detail::require_non_negative_at(function, "regions", i, "gpu", regions[i].gpu);
        detail::require_non_negative_at(function, "regions", i, "transfer_in",
                                        regions[i].transfer_in);
        const money total = usage * regions[i].gpu + data * regions[i].transfer_in;
        if (i == 0 || total < best.total) best = {i, total};
    }
    return best;
}

/// Serving cost per token, shown per million: a price per GPU-hour over the tokens those GPUs
/// produce together. `throughput` is their aggregate rate; a per-stream decode speed
/// (decode_estimate::stream_rate) has another dimension and does not compile here. Ranges:
/// price 0 or in [1e-30, $1e9/GPU·h] in base units; gpus in [1e-30, 2^40]; throughput in
/// [1e-30, 1e20] tokens/s; the answer is then finite.
constexpr token_price cost_per_million_tokens(gpu_price price, gpu_count gpus,
                                              token_rate throughput) {
    detail::require_non_negative("cost_per_million_tokens", "price", price);
    detail::require_positive("cost_per_million_tokens", "gpus", gpus);
    detail::require_positive("cost_per_million_tokens", "throughput", throughput);
    return price * gpus / throughput;
}

/// The cost of leaving `gpus` GPUs up and idle for `idle` before auto-shutdown catches them.
constexpr money idle_cost(gpu_count gpus, duration idle, gpu_price price) {
    detail::require_non_negative("idle_cost", "gpus", gpus);
    detail::require_non_negative("idle_cost", "idle", idle);
    detail::require_non_negative("idle_cost", "price", price);
    return (gpus * idle) * price;
}

// ---------------------------------------------------------------------------------------------
// Readable errors for a price of the wrong kind. Passing an instance's $/h (cost_rate) where a
// $/GPU·h price (gpu_price) is expected would fail as "no matching function for call to
// job_cost"; these overloads are viable only for that one mistake (a cost_rate, exactly), so
// correct calls never reach them, and they turn it into a sentence that says what to do. The
// assertion tests the enabling parameter (`misuse`, always 0) rather than a trait of Price, so
// that Clang's first line reads "requirement '0 != 0'" instead of spelling out the quantity.
// ---------------------------------------------------------------------------------------------
namespace detail {
// Named traits, so that a candidate list shows "is_instance_price<Price>" rather than the
// quantity type spelled out.
template <class Price>
struct is_instance_price : std::is_same<Price, cost_rate> {};
template <class Price>
struct is_gpu_price : std::is_same<Price, gpu_price> {};
/// Enabled only for an instance price ($/h), where a per-GPU price is expected.
template <class Price>
using if_instance_price = std::enable_if_t<is_instance_price<Price>::value, int>;
/// Enabled only for a per-GPU price ($/GPU·h), where an instance price is expected.
template <class Price>
using if_gpu_price = std::enable_if_t<is_gpu_price<Price>::value, int>;
}  // namespace detail

/// The one sentence for a $/h price given to `function` where its `what` ("price", "cloud
/// price") must be $/GPU·h, asserted on the overload's enabling parameter. ASCII only: Clang 14
/// prints other bytes as octal escapes. cost/run.hpp and cost/tco.hpp use it too.
#define GPUCALC_DETAIL_REJECT_INSTANCE_PRICE(function, what)                                       \
    static_assert(misuse != 0, "gpucalc::" function ": the " what                                  \
                  " is per instance-hour ($/h), not per GPU-hour; divide it by the instance's "    \
                  "GPUs with per_gpu(price, gpus) for a $/GPU-h price")

template <class Price, detail::if_gpu_price<Price> misuse = 0>
constexpr gpu_price per_gpu(const Price&, gpu_count) {
    static_assert(misuse != 0,
                  "gpucalc::per_gpu: the price is already per GPU-hour ($/GPU-h); per_gpu divides "
                  "an instance's $/h price by its GPUs");
    return gpu_price{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr money job_cost(gpu_time, const Price&) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("job_cost", "price");
    return money{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr money job_cost(gpu_count, duration, const Price&) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("job_cost", "price");
    return money{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr gpu_price discounted(const Price&, double) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("discounted", "price");
    return gpu_price{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr gpu_price with_premium(const Price&, double) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("with_premium", "price");
    return gpu_price{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr token_price cost_per_million_tokens(const Price&, gpu_count, token_rate) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("cost_per_million_tokens", "price");
    return token_price{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
constexpr money idle_cost(gpu_count, duration, const Price&) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("idle_cost", "price");
    return money{};
}

}  // namespace gpucalc
