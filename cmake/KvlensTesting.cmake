# A test's Q_OBJECT classes live in its own .cpp, which includes "<name>.moc". AUTOMOC
# would run moc with the target's include paths, so moc would preprocess every header the
# test includes (Qt Widgets, libtorch): ~2.5 s a test, ~150 tests, for output that the
# classes' own text decides. moc reads the file alone here (0.02 s) and writes the same
# code; a test class must therefore not hide its slots behind a macro or #if from a header.
function(kvlens_moc_test_sources target)
  set_target_properties(${target} PROPERTIES AUTOMOC OFF)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_moc)
  foreach(src ${ARGN})
    get_filename_component(path ${src} ABSOLUTE)
    if(NOT path MATCHES "\\.cpp$")
      continue()
    endif()
    file(STRINGS ${path} objects REGEX "Q_OBJECT|Q_GADGET")
    if(NOT objects)
      continue()
    endif()
    get_filename_component(base ${src} NAME_WE)
    add_custom_command(OUTPUT ${dir}/${base}.moc
      COMMAND Qt6::moc ${path} -o ${dir}/${base}.moc
      DEPENDS ${path} Qt6::moc
      COMMENT "moc ${base}.cpp" VERBATIM)
    target_sources(${target} PRIVATE ${dir}/${base}.moc)
    target_include_directories(${target} PRIVATE ${dir})
  endforeach()
endfunction()

# The views' and the desktop app's tests parse Qt Widgets, Qt Test and QCustomPlot in
# every unit (~6 s of a ~10 s unit); each folder's tests share one precompiled header of
# them, made for its first test. One per folder, since Qt Test's QT_TESTCASE_BUILDDIR,
# which its header tests, names the folder.
function(kvlens_reuse_gui_test_pch target)
  get_property(owner DIRECTORY PROPERTY KVLENS_GUI_TEST_PCH_OWNER)
  if(owner)
    target_precompile_headers(${target} REUSE_FROM ${owner})
  else()
    target_precompile_headers(${target} PRIVATE <QtWidgets> <QtTest> <qcustomplot.h>)
    set_property(DIRECTORY PROPERTY KVLENS_GUI_TEST_PCH_OWNER ${target})
  endif()
endfunction()

# kvlens_add_test(NAME name SOURCES a.cpp ... LIBS lib ... [ENGINE])
# One Qt Test executable per test file, registered with ctest, run offscreen.
function(kvlens_add_test)
  cmake_parse_arguments(T "ENGINE" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(T_ENGINE AND NOT KVLENS_ENGINE)
    return() # a sanitizer build leaves the libtorch engine out
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE Qt6::Test ${T_LIBS})
  kvlens_moc_test_sources(${T_NAME} ${T_SOURCES})
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
    if(T_LIBS MATCHES "kvlens_gui|kvlens_views|Qt6::Widgets")
      kvlens_reuse_gui_test_pch(${T_NAME})
    endif()
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen"
    TIMEOUT ${T_TIMEOUT}
    LABELS "${T_LABELS}")
endfunction()
