# Finds cargo once for everything that needs it (the script pair's oracle, the Core trees):
# PATH first, then rustup's usual home (a shell that never sourced ~/.cargo/env).
# Result: the cache variable EQUIFUZZ_CARGO (empty or -NOTFOUND when there is none).
include_guard(GLOBAL)

function(equifuzz_find_cargo)
  set(homes "")
  foreach(home IN ITEMS "$ENV{CARGO_HOME}" "$ENV{HOME}/.cargo")
    if(NOT home STREQUAL "" AND NOT home STREQUAL "/.cargo")
      list(APPEND homes "${home}/bin")
    endif()
  endforeach()
  find_program(EQUIFUZZ_CARGO cargo)
  if(NOT EQUIFUZZ_CARGO)
    find_program(EQUIFUZZ_CARGO cargo PATHS ${homes} NO_DEFAULT_PATH)
  endif()
endfunction()

# The first "error: ..." line of cargo's stderr, or "exit <rc>": what a one-line OFF message quotes.
function(equifuzz_cargo_error stderr rc out)
  string(REGEX MATCH "error: [^\n]*" first "${stderr}")
  if(NOT first)
    set(first "exit ${rc}")
  endif()
  set(${out} "${first}" PARENT_SCOPE)
endfunction()
