// layout_svg: draws the layout you type, as an SVG picture on standard output.
//
//   layout_svg '(4,(2,3)):(2,(1,8))' > layout.svg     each cell (m, n) labelled with its index
//   layout_svg --mod 8 '(8,8):(8,1)' > layout.svg     coloured by index % 8 (banks, chunks)
//   layout_svg --tv '((4,8),(2,2)):((32,1),(16,8))' 16 8 > tv.svg
//                                                     a thread–value layout over an M x N tile:
//                                                     cells labelled T<thread>V<value>
//
// The notation is the one operator<< prints (static integers like `_4` are accepted). Rows are
// mode 0 and columns mode 1; a rank-1 layout is one row, and modes 1, 2, ... of a layout of higher
// rank are drawn together as the columns. Bad input is refused with the column where it went wrong.
#include <layout/parse.hpp>
#include <layout/svg.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

namespace {

constexpr long long max_cells = 65536;  // beyond this the picture is too large to look at
constexpr char example_layout[] = "(4,(2,3)):(2,(1,8))";

int usage(std::ostream& os, int status) {
  os << "usage: layout_svg [--mod K] LAYOUT > out.svg\n"
        "       layout_svg --tv TV_LAYOUT M N > out.svg\n"
        "LAYOUT is shape:stride, e.g. '" << example_layout << "'. Cells are shaded by index, or\n"
        "coloured by index % K with --mod K. TV_LAYOUT maps (thread, value) to the column-major\n"
        "index m + n * M of an M x N tile.\n";
  return status;
}

// The message, then the input with a caret under the column where it went wrong.
strata::RuntimeLayout parse_or_explain(std::string const& text) {
  try {
    return strata::parse_layout(text);
  } catch (strata::LayoutParseError const& e) {
    std::cerr << "layout_svg: " << e.what() << "\n  " << text << "\n  " << std::string(e.column() - 1, ' ')
              << "^\n";
    std::exit(2);
  }
}

// A count from the command line: a positive integer, nothing else.
long long parse_extent(char const* arg, char const* what) {
  char* end = nullptr;
  long long v = std::strtoll(arg, &end, 10);
  if (end == arg || *end != '\0' || v < 1 || v > max_cells) {
    std::cerr << "layout_svg: " << what << " must be a whole number from 1 to " << max_cells << ", got '"
              << arg << "'\n";
    std::exit(2);
  }
  return v;
}

void refuse_if_too_large(long long cells) {
  if (cells > max_cells) {
    std::cerr << "layout_svg: " << cells << " cells are too many to draw (at most " << max_cells << ")\n";
    std::exit(2);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string const first = argc > 1 ? argv[1] : "";
  if (first == "-h" || first == "--help") return usage(std::cout, 0);

  if (first == "--tv") {
    if (argc != 5) return usage(std::cerr, 2);
    auto tv = parse_or_explain(argv[2]);
    long long tile_m = parse_extent(argv[3], "M"), tile_n = parse_extent(argv[4], "N");
    refuse_if_too_large(tile_m * tile_n);
    if (tv.rank() > 2) tv = strata::group(tv, 1, tv.rank());  // values: every mode after the thread mode
    try {
      strata::print_svg_tv(std::cout, tv, strata::make_shape(tile_m, tile_n));
    } catch (std::out_of_range const& e) {
      std::cerr << "layout_svg: " << e.what() << '\n';
      return 2;
    }
    return 0;
  }

  int colour_modulus = 0;
  if (first == "--mod") {
    if (argc != 4) return usage(std::cerr, 2);
    colour_modulus = int(parse_extent(argv[2], "K"));
    argv += 2;
    argc -= 2;
  }
  if (argc > 2) return usage(std::cerr, 2);
  std::string text = argc > 1 ? argv[1] : "";
  if (argc == 1) {
    // Run bare (as the example test does), it draws the example from the usage line.
    std::cerr << "layout_svg: no layout given, drawing " << example_layout << " (--help for usage)\n";
    text = example_layout;
  }
  auto layout = parse_or_explain(text);
  refuse_if_too_large(layout.size());
  if (layout.rank() > 2) {
    auto grouped = strata::group(layout, 1, layout.rank());
    std::cerr << "layout_svg: rank " << layout.rank() << ": modes 1.." << layout.rank() - 1
              << " are drawn together as the columns, as " << grouped << '\n';
    layout = grouped;
  }
  strata::print_svg(std::cout, layout, colour_modulus);
  return 0;
}
