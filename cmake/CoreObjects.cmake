# Bitcoin Core's own code as sides, the second half: building them. cmake/CoreTrees.cmake gets
# the trees (which commits, from git, the registry or the user's checkout) and records each in a
# tree record (cmake/PairRecord.cmake); this file compiles a pair's shim and Core sources against
# them, links each side into one object whose only global symbol is its accessor, and builds the
# Core mutants (differential/<pair>/mutants/*.sub).
#
# A Core side is one relocatable object per (pair, role, variant): our shim
# (differential/<pair>/core/shim.cpp, which fills the pair's Side table from Core's API) and the
# Core sources it needs (each compiled once per tree and flags, and shared by the pairs that list
# it), compiled against one tree, linked with `ld -r --force-group-allocation`
# (so no COMDAT group is shared with another tree's copy) and then every symbol but the side's
# accessor made local (objcopy). Two trees' CScriptBase, AutoFile or CTransaction never meet.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/CountOccurrences.cmake)

# The hooks a side defines for Core (logging, assertions, and the span type of random.h:
# differential/harness/equifuzz/core_hooks.h),
# as each tree declares them. Every object of every side gets EQUIFUZZ_CORE_HOOK_<NAME> for each
# probe its tree matches, so a shim follows Core's declarations by what the tree says, never by its
# date or version; a declaration none of these matches is one #error in core_hooks.h. (No ';' in a
# probe: it would split the list.)
set(EQUIFUZZ_CORE_HOOK_PROBES
  "LOG_ENTRY=util/log.h:^void Log\\(Entry entry\\)"
  "SHOULD_DEBUG_LOG=util/log.h:^bool ShouldDebugLog\\(Category category\\)"
  "SHOULD_TRACE_LOG=util/log.h:^bool ShouldTraceLog\\(Category category\\)"
  "SHOULD_LOG=util/log.h:^bool ShouldLog\\(Category category, Level level\\)"
  "LOG_SOURCE_LOCATION_CLASS=logging.h:void LogPrintStr\\(std::string_view str, SourceLocation&& source_loc"
  "LOG_SOURCE_LOCATION=logging.h:void LogPrintStr\\(std::string_view str, std::source_location&& source_loc"
  "LOG_PRINT_STR=logging.h:void LogPrintStr\\(std::string_view str, std::string_view logging_function"
  "WILL_LOG_CATEGORY_LEVEL=logging.h:bool WillLogCategoryLevel\\(LogFlags category, Level level\\) const"
  "LOG_INSTANCE=logging.h:^BCLog::Logger& LogInstance\\(\\)"
  "ASSERT_SOURCE_LOCATION=util/check.h:void assertion_fail\\(const std::source_location& loc, std::string_view assertion\\)"
  "ASSERT_FILE_LINE=util/check.h:void assertion_fail\\(std::string_view file, int line, std::string_view func, std::string_view assertion\\)"
  "CORE_SPAN=random.h:void fillrand\\(Span<std::byte> output\\)")

# EQUIFUZZ_CORE_HOOK_<NAME>=1 for each hook probe <src> matches (core_hooks.h), once per tree.
function(_equifuzz_core_hook_definitions src out)
  string(MAKE_C_IDENTIFIER "${src}" key)
  get_property(cached GLOBAL PROPERTY EQUIFUZZ_CORE_HOOKS_${key} SET)
  if(NOT cached)
    set(defs "")
    foreach(probe IN LISTS EQUIFUZZ_CORE_HOOK_PROBES)
      string(REGEX MATCH "^([^=]+)=" _ "${probe}")
      set(name "${CMAKE_MATCH_1}")
      _equifuzz_core_probe("${src}" "${probe}" missing)
      if(missing STREQUAL "")
        list(APPEND defs EQUIFUZZ_CORE_HOOK_${name}=1)
      endif()
    endforeach()
    set_property(GLOBAL PROPERTY EQUIFUZZ_CORE_HOOKS_${key} "${defs}")
  endif()
  get_property(defs GLOBAL PROPERTY EQUIFUZZ_CORE_HOOKS_${key})
  set(${out} "${defs}" PARENT_SCOPE)
endfunction()

