// expect: composition: the stride of b must divide or be divided by the shape of a
// (3,2):(2,1) cannot be coalesced, and the stride 2 of b neither divides nor is divided by the
// first mode's shape 3.
#include <layout/layout.hpp>

using namespace strata;

void trigger() {
  auto a = Layout<Shape<_3, _2>, Stride<_2, _1>>{};
  auto b = Layout<_2, _2>{};
  (void)composition(a, b);
}
