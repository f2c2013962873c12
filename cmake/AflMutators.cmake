# The AFL++ custom mutator libraries of the targets that declare a structured mutation (EQUIFUZZ_MUTATOR).
include_guard(GLOBAL)

# The AFL++ custom mutator library of a target that declares EQUIFUZZ_MUTATOR (equifuzz/mutator.h):
# afl-fuzz dlopens it into its own process, so it and what it needs (the harness's mutation helpers,
# the shared encodings, the pair's shared sources: its decoders and encoders) are compiled a second
# time, position-independent and without instrumentation or sanitizers. Only what the mutation
# reaches is linked (static archives), and -z defs proves nothing is left unresolved.
function(_equifuzz_afl_uninstrumented lib)
  # Built only as a mutator library needs it (pairs without structured mutations have none).
  set_target_properties(${lib} PROPERTIES POSITION_INDEPENDENT_CODE ON EXCLUDE_FROM_ALL ON)
  target_compile_options(${lib} PRIVATE -Wall -Wextra -O2 -fvisibility=hidden)
  target_compile_definitions(${lib} PRIVATE EQUIFUZZ_AFL_MUTATOR_LIBRARY)
  target_include_directories(${lib} PUBLIC "${EQUIFUZZ_ROOT}/differential" "${EQUIFUZZ_ROOT}/differential/harness"
                                           "${CMAKE_BINARY_DIR}/fdp-include" "${CMAKE_BINARY_DIR}/generated")
endfunction()

# In the pair's directory, where its libraries' imported targets (OpenSSL, libsecp256k1) are seen.
function(_equifuzz_afl_mutator_pair pair)
  if(NOT TARGET equifuzz_afl_mutator_harness)
    add_library(equifuzz_afl_mutator_harness STATIC ${EQUIFUZZ_HARNESS_SOURCES})
    _equifuzz_afl_uninstrumented(equifuzz_afl_mutator_harness)
    target_compile_definitions(equifuzz_afl_mutator_harness PRIVATE "EQUIFUZZ_DEFAULT_BUILD_DIR=\"\"")
    add_library(equifuzz_afl_mutator_common STATIC "${EQUIFUZZ_ROOT}/differential/common/digest.cpp"
                "${EQUIFUZZ_ROOT}/differential/common/transaction.cpp")
    _equifuzz_afl_uninstrumented(equifuzz_afl_mutator_common)
    target_link_libraries(equifuzz_afl_mutator_common PUBLIC equifuzz_afl_mutator_harness OpenSSL::Crypto)
  endif()
  set(pair_lib equifuzz_afl_mutator_pair_${pair})
  equifuzz_pair_get(${pair} SOURCES sources)
  equifuzz_pair_get(${pair} LIBS libs)
  set(side_objects "")
  foreach(role original optimized)  # a shared source may name a side (a pair's list of sides, say)
    string(TOUPPER "${role}" ROLE)
    equifuzz_pair_get(${pair} ${ROLE} side)
    get_filename_component(home "${side}" DIRECTORY)
    add_library(${pair_lib}_${role} OBJECT "${side}")
    _equifuzz_afl_uninstrumented(${pair_lib}_${role})
    target_compile_definitions(${pair_lib}_${role} PRIVATE EQUIFUZZ_SIDE_ROLE=${role})
    target_include_directories(${pair_lib}_${role} PRIVATE "${home}")
    list(APPEND side_objects "$<TARGET_OBJECTS:${pair_lib}_${role}>")
  endforeach()
  add_library(${pair_lib} STATIC ${sources} ${side_objects})
  _equifuzz_afl_uninstrumented(${pair_lib})
  target_link_libraries(${pair_lib} PUBLIC equifuzz_afl_mutator_harness)
  foreach(lib IN LISTS libs)
    if(lib STREQUAL "equifuzz_common")
      target_link_libraries(${pair_lib} PUBLIC equifuzz_afl_mutator_common)
    elseif(NOT lib MATCHES "^equifuzz_")  # system libraries; not Core's sides or oracle
      target_link_libraries(${pair_lib} PUBLIC ${lib})
    endif()
  endforeach()
endfunction()

function(_equifuzz_afl_mutator target pair source out_var)
  set(lib ${target}_afl_mutator)
  add_library(${lib} SHARED "${source}" "${EQUIFUZZ_ROOT}/differential/harness/afl_mutator.cpp")
  _equifuzz_afl_uninstrumented(${lib})
  set_target_properties(${lib} PROPERTIES EXCLUDE_FROM_ALL OFF)
  target_link_libraries(${lib} PRIVATE equifuzz_afl_mutator_pair_${pair})
  target_link_options(${lib} PRIVATE -Wl,-z,defs -Wl,--exclude-libs,ALL)
  set(${out_var} "$<TARGET_FILE:${lib}>" PARENT_SCOPE)
endfunction()