# Checks "name=relpath:regex" items against a tree. Returns the first one that fails, or "".
function(_equifuzz_core_probe src items out)
  foreach(item IN LISTS items)
    string(REGEX MATCH "^([^=]+)=([^:]+):(.*)$" _ "${item}")
    set(file "${src}/${CMAKE_MATCH_2}")
    set(regex "${CMAKE_MATCH_3}")
    set(found FALSE)
    if(EXISTS "${file}")
      file(STRINGS "${file}" hits REGEX "${regex}" LIMIT_COUNT 1)
      if(hits)
        set(found TRUE)
      endif()
    endif()
    if(NOT found)
      set(${out} "${CMAKE_MATCH_1} (${CMAKE_MATCH_2} has no line matching '${regex}')" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

# LevelDB and crc32c as a tree ships them under src/ and as its cmake/leveldb.cmake and
# cmake/crc32c.cmake build them for Linux on x86-64 (db/repair.cc, which nothing Core links calls,
# and the Windows and ARM files left out). A pair with CORE_LEVELDB compiles them from each tree:
# the trees' LevelDB differ, so each side has its own.
set(EQUIFUZZ_CORE_LEVELDB_SOURCES
  leveldb/db/builder.cc leveldb/db/db_impl.cc leveldb/db/db_iter.cc leveldb/db/dbformat.cc
  leveldb/db/filename.cc leveldb/db/log_reader.cc leveldb/db/log_writer.cc leveldb/db/memtable.cc
  leveldb/db/table_cache.cc leveldb/db/version_edit.cc leveldb/db/version_set.cc
  leveldb/db/write_batch.cc leveldb/table/block.cc leveldb/table/block_builder.cc
  leveldb/table/filter_block.cc leveldb/table/format.cc leveldb/table/iterator.cc
  leveldb/table/merger.cc leveldb/table/table.cc leveldb/table/table_builder.cc
  leveldb/table/two_level_iterator.cc leveldb/util/arena.cc leveldb/util/bloom.cc
  leveldb/util/cache.cc leveldb/util/coding.cc leveldb/util/comparator.cc leveldb/util/crc32c.cc
  leveldb/util/env.cc leveldb/util/env_posix.cc leveldb/util/filter_policy.cc leveldb/util/hash.cc
  leveldb/util/logging.cc leveldb/util/options.cc leveldb/util/status.cc
  leveldb/helpers/memenv/memenv.cc
  crc32c/src/crc32c.cc crc32c/src/crc32c_portable.cc crc32c/src/crc32c_sse42.cc)

# The include directories and definitions of a Core object of a CORE_LEVELDB pair: LevelDB's
# public headers for dbwrapper and whatever includes it; LevelDB's and crc32c's own configuration
# for their files.
function(_equifuzz_core_leveldb_setup objs src rel)
  target_include_directories(${objs} PRIVATE "${src}/leveldb/include" "${src}/crc32c/include")
  if(rel MATCHES "^leveldb/")
    target_include_directories(${objs} PRIVATE "${src}/leveldb")
    # What Core's own build gives LevelDB (cmake/leveldb.cmake of its tree). LEVELDB_IS_BIG_ENDIAN:
    # the ports of trees before LevelDB took std::endian (masters of 2024-11 and 2024-12) need it;
    # later trees ignore it.
    if(CMAKE_CXX_BYTE_ORDER STREQUAL "BIG_ENDIAN")
      set(big_endian 1)
    else()
      set(big_endian 0)
    endif()
    target_compile_definitions(${objs} PRIVATE LEVELDB_PLATFORM_POSIX HAVE_SNAPPY=0 HAVE_CRC32C=1
      HAVE_FDATASYNC=1 HAVE_FULLFSYNC=0 HAVE_O_CLOEXEC=1 "FALLTHROUGH_INTENDED=[[fallthrough]]"
      LEVELDB_IS_BIG_ENDIAN=${big_endian})
  elseif(rel MATCHES "^crc32c/")
    target_compile_definitions(${objs} PRIVATE HAVE_BUILTIN_PREFETCH=1 HAVE_MM_PREFETCH=1
      HAVE_STRONG_GETAUXVAL=0 BYTE_ORDER_BIG_ENDIAN=0 HAVE_ARM64_CRC32C=0)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
      target_compile_definitions(${objs} PRIVATE HAVE_SSE42=1)
      if(rel STREQUAL "crc32c/src/crc32c_sse42.cc")
        target_compile_options(${objs} PRIVATE -msse4.2)
      endif()
    else()
      target_compile_definitions(${objs} PRIVATE HAVE_SSE42=0)
    endif()
  endif()
endfunction()

# What every object compiled against a Core tree gets: the tree's headers ahead of ours, hidden
# symbols (so that objcopy can make every Core symbol local), no warnings (Core's are not ours).
function(_equifuzz_core_compile_setup objs src)
  target_include_directories(${objs} PRIVATE "${src}" "${EQUIFUZZ_ROOT}/differential/harness"
                             "${EQUIFUZZ_ROOT}/differential" "${CMAKE_BINARY_DIR}/fdp-include"
                             "${CMAKE_BINARY_DIR}/core-config")
  target_compile_options(${objs} PRIVATE -fvisibility=hidden -fvisibility-inlines-hidden -w)
  # SHA-256's SHA-NI back end as Core's own build compiles it (src/crypto/CMakeLists.txt): the
  # SSE4.1 and SHA-NI files with their ISA flags, ENABLE_SSE41 and ENABLE_X86_SHANI for the code
  # that chooses them. A shim whose side hashes calls SHA256AutoDetect on a CPU with SHA-NI
  # (EQUIFUZZ_CORE_SHA256_AUTODETECT, core_shim.h); elsewhere the portable rounds run.
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND EXISTS "${src}/crypto/sha256_sse41.cpp"
     AND EXISTS "${src}/crypto/sha256_x86_shani.cpp")
    target_compile_definitions(${objs} PRIVATE ENABLE_SSE41 ENABLE_X86_SHANI)
    set_source_files_properties("${src}/crypto/sha256_sse41.cpp" TARGET_DIRECTORY ${objs} PROPERTIES COMPILE_OPTIONS "-msse4.1")
    set_source_files_properties("${src}/crypto/sha256_x86_shani.cpp" TARGET_DIRECTORY ${objs} PROPERTIES COMPILE_OPTIONS "-msse4.1;-msha")
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # g++ emits static locals of inline functions as STB_GNU_UNIQUE, which objcopy cannot localize.
    target_compile_options(${objs} PRIVATE -fno-gnu-unique)
  endif()
  target_link_libraries(${objs} PRIVATE equifuzz_flags)
