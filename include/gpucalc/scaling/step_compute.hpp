// scaling/step_compute.hpp: how long one GPU computes a pipeline stage's share of a training
// micro-batch, forward and backward: each matmul at its shape (tiles, waves, the roofline) and
// the attention core at its kernel's efficiency; and the assumptions a parallel step time makes
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../memory/training.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../parallelism/costs.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "../workload.hpp"

namespace gpucalc {

/// Every efficiency and overlap a training step time assumes, each a named field with its
/// source. None is fitted to an end-to-end training run: each comes from a kernel or library
/// microbenchmark, or from what the frameworks do by default.
/// Ranges: every efficiency in [1e-30, 1]; every overlap in [0, 1]; the tile sides in
/// [1, 2^20]; bucket_bytes in [1e-30 B, 1e30 B]; the loss's bytes per logit in [0, 1024].
struct step_assumptions {
    /// The fraction of the dense peak one SM reaches inside a large, well-shaped GEMM: the best
    /// dense BF16 GEMM over a shape sweep reaches 80.1% of peak on H100 SXM and 85.9% on A100
    /// SXM (S. Bekman, "Machine Learning Engineering", Maximum Achievable Matmul FLOPS table;
    /// kernel_efficiency's source). Shape is modelled apart (tiles and waves, below).
    /// Uncertain: 0.70–0.86 by GPU.
    double gemm_efficiency = 0.80;
    /// The fraction of HBM bandwidth a streaming kernel reaches: STREAM-style triad 83% on A100
    /// 80GB and 89% on H100 (Azure AI benchmarking guide; kernel_efficiency's source). Used for
    /// a GEMM's memory roof, the unfused softmax and the optimizer step. Uncertain: 0.79–0.90.
    double memory_efficiency = 0.85;
    /// The output tile one SM computes at a time (rows × columns of C). cuBLAS picks among
    /// 256×128, 128×256, 128×128, 64×128 ... (NVIDIA, Matrix Multiplication Background User's
    /// Guide, DU-09799-001, §2.3); 128×128 is the middle of that set: the larger tiles are more
    /// efficient but quantize worse, the smaller the reverse. Uncertain.
    std::int64_t gemm_tile_rows = 128;
    std::int64_t gemm_tile_columns = 128;
    /// The part of a GEMM's output write (its epilogue) that hides behind the main loop: 0, a
    /// tile's epilogue writes C after its K loop ends (NVIDIA, Matrix Multiplication Background
    /// User's Guide §2.1; CUTLASS's non-persistent kernels). So a GEMM takes its compute plus
    /// m·n elements written at the memory efficiency, which makes short-K GEMMs run further
    /// from peak: efficiency(K) ≈ K/(K + K0) of the long-K rate with K0 = (gemm_efficiency ×
    /// peak) ÷ (memory_efficiency × HBM bandwidth) for 2-byte outputs (derived),
    /// as public microbenchmarks of H100-class GEMMs at M = N = 4096–8192 show: K0 ≈ 165–285
    /// (OpenXLA's measured sm_90 matmul table, xla/service/gpu/model/
    /// matmul_interpolator_data.h; TileLang's 8192² FP16 K sweep on H800, benchmark/matmul/
    /// README.md), where that ratio gives about 278 on H100 SXM (144 on A100 80GB). Persistent and stream-K kernels can
    /// overlap the epilogue with the next tile: up to 1. Uncertain: 0–0.5.
    double gemm_epilogue_overlap = 0.0;
    /// FlashAttention's fraction of the dense peak, counting the FLOPs it performs (causal:
    /// the unmasked half): FlashAttention-2 reaches up to 73% of A100's peak forward and up to
    /// 63% backward (Dao 2023, arXiv 2307.08691, §4.1, head dim 128); FlashAttention-3 reaches
    /// about 75% of H100's forward (Shah et al. 2024, §4.1), FlashAttention-2 only 35% there.
    /// Maxima over the paper's sweep: shorter sequences reach less. Uncertain: 0.35–0.75.
    double attention_forward_efficiency = 0.73;
    double attention_backward_efficiency = 0.63;
    /// The part of tensor-parallel communication hidden behind compute: 0, Megatron-LM runs the
    /// all-reduces (Shoeybi et al. 2019 §3, the f and g operators) and sequence parallelism's
    /// all-gathers and reduce-scatters (Korthikanti et al. 2022 §4.2.2) between the matmuls on
    /// the critical path (Narayanan et al. 2021 §3.3: TP communication on the critical path).
    double tensor_comm_overlap = 0.0;
    /// The part of the pipeline's point-to-point sends hidden: 0, the 1F1B schedule of
    /// Narayanan et al. 2021 (§2.2) blocks on each send and receive between stages.
    double pipeline_comm_overlap = 0.0;
    /// The part of MoE all-to-alls hidden: 0, GShard- and Megatron-style dispatch and combine
    /// sit between the router and the experts, on the critical path (Lepikhin et al. 2021).
    double expert_comm_overlap = 0.0;
    /// The part of the data-parallel gradient reduction that may hide behind the last
    /// micro-batch's backward pass: 0,
    /// Megatron-LM's --overlap-grad-reduce and DeepSpeed's overlap_comm are off unless asked
    /// for (Megatron-LM arguments.py; DeepSpeed config docs). 1 models PyTorch DDP, which
    /// overlaps bucket all-reduces with the backward by default (Li et al. 2020, VLDB, §3.2.3).
    double data_parallel_overlap = 0.0;
    /// ZeRO-3: the part of each pass's parameter all-gather that may hide behind that pass's
    /// compute (prefetching the next layers): 1, DeepSpeed turns overlap_comm on by default at
    /// stage 3 (deepspeed/runtime/zero/config.py, overlap_comm's validator) and PyTorch FSDP
    /// prefetches by default (backward_prefetch = BACKWARD_PRE). What the pass cannot hide stays
    /// exposed.
    double parameter_gather_overlap = 1.0;
    /// Context parallelism: the part of each pass's ring exchange of keys and values that may
    /// hide behind that pass's attention core: 1, as ring attention computes on the block in
    /// hand while the next block travels (Liu et al. 2023, "Ring Attention with Blockwise
    /// Transformers", arXiv 2310.01889, §3), which Megatron-LM's context parallelism does with
    /// Transformer Engine's attention (Megatron Core docs, "Context parallelism"). What the
    /// attention cannot hide stays exposed.
    double context_comm_overlap = 1.0;
    /// Whether each weight-gradient GEMM accumulates straight into the gradient buffer. True:
    /// Megatron-LM's gradient accumulation fusion, on by default (megatron/core/tensor_parallel/
    /// layers.py; turned off by --no-gradient-accumulation-fusion). False: the GEMM writes a
    /// fresh gradient that a separate kernel then adds into the buffer, as PyTorch autograd's
    /// gradient accumulation, DDP and FSDP do, and Megatron-LM did before the fusion (2021):
    /// per parameter and micro-batch, the fresh gradient written and read (parameter format)
    /// and the buffer read and written (gradient format), at the memory efficiency (derived).
    bool fused_gradient_accumulation = true;
    /// Whether a pipeline boundary without sequence parallelism is sent scattered: each TP rank
    /// sends 1/TP of the tensor and the receiving TP group all-gathers it over the node's link
    /// (Narayanan et al. 2021 §4.1; Megatron-LM's scatter_gather_tensors_in_pipeline, on in the
    /// 2021–2022 code). False: every TP rank sends the whole tensor and nothing is gathered, as
    /// Megatron Core's point-to-point communication does. With sequence parallelism each rank
    /// sends its own share of the sequence either way.
    bool pipeline_scatter_gather = true;
    /// Whether the optimizer step is one fused kernel. False (the default): mixed-precision
    /// trainers run it as separate passes over the gradients and the state, each streaming
    /// from HBM: the gradient converted into an fp32 copy beside the fp32 master weights, the
    /// fp16 loss scale divided out (Micikevicius et al. 2018, ICLR, §3.2), the global
    /// gradient norm, the Adam update, and the master weights copied into the stored
    /// weights, as Megatron-LM's Float16OptimizerWithFloat16Params runs them
    /// (megatron/optimizer/optimizer.py in the 2021–2022 code, megatron/core/optimizer/ today:
    /// _copy_model_grads_to_main_grads, _unscale_main_grads_and_check_for_nan, then
    /// clip_grad_norm_fp32 in clip_grads.py, the fused Adam's step, and
    /// _copy_main_params_to_model_params). PyTorch AMP's GradScaler.unscale_ and
    /// clip_grad_norm_ are the same unscale and norm passes. True: one update pass that reads
    /// the gradient in its stored format, reads and writes the state and writes the stored
    /// weights, after a norm pass when clipping or loss scaling needs one. Without a master
    /// copy and without loss scaling the two are equal: there is nothing to fuse.
    bool fused_optimizer_step = false;
    /// Whether the step clips the gradient's global norm, which reads every gradient once
    /// before the update: GPT-3 clips at 1.0 (Brown et al. 2020, App. B), as does Megatron-LM
    /// by default (--clip-grad 1.0). The rescale that follows runs only when the norm exceeds
    /// the threshold (Megatron-LM's clip_grad_norm_fp32) and is not counted.
    bool gradient_clipping = true;
    /// HBM bytes the loss moves per logit (token × vocabulary/TP entry) on the last stage,
    /// forward and backward, for a vocabulary-parallel cross-entropy in fp32 as Megatron-LM
    /// runs it unfused (megatron/core/tensor_parallel/cross_entropy.py, on logits upcast with
    /// .float()), one pass per operation (derived): forward 38 = upcast (read 2, write 4), max
    /// (read 4), subtract it (read 4, write 4), exp (read 4, write 4), sum (read 4), normalize
    /// into the softmax the backward keeps (read 4, write 4); backward 14 = scale by the
    /// incoming gradient (read 4, write 4) and cast back to the logits' format (read 4, write
    /// 2). A fused cross-entropy kernel moves far less: about a read of the logits forward,
    /// and a read and a write of them backward (about 2 and 4). Range: [0, 1024].
    double loss_forward_bytes_per_logit = 38.0;
    double loss_backward_bytes_per_logit = 14.0;
    /// Gradient bucket size: the last bucket is reduced only after the backward ends, so it is
    /// always exposed. 25 MB: PyTorch DDP's bucket_cap_mb default (Li et al. 2020 §3.2.3,
    /// §5.2: 25 MB the best of their sweep).
    data_size bucket_bytes = make<megabytes>(25.0);
    /// Whether a tensor-parallel group may span nodes. False (the default): such a layout is
    /// invalid_input, as Megatron-LM's guidance keeps TP within a node (Narayanan et al. 2021
    /// §3.3, takeaway #1).
    bool allow_tensor_parallel_across_nodes = false;
};

namespace detail {

/// HBM bytes the optimizer step moves per trained parameter (derived from the passes
/// step_assumptions::fused_optimizer_step lists). k: the optimizer state with the master
/// copy (optimizer_bytes_per_parameter); g, p: the stored gradient and weight. The update
/// reads and writes the state (2k) and reads the gradient; loss scaling (fp16 compute)
/// needs an overflow check and clipping a norm, one read of the gradient either way.
/// Separate passes: with an fp32 master copy and a gradient stored narrower, the gradient
/// is first converted (read g, write 4) and every later pass reads the fp32 copy (without
/// one, the stored gradient); the unscale reads and writes that gradient; the master weights
/// are copied out afterwards (read 4, write p). Without a master copy the update reads and
/// writes the weights themselves (2p), fused or not.
constexpr double optimizer_step_bytes(const training_job& job, const step_assumptions& a) {
    const double k = optimizer_bytes_per_parameter(job);
    const double g = bytes_per_element(job.gradients);
    const double p = bytes_per_element(job.parameters);
    const bool master = job.fp32_master_weights;
    const bool loss_scaling = job.compute == compute_precision::fp16;
    const double write_weights = master ? p : 2.0 * p;  // without a master: read and write
    if (a.fused_optimizer_step) {
        return 2.0 * k + g + write_weights + (a.gradient_clipping || loss_scaling ? g : 0.0);
    }
    constexpr double fp32 = 4.0;
    const bool converts = master && g < fp32;
    const double convert = converts ? g + fp32 : 0.0;
    const double grad = converts ? fp32 : g;  // what the later passes read
    const double unscale = loss_scaling ? 2.0 * grad : 0.0;
    const double norm = a.gradient_clipping ? grad : 0.0;
    const double copy_out = master ? fp32 + p : 0.0;
    return convert + unscale + norm + (2.0 * k + grad) + (master ? copy_out : write_weights);
}

/// ceil(x) for 0 <= x < 2^53 (derived; constexpr, unlike std::ceil).
constexpr double ceil_whole(double x) {
    const double whole = static_cast<double>(static_cast<std::int64_t>(x));
    return whole < x ? whole + 1.0 : whole;
}

/// What a GEMM's time reads of the GPU, as plain numbers (base units): the peak times the
/// GEMM efficiency, the HBM bandwidth times the memory efficiency, the SMs (0: unknown), the
/// tile, the bytes of one element, and the exposed part of the output write (1 −
/// gemm_epilogue_overlap; 0 leaves it out).
struct gemm_machine {
    double flop_rate;
    double byte_rate;
    double multiprocessors;
    double tile_rows;
    double tile_columns;
    double element_bytes;
    double epilogue = 0.0;
};

/// The compute time of `count` independent GEMMs [m×k]·[k×n] of one batched call: their tiles
/// share the waves (NVIDIA, Matrix Multiplication Background User's Guide §3.1–3.2, as
/// gemm_seconds; a batched GEMM's tiles are scheduled together). No memory roof: the callers
/// count the batched GEMMs' traffic themselves.
GPUCALC_DETAIL_INLINE constexpr double batched_gemm_compute_seconds(const gemm_machine& g,
                                                                    double count, double m,
                                                                    double n, double k) {
    if (!(g.multiprocessors > 0.0)) return count * 2.0 * m * n * k / g.flop_rate;
    const double tiles =
        count * ceil_whole(m / g.tile_rows) * ceil_whole(n / g.tile_columns);
    const double waves = ceil_whole(tiles / g.multiprocessors);
    return waves * g.multiprocessors * (2.0 * g.tile_rows * g.tile_columns * k) / g.flop_rate;
}

/// One GEMM C[m×n] = A[m×k]·B[k×n] in seconds: the larger of its compute time, with the
/// exposed part of its output write added (step_assumptions::gemm_epilogue_overlap's source),
/// and its memory time (roofline/op.hpp's gemm() FLOPs and bytes; Williams et al. 2009). With
/// the SM count known,
/// compute runs in whole waves of whole tiles: ⌈⌈m/r⌉·⌈n/c⌉ ÷ SMs⌉ waves, each as long as one
/// full r×c×k tile on one SM (NVIDIA, Matrix Multiplication Background User's Guide §3.1 tile
/// and §3.2 wave quantization). Split-K and stream-K kernels, which cuBLAS uses for some thin
/// shapes, are not modelled: this is pessimistic for GEMMs of few tiles.
GPUCALC_DETAIL_INLINE constexpr double gemm_seconds(const gemm_machine& g, double m, double n,
                                                    double k) {
    double compute = 2.0 * m * n * k / g.flop_rate;
    if (g.multiprocessors > 0.0) {
        const double tiles = ceil_whole(m / g.tile_rows) * ceil_whole(n / g.tile_columns);
        const double waves = ceil_whole(tiles / g.multiprocessors);
        compute = waves * g.multiprocessors * (2.0 * g.tile_rows * g.tile_columns * k) /
                  g.flop_rate;
    }
    compute += g.epilogue * m * n * g.element_bytes / g.byte_rate;
    const double memory = (m * k + k * n + m * n) * g.element_bytes / g.byte_rate;
    return compute > memory ? compute : memory;
}

/// A GEMM's forward time and its backward time: the gradient with respect to the input,
/// dX[m×k] = dY[m×n]·Wᵀ, and to the weights, dW[k×n] = Xᵀ·dY (reduced over the m tokens):
/// the same FLOPs each as the forward, at their own shapes (Narayanan et al. 2021 §5.1;
/// derived).
struct pass_seconds {
    double forward = 0.0;
    double backward = 0.0;
};

GPUCALC_DETAIL_INLINE constexpr void add_gemm(pass_seconds& t, const gemm_machine& g,
                                              double count, double m, double n, double k) {
    t.forward += count * gemm_seconds(g, m, n, k);
    t.backward += count * (gemm_seconds(g, m, k, n) + gemm_seconds(g, k, n, m));
}

/// One layer's compute on one GPU for one micro-batch, in seconds.
struct layer_seconds {
    pass_seconds gemm;         ///< every weight matmul
    pass_seconds attention;    ///< the attention core: QKᵀ, softmax, ·V
    pass_seconds elementwise;  ///< norms, residual adds, the MLP activation, rotary, dropout
    double recompute = 0.0;    ///< the forward work the recompute mode runs again
};

/// The layer's matmuls on one TP rank of `par` over `tokens` = micro_batch × sequence tokens
/// (with sequence parallelism the matmuls still see every token, after the all-gather;
/// Korthikanti et al. 2022 §4.2.2): QKV [tokens × h]·[h × (q + 2kv)/TP], the output projection
/// [tokens × q/TP]·[q/TP × h], the MLP up (and gate) and down projections split by TP
/// (Shoeybi et al. 2019 §3), and for an MoE layer the router and the E/EP local experts, each
/// seeing tokens·k·EP/E tokens when the router balances them (Lepikhin et al. 2021; derived).
/// Their FLOPs sum to layer_cost_of's forward_gemm.
GPUCALC_DETAIL_INLINE constexpr pass_seconds layer_gemm_seconds(const checked_model& cm,
                                                                const parallel_layout& par,
                                                                double tokens,
                                                                const gemm_machine& g) {
    const transformer& m = cm.spec();
    const attention_widths w = attention_widths_per_gpu(cm, par.tensor);
    const double h = static_cast<double>(m.hidden);
    const double t = static_cast<double>(par.tensor);
    const double ffn = static_cast<double>(m.ffn_hidden) / t;
    const double up = m.mlp == mlp_kind::gated ? 2.0 * ffn : ffn;
    pass_seconds s{};
    add_gemm(s, g, 1.0, tokens, w.q + 2.0 * w.kv, h);
    add_gemm(s, g, 1.0, tokens, h, w.q);
    if (m.experts > 1) {
        const double experts = static_cast<double>(m.experts);
        const double local = experts / static_cast<double>(par.expert);
        const double routed = tokens * static_cast<double>(m.experts_per_token) /
                              experts * static_cast<double>(par.expert);
        add_gemm(s, g, 1.0, tokens, experts, h);
        add_gemm(s, g, local, routed, up, h);
        add_gemm(s, g, local, routed, h, ffn);
    } else {
        add_gemm(s, g, 1.0, tokens, up, h);
        add_gemm(s, g, 1.0, tokens, h, ffn);
    }
    return s;
}

/// The attention core of one layer on one TP rank for `batch` sequences of `sequence` tokens.
/// With FlashAttention: its FLOPs over the causal pairs it computes (the kernel skips masked
/// blocks; Dao 2023 §3.1) at its forward and backward efficiencies, the backward twice the
/// forward's FLOPs. Without: Megatron-LM's unfused path computes all s² scores as batched
/// GEMMs, b·heads of them per call, at their shapes (QKᵀ [s×d]·[d×s] and ·V [s×s]·[s×d]
/// forward; backward dS = dO·Vᵀ at QKᵀ's shape and dV, dQ, dK [s×s]·[s×d] each; Megatron-LM's
/// baddbmm and bmm calls), and streams the scores through HBM four times forward
/// (written by QKᵀ, read and written by the fused scale-mask-softmax, read by ·V) and eight
/// backward (derived), at the memory efficiency. With dropout the unfused path also runs the
/// attention dropout over the b·heads·s² probabilities (the mask and the dropped scores are
/// stored activations of that size, 1 and 2 bytes an element: Korthikanti et al. 2022 §4.1):
/// forward it reads the probabilities, writes the dropped ones and a 1-byte mask, backward it
/// reads the mask and the incoming gradient and writes the outgoing one: 2·e + 1 bytes a score
/// element each way, e the element bytes (5 in 16 bits; derived), at the memory efficiency.
/// FlashAttention fuses the dropout into its kernel (Dao et al. 2022 §3.1): no extra traffic.
GPUCALC_DETAIL_INLINE constexpr pass_seconds attention_seconds(
    const checked_model& cm, const parallel_layout& par, const training_job& job,
    std::int64_t batch, const gemm_machine& g, double peak, const step_assumptions& a) {
    const double q = attention_widths_per_gpu(cm, par.tensor).q;
    const double b = static_cast<double>(batch);
    // Context parallelism: each of the CP ranks scores its s/CP queries against every key, the
    // causal work balanced across ranks by giving each two mirrored chunks (Megatron Core docs,
    // "Context parallelism"; Liu et al. 2023 §3): 1/CP of the pairs (derived).
    const double cp = static_cast<double>(par.context_parallel);
    pass_seconds s{};
    if (job.flash_attention) {
        const double pairs = attention_pairs_unchecked(cm.spec(), job.sequence, job.sequence,
                                                       pair_count::causal) / cp;
        const double flops = 4.0 * b * pairs * q;
        s.forward = flops / (peak * a.attention_forward_efficiency);
        s.backward = 2.0 * flops / (peak * a.attention_backward_efficiency);
    } else {
        const double pairs = attention_pairs_unchecked(cm.spec(), job.sequence, job.sequence,
                                                       pair_count::all_keys) / cp;
        const double d = static_cast<double>(cm.head_dim());
        const double heads = q / d;
        const double elements = b * heads * pairs;
        const double scores = elements * g.element_bytes;
        const double dropout = job.dropout ? elements * (2.0 * g.element_bytes + 1.0) : 0.0;
        // Each rank's s/CP queries against the keys: the same pairs, as a [s/CP × s] block.
        const double queries = static_cast<double>(job.sequence) / cp;
        const double keys = pairs / queries;
        const double count = b * heads;
        const double scores_gemm = batched_gemm_compute_seconds(g, count, queries, keys, d);
        const double values_gemm = batched_gemm_compute_seconds(g, count, queries, d, keys);
        s.forward = scores_gemm + values_gemm + (4.0 * scores + dropout) / g.byte_rate;
        s.backward = scores_gemm + 3.0 * values_gemm + (8.0 * scores + dropout) / g.byte_rate;
    }
    return s;
}

/// The layer's element-wise kernels, memory-bound: each reads its inputs and writes its output
/// once through HBM (derived; the tensors are those of Korthikanti et al. 2022 §4.1's
/// activation count): two norms (read and write h a token), two residual adds (read two,
/// write one), the MLP activation (read the up projection's output, 2·ffn/TP gated or ffn/TP,
/// write ffn/TP), rotary embedding on Q and K (read and write), and with dropout a 1-byte mask
/// written for each of the two residual dropouts. The norm and residual tensors are split by TP
/// only with sequence parallelism. The backward reads the output gradient and the saved input
/// and writes the input gradient: twice the forward's bytes (derived).
GPUCALC_DETAIL_INLINE constexpr pass_seconds elementwise_seconds(const checked_model& cm,
                                                                 const training_job& job,
                                                                 const parallel_layout& par,
                                                                 double tokens,
                                                                 const gemm_machine& g) {
    const transformer& m = cm.spec();
    const attention_widths w = attention_widths_per_gpu(cm, par.tensor);
    const double h = static_cast<double>(m.hidden);
    const double t = static_cast<double>(par.tensor);
    const double ffn = static_cast<double>(m.ffn_hidden) / t;
    const double replicated = par.sequence_parallel && par.tensor > 1 ? h / t : h;
    double elements = 2.0 * 2.0 * replicated + 2.0 * 3.0 * replicated +
                      (m.mlp == mlp_kind::gated ? 3.0 * ffn : 2.0 * ffn);
    if (m.positions == position_kind::rotary) elements += 2.0 * (w.q + w.kv);
    double bytes = tokens * elements * g.element_bytes;
    if (job.dropout) bytes += tokens * 2.0 * replicated;
    pass_seconds s{};
    s.forward = bytes / g.byte_rate;
    s.backward = 2.0 * s.forward;
    return s;
}

/// One layer's compute for one micro-batch, and what recompute adds: full recompute one more
/// forward of the layer (Chen et al. 2016; Narayanan et al. 2021 §3.5), selective the
/// attention core's forward (Korthikanti et al. 2022 §5).
GPUCALC_DETAIL_INLINE constexpr layer_seconds layer_compute_seconds(
    const checked_model& cm, const training_job& job, const training_strategy& s,
    const gemm_machine& g, double peak, const step_assumptions& a) {
    // Each CP rank holds s/CP of every sequence's tokens (Megatron Core docs, "Context
    // parallelism").
    const double tokens = static_cast<double>(s.micro_batch) * static_cast<double>(job.sequence) /
                          static_cast<double>(s.parallel.context_parallel);
    layer_seconds l{};
    l.gemm = layer_gemm_seconds(cm, s.parallel, tokens, g);
    l.attention = attention_seconds(cm, s.parallel, job, s.micro_batch, g, peak, a);
    l.elementwise = elementwise_seconds(cm, job, s.parallel, tokens, g);
    if (s.recompute == recompute::full) {
        l.recompute = l.gemm.forward + l.attention.forward + l.elementwise.forward;
    } else if (s.recompute == recompute::selective) {
        l.recompute = l.attention.forward;
    }
    return l;
}

/// The output head on the last stage: [tokens × h]·[h × vocab/TP] (Megatron-LM's
/// vocabulary-parallel head), then the cross-entropy's memory-bound passes over the
/// tokens × vocab/TP logits (step_assumptions::loss_forward_bytes_per_logit's passes).
GPUCALC_DETAIL_INLINE constexpr pass_seconds head_seconds(const transformer& m,
                                                          const parallel_layout& par,
                                                          double tokens,
                                                          const gemm_machine& g,
                                                          const step_assumptions& a) {
    pass_seconds s{};
    const double vocab_share = static_cast<double>(m.vocab) / static_cast<double>(par.tensor);
    add_gemm(s, g, 1.0, tokens, vocab_share, static_cast<double>(m.hidden));
    const double logits = tokens * vocab_share;
    s.forward += logits * a.loss_forward_bytes_per_logit / g.byte_rate;
    s.backward += logits * a.loss_backward_bytes_per_logit / g.byte_rate;
    return s;
}

}  // namespace detail
}  // namespace gpucalc
