# How pairs, their variants (mutants, adapters) and fuzz targets are declared.
#
#   equifuzz_add_pair(<pair> ORIGINAL <src> OPTIMIZED <src> [SOURCES <src>...] [LIBS <lib>...]
#                     [CORE_SHIM <src> CORE_TREES <before> <after> [CORE_COMMITS <entry>]
#                      [CORE_SOURCES <rel>...]
#                      [CORE_REQUIRE <name>=<rel>:<regex>...] [CORE_FEATURE <name>=<rel>:<regex>...]
#                      [CORE_EDIT <original|optimized>=<sub file>...] [CORE_LEVELDB]
#                      [CORE_WRAP <symbol>...]] [NO_TRACE_CMP])
#       Builds library equifuzz_pair_<pair>: the shared SOURCES plus both sides. Each side is its
#       own object library compiled with -DEQUIFUZZ_SIDE_ROLE=<role>. The cache options
#       EQUIFUZZ_<PAIR>_ORIGINAL and EQUIFUZZ_<PAIR>_OPTIMIZED replace a side by an adapter file.
#       Every differential/<pair>/mutants/*.patch becomes a mutant variant (EQUIFUZZ_MUTANTS=ON).
#       With CORE_SHIM, Bitcoin Core's own code joins as the sides core_original and
#       core_optimized (cmake/CoreTrees.cmake, cmake/CoreObjects.cmake): the shim and the CORE_SOURCES (paths under src/;
#       those a tree lacks are skipped) compiled against the commits before and after the change
#       that CORE_COMMITS names in differential/core/commits.json (from git), or without git the
#       registry trees kernel-<before> and kernel-<after>, or the user's trees. A tree failing a CORE_REQUIRE probe leaves that
#       side out with one line; each CORE_FEATURE that matches defines EQUIFUZZ_CORE_HAS_<name>.
#       A CORE_EDIT is a one-line substitution (the .sub format of mutants) that configures one
#       Core side, made in a copy of a header in the build directory and put ahead of the tree
#       (the script pair's Core at 8000-byte elements); a tree without the line is taken as is.
#       Every differential/<pair>/mutants/*.sub is a one-line mutant of a Core file.
#       CORE_LEVELDB: the Core sides also compile each tree's own LevelDB and crc32c (src/leveldb,
#       src/crc32c, configured as Core's build configures them) and see their headers.
#       CORE_WRAP: in each Core side, the calls to these (mangled) symbols go to the shim's
#       __wrap_<symbol>, which reaches the original as __real_<symbol> (ld's --wrap, applied when
#       the side's objects are linked into one; nothing outside the side sees it). The utxo_flush
#       pair wraps leveldb::Env::Default() to hand LevelDB a file system that fails on request.
#       NO_TRACE_CMP: the sides (ours, Core's, every variant) are compiled without libFuzzer's
#       comparison tracing (-fno-sanitize-coverage=trace-cmp); they keep edge coverage, ASan and
#       UBSan, and the pair's decoder and checks keep trace-cmp. For pairs whose sides branch on
#       nothing but lengths and loop counters (XOR, SipHash): there, every loop test would be a call
#       into libFuzzer that tells it nothing the decoder had not chosen (the cost is measured in
#       bench/results/2026-11-24-throughput.md).
#
#   equifuzz_add_adapter_variant(<pair> <variant> ROLE <original|optimized> SOURCE <src>)
#       Another implementation of one side, built beside the default one and replayed by ctest.
#
#   equifuzz_add_target(<target> PAIR <pair>)
#       Builds fuzz_targets/<target>.cpp against the pair (binary <target>) and against each of the
#       pair's variants (binary <target>__<variant>), for the engine this tree is configured for.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/PairRecord.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/CoreTrees.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/CoreObjects.cmake)

get_filename_component(EQUIFUZZ_ROOT "${CMAKE_CURRENT_LIST_DIR}" DIRECTORY)
# The harness (differential/harness): comparisons and findings, the environment's settings,
# rendering, the tools' lines, and the structured mutators' entry point.
set(EQUIFUZZ_HARNESS_SOURCES
    "${EQUIFUZZ_ROOT}/differential/harness/harness.cpp" "${EQUIFUZZ_ROOT}/differential/harness/settings.cpp"
    "${EQUIFUZZ_ROOT}/differential/harness/render.cpp" "${EQUIFUZZ_ROOT}/differential/harness/record.cpp"
    "${EQUIFUZZ_ROOT}/differential/harness/mutator.cpp")
