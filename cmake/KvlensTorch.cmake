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

# Torch headers are expensive: the engine libraries share one precompiled header,
# made for the first of them and reused by the rest; five separate ones cost CI 2.4 GB
# and minutes. It is <torch/types.h> (ATen, the tensor factories, torch::k* dtypes),
# not <torch/torch.h>: a unit spends most of its time loading the PCH, and the smaller
# one loads faster (a press file on an idle 2-core machine: 14.7 s with <torch/torch.h>,
# 4.8 s with <torch/types.h>; the PCH itself 20 s, ~340 MB). Sources include
# <torch/types.h> too; only code that needs torch::nn or torch::optim would include
# more, and none does (the trainer's AdamW and loss are written on ATen).
# A reused PCH must be made with the flags its users compile with, so every engine
# library gets OpenMP's flag (kvlens_model needs it for its `omp parallel` regions;
# the others do not mind it) and position-independent code.
find_package(OpenMP REQUIRED)
function(kvlens_link_torch target)
  target_link_libraries(${target} PUBLIC ${TORCH_LIBRARIES})
  target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  get_property(pch_owner GLOBAL PROPERTY KVLENS_TORCH_PCH_OWNER)
  if(pch_owner)
    target_precompile_headers(${target} REUSE_FROM ${pch_owner})
  else()
    target_precompile_headers(${target} PRIVATE <torch/types.h>)
    set_property(GLOBAL PROPERTY KVLENS_TORCH_PCH_OWNER ${target})
  endif()
endfunction()

# An engine test, and kvlens-cli's unity batches, compile with the engine libraries'
# precompiled header. Loading it costs ~3 s a unit, so it pays only where a unit parses
# libtorch's headers anyway (kvlens-cli built file by file stays without: most of its
# commands do not include libtorch). An AUTOMOC unit holds no libtorch code and skips
# it. The flags are the PCH's own (OpenMP, PIC), as above.
function(kvlens_reuse_torch_pch target)
  get_property(pch_owner GLOBAL PROPERTY KVLENS_TORCH_PCH_OWNER)
  if(NOT pch_owner)
    return()
  endif()
  target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
  target_compile_options(${target} PRIVATE -fPIC)
  target_precompile_headers(${target} REUSE_FROM ${pch_owner})
  set_source_files_properties(
    ${CMAKE_CURRENT_BINARY_DIR}/${target}_autogen/mocs_compilation.cpp
    TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
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
