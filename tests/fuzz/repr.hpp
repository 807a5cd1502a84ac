// repr.hpp: how the harness writes a call as C++ that reproduces it: every argument that is a
// struct is declared from the catalog entry (or default) it differs least from, with one
// assignment per differing member; numbers are written so they read back bit for bit.
#pragma once

#include <charconv>
#include <cstdio>
#include <string>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "fuzz.hpp"

namespace fuzz {

// ---------------------------------------------------------------------------------------------
// Numbers.
// ---------------------------------------------------------------------------------------------

/// The shortest decimal text that reads back as exactly `v` (std::to_chars), or a name for the
/// values no literal writes.
inline std::string double_literal(double v) {
    if (std::isnan(v)) return "std::numeric_limits<double>::quiet_NaN()";
    if (std::isinf(v)) {
        return v > 0 ? "std::numeric_limits<double>::infinity()"
                     : "-std::numeric_limits<double>::infinity()";
    }
    if (v == max_value) return "std::numeric_limits<double>::max()";
    if (v == -max_value) return "-std::numeric_limits<double>::max()";
    if (v == std::numeric_limits<double>::denorm_min()) {
        return "std::numeric_limits<double>::denorm_min()";
    }
    if (v == 0.0) return std::signbit(v) ? "-0.0" : "0.0";
    char buffer[64];
    const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, v);
    std::string text(buffer, r.ec == std::errc{} ? r.ptr : buffer);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return text;
}

inline std::string number_text(double v) { return double_literal(v); }

inline std::string int_literal(std::int64_t v) {
    if (v == std::numeric_limits<std::int64_t>::max()) return "INT64_MAX";
    if (v == std::numeric_limits<std::int64_t>::min()) return "INT64_MIN";
    for (int k = 20; k < 63; ++k) {
        if (v == (std::int64_t{1} << k)) return "(std::int64_t{1} << " + std::to_string(k) + ")";
        if (v == -(std::int64_t{1} << k)) {
            return "-(std::int64_t{1} << " + std::to_string(k) + ")";
        }
    }
    return std::to_string(v);
}

inline std::string string_literal(std::string_view s) {
    std::string text = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') text += '\\';
        text += c;
    }
    return text + "\"";
}

// ---------------------------------------------------------------------------------------------
// Names of quantity types and enums.
// ---------------------------------------------------------------------------------------------
template <class Q>
const char* quantity_name() {
    using namespace gpucalc;
    if constexpr (std::is_same<Q, data_size>::value) return "gpucalc::data_size";
    else if constexpr (std::is_same<Q, flop_count>::value) return "gpucalc::flop_count";
    else if constexpr (std::is_same<Q, duration>::value) return "gpucalc::duration";
    else if constexpr (std::is_same<Q, money>::value) return "gpucalc::money";
    else if constexpr (std::is_same<Q, gpu_count>::value) return "gpucalc::gpu_count";
    else if constexpr (std::is_same<Q, mass>::value) return "gpucalc::mass";
    else if constexpr (std::is_same<Q, power>::value) return "gpucalc::power";
    else if constexpr (std::is_same<Q, energy>::value) return "gpucalc::energy";
    else if constexpr (std::is_same<Q, token_count>::value) return "gpucalc::token_count";
    else if constexpr (std::is_same<Q, sequence_count>::value) return "gpucalc::sequence_count";
    else if constexpr (std::is_same<Q, flop_rate>::value) return "gpucalc::flop_rate";
    else if constexpr (std::is_same<Q, bandwidth>::value) return "gpucalc::bandwidth";
    else if constexpr (std::is_same<Q, arithmetic_intensity>::value)
        return "gpucalc::arithmetic_intensity";
    else if constexpr (std::is_same<Q, gpu_time>::value) return "gpucalc::gpu_time";
    else if constexpr (std::is_same<Q, cost_rate>::value) return "gpucalc::cost_rate";
    else if constexpr (std::is_same<Q, gpu_price>::value) return "gpucalc::gpu_price";
    else if constexpr (std::is_same<Q, energy_price>::value) return "gpucalc::energy_price";
    else if constexpr (std::is_same<Q, data_price>::value) return "gpucalc::data_price";
    else if constexpr (std::is_same<Q, grid_intensity>::value) return "gpucalc::grid_intensity";
    else if constexpr (std::is_same<Q, token_rate>::value) return "gpucalc::token_rate";
    else if constexpr (std::is_same<Q, stream_token_rate>::value)
        return "gpucalc::stream_token_rate";
    else if constexpr (std::is_same<Q, request_rate>::value) return "gpucalc::request_rate";
    else if constexpr (std::is_same<Q, token_price>::value) return "gpucalc::token_price";
    else return "decltype(gpucalc::flop_rate{} * gpucalc::money{})";  // the one unnamed one drawn
}

