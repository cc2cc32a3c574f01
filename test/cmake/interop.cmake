# interop tests (included by test/CMakeLists.txt).
