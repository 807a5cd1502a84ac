// model/checked.hpp: a model checked once, with what every evaluation derives from it
#pragma once

#include <cstdint>

#include "parameters.hpp"
#include "shape.hpp"

namespace gpucalc {

class checked_model;

/// Checks `m` once and returns it with the values every evaluation derives from it. Rejects a
/// shape no model has: a count outside its range (see transformer: sizes in [1, 2^40], the
/// optional ones in [0, 2^40]); KV heads that do not divide the heads; a head_dim other than
/// hidden/heads left implicit when hidden is not divisible; learned positions without a
/// max_context; an MoE top-k outside [1, experts] (0 or 1 for a dense model); an mlp, norm or
/// positions value outside its enum; a model whose parameter count, router, biases and norms
/// included, reaches 2^53. Errors name `function`.
constexpr checked_model check(const transformer& m, const char* function = "check(transformer)");

/// A transformer that passed check(), with its derived values computed once. Only check()
/// makes one, so holding one proves the shape is valid: the hot functions (memory, decode,
/// prefill and the searches) accept it and skip the model's checks, which a scheduler calling
/// them millions of times on one model would otherwise repeat on every call. It is a literal
/// type, so constant expressions can hold one, and it converts to `const transformer&`, so
/// every function that takes a transformer takes it too. Hold it by value
/// (`const checked_model m = check(model);`): a `const transformer&` bound to `check(model)`
/// would outlive the temporary it refers to.
class checked_model {
public:
    /// The model as given.
    constexpr const transformer& spec() const noexcept { return spec_; }
    /// Implicit, so every function that takes a transformer takes a checked one.
    constexpr operator const transformer&() const noexcept { return spec_; }

    constexpr std::int64_t kv_heads() const noexcept { return kv_heads_; }  ///< defaults applied
    constexpr std::int64_t head_dim() const noexcept { return head_dim_; }  ///< defaults applied
    constexpr std::int64_t q_width() const noexcept { return q_width_; }    ///< heads × head_dim
    constexpr std::int64_t kv_width() const noexcept { return kv_width_; }  ///< kv_heads × head_dim
    /// One layer's parameters by kind.
    constexpr const layer_parameters& layer() const noexcept { return layer_; }
    /// The whole model's parameters (parameter_count).
    constexpr const parameter_counts& parameters() const noexcept { return parameters_; }

private:
    constexpr explicit checked_model(const transformer& m)
        : spec_(m),
          kv_heads_(kv_heads_of(m)),
          head_dim_(head_dim_of(m)),
          q_width_(detail::q_width_unchecked(m)),
          kv_width_(detail::kv_width_unchecked(m)),
          layer_(detail::layer_parameters_of(m)),
          parameters_(detail::count_parameters(m)) {}

    friend constexpr checked_model check(const transformer& m, const char* function);

    transformer spec_;
    std::int64_t kv_heads_;
    std::int64_t head_dim_;
    std::int64_t q_width_;
    std::int64_t kv_width_;
    layer_parameters layer_;
    parameter_counts parameters_;
};

constexpr checked_model check(const transformer& m, const char* function) {
    detail::check_shape(m, function);
    return checked_model(m);
}

/// The derived values of a checked model come from its cache; these overloads are chosen over
/// the transformer ones (an exact match beats the conversion), so code written against either
/// reads the same.
constexpr std::int64_t kv_heads_of(const checked_model& m) { return m.kv_heads(); }
constexpr std::int64_t head_dim_of(const checked_model& m) { return m.head_dim(); }
constexpr std::int64_t q_width_of(const checked_model& m) { return m.q_width(); }
constexpr std::int64_t kv_width_of(const checked_model& m) { return m.kv_width(); }
constexpr parameter_counts parameter_count(const checked_model& m) { return m.parameters(); }
namespace detail {
constexpr const layer_parameters& layer_parameters_of(const checked_model& m) { return m.layer(); }
constexpr const parameter_counts& count_parameters(const checked_model& m) { return m.parameters(); }
}  // namespace detail

}  // namespace gpucalc
