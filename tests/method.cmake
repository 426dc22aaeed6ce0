# tests/method.cmake -- the method interface (method/), through its table.
# LABELS method.
sudoku_add_test(NAME test_method SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_method.c
  LIBS sudoku_method LABELS method TIMEOUT 60)
