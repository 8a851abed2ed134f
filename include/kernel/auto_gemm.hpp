// Strata floor 4: the one call for every GPU. strata::AutoGemm takes the same GemmArguments as
// every kernel and, on initialize, runs them on the Hopper tile set (Sm90AutoGemm) where it can
// and on the Ampere one (Sm80AutoGemm) everywhere else:
//
//   using G = strata::AutoGemm<__nv_bfloat16, strata::RowMajor, strata::ColumnMajor, __nv_bfloat16>;
//   G::Arguments args;                          // sizes, pointers, epilogue, as for Gemm<Kernel>
//   G gemm;
//   gemm.initialize(args, workspace, G::workspace_size(args), stream);
//   gemm.run(stream);
//   log(strata::auto_gemm_path_name(gemm.path()), gemm.kernel_name());
//
// The Hopper path runs when the current GPU has compute capability 9.0, this translation unit
// holds sm_90a code and the GPU loaded it (build the unit for all targets: a file name containing
// "allarch" under Strata's CMake, cmake/StrataHelpers.cmake), and the Hopper kernel takes the
// problem (TMA's 16-byte rule, its options). The Ampere path takes the rest, data off the 16-byte
// rule on its narrow-copy configuration.
//
// Each translation unit has its own AutoGemm (the last parameter defaults to a type of an unnamed
// namespace): which kernels it can launch depends on the targets that unit was compiled for, and
// one shared definition would let the linker keep another unit's kernels, even empty ones. Keep an
// AutoGemm inside the .cu file that runs it; do not pass one between translation units.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <initializer_list>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>

#include "sm80_auto_gemm.hpp"
#include "sm90_auto_gemm.hpp"

