cmake_minimum_required(VERSION 3.25)
# cmake -DIN=<Core file> -DOUT=<copy> -DSUB=<mutant .sub file> -P core_substitute.cmake
# Copies IN to OUT with SUB's "Replace:" text (one line of Core's code, leading spaces aside)
# swapped for its "With:" text. Fails, naming the file, unless the text occurs exactly once: a
# mutant that no longer applies must not pass for one that is caught.
# Read as text, not with file(STRINGS), which would escape the semicolons of a C++ line.
file(READ "${SUB}" sub_text)
foreach(key Replace With)
  string(REGEX MATCH "\n${key}: ([^\n]*)" _ "\n${sub_text}")
  set(${key} "${CMAKE_MATCH_1}")
endforeach()
string(STRIP "${Replace}" Replace)
file(READ "${IN}" text)
include(${CMAKE_CURRENT_LIST_DIR}/CountOccurrences.cmake)
equifuzz_count_occurrences("${text}" "${Replace}" matches)
if(NOT matches EQUAL 1)
  message(FATAL_ERROR "mutant ${SUB}: '${Replace}' occurs ${matches} times in ${IN} (exactly once is needed)")
endif()
string(REPLACE "${Replace}" "${With}" text "${text}")
file(WRITE "${OUT}" "${text}")