endfunction()

# The Core sources a pair's sides compile: its CORE_SOURCES, and LevelDB's and crc32c's for a
# CORE_LEVELDB pair. Sets <out>.
function(_equifuzz_pair_core_sources pair out)
  equifuzz_pair_get(${pair} CORE_SOURCES sources)
  equifuzz_pair_get(${pair} CORE_LEVELDB leveldb)
  if(leveldb)
    list(APPEND sources ${EQUIFUZZ_CORE_LEVELDB_SOURCES})
  endif()
  set(${out} "${sources}" PARENT_SCOPE)
endfunction()

# The object library of one Core source of one tree. The same file of the same tree compiled with
# the same flags is the same object, so every pair's side that lists it shares one (util/ and
# crypto/ files were compiled up to eighteen times); a side with a configuring edit (CORE_EDIT)
# has its own, and NO_TRACE_CMP pairs share theirs. Sets <out> to the library's name.
function(_equifuzz_core_source_lib pair role tree rel out)
  equifuzz_tree_get(${tree} SRC src)
  equifuzz_pair_get(${pair} CORE_${role}_EDIT_DIR edit_dir)
  equifuzz_pair_get(${pair} NO_TRACE_CMP no_trace_cmp)
  equifuzz_pair_get(${pair} CORE_LEVELDB leveldb)
  set(flavour common)
  if(edit_dir)
    set(flavour ${pair}_${role})
  elseif(no_trace_cmp)
    set(flavour no_trace_cmp)
  elseif(leveldb)
    set(flavour leveldb)
  endif()
  string(MAKE_C_IDENTIFIER "${tree}_${rel}_${flavour}" id)
  set(lib equifuzz_core_src_${id})
  if(NOT TARGET ${lib})
    add_library(${lib} OBJECT "${src}/${rel}")
    if(edit_dir)
      target_include_directories(${lib} BEFORE PRIVATE "${edit_dir}")
      add_dependencies(${lib} equifuzz_core_${pair}_${role}_edit)
    endif()
    _equifuzz_core_compile_setup(${lib} "${src}")
    if(leveldb)
      _equifuzz_core_leveldb_setup(${lib} "${src}" "${rel}")
    endif()
    _equifuzz_side_flags(${pair} ${lib})
  endif()
  set(${out} ${lib} PARENT_SCOPE)
endfunction()

