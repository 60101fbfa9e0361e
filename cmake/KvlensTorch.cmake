# libtorch for the engine targets, with an optimized BLAS forced in.
#
# Debian's libtorch calls sgemm_ through libblas.so.3, which may be the reference
# BLAS (~6 GFLOP/s). Linking OpenBLAS directly into every engine executable, ahead
# of libtorch, makes the dynamic linker resolve sgemm_ to OpenBLAS whatever the
# system alternative says. Executables that want this call kvlens_use_fast_blas().
find_package(Torch REQUIRED)
find_library(KVLENS_OPENBLAS NAMES openblas
  PATHS /usr/lib/x86_64-linux-gnu/openblas-pthread /usr/lib/x86_64-linux-gnu
  REQUIRED)
message(STATUS "OpenBLAS for the engine: ${KVLENS_OPENBLAS}")

# Torch headers are expensive; engine libraries share one precompiled header.
function(kvlens_link_torch target)
  target_link_libraries(${target} PUBLIC ${TORCH_LIBRARIES})
  target_precompile_headers(${target} PRIVATE <torch/torch.h>)
endfunction()

# Puts OpenBLAS first in an executable's dependency list (kept even though no
# symbol of ours references it directly).
function(kvlens_use_fast_blas target)
  target_link_options(${target} PRIVATE "LINKER:--no-as-needed")
  target_link_libraries(${target} PRIVATE ${KVLENS_OPENBLAS})
endfunction()
