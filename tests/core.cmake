# tests/core.cmake -- solver-core tests: the plugin host, the three plugins
# through the real dlopen path, and sudoku-bench.  LABELS core.
#
# The loader test gets its own plugin directory, tests/badplugins, holding
# tiny test-only plugins (tests/plugins/tplugin.c built once per kind) that
# each break one rule, so the real plugin directory stays clean.

set(SUDOKU_BADPLUGIN_DIR ${CMAKE_BINARY_DIR}/tests/badplugins)

# sudoku_add_test_plugin(target file-stem KIND [NAME])
function(sudoku_add_test_plugin target stem kind)
  add_library(${target} MODULE ${CMAKE_CURRENT_SOURCE_DIR}/plugins/tplugin.c)
  set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME ${stem}
    C_VISIBILITY_PRESET hidden LIBRARY_OUTPUT_DIRECTORY ${SUDOKU_BADPLUGIN_DIR})
  target_compile_definitions(${target} PRIVATE TP_KIND=${kind})
  target_link_options(${target} PRIVATE -Wl,-z,defs)
  set_property(GLOBAL APPEND PROPERTY SUDOKU_TEST_PLUGINS ${target})
endfunction()

# Loaded in name order: a_good loads, b_dup repeats its name, the rest break
# one rule each, z_liar loads and then lies.
sudoku_add_test_plugin(tp_good      a_good      1)
sudoku_add_test_plugin(tp_dup       b_dup       1)
sudoku_add_test_plugin(tp_badabi    c_badabi    2)
sudoku_add_test_plugin(tp_nosolve   d_nosolve   3)
sudoku_add_test_plugin(tp_badname   e_badname   4)
sudoku_add_test_plugin(tp_nosizes   f_nosizes   5)
sudoku_add_test_plugin(tp_nullentry g_nullentry 6)
sudoku_add_test_plugin(tp_initfail  h_initfail  7)
sudoku_add_test_plugin(tp_small     i_small     8)
sudoku_add_test_plugin(tp_liar      z_liar      9)
sudoku_add_test_plugin(tp_escdesc   l_escdesc   10)
sudoku_add_test_plugin(tp_crver     m_crver     11)
sudoku_add_test_plugin(tp_latin1    n_latin1    12)
sudoku_add_test_plugin(tp_c1desc    o_c1desc    13)
sudoku_add_test_plugin(tp_longver   p_longver   14)
# Refused (init fails) but never unloaded: its name must not shadow z_liar.
sudoku_add_test_plugin(tp_nodelete  q_nodelete  7)
target_link_options(tp_nodelete PRIVATE -Wl,-z,nodelete)
add_library(tp_notplugin MODULE ${CMAKE_CURRENT_SOURCE_DIR}/plugins/notplugin.c)
set_target_properties(tp_notplugin PROPERTIES PREFIX "" OUTPUT_NAME j_notplugin
  LIBRARY_OUTPUT_DIRECTORY ${SUDOKU_BADPLUGIN_DIR})
# Not an ELF file at all.
file(WRITE ${SUDOKU_BADPLUGIN_DIR}/k_garbage.so "this is not a shared object\n")

# tests/threadplugins: plugins for how the host calls them (tthreads.c).
set(SUDOKU_THREADPLUGIN_DIR ${CMAKE_BINARY_DIR}/tests/threadplugins)
foreach(kind serial meet late)
  string(TOUPPER ${kind} _kind)
  add_library(tt_${kind} MODULE ${CMAKE_CURRENT_SOURCE_DIR}/plugins/tthreads.c)
  set_target_properties(tt_${kind} PROPERTIES PREFIX "" OUTPUT_NAME ${kind}
    C_VISIBILITY_PRESET hidden LIBRARY_OUTPUT_DIRECTORY ${SUDOKU_THREADPLUGIN_DIR})
  target_compile_definitions(tt_${kind} PRIVATE TT_KIND=TT_KIND_${_kind})
  target_link_options(tt_${kind} PRIVATE -Wl,-z,defs)
  set_property(GLOBAL APPEND PROPERTY SUDOKU_TEST_PLUGINS tt_${kind})
endforeach()

sudoku_add_test(NAME test_host SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_host.c
  LIBS sudoku_core sudoku_proto LABELS core TIMEOUT 60)
target_compile_definitions(test_host PRIVATE SUDOKU_BADPLUGIN_DIR="${SUDOKU_BADPLUGIN_DIR}"
  SUDOKU_THREADPLUGIN_DIR="${SUDOKU_THREADPLUGIN_DIR}")
get_property(_tplugins GLOBAL PROPERTY SUDOKU_TEST_PLUGINS)
add_dependencies(test_host ${_tplugins} tp_notplugin)

