# Helpers that let the tree grow by adding files: a new test, bench or example is a new file in
# the right folder, picked up by a CONFIGURE_DEPENDS glob (the build re-runs CMake when the set
# of files changes).
#
#   strata_cuda_arch_options(<out-var> <name>)     gencode options for a file, by its name
#   strata_add_host_executable(<target> <src>...)  g++ executable linked with strata::strata
#   strata_add_cuda_executable(<target> <src>...)  nvcc executable, per-file architectures
#   strata_add_test_folder(...)                    one GoogleTest executable per folder
#   strata_add_compile_fail_tests(...)             one CTest test per file that must not compile
#   strata_add_header_checks(...)                  every public header compiles on its own

include_guard(GLOBAL)

# Architecture rule, by file name (or header path): a name containing "sm90" is Hopper code and
# compiles for sm_90a (wgmma, setmaxnreg and TMA multicast need the "a"). Everything else is the
# Ampere path, compiled from compute_80 into sm_80 and sm_90 machine code: sm_80 SASS does not
# load on a Hopper GPU, so the sm_90 code is how the Ampere kernels run on an H100/H200.
# A name containing "allarch" compiles for both, one fat binary (the Ampere targets, then sm_90a):
# code that chooses its path at run time, strata::AutoGemm (include/kernel/auto_gemm.hpp).
# Two distinct --generate-code options, not "-gencode x -gencode y": CMake de-duplicates
# repeated options, which would tear "-gencode" from its argument.
# STRATA_DEVICE_CODE: what the CUDA units carry. Empty or sass: machine code (ptxas assembles it;
# what a GPU machine runs). ptx: the PTX alone, no ptxas run (the CI machine, which runs no GPU
# code: every unit is still compiled through cicc, and ptxas sees the same PTX on a GPU machine's
# build); about a tenth of a kernel unit's time. ptx-O0: that PTX unoptimized (cicc -O0: the
# front end, every instantiation and code generation, without NVVM's optimizer; cicc is most of a
# kernel unit's time and its optimizer about half of cicc): for a machine that only checks that
# everything compiles, never for code that runs.
set(STRATA_DEVICE_CODE "" CACHE STRING "CUDA units carry sass (machine code), ptx (no ptxas run) or ptx-O0 (unoptimized, compile check only); empty: sass")
if(NOT STRATA_DEVICE_CODE MATCHES "^(|sass|ptx|ptx-O0)$")
  message(FATAL_ERROR "STRATA_DEVICE_CODE: expected sass, ptx, ptx-O0 or nothing, got '${STRATA_DEVICE_CODE}'")
endif()
set(strata_ptx_only OFF)
if(STRATA_DEVICE_CODE MATCHES "^ptx")
  set(strata_ptx_only ON)
endif()
if(STRATA_DEVICE_CODE STREQUAL "ptx-O0")
  string(APPEND CMAKE_CUDA_FLAGS " -Xcicc -O0")
endif()
if(strata_ptx_only)
  set(STRATA_GENCODE_SM90A "--generate-code=arch=compute_90a,code=compute_90a")
else()
  set(STRATA_GENCODE_SM90A "--generate-code=arch=compute_90a,code=sm_90a")
endif()
# STRATA_AMPERE_SASS: the machine code the Ampere path is built into (default both, 80 and 90; the
# CI machine, which runs no GPU code, builds 90 alone to halve the assembler's time).
set(STRATA_AMPERE_SASS "" CACHE STRING "SASS targets of the Ampere path from compute_80: 80, 90 or both (empty: both)")
if(STRATA_AMPERE_SASS STREQUAL "")
  set(strata_ampere_sass 80 90)
else()
  set(strata_ampere_sass ${STRATA_AMPERE_SASS})
endif()
set(STRATA_GENCODE_AMPERE "")
foreach(sm IN LISTS strata_ampere_sass)
  if(NOT sm MATCHES "^(80|90)$")
    message(FATAL_ERROR "STRATA_AMPERE_SASS: each entry must be 80 or 90, got '${sm}'")
  endif()
  list(APPEND STRATA_GENCODE_AMPERE "--generate-code=arch=compute_80,code=sm_${sm}")
