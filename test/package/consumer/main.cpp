#include <layout/layout.hpp>

int main() { return strata::size(strata::make_layout(strata::make_shape(2, 3))) == 6 ? 0 : 1; }
