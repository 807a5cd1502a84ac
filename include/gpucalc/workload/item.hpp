// workload/item.hpp: a workload that is not a transformer: a model that runs on items (images,
// fixed-length sequences), described by its FLOPs, memory traffic, parameters and activations
// per item, and optionally by a time per item someone measured on a named device
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../precision.hpp"
#include "../units.hpp"

namespace gpucalc {

/// A time per item measured on a device: 100 ms per image on a laptop GPU is a measurement, not
/// a roofline figure, and it holds whatever the roofline leaves out (kernel launches, the
/// framework, preprocessing). time_per_item = 0 (the default) means none was given.
///
/// Ranges: time_per_item 0 or in [1e-30 s, 1e6 years]; batch in [1, 2^40]; device any spec
/// (its name says where the time was measured; a full spec lets the time be carried to other
/// GPUs, see serving/items.hpp).
struct item_measurement {
    duration time_per_item{};  ///< wall time of one batch ÷ batch; 0 = no measurement
    gpu_spec device{};         ///< where it was measured: its name, and its spec if known
    std::int64_t batch = 1;    ///< the batch the time was measured at
};

/// One model run on items. Counts are elements, as the library counts them elsewhere, and the
/// storage formats turn them into bytes (precision.hpp), so a change of format is one field.
///
/// Ranges: flops_per_item in [1e-30 FLOP, 1e40 FLOP]; parameters in [1, 1e15];
/// moved_elements_per_item and live_elements_per_item in [0, 1e15]; each format as
/// bits_per_element says; compute a compute_precision; the measurement as item_measurement
/// says.
struct item_workload {
    std::string_view name{};
    /// Forward-pass FLOPs per item, counting a multiply-add as 2 FLOPs (the convention of
    /// op_cost and gemm; vision tables that print "GFLOPs" often count multiply-adds, so halve
    /// nothing here: double theirs).
    flop_count flops_per_item{};
    double parameters = 0.0;  ///< weights, read once per batch
    storage_format weights = formats::fp16;
    /// Activation elements one item writes to and reads from device memory in a forward pass,
    /// beyond the weights (the input, every layer's output written once and read once).
    double moved_elements_per_item = 0.0;
    /// The most activation elements one item holds at once during a forward pass (sizes the
    /// batch that fits in memory).
    double live_elements_per_item = 0.0;
    storage_format activations = formats::fp16;
    compute_precision compute = compute_precision::fp16;  ///< selects the peak
    item_measurement measured{};
};

namespace detail {

/// The most parameters or activation elements an item workload may state: 1e15, far above any
/// model served today (10^12 parameters), so every byte count stays inside data_size's range.
inline constexpr double largest_item_elements = 1e15;

constexpr void require_elements(const char* function, const char* field, double value,
                                bool zero_allowed) {
    if (!((zero_allowed ? value >= 0.0 : value >= 1.0) && value <= largest_item_elements)) {
        throw_invalid(function, field, value, "",
                      zero_allowed ? "must be in [0, 1e15]" : "must be in [1, 1e15]");
    }
}

/// Throws for the measurement's first field outside its range; the device is not read here
/// (serving/items.hpp checks it where it uses it).
constexpr void check(const item_measurement& m, const char* function) {
    require_non_negative(function, "measured.time_per_item", m.time_per_item);
    require_count(function, "measured.batch", m.batch);
}

/// An item workload's rules (see item_workload), reported as the caller wrote the fields.
constexpr void check(const item_workload& w, const char* function) {
    require_positive(function, "flops_per_item", w.flops_per_item);
    require_elements(function, "parameters", w.parameters, false);
    require_elements(function, "moved_elements_per_item", w.moved_elements_per_item, true);
    require_elements(function, "live_elements_per_item", w.live_elements_per_item, true);
    check_format(w.weights, function, "weights.");
    check_format(w.activations, function, "activations.");
    require_enumerator(function, "compute", w.compute, compute_precision_count,
                       "compute_precision");
    check(w.measured, function);
}

}  // namespace detail

/// Whether the workload carries a measured time per item.
constexpr bool has_measurement(const item_workload& w) {
    return w.measured.time_per_item.value() > 0.0;
}

/// The bytes of the weights, parameters × bytes_per_element(weights). Ranges: as item_workload.
constexpr data_size item_weight_bytes(const item_workload& w) {
    detail::check(w, "item_weight_bytes");
    return detail::storage_size_unchecked(w.parameters, w.weights);
}

}  // namespace gpucalc
