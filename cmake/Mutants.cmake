# Mutant variants of a pair (cmake/Equifuzz.cmake, equifuzz_add_pair, EQUIFUZZ_MUTANTS=ON): a patch of
# our sides (.patch) or a one-line substitution in a Core file (.sub, applied by CoreObjects.cmake),
# their header lines as tools/equifuzz/mutant_file.py reads them, and which of them this build takes.
include_guard(GLOBAL)

# Every mutant file's header lines, as tools/equifuzz/mutant_file.py reads them (the one reader:
# CMake never parses a header itself): it writes them as set() lines, included here into the
# calling function's scope, where _equifuzz_mutant_header finds them. A file it refuses (a tier
# it does not know, a semicolon in the sentence) stops the configure with its one sentence.
macro(_equifuzz_read_mutant_headers pair)
  if(NOT "${ARGN}" STREQUAL "")
    set(_headers "${CMAKE_BINARY_DIR}/mutants/${pair}-headers.cmake")
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${EQUIFUZZ_ROOT}/tools"
                            "${Python3_EXECUTABLE}" -m equifuzz.mutant_file --cmake "${_headers}" ${ARGN}
                    RESULT_VARIABLE _rc ERROR_VARIABLE _err ERROR_STRIP_TRAILING_WHITESPACE)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "equifuzz: pair ${pair}: ${_err}")
    endif()
    set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                 ${ARGN} "${EQUIFUZZ_ROOT}/tools/equifuzz/mutant_file.py")
    include("${_headers}")
  endif()
endmacro()

# Sets <out> to the header value <key> (DESCRIPTION, KIND, CAUGHT_BY, TIER, SIDE, FILE, PATCHES,
# REQUIRES: mutant_file.cmake_vars) of mutant <file> of <pair>.
function(_equifuzz_mutant_header pair file key out)
  get_filename_component(mutant "${file}" NAME_WE)
  if(NOT DEFINED EQUIFUZZ_MUTANT_${pair}__${mutant}_KIND)
    message(FATAL_ERROR "equifuzz: the header lines of ${file} were not read (_equifuzz_read_mutant_headers)")
  endif()
  set(${out} "${EQUIFUZZ_MUTANT_${pair}__${mutant}_${key}}" PARENT_SCOPE)
endfunction()

# A mutant this build leaves out is listed with the mutants it cannot take (the manifest's
# mutants_not_applicable), so that a report says it was not checked here, and why.
function(_equifuzz_mutant_left_out pair file why)
  get_filename_component(mutant "${file}" NAME_WE)
  message(NOTICE "equifuzz: mutant ${pair}/${mutant} left out: ${why}")
  _equifuzz_mutant_header(${pair} "${file}" DESCRIPTION description)
  equifuzz_pair_property(${pair} NOT_APPLICABLE record)
  _equifuzz_json_append(${record} name "${mutant}" description "${description}" why "${why}")
endfunction()