endforeach()
if(strata_ptx_only)
  set(STRATA_GENCODE_AMPERE "--generate-code=arch=compute_80,code=compute_80")
endif()

# Two more settings for a machine that compiles everything but runs no GPU code and has few cores
# (the CI machine: .ci/run sets both through the test preset); each defaults to what a GPU
# machine wants.
# STRATA_LINEINFO: CUDA code carries line information (-lineinfo, for compute-sanitizer's and the
# profilers' source lines; about a tenth of a kernel unit's nvcc time). Empty or ON: yes.
set(STRATA_LINEINFO "" CACHE STRING "CUDA code compiled with -lineinfo: ON or OFF (empty: ON)")
if(STRATA_LINEINFO STREQUAL "" OR STRATA_LINEINFO)
  set(strata_lineinfo -lineinfo)
else()
  set(strata_lineinfo "")
endif()
# STRATA_HOST_OPT: the g++ optimization level of the host-only executables (the layout tests and
# the host examples) and of the CUDA units' host side (below), e.g. 1 or g, instead of the build
# type's. At -O1 the three costliest layout tests compile in 150 s of CPU instead of 247 at -O3
# (-O0 is no faster: 160 s, the code it emits is larger); -Og takes another 17 % off the costliest
# (59 against 71 s); they run in seconds either way. Empty: the build type's.
set(STRATA_HOST_OPT "" CACHE STRING "g++ -O level of the host-only executables, e.g. 1 (empty: the build type's)")
if(NOT STRATA_HOST_OPT MATCHES "^(|0|1|2|3|s|g)$")
  message(FATAL_ERROR "STRATA_HOST_OPT: expected 0, 1, 2, 3, s, g or nothing, got '${STRATA_HOST_OPT}'")
endif()

# STRATA_ALLARCH_AMPERE: an "allarch" unit carries the Ampere targets beside sm_90a. Empty or ON:
# yes (a GPU machine: the unit runs on Ampere GPUs too). OFF: sm_90a alone, one cicc pass instead
# of two (the CI machine, which runs no GPU code: the unit still compiles whole, its Ampere kernels
# in the sm_90a pass, and those kernels' compute_80 code is compiled by the units that test them
# alone: auto_gemm_allarch_test.cu's Sm80AutoGemm over Sm80Tiles<bf16> by sm80_gemm_tiles_test.cu
# and gemm_stress_bf16.cu). About 100 s of CI's 2 cores.
set(STRATA_ALLARCH_AMPERE "" CACHE STRING "allarch units also compile for the Ampere targets: ON or OFF (empty: ON)")
if(STRATA_ALLARCH_AMPERE STREQUAL "" OR STRATA_ALLARCH_AMPERE)
  set(strata_gencode_allarch ${STRATA_GENCODE_AMPERE} ${STRATA_GENCODE_SM90A})
else()
  set(strata_gencode_allarch ${STRATA_GENCODE_SM90A})
endif()

# With STRATA_HOST_OPT set, the host side of the CUDA units too is compiled at that level (nvcc's
# -O is the host compiler's: the device code's optimization is ptxas's and cicc's own). Their host
# code is the test harnesses, which the CI machine compiles but never runs.
if(NOT STRATA_HOST_OPT STREQUAL "")
  foreach(config RELEASE RELWITHDEBINFO MINSIZEREL DEBUG)
    string(REGEX REPLACE "(^| )-O[0-3sg]( |$)" "\\1\\2" flags "${CMAKE_CUDA_FLAGS_${config}}")
    if(STRATA_HOST_OPT STREQUAL "g")
      set(CMAKE_CUDA_FLAGS_${config} "${flags} -Xcompiler=-Og")  # nvcc's own -O takes numbers only
    else()
      set(CMAKE_CUDA_FLAGS_${config} "${flags} -O${STRATA_HOST_OPT}")
    endif()
  endforeach()
