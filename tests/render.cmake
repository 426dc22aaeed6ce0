# tests/render.cmake -- the tool's pictures (label: client).
#
# test_render: the drawing model and layout (tool/render.c) checked on the
#   picture: PNGs read back through cairo pixel by pixel, SVG text for
#   well-formedness and its digits.  The PNG and PDF cases skip when the
#   build has no cairo (CI installs libcairo2-dev, so they run there).
# test_render_e2e: the built sudoku's render, hint, explain and generate
#   pictures with --local (no daemon): files, magic bytes, PNGs read back.
# render_svg_xml: python3's own XML parser reads the tool's SVG and counts
#   its digits against the puzzle.
if(TARGET sudoku_render)
  sudoku_add_test(NAME test_render SOURCES test_render.c LIBS sudoku_render
    LABELS client TIMEOUT 60)
  if(TARGET sudoku)
    sudoku_add_test(NAME test_render_e2e SOURCES test_render_e2e.c
      LIBS tool_run sudoku_render LABELS client TIMEOUT 120)
    add_dependencies(test_render_e2e sudoku)
    find_program(SUDOKU_PYTHON3 python3)
    if(SUDOKU_PYTHON3)
      add_test(NAME render_svg_xml COMMAND ${SUDOKU_PYTHON3}
        ${CMAKE_CURRENT_SOURCE_DIR}/render_svg.py $<TARGET_FILE:sudoku>
        ${SUDOKU_BUILD_PLUGIN_DIR} ${SUDOKU_TEST_DATA_DIR})
      set_tests_properties(render_svg_xml PROPERTIES LABELS client TIMEOUT 60)
    endif()
  endif()
endif()
