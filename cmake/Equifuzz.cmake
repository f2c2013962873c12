# How pairs, their variants (mutants, adapters) and fuzz targets are declared.
#
#   equifuzz_add_pair(<pair> ORIGINAL <src> OPTIMIZED <src> [SOURCES <src>...] [LIBS <lib>...]
#                     [CORE_SHIM <src> CORE_TREES <before> <after> [CORE_COMMITS <entry>]
#                      [CORE_SOURCES <rel>...]
#                      [CORE_REQUIRE <name>=<rel>:<regex>...] [CORE_FEATURE <name>=<rel>:<regex>...]
#                      [CORE_EDIT <original|optimized>=<sub file>...] [CORE_LEVELDB]
#                      [CORE_WRAP <symbol>...]] [SEED_WRITER <src>] [NO_TRACE_CMP])
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
#       SEED_WRITER: the pair's seed program (differential/common/seeds.h), linked in a replay build
#       as <pair>_seeds and named in the manifest; `./equifuzz seeds` runs it.
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
#
# The jobs live apart: pairs and their libraries here; mutant variants in Mutants.cmake (one-line
# Core mutants in CoreObjects.cmake, Core's trees in CoreTrees.cmake); the AFL++ mutator libraries
# in AflMutators.cmake; fuzz targets in Targets.cmake; the build manifest in Manifest.cmake; the
# records they keep in PairRecord.cmake.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/PairRecord.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/CoreTrees.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/CoreObjects.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/Mutants.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/AflMutators.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/Targets.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/Manifest.cmake)

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
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_TRACE_CMP;CORE_LEVELDB" "ORIGINAL;OPTIMIZED;CORE_SHIM;SEED_WRITER" "SOURCES;LIBS;CORE_TREES;CORE_COMMITS;CORE_SOURCES;CORE_REQUIRE;CORE_FEATURE;CORE_EDIT;CORE_WRAP")
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
  if(ARG_SEED_WRITER AND EQUIFUZZ_ENGINE STREQUAL "replay")
    # The pair's seed program (differential/common/seeds.h): its encoder writes the seed corpora.
    add_executable(${pair}_seeds "${ARG_SEED_WRITER}")
    target_link_libraries(${pair}_seeds PRIVATE equifuzz_seeds equifuzz_pair_${pair} equifuzz_flags)
    equifuzz_pair_set(${pair} SEED_WRITER "$<TARGET_FILE:${pair}_seeds>")
  endif()
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
