# docs.cmake -- checks of the documentation itself.
#
# docs_lint: every man page in docs/ passes mandoc -T lint and groff -ww
# without a message, each SYNOPSIS form starts a line of its own, and no
# Markdown table is split by a blank line (tests/docs_lint.sh; skipped, exit
# 77, when neither mandoc nor groff is installed).
add_test(NAME docs_lint COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/docs_lint.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(docs_lint PROPERTIES LABELS docs TIMEOUT 60 SKIP_RETURN_CODE 77)

# readme_examples: every build/bin/sudoku* command line in README.md runs from
# the source tree against a daemon on a temporary socket and exits 0, and the
# files it names are in a fresh clone (examples/, tests/data/).
# quickstart_log: scripts/quickstart.sh on this build shows the solution and
# keeps the daemon's log in a file it names; not in a sanitized tree (the
# script, which reconfigures the tree it runs on, is the same there).
if(TARGET sudokud AND TARGET sudoku AND TARGET sudoku-bench)
  add_test(NAME readme_examples COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/readme_examples.sh
    ${CMAKE_SOURCE_DIR} ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
  set_tests_properties(readme_examples PROPERTIES LABELS docs TIMEOUT 300)
  if(NOT SUDOKU_SANITIZE AND NOT SUDOKU_TSAN)
    add_test(NAME quickstart_log COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/quickstart_log.sh
      ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
    set_tests_properties(quickstart_log PROPERTIES LABELS docs TIMEOUT 300)
  endif()
endif()
