# equifuzz_count_occurrences(<text> <needle> <out>): how many times <needle> occurs in <text>,
# without overlaps. Shared by CoreObjects.cmake (is a Core mutant applicable to a tree?) and
# core_substitute.cmake (the substitution itself), so that both count alike.
include_guard(GLOBAL)
function(equifuzz_count_occurrences text needle out)
  string(LENGTH "${needle}" n)
  set(count 0)
  while(TRUE)
    string(FIND "${text}" "${needle}" at)
    if(at EQUAL -1)
      break()
    endif()
    math(EXPR count "${count} + 1")
    math(EXPR at "${at} + ${n}")
    string(SUBSTRING "${text}" ${at} -1 text)
  endwhile()
  set(${out} ${count} PARENT_SCOPE)
endfunction()
