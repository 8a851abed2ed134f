// layout_tour: a short walk through Strata's layout algebra, printed. It needs no GPU; the bench
// workflow runs it on machines that have none. docs/layout.md tells the same story at length.
#include <layout/layout.hpp>
#include <layout/print.hpp>

#include <iostream>
#include <string>

using namespace strata;

namespace {

void section(std::string const& title, std::string const& why) {
  std::cout << "\n== " << title << "\n" << why << "\n\n";
}

template <class L>
void show(std::string const& expression, L const& result) {
  std::cout << "  " << expression << " = " << result << '\n';
}

}  // namespace

int main() {
  std::cout << "Strata layout tour. A layout is a function from coordinates to indices, written\n"
               "shape:stride: index = sum of coordinate * stride over the modes. Static integers\n"
               "print with a leading underscore (_4); they cost nothing at run time.\n";

  section("make_layout: column-major by default",
          "A 4x6 matrix stored column by column: moving down a column steps by 1, across a row by 4.\n"
          "Rows of the table are mode 0, columns mode 1, each cell the index of its coordinate.");
  auto col_major = make_layout(make_shape(_4{}, _6{}));
  print_layout(col_major);

  section("Row-major is another stride, not another type",
          "make_layout(shape, LayoutRight{}) makes the last mode fastest.");
  auto row_major = make_layout(make_shape(_4{}, _6{}), LayoutRight{});
  print_layout(row_major);

  section("Modes nest",
          "A mode may itself be a layout: here mode 1 is (2,3):(1,8). Coordinate n of mode 1 is\n"
          "split colexicographically into (n % 2, n / 2), so columns come in interleaved pairs.");
  print_layout(make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8))));

  section("coalesce: the same function with the fewest modes",
          "Adjacent modes that continue each other merge, modes of size 1 vanish.");
  show("coalesce(" + to_string(col_major) + ")", coalesce(col_major));
  show("coalesce(" + to_string(row_major) + ")", coalesce(row_major));
  auto nested = make_layout(make_shape(_2{}, make_shape(_1{}, _6{})), make_stride(_1{}, make_stride(_6{}, _2{})));
  show("coalesce(" + to_string(nested) + ")", coalesce(nested));

  section("composition: layouts are functions, so they compose",
          "composition(a, b)(i) == a(b(i)). Reading the first 4x2 block of the row-major matrix:");
  auto block = make_layout(make_shape(_4{}, _2{}), make_stride(_1{}, _4{}));
  auto first_block = composition(row_major, block);
  show("composition(row_major, " + to_string(block) + ")", first_block);
  print_layout(first_block);

  section("complement: the layout of \"everything else\"",
          "complement(a, n) enumerates the repetitions of a that fill [0, n) without overlap.");
  show("complement(4:2, 24)", complement(make_layout(_4{}, _2{}), _24{}));
  show("complement((2,2):(1,6), 24)", complement(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _6{})), _24{}));
  show("right_inverse(row_major)", right_inverse(row_major));

  section("logical_divide: cut into tiles",
          "Dividing the 4x6 column-major matrix by 2x3 tiles: mode 0 of each result mode walks\n"
          "inside a tile, mode 1 walks over the tiles. zipped_divide gathers (tile, tiles).");
  auto tiler = make_tile(_2{}, _3{});
  show("logical_divide(col_major, (2,3))", logical_divide(col_major, tiler));
  auto tiles = zipped_divide(col_major, tiler);
  show("zipped_divide(col_major, (2,3))", tiles);
  std::cout << "  Column t lists the elements of tile t; row j holds element j of every tile:\n";
  print_layout(tiles);

  section("logical_product: repeat a tile",
          "logical_product(a, b) places copies of a as b says, in the space a leaves free.");
  auto tile = make_layout(make_shape(_2{}, _2{}));
  auto grid = make_layout(make_shape(_2{}, _3{}));
  show("logical_product(" + to_string(tile) + ", " + to_string(grid) + ")", logical_product(tile, grid));

  section("blocked_product and raked_product: the two ways to lay tiles in 2-D",
          "Blocked: each 2x2 tile stays together (0..3 in the top-left corner). Raked: a tile's\n"
          "elements are spread across the grid, one in each block: a cyclic distribution.");
  std::cout << "  blocked_product(tile, grid):\n";
  print_layout(blocked_product(tile, grid));
  std::cout << "  raked_product(tile, grid):\n";
  print_layout(raked_product(tile, grid));
  show("tile_to_shape(" + to_string(tile) + ", (4,6))", tile_to_shape(tile, make_shape(_4{}, _6{})));

  section("Vectors and element types",
          "max_common_vector says how many elements move together between two layouts;\n"
          "upcast re-expresses a layout in wider elements (two halves become one float).");
  show("max_common_vector(col_major, col_major)", max_common_vector(col_major, col_major));
  show("max_common_vector(col_major, row_major)", max_common_vector(col_major, row_major));
  show("upcast<2>(row_major)", upcast<2>(row_major));

  std::cout << "\nMore in docs/layout.md; draw any layout with examples/layout_svg.\n";
  return 0;
}
