// expect: complement: the layout must be injective
// (4,2):(2,2): the second mode starts inside the first one's extent.
#include <layout/layout.hpp>

using namespace strata;

void trigger() {
  (void)complement(Layout<Shape<_4, _2>, Stride<_2, _2>>{});
}
