# tests/python.cmake -- the Python client package python/sudokud (label: python).
#
# python_client: pytest over python/tests against the real daemon of this
# build tree (SUDOKUD_BUILD_DIR), with Debian's interpreter, which has
# python3-msgpack and python3-pytest (scripts/deps.sh); a python3 first on
# PATH may be another build without them.  pytest exits 5 when it collects
# nothing and the suite's conftest fails a run in which no test passed, so
# a broken setup cannot pass silently.
# Not SUDOKU_PYTHON3: client.cmake finds that one on PATH for client_tty.
set(SUDOKU_DEBIAN_PYTHON3 /usr/bin/python3 CACHE FILEPATH "python3 with msgpack and pytest")
if(TARGET sudokud)
  add_test(NAME python_client
    COMMAND ${SUDOKU_DEBIAN_PYTHON3} -m pytest -q -p no:cacheprovider ${CMAKE_SOURCE_DIR}/python/tests
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/python)
  set_tests_properties(python_client PROPERTIES
    ENVIRONMENT "SUDOKUD_BUILD_DIR=${CMAKE_BINARY_DIR};PYTHONDONTWRITEBYTECODE=1"
    LABELS python TIMEOUT 300)
endif()
