# Install rules and the Debian package (CPack DEB) of KVLens.
#
#   cmake --build build && (cd build && cpack -G DEB)    ->  build/kvlens_<version>_amd64.deb
#   (or: bash packaging/bootstrap.sh package)
#
# Layout under the prefix (/usr in the package):
#   bin/kvlens, bin/kvlens-cli
#   share/kvlens/models/kvlens-tiny       the bundled model (found by both binaries through
#                                         ../share/kvlens relative to bin/: core/checkpoint/
#                                         modellocator.cpp; the GUI starts the kvlens-cli next to it)
#   share/kvlens/tools/llamacpp-bench.mjs what bench --compare-llamacpp runs in node (found the
#                                         same way: app/cli/llamacppbench.cpp)
#   share/applications, share/metainfo, share/mime/packages, share/icons/hicolor
#   share/man/man1, share/bash-completion/completions, share/doc/kvlens
# Translations are compiled into the kvlens binary (:/i18n, app/gui/CMakeLists.txt), so
# they ship inside it. The npm tokenizers and the task data of the tests are not shipped.
if(NOT KVLENS_ENGINE)
  message(STATUS "Packaging: off (a build without the engine has no kvlens-cli)")
  return()
endif()

include(GNUInstallDirs)
set(KVLENS_APP_ID io.github.kvlens.KVLens)
set(KVLENS_HOMEPAGE "https://github.com/kvlens/kvlens" CACHE STRING
    "Project web address written into the AppStream metainfo and the package")
set(KVLENS_SCREENSHOT_URL "${KVLENS_HOMEPAGE}/raw/main/docs/screenshots" CACHE STRING
    "Web folder holding docs/screenshots/*.png, for the AppStream metainfo")
set(_res ${PROJECT_SOURCE_DIR}/resources)
set(_pkg ${PROJECT_SOURCE_DIR}/packaging)
set(_gen ${PROJECT_BINARY_DIR}/packaging)

# The bundled model, without the optimizer state (10 MB) that only resuming its training
# needs.
install(DIRECTORY ${_res}/models/kvlens-tiny DESTINATION ${CMAKE_INSTALL_DATADIR}/kvlens/models
        PATTERN optimizer.safetensors EXCLUDE)
# The node script bench --compare-llamacpp drives llama.cpp with (node-llama-cpp itself is
# the user's to install: npm, not a Debian package).
install(FILES ${_res}/tools/llamacpp-bench.mjs DESTINATION ${CMAKE_INSTALL_DATADIR}/kvlens/tools)

# Desktop integration: launcher, AppStream metainfo, the .kvl MIME type, the icon theme.
install(FILES ${_res}/desktop/${KVLENS_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
configure_file(${_res}/desktop/${KVLENS_APP_ID}.metainfo.xml.in
               ${_gen}/${KVLENS_APP_ID}.metainfo.xml @ONLY)
install(FILES ${_gen}/${KVLENS_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${_res}/desktop/${KVLENS_APP_ID}.mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME ${KVLENS_APP_ID}.xml)
# The desktop entry, the metainfo and the MIME type (its magic = the store's application
# id; detection by magic and by name) checked without a package; skipped without the tools.
add_test(NAME packaging_desktop_files
         COMMAND bash ${_pkg}/tools/check-desktop-files.sh ${PROJECT_SOURCE_DIR}
                 ${_gen}/${KVLENS_APP_ID}.metainfo.xml)
set_tests_properties(packaging_desktop_files PROPERTIES SKIP_RETURN_CODE 77 LABELS packaging)
install(FILES ${_res}/icons/kvlens.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        RENAME ${KVLENS_APP_ID}.svg)
file(GLOB _icon_sizes LIST_DIRECTORIES true RELATIVE ${_res}/icons/hicolor ${_res}/icons/hicolor/*x*)
foreach(size ${_icon_sizes})
  install(FILES ${_res}/icons/hicolor/${size}/${KVLENS_APP_ID}.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}/apps)
endforeach()

# Man pages (help2man, when installed) and bash completion, from the binaries' --help.
# Made at install time (cmake --install, cpack), not in every build: running the ~25
# --help commands takes a minute, and kvlens-cli relinks often.
find_program(KVLENS_HELP2MAN help2man)
if(NOT KVLENS_HELP2MAN)
  message(STATUS "Packaging: help2man not found, no man pages (apt-get install help2man)")
endif()
install(CODE "execute_process(COMMAND bash \"${_pkg}/tools/gen-cli-docs.sh\"
                \"$<TARGET_FILE:kvlens-cli>\" \"$<TARGET_FILE:kvlens>\" \"${_gen}\" ${PROJECT_VERSION}
              COMMAND_ERROR_IS_FATAL ANY)")
install(FILES ${_gen}/kvlens-cli.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME kvlens-cli)
if(KVLENS_HELP2MAN)
  install(FILES ${_gen}/kvlens.1.gz ${_gen}/kvlens-cli.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# Debian documentation: copyright, changelog (gzip -9n: reproducible), lintian overrides.
add_custom_command(OUTPUT ${_gen}/changelog.Debian.gz
  COMMAND gzip -9n -c ${_pkg}/debian/changelog > ${_gen}/changelog.Debian.gz
  DEPENDS ${_pkg}/debian/changelog)
add_custom_target(kvlens_changelog ALL DEPENDS ${_gen}/changelog.Debian.gz)
install(FILES ${_pkg}/debian/copyright ${_gen}/changelog.Debian.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/kvlens)
# The override names the RUNPATH this build links (cmake/KvlensTorch.cmake).
configure_file(${_pkg}/debian/lintian-overrides.in ${_gen}/lintian-overrides @ONLY)
install(FILES ${_gen}/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME kvlens)

# ---- CPack: the .deb -----------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kvlens)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Debian revision: 0.1.0-1 (packaging/debian/changelog names the same version).
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_PACKAGE_VENDOR "The KVLens developers")
set(CPACK_PACKAGE_CONTACT "KVLens developers <kvlens@users.noreply.github.com>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "visual analysis of KV-cache compression in language models")
# One string (a semicolon would split a CMake list); lines under 80 columns for lintian.
set(CPACK_PACKAGE_DESCRIPTION "KVLens runs a language model over benchmark samples with the full
key-value cache and under each chosen compressor (StreamingLLM, SnapKV, TOVA
and others) at each compression ratio, and records why each compressed run
fails: which evidence and instruction tokens were evicted, where attention
went, how far the gold answer's likelihood drifted. The desktop app kvlens
draws the run files, kvlens-cli runs the sweeps headless, on servers and
Slurm clusters. A small model is bundled.")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${KVLENS_HOMEPAGE})
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Depends: the libraries the binaries link (dpkg-shlibdeps), plus what is only loaded at
# run time: the OpenMP OpenBLAS the engine's RUNPATH names (cmake/KvlensTorch.cmake; the
# linked soname alone would be satisfied by the pthread build too, whose second thread
# pool halves sweep speed on small machines). The Qt SVG plugins (icon) come with
# libqt6svg6, which the views link.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
get_filename_component(_blas_build ${KVLENS_OPENBLAS_DIR} NAME)
if(_blas_build STREQUAL "openblas-openmp")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0-openmp")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "shared-mime-info, desktop-file-utils, hicolor-icon-theme")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-torch, slurm-client")
include(CPack)