/// The enums the harness draws, with how many values each has (fsdp's are 0, 2 and 3).
template <class E>
struct enum_traits;
#define FUZZ_ENUM(type, values)                                          \
    template <>                                                          \
    struct enum_traits<gpucalc::type> {                                  \
        static constexpr const char* name = "gpucalc::" #type;           \
        static constexpr int count = values;                             \
    };
FUZZ_ENUM(number_format, 12)
FUZZ_ENUM(compute_precision, 10)
FUZZ_ENUM(byte_prefixes, 2)
FUZZ_ENUM(mlp_kind, 2)
FUZZ_ENUM(norm_kind, 2)
FUZZ_ENUM(position_kind, 2)
FUZZ_ENUM(recompute, 3)
FUZZ_ENUM(pair_count, 2)
FUZZ_ENUM(optimizer, 4)
FUZZ_ENUM(fit_outcome, 3)
FUZZ_ENUM(bound, 2)
FUZZ_ENUM(fsdp, 4)
#undef FUZZ_ENUM

template <class E>
bool enum_valid(E e) {
    const long long v = static_cast<long long>(e);
    if constexpr (std::is_same<E, gpucalc::fsdp>::value) return v == 0 || v == 2 || v == 3;
    return v >= 0 && v < enum_traits<E>::count;
}

template <class E>
std::string enum_literal(E e) {
    const long long v = static_cast<long long>(e);
    if (enum_valid(e)) {
        if constexpr (std::is_same<E, gpucalc::fsdp>::value) {
            static constexpr const char* names[] = {"no_shard", "", "shard_grad_op", "full_shard"};
            return std::string(enum_traits<E>::name) + "::" + names[v];
        } else {
            return std::string(enum_traits<E>::name) + "::" + std::string(gpucalc::to_string(e));
        }
    }
    return std::string("static_cast<") + enum_traits<E>::name + ">(" + std::to_string(v) + ")";
}

// ---------------------------------------------------------------------------------------------
// Structs: their members, pairwise, so two values can be compared member by member.
// fields(a, b, f) calls f(name, a.member, b.member) for every member.
// ---------------------------------------------------------------------------------------------
#define FUZZ_FIELD(m) f(#m, a.m, b.m)