endif()

# STRATA_NVCC_THREADS: how many of a unit's targets nvcc compiles at once (--threads; 0: as many
# as there are). An "allarch" unit compiles three (sm_80, sm_90 and sm_90a), the longest steps of a
# GPU machine's build when done one at a time (timings in bench/RESULTS.md). A unit of one target
# is unaffected. 1: one at a time.
set(STRATA_NVCC_THREADS "0" CACHE STRING "targets nvcc compiles at once within a unit (--threads): 0 for all, 1 for one at a time")
if(NOT STRATA_NVCC_THREADS MATCHES "^[0-9]+$")
  message(FATAL_ERROR "STRATA_NVCC_THREADS: expected a number, got '${STRATA_NVCC_THREADS}'")
endif()

function(strata_cuda_arch_options out name)
  if(name MATCHES "allarch")
    set(arch ${strata_gencode_allarch})
  elseif(name MATCHES "sm90")
    set(arch ${STRATA_GENCODE_SM90A})
  else()
    set(arch ${STRATA_GENCODE_AMPERE})
  endif()
  list(LENGTH arch targets)
  if(targets GREATER 1 AND NOT STRATA_NVCC_THREADS STREQUAL "1")
    list(APPEND arch "--threads=${STRATA_NVCC_THREADS}")
  endif()
  set(${out} ${arch} PARENT_SCOPE)
endfunction()

# Sets the per-file gencode options on the .cu files among <sources>, in <target>'s directory.
function(strata_set_cuda_arch target)
  foreach(src IN LISTS ARGN)
    if(src MATCHES "\\.cu$")
      get_filename_component(name "${src}" NAME)
      strata_cuda_arch_options(arch "${name}")
      set_source_files_properties("${src}" TARGET_DIRECTORY ${target}
        PROPERTIES COMPILE_OPTIONS "${arch}")
    endif()
  endforeach()
endfunction()

function(strata_host_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
  endif()
endfunction()

function(strata_add_host_executable target)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE strata::strata)
  strata_host_warnings(${target})
  if(NOT STRATA_HOST_OPT STREQUAL "")
    # After the build type's flags on the command line, so this level wins.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O${STRATA_HOST_OPT}>)
  endif()
endfunction()

# A CUDA executable: CMake's own architecture handling is switched off (CUDA_ARCHITECTURES OFF)
# because each .cu file carries its own --generate-code options, chosen by its name.
function(strata_add_cuda_executable target)
  add_executable(${target} ${ARGN})
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES OFF)
  if(strata_lineinfo)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${strata_lineinfo}>)
  endif()
  target_link_libraries(${target} PRIVATE strata::strata CUDA::cudart CUDA::cublas)
  strata_host_warnings(${target})
  strata_set_cuda_arch(${target} ${ARGN})
  # Host-only .cpp sources among them (the atom tests that need no GPU, compiled by g++ alone:
  # no cudafe++, no cicc): the host-only level, like the host executables; and the Ampere
  # wrappers' parameters are unused outside a device pass.
  foreach(src IN LISTS ARGN)
    if(src MATCHES "\\.cpp$")
      set(cxx_options -Wno-unused-parameter)
      if(NOT STRATA_HOST_OPT STREQUAL "")
        list(APPEND cxx_options -O${STRATA_HOST_OPT})
      endif()
      set_source_files_properties("${src}" TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS "${cxx_options}")
    endif()
  endforeach()
endfunction()

