# install.cmake -- where `cmake --install` puts sudokud, its plugins and the SDK.
#
#   <prefix>/sbin/sudokud                      the daemon
#   <prefix>/bin/sudoku, sudoku-bench          the tool (tool/) and the bench tool (bench/)
#   <prefix>/lib/sudokud/plugins/*.so          the solver plugins
#   <prefix>/include/sudoku/plugin.h           the plugin ABI (SDK)
#   <prefix>/include/sudoku/plugin_rules.h     the SDK's checks of a rules table
#   <prefix>/<libdir>/pkgconfig/sudoku-plugin.pc  the SDK for pkg-config, and
#   <prefix>/<libdir>/pkgconfig/sudoku-client.pc  the client library, side by side
#   <prefix>/share/pkgconfig/sudoku-plugin.pc  the SDK again, where it was first installed
#   <prefix>/share/man/man{1,8}/*              man pages found in docs/
#   <unitdir>/sudokud.{socket,service}         systemd units
#   <sysusersdir>/sudokud.conf                 the "sudokud" socket group
#
# Each file is installed once (man pages only here, not by the programs'
# own CMakeLists.txt).  The daemon finds its plugins at
# <exe>/../lib/sudokud/plugins, so the plugin
# directory is always lib/ (never the multiarch libdir).  The unit files and
# the .pc files are generated at install time, not configure time, so that
# `cmake --install build --prefix DIR` writes DIR into ExecStart= and
# prefix= (DESTDIR staging still writes the final prefix).
#
# Unit directory: SUDOKU_SYSTEMD_UNIT_DIR when set; else, for the prefix /usr,
# what pkg-config says systemd reads (/lib/systemd/system on Debian 12); else
# <prefix>/lib/systemd/system, which `systemctl link` or a drop-in can use.

# ---------------------------------------------------------------- programs
# Installed programs find a shared libsudoku-client (or anything else we
# install in libdir) beside them in any prefix, with no LD_LIBRARY_PATH:
# the run path is relative to the executable, so DESTDIR staging and
# `cmake --install --prefix` after configuring both keep working.
foreach(_prog sudokud sudoku sudoku-bench)
  if(TARGET ${_prog})
    set_target_properties(${_prog} PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  endif()
endforeach()
if(TARGET sudokud)
  install(TARGETS sudokud RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR})
