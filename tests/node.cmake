# tests/node.cmake -- the Node client package, node/ (label: node).
#
# node_client: node/run-tests.sh installs the package's one dependency when
# node_modules lacks it (npm ci from the lock file), then runs node --test on
# node/test/*.test.js against real daemons it starts from this build tree
# (bin/sudokud, lib/sudokud/plugins, tests/plugins/liar9.so).  It fails
# when no test ran.  Needs node and npm (scripts/deps.sh installs them).
find_program(SUDOKU_NODE node)
find_program(SUDOKU_NPM npm)
if(NOT SUDOKU_NODE OR NOT SUDOKU_NPM)
  message(WARNING "node or npm not found: the Node client's tests (node_client) are not run")
elseif(TARGET sudokud AND EXISTS ${CMAKE_SOURCE_DIR}/node/run-tests.sh)
  add_test(NAME node_client
    COMMAND sh ${CMAKE_SOURCE_DIR}/node/run-tests.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(node_client PROPERTIES LABELS node TIMEOUT 300
    ENVIRONMENT "SUDOKUD_BUILD_DIR=${CMAKE_BINARY_DIR}")
endif()
