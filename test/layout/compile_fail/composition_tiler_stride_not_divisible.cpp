// expect: composition: the stride of b must divide or be divided by the shape of a
// By-mode: mode 1 of a is (_6,_4):(_8,_100); composing it with 4:4 meets shape 6, which 4 neither divides nor is divided by.
#include <layout/layout.hpp>

using namespace strata;

void trigger() {
  auto a = Layout<Shape<_8, Shape<_6, _4>>, Stride<_1, Stride<_8, Int<100>>>>{};
  (void)composition(a, make_tile(Layout<_2, _1>{}, Layout<_4, _4>{}));
}