endif()
if(TARGET sudoku-bench)
  install(TARGETS sudoku-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
get_property(_sudoku_plugins GLOBAL PROPERTY SUDOKU_PLUGINS)
if(_sudoku_plugins)
  install(TARGETS ${_sudoku_plugins} LIBRARY DESTINATION ${SUDOKU_PLUGIN_SUBDIR})
endif()

# ---------------------------------------------------------------- SDK
install(FILES ${CMAKE_SOURCE_DIR}/include/sudoku/plugin.h
              ${CMAKE_SOURCE_DIR}/include/sudoku/plugin_rules.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sudoku)

# Configure a template at install time with the prefix in effect then.
# sudoku_install_configured(TEMPLATE in DEST relative-or-absolute-dir NAME out)
function(sudoku_install_configured)
  cmake_parse_arguments(C "" "TEMPLATE;DEST;NAME" "" ${ARGN})
  set(_staged "${CMAKE_BINARY_DIR}/install-staging/${C_NAME}")
  if(IS_ABSOLUTE "${C_DEST}")
    set(_dest "${C_DEST}")
  else()
    set(_dest "\${CMAKE_INSTALL_PREFIX}/${C_DEST}")
  endif()
  install(CODE "
    set(SUDOKU_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    set(SUDOKUD_PATH \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_SBINDIR}/sudokud\")
    set(SUDOKU_PLUGIN_SUBDIR \"${SUDOKU_PLUGIN_SUBDIR}\")
    set(PROJECT_VERSION \"${PROJECT_VERSION}\")
    set(SUDOKU_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
    set(SUDOKU_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
    configure_file(\"${C_TEMPLATE}\" \"${_staged}\" @ONLY)
    # man(1) searches /usr and /usr/local only: elsewhere a unit names its
    # page by path too, so systemctl help and the admin find the real file.
    if(NOT CMAKE_INSTALL_PREFIX MATCHES \"^/usr(/local)?/?$\")
      file(READ \"${_staged}\" _text)
      string(REPLACE \"Documentation=man:sudokud(8)\"
             \"Documentation=man:sudokud(8) file:\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man8/sudokud.8\"
             _text \"\${_text}\")
      file(WRITE \"${_staged}\" \"\${_text}\")
    endif()
    file(INSTALL DESTINATION \"${_dest}\" TYPE FILE FILES \"${_staged}\")
  ")
endfunction()

# Both .pc files in one directory, so PKG_CONFIG_PATH=<prefix>/<libdir>/pkgconfig
# finds both; the SDK's stays in share/pkgconfig too for builds that look there.
sudoku_install_configured(TEMPLATE ${CMAKE_SOURCE_DIR}/cmake/sudoku-plugin.pc.in
                          DEST ${CMAKE_INSTALL_LIBDIR}/pkgconfig NAME sudoku-plugin.pc)
sudoku_install_configured(TEMPLATE ${CMAKE_SOURCE_DIR}/cmake/sudoku-plugin.pc.in
                          DEST ${CMAKE_INSTALL_DATADIR}/pkgconfig NAME sudoku-plugin.pc)
if(TARGET sudoku_client_shared)
  sudoku_install_configured(TEMPLATE ${CMAKE_SOURCE_DIR}/client/sudoku-client.pc.in
                            DEST ${CMAKE_INSTALL_LIBDIR}/pkgconfig NAME sudoku-client.pc)
endif()

# ---------------------------------------------------------------- man pages
# Globbed at install time: the pages may be written after configuring.
install(CODE "
  foreach(_sec 1 8)
    file(GLOB _pages \"${CMAKE_SOURCE_DIR}/docs/*.\${_sec}\")
    if(_pages)
      file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man\${_sec}\"
           TYPE FILE FILES \${_pages})
    endif()
  endforeach()
")

# ---------------------------------------------------------------- systemd
set(SUDOKU_SYSTEMD_UNIT_DIR "" CACHE STRING
    "Where to install systemd units (default: see cmake/install.cmake)")
set(SUDOKU_SYSUSERS_DIR "" CACHE STRING
    "Where to install sysusers.d files (default: see cmake/install.cmake)")
set(_unitdir "${SUDOKU_SYSTEMD_UNIT_DIR}")
set(_sysusersdir "${SUDOKU_SYSUSERS_DIR}")
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  pkg_get_variable(_pc_unitdir systemd systemdsystemunitdir)
  pkg_get_variable(_pc_sysusersdir systemd sysusersdir)
  if(NOT _unitdir AND _pc_unitdir)
    set(_unitdir "${_pc_unitdir}")
  endif()
  if(NOT _sysusersdir AND _pc_sysusersdir)
    set(_sysusersdir "${_pc_sysusersdir}")
  endif()
endif()
if(NOT _unitdir)
  set(_unitdir "lib/systemd/system")
endif()
if(NOT _sysusersdir)
  set(_sysusersdir "lib/sysusers.d")
endif()

sudoku_install_configured(TEMPLATE ${CMAKE_SOURCE_DIR}/systemd/sudokud.service.in
                          DEST ${_unitdir} NAME sudokud.service)
sudoku_install_configured(TEMPLATE ${CMAKE_SOURCE_DIR}/systemd/sudokud.socket
                          DEST ${_unitdir} NAME sudokud.socket)
install(FILES ${CMAKE_SOURCE_DIR}/systemd/sudokud.sysusers.conf
        DESTINATION ${_sysusersdir} RENAME sudokud.conf)