# One Core side: the pair's shim and the Core sources it needs, compiled against one tree, in a
# relocatable object whose only global definition is the side's accessor. Sets <out_obj> (the
# object file) and <out_target> (the custom target that makes it). The Core sources come from
# the shared per-source libraries (_equifuzz_core_source_lib) unless a mutated header is ahead.
#   OVERLAY <dir>          an include directory ahead of the tree (a mutated header): the shim and
#                          every Core source compile again with it
#   REPLACE <rel> <file>   compile <file> instead of the tree's src/<rel> (a mutated source); the
#                          default shim and the other sources are reused
#   SHIM_ONLY              with OVERLAY: recompile only the shim (a source the shim includes)
function(_equifuzz_core_unit pair role tree tag out_obj out_target)
  cmake_parse_arguments(PARSE_ARGV 6 ARG "SHIM_ONLY" "OVERLAY" "REPLACE")
  equifuzz_tree_get(${tree} SRC src)
  equifuzz_tree_get(${tree} LABEL label)
  equifuzz_pair_get(${pair} CORE_SHIM shim)
  _equifuzz_pair_core_sources(${pair} core_sources)
  equifuzz_pair_get(${pair} CORE_FEATURES features)
  equifuzz_pair_get(${pair} CORE_LEVELDB leveldb)
  # crypto/sha256.cpp brings its x86 back ends (SSE4 assembly, SSE4.1 4-way, SHA-NI; flags in
  # _equifuzz_core_compile_setup): it refers to them. Only SHA-NI is ever chosen (core_shim.h);
  # on other machines the files compile to nothing.
  if("crypto/sha256.cpp" IN_LIST core_sources)
    foreach(back_end crypto/sha256_sse4.cpp crypto/sha256_sse41.cpp crypto/sha256_x86_shani.cpp)
      if(NOT back_end IN_LIST core_sources)
        list(APPEND core_sources ${back_end})
      endif()
    endforeach()
  endif()
  set(present "")
  foreach(rel IN LISTS core_sources)
    if(EXISTS "${src}/${rel}")
      list(APPEND present "${rel}")
    endif()
  endforeach()
  if(tag STREQUAL "default")
    equifuzz_pair_set(${pair} CORE_${role}_COMPILED "${present}")
  endif()
  set(sources "${shim}")
  set(reused "")
  set(reused_libs "")
  if(ARG_OVERLAY AND NOT ARG_SHIM_ONLY)
    # Every Core source again, behind the mutated header; LevelDB's and crc32c's own files include
    # none of Core's headers, so theirs are the shared objects (they need their own definitions).
    foreach(rel IN LISTS present)
      if(rel MATCHES "^(leveldb|crc32c)/")
        _equifuzz_core_source_lib(${pair} ${role} ${tree} "${rel}" lib)
        list(APPEND reused_libs ${lib})
        list(APPEND reused "$<TARGET_OBJECTS:${lib}>")
      else()
        list(APPEND sources "${src}/${rel}")
      endif()
    endforeach()
  else()
    set(replaced "")
    if(ARG_REPLACE)
      list(GET ARG_REPLACE 0 replaced)
      list(GET ARG_REPLACE 1 replacement)
      set(sources "${replacement}")
      list(APPEND reused_libs equifuzz_core_${pair}_default_${role}_objs)
    endif()
    foreach(rel IN LISTS present)
      if(NOT rel STREQUAL replaced)
        _equifuzz_core_source_lib(${pair} ${role} ${tree} "${rel}" lib)
        list(APPEND reused_libs ${lib})
      endif()
    endforeach()
    foreach(lib IN LISTS reused_libs)
      list(APPEND reused "$<TARGET_OBJECTS:${lib}>")
    endforeach()
  endif()
  set(objs equifuzz_core_${pair}_${tag}_${role}_objs)
  add_library(${objs} OBJECT ${sources})
  # The side's configuring edit (CORE_EDIT), then a mutant's overlay ahead of it.
  equifuzz_pair_get(${pair} CORE_${role}_EDIT_DIR edit_dir)
  if(edit_dir)
    target_include_directories(${objs} BEFORE PRIVATE "${edit_dir}")
    add_dependencies(${objs} equifuzz_core_${pair}_${role}_edit)
  endif()
  if(ARG_OVERLAY)
    target_include_directories(${objs} BEFORE PRIVATE "${ARG_OVERLAY}")
  endif()
  _equifuzz_core_compile_setup(${objs} "${src}")
  # The shim includes the pair's side.h, which may include its named choices (<equifuzz/choices/<pair>.h>).
  target_include_directories(${objs} PRIVATE "${CMAKE_BINARY_DIR}/generated")
  if(leveldb)
    # A mutated LevelDB or crc32c file is the unit's only source (REPLACE): it gets their own
    # configuration, as its shared object would.
    set(leveldb_rel "")
    if(ARG_REPLACE AND replaced MATCHES "^(leveldb|crc32c)/")
      set(leveldb_rel "${replaced}")
    endif()
    _equifuzz_core_leveldb_setup(${objs} "${src}" "${leveldb_rel}")
  endif()
  # A definition with '#' is dropped by CMake (Ninja would read a comment): "#31144" -> "PR 31144".
  string(REPLACE "\"" "'" label_c "${label}")
  string(REPLACE "#" "PR " label_c "${label_c}")
  target_compile_definitions(${objs} PRIVATE EQUIFUZZ_SIDE_ROLE=core_${role} "EQUIFUZZ_CORE_TREE=\"${tree}: ${label_c}\"")
  foreach(feature IN LISTS features)
    string(REGEX MATCH "^([^=]+)=" _ "${feature}")
    _equifuzz_core_probe("${src}" "${feature}" missing)
    if(missing STREQUAL "")
      target_compile_definitions(${objs} PRIVATE EQUIFUZZ_CORE_HAS_${CMAKE_MATCH_1}=1)
    endif()
  endforeach()
  _equifuzz_core_hook_definitions("${src}" hooks)
  target_compile_definitions(${objs} PRIVATE ${hooks})
  _equifuzz_side_flags(${pair} ${objs})
  set(obj "${CMAKE_BINARY_DIR}/core-sides/${pair}/${tag}/core_${role}.o")
  equifuzz_pair_get(${pair} CORE_WRAP wrapped)
  list(TRANSFORM wrapped PREPEND "--wrap=")
  # In a coverage build each side's profile names get its role (tools/equifuzz/profile_names.py
  # says why): two trees' AddCoin then keep their own counters and coverage records. A build
  # whose flags come from outside (OSS-Fuzz's SANITIZER=coverage) is one too.
  set(rename_profile "")
  set(rename_depends "")
  if(EQUIFUZZ_COVERAGE OR CMAKE_CXX_FLAGS MATCHES "-fcoverage-mapping")
    set(rename_depends "${EQUIFUZZ_ROOT}/tools/equifuzz/profile_names.py")
    string(REPLACE "_" "-" side_role "core_${role}")
    set(rename_profile COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${EQUIFUZZ_ROOT}/tools"
      "${Python3_EXECUTABLE}" -m equifuzz.profile_names "${obj}" "${side_role}" "${EQUIFUZZ_OBJCOPY}")
  endif()
  add_custom_command(OUTPUT "${obj}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/core-sides/${pair}/${tag}"
    COMMAND "${EQUIFUZZ_LD_BFD}" -r --force-group-allocation ${wrapped} -o "${obj}" "$<TARGET_OBJECTS:${objs}>" ${reused}
    COMMAND "${EQUIFUZZ_OBJCOPY}" --wildcard "--keep-global-symbol=_ZN8equifuzz*core_*_sideEv" "${obj}"
    ${rename_profile}
    DEPENDS "$<TARGET_OBJECTS:${objs}>" ${objs} ${reused} ${reused_libs} ${rename_depends}
    COMMAND_EXPAND_LISTS VERBATIM
    COMMENT "equifuzz: Core side ${pair}/${role} (${tag}) from ${tree}, its symbols kept apart")
  set(custom equifuzz_core_${pair}_${tag}_${role})
  add_custom_target(${custom} DEPENDS "${obj}")
  set(${out_obj} "${obj}" PARENT_SCOPE)
  set(${out_target} ${custom} PARENT_SCOPE)