namespace strata {

enum class AutoGemmPath { sm80, sm90 };

constexpr const char* auto_gemm_path_name(AutoGemmPath p) { return p == AutoGemmPath::sm90 ? "sm90" : "sm80"; }

// The path of a problem: sm90 on compute capability 9.0 alone (sm_90a code runs on no other GPU),
// when the sm_90a code was compiled in and loaded, for a problem the Hopper kernel takes; sm80
// otherwise, also without a GPU (capability 0.0).
constexpr AutoGemmPath auto_gemm_path(int cc_major, int cc_minor, bool sm90a_compiled,
                                      StatusCode hopper_can_implement) {
  const bool hopper_gpu = cc_major == 9 && cc_minor == 0;
  return hopper_gpu && sm90a_compiled && hopper_can_implement == StatusCode::success ? AutoGemmPath::sm90
                                                                                      : AutoGemmPath::sm80;
}

namespace detail {
namespace {
// The translation unit including this header: AutoGemm's default last parameter.
struct ThisTranslationUnit {};
}  // namespace

// Whether this unit is compiled for a compute_90 target (nvcc lists the virtual architectures in
// __CUDA_ARCH_LIST__, alike in every pass; compute_90 and compute_90a both read 900, which the
// probe below tells apart). Without the list: yes, and the probe decides.
constexpr bool compiles_for_sm90() {
#if defined(__CUDA_ARCH_LIST__)
  for (int arch : {__CUDA_ARCH_LIST__})
    if (arch == 900) return true;
  return false;
#else
  return true;
#endif
}

// Only the sm_90a pass gives the probe static shared memory, so its attributes on the current GPU
// say whether the GPU loaded this unit's sm_90a image. The GPU loads one image of a unit's fat
// binary for all of its kernels, so the answer holds for the unit's Hopper kernels too.
template <class Unit>
static __global__ void sm90a_probe_kernel(int* out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ int marker[32];
  marker[threadIdx.x % 32] = int(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = marker[(threadIdx.x + 1) % 32];
#else
  (void)out;
#endif
}

// What the path depends on about the current GPU; zeros without one.
struct AutoGemmDevice {
  int cc_major = 0, cc_minor = 0;
  bool sm90a_loaded = false;  // the GPU runs this unit's sm_90a image
};

// The current GPU's answers, asked once per device and unit (thread-safe); a failed query is not
// kept, so a later call asks again.
template <class Unit>
AutoGemmDevice auto_gemm_device() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();  // clear it: no GPU is not an error here
    return {};
  }
  static std::mutex mutex;
  static std::map<int, AutoGemmDevice> known;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = known.find(device); it != known.end()) return it->second;
  AutoGemmDevice d;
  if (cudaDeviceGetAttribute(&d.cc_major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&d.cc_minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  if (d.cc_major == 9 && d.cc_minor == 0) {
    cudaFuncAttributes attributes{};
    if (cudaFuncGetAttributes(&attributes, sm90a_probe_kernel<Unit>) == cudaSuccess)
      d.sm90a_loaded = attributes.sharedSizeBytes > 0;
    else
      (void)cudaGetLastError();  // no image of this unit for the GPU: the Ampere launch reports it
  }
  known.emplace(device, d);
  return d;
}

// Config as a type of `Unit` alone, so the Hopper kernels instantiated over it are that unit's.
template <class Config, class Unit>
struct Sm90ConfigOfUnit : Config {
  template <int Stages>
  using WithStages = Sm90ConfigOfUnit<typename Sm90WithStages<Config, Stages>::type, Unit>;
};
// The tile set with its configurations made the unit's: derived from the set, so every knob of
// the rule (kDecode, kDecodeWideMinRows, ...) comes through as the set has it, and each
// configuration type replaced; Huge where the set has one.
template <class Tiles, class Unit>
struct Sm90HugeOfUnit : Tiles {};
template <class Tiles, class Unit>
  requires sm90_has_huge<Tiles>
struct Sm90HugeOfUnit<Tiles, Unit> : Tiles {
  using Huge = Sm90ConfigOfUnit<typename Tiles::Huge, Unit>;
};
template <class Tiles, class Unit>
struct Sm90TilesOfUnit : Sm90HugeOfUnit<Tiles, Unit> {
  using Small = Sm90ConfigOfUnit<typename Tiles::Small, Unit>;
  using Medium = Sm90ConfigOfUnit<typename Tiles::Medium, Unit>;
  using Large = Sm90ConfigOfUnit<typename Tiles::Large, Unit>;
  using Decode = Sm90ConfigOfUnit<typename Tiles::Decode, Unit>;
  using DecodeWide = Sm90ConfigOfUnit<typename Tiles::DecodeWide, Unit>;
};

// AutoGemm's Hopper part: Sm90AutoGemm over the unit's Sm90Tiles, or nothing where it cannot run.
template <bool compiled, class T, class LayoutA, class LayoutB, class TD, class Functor, class Unit>
struct AutoGemmHopper {
  struct type {};
};
template <class T, class LayoutA, class LayoutB, class TD, class Functor, class Unit>
struct AutoGemmHopper<true, T, LayoutA, LayoutB, TD, Functor, Unit> {
  using type = Sm90AutoGemm<Sm90TilesOfUnit<Sm90Tiles<T, LayoutA, LayoutB>, Unit>, TD, Functor>;
  static_assert(std::is_same_v<typename type::Arguments, GemmArguments<T, T, TD, TD, Functor>>,
                "AutoGemm: the Hopper path must take the same Arguments as the Ampere one");
};

// "256x128x64, 8 warps, 3 stages": an Ampere configuration, for logs and benches.
template <class Config>
std::string sm80_config_name() {
  std::string s = std::to_string(Config::BM) + "x" + std::to_string(Config::BN) + "x" + std::to_string(Config::BK) +
                  ", " + std::to_string(Config::kThreads / 32) + " warps, " + std::to_string(Config::Stages) +
                  " stages";
  if (Config::kWarpsK > 1) s += ", K in " + std::to_string(Config::kWarpsK) + " slices";
  if (Config::alignment < 16) s += ", " + std::to_string(Config::alignment) + "-byte alignment";
  return s;
}

// The configuration Sm80AutoGemm<Tiles, ...> runs class c on, in words.
template <class Tiles>
std::string sm80_tile_config_name(Sm80TileClass c) {
  switch (c) {
    case Sm80TileClass::narrow: return sm80_config_name<typename Tiles::Narrow>();
    case Sm80TileClass::thin: return sm80_config_name<typename Tiles::Thin>();
    case Sm80TileClass::medium: return sm80_config_name<typename Tiles::Medium>();
    case Sm80TileClass::small: return sm80_config_name<typename Tiles::Small>();
    case Sm80TileClass::unaligned: return sm80_config_name<typename Sm80UnalignedOf<Tiles>::type>();
    default: return sm80_config_name<typename Tiles::Large>();
  }
}
}  // namespace detail

// Whether this unit holds a Hopper path for these types at all: it is compiled for a compute_90
// target, Sm90Tiles covers T and the layouts, and the Hopper epilogue writes TD. When not, no
// Hopper kernel is instantiated and every problem takes the Ampere path.
template <class T, class LayoutA, class LayoutB, class TD>
inline constexpr bool auto_gemm_compiles_hopper =
    detail::compiles_for_sm90() && sm90_tiles_cover<T, LayoutA, LayoutB> &&
    (std::is_same_v<TD, __half> || std::is_same_v<TD, __nv_bfloat16> || std::is_same_v<TD, float>);

// A and B of element type T in the given layouts, C and D of TD; the epilogue Functor.
template <class T, class LayoutA, class LayoutB, class TD, class Functor = LinearCombination,
          class Unit = detail::ThisTranslationUnit>
class AutoGemm {
  using AmpereTiles = Sm80Tiles<T, LayoutA, LayoutB>;
  using Ampere = Sm80AutoGemm<AmpereTiles, TD, Functor>;

