# header_std.cmake -- compile tests/header_std.c against include/sudoku/plugin.h
# and plugin_rules.h
# as strict C11, strict C17 and C++17, warnings as errors (cmake -P).
#   -DCC=... -DCXX=... (CXX may be empty: then C++ is skipped) -DSRC=... -DINC=...
set(flags -Wall -Wextra -pedantic-errors -Werror -I${INC} -c ${SRC} -o /dev/null)
foreach(std c11 c17)
  execute_process(COMMAND ${CC} -std=${std} ${flags} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "plugin.h does not compile as ${std}:\n${err}")
  endif()
  message(STATUS "plugin.h: ${std} ok")
endforeach()
if(CXX)
  execute_process(COMMAND ${CXX} -x c++ -std=c++17 ${flags} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "plugin.h does not compile as C++17:\n${err}")
  endif()
  message(STATUS "plugin.h: c++17 ok")
else()
  message(FATAL_ERROR "no C++ compiler found: install g++ (scripts/deps.sh does)")
endif()