endfunction()

# A pair's CORE_EDIT for <role> ("<role>=<sub file>"): a one-line substitution in a copy of a Core
# header that configures the side (not a mutant: every variant of the side gets it). Made in the
# build directory and put ahead of the tree. A tree without the line (a reviewer's branch that
# already changed it) is taken as it is, with one line saying so.
function(_equifuzz_core_edit pair role tree)
  equifuzz_pair_set(${pair} CORE_${role}_EDIT_DIR "")
  equifuzz_pair_get(${pair} CORE_EDITS edits)
  foreach(edit IN LISTS edits)
    if(NOT edit MATCHES "^${role}=(.+)$")
      continue()
    endif()
    set(sub "${CMAKE_MATCH_1}")
    file(READ "${sub}" sub_text)
    foreach(key Edit File Replace)
      string(REGEX MATCH "\n${key}: ([^\n]*)" _ "\n${sub_text}")
      string(STRIP "${CMAKE_MATCH_1}" ${key})
    endforeach()
    equifuzz_tree_get(${tree} SRC src)
    set(text "")
    if(EXISTS "${src}/${File}")
      file(READ "${src}/${File}" text)
    endif()
    string(FIND "${text}" "${Replace}" at)
    if(at EQUAL -1)
      message(NOTICE "equifuzz: pair ${pair}: Core ${role} side from ${tree} as it is: its ${File} has no '${Replace}' (${Edit})")
      return()
    endif()
    set(root "${CMAKE_BINARY_DIR}/core-edits/${pair}/${role}")
    add_custom_command(OUTPUT "${root}/${File}"
      COMMAND ${CMAKE_COMMAND} "-DIN=${src}/${File}" "-DOUT=${root}/${File}" "-DSUB=${sub}"
              -P "${EQUIFUZZ_ROOT}/cmake/core_substitute.cmake"
      DEPENDS "${src}/${File}" "${sub}" "${EQUIFUZZ_ROOT}/cmake/core_substitute.cmake" "${EQUIFUZZ_ROOT}/cmake/CountOccurrences.cmake"
      COMMENT "equifuzz: Core ${role} side of ${pair}: ${Edit}")
    add_custom_target(equifuzz_core_${pair}_${role}_edit DEPENDS "${root}/${File}")
    equifuzz_pair_set(${pair} CORE_${role}_EDIT_DIR "${root}")
    message(STATUS "equifuzz: pair ${pair}: Core ${role} side: ${Edit}")
  endforeach()