set(EQUIFUZZ_TARGETS_JSON_ENTRIES "" CACHE INTERNAL "")

# What every side object of <pair> (ours, Core's, their variants) is compiled with beyond the build's flags.
function(_equifuzz_side_flags pair obj)
  equifuzz_pair_get(${pair} NO_TRACE_CMP no_trace_cmp)
  if(no_trace_cmp)
    target_link_libraries(${obj} PRIVATE equifuzz_side_no_trace_cmp)
  endif()
endfunction()

function(_equifuzz_side_object pair name role source out_var)
  # A variant that leaves this side as it is reuses the default build of it.
  string(TOUPPER "${role}" ROLE)
  equifuzz_pair_get(${pair} ${ROLE} default_source)
  set(overlaid FALSE)
  if(ARGC GREATER 5 AND (ARGV5 STREQUAL role OR ARGV5 STREQUAL "both"))
    set(overlaid TRUE)
  endif()
  if(NOT name STREQUAL "default" AND source STREQUAL default_source AND NOT overlaid)
    set(${out_var} "equifuzz_side_${pair}_default_${role}" PARENT_SCOPE)
    return()
  endif()
  set(obj "equifuzz_side_${pair}_${name}_${role}")
  add_library(${obj} OBJECT "${source}")
  # A mutant of a header the pair's sides share: this side alone sees the patched copy, which
  # sits ahead of the pair's own headers (sides include it as <pair/header.h>, not "header.h").
  if(overlaid)
    target_include_directories(${obj} BEFORE PRIVATE "${ARGV6}")
    target_sources(${obj} PRIVATE "${ARGV7}")
  endif()
  target_compile_definitions(${obj} PRIVATE EQUIFUZZ_SIDE_ROLE=${role})
  # A patched copy lives in the build tree: let it still find the headers beside the side's own
  # source (a pair may take its sides from another pair's directory, as siphash_uj does).
  get_filename_component(home "${default_source}" DIRECTORY)
  target_include_directories(${obj} PRIVATE "${home}" "${EQUIFUZZ_ROOT}/differential")
  target_link_libraries(${obj} PRIVATE equifuzz_flags equifuzz_harness)
  _equifuzz_side_flags(${pair} ${obj})
  set(${out_var} ${obj} PARENT_SCOPE)
endfunction()

function(_equifuzz_pair_library pair variant original optimized)
  equifuzz_pair_get(${pair} LIBS libs)
  if(variant STREQUAL "")
    set(lib equifuzz_pair_${pair})
    set(tag default)
  else()
    set(lib equifuzz_pair_${pair}__${variant})
    set(tag ${variant})
  endif()
  # Optional ARGN: <overlay role> <overlay include dir> <patched header> (see _equifuzz_add_mutant).
  _equifuzz_side_object(${pair} ${tag} original "${original}" obj_original ${ARGN})
  _equifuzz_side_object(${pair} ${tag} optimized "${optimized}" obj_optimized ${ARGN})
  # The shared sources are compiled once per pair (equifuzz_pair_<pair>_shared) and reused; a
  # mutant of one of them brings its own object of that file (see _equifuzz_add_mutant).
  set(shared_objects "$<TARGET_OBJECTS:equifuzz_pair_${pair}_shared>")
  if(TARGET equifuzz_pair_${pair}_shared__${tag})
    equifuzz_pair_get(${pair} SHARED_${tag}_REPLACES replaced)
    set(shared_objects "$<TARGET_OBJECTS:equifuzz_pair_${pair}_shared__${tag}>"
                       "$<FILTER:$<TARGET_OBJECTS:equifuzz_pair_${pair}_shared>,EXCLUDE,${replaced}>")
  endif()
  add_library(${lib} STATIC ${shared_objects} $<TARGET_OBJECTS:${obj_original}> $<TARGET_OBJECTS:${obj_optimized}>)
  add_dependencies(${lib} equifuzz_pair_${pair}_shared)
  target_include_directories(${lib} PUBLIC "${EQUIFUZZ_ROOT}/differential")
  target_link_libraries(${lib} PUBLIC equifuzz_harness equifuzz_pair_${pair}_defs ${libs} PRIVATE equifuzz_flags)
  _equifuzz_core_link(${pair} ${lib})
