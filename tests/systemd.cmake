# systemd.cmake -- tests for systemd integration, the install layout and the SDK.
#
# test_sdnotify runs daemon/sdnotify.c against a fake service manager, built
# once per implementation (libsystemd when found, and the hand-written
# protocol always).  The scripts under systemd/ drive the real tools
# (systemd-analyze, systemd-socket-activate, cmake --install, pkg-config) and
# the real daemon; they exit 77 (skipped) only when a tool is absent.

sudoku_add_test(NAME test_sdnotify_manual
  SOURCES test_sdnotify.c ${CMAKE_SOURCE_DIR}/daemon/sdnotify.c
  LABELS systemd unit TIMEOUT 30)
if(LIBSYSTEMD_FOUND)
  sudoku_add_test(NAME test_sdnotify_libsystemd
    SOURCES test_sdnotify.c ${CMAKE_SOURCE_DIR}/daemon/sdnotify.c
    LIBS PkgConfig::LIBSYSTEMD
    LABELS systemd unit TIMEOUT 30)
  target_compile_definitions(test_sdnotify_libsystemd PRIVATE HAVE_LIBSYSTEMD=1)
endif()

# sudoku_add_script_test(NAME name SCRIPT file ARGS ... [TIMEOUT s])
function(sudoku_add_script_test)
  cmake_parse_arguments(S "" "NAME;SCRIPT;TIMEOUT" "ARGS" ${ARGN})
  if(NOT S_TIMEOUT)
    set(S_TIMEOUT 120)
  endif()
  add_test(NAME ${S_NAME}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/systemd/${S_SCRIPT} ${S_ARGS})
  set_tests_properties(${S_NAME} PROPERTIES
    TIMEOUT ${S_TIMEOUT} LABELS systemd SKIP_RETURN_CODE 77
    ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
endfunction()

set(_sd_src ${CMAKE_SOURCE_DIR})
set(_sd_bin ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
sudoku_add_script_test(NAME systemd_units_verify SCRIPT units.sh
  ARGS verify ${_sd_src} ${_sd_bin})
sudoku_add_script_test(NAME systemd_units_security SCRIPT units.sh
  ARGS security ${_sd_src} ${_sd_bin})
if(TARGET sudokud)
  sudoku_add_script_test(NAME systemd_socket_activate SCRIPT activate.sh
    ARGS ${_sd_src} ${_sd_bin} TIMEOUT 120)
  sudoku_add_script_test(NAME systemd_install_sdk SCRIPT install.sh
    ARGS ${_sd_src} ${CMAKE_BINARY_DIR} TIMEOUT 300)
endif()
# The units under a real systemd PID 1 in a Debian 12 container (pid1.sh):
# root and systemd-nspawn only; not under sanitizers (the installed daemon
# would need their run-time libraries in the container).  Cold (first
# debootstrap) about 80 s, warm about 10 s.
if(TARGET sudokud AND TARGET sudoku AND NOT SUDOKU_SANITIZE AND NOT SUDOKU_TSAN)
  sudoku_add_script_test(NAME systemd_pid1_nspawn SCRIPT pid1.sh
    ARGS ${_sd_src} ${CMAKE_BINARY_DIR} TIMEOUT 600)
  set_tests_properties(systemd_pid1_nspawn PROPERTIES LABELS "systemd;nspawn")
endif()
