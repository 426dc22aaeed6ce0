# bench_json.cmake -- run sudoku-bench and check what it prints (cmake -P).
#
# MODE=json (default): --json over DATA with the plugins in PLUGIN_DIR; every
#   line must be a JSON object with every documented key, and every solver
#   must have solved every puzzle with no wrong answer and no error.
# MODE=usage: a bad option and a missing file argument exit with status 2,
#   with a message naming the option; -h/--help and -V/--version exit with 0
#   and print the same; -P is --plugin-dir.
# MODE=daemon: start the real sudokud (SUDOKUD, plugins from PLUGIN_DIR) on
#   a temporary socket; `--socket --connections 2 --depth 8 --json DATA`
#   must answer every puzzle of DATA with no wrong answer and no error, and
#   `-s PATH --idle-connections 32` must report a positive daemon RSS.  Once the
#   daemon is stopped, both modes must exit 3.
# MODE=reader: the bench reads files with the tool's reader (proto/input.c):
#   a grid-form (judge) file DATA solves, and a line holding a NUL byte is
#   one error, not the puzzle before the NUL, while the line after it still solves.
if(NOT MODE)
  set(MODE json)
endif()

# ---- MODE=daemon helpers.  The daemon runs under timeout(1), so it cannot
# outlive a test that dies; every failure stops it before reporting.
macro(daemon_stop)
  if(daemon_pid)
    execute_process(COMMAND kill -TERM ${daemon_pid} RESULT_VARIABLE _krc ERROR_QUIET)
    # kill -0 fails once timeout(1) and sudokud are gone.
    foreach(_i RANGE 100)
      execute_process(COMMAND kill -0 ${daemon_pid} RESULT_VARIABLE _alive ERROR_QUIET)
      if(NOT _alive EQUAL 0)
        break()
      endif()
      execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 0.05)
    endforeach()
    set(daemon_pid "")
  endif()
endmacro()

function(daemon_fail msg)
  daemon_stop()
  if(EXISTS "${tmp}/sudokud.log")
    file(READ "${tmp}/sudokud.log" log)
  endif()
  file(REMOVE_RECURSE "${tmp}")
  message(FATAL_ERROR "${msg}\nsudokud log:\n${log}")
endfunction()

