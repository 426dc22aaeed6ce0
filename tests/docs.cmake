# docs.cmake -- checks of the documentation itself.
#
# docs_lint: every man page in docs/ passes mandoc -T lint and groff -ww
# without a message, each SYNOPSIS form starts a line of its own, and no
# Markdown table is split by a blank line (tests/docs_lint.sh; skipped, exit
# 77, when neither mandoc nor groff is installed).
add_test(NAME docs_lint COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/docs_lint.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(docs_lint PROPERTIES LABELS docs TIMEOUT 60 SKIP_RETURN_CODE 77)
