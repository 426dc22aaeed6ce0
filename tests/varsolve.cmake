# tests/varsolve.cmake -- the solver plugins on variant rules (issue #28).
#
# test_varsolve runs sat and dlx on tests/data/varsolve.txt with rules built
# by core/rules; var_line.c parses the lines.
sudoku_add_test(NAME test_varsolve SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_varsolve.c
  ${CMAKE_CURRENT_SOURCE_DIR}/var_line.c LIBS sudoku_core sudoku_proto LABELS core TIMEOUT 300)
target_include_directories(test_varsolve PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
