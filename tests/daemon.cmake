# tests/daemon.cmake -- integration tests of sudokud over its socket.
#
# Every test spawns the real built daemon on a temporary socket (see
# daemon_harness.c).  liar9 is a deliberately wrong plugin, built beside the
# tests (not in the plugin directory) and loaded with --plugin, to provoke the
# `unsupported` and `internal` errors; spin9 ignores its deadline and spins,
# for test_daemon_stuck.
foreach(p liar9 spin9)
  add_library(test_${p} MODULE plugins/${p}.c)
  set_target_properties(test_${p} PROPERTIES
    PREFIX "" OUTPUT_NAME ${p} C_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/plugins)
  target_link_options(test_${p} PRIVATE -Wl,-z,defs)
endforeach()

# crash9.c, once per way of failing, for test_daemon_isolate.
set(_crash_targets)
foreach(way IN ITEMS segv:1 exit:2 abort:3 overrun:4 socket:5 exec:6 spin_prompt:7 write:8
    fork:9 thread:10)
  string(REPLACE ":" ";" _w ${way})
  list(GET _w 0 _name)
  list(GET _w 1 _how)
  if(NOT _name STREQUAL "spin_prompt")
    set(_name crash_${_name})
  endif()
  add_library(test_${_name} MODULE plugins/crash9.c)
  set_target_properties(test_${_name} PROPERTIES
    PREFIX "" OUTPUT_NAME ${_name} C_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/plugins)
  target_compile_definitions(test_${_name} PRIVATE CRASH_HOW=${_how} CRASH_NAME="${_name}")
  target_link_options(test_${_name} PRIVATE -Wl,-z,defs)
  list(APPEND _crash_targets test_${_name})
endforeach()

add_library(daemon_harness STATIC daemon_harness.c)
target_link_libraries(daemon_harness PUBLIC sudoku_core sudoku_proto)
target_compile_definitions(daemon_harness PUBLIC
  SUDOKU_BUILD_PLUGIN_DIR="${SUDOKU_BUILD_PLUGIN_DIR}"
  SUDOKU_BIN_DIR="${CMAKE_RUNTIME_OUTPUT_DIRECTORY}"
  SUDOKU_TEST_PLUGIN="${CMAKE_BINARY_DIR}/tests/plugins/liar9.so"
  SUDOKU_SPIN_PLUGIN="${CMAKE_BINARY_DIR}/tests/plugins/spin9.so"
  SUDOKU_TEST_PLUGIN_DIR="${CMAKE_BINARY_DIR}/tests/plugins")

foreach(t test_daemon_proto test_daemon_load test_daemon_socket test_daemon_stuck
          test_daemon_bounds test_daemon_explain test_daemon_isolate test_daemon_marks
          test_daemon_levels)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${t}.c)
    sudoku_add_test(NAME ${t} SOURCES ${t}.c LIBS daemon_harness Threads::Threads
                    LABELS daemon TIMEOUT 300)
    if(TARGET sudokud)
      add_dependencies(${t} sudokud test_liar9 test_spin9 ${_crash_targets})
    endif()
  endif()
endforeach()

# explain through the daemon with the lying explain plugins of core.cmake.
if(TARGET test_daemon_explain AND TARGET tx_wrong)
  target_compile_definitions(test_daemon_explain PRIVATE
    SUDOKU_EXPLAINPLUGIN_DIR="${CMAKE_BINARY_DIR}/tests/explainplugins")
  add_dependencies(test_daemon_explain tx_wrong tx_minor0 tx_stuck)
endif()

# daemon/list.h on its own (header only: no daemon sources linked).
sudoku_add_test(NAME test_list SOURCES test_list.c LABELS daemon unit TIMEOUT 30)

# daemon/pool.c on its own, on a real libuv loop (no daemon spawned).
sudoku_add_test(NAME test_pool SOURCES test_pool.c ${CMAKE_SOURCE_DIR}/daemon/pool.c
                LIBS PkgConfig::LIBUV Threads::Threads LABELS daemon unit TIMEOUT 120)
