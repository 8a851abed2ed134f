// wgmma_svg_sm90: draws the pictures of docs/atoms_sm90.md with Strata's own SVG code
// (layout/svg.hpp), from the atoms' and shared-memory helpers' own layouts:
//
//   wgmma_svg_sm90 docs/images      writes the accumulator TV layout of m64nNk16 (N = 16), the
//                                   shared-memory swizzle atoms, K- and MN-major, every swizzle,
//                                   and a K-major stage of BK = 128 (two atoms along K)
//
// The atoms are drawn in 16-byte chunks (the unit a swizzle moves), each cell labelled with the
// chunk it lands in and coloured by that chunk modulo 8: in a column of a swizzled atom all eight
// colours appear, which is why 8 rows read down a column hit 8 different bank groups. Run bare (as
// the example test does), it lists what it would write. Host code only; no GPU needed.
#include <atom/gmma_desc_sm90.hpp>
#include <atom/mma_sm90.hpp>
#include <collective/sm90_operand.hpp>
#include <layout/svg.hpp>

#include <fstream>
#include <iostream>
#include <string>

namespace {

using namespace strata;

template <class Draw>
void write(std::string const& dir, std::string const& name, Draw&& draw) {
  if (dir.empty()) {
    std::cout << "would write " << name << '\n';
    return;
  }
  std::ofstream out(dir + "/" + name);
  draw(out);
  std::cout << "wrote " << dir << '/' << name << '\n';
}

// One swizzle atom of 16-bit elements, seen in 16-byte chunks (upcast by 8 elements).
template <GmmaMajor Major, GmmaSwizzle S>
void write_atom(std::string const& dir, std::string const& name) {
  auto chunks = upcast<8>(gmma_layout_atom<__nv_bfloat16, Major, S>());
  write(dir, name, [&](std::ostream& os) { print_svg(os, chunks, 8); });
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "";
  write(dir, "sm90_wgmma_64x16_accumulator_tv.svg", [](std::ostream& os) {
    print_svg_tv(os, SM90_64xNx16_F32BF16BF16_SS<16>::LayoutC_TV{}, Shape<_64, _16>{});
  });
  write_atom<GmmaMajor::K, GmmaSwizzle::none>(dir, "sm90_smem_k_major_none_chunks.svg");
  write_atom<GmmaMajor::K, GmmaSwizzle::sw32>(dir, "sm90_smem_k_major_sw32_chunks.svg");
  write_atom<GmmaMajor::K, GmmaSwizzle::sw64>(dir, "sm90_smem_k_major_sw64_chunks.svg");
  write_atom<GmmaMajor::K, GmmaSwizzle::sw128>(dir, "sm90_smem_k_major_sw128_chunks.svg");
  write_atom<GmmaMajor::MN, GmmaSwizzle::none>(dir, "sm90_smem_mn_major_none_chunks.svg");
  write_atom<GmmaMajor::MN, GmmaSwizzle::sw32>(dir, "sm90_smem_mn_major_sw32_chunks.svg");
  write_atom<GmmaMajor::MN, GmmaSwizzle::sw64>(dir, "sm90_smem_mn_major_sw64_chunks.svg");
  write_atom<GmmaMajor::MN, GmmaSwizzle::sw128>(dir, "sm90_smem_mn_major_sw128_chunks.svg");
  // A K-major stage of 16 rows by BK = 128 bf16 (the decode tile's B): K chunks 0-7 in the first
  // atom (offsets 0-127 in chunks), 8-15 in the second, which starts after all 16 rows of the first.
  write(dir, "sm90_smem_k_major_bk128_stage_chunks.svg", [](std::ostream& os) {
    print_svg(os, upcast<8>(typename Sm90Operand<__nv_bfloat16, GmmaMajor::K, 16, 128>::SmemLayout{}), 8);
  });
  return 0;
}
