# -DKVLENS_SANITIZE=address,undefined: a sanitizer build of the torch-free part of the
# tree (core modules without libtorch, views, the desktop app, their tests, the fuzz
# targets). The engine (model, cache, compressors, offload, run, train, kvlens-cli and
# their tests) is left out, on purpose: its work happens inside Debian's libtorch and
# OpenBLAS, which are not instrumented, so ASan would see only our thin glue around
# them (no bounds checks on tensor storage or BLAS buffers), LeakSanitizer would have to
# tell libtorch's and OpenMP's process-lifetime pools from real leaks, and the engine
# tests, already the slow ones, would run several times slower under instrumentation.
# KVLENS_ENGINE tells the CMake files whether the engine is part of this build.
set(KVLENS_SANITIZE "" CACHE STRING
    "Sanitizers for a torch-free build, e.g. address,undefined (leaves the libtorch engine out)")
if(KVLENS_SANITIZE)
  set(KVLENS_ENGINE OFF)
  # Any UBSan report fails the process (and so the test), as an ASan report does.
  add_compile_options(-fsanitize=${KVLENS_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${KVLENS_SANITIZE})
  message(STATUS "Sanitizers: ${KVLENS_SANITIZE} (libtorch engine targets left out)")
else()
  set(KVLENS_ENGINE ON)
endif()
