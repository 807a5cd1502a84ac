// catalog/workloads.hpp: published models that are not served as LLMs (workload/item.hpp), each
// with its source; FLOPs count a multiply-add as 2 FLOPs throughout
#pragma once

#include <array>

#include "../units.hpp"
#include "../workload/item.hpp"

namespace gpucalc {
namespace catalog {

/// FLOPs per multiply-accumulate: vision model tables (torchvision's "GFLOPS", timm's "GMACs",
/// the ResNet paper's "FLOPs") count one multiply-add as one operation; gpucalc's op_cost and
/// gemm count it as two, as the GPU datasheets' FLOP/s do.
inline constexpr double flops_per_multiply_add = 2.0;

/// ResNet-50 on one 224×224 RGB image, fp16 (He, Zhang, Ren and Sun 2016, "Deep Residual
/// Learning for Image Recognition", CVPR, Table 1), as torchvision builds it (v1.5: the stride
/// of a downsampling block on its 3×3 convolution).
/// - 4,089,184,256 multiply-adds: torchvision's ResNet50_Weights.IMAGENET1K_V1 lists "GFLOPS
///   4.09" (pytorch.org/vision, models/resnet50; its figure counts multiply-adds), and summing
///   Table 1's layers gives exactly this count (tests/unit/item_workload_test.cpp). He et al.
///   print 3.8×10⁹ "FLOPs" (multiply-adds) for v1, whose stride sits on the 1×1 convolution.
///   × 2 = 8.178 GFLOP.
/// - 25,557,032 parameters (torchvision's num_params; He et al. do not print it; the sum over
///   Table 1's layers with two batch-norm parameters per channel gives the same).
/// - Moved: the 150,528-element input, and each convolution's output (11,113,984 elements in
///   all, the same sum) written once and read once, batch norm and ReLU fused (derived).
///   Uncertain: unfused frameworks move 2–3× more.
/// - Live: 1,806,336 elements, a bottleneck block's input, first output and output at once at
///   its largest (stage 2's first block; derived). Uncertain: allocators may hold 2× more.
inline constexpr item_workload resnet50 = [] {
    item_workload w{};
    w.name = "ResNet-50 (224x224)";
    w.flops_per_item = make<flops>(flops_per_multiply_add * 4089184256.0);
    w.parameters = 25557032.0;
    w.weights = formats::fp16;
    w.moved_elements_per_item = 150528.0 + 2.0 * 11113984.0;
    w.live_elements_per_item = 1806336.0;
    w.activations = formats::fp16;
    w.compute = compute_precision::fp16;
    return w;
}();

/// BERT-base on one 128-token sequence, fp16 (Devlin, Chang, Lee and Toutanova 2019, "BERT",
/// NAACL, §3: L = 12 layers, H = 768, A = 12 heads, 110 M parameters; feed-forward 4H = 3,072).
/// - FLOPs derived: 2 × (per layer, per token: 4H² for Q, K, V and the output projection + 2·H·4H
///   for the feed-forward; and 2·T·H for the scores and the weighted values) × 12 layers × T,
///   T = 128: 11,173,625,856 multiply-adds, 22.35 GFLOP. Embedding lookups, biases, norms and
///   softmax are left out (< 1%).
/// - 110 M parameters as the paper states; the 23.4 M of the token embedding table are read
///   only for the sequence's rows, so the weight traffic is overstated by ~21% (uncertain).
/// - Moved (derived): per layer Q, K, V, the attention output, its projection, two norms, the
///   3,072-wide hidden and the feed-forward output (9,216 × T elements) and the scores and
///   probabilities (2 × 12 × T²), each written and read once; plus the embeddings.
/// - Live (derived): Q, K, V, the scores and probabilities and the residual at once.
inline constexpr item_workload bert_base_128 = [] {
    item_workload w{};
    w.name = "BERT-base (128 tokens)";
    w.flops_per_item = make<flops>(flops_per_multiply_add * 11173625856.0);
    w.parameters = 110e6;
    w.weights = formats::fp16;
    w.moved_elements_per_item = 37945344.0;
    w.live_elements_per_item = 786432.0;
    w.activations = formats::fp16;
    w.compute = compute_precision::fp16;
    return w;
}();

/// ViT-B/16 on one 224×224 image, fp16 (Dosovitskiy et al. 2021, "An Image is Worth 16x16
/// Words", ICLR, Table 1: ViT-Base, 12 layers, hidden 768, MLP 3,072, 12 heads, 86 M
/// parameters; 196 patches + the class token = 197 tokens).
/// - 17,563,828,224 multiply-adds (derived as for BERT-base at T = 197, plus the patch
///   embedding 196·768·768 and the 768 × 1,000 head); torchvision's ViT_B_16_Weights lists
///   "GFLOPS 17.56", the same count of multiply-adds, and 86,567,656 parameters. × 2 = 35.13
///   GFLOP. (Tables quoting "17.5–17.6 GFLOPs" for ViT-B/16 or DeiT-B count multiply-adds.)
/// - Moved and live derived as for BERT-base, at T = 197 with the image as input.
inline constexpr item_workload vit_b16 = [] {
    item_workload w{};
    w.name = "ViT-B/16 (224x224)";
    w.flops_per_item = make<flops>(flops_per_multiply_add * 17563828224.0);
    w.parameters = 86567656.0;
    w.weights = formats::fp16;
    w.moved_elements_per_item = 66380352.0;
    w.live_elements_per_item = 1536600.0;
    w.activations = formats::fp16;
    w.compute = compute_precision::fp16;
    return w;
}();

inline constexpr std::array<const item_workload*, 3> all_item_workloads{&resnet50, &bert_base_128,
                                                                        &vit_b16};

}  // namespace catalog
}  // namespace gpucalc
