# tests/reliability.cmake -- reliability tests (labels: load, fuzz, reliability).
#
# test_load_fault: many clients, pipelined load and misbehaving peers against
#   the real sudokud (small by default; SUDOKU_LOAD_FULL=1 for 64 x 2,000).
# test_daemon_slots: connection slots (per-uid limit, message deadline,
#   eviction) and an orderly SIGTERM (every request answered, then EOF).
# test_load_access: socket mode, refused connections and their log line.
# replay_<target>: each libFuzzer target of fuzz/ built with a plain main()
#   that runs its seed corpus and every regression input (fuzz/regress/),
#   so any crash ever found stays fixed under every compiler and sanitizer.
if(TARGET daemon_harness AND TARGET sudokud)
  sudoku_add_test(NAME test_load_fault SOURCES test_load_fault.c
    LIBS daemon_harness Threads::Threads LABELS load TIMEOUT 600)
  add_dependencies(test_load_fault sudokud)
  sudoku_add_test(NAME test_daemon_slots SOURCES test_daemon_slots.c
    LIBS daemon_harness LABELS reliability daemon TIMEOUT 300)
  add_dependencies(test_daemon_slots sudokud)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_load_access.c)
    sudoku_add_test(NAME test_load_access SOURCES test_load_access.c
      LIBS daemon_harness LABELS reliability TIMEOUT 120)
    add_dependencies(test_load_access sudokud)
  endif()
endif()

set(_fuzz_dir ${CMAKE_SOURCE_DIR}/fuzz)
foreach(target codec mpscan rpc input)
  add_executable(replay_${target} ${_fuzz_dir}/replay.c ${_fuzz_dir}/fuzz_${target}.c)
  target_link_libraries(replay_${target} PRIVATE sudoku_core sudoku_proto)
  set_target_properties(replay_${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  add_test(NAME replay_${target}
    COMMAND replay_${target} ${_fuzz_dir}/corpus/${target} ${_fuzz_dir}/regress/${target})
  set_tests_properties(replay_${target} PROPERTIES TIMEOUT 60 LABELS "fuzz;reliability")
endforeach()
