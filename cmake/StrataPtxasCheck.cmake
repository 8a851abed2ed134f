# Runs one ptxas check:
#   cmake -DCOMPILER=<nvcc> -DSOURCE=<file.cu> -DINCLUDE_DIR=<include> -P StrataPtxasCheck.cmake
# Compiles SOURCE for sm_90a with -Xptxas -v and fails where ptxas reports that it serialized a
# kernel's wgmma ("Potential Performance Loss: wgmma.mma_async instructions are serialized ..."):
# a kernel that still computes the right answer, far slower, which no other test would notice.
cmake_minimum_required(VERSION 3.25)

foreach(var IN ITEMS COMPILER SOURCE INCLUDE_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "StrataPtxasCheck.cmake: -D${var}=... is required")
  endif()
endforeach()

get_filename_component(stem "${SOURCE}" NAME_WE)
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env LC_ALL=C "${COMPILER}" -std=c++20 --expt-relaxed-constexpr -O3
    -gencode arch=compute_90a,code=sm_90a -Xptxas -v -c -o "${CMAKE_CURRENT_BINARY_DIR}/${stem}.o"
    "-I${INCLUDE_DIR}" "${SOURCE}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)

if(NOT result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} did not compile:\n${output}")
endif()
string(REGEX MATCHALL "[^\n]*Potential Performance Loss: wgmma[^\n]*" serialized "${output}")
if(serialized)
  list(JOIN serialized "\n" lines)
  message(FATAL_ERROR "ptxas serialized the wgmma of a kernel in ${SOURCE}:\n${lines}")
endif()
string(REGEX MATCHALL "Compiling entry function" kernels "${output}")
list(LENGTH kernels count)
message(STATUS "${count} entry functions, none with serialized wgmma")
