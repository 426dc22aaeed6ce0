# bench_rate.cmake -- sudoku-bench --rate (cmake -P): one JSON line per
# explaining plugin and file, every key present, every puzzle of DATA rated
# with no refused answer; --rate --socket with no daemon there exits 3;
# --steps 1 times hints.
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
# --steps 1 (a hint): at most one step per puzzle, said in max_steps, every
# answer still checked; --steps without --rate is a usage error.
execute_process(COMMAND ${BENCH} -P ${PLUGIN_DIR} --rate --steps 1 --json ${DATA}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sudoku-bench --rate --steps 1 exited ${rc}: ${err}")
endif()
string(STRIP "${out}" out)
foreach(key max_steps mean_steps wrong errors puzzles solved stuck)
  string(JSON h_${key} ERROR_VARIABLE jerr GET "${out}" ${key})
  if(jerr)
    message(FATAL_ERROR "key ${key} missing in: ${out}")
  endif()
endforeach()
math(EXPR h_rated "${h_solved} + ${h_stuck}")
if(NOT h_max_steps EQUAL 1 OR h_mean_steps GREATER 1 OR NOT h_wrong EQUAL 0
    OR NOT h_errors EQUAL 0 OR NOT h_rated EQUAL h_puzzles)
  message(FATAL_ERROR "--steps 1: want one checked step a puzzle, got: ${out}")
endif()
execute_process(COMMAND ${BENCH} --steps 1 ${DATA}
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--steps")
  message(FATAL_ERROR "--steps without --rate: want status 2 naming --steps, got ${rc}: ${err}")
endif()
