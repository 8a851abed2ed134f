// Strata floor 4: the one description of a GEMM problem that every kernel takes (Ampere and
// Hopper alike), and the choices of how its work is shared out among CTAs.
#pragma once

#include <cstdint>

#include "tile_scheduler.hpp"

namespace strata {

// How the K splits of split-K are added up. serial: the last CTA of each output tile to finish
// adds the partial tiles and runs the epilogue, inside the GEMM kernel (one launch). parallel: a
// second kernel reduces the whole output after the GEMM kernel. automatic: serial for two splits,
// parallel for more (bench/RESULTS.md has the measurements behind the choice).
enum class SplitKMode { automatic, serial, parallel };

// How the work is shared out among CTAs. tiles: one CTA per output tile and K split (split_k).
// stream_k: whole waves of output tiles one CTA each, and the K iterations of the rest (the last
// partial wave and the full wave before it) spread evenly over one wave of CTAs, which add up the
// tiles they share like serial split-K (Stream-K; split_k must be 0 or 1). The wave is this GPU's
// SM count times the CTAs of this kernel one SM holds. automatic: stream_k for problems of at
// least kStreamKMinWaves waves of tiles that are not split over K, tiles otherwise (Stream-K gained
// from 8 waves up and lost below, where its shared tiles are a larger part of the work;
// bench/RESULTS.md has the figures). The Hopper kernel's automatic schedule has its own rule
// (kernel/sm90_work.hpp: split-K for few tiles, Stream-K for a mostly idle last wave over a long K).
enum class Schedule { tiles, stream_k, automatic };
inline constexpr int kStreamKMinWaves = 8;

// Whether the Hopper kernels' TMA loads tell the L2 which operand to keep (sm90_l2_hints.hpp).
// automatic: where one operand is read by a single CTA and the other, of at least 128 rows, by many
// (decode at 128 tokens on 128-row tiles: the weights once, the activations by every CTA), the
// first is loaded evict_first and the second evict_last; nothing elsewhere. off: no hint. Results
// never depend on it; Ampere kernels ignore it.
enum class L2Hints { automatic, off };

// What a GEMM computes and where: D = epilogue(A·B, C), m × n × k, batch_count times.
template <class ElementA, class ElementB, class ElementC, class ElementD, class Functor>
struct GemmArguments {
  int m = 0, n = 0, k = 0;
  ElementA const* A = nullptr;
  int64_t lda = 0;
  ElementB const* B = nullptr;
  int64_t ldb = 0;
  ElementC const* C = nullptr;  // may be null when the epilogue does not read C (beta == 0)
  int64_t ldc = 0;
  ElementD* D = nullptr;
  int64_t ldd = 0;
  Functor epilogue = {};
  int batch_count = 1;
  int64_t batch_stride_a = 0, batch_stride_b = 0, batch_stride_c = 0, batch_stride_d = 0;
  int split_k = 1;  // K splits; 0 picks one so that the grid fills the GPU
  SplitKMode split_k_mode = SplitKMode::automatic;
  Schedule schedule = Schedule::tiles;
  // The order CTAs take output tiles in (tile_scheduler.hpp): `raster_group` tile rows walked
  // together across N (along_n), or tile columns across M (along_m), for L2 reuse; the snake_
  // orders walk the same groups as a space-filling path (each tile next to the one before).
  RasterOrder raster_order = RasterOrder::along_n;
  int raster_group = 8;
  L2Hints l2_hints = L2Hints::automatic;
};

// When the next kernel of the stream, launched with programmatic dependent launch, may start
// (griddepcontrol.launch_dependents). at_exit: once this kernel's CTAs exit. after_loads: once
// every CTA has issued its last operand load, so the next kernel's set-up and the loads of its
// independent operands overlap this kernel's last MMAs and epilogue. automatic: at_exit for
// Gemm<Kernel>; for the tile sets' dispatch (Sm90AutoGemm), the choice measured best for the class.
enum class PdlTrigger { automatic, at_exit, after_loads };

// How a prepared GEMM is launched, beyond its own launch shape.
struct LaunchOptions {
  // Programmatic dependent launch (Hopper kernels): the kernel may start while the previous kernel
  // of the stream finishes, setting up its barriers and prefetching its TMA descriptors meanwhile,
  // and touches global memory only after that kernel's results are visible (griddepcontrol.wait).
  // The previous kernel's tail and this launch's latency then overlap. Ampere kernels ignore it
  // and launch as usual (they cannot wait on the grid before them).
  bool programmatic_dependent_launch = false;
  // With programmatic dependent launch: operands that the kernels before this one in the stream do
  // not write (a model's weights, written long before), which the Hopper kernels then start loading
  // into their first pipeline stages before the previous kernel's results are visible. Declaring
  // an operand the previous kernel does write gives wrong results. Without PDL they change nothing.
  // The dispatch (Sm90AutoGemm) uses them where that was measured faster, with pdl_trigger automatic.
  bool a_independent = false;
  bool b_independent = false;
  // When a following kernel of the stream may start (Hopper kernels; PdlTrigger).
  PdlTrigger pdl_trigger = PdlTrigger::automatic;
};

}  // namespace strata