endfunction()

# The first compiler error of <pair>'s Core <role> side on the tree at <src>, as the last build of
# this directory recorded it in equifuzz-core-unbuilt.json (tools/equifuzz/core_build.py writes it
# after building each side on its own, and removes it before every new configure it runs); "" when
# the side built or was never tried.
function(_equifuzz_core_unbuilt pair role src out)
  set(${out} "" PARENT_SCOPE)
  set(file "${CMAKE_BINARY_DIR}/equifuzz-core-unbuilt.json")
  if(NOT EXISTS "${file}")
    return()
  endif()
  file(READ "${file}" json)
  string(JSON count ERROR_VARIABLE bad LENGTH "${json}" sides)
  if(bad OR count EQUAL 0)
    return()
  endif()
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON p GET "${json}" sides ${i} pair)
    string(JSON r GET "${json}" sides ${i} role)
    string(JSON s GET "${json}" sides ${i} src)
    if(p STREQUAL pair AND r STREQUAL "core-${role}" AND s STREQUAL src)
      string(JSON error GET "${json}" sides ${i} error)
      set(${out} "${error}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# Called by equifuzz_add_pair for a pair with CORE_SHIM: decides which Core roles the pair has,
# builds their default units, and defines EQUIFUZZ_CORE_<ROLE> for the pair's own sources.
function(_equifuzz_core_pair pair defs_lib)
  equifuzz_pair_set(${pair} CORE_ROLES "")
  equifuzz_pair_set(${pair} CORE_LEFT_OUT "")
  if(NOT EQUIFUZZ_CORE_SIDES_ENABLED)
    return()
  endif()
  equifuzz_pair_get(${pair} CORE_TREES defaults)
  equifuzz_pair_get(${pair} CORE_REQUIRE requires)
  set(roles "")
  foreach(role original optimized)
    if(role STREQUAL "original")
      list(GET defaults 0 version)
    else()
      list(GET defaults 1 version)
    endif()
    _equifuzz_core_pair_tree(${pair} ${role} ${version} tree)
    equifuzz_tree_get(${tree} SRC src)
    # A side that did not compile on this tree in an earlier build of this directory
    # (tools/equifuzz/core_build.py) is left out with its first compiler error; the other pairs build.
    _equifuzz_core_unbuilt(${pair} ${role} "${src}" unbuilt)
    if(NOT unbuilt STREQUAL "")
      message(NOTICE "equifuzz: pair ${pair}: Core ${role} side left out: tree ${tree} could not be built (${unbuilt})")
      equifuzz_pair_property(${pair} CORE_LEFT_OUT record)
      _equifuzz_json_append(${record} role "core-${role}" tree "${tree}" kind "build"
                            why "tree ${tree} could not be built (${unbuilt})" error "${unbuilt}")
      continue()
    endif()
    _equifuzz_core_probe("${src}" "${requires}" missing)
    if(NOT missing STREQUAL "")
      message(NOTICE "equifuzz: pair ${pair}: Core ${role} side left out: tree ${tree} lacks ${missing}")
      # A report names it: a tree the user named that a pair cannot use is not a clean result.
      equifuzz_pair_property(${pair} CORE_LEFT_OUT record)
      _equifuzz_json_append(${record} role "core-${role}" tree "${tree}" why "tree ${tree} lacks ${missing}")
      continue()
    endif()
    _equifuzz_core_edit(${pair} ${role} ${tree})
    _equifuzz_core_unit(${pair} ${role} ${tree} default obj custom)
    equifuzz_pair_set(${pair} CORE_${role}_OBJECT "${obj}")
    equifuzz_pair_set(${pair} CORE_${role}_TARGET ${custom})
    equifuzz_pair_set(${pair} CORE_${role}_TREE ${tree})
    string(TOUPPER "${role}" ROLE)
    target_compile_definitions(${defs_lib} INTERFACE EQUIFUZZ_CORE_${ROLE}=1)
    list(APPEND roles ${role})
    # Which optional routines (CORE_FEATURE) this tree has, so a reviewer sees what is compared.
    equifuzz_pair_get(${pair} CORE_FEATURES features)
    set(has "")
    set(lacks "")
    foreach(feature IN LISTS features)
      string(REGEX MATCH "^([^=]+)=" _ "${feature}")
      _equifuzz_core_probe("${src}" "${feature}" missing)
      if(missing STREQUAL "")
        list(APPEND has ${CMAKE_MATCH_1})
      else()
        list(APPEND lacks ${CMAKE_MATCH_1})
      endif()
    endforeach()
    set(detail "")
    if(has)
      string(REPLACE ";" ", " has "${has}")
      string(APPEND detail "; has ${has}")
    endif()
    if(lacks)
      string(REPLACE ";" ", " lacks "${lacks}")
      string(APPEND detail "; lacks ${lacks}")
    endif()
    message(STATUS "equifuzz: pair ${pair}: Core ${role} side from ${tree}${detail}")
  endforeach()
  equifuzz_pair_set(${pair} CORE_ROLES "${roles}")
endfunction()

# Adds the pair's Core side objects to one of its libraries. A Core mutant passes
# CORE_OVERRIDE_ROLE/OBJECT/TARGET (variables in the caller's scope) for the role it changes.
function(_equifuzz_core_link pair lib)
  equifuzz_pair_get(${pair} CORE_ROLES roles)
  foreach(role IN LISTS roles)
    equifuzz_pair_get(${pair} CORE_${role}_OBJECT obj)
    equifuzz_pair_get(${pair} CORE_${role}_TARGET custom)
    if(DEFINED CORE_OVERRIDE_ROLE AND CORE_OVERRIDE_ROLE STREQUAL role)
      set(obj "${CORE_OVERRIDE_OBJECT}")
      set(custom "${CORE_OVERRIDE_TARGET}")
    endif()
    set_source_files_properties("${obj}" DIRECTORY "${EQUIFUZZ_ROOT}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    target_sources(${lib} PRIVATE "${obj}")
    add_dependencies(${lib} ${custom})
  endforeach()
endfunction()

# A Core mutant: differential/<pair>/mutants/<name>.sub, a one-line substitution in a copy of one
# Core file, made in the build directory (no Core code is kept in this repository beyond the one
# line being replaced). Its lines (Mutant, Side: core_original or core_optimized, File under src/,
# Replace and With, Caught-by, Kind) are documented where they are read: tools/equifuzz/mutant_file.py.
# "Replace:" and "With:" may come in several pairs, applied in order, for one change that needs
# a few lines (a loop walked the other way: its start and its step).
# A refactor mutant has no Caught-by: every target of the pair is built against it, and the tests
# (tests/CMakeLists.txt, refactor/<pair>/<mutant>/<target>) replay every committed input through
# it; a counted finding fails them, as a bug mutant that is not caught does.
function(_equifuzz_core_add_mutant pair sub)
  get_filename_component(mutant "${sub}" NAME_WE)
  # The header lines as tools/equifuzz/mutant_file.py read them (_equifuzz_read_mutant_headers);
  # it refuses a semicolon in the sentence, which would split the manifest's record, a CMake list.
  _equifuzz_mutant_header(${pair} "${sub}" DESCRIPTION Mutant)
  _equifuzz_mutant_header(${pair} "${sub}" SIDE Side)
  _equifuzz_mutant_header(${pair} "${sub}" FILE File)
  string(REGEX REPLACE "^core_" "" role "${Side}")
  equifuzz_pair_get(${pair} CORE_ROLES roles)
  if(NOT role IN_LIST roles)
    message(NOTICE "equifuzz: mutant ${pair}/${mutant} left out: the pair has no Core ${role} side in this build")
    return()
  endif()
  equifuzz_pair_get(${pair} CORE_${role}_TREE tree)
  equifuzz_tree_get(${tree} SRC src)
  # A tree that does not have the line exactly once (a PR that edits it, an older or newer Core)
  # cannot take this mutant: it is left out for that tree, listed as not applicable, never built.
  file(READ "${sub}" sub_text)  # as core_substitute.cmake reads it: file(STRINGS) escapes semicolons
  set(why "")
  if(NOT EXISTS "${src}/${File}")
    set(why "tree ${tree} has no ${File}")
  else()
    file(READ "${src}/${File}" core_text)
    equifuzz_substitute("${sub_text}" "${core_text}" _ problem)
    if(NOT problem STREQUAL "")
      set(why "tree ${tree}'s ${File} ${problem}")
    endif()
  endif()
  if(NOT why STREQUAL "")
    message(NOTICE "equifuzz: mutant ${pair}/${mutant} not applicable: ${why}")
    equifuzz_pair_property(${pair} NOT_APPLICABLE record)
    _equifuzz_json_append(${record} name "${mutant}" description "${Mutant}" why "${why}")
    return()
  endif()
  set(root "${CMAKE_BINARY_DIR}/mutants/${pair}/${mutant}/core-src")
  set(copy "${root}/${File}")
  add_custom_command(OUTPUT "${copy}"
    COMMAND ${CMAKE_COMMAND} "-DIN=${src}/${File}" "-DOUT=${copy}" "-DSUB=${sub}"
            -P "${EQUIFUZZ_ROOT}/cmake/core_substitute.cmake"
    DEPENDS "${src}/${File}" "${sub}" "${EQUIFUZZ_ROOT}/cmake/core_substitute.cmake" "${EQUIFUZZ_ROOT}/cmake/CountOccurrences.cmake"
    COMMENT "equifuzz: mutant ${pair}/${mutant}: one line of ${tree}'s ${File}")
  _equifuzz_pair_core_sources(${pair} core_sources)
  # A header, or a source the shim includes whole (script/interpreter.cpp), goes ahead on the
  # include path; a source among CORE_SOURCES (or LevelDB's, for a CORE_LEVELDB pair) is compiled
  # instead of the tree's.
  if(File MATCHES "\\.h$" OR NOT File IN_LIST core_sources)
    set(shim_only "")
    if(NOT File MATCHES "\\.h$")
      set(shim_only SHIM_ONLY)
    endif()
    _equifuzz_core_unit(${pair} ${role} ${tree} ${mutant} obj custom OVERLAY "${root}" ${shim_only})
    # The overlay header must exist before anything of this unit compiles.
    add_custom_target(equifuzz_core_${pair}_${mutant}_copy DEPENDS "${copy}")
    add_dependencies(equifuzz_core_${pair}_${mutant}_${role}_objs equifuzz_core_${pair}_${mutant}_copy)
  else()
    _equifuzz_core_unit(${pair} ${role} ${tree} ${mutant} obj custom REPLACE "${File}" "${copy}")
  endif()
  set(CORE_OVERRIDE_ROLE ${role})
  set(CORE_OVERRIDE_OBJECT "${obj}")
  set(CORE_OVERRIDE_TARGET ${custom})
  equifuzz_pair_get(${pair} ORIGINAL original)
  equifuzz_pair_get(${pair} OPTIMIZED optimized)
  _equifuzz_pair_library(${pair} "${mutant}" "${original}" "${optimized}")
  equifuzz_pair_append(${pair} VARIANTS ${mutant})
  _equifuzz_mutant_kind(${pair} ${mutant} "${sub}")
  equifuzz_variant_set(${pair} ${mutant} DESCRIPTION "${Mutant} (Bitcoin Core ${tree}, ${File})")
  _equifuzz_mutant_caught_by(${pair} ${mutant} "${sub}")
endfunction()