template <class F>
void fields(const gpucalc::storage_format& a, const gpucalc::storage_format& b, F&& f) {
    FUZZ_FIELD(element); FUZZ_FIELD(block_size); FUZZ_FIELD(scale); FUZZ_FIELD(scale_block_size);
    FUZZ_FIELD(scale_of_scales);
}
template <class F>
void fields(const gpucalc::parallel_layout& a, const gpucalc::parallel_layout& b, F&& f) {
    FUZZ_FIELD(tensor); FUZZ_FIELD(pipeline); FUZZ_FIELD(data); FUZZ_FIELD(expert);
    FUZZ_FIELD(context_parallel); FUZZ_FIELD(sequence_parallel); FUZZ_FIELD(zero_stage);
    FUZZ_FIELD(interleave);
}
template <class F>
void fields(const gpucalc::kernel_efficiency& a, const gpucalc::kernel_efficiency& b, F&& f) {
    FUZZ_FIELD(compute); FUZZ_FIELD(memory);
}
template <class F>
void fields(const gpucalc::runtime_overhead& a, const gpucalc::runtime_overhead& b, F&& f) {
    FUZZ_FIELD(cuda_context); FUZZ_FIELD(fragmentation); FUZZ_FIELD(communication_buffers);
}
template <class F>
void fields(const gpucalc::serving_setup& a, const gpucalc::serving_setup& b, F&& f) {
    FUZZ_FIELD(batch); FUZZ_FIELD(context); FUZZ_FIELD(prompt); FUZZ_FIELD(parallel);
    FUZZ_FIELD(weights); FUZZ_FIELD(embeddings); FUZZ_FIELD(kv_cache); FUZZ_FIELD(activations);
    FUZZ_FIELD(compute); FUZZ_FIELD(efficiency); FUZZ_FIELD(causal); FUZZ_FIELD(kv_block_tokens);
    FUZZ_FIELD(max_tokens_per_step); FUZZ_FIELD(overhead);
}
template <class F>
void fields(const gpucalc::lora_adapter& a, const gpucalc::lora_adapter& b, F&& f) {
    FUZZ_FIELD(rank); FUZZ_FIELD(targets);
}
template <class F>
void fields(const gpucalc::lora_finetune& a, const gpucalc::lora_finetune& b, F&& f) {
    FUZZ_FIELD(enabled); FUZZ_FIELD(adapter); FUZZ_FIELD(frozen_base);
}
template <class F>
void fields(const gpucalc::training_job& a, const gpucalc::training_job& b, F&& f) {
    FUZZ_FIELD(sequence); FUZZ_FIELD(global_batch); FUZZ_FIELD(optimizer);
    FUZZ_FIELD(fp32_master_weights); FUZZ_FIELD(parameters); FUZZ_FIELD(gradients);
    FUZZ_FIELD(activations); FUZZ_FIELD(compute); FUZZ_FIELD(flash_attention); FUZZ_FIELD(dropout);
    FUZZ_FIELD(lora); FUZZ_FIELD(overhead);
}
template <class F>
void fields(const gpucalc::training_strategy& a, const gpucalc::training_strategy& b, F&& f) {
    FUZZ_FIELD(parallel); FUZZ_FIELD(micro_batch); FUZZ_FIELD(recompute);
    FUZZ_FIELD(offload_optimizer); FUZZ_FIELD(offload_parameters);
}
template <class F>
void fields(const gpucalc::transformer& a, const gpucalc::transformer& b, F&& f) {
    FUZZ_FIELD(name); FUZZ_FIELD(layers); FUZZ_FIELD(hidden); FUZZ_FIELD(heads);
    FUZZ_FIELD(kv_heads);
    FUZZ_FIELD(head_dim); FUZZ_FIELD(ffn_hidden); FUZZ_FIELD(vocab); FUZZ_FIELD(max_context);
    FUZZ_FIELD(mlp); FUZZ_FIELD(norm); FUZZ_FIELD(positions); FUZZ_FIELD(linear_biases);
    FUZZ_FIELD(tied_embeddings); FUZZ_FIELD(experts); FUZZ_FIELD(experts_per_token);
    FUZZ_FIELD(sliding_window);
}
template <class F>
void fields(const gpucalc::peak_rates& a, const gpucalc::peak_rates& b, F&& f) {
    FUZZ_FIELD(fp64); FUZZ_FIELD(fp64_tensor); FUZZ_FIELD(fp32); FUZZ_FIELD(tf32); FUZZ_FIELD(bf16);
    FUZZ_FIELD(fp16); FUZZ_FIELD(fp8); FUZZ_FIELD(int8); FUZZ_FIELD(int4); FUZZ_FIELD(fp4);
}
template <class F>
void fields(const gpucalc::link_spec& a, const gpucalc::link_spec& b, F&& f) {
    FUZZ_FIELD(name); FUZZ_FIELD(per_direction); FUZZ_FIELD(latency); FUZZ_FIELD(span);
    FUZZ_FIELD(collective_efficiency); FUZZ_FIELD(base_latency);
}
template <class F>
void fields(const gpucalc::mig_profile& a, const gpucalc::mig_profile& b, F&& f) {
    FUZZ_FIELD(name); FUZZ_FIELD(compute_slices); FUZZ_FIELD(memory); FUZZ_FIELD(max_instances);
}
template <class F>
void fields(const gpucalc::gpu_spec& a, const gpucalc::gpu_spec& b, F&& f) {
    FUZZ_FIELD(name); FUZZ_FIELD(memory); FUZZ_FIELD(memory_bandwidth); FUZZ_FIELD(dense_peak);
    FUZZ_FIELD(tdp); FUZZ_FIELD(scale_up); FUZZ_FIELD(host); FUZZ_FIELD(mig); FUZZ_FIELD(mig_count);
    FUZZ_FIELD(multiprocessors);
}
template <class F>
void fields(const gpucalc::node& a, const gpucalc::node& b, F&& f) {
    FUZZ_FIELD(gpu); FUZZ_FIELD(gpus_per_node); FUZZ_FIELD(intra_node);
}
template <class F>
void fields(const gpucalc::cluster& a, const gpucalc::cluster& b, F&& f) {
    FUZZ_FIELD(node); FUZZ_FIELD(nodes); FUZZ_FIELD(inter_node); FUZZ_FIELD(nics_per_node);
}
template <class F>
void fields(const gpucalc::ownership& a, const gpucalc::ownership& b, F&& f) {
    FUZZ_FIELD(capex); FUZZ_FIELD(network_share); FUZZ_FIELD(installation);
    FUZZ_FIELD(service_life);
    FUZZ_FIELD(residual_value); FUZZ_FIELD(cost_of_capital); FUZZ_FIELD(gpus);
    FUZZ_FIELD(full_power);
    FUZZ_FIELD(idle_power_fraction); FUZZ_FIELD(pue); FUZZ_FIELD(electricity);
    FUZZ_FIELD(maintenance_per_year); FUZZ_FIELD(space); FUZZ_FIELD(staff);
}
template <class F>
void fields(const gpucalc::spot_job& a, const gpucalc::spot_job& b, F&& f) {
    FUZZ_FIELD(work); FUZZ_FIELD(gpus); FUZZ_FIELD(on_demand); FUZZ_FIELD(discount);
    FUZZ_FIELD(mean_time_between_preemptions); FUZZ_FIELD(checkpoint_time);
    FUZZ_FIELD(restart_time); FUZZ_FIELD(interval);
}
template <class F>
void fields(const gpucalc::reservation& a, const gpucalc::reservation& b, F&& f) {
    FUZZ_FIELD(term); FUZZ_FIELD(upfront); FUZZ_FIELD(on_demand); FUZZ_FIELD(discount);
}
template <class F>
void fields(const gpucalc::flex_start_offer& a, const gpucalc::flex_start_offer& b, F&& f) {
    FUZZ_FIELD(on_demand); FUZZ_FIELD(discount); FUZZ_FIELD(expected_delay);
}
template <class F>
void fields(const gpucalc::pass_shape& a, const gpucalc::pass_shape& b, F&& f) {
    FUZZ_FIELD(batch); FUZZ_FIELD(queries); FUZZ_FIELD(keys); FUZZ_FIELD(outputs);
    FUZZ_FIELD(counted);
}
template <class F>
void fields(const gpucalc::cost_formats& a, const gpucalc::cost_formats& b, F&& f) {
    FUZZ_FIELD(weights); FUZZ_FIELD(embeddings); FUZZ_FIELD(activations); FUZZ_FIELD(gradients);
}
template <class F>
void fields(const gpucalc::mfu_assumption& a, const gpucalc::mfu_assumption& b, F&& f) {
    FUZZ_FIELD(mfu); FUZZ_FIELD(six_n_d);
}
template <class F>
void fields(const gpucalc::format_options& a, const gpucalc::format_options& b, F&& f) {
    FUZZ_FIELD(significant_figures); FUZZ_FIELD(bytes); FUZZ_FIELD(exact);
}
template <class F>
void fields(const gpucalc::op_cost& a, const gpucalc::op_cost& b, F&& f) {
    FUZZ_FIELD(flops); FUZZ_FIELD(bytes);
}
template <class F>
void fields(const gpucalc::region_price& a, const gpucalc::region_price& b, F&& f) {
    FUZZ_FIELD(name); FUZZ_FIELD(gpu); FUZZ_FIELD(transfer_in);
}
template <class F>
void fields(const gpucalc::demand_step& a, const gpucalc::demand_step& b, F&& f) {
    FUZZ_FIELD(gpus); FUZZ_FIELD(time);
}
#undef FUZZ_FIELD

