cmake_minimum_required(VERSION 3.25)
# cmake -DIN=<Core file> -DOUT=<copy> -DSUB=<mutant .sub file> -P core_substitute.cmake
# Copies IN to OUT with each of SUB's "Replace:" texts (one line of Core's code, leading spaces
# aside) swapped for the "With:" text after it. Fails, naming the file, unless each text occurs
# exactly once: a mutant that no longer applies must not pass for one that is caught.
# Read as text, not with file(STRINGS), which would escape the semicolons of a C++ line.
file(READ "${SUB}" sub_text)
file(READ "${IN}" text)
include(${CMAKE_CURRENT_LIST_DIR}/CountOccurrences.cmake)
equifuzz_substitute("${sub_text}" "${text}" text problem)
if(NOT problem STREQUAL "")
  message(FATAL_ERROR "mutant ${SUB}: ${IN} ${problem} (exactly once is needed)")
endif()
file(WRITE "${OUT}" "${text}")