sudoku_add_test(NAME test_plugins SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_plugins.c
  LIBS sudoku_core sudoku_proto Threads::Threads LABELS core TIMEOUT 600)

# sudoku-bench --json on a small file: every key present, every answer right.
if(TARGET sudoku-bench)
  add_test(NAME bench_json COMMAND ${CMAKE_COMMAND}
    -DBENCH=$<TARGET_FILE:sudoku-bench> -DPLUGIN_DIR=${SUDOKU_BUILD_PLUGIN_DIR}
    -DDATA=${SUDOKU_TEST_DATA_DIR}/bench_small.txt
    -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_json.cmake)
  set_tests_properties(bench_json PROPERTIES LABELS core TIMEOUT 300)
  add_test(NAME bench_usage COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:sudoku-bench>
    -DMODE=usage -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_json.cmake)
  set_tests_properties(bench_usage PROPERTIES LABELS core TIMEOUT 60)
  # sudoku-bench --rate: the logic plugin rates every puzzle, checked by the host.
  add_test(NAME bench_rate COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:sudoku-bench>
    -DPLUGIN_DIR=${SUDOKU_BUILD_PLUGIN_DIR} -DDATA=${SUDOKU_TEST_DATA_DIR}/kaggle_sample.txt
    -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_rate.cmake)
  set_tests_properties(bench_rate PROPERTIES LABELS core TIMEOUT 60)
  # The bench reads files as the tool does: grid form, and a NUL byte in a line.
  add_test(NAME bench_reader COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:sudoku-bench>
    -DPLUGIN_DIR=${SUDOKU_BUILD_PLUGIN_DIR} -DDATA=${SUDOKU_TEST_DATA_DIR}/client_judge.txt
    -DMODE=reader -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_json.cmake)
  set_tests_properties(bench_reader PROPERTIES LABELS core TIMEOUT 60)
  # sudoku-bench --generate: every puzzle re-checked, JSON keys, usage errors.
  add_test(NAME bench_generate COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:sudoku-bench>
    -DPLUGIN_DIR=${SUDOKU_BUILD_PLUGIN_DIR} -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_generate.cmake)
  set_tests_properties(bench_generate PROPERTIES LABELS core TIMEOUT 120)
  # sudoku-bench --socket against the real daemon: every answer right, RSS read.
  if(TARGET sudokud)
    add_test(NAME bench_daemon COMMAND ${CMAKE_COMMAND}
      -DBENCH=$<TARGET_FILE:sudoku-bench> -DSUDOKUD=$<TARGET_FILE:sudokud>
      -DPLUGIN_DIR=${SUDOKU_BUILD_PLUGIN_DIR} -DDATA=${SUDOKU_TEST_DATA_DIR}/daemon_17clue.txt
      -DMODE=daemon -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_json.cmake)
    set_tests_properties(bench_daemon PROPERTIES LABELS "core;bench" TIMEOUT 300)
  endif()
endif()

# The grid rules (core/grid.c).
sudoku_add_test(NAME test_grid SOURCES test_grid.c LIBS sudoku_core sudoku_proto LABELS core)

# dfs keeps the classic tree: same guesses as a scanning search written in the test.
sudoku_add_test(NAME test_dfs_tree SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_dfs_tree.c
  LIBS sudoku_core sudoku_proto LABELS core TIMEOUT 120)

# Each folder includes only what lies below it; the client library links no
# solver and nothing of the daemon's end of the wire, and shows only sudoku_*
# symbols.
if(TARGET sudoku_client_static)
  add_test(NAME layers COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/layers.sh ${CMAKE_SOURCE_DIR}
    ${CMAKE_BINARY_DIR}/lib/libsudoku-client.a $<TARGET_FILE:sudoku_client_shared>
    $<TARGET_FILE:sudoku_client_static>)
  set_tests_properties(layers PROPERTIES LABELS core TIMEOUT 60)
endif()

# The plugin ABI header in strict C11, C17 and C++17.
find_program(SUDOKU_CXX NAMES g++ c++ clang++)
add_test(NAME header_std COMMAND ${CMAKE_COMMAND} -DCC=${CMAKE_C_COMPILER} -DCXX=${SUDOKU_CXX}
  -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/header_std.c -DINC=${CMAKE_SOURCE_DIR}/include
  -P ${CMAKE_CURRENT_SOURCE_DIR}/header_std.cmake)
set_tests_properties(header_std PROPERTIES LABELS core TIMEOUT 60)
# The puzzle generator: every puzzle judged by another plugin (unique, minimal, symmetric).
sudoku_add_test(NAME test_generate SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_generate.c
  LIBS sudoku_core sudoku_proto Threads::Threads LABELS core TIMEOUT 300)

