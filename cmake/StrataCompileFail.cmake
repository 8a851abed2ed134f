# Runs one compile-fail test:
#   cmake -DCOMPILER=<c++> -DSOURCE=<file.cpp> -DINCLUDE_DIR=<include> -P StrataCompileFail.cmake
# The first line of SOURCE is "// expect: <CMake regex>". The test passes only if compiling
# SOURCE fails AND the compiler's output matches the regex; a file that compiles fails the test.
cmake_minimum_required(VERSION 3.25)

foreach(var IN ITEMS COMPILER SOURCE INCLUDE_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "StrataCompileFail.cmake: -D${var}=... is required")
  endif()
endforeach()

file(READ "${SOURCE}" text LIMIT 4096)
if(NOT text MATCHES "^// expect: ([^\r\n]+)")
  message(FATAL_ERROR "${SOURCE}: the first line must be '// expect: <regex>' naming the diagnostic")
endif()
string(STRIP "${CMAKE_MATCH_1}" expected)

# LC_ALL=C: plain ASCII quotes in the diagnostics, so a regex needs no UTF-8 quote marks.
if(SOURCE MATCHES "\\.cu$")
  # nvcc has no -fsyntax-only: compile for one architecture into a scratch object.
  get_filename_component(stem "${SOURCE}" NAME_WE)
  set(flags -std=c++20 --expt-relaxed-constexpr -arch=sm_80 -c -o "${CMAKE_CURRENT_BINARY_DIR}/${stem}.o")
else()
  set(flags -std=c++20 -fsyntax-only -fdiagnostics-color=never)
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env LC_ALL=C "${COMPILER}" ${flags} "-I${INCLUDE_DIR}" "${SOURCE}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)

if(result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not (expected a diagnostic matching '${expected}')")
endif()
if(NOT output MATCHES "${expected}")
  message(FATAL_ERROR "${SOURCE} failed to compile as it should, but no diagnostic matched "
    "'${expected}'. The compiler said:\n${output}")
endif()
message(STATUS "failed to compile as expected; matched '${expected}'")
