# tests/sat.cmake -- the sat plugin's budgets, on copies built small.  LABELS core.
#
# plugins/sat builds sat.so only when CaDiCaL is found; then the same sources
# are built twice more with tiny budgets (-D), each in its own directory so
# both can be named "sat": tests/satbudget/learned (learned literals and
# blocking literals) and tests/satbudget/conflicts.
if(NOT TARGET sat)
  return()
endif()
set(SUDOKU_SATBUDGET_DIR ${CMAKE_BINARY_DIR}/tests/satbudget)
foreach(kind learned conflicts)
  add_library(tsat_${kind} MODULE ${CMAKE_SOURCE_DIR}/plugins/sat/sat.c
    ${CMAKE_SOURCE_DIR}/plugins/sat/singles.c ${CMAKE_SOURCE_DIR}/plugins/sat/rules.c)
  set_target_properties(tsat_${kind} PROPERTIES PREFIX "" OUTPUT_NAME sat
    C_VISIBILITY_PRESET hidden LIBRARY_OUTPUT_DIRECTORY ${SUDOKU_SATBUDGET_DIR}/${kind})
  target_include_directories(tsat_${kind} PRIVATE ${CADICAL_INCLUDE_DIR})
  target_link_libraries(tsat_${kind} PRIVATE ${CADICAL_LIBRARY} stdc++ m)
  target_link_options(tsat_${kind} PRIVATE -Wl,-z,defs -Wl,--exclude-libs,ALL)
endforeach()
target_compile_definitions(tsat_learned PRIVATE SAT_MAX_LEARNED_LITS=2000u
  SAT_MAX_BLOCK_LITS=100u)
target_compile_definitions(tsat_conflicts PRIVATE SAT_MAX_CONFLICTS=50u)

sudoku_add_test(NAME test_sat_budget SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_sat_budget.c
  LIBS sudoku_core sudoku_proto LABELS core TIMEOUT 60)
target_compile_definitions(test_sat_budget PRIVATE
  SUDOKU_SATBUDGET_DIR="${SUDOKU_SATBUDGET_DIR}")
add_dependencies(test_sat_budget tsat_learned tsat_conflicts)