# A mutant file with a line "Requires: thread-sanitizer" is a data race that no output shows
# (a release store made relaxed): only a ThreadSanitizer build can catch it, and only such a build
# compiles it. A ThreadSanitizer build (the tsan preset) compiles only those: the others are caught
# by the AddressSanitizer builds, and each Core mutant is a Core file compiled once more.
#
# A mutant file with a line "Requires: core-feature <NAME>" is caught only against a shape of
# Core's code that the pair's CORE_FEATURE probe <NAME> finds (prevout_fetch's model of the
# prefetch queue is caught against Core's StartFetching): on a Core optimized tree without it the
# mutant is not applicable, listed with why, never "missed".
function(_equifuzz_mutant_wanted pair file out)
  _equifuzz_mutant_header(${pair} "${file}" REQUIRES requires)
  set(feature_line "")
  set(needs_tsan FALSE)
  foreach(r IN LISTS requires)
    if(r MATCHES "^core-feature +([A-Z0-9_]+)" AND feature_line STREQUAL "")
      set(feature_line "${r}")
      set(feature "${CMAKE_MATCH_1}")
    elseif(r MATCHES "^thread-sanitizer")
      set(needs_tsan TRUE)
    endif()
  endforeach()
  if(NOT feature_line STREQUAL "")
    equifuzz_pair_get(${pair} CORE_FEATURES features)
    equifuzz_pair_get(${pair} CORE_optimized_TREE tree)
    set(probe "")
    foreach(f IN LISTS features)
      if(f MATCHES "^${feature}=")
        set(probe "${f}")
      endif()
    endforeach()
    if(probe STREQUAL "")
      message(FATAL_ERROR "mutant ${file} requires Core feature ${feature}, which pair ${pair} does not probe (CORE_FEATURE)")
    endif()
    set(missing "no Core optimized side")
    if(tree)
      equifuzz_tree_get(${tree} SRC src)
      _equifuzz_core_probe("${src}" "${probe}" missing)
    endif()
    if(NOT missing STREQUAL "")
      _equifuzz_mutant_left_out(${pair} "${file}"
        "it is caught only against Core's ${feature}, which the Core optimized tree lacks: ${missing}")
      set(${out} FALSE PARENT_SCOPE)
      return()
    endif()
  endif()
  set(tsan_build FALSE)
  if(EQUIFUZZ_SANITIZERS MATCHES "(^|,)thread(,|$)")
    set(tsan_build TRUE)
  endif()
  if(needs_tsan AND NOT tsan_build)
    _equifuzz_mutant_left_out(${pair} "${file}" "only ThreadSanitizer can catch it: the tsan build checks it (ci/tsan.sh)")
    set(${out} FALSE PARENT_SCOPE)
  elseif(tsan_build AND NOT needs_tsan)
    set(${out} FALSE PARENT_SCOPE)
  else()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

