# Unity builds of the libraries: CMake compiles each library's sources in batches, one
# compiler run per batch. A cold build spends most of its time on what every unit of a
# module repeats: loading the ~340 MB precompiled libtorch header (~3 s), parsing Qt's
# widget headers, instantiating the same templates. Measured on an idle 2-core machine:
# eight press files take 48 s as eight units and 7 s as one.
#
# What this asks of the sources: file-local names (anonymous namespaces, statics) are
# unique within their library, since a batch is one translation unit. A clash is a
# compile error ("redefinition of ..."), never a silent change: file-local names that
# could overload one another are kept distinct too.
#
# Files whose functions carry target attributes (AVX2/FMA kernels) stay out of the
# batches: joined with other files, GCC could inline a plain function into an FMA
# function and contract its a*b+c into one rounding, changing results bit for bit.
#
# -DKVLENS_UNITY_BUILD=OFF compiles file by file (faster to rebuild after editing one
# file; the same objects otherwise).
option(KVLENS_UNITY_BUILD "Compile each library's sources in batches (faster cold builds)" ON)

# kvlens_unity_build(TARGET BATCH [EXCLUDE file...]): batches of at most BATCH sources.
function(kvlens_unity_build target batch)
  if(NOT KVLENS_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "EXCLUDE")
  if(arg_EXCLUDE)
    set_source_files_properties(${arg_EXCLUDE} TARGET_DIRECTORY ${target}
                                PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()
