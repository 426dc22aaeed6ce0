# bench_json.cmake -- run sudoku-bench and check what it prints (cmake -P).
#
# MODE=json (default): --json over DATA with the plugins in PLUGIN_DIR; every
#   line must be a JSON object with every documented key, and every solver
#   must have solved every puzzle with no wrong answer and no error.
# MODE=usage: a bad option and a missing file argument exit with status 2,
#   --help and --version exit with 0.
if(NOT MODE)
  set(MODE json)
endif()

if(MODE STREQUAL "usage")
  foreach(args "--bogus;x" "--limit;0;x" "--timeout-ms;-1;x" "--json")
    execute_process(COMMAND ${BENCH} ${args} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT rc EQUAL 2)
      message(FATAL_ERROR "sudoku-bench ${args}: exit ${rc}, want 2 (${err})")
    endif()
  endforeach()
  foreach(args "--help" "--version")
    execute_process(COMMAND ${BENCH} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
    if(NOT rc EQUAL 0 OR out STREQUAL "")
      message(FATAL_ERROR "sudoku-bench ${args}: exit ${rc}, output '${out}'")
    endif()
  endforeach()
  return()
endif()

execute_process(COMMAND ${BENCH} --json --plugin-dir ${PLUGIN_DIR} ${DATA}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sudoku-bench exited ${rc}: ${err}")
endif()
string(STRIP "${out}" out)
string(REPLACE "\n" ";" lines "${out}")
list(LENGTH lines nlines)
if(nlines LESS 1)
  message(FATAL_ERROR "sudoku-bench printed no result line")
endif()
set(keys solver file puzzles solved unsolvable errors wrong timeouts puzzles_per_s us_median
  us_p99 guesses_per_puzzle)
foreach(line IN LISTS lines)
  foreach(key IN LISTS keys)
    string(JSON v ERROR_VARIABLE jerr GET "${line}" ${key})
    if(jerr)
      message(FATAL_ERROR "key ${key} missing in: ${line} (${jerr})")
    endif()
    set(val_${key} "${v}")
  endforeach()
  if(val_puzzles LESS 1 OR NOT val_solved EQUAL val_puzzles)
    message(FATAL_ERROR "${val_solver}: solved ${val_solved} of ${val_puzzles}: ${line}")
  endif()
  if(NOT val_wrong EQUAL 0 OR NOT val_errors EQUAL 0 OR NOT val_timeouts EQUAL 0)
    message(FATAL_ERROR "${val_solver}: wrong/errors/timeouts not 0: ${line}")
  endif()
  if(NOT val_file STREQUAL DATA)
    message(FATAL_ERROR "file is '${val_file}', want '${DATA}'")
  endif()
  message(STATUS "${val_solver}: ${val_solved}/${val_puzzles} solved")
endforeach()
