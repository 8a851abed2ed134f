# The find_package(strata) test: install the build tree into a scratch prefix, then configure,
# build and run a small consumer project against that prefix.
#   cmake -DBUILD_DIR=<strata build> -DWORK_DIR=<scratch> -DCONSUMER_DIR=<consumer source>
#         -DGENERATOR=<generator> -DCXX_COMPILER=<c++> -P StrataPackageTest.cmake
cmake_minimum_required(VERSION 3.25)

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")

function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "package test: ${step} failed (${result})")
  endif()
endfunction()

run("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
run("consumer configure" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${consumer_build}"
  -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_PREFIX_PATH=${prefix}")
run("consumer build" "${CMAKE_COMMAND}" --build "${consumer_build}")
run("consumer run" "${consumer_build}/consumer")
message(STATUS "find_package(strata) consumer configured, built and ran against ${prefix}")
