# bench_generate.cmake -- sudoku-bench --generate, run and checked (cmake -P).
#
# `--generate 30 --json` with two counting plugins and a symmetry: one JSON
# line per plugin with every documented key, 30 puzzles each, none wrong
# (the bench re-checks each puzzle: rules, solution, uniqueness), no error.
# Then the usage errors of the new options exit 2 naming what is wrong.
execute_process(COMMAND ${BENCH} --generate 30 --json --solver bitmask,dlx --symmetry rotate180
  --seed 7 --plugin-dir ${PLUGIN_DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sudoku-bench --generate exited ${rc}: ${err}")
endif()
string(STRIP "${out}" out)
string(REPLACE "\n" ";" lines "${out}")
list(LENGTH lines nlines)
if(NOT nlines EQUAL 2)
  message(FATAL_ERROR "want 2 result lines, got ${nlines}: ${out}")
endif()
set(keys generate solver size symmetry minimal seed puzzles wrong errors timeouts seconds
  cpu_seconds puzzles_per_s puzzles_per_cpu_s us_median us_p99 givens_avg solves_avg)
foreach(line IN LISTS lines)
  foreach(key IN LISTS keys)
    string(JSON v ERROR_VARIABLE jerr GET "${line}" ${key})
    if(jerr)
      message(FATAL_ERROR "key ${key} missing in: ${line} (${jerr})")
    endif()
    set(val_${key} "${v}")
  endforeach()
  if(NOT val_puzzles EQUAL 30 OR NOT val_wrong EQUAL 0 OR NOT val_errors EQUAL 0
      OR NOT val_size EQUAL 9 OR NOT val_symmetry STREQUAL "rotate180" OR NOT val_seed EQUAL 7)
    message(FATAL_ERROR "unexpected figures: ${line}")
  endif()
  message(STATUS "${val_solver}: ${val_puzzles} puzzles, ${val_givens_avg} givens")
endforeach()

# A band: every puzzle rated in it (the bench judges each rating against the band).
execute_process(COMMAND ${BENCH} --generate 6 --json --solver dlx --difficulty medium --seed 3
  --plugin-dir ${PLUGIN_DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sudoku-bench --generate --difficulty exited ${rc}: ${err}")
endif()
string(JSON wrong GET "${out}" wrong)
string(JSON puzzles GET "${out}" puzzles)
string(JSON band GET "${out}" band)
string(JSON rating GET "${out}" rating_avg)
if(NOT puzzles EQUAL 6 OR NOT wrong EQUAL 0 OR NOT band STREQUAL "medium"
    OR rating LESS_EQUAL 2.3 OR rating GREATER 3.4)
  message(FATAL_ERROR "unexpected band figures: ${out}")
endif()

# Usage errors: exit 2, stderr naming the problem.
foreach(case "--generate;5;--size;5|want 4, 9, 16 or 25"
    "--generate;5;--symmetry;spiral|want none, rotate180"
    "--size;9;x.txt|need --generate"
    "--generate;5;x.txt|takes no FILE"
    "--generate;0|--generate"
    "--generate;5;--difficulty;nightmare|want one of easy"
    "--generate;5;--rating;4-3|MIN <= MAX"
    "--difficulty;easy;x.txt|need --generate")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts -1 want)
  list(REMOVE_AT parts -1)
  execute_process(COMMAND ${BENCH} ${parts} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  string(FIND "${err}" "${want}" at)
  if(NOT rc EQUAL 2 OR at EQUAL -1)
    message(FATAL_ERROR "sudoku-bench ${parts}: exit ${rc}, want 2 and '${want}' in: ${err}")
  endif()
endforeach()
