// Strata: tensors — include this one header for all of the tensor vocabulary.
//
//   tensor_base.hpp       Tensor, make_tensor, make_fragment_like, slicing with `_`, recast,
//                         make_identity_tensor, size/rank/shape/layout and the layout functions
//                         applied to tensors
//   partition.hpp         local_tile, local_partition, inner_partition, outer_partition
//   tensor_algorithm.hpp  copy, copy_if, fill, clear, gemm
//
// partition.hpp and tensor_algorithm.hpp build on tensor_base.hpp, not on this file: no include
// cycle, and each of them still compiles alone.
#pragma once

#include "tensor_base.hpp"
#include "partition.hpp"
#include "tensor_algorithm.hpp"