# The logic plugin through the host (host_explain), and ABI minor 1: a
# plugin built against minor 0 and five explain() liars in tests/explainplugins.
set(SUDOKU_EXPLAINPLUGIN_DIR ${CMAKE_BINARY_DIR}/tests/explainplugins)
foreach(kind minor0 wrong nochange short rating above stuck)
  string(TOUPPER ${kind} _kind)
  add_library(tx_${kind} MODULE ${CMAKE_CURRENT_SOURCE_DIR}/plugins/texplain.c)
  set_target_properties(tx_${kind} PROPERTIES PREFIX "" OUTPUT_NAME x${kind}
    C_VISIBILITY_PRESET hidden LIBRARY_OUTPUT_DIRECTORY ${SUDOKU_EXPLAINPLUGIN_DIR})
  target_compile_definitions(tx_${kind} PRIVATE TX_KIND=TX_KIND_${_kind} TX_NAME="x${kind}")
  target_link_options(tx_${kind} PRIVATE -Wl,-z,defs)
  list(APPEND _txplugins tx_${kind})
endforeach()
sudoku_add_test(NAME test_logic SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_logic.c
  LIBS sudoku_core sudoku_proto LABELS core TIMEOUT 240)
target_compile_definitions(test_logic PRIVATE SUDOKU_EXPLAINPLUGIN_DIR="${SUDOKU_EXPLAINPLUGIN_DIR}")
add_dependencies(test_logic ${_txplugins})
# The logic plugin's ratings against Sudoku Explainer's (tests/data/se_ratings.txt).
sudoku_add_test(NAME test_se_ratings SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_se_ratings.c
  LIBS sudoku_core sudoku_proto m LABELS core TIMEOUT 300)
# SE's recorded ratings (bench/data/serate) read through scripts/se_compare.py
# and hold the golden file (tests/se_reference.py; no SE needed).
add_test(NAME se_reference COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/se_reference.py
  ${CMAKE_SOURCE_DIR})
set_tests_properties(se_reference PROPERTIES LABELS core TIMEOUT 60
  ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
# Each technique of the logic plugin on hand-made positions (linked with its sources).
set(_lg ${CMAKE_SOURCE_DIR}/plugins/logic)
sudoku_add_test(NAME test_logic_tech SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_logic_tech.c
  ${_lg}/grid.c ${_lg}/direct.c ${_lg}/basic.c ${_lg}/fish.c ${_lg}/unique.c ${_lg}/aligned.c ${_lg}/sechain.c ${_lg}/senest.c ${_lg}/chains.c ${_lg}/forcing.c ${_lg}/branch9.c ${_lg}/text.c
  ${_lg}/explain.c ${_lg}/plugin.c ${_lg}/solve.c ${_lg}/marks.c ${_lg}/variant.c ${_lg}/killer.c LABELS core TIMEOUT 60)
target_include_directories(test_logic_tech PRIVATE ${_lg})
target_compile_definitions(test_logic_tech PRIVATE SUDOKU_DOCS_DIR="${CMAKE_SOURCE_DIR}/docs")
# Variant puzzles explained to the end, and each variant technique on a hand-made position
# (linked with the plugin's sources; core/rules builds the tables and counts independently).
sudoku_add_test(NAME test_logic_variants SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_logic_variants.c
  ${_lg}/grid.c ${_lg}/direct.c ${_lg}/basic.c ${_lg}/fish.c ${_lg}/unique.c ${_lg}/aligned.c ${_lg}/sechain.c ${_lg}/senest.c ${_lg}/chains.c ${_lg}/forcing.c ${_lg}/branch9.c ${_lg}/text.c
  ${_lg}/explain.c ${_lg}/plugin.c ${_lg}/solve.c ${_lg}/marks.c ${_lg}/variant.c ${_lg}/killer.c LIBS sudoku_core LABELS core TIMEOUT 300)
target_include_directories(test_logic_variants PRIVATE ${_lg})
target_compile_definitions(test_logic_variants PRIVATE SUDOKU_DOCS_DIR="${CMAKE_SOURCE_DIR}/docs")

# The variant rules (core/rules): built, validated, checked and counted
# over the golden puzzles of tests/data/variants.txt.
sudoku_add_test(NAME test_rules SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_rules.c
  LIBS sudoku_core LABELS core TIMEOUT 120)

# core/marshal.c (jobs as flat bytes for the plugin workers) and core/sha256.c.
sudoku_add_test(NAME test_marshal SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_marshal.c
                LIBS sudoku_core LABELS core unit TIMEOUT 120)

# The generator under variant rules: every puzzle unique by core/rules'
# independent count, drawn layouts and cages valid, same seed same bytes.
sudoku_add_test(NAME test_gen_variant SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_gen_variant.c
  LIBS sudoku_core sudoku_proto Threads::Threads LABELS core TIMEOUT 300)
