# tests/client.cmake -- libsudoku-client and the sudoku tool (label: client).
#
# test_client_wire: encode/decode on hand-written msgpack bytes, no daemon.
# test_client_batch: the pipelined batch against a scripted fake daemon.
# test_client_explain: explain and rate calls against a scripted fake daemon.
# test_client_hint: the tool's hint, explain and rate against a fake daemon.
# test_client_explain_e2e: hint, explain and rate against the real sudokud.
# test_client_e2e: the real sudoku tool and library against the real sudokud.
# test_client_find: how the tool finds the daemon and says why it cannot.
# test_client_names: the batch calls' two spellings, one function each.
# test_tool_commands: the tool's subcommand table, no daemon.
# test_tool_rules: variant rules in the tool (--rules, JSON lines), daemon and --local.
if(TARGET sudoku_client_static)
  # fake_peer: the scripted fake daemons' socketpair, send and serving loop.
  add_library(fake_peer STATIC fake_peer.c)
  target_link_libraries(fake_peer PUBLIC sudoku_client_static PkgConfig::CMOCKA)
  sudoku_add_test(NAME test_client_wire SOURCES test_client_wire.c
    LIBS sudoku_client_static LABELS client TIMEOUT 30)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_client_batch.c)
    sudoku_add_test(NAME test_client_batch SOURCES test_client_batch.c
      LIBS fake_peer sudoku_client_static Threads::Threads LABELS client TIMEOUT 60)
  endif()
  # sudoku_client_batch_* and their first spellings sudoku_batch_*: one
  # function each, in the archive and the shared library; each kind's requests.
  sudoku_add_test(NAME test_client_names SOURCES test_client_names.c
    LIBS fake_peer sudoku_client_static Threads::Threads ${CMAKE_DL_LIBS} LABELS client TIMEOUT 60)
  target_compile_definitions(test_client_names PRIVATE
    SUDOKU_CLIENT_SO="$<TARGET_FILE:sudoku_client_shared>")
  add_dependencies(test_client_names sudoku_client_shared)
  # explain and rate in the library, against a fake daemon on a socketpair.
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_client_explain.c)
    sudoku_add_test(NAME test_client_explain SOURCES test_client_explain.c
      LIBS fake_peer sudoku_client_static Threads::Threads LABELS client TIMEOUT 60)
  endif()
  if(TARGET sudokud AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_client_e2e.c)
    sudoku_add_test(NAME test_client_e2e SOURCES test_client_e2e.c
      LIBS tool_run fake_peer sudoku_client_static sudoku_core LABELS client TIMEOUT 300)
    add_dependencies(test_client_e2e sudoku sudokud)
    # sudoku hint, explain and rate: output and exit codes against a fake daemon.
    sudoku_add_test(NAME test_client_hint SOURCES test_client_hint.c
      LIBS tool_run fake_peer msgpackc LABELS client TIMEOUT 60)
    add_dependencies(test_client_hint sudoku)
    # hint, explain and rate against the real daemon: every step checked
    # against the unique solution, the tool's lines against the library's.
    sudoku_add_test(NAME test_client_explain_e2e SOURCES test_client_explain_e2e.c
      LIBS tool_run daemon_harness sudoku_client_static LABELS client TIMEOUT 300)
    add_dependencies(test_client_explain_e2e sudoku sudokud)
    # Variant rules: --rules, --regions and JSON lines, daemon and --local,
    # every solution checked against every rule (core/rules).
    sudoku_add_test(NAME test_tool_rules SOURCES test_tool_rules.c var_line.c
      LIBS tool_run daemon_harness sudoku_core sudoku_proto sudoku_util LABELS client TIMEOUT 300)
    add_dependencies(test_tool_rules sudoku sudokud)
    # The subcommand table: which row a command line runs, and its help.
    sudoku_add_test(NAME test_tool_commands SOURCES test_tool_commands.c
      LIBS tool_run LABELS client TIMEOUT 60)
    add_dependencies(test_tool_commands sudoku)
    # Finding the daemon: user then system socket, and why a connection fails.
    sudoku_add_test(NAME test_client_find SOURCES test_client_find.c
      LIBS daemon_harness LABELS client TIMEOUT 120)
    add_dependencies(test_client_find sudoku sudokud)
    # At a terminal: each typed puzzle is answered before the next is typed.
    find_program(SUDOKU_PYTHON3 python3)
    if(SUDOKU_PYTHON3)
      add_test(NAME client_tty COMMAND ${SUDOKU_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/client_tty.py
        $<TARGET_FILE:sudoku> $<TARGET_FILE:sudokud> ${SUDOKU_BUILD_PLUGIN_DIR}
        ${SUDOKU_TEST_DATA_DIR}/bench_small.txt)
      set_tests_properties(client_tty PROPERTIES LABELS client TIMEOUT 120)
    endif()
  endif()
endif()
# test_progress: the tool's progress line (tool/progress.c), drawn into a file.
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_progress.c)
  sudoku_add_test(NAME test_progress
    SOURCES test_progress.c ${CMAKE_SOURCE_DIR}/tool/progress.c LABELS client TIMEOUT 30)
endif()
# test_client_generate: the generate calls against a scripted fake daemon.
if(TARGET sudoku_client_static AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_client_generate.c)
  sudoku_add_test(NAME test_client_generate SOURCES test_client_generate.c
    LIBS fake_peer sudoku_client_static Threads::Threads LABELS client TIMEOUT 60)
endif()
# test_generate_e2e: sudoku generate and the library against two real daemons
# (--threads 2 and 1), every puzzle checked by dlx through solve.
if(TARGET sudokud AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_generate_e2e.c)
  sudoku_add_test(NAME test_generate_e2e SOURCES test_generate_e2e.c
    LIBS tool_run daemon_harness sudoku_client_static sudoku_core LABELS client TIMEOUT 120)
  add_dependencies(test_generate_e2e sudoku sudokud sudoku-bench)
endif()