# A mutant is a unified diff against one side's source (its "+++ b/<path>" line names which), or
# against one of the pair's shared SOURCES (then every side and the pair's own checks see it),
# or against a header (or an included body, `.inc`) in differential/<pair>/ that both sides
# include as <pair/header.h>: the patched copy is then put ahead on the include path of one side
# only, the optimized one unless
# the patch has a line "Side: original", or of both with "Side: both" (a bug the sides share,
# which only a third side, such as the script pair's Bitcoin Core oracle, can see).
# A patch with a line "Requires: core-oracle" is left out (with a line saying so) when the Core
# oracle is not built, and one with "Requires: core-sides" when the pair has no Core side in this
# build (a bug shared by both of our sides, such as the utxo_flush pair's cache model), since
# nothing else could catch it.
# The patched copy is made at build time, so a patch that no longer applies fails the build
# with patch's own message instead of silently testing nothing.
# Its header lines are those tools/equifuzz/mutant_file.py reads and documents (the tool's one
# reader; tests/python/test_mutant_file.py checks that the manifest says what it reads).
function(_equifuzz_add_mutant pair patch)
  get_filename_component(mutant "${patch}" NAME_WE)
  _equifuzz_mutant_header(${pair} "${patch}" PATCHES rel)
  _equifuzz_mutant_header(${pair} "${patch}" DESCRIPTION description)
  _equifuzz_mutant_header(${pair} "${patch}" REQUIRES requires)
  if(rel STREQUAL "")
    message(FATAL_ERROR "mutant ${patch} has no '+++ b/<path>' line: it patches nothing")
  endif()
  if("core-oracle" IN_LIST requires AND NOT EQUIFUZZ_CORE_ORACLE_ENABLED)
    message(NOTICE "equifuzz: mutant ${pair}/${mutant} left out: only the Bitcoin Core oracle can catch it, and it is off")
    return()
  endif()
  equifuzz_pair_get(${pair} CORE_ROLES core_roles)
  if("core-sides" IN_LIST requires AND core_roles STREQUAL "")
    message(NOTICE "equifuzz: mutant ${pair}/${mutant} left out: only the pair's Bitcoin Core sides can catch it, and this build has none")
    return()
  endif()
  set(source "${EQUIFUZZ_ROOT}/${rel}")
  equifuzz_pair_get(${pair} ORIGINAL original)
  equifuzz_pair_get(${pair} OPTIMIZED optimized)
  set(patched "${CMAKE_BINARY_DIR}/mutants/${pair}/${mutant}/${rel}")
  add_custom_command(OUTPUT "${patched}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/mutants/${pair}/${mutant}"
    # No fuzz: a patch whose context lines changed fails the build rather than land elsewhere
    # (python3 -m equifuzz.mutant_file --refresh moves a patch whose lines only moved).
    COMMAND patch --quiet --force --fuzz=0 --output=${patched} "${source}" "${patch}"
    DEPENDS "${source}" "${patch}"
    COMMENT "equifuzz: mutant ${pair}/${mutant}: patching ${rel}")
  set(overlay "")
  # The directory of the pair's sides (differential/<pair>, or the pair they come from).
  get_filename_component(home_rel "${original}" DIRECTORY)
  file(RELATIVE_PATH home_rel "${EQUIFUZZ_ROOT}" "${home_rel}")
  equifuzz_pair_get(${pair} SOURCES shared_sources)
  if(source IN_LIST shared_sources)
    # A shared source (used by every side and by the pair's checks, e.g. a signature hash): the
    # variant compiles the patched copy alone and takes the pair's other shared objects as built
    # (_equifuzz_pair_library leaves out the default object of the file it replaces).
    get_filename_component(replaced "${source}" NAME)
    get_filename_component(home "${source}" DIRECTORY)
    string(REGEX REPLACE "([.+])" "\\\\\\1" replaced "${replaced}")
    equifuzz_pair_set(${pair} SHARED_${mutant}_REPLACES "/${replaced}\\.o$")
    equifuzz_pair_get(${pair} LIBS libs)
    add_library(equifuzz_pair_${pair}_shared__${mutant} OBJECT "${patched}")
    target_include_directories(equifuzz_pair_${pair}_shared__${mutant} PUBLIC "${EQUIFUZZ_ROOT}/differential"
                               PRIVATE "${home}")
    target_link_libraries(equifuzz_pair_${pair}_shared__${mutant} PUBLIC equifuzz_harness equifuzz_pair_${pair}_defs ${libs} PRIVATE equifuzz_flags)
  elseif(source STREQUAL optimized)
    set(optimized "${patched}")
  elseif(source STREQUAL original)
    set(original "${patched}")
  elseif(rel MATCHES "^${home_rel}/[^/]+\\.(h|inc)$")
    _equifuzz_mutant_header(${pair} "${patch}" SIDE side)
    set(role optimized)
    if(side MATCHES "^original")
      set(role original)
    elseif(side MATCHES "^both")
      set(role both)
    endif()
    set(overlay ${role} "${CMAKE_BINARY_DIR}/mutants/${pair}/${mutant}/differential" "${patched}")
  else()
    message(FATAL_ERROR "mutant ${patch} patches ${rel}, which is neither side of pair ${pair} nor one of its headers")
  endif()
  _equifuzz_pair_library(${pair} "${mutant}" "${original}" "${optimized}" ${overlay})
  equifuzz_pair_append(${pair} VARIANTS ${mutant})
  _equifuzz_mutant_kind(${pair} ${mutant} "${patch}")
  equifuzz_variant_set(${pair} ${mutant} DESCRIPTION "${description}")
  _equifuzz_mutant_caught_by(${pair} ${mutant} "${patch}")
endfunction()

# A mutant file's "Kind: refactor" line makes it a behaviour-preserving rewrite that every
# committed input must pass (tests/CMakeLists.txt, refactor/*); without it, a bug to be caught.
# Both kinds of mutant file (a patch of our sides, a Core substitution) say it the same way.
function(_equifuzz_mutant_kind pair mutant file)
  _equifuzz_mutant_header(${pair} "${file}" KIND kind)
  if(kind STREQUAL "refactor")
    equifuzz_variant_set(${pair} ${mutant} KIND refactor)
  else()
    equifuzz_variant_set(${pair} ${mutant} KIND mutant)
  endif()
endfunction()

# A mutant file's "Caught-by: <target>" line names the target whose committed regression input
# exposes it; with EQUIFUZZ_MUTANT_TARGETS=caught-by only that target is built against it.
function(_equifuzz_mutant_caught_by pair mutant file)
  _equifuzz_mutant_header(${pair} "${file}" CAUGHT_BY target)
  equifuzz_variant_set(${pair} ${mutant} CAUGHT_BY "${target}")
endfunction()