 public:
  static constexpr bool kHopperCompiled = auto_gemm_compiles_hopper<T, LayoutA, LayoutB, TD>;

 private:
  using Hopper = typename detail::AutoGemmHopper<kHopperCompiled, T, LayoutA, LayoutB, TD, Functor, Unit>::type;

 public:
  using Arguments = typename Ampere::Arguments;
  static_assert(std::is_same_v<Arguments, GemmArguments<T, T, TD, TD, Functor>>,
                "AutoGemm: the Ampere path must take GemmArguments of A's and B's type T, C's and D's type TD");

  // The path `args` takes on the current GPU (auto_gemm_path).
  static AutoGemmPath path_for(Arguments const& a) {
    if constexpr (kHopperCompiled) {
      const detail::AutoGemmDevice d = detail::auto_gemm_device<Unit>();
      return auto_gemm_path(d.cc_major, d.cc_minor, d.sm90a_loaded, Hopper::can_implement(a).code());
    } else {
      return AutoGemmPath::sm80;
    }
  }

  // Refuses only what neither path computes: the Hopper path's rules never reach the caller (a
  // problem it refuses goes to the Ampere path), the Ampere path's do, and a GPU older than
  // compute capability 8.0.
  static Status can_implement(Arguments const& a) {
    if (path_for(a) == AutoGemmPath::sm90) return Status::success();
    if (Status s = check_ampere_gpu(); !s) return s;
    return Ampere::can_implement(a);
  }

  // Bytes of workspace for the path and configuration `args` takes on the current GPU (the same
  // choice initialize makes there).
  static size_t workspace_size(Arguments const& a) {
    if constexpr (kHopperCompiled) {
      if (path_for(a) == AutoGemmPath::sm90) return Hopper::workspace_size(a);
    }
    return Ampere::workspace_size(a);
  }

  // Chooses the path and configuration for `args` on the current GPU and initializes it.
  Status initialize(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    initialized_ = false;
    path_ = path_for(a);
    if constexpr (kHopperCompiled) {
      if (path_ == AutoGemmPath::sm90) {
        Status s = hopper_.initialize(a, workspace, workspace_bytes, stream);
        if (s) name_ = std::string("sm90 ") + sm90_tile_class_name(hopper_.chosen()) + ": " + hopper_.name();
        initialized_ = bool(s);
        return s;
      }
    }
    if (Status s = check_ampere_gpu(); !s) return s;
    const Sm80TileClass c = Ampere::tile_class(a);
    Status s = ampere_.initialize(a, workspace, workspace_bytes, stream);
    if (s)
      name_ = std::string("sm80 ") + sm80_tile_class_name(c) + ": " + detail::sm80_tile_config_name<AmpereTiles>(c);
    initialized_ = bool(s);
    return s;
  }

  // Runs the prepared GEMM on `stream`; `options` as Gemm::run takes them (the Ampere path
  // launches without programmatic dependent launch).
  Status run(cudaStream_t stream = nullptr, LaunchOptions const& options = {}) const {
    if (!initialized_) return {StatusCode::not_initialized, "run() before a successful initialize()"};
    if constexpr (kHopperCompiled) {
      if (path_ == AutoGemmPath::sm90) return hopper_.run(stream, options);
    }
    return ampere_.run(stream);
  }

  // initialize + run.
  Status operator()(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    if (Status s = initialize(a, workspace, workspace_bytes, stream); !s) return s;
    return run(stream);
  }

  // After a successful initialize: the path taken, and the kernel in words, e.g.
  // "sm90 large: cooperative 128x256x64, 4 stages, cluster 1x1; whole tiles" (the Hopper path names
  // its work plan too: split-K, Stream-K, K pairs) or "sm80 unaligned: 128x128x32, ...".
  AutoGemmPath path() const { return path_; }
  std::string const& kernel_name() const { return initialized_ ? name_ : not_initialized_name(); }

 private:
  // The Ampere kernels need compute capability 8.0; unknown (no GPU) is left to the launch.
  static Status check_ampere_gpu() {
    const detail::AutoGemmDevice d = detail::auto_gemm_device<Unit>();
    if (d.cc_major == 0 || d.cc_major >= 8) return Status::success();
    return {StatusCode::unsupported, "strata::AutoGemm needs compute capability 8.0 or newer; this GPU has " +
                                         std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)};
  }
  static std::string const& not_initialized_name() {
    static const std::string name = "not initialized";
    return name;
  }

  Ampere ampere_;
  [[no_unique_address]] Hopper hopper_;
  AutoGemmPath path_ = AutoGemmPath::sm80;
  bool initialized_ = false;
  std::string name_;
};

}  // namespace strata
