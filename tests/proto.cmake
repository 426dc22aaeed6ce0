# tests/proto.cmake -- tests of proto/: puzzle codec, msgpack scanner, name table.
# Included by tests/CMakeLists.txt; each module has one cmocka executable.
sudoku_add_test(NAME test_codec SOURCES test_codec.c LIBS sudoku_core sudoku_proto LABELS proto)
sudoku_add_test(NAME test_mpscan SOURCES test_mpscan.c LIBS sudoku_proto LABELS proto)
sudoku_add_test(NAME test_protocol SOURCES test_protocol.c LIBS sudoku_proto LABELS proto)
sudoku_add_test(NAME test_input SOURCES test_input.c LIBS sudoku_proto LABELS proto)
sudoku_add_test(NAME test_opts SOURCES test_opts.c LIBS sudoku_opts LABELS proto)
# util/jsonread.c: the tools' JSON reader (JSON-lines input), its bounds and errors.
sudoku_add_test(NAME test_jsonread SOURCES test_jsonread.c LIBS sudoku_util LABELS proto)
sudoku_add_test(NAME test_rpc SOURCES test_rpc.c LIBS sudoku_proto LABELS proto)
sudoku_add_test(NAME test_mpsmall SOURCES test_mpsmall.c LIBS sudoku_proto LABELS proto)
sudoku_add_test(NAME test_marks SOURCES test_marks.c LIBS sudoku_proto LABELS proto)