# JSON value of key in line, or a failure naming the key.
function(json_get out line key)
  string(JSON v ERROR_VARIABLE jerr GET "${line}" ${key})
  if(jerr)
    daemon_fail("key ${key} missing in: ${line} (${jerr})")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "daemon")
  # Puzzles in DATA: lines that are neither blank nor comments.
  file(STRINGS ${DATA} data_lines)
  set(want 0)
  foreach(l IN LISTS data_lines)
    if(NOT l MATCHES "^[ \t\r]*(#.*)?$")
      math(EXPR want "${want} + 1")
    endif()
  endforeach()

  execute_process(COMMAND mktemp -d /tmp/sudoku-bench.XXXXXX OUTPUT_VARIABLE tmp
    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mktemp failed")
  endif()
  set(sock ${tmp}/sudokud.sock)
  execute_process(COMMAND sh -c
    "timeout 300 \"$0\" -P \"$1\" -s \"$2\" >\"$3\" 2>&1 </dev/null & echo $!"
    ${SUDOKUD} ${PLUGIN_DIR} ${sock} ${tmp}/sudokud.log
    OUTPUT_VARIABLE daemon_pid OUTPUT_STRIP_TRAILING_WHITESPACE)
  foreach(i RANGE 200)
    if(EXISTS ${sock})
      break()
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 0.05)
  endforeach()
  if(NOT EXISTS ${sock})
    daemon_fail("sudokud did not create ${sock}")
  endif()

  # Pipelined run over two connections.
  execute_process(COMMAND ${BENCH} --socket ${sock} --connections 2 --depth 8 --json ${DATA}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    daemon_fail("sudoku-bench --socket exited ${rc}: ${err}")
  endif()
  string(STRIP "${out}" out)
  foreach(key requests wrong errors requests_per_s us_p50 us_p99 connections depth solved)
    json_get(val_${key} "${out}" ${key})
  endforeach()
  if(NOT val_requests EQUAL want OR NOT val_solved EQUAL want)
    daemon_fail("requests ${val_requests}, solved ${val_solved}, want ${want}: ${out}")
  endif()
  if(NOT val_wrong EQUAL 0 OR NOT val_errors EQUAL 0)
    daemon_fail("wrong/errors not 0: ${out}")
  endif()
  if(NOT val_connections EQUAL 2 OR NOT val_depth EQUAL 8)
    daemon_fail("connections/depth not 2/8: ${out}")
  endif()
  if(NOT val_requests_per_s GREATER 0 OR NOT val_us_p99 GREATER 0
      OR val_us_p50 GREATER val_us_p99)
    daemon_fail("implausible figures: ${out}")
  endif()
  message(STATUS "daemon run: ${val_requests}/${want} requests, all right")

  # Rating pipelined, and hints one at a time, through the daemon: every
  # puzzle of DATA (17-clue puzzles, each unique) answered and none wrong.
  foreach(args "--rate" "--rate;--steps;1")
    execute_process(COMMAND ${BENCH} --socket ${sock} ${args} --json ${DATA}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      daemon_fail("sudoku-bench --socket ${args} exited ${rc}: ${err}")
    endif()
    string(STRIP "${out}" out)
    foreach(key method puzzles answered refused wrong per_s us_p50 us_p99 rating_avg)
      json_get(val_${key} "${out}" ${key})
    endforeach()
    if(NOT val_answered EQUAL want OR NOT val_wrong EQUAL 0 OR NOT val_refused EQUAL 0
        OR NOT val_per_s GREATER 0 OR NOT val_rating_avg GREATER 1.0)
      daemon_fail("sudoku-bench --socket ${args}: want ${want} answered, none wrong: ${out}")
    endif()
  endforeach()
  if(NOT val_method STREQUAL "explain" OR NOT val_us_p99 GREATER 0)
    daemon_fail("hints: want method explain with latencies: ${out}")
  endif()

  # Footprint with 32 idle connections (-s is --socket).
  execute_process(COMMAND ${BENCH} -s ${sock} --idle-connections 32 --json
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    daemon_fail("sudoku-bench --idle-connections exited ${rc}: ${err}")
  endif()
  string(STRIP "${out}" out)
  json_get(rss "${out}" daemon_rss_kib)
  json_get(conns "${out}" connections)
  if(NOT rss GREATER 0 OR NOT conns EQUAL 32)
    daemon_fail("want a positive daemon_rss_kib with 32 connections: ${out}")
  endif()
  message(STATUS "idle: daemon_rss_kib ${rss} with ${conns} connections")

  # No daemon: exit 3 from both modes.
  daemon_stop()
  foreach(args "--socket;${sock};${DATA}" "--socket;${sock};--idle-connections;2")
    execute_process(COMMAND ${BENCH} ${args} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT rc EQUAL 3)
      daemon_fail("sudoku-bench ${args} without a daemon: exit ${rc}, want 3 (${err})")
    endif()
  endforeach()
  file(REMOVE_RECURSE "${tmp}")
  return()
endif()

if(MODE STREQUAL "reader")
  execute_process(COMMAND mktemp -d /tmp/sudoku-bench.XXXXXX OUTPUT_VARIABLE tmp
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(p 004300209005009001070060043006002087190007400050083000600000105003508690042910300)
  # A whole puzzle, a NUL, then junk: a reader that stops at the NUL would
  # take the puzzle.  cmake strings cannot hold NUL: printf writes the file.
  execute_process(COMMAND printf "%s\\000junk\\n%s\\n" ${p} ${p} OUTPUT_FILE ${tmp}/nul.txt)
  foreach(run "${tmp}/nul.txt;2;1" "${DATA};1;0")
    list(GET run 0 file)
    list(GET run 1 want_puzzles)
    list(GET run 2 want_errors)
    execute_process(COMMAND ${BENCH} --json --solver bitmask --plugin-dir ${PLUGIN_DIR} ${file}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(STRIP "${out}" out)
    foreach(key puzzles errors solved)
      string(JSON val_${key} ERROR_VARIABLE jerr GET "${out}" ${key})
      if(jerr)
        file(REMOVE_RECURSE "${tmp}")
        message(FATAL_ERROR "${file}: key ${key} missing in '${out}' (exit ${rc}: ${err})")
      endif()
    endforeach()
    math(EXPR want_solved "${want_puzzles} - ${want_errors}")
    # Exit 1 when any line was an error, as --help says; 0 when all solved.
    if(want_errors GREATER 0)
      set(want_rc 1)
    else()
      set(want_rc 0)
    endif()
    if(NOT rc EQUAL want_rc)
      file(REMOVE_RECURSE "${tmp}")
      message(FATAL_ERROR "${file}: exit ${rc}, want ${want_rc} (${err})")
    endif()
    if(NOT val_puzzles EQUAL want_puzzles OR NOT val_errors EQUAL want_errors
        OR NOT val_solved EQUAL want_solved)
      file(REMOVE_RECURSE "${tmp}")
      message(FATAL_ERROR "${file}: ${out}; want ${want_puzzles} puzzles, ${want_errors} errors")
    endif()
  endforeach()
  file(REMOVE_RECURSE "${tmp}")
  return()
endif()

if(MODE STREQUAL "usage")
  foreach(args "--bogus;x" "--limit;0;x" "--timeout-ms;-1;x" "--json"
      "--socket;s;--depth;0;x" "--socket;s;--connections;0;x" "--socket;s;--depth;5000;x"
      "--connections;2;x" "--repeat;2;x" "--socket;s;--repeat;0;x" "--idle-connections;3;x" "--idle-connections;0")
    execute_process(COMMAND ${BENCH} ${args} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT rc EQUAL 2)
      message(FATAL_ERROR "sudoku-bench ${args}: exit ${rc}, want 2 (${err})")
    endif()
  endforeach()
  # Each usage error names the option on stderr, points to --help, and
  # prints nothing on stdout.  "ARGS|MESSAGE", the ARGS separated by commas.
  set(try "\nTry 'sudoku-bench --help'.\n")
  foreach(case
      "--bogus,x|sudoku-bench: unknown option '--bogus'${try}"
      "-x,f|sudoku-bench: unknown option '-x'${try}"
      "f,--limit|sudoku-bench: option '--limit' needs an argument${try}"
      "-s|sudoku-bench: option '-s' needs an argument${try}"
      "--limit,0,f|sudoku-bench: invalid value for --limit: '0' (want a number >= 1)${try}"
      "--timeout-ms,-1,f|invalid value for --timeout-ms: '-1' (want 0..86400000)"
      "-s,s,--depth,x,f|invalid value for --depth: 'x' (want 1..4096)"
      "--connections,2,f|sudoku-bench: --connections, --depth and --repeat need --socket")
    string(FIND "${case}" "|" bar)
    string(SUBSTRING "${case}" 0 ${bar} args)
    math(EXPR bar "${bar} + 1")
    string(SUBSTRING "${case}" ${bar} -1 want)
    string(REPLACE "," ";" args "${args}")
    execute_process(COMMAND ${BENCH} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
      ERROR_VARIABLE err)
    string(FIND "${err}" "${want}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1 OR NOT out STREQUAL "")
      message(FATAL_ERROR "sudoku-bench ${args}: exit ${rc}, want 2 and '${want}' on stderr "
        "and nothing on stdout; stderr '${err}', stdout '${out}'")
    endif()
  endforeach()

  # The short and long forms of --help and --version print the same, on
  # stdout, and exit 0; the help lists the short letters every tool shares.
  foreach(pair "-h;--help" "-V;--version")
    list(GET pair 0 short)
    list(GET pair 1 long)
    execute_process(COMMAND ${BENCH} ${short} RESULT_VARIABLE rc_short OUTPUT_VARIABLE out_short)
    execute_process(COMMAND ${BENCH} ${long} RESULT_VARIABLE rc OUTPUT_VARIABLE out
      ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT rc_short EQUAL 0 OR out STREQUAL "" OR NOT err STREQUAL ""
        OR NOT out STREQUAL out_short)
      message(FATAL_ERROR "sudoku-bench ${short} / ${long}: exit ${rc_short} / ${rc}, "
        "output '${out_short}' / '${out}', stderr '${err}'")
    endif()
  endforeach()
  if(NOT out_short MATCHES "^sudoku-bench [0-9]")
    message(FATAL_ERROR "sudoku-bench -V printed '${out_short}'")
  endif()
  execute_process(COMMAND ${BENCH} --help OUTPUT_VARIABLE out)
  foreach(row "-P, --plugin-dir DIR" "-v, --verbose" "-s, --socket PATH" "-h, --help"
      "-V, --version")
    string(FIND "${out}" "  ${row} " at)
    if(at EQUAL -1)
      message(FATAL_ERROR "sudoku-bench --help lacks '${row}':\n${out}")
    endif()
  endforeach()

  # -P is --plugin-dir: nothing to load there is exit 1, naming the directory.
  set(empty_dir "${CMAKE_CURRENT_LIST_DIR}/no-such-plugin-dir")
  execute_process(COMMAND ${BENCH} -P ${empty_dir} ${CMAKE_CURRENT_LIST_DIR}/data/bench_small.txt
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  string(FIND "${err}" "no plugin loaded from ${empty_dir}" at)
  if(NOT rc EQUAL 1 OR at EQUAL -1)
    message(FATAL_ERROR "sudoku-bench -P ${empty_dir}: exit ${rc}, want 1 (${err})")
  endif()
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
