# kvlens_add_test(NAME name SOURCES a.cpp ... LIBS lib ... [ENGINE])
# One Qt Test executable per test file, registered with ctest, run offscreen.
function(kvlens_add_test)
  cmake_parse_arguments(T "ENGINE" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(T_ENGINE AND NOT KVLENS_ENGINE)
    return() # a sanitizer build leaves the libtorch engine out
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE Qt6::Test ${T_LIBS})
  target_compile_definitions(${T_NAME} PRIVATE
    KVLENS_TEST_DATA="${PROJECT_SOURCE_DIR}/tests/data"
    KVLENS_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    KVLENS_BUILD_DIR="${PROJECT_BINARY_DIR}")
  if(T_ENGINE)
    kvlens_use_fast_blas(${T_NAME})
    kvlens_reuse_torch_pch(${T_NAME})
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  # The views' and the desktop app's tests carry the label `gui`: packaging/sanitize.sh
  # leaves them out unless asked (--all), by label rather than by a list of names.
  if(CMAKE_CURRENT_SOURCE_DIR MATCHES "/tests/(views|app/gui)(/|$)")
    list(APPEND T_LABELS gui)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen"
    TIMEOUT ${T_TIMEOUT}
    LABELS "${T_LABELS}")
endfunction()