endfunction()

# A pair's named choices (differential/<pair>/choices.json, see harness/equifuzz/choices.h) as
# the header <equifuzz/choices/<pair>.h>, written at configure time and again when the JSON or
# the generator changes (a file it would not change is left alone).
function(_equifuzz_pair_choices pair)
  # A glob, so that a choices.json added later reconfigures the build.
  file(GLOB json CONFIGURE_DEPENDS "${EQUIFUZZ_ROOT}/differential/${pair}/choices.json")
  if(json STREQUAL "")
    return()
  endif()
  set(generator "${EQUIFUZZ_ROOT}/tools/equifuzz/choices.py")
  set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${json}" "${generator}")
  execute_process(COMMAND "${Python3_EXECUTABLE}" "${generator}" "${json}" "${CMAKE_BINARY_DIR}/generated/equifuzz/choices/${pair}.h"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(STRIP "${err}" err)
    message(FATAL_ERROR "equifuzz: pair ${pair}: ${err}")
  endif()
endfunction()

function(equifuzz_add_pair pair)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_TRACE_CMP;CORE_LEVELDB" "ORIGINAL;OPTIMIZED;CORE_SHIM" "SOURCES;LIBS;CORE_TREES;CORE_COMMITS;CORE_SOURCES;CORE_REQUIRE;CORE_FEATURE;CORE_EDIT;CORE_WRAP")
  string(TOUPPER "${pair}" PAIR)
  set(EQUIFUZZ_${PAIR}_ORIGINAL "${ARG_ORIGINAL}" CACHE FILEPATH "Source of the original side of pair '${pair}' (an adapter file).")
  set(EQUIFUZZ_${PAIR}_OPTIMIZED "${ARG_OPTIMIZED}" CACHE FILEPATH "Source of the optimized side of pair '${pair}' (an adapter file).")
  foreach(role ORIGINAL OPTIMIZED)
    if(NOT EXISTS "${EQUIFUZZ_${PAIR}_${role}}")
      message(FATAL_ERROR "EQUIFUZZ_${PAIR}_${role} names a file that does not exist: ${EQUIFUZZ_${PAIR}_${role}}")
    endif()
  endforeach()
  if(NOT EQUIFUZZ_${PAIR}_OPTIMIZED STREQUAL ARG_OPTIMIZED OR NOT EQUIFUZZ_${PAIR}_ORIGINAL STREQUAL ARG_ORIGINAL)
    message(STATUS "equifuzz: pair ${pair}: original = ${EQUIFUZZ_${PAIR}_ORIGINAL}, optimized = ${EQUIFUZZ_${PAIR}_OPTIMIZED}")
  endif()
  equifuzz_pair_set(${pair} SOURCES ${ARG_SOURCES})
  equifuzz_pair_set(${pair} NO_TRACE_CMP ${ARG_NO_TRACE_CMP})
  equifuzz_pair_set(${pair} LIBS ${ARG_LIBS})
  equifuzz_pair_set(${pair} ORIGINAL "${EQUIFUZZ_${PAIR}_ORIGINAL}")
  equifuzz_pair_set(${pair} OPTIMIZED "${EQUIFUZZ_${PAIR}_OPTIMIZED}")
  set_property(GLOBAL APPEND PROPERTY EQUIFUZZ_PAIRS ${pair})
  _equifuzz_pair_choices(${pair})
  # What every object of the pair is compiled with (EQUIFUZZ_CORE_<ROLE> for each Core side).
  add_library(equifuzz_pair_${pair}_defs INTERFACE)
  add_library(equifuzz_pair_${pair}_shared OBJECT ${ARG_SOURCES})
  target_include_directories(equifuzz_pair_${pair}_shared PUBLIC "${EQUIFUZZ_ROOT}/differential")
  target_link_libraries(equifuzz_pair_${pair}_shared PUBLIC equifuzz_harness equifuzz_pair_${pair}_defs ${ARG_LIBS} PRIVATE equifuzz_flags)
  equifuzz_pair_set(${pair} CORE_ROLES "")
  if(ARG_CORE_SHIM)
    equifuzz_pair_set(${pair} CORE_SHIM "${ARG_CORE_SHIM}")
    equifuzz_pair_set(${pair} CORE_TREES ${ARG_CORE_TREES})
    equifuzz_pair_set(${pair} CORE_COMMITS "${ARG_CORE_COMMITS}")
    equifuzz_pair_set(${pair} CORE_SOURCES ${ARG_CORE_SOURCES})
    equifuzz_pair_set(${pair} CORE_LEVELDB ${ARG_CORE_LEVELDB})
    equifuzz_pair_set(${pair} CORE_WRAP ${ARG_CORE_WRAP})
    equifuzz_pair_set(${pair} CORE_REQUIRE ${ARG_CORE_REQUIRE})
    equifuzz_pair_set(${pair} CORE_FEATURES ${ARG_CORE_FEATURE})
    equifuzz_pair_set(${pair} CORE_EDITS ${ARG_CORE_EDIT})
    _equifuzz_core_pair(${pair} equifuzz_pair_${pair}_defs)
  endif()
  _equifuzz_pair_library(${pair} "" "${EQUIFUZZ_${PAIR}_ORIGINAL}" "${EQUIFUZZ_${PAIR}_OPTIMIZED}")
  if(EQUIFUZZ_AFL_MUTATORS)
    _equifuzz_afl_mutator_pair(${pair})
  endif()

  if(EQUIFUZZ_MUTANTS)
    file(GLOB patches CONFIGURE_DEPENDS "${EQUIFUZZ_ROOT}/differential/${pair}/mutants/*.patch")
    file(GLOB subs CONFIGURE_DEPENDS "${EQUIFUZZ_ROOT}/differential/${pair}/mutants/*.sub")
    _equifuzz_read_mutant_headers(${pair} ${patches} ${subs})
    foreach(patch IN LISTS patches)
      _equifuzz_mutant_wanted(${pair} "${patch}" wanted)
      if(wanted)
        _equifuzz_add_mutant(${pair} "${patch}")
      endif()
    endforeach()
    foreach(sub IN LISTS subs)
      _equifuzz_mutant_wanted(${pair} "${sub}" wanted)
      if(wanted)
        _equifuzz_core_add_mutant(${pair} "${sub}")
      endif()
    endforeach()
  endif()
endfunction()

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
    COMMAND patch --quiet --force --output=${patched} "${source}" "${patch}"
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

function(equifuzz_add_adapter_variant pair variant)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "ROLE;SOURCE;DESCRIPTION" "")
  equifuzz_pair_get(${pair} ORIGINAL original)
  equifuzz_pair_get(${pair} OPTIMIZED optimized)
  set(${ARG_ROLE} "${ARG_SOURCE}")
  _equifuzz_pair_library(${pair} "${variant}" "${original}" "${optimized}")
  equifuzz_pair_append(${pair} VARIANTS ${variant})
  equifuzz_variant_set(${pair} ${variant} KIND adapter)
  equifuzz_variant_set(${pair} ${variant} DESCRIPTION "${ARG_DESCRIPTION}")
