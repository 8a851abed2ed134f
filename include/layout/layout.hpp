// Strata: the layout algebra on plain layouts — include this one header for all of it.
//
//   integer.hpp        Int<N>, static/dynamic integer arithmetic
//   tuple.hpp          tuple and generic tuple algorithms
//   int_tuple.hpp      shapes, strides, coordinates: product, flatten, crd2idx, idx2crd, slicing
//   layout_base.hpp    Layout, make_layout, accessors, flatten/append/prepend/select/group
//   composition.hpp    coalesce, filter, composition
//   complement.hpp     complement, right_inverse, left_inverse
//   divide_product.hpp logical/zipped/tiled/flat divide and product, blocked/raked, tile_to_shape
//   recast.hpp         max_common_vector/layout, upcast, downcast, recast_layout
//   io.hpp             operator<< in shape:stride notation
#pragma once

#include "integer.hpp"
#include "tuple.hpp"
#include "int_tuple.hpp"
#include "layout_base.hpp"
#include "composition.hpp"
#include "complement.hpp"
#include "divide_product.hpp"
#include "recast.hpp"
#include "io.hpp"