# strata_add_test_folder(TARGET <name> DIR <folder> PATTERN <glob>... PREFIX <test-prefix>
#                        [EXCLUDE <glob>] [CUDA])
# Every file in <folder> matching a <glob> (and not EXCLUDE) goes into one GoogleTest executable
# <name>; its tests are listed at test time (PRE_TEST, so a new TEST() needs no re-configure) as
# <prefix>.Suite.Test and labelled <prefix>.
# A missing or empty folder adds nothing. Tests include shared helpers as "common/....hpp".
function(strata_add_test_folder)
  cmake_parse_arguments(arg "CUDA" "TARGET;DIR;PREFIX;EXCLUDE" "PATTERN" ${ARGN})
  list(TRANSFORM arg_PATTERN PREPEND "${arg_DIR}/" OUTPUT_VARIABLE globs)
  file(GLOB sources CONFIGURE_DEPENDS ${globs})
  if(arg_EXCLUDE)
    file(GLOB excluded CONFIGURE_DEPENDS "${arg_DIR}/${arg_EXCLUDE}")
    if(excluded)
      list(REMOVE_ITEM sources ${excluded})
    endif()
  endif()
  if(NOT sources)
    return()
  endif()
  if(arg_CUDA)
    strata_add_cuda_executable(${arg_TARGET} ${sources})
  else()
    strata_add_host_executable(${arg_TARGET} ${sources})
  endif()
  target_include_directories(${arg_TARGET} PRIVATE "${PROJECT_SOURCE_DIR}/test")
  target_link_libraries(${arg_TARGET} PRIVATE GTest::gtest_main)
  gtest_discover_tests(${arg_TARGET}
    TEST_PREFIX "${arg_PREFIX}."
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 60
    # One label only: CMake 3.25 writes a list-valued property of discovered tests unquoted,
    # so a second label would be taken for a property name.
    PROPERTIES LABELS "${arg_PREFIX}")
endfunction()

# strata_add_compile_fail_tests(DIR <folder> PREFIX <test-prefix> [CUDA])
# Every <folder>/*.cpp (with CUDA: *.cu) must fail to compile with a diagnostic matching the CMake
# regex on its first line, "// expect: <regex>". A file that compiles, or whose errors do not
# match, fails its test (see StrataCompileFail.cmake). .cpp files go through the host compiler
# (-fsyntax-only), .cu files through nvcc.
function(strata_add_compile_fail_tests)
  cmake_parse_arguments(arg "CUDA" "DIR;PREFIX" "" ${ARGN})
  if(arg_CUDA)
    file(GLOB sources CONFIGURE_DEPENDS "${arg_DIR}/*.cu")
    set(compiler "${CMAKE_CUDA_COMPILER}")
  else()
    file(GLOB sources CONFIGURE_DEPENDS "${arg_DIR}/*.cpp")
    set(compiler "${CMAKE_CXX_COMPILER}")
  endif()
  foreach(src IN LISTS sources)
    get_filename_component(stem "${src}" NAME_WE)
    add_test(NAME "${arg_PREFIX}.${stem}"
      COMMAND "${CMAKE_COMMAND}"
        "-DCOMPILER=${compiler}"
        "-DSOURCE=${src}"
        "-DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include"
        -P "${PROJECT_SOURCE_DIR}/cmake/StrataCompileFail.cmake")
    set_tests_properties("${arg_PREFIX}.${stem}" PROPERTIES LABELS "compile_fail")
  endforeach()
endfunction()

# strata_add_ptxas_checks(DIR <folder> PREFIX <name>)
# One CTest test per DIR/*.cu (label ptxas, no GPU needed): compiled for sm_90a with -Xptxas -v, it
# fails where ptxas serialized a kernel's wgmma (cmake/StrataPtxasCheck.cmake).
function(strata_add_ptxas_checks)
  cmake_parse_arguments(arg "" "DIR;PREFIX" "" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS "${arg_DIR}/*.cu")
  foreach(src IN LISTS sources)
    get_filename_component(stem "${src}" NAME_WE)
    add_test(NAME "${arg_PREFIX}.${stem}"
      COMMAND "${CMAKE_COMMAND}"
        "-DCOMPILER=${CMAKE_CUDA_COMPILER}"
        "-DSOURCE=${src}"
        "-DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include"
        -P "${PROJECT_SOURCE_DIR}/cmake/StrataPtxasCheck.cmake")
    set_tests_properties("${arg_PREFIX}.${stem}" PROPERTIES LABELS "ptxas")
  endforeach()
