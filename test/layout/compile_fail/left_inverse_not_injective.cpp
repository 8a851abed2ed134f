// expect: left_inverse: the layout must be injective
// (2,2):(1,1) has no left inverse: two coordinates share index 1.
#include <layout/layout.hpp>

using namespace strata;

void trigger() {
  (void)left_inverse(Layout<Shape<_2, _2>, Stride<_1, _1>>{});
}