endfunction()

# The target source is compiled once; each binary links it against one build of the pair.
function(_equifuzz_target_binary name objects lib)
  add_executable(${name} $<TARGET_OBJECTS:${objects}>)
  target_link_libraries(${name} PRIVATE ${lib} equifuzz_flags equifuzz_engine)
endfunction()

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

function(equifuzz_add_target target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "PAIR" "")
  get_property(pairs GLOBAL PROPERTY EQUIFUZZ_PAIRS)
  if(NOT ARG_PAIR IN_LIST pairs)
    return()  # its pair is left out of this build (EQUIFUZZ_ONLY_PAIRS)
  endif()
  set(source "${EQUIFUZZ_ROOT}/fuzz_targets/${target}.cpp")
  set(afl_mutator "")
  if(EQUIFUZZ_AFL_MUTATORS)
    file(STRINGS "${source}" declares_mutator REGEX "^EQUIFUZZ_MUTATOR\\(" LIMIT_COUNT 1)
    if(declares_mutator)
      _equifuzz_afl_mutator(${target} ${ARG_PAIR} "${source}" afl_mutator)
      set_property(GLOBAL APPEND PROPERTY EQUIFUZZ_AFL_MUTATOR_TARGETS ${target})
    endif()
  endif()
  set(objects equifuzz_target_${target}_obj)
  add_library(${objects} OBJECT "${source}")
  target_link_libraries(${objects} PRIVATE equifuzz_pair_${ARG_PAIR} equifuzz_flags)
  set(source ${objects})
  _equifuzz_target_binary(${target} "${source}" equifuzz_pair_${ARG_PAIR})
  set(corpus "${EQUIFUZZ_ROOT}/corpora/${target}")
  set(regressions "${EQUIFUZZ_ROOT}/corpora/regressions/${target}")
  set(dict "${EQUIFUZZ_ROOT}/fuzz_targets/${target}.dict")
  set(variants_json "")
  equifuzz_pair_get(${ARG_PAIR} VARIANTS variants)
  foreach(variant IN LISTS variants)
    equifuzz_variant_get(${ARG_PAIR} ${variant} CAUGHT_BY caught_by)
    if(EQUIFUZZ_MUTANT_TARGETS STREQUAL "caught-by" AND caught_by AND NOT caught_by STREQUAL target)
      continue()
    endif()
    _equifuzz_target_binary(${target}__${variant} "${source}" equifuzz_pair_${ARG_PAIR}__${variant})
    equifuzz_variant_get(${ARG_PAIR} ${variant} KIND kind)
    equifuzz_variant_get(${ARG_PAIR} ${variant} DESCRIPTION description)
    string(REPLACE "\"" "\\\"" description "${description}")
    string(APPEND variants_json "${sep}{\"name\": \"${variant}\", \"kind\": \"${kind}\", \"description\": \"${description}\", \"binary\": \"$<TARGET_FILE:${target}__${variant}>\"}")
    set(sep ", ")
  endforeach()
  set(entry "{\"name\": \"${target}\", \"pair\": \"${ARG_PAIR}\", \"binary\": \"$<TARGET_FILE:${target}>\", \"corpus\": \"${corpus}\", \"regressions\": \"${regressions}\", \"dict\": \"${dict}\", \"afl_mutator\": \"${afl_mutator}\", \"variants\": [${variants_json}]}")
  set_property(GLOBAL APPEND PROPERTY EQUIFUZZ_TARGET_ENTRIES "${entry}")
  set_property(GLOBAL APPEND PROPERTY EQUIFUZZ_TARGETS ${target})
  equifuzz_pair_append(${ARG_PAIR} TARGETS ${target})
