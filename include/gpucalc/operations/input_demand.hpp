// operations/input_demand.hpp: the input rate a training job consumes, in samples/s or tokens/s,
// and the bytes an item takes as stored, with the sourced figures (ImageNet, ResNet-50 on A100s,
// token-id widths)
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../scaling/step.hpp"
#include "../units.hpp"
#include "../workload/item.hpp"

namespace gpucalc {


/// Samples per second (images, clips, fixed-length records). A training sample is a sequence
/// (quantities.hpp's sequence dimension: "one sample of a training batch"), so a sample rate
/// is a request_rate under a name that says what it counts here.
using sample_rate = request_rate;
/// The named unit of a sample_rate: make<samples_per_second>(16621.0), in<samples_per_second>(r).
struct samples_per_second : scaled_unit<request_rate, 1> {};

/// What one input item is: a sample (an image, read, decoded and augmented on a CPU core) or
/// a token (a language model's pre-tokenized id).
enum class input_item { sample, token };
inline constexpr int input_item_count = 2;

// ---------------------------------------------------------------------------------------------
// Sourced figures
// ---------------------------------------------------------------------------------------------

/// ILSVRC-2012 classification training images: 1,281,167, the training set of Russakovsky et
/// al. 2015 ("ImageNet Large Scale Visual Recognition Challenge", IJCV 115); the same count is
/// the train split size of TensorFlow's ImageNet readers (models/research, imagenet.py,
/// _SPLITS_TO_SIZES) and of Hugging Face's imagenet-1k.
inline constexpr double imagenet_train_images = 1281167.0;
/// ILSVRC-2012 training archive, ILSVRC2012_img_train.tar: 147,897,477,120 B, its byte count as
/// public ImageNet download scripts list it in their expected-size tables (commented "~138GB")
/// and as `ls -l` shows it in public setup guides. image-net.org's download page prints
/// "138GB" for it: 147.9e9 B is 137.7 GiB, so that figure is binary. The tar headers and
/// padding (~1 KB a file) are under 1% of it. Uncertain for copies re-encoded by a hosting
/// service (smaller).
inline constexpr data_size imagenet_train_bytes = make<bytes>(147897477120.0);
/// The mean ImageNet training JPEG: 147,897,477,120 B ÷ 1,281,167 = 115,440 B (derived; an upper
/// bound by the tar overhead, < 1%).
inline constexpr data_size imagenet_mean_jpeg = imagenet_train_bytes / imagenet_train_images;

/// CPU time one physical core spends to read, JPEG-decode, random-resized-crop to 224², flip and
/// normalize one ImageNet training image in a PyTorch/PIL data-loader worker running alone on
/// that core: 1/150 s, that is 150 images/s per physical core. Uncertain: 100–300 images/s per
/// core (3.3–10 ms) depending on the decoder, the augmentations, the CPU and its clock; no
/// primary table gives the whole chain. The decode alone is a floor: Iglovikov & Kosarevsky 2026
/// ("Single-Thread JPEG Decoder Benchmarks Mis-Evaluate ML Data Loaders", arXiv:2605.08731,
/// single-thread table, ImageNet validation JPEGs decoded from memory on 16-vCPU cloud VMs)
/// measure 537–726 images/s for Pillow and 621–864 for torchvision on current x86 server cores
/// (1.2–1.9 ms an image); resize, crop, flip and normalize take the rest of the 6.67 ms
/// (uncertain). Mohan et al. 2021 ("Analyzing and Mitigating Data Stalls in DNN Training",
/// PVLDB 14(5), abstract) find that waiting for data to be fetched and pre-processed often
/// dominates training time. Measure your own pipeline (one worker on one idle physical core,
/// data in page cache) and pass it.
inline constexpr duration imagenet_preprocess_time_per_image = make<seconds>(1.0 / 150.0);

/// ResNet-50 v1.5 training on a DGX A100 (8 × A100 80GB), mixed precision: 2,470 images/s on
/// one GPU and 16,621 on 8, a strong scaling of 6.72× against TF32's 7.72× (NVIDIA
/// DeepLearningExamples, PyTorch/Classification/ConvNets/resnet50v1.5 README, "Training
/// performance: NVIDIA DGX A100 (8x A100 80GB)", pytorch-21.03 container). The 8-GPU figure
/// is a measured rate, likely held back by the host's data loader (the all-reduce of ResNet-50's
/// ~25.6M gradients over NVLink is a small part of the step); the 1-GPU figure is the better
/// estimate of what one GPU consumes.
inline constexpr sample_rate resnet50_dgx_a100_8gpu_training = make<samples_per_second>(16621.0);
inline constexpr sample_rate resnet50_dgx_a100_1gpu_training = make<samples_per_second>(2470.0);

/// The largest vocabulary whose ids fit 2 bytes: 2^16 = 65,536 ids, 0 … 65,535 (derived).
inline constexpr std::int64_t largest_two_byte_vocabulary = std::int64_t{1} << 16;
/// The largest vocabulary whose ids fit 4 bytes: 2^32 ids (derived).
inline constexpr std::int64_t largest_four_byte_vocabulary = std::int64_t{1} << 32;

/// Bytes one stored token id takes: 2 (uint16) for a vocabulary of at most 65,536 ids, such
/// as GPT-2's 50,257 (Radford et al. 2019, §2.2), 4 (uint32) up to 2^32 ids, as for Llama 3's
/// 128,256, else 8 (derived: the smallest common integer width that holds every id). Ranges:
/// vocabulary in [1, 2^40].
constexpr data_size token_id_bytes(std::int64_t vocabulary) {
    detail::require_count("token_id_bytes", "vocabulary", vocabulary);
    if (vocabulary > detail::largest_count) {
        detail::throw_invalid("token_id_bytes", "vocabulary", static_cast<double>(vocabulary), "",
                              "must be <= 2^40");
    }
    return make<bytes>(vocabulary <= largest_two_byte_vocabulary    ? 2.0
                       : vocabulary <= largest_four_byte_vocabulary ? 4.0
                                                                    : 8.0);
}

// ---------------------------------------------------------------------------------------------
// Demand
// ---------------------------------------------------------------------------------------------

/// The input rate the GPUs consume, in the item it counts (samples or tokens; the other rate
/// is 0), and the bytes storage and the network carry for it.
struct input_demand {
    input_item item = input_item::sample;
    sample_rate samples{};       ///< item == sample: the job's samples/s (all GPUs); else 0
    token_rate tokens{};         ///< item == token: the job's tokens/s (all GPUs); else 0
    data_size bytes_per_item{};  ///< as stored: an encoded JPEG, a token id
    bandwidth bytes{};           ///< rate × bytes_per_item
    /// The GPUs the rate is for: item_training_demand's gpus, token_demand(step)'s step.gpus;
    /// 0 when not stated (sample_demand, token_demand of a rate). The verdict
    /// rejects a stated count that differs from the pipeline's nodes × gpus_per_node.
    std::int64_t gpus = 0;
};

/// The assumptions that turn an item workload's FLOPs into a training rate.
///
/// Ranges: training_flops_per_forward in [1, 10]; achieved_fraction in [0.001, 1].
struct item_training_assumptions {
    /// Training FLOPs over forward FLOPs: 3, the backward pass costing twice the forward
    /// (Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §2.1: C ≈ 6N per token
    /// for training against 2N forward).
    double training_flops_per_forward = 3.0;
    /// The fraction of the GPU's dense peak the training step reaches: 0.194, derived from
    /// resnet50_dgx_a100_1gpu_training: 2,470 × 3 × 8.178 GFLOP ÷ 312 TFLOP/s = 0.1942 (one GPU,
    /// so neither the all-reduce nor a shared host's data loader holds it back; the 8-GPU
    /// figure gives 0.163). Caveats: measured on an A100 80GB (2.0 TB/s of HBM), applied as is
    /// to the 40 GB part (1.56 TB/s) and to other GPUs; the 3× training factor is a transformer
    /// rule of thumb. Uncertain: 0.1–0.4 across models, frameworks, GPUs and batch sizes.
    double achieved_fraction = 0.194;
};

namespace detail {

constexpr void check(const item_training_assumptions& a, const char* function) {
    const double m = a.training_flops_per_forward;
    if (!(m >= 1.0 && m <= 10.0)) {
        throw_invalid(function, "assumptions.training_flops_per_forward", m, "",
                      "must be in [1, 10]");
    }
    const double f = a.achieved_fraction;
    if (!(f >= 0.001 && f <= 1.0)) {
        throw_invalid(function, "assumptions.achieved_fraction", f, "", "must be in [0.001, 1]");
    }
}

/// The widest demand rate the verdict judges, in items/s: item_training_demand's extremes
/// (2^40 GPUs at 1e30 FLOP/s over 1e-30 FLOP per item, or 0.001 of 1e-30 FLOP/s over 10 ×
/// 1e40 FLOP) stay inside [1e-80, 1e80], and every ratio of a supply to it stays finite.
inline constexpr double smallest_demand_rate = 1e-80;
inline constexpr double largest_demand_rate = 1e80;
/// sample_demand's largest rate, 1e15 samples/s: far above any real job, finite in every product.
inline constexpr double largest_sample_rate = 1e15;
/// sample_demand's smallest rate, 1e-30 samples/s, as token_demand's (the library's smallest
/// positive quantity).
inline constexpr double smallest_sample_rate = 1e-30;

/// A demand's rate must be in [1e-80, 1e80] items/s (wider than the demand functions' input
/// ranges: a rate item_training_demand returns must still be judged) and its bytes per item
/// in [1e-30 B, 1e30 B].
constexpr void check(const input_demand& d, const char* function) {
    require_enumerator(function, "demand.item", d.item, input_item_count, "input_item");
    const bool samples = d.item == input_item::sample;
    const double rate = samples ? d.samples.value() : d.tokens.value();
    const double other = samples ? d.tokens.value() : d.samples.value();
    if (!(rate >= smallest_demand_rate && rate <= largest_demand_rate)) {
        throw_invalid(function, samples ? "demand.samples" : "demand.tokens", rate,
                      samples ? "samples/s" : "tokens/s", "must be in [1e-80, 1e80]");
    }
    if (!exactly_equal(other, 0.0)) {
        throw_invalid(function, samples ? "demand.tokens" : "demand.samples", other,
                      samples ? "tokens/s" : "samples/s", "must be 0 for this demand.item");
    }
    require_positive(function, "demand.bytes_per_item", d.bytes_per_item);
    if (!(d.gpus >= 0 && d.gpus <= largest_count)) {
        throw_invalid(function, "demand.gpus", static_cast<double>(d.gpus), "",
                      "must be in [0, 2^40]");
    }
}

constexpr double demand_rate(const input_demand& d) {
    return d.item == input_item::sample ? d.samples.value() : d.tokens.value();
}

constexpr input_demand make_demand(input_item item, double rate, data_size bytes_per_item,
                                   std::int64_t gpus = 0) {
    input_demand d{};
    d.gpus = gpus;
    d.item = item;
    if (item == input_item::sample) {
        d.samples = sample_rate::from_value(rate);
    } else {
        d.tokens = token_rate::from_value(rate);
    }
    d.bytes_per_item = bytes_per_item;
    d.bytes = bandwidth::from_value(rate * bytes_per_item.value());
    return d;
}

}  // namespace detail

/// Demand at a stated sample rate (a measured images/s, a target), for the whole job. Ranges:
/// rate in [1e-30, 1e15] samples/s; bytes_per_sample in [1e-30 B, 1e30 B]. Print the rate with
/// in<samples_per_second>: streamed as is, a sample_rate reads requests/s.
constexpr input_demand sample_demand(sample_rate rate, data_size bytes_per_sample) {
    constexpr const char* function = "sample_demand";
    // The unit named explicitly: a sample_rate is a request_rate, which would print requests/s.
    detail::require_positive(function, "rate", rate.value(), "samples/s");
    if (!(rate.value() >= detail::smallest_sample_rate &&
          rate.value() <= detail::largest_sample_rate)) {
        detail::throw_invalid(function, "rate", rate.value(), "samples/s",
                              "must be in [1e-30, 1e15]");
    }
    detail::require_positive(function, "bytes_per_sample", bytes_per_sample);
    return detail::make_demand(input_item::sample, rate.value(), bytes_per_sample);
}

/// Demand at a stated token rate. Ranges: rate in [1e-30, 1e20] tokens/s; bytes_per_token in
/// [1e-30 B, 1e30 B] (token_id_bytes gives it from the vocabulary).
constexpr input_demand token_demand(token_rate rate, data_size bytes_per_token) {
    constexpr const char* function = "token_demand";
    detail::require_positive(function, "rate", rate);
    detail::require_positive(function, "bytes_per_token", bytes_per_token);
    return detail::make_demand(input_item::token, rate.value(), bytes_per_token);
}

/// Demand at a predicted training step's throughput: step.tokens_per_second (training_step_time)
/// × bytes_per_token. The demand keeps step.gpus, and the verdict checks it against the
/// pipeline's. Ranges: the step's tokens_per_second in [1e-30, 1e20] tokens/s; step.gpus in
/// [1, 2^40]; bytes_per_token in [1e-30 B, 1e30 B].
constexpr input_demand token_demand(const training_step& step, data_size bytes_per_token) {
    constexpr const char* function = "token_demand";
    detail::require_positive(function, "step.tokens_per_second", step.tokens_per_second);
    detail::require_positive(function, "bytes_per_token", bytes_per_token);
    detail::require_count(function, "step.gpus", step.gpus);
    return detail::make_demand(input_item::token, step.tokens_per_second.value(),
                               bytes_per_token, step.gpus);
}

/// Demand of a non-transformer model trained on `gpus` GPUs: samples/s = gpus ×
/// achieved_fraction × peak(gpu, workload.compute) ÷ (training_flops_per_forward ×
/// flops_per_item) (derived; the factor 3 from Kaplan et al. 2020 §2.1). The demand keeps
/// `gpus`, and the verdict checks it against the pipeline's.
///
/// Ranges: the workload as item_workload says; the gpu must have a peak at workload.compute;
/// gpus in [1, 2^40]; bytes_per_sample in [1e-30 B, 1e30 B]; assumptions as
/// item_training_assumptions says.
constexpr input_demand item_training_demand(const item_workload& workload, const gpu_spec& gpu,
                                            std::int64_t gpus, data_size bytes_per_sample,
                                            const item_training_assumptions& assumptions = {}) {
    constexpr const char* function = "item_training_demand";
    // The field the formula divides by, named as the caller wrote it; the rest as item.hpp does.
    detail::require_positive(function, "workload.flops_per_item", workload.flops_per_item);
    detail::check(workload, function);
    detail::require_count(function, "gpus", gpus);
    detail::require_positive(function, "bytes_per_sample", bytes_per_sample);
    detail::check(assumptions, function);
    const flop_rate p = detail::peak_of(gpu, workload.compute, function, "workload.compute");
    const double rate = static_cast<double>(gpus) * assumptions.achieved_fraction * p.value() /
                        (assumptions.training_flops_per_forward *
                         workload.flops_per_item.value());
    return detail::make_demand(input_item::sample, rate, bytes_per_sample, gpus);
}

/// The name of an item: "sample", "token"; "unknown" for a value that is neither.
constexpr std::string_view to_string(input_item item) {
    switch (item) {
        case input_item::sample: return "sample";
        case input_item::token: return "token";
    }
    return "unknown";
}

}  // namespace gpucalc
