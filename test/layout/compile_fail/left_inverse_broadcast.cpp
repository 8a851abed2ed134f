// expect: left_inverse: the layout must be injective
// A stride-0 mode of size 4 maps four coordinates to one index.
#include <layout/layout.hpp>

using namespace strata;

void trigger() {
  (void)left_inverse(Layout<Shape<_2, _4>, Stride<_1, _0>>{});
}