endfunction()

# strata_add_header_checks(HOST_DIRS <folders> CUDA_DIRS <folders> [HOST_HEADERS <headers>]
#                          COUNT_VAR <var>)
# For each header under HOST_DIRS (relative to include/), and each of HOST_HEADERS (headers under
# CUDA_DIRS that the host compiler takes), a generated .cpp that includes only it, compiled by the
# host compiler into the object library strata_header_check_host (HOST_HEADERS:
# strata_header_check_host_cuda, with the CUDA toolkit's headers); for each other header under
# CUDA_DIRS, a generated .cu compiled by nvcc (sm_90a when its path contains "sm90", else the
# Ampere gencode) into strata_header_check_cuda; these two only when CUDA is enabled. A header that
# does not compile alone breaks the build. Sets <var>_HOST, <var>_HOST_CUDA and <var>_CUDA to the
# header counts.
function(strata_add_header_checks)
  cmake_parse_arguments(arg "" "COUNT_VAR" "HOST_DIRS;CUDA_DIRS;HOST_HEADERS" ${ARGN})
  set(include_root "${PROJECT_SOURCE_DIR}/include")
  set(out_root "${CMAKE_CURRENT_BINARY_DIR}/header_check")

  # HOST: the host floor's headers; HOST_CUDA: HOST_HEADERS (g++ with the CUDA toolkit's headers);
  # CUDA: the other headers of the CUDA floors (nvcc).
  foreach(kind IN ITEMS HOST HOST_CUDA CUDA)
    set(headers "")
    if(kind STREQUAL "HOST_CUDA")
      set(headers ${arg_HOST_HEADERS})
    else()
      foreach(dir IN LISTS arg_${kind}_DIRS)
        file(GLOB_RECURSE found CONFIGURE_DEPENDS RELATIVE "${include_root}"
          "${include_root}/${dir}/*.hpp" "${include_root}/${dir}/*.cuh" "${include_root}/${dir}/*.h")
        list(APPEND headers ${found})
      endforeach()
    endif()
    if(kind STREQUAL "CUDA" AND arg_HOST_HEADERS)
      list(REMOVE_ITEM headers ${arg_HOST_HEADERS})
    endif()
    list(SORT headers)
    list(LENGTH headers count)
    set(${arg_COUNT_VAR}_${kind} ${count} PARENT_SCOPE)
    if(count EQUAL 0 OR (NOT kind STREQUAL "HOST" AND NOT STRATA_ENABLE_CUDA))
      continue()
    endif()

    if(kind STREQUAL "CUDA")
      set(ext "cu")
    else()
      set(ext "cpp")
    endif()
    string(TOLOWER "strata_header_check_${kind}" target)
    set(generated "")
    foreach(header IN LISTS headers)
      # file(CONFIGURE) rewrites only on change, so re-configuring rebuilds nothing.
      set(source "${out_root}/${header}.${ext}")
      file(CONFIGURE OUTPUT "${source}" CONTENT "#include <${header}>\n" @ONLY)
      list(APPEND generated "${source}")
    endforeach()

    add_library(${target} OBJECT ${generated})
    target_link_libraries(${target} PRIVATE strata::strata)
    if(kind STREQUAL "CUDA")
      set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES OFF)
      foreach(header IN LISTS headers)
        strata_cuda_arch_options(arch "${header}")
        set_source_files_properties("${out_root}/${header}.${ext}" TARGET_DIRECTORY ${target}
          PROPERTIES COMPILE_OPTIONS "${arch}")
      endforeach()
    else()
      strata_host_warnings(${target})
      if(kind STREQUAL "HOST_CUDA")
        # The toolkit's headers (cuda_bf16.h, ...); the Ampere wrappers' parameters are unused
        # outside a device pass.
        target_link_libraries(${target} PRIVATE CUDA::cudart)
        target_compile_options(${target} PRIVATE -Wno-unused-parameter)
      endif()
    endif()
  endforeach()
endfunction()
