# bench_rate.cmake -- sudoku-bench --rate (cmake -P): one JSON line per
# explaining plugin and file, every key present, every puzzle of DATA rated
# with no refused answer; --rate --socket with no daemon there exits 3.
execute_process(COMMAND ${BENCH} -P ${PLUGIN_DIR} --rate --json ${DATA}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sudoku-bench --rate exited ${rc}: ${err}")
endif()
string(STRIP "${out}" out)
string(JSON solver GET "${out}" solver)
if(NOT solver STREQUAL "logic")
  message(FATAL_ERROR "want one line for logic, got: ${out}")
endif()
foreach(key mode file puzzles solved stuck not_unique errors wrong seconds puzzles_per_s
    engine_per_s us_p50 us_p99 mean_rating mean_steps)
  string(JSON v ERROR_VARIABLE jerr GET "${out}" ${key})
  if(jerr)
    message(FATAL_ERROR "key ${key} missing in: ${out}")
  endif()
  set(v_${key} "${v}")
endforeach()
if(NOT v_wrong EQUAL 0 OR NOT v_errors EQUAL 0 OR NOT v_solved EQUAL v_puzzles
    OR v_puzzles LESS 1)
  message(FATAL_ERROR "not every puzzle rated: ${out}")
endif()
execute_process(COMMAND ${BENCH} --rate --socket /nonexistent ${DATA}
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 3 OR NOT err MATCHES "nonexistent")
  message(FATAL_ERROR "--rate --socket without a daemon: want status 3, got ${rc}: ${err}")
endif()