endfunction()

# Writes <build>/equifuzz-targets.json: what the Python tool reads to discover targets, their
# binaries, corpora and variants, instead of keeping lists by hand; and, for a report (`verify`),
# what each pair's sides are built from (our model sources, each Core side's tree) and how.
# Its first key, "version", is the format's: tools/equifuzz/manifest.py (the one reader) refuses
# any other, so a change of a key's meaning raises both together.
function(_equifuzz_json_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

# Appends {"<key>": "<value>", ...} to the JSON array text kept in global property <property>
# (APPEND_STRING, so that a value with a semicolon or a '|' stays whole).
function(_equifuzz_json_append property)
  set(object "")
  set(sep "")
  while(ARGN)
    list(POP_FRONT ARGN key value)
    _equifuzz_json_string(value "${value}")
    string(APPEND object "${sep}\"${key}\": ${value}")
    set(sep ", ")
  endwhile()
  get_property(text GLOBAL PROPERTY ${property})
  if(NOT "${text}" STREQUAL "")  # quoted: a property never set leaves the variable undefined
    set(object ", {${object}}")
  else()
    set(object "{${object}}")
  endif()
  set_property(GLOBAL APPEND_STRING PROPERTY ${property} "${object}")
endfunction()

function(equifuzz_write_manifest)
  get_property(entries GLOBAL PROPERTY EQUIFUZZ_TARGET_ENTRIES)
  list(JOIN entries ",\n    " body)
  get_property(pairs GLOBAL PROPERTY EQUIFUZZ_PAIRS)
  set(pairs_json "")
  set(psep "")
  foreach(pair IN LISTS pairs)
    equifuzz_pair_get(${pair} ORIGINAL original)
    equifuzz_pair_get(${pair} OPTIMIZED optimized)
    _equifuzz_json_string(original "${original}")
    _equifuzz_json_string(optimized "${optimized}")
    equifuzz_pair_get(${pair} CORE_ROLES roles)
    set(core_json "")
    set(csep "")
    foreach(role IN LISTS roles)
      equifuzz_pair_get(${pair} CORE_${role}_TREE tree)
      equifuzz_tree_get(${tree} LABEL label)
      equifuzz_tree_get(${tree} SRC src)
      equifuzz_pair_get(${pair} CORE_${role}_EDIT_DIR edit)
      set(edited false)
      if(edit)
        set(edited true)
      endif()
      equifuzz_tree_get(${tree} COMMIT commit)
      equifuzz_pair_get(${pair} CORE_${role}_TARGET side_target)
      equifuzz_pair_get(${pair} CORE_${role}_COMPILED compiled)
      set(compiled_json "")
      set(ssep "")
      foreach(source IN LISTS compiled)
        string(APPEND compiled_json "${ssep}\"${source}\"")
        set(ssep ", ")
      endforeach()
      _equifuzz_json_string(label "${label}")
      _equifuzz_json_string(src "${src}")
      _equifuzz_json_string(edit_json "${edit}")
      string(APPEND core_json "${csep}{\"role\": \"core-${role}\", \"tree\": \"${tree}\", \"label\": ${label}, \"src\": ${src}, \"commit\": \"${commit}\", \"core_edit\": ${edited}, \"edit_dir\": ${edit_json}, \"target\": \"${side_target}\", \"compiled\": [${compiled_json}]}")
      set(csep ", ")
    endforeach()
    # Core sides a tree could not serve, and Core mutants a tree has no line for (JSON objects).
    equifuzz_pair_get(${pair} CORE_LEFT_OUT left_json)
    equifuzz_pair_get(${pair} NOT_APPLICABLE na_json)
    equifuzz_pair_get(${pair} CORE_SOURCES core_sources)
    set(sources_json "")
    set(ssep "")
    foreach(source IN LISTS core_sources)
      string(APPEND sources_json "${ssep}\"${source}\"")
      set(ssep ", ")
    endforeach()
    equifuzz_pair_get(${pair} CORE_SHIM core_shim)
    _equifuzz_json_string(core_shim "${core_shim}")
    string(APPEND pairs_json "${psep}\"${pair}\": {\"original\": ${original}, \"optimized\": ${optimized}, \"core\": [${core_json}], \"core_sources\": [${sources_json}], \"core_shim\": ${core_shim}, \"core_left_out\": [${left_json}], \"mutants_not_applicable\": [${na_json}]}")
    set(psep ",\n    ")
  endforeach()
  get_property(core_why GLOBAL PROPERTY EQUIFUZZ_CORE_SIDES_WHY)
  _equifuzz_json_string(core_why "${core_why}")
  get_property(trees_from GLOBAL PROPERTY EQUIFUZZ_CORE_TREES_FROM)
  _equifuzz_json_string(trees_from "${trees_from}")
  get_property(oracle GLOBAL PROPERTY EQUIFUZZ_CORE_ORACLE_STATUS)
  _equifuzz_json_string(oracle "${oracle}")
  _equifuzz_json_string(compiler "${CMAKE_CXX_COMPILER} (${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION})")
  _equifuzz_json_string(sanitizers "${EQUIFUZZ_SANITIZERS}")
  _equifuzz_json_string(opt "${EQUIFUZZ_OPT}")
  file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/equifuzz-targets.json" CONTENT
"{\n  \"version\": 1,\n  \"engine\": \"${EQUIFUZZ_ENGINE}\",\n  \"root\": \"${EQUIFUZZ_ROOT}\",\n  \"compiler\": ${compiler},\n  \"sanitizers\": ${sanitizers},\n  \"optimization\": ${opt},\n  \"core_sides_missing_because\": ${core_why},\n  \"core_trees_from\": ${trees_from},\n  \"core_oracle\": ${oracle},\n  \"pairs\": {\n    ${pairs_json}\n  },\n  \"targets\": [\n    ${body}\n  ]\n}\n")
endfunction()
