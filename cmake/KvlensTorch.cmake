# libtorch for the engine targets, with an optimized BLAS forced in.
#
# Debian's libtorch calls sgemm_ through libblas.so.3, which may be the reference
# BLAS (~6 GFLOP/s). Linking OpenBLAS directly into every engine executable, ahead
# of libtorch, makes the dynamic linker resolve sgemm_ to OpenBLAS whatever the
# system alternative says. Executables that want this call kvlens_use_fast_blas().
#
# The OpenMP build of OpenBLAS is preferred: its threads are libgomp's, the pool
# libtorch's own parallel loops use. The pthread build keeps a second pool whose idle
# threads spin in sched_yield while libtorch's threads work; on two cores that cost a
# sweep ~2x its wall time (perf: ~30% of cycles in sched_yield). The executables get a
# RUNPATH to the chosen build's directory, because libopenblas.so.0 on the default path
# is whichever build the system alternative names.
find_package(Torch REQUIRED)
find_library(KVLENS_OPENBLAS_LIB NAMES libopenblas.so.0
  PATHS /usr/lib/x86_64-linux-gnu/openblas-openmp NO_DEFAULT_PATH)
if(NOT KVLENS_OPENBLAS_LIB)
  find_library(KVLENS_OPENBLAS_LIB NAMES openblas
    PATHS /usr/lib/x86_64-linux-gnu/openblas-pthread /usr/lib/x86_64-linux-gnu
    REQUIRED)
endif()
get_filename_component(KVLENS_OPENBLAS_DIR "${KVLENS_OPENBLAS_LIB}" DIRECTORY)
message(STATUS "OpenBLAS for the engine: ${KVLENS_OPENBLAS_LIB}")

# Torch headers are expensive; engine libraries share one precompiled header.
function(kvlens_link_torch target)
  target_link_libraries(${target} PUBLIC ${TORCH_LIBRARIES})
  target_precompile_headers(${target} PRIVATE <torch/torch.h>)
endfunction()

# Puts OpenBLAS first in an executable's dependency list (kept even though no
# symbol of ours references it directly).
function(kvlens_use_fast_blas target)
  target_link_options(${target} PRIVATE "LINKER:--no-as-needed")
  target_link_libraries(${target} PRIVATE ${KVLENS_OPENBLAS_LIB})
  # Built and installed with exactly this RUNPATH (no padding, so no empty entry,
  # which the loader would read as the current directory).
  set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH "${KVLENS_OPENBLAS_DIR}")
  set_property(TARGET ${target} PROPERTY BUILD_WITH_INSTALL_RPATH ON)
endfunction()