struct no_visit {
    template <class A, class B>
    void operator()(const char*, const A&, const B&) const {}
};
template <class T, class = void>
struct has_fields : std::false_type {};
template <class T>
struct has_fields<T, std::void_t<decltype(fields(std::declval<const T&>(), std::declval<const T&>(),
                                                 no_visit{}))>> : std::true_type {};

template <class T>
const char* type_name();
#define FUZZ_NAME(type) \
    template <>         \
    inline const char* type_name<gpucalc::type>() { return "gpucalc::" #type; }
FUZZ_NAME(storage_format) FUZZ_NAME(parallel_layout) FUZZ_NAME(kernel_efficiency)
FUZZ_NAME(runtime_overhead) FUZZ_NAME(serving_setup) FUZZ_NAME(lora_adapter)
FUZZ_NAME(lora_finetune) FUZZ_NAME(training_job) FUZZ_NAME(training_strategy)
FUZZ_NAME(transformer) FUZZ_NAME(peak_rates) FUZZ_NAME(link_spec) FUZZ_NAME(mig_profile)
FUZZ_NAME(gpu_spec) FUZZ_NAME(node) FUZZ_NAME(cluster) FUZZ_NAME(ownership) FUZZ_NAME(spot_job)
FUZZ_NAME(reservation) FUZZ_NAME(flex_start_offer) FUZZ_NAME(pass_shape) FUZZ_NAME(cost_formats)
FUZZ_NAME(mfu_assumption) FUZZ_NAME(format_options) FUZZ_NAME(op_cost) FUZZ_NAME(region_price)
FUZZ_NAME(demand_step)
#undef FUZZ_NAME

/// A value a struct may start from, to keep the printed assignments few.
template <class T>
struct base_value {
    std::string expression;
    const T* value;
};

template <class T>
std::vector<base_value<T>> bases_of() {
    static const T default_value{};
    std::vector<base_value<T>> bases{{std::string(type_name<T>()) + "{}", &default_value}};
    namespace cat = gpucalc::catalog;
    if constexpr (std::is_same<T, gpucalc::transformer>::value) {
#define FUZZ_BASE(name) bases.push_back({"gpucalc::catalog::" #name, &cat::name})
        FUZZ_BASE(llama_2_7b); FUZZ_BASE(llama_2_13b); FUZZ_BASE(llama_2_70b);
        FUZZ_BASE(llama_3_8b);
        FUZZ_BASE(llama_3_70b); FUZZ_BASE(llama_3_1_405b); FUZZ_BASE(mistral_7b);
        FUZZ_BASE(mixtral_8x7b); FUZZ_BASE(gpt3_175b); FUZZ_BASE(megatron_1_7b);
        FUZZ_BASE(megatron_18_4b); FUZZ_BASE(megatron_1008b); FUZZ_BASE(korthikanti_22b);
    } else if constexpr (std::is_same<T, gpucalc::gpu_spec>::value) {
        FUZZ_BASE(t4); FUZZ_BASE(l4); FUZZ_BASE(a10); FUZZ_BASE(a10g); FUZZ_BASE(a100_40gb_sxm);
        FUZZ_BASE(a100_80gb_sxm); FUZZ_BASE(a100_80gb_pcie); FUZZ_BASE(h100_sxm);
        FUZZ_BASE(h100_pcie); FUZZ_BASE(h100_nvl); FUZZ_BASE(h200); FUZZ_BASE(b200);
        FUZZ_BASE(gb200); FUZZ_BASE(mi300x); FUZZ_BASE(mi325x); FUZZ_BASE(tpu_v5e);
        FUZZ_BASE(tpu_v5p);
    } else if constexpr (std::is_same<T, gpucalc::link_spec>::value) {
        FUZZ_BASE(nvlink3); FUZZ_BASE(nvlink4); FUZZ_BASE(nvlink5); FUZZ_BASE(nvlink5_nvl72);
        FUZZ_BASE(nvlink_bridge); FUZZ_BASE(infinity_fabric); FUZZ_BASE(pcie_gen3_x16);
        FUZZ_BASE(pcie_gen4_x16); FUZZ_BASE(pcie_gen5_x16); FUZZ_BASE(nvlink_c2c);
        FUZZ_BASE(infiniband_ndr); FUZZ_BASE(infiniband_hdr); FUZZ_BASE(efa_400g);
        FUZZ_BASE(ethernet_100g);
#undef FUZZ_BASE
    }
    return bases;
}

// ---------------------------------------------------------------------------------------------
// The printer.
// ---------------------------------------------------------------------------------------------
struct printer {
    std::string declarations;  ///< statements before the call
    int tables = 0;

    void line(const std::string& text) { declarations += "    " + text + "\n"; }
};

template <class T>
bool same_value(const T& a, const T& b);

/// The C++ expression for a leaf value.
inline std::string leaf(printer&, double v) { return double_literal(v); }
inline std::string leaf(printer&, std::int64_t v) { return int_literal(v); }
inline std::string leaf(printer&, int v) { return std::to_string(v); }
inline std::string leaf(printer&, std::uint32_t v) { return std::to_string(v) + "U"; }
inline std::string leaf(printer&, bool v) { return v ? "true" : "false"; }
inline std::string leaf(printer&, std::string_view v) { return string_literal(v); }
template <class Unit>
std::string leaf(printer&, const boost::units::quantity<Unit, double>& q) {
    return std::string(quantity_name<boost::units::quantity<Unit, double>>()) + "::from_value(" +
           double_literal(q.value()) + ")";
}
template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
std::string leaf(printer&, E e) {
    return enum_literal(e);
}
/// gpu_spec::mig: a catalog table by name, or the harness's own table written out in full.
inline std::string leaf(printer& p, const gpucalc::mig_profile* mig) {
    if (mig == nullptr) return "nullptr";
    namespace m = gpucalc::catalog::detail_mig;
#define FUZZ_MIG(name) \
    if (mig == m::name.data()) return "gpucalc::catalog::detail_mig::" #name ".data()";
    FUZZ_MIG(a100_40gb) FUZZ_MIG(a100_80gb) FUZZ_MIG(h100_80gb) FUZZ_MIG(h100_94gb)
    FUZZ_MIG(h200_141gb) FUZZ_MIG(b200_180gb)
#undef FUZZ_MIG
    const std::string name = "mig_table_" + std::to_string(p.tables++);
    p.line("// The caller's table: exactly gpucalc::max_mig_profiles profiles.");
    p.line("static const gpucalc::mig_profile " + name + "[gpucalc::max_mig_profiles] = {");
    for (int i = 0; i < gpucalc::max_mig_profiles; ++i) {
        p.line("    {" + string_literal(mig[i].name) + ", " + int_literal(mig[i].compute_slices) +
               ", " + leaf(p, mig[i].memory) + ", " + int_literal(mig[i].max_instances) + "},");
    }
    p.line("};");
    return name;
}

template <class T>
int differences(const T& a, const T& b) {
    if constexpr (has_fields<T>::value) {
        int n = 0;
        fields(a, b, [&n](const char*, const auto& x, const auto& y) { n += differences(x, y); });
        return n;
    } else {
        return same_value(a, b) ? 0 : 1;
    }
}

template <class T>
bool same_value(const T& a, const T& b) {
    if constexpr (std::is_same<T, double>::value) {
        return bits_of(a) == bits_of(b);
    } else if constexpr (has_fields<T>::value) {
        return differences(a, b) == 0;
    } else if constexpr (std::is_class<T>::value && !std::is_same<T, std::string_view>::value) {
        return bits_of(a.value()) == bits_of(b.value());  // a quantity
    } else {
        return a == b;
    }
}

/// One assignment per member of `a` that differs from `base`.
template <class T>
void assign_differences(printer& p, const std::string& path, const T& a, const T& base) {
    if constexpr (has_fields<T>::value) {
        fields(a, base, [&](const char* name, const auto& x, const auto& y) {
            assign_differences(p, path + "." + name, x, y);
        });
    } else if (!same_value(a, base)) {
        const std::string value = leaf(p, a);
        p.line(path + " = " + value + ";");
    }
}


/// The expression an argument is passed as: a literal for a leaf; for a struct, a variable
/// declared from its nearest base.
template <class T>
std::string argument(printer& p, int index, const T& v) {
    if constexpr (has_fields<T>::value) {
        const std::vector<base_value<T>> bases = bases_of<T>();
        const base_value<T>* best = &bases[0];
        int fewest = differences(v, *bases[0].value);
        for (const base_value<T>& b : bases) {
            const int n = differences(v, *b.value);
            if (n < fewest) {
                fewest = n;
                best = &b;
            }
        }
        std::string name = "a";
        name += std::to_string(index);
        p.line(std::string(type_name<T>()) + " " + name + " = " + best->expression + ";");
        assign_differences(p, name, v, *best->value);
        return name;
    } else {
        return leaf(p, v);
    }
}
template <class T, std::size_t N>
std::string argument(printer& p, int index, const carray<T, N>& array) {
    std::string name = "a";
    name += std::to_string(index);
    p.line(std::string(type_name<T>()) + " " + name + "[" + std::to_string(N) + "] = {};");
    static const T default_value{};
    for (std::size_t i = 0; i < N; ++i) {
        assign_differences(p, name + "[" + std::to_string(i) + "]", array.v[i], default_value);
    }
    return name;
}

template <class... Args>
std::string describe_call(const char* call_text, const std::tuple<Args...>& args) {
    printer p;
    std::vector<std::string> names;
    std::apply(
        [&](const auto&... a) {
            int index = 0;
            (names.push_back(argument(p, index++, a)), ...);
        },
        args);
    std::string call;
    for (const char* c = call_text; *c != '\0'; ++c) {
        if (*c == '{' && c[1] >= '0' && c[1] <= '9' && c[2] == '}') {
            call += names[static_cast<std::size_t>(c[1] - '0')];
            c += 2;
        } else {
            call += *c;
        }
    }
    return p.declarations + "    " + call + ";\n";
}

}  // namespace fuzz
