# A pair's record, and each of its variants' records: what equifuzz_add_pair, the Core sides,
# the mutants and the targets learn about a pair, for the tests and the manifest to read. Every
# key is declared below; a key that is not (a misspelling) stops the configure with its name,
# where a misspelt property name would have read an empty list.
#
#   equifuzz_pair_set(<pair> <key> <value>...)      equifuzz_pair_append(<pair> <key> <value>...)
#   equifuzz_pair_get(<pair> <key> <out var>)       equifuzz_pair_property(<pair> <key> <out var>)
#   equifuzz_variant_set(<pair> <variant> <key> <value>...)
#   equifuzz_variant_get(<pair> <variant> <key> <out var>)
#   equifuzz_tree_set(<tree id> <key> <value>...)  equifuzz_tree_get(<tree id> <key> <out var>)
#
# A tree's record is what cmake/CoreTrees.cmake learned about one Bitcoin Core tree: its source
# directory, its label for reports, its commit.
#
# equifuzz_pair_property gives the property's name, for a function that appends to one (JSON
# lists). The values live in GLOBAL properties, so that every directory of the build sees them.
include_guard(GLOBAL)

# A key, or a pattern of keys (^...$ is implied); <role> is a side's role, <variant> a variant's name.
set(_EQUIFUZZ_PAIR_KEYS
  ORIGINAL OPTIMIZED            # the sides' sources (the defaults or the user's adapter files)
  SOURCES LIBS NO_TRACE_CMP     # equifuzz_add_pair's arguments
  SEED_WRITER                   # its seed program (a replay build only: the binary, a generator expression)
  TARGETS VARIANTS              # the pair's fuzz targets; its mutants and adapters
  NOT_APPLICABLE                # mutants this build leaves out, with why (a JSON list)
  "SHARED_[A-Za-z0-9_]+_REPLACES"  # a variant's patched shared object, the default one it replaces
  CORE_SHIM CORE_TREES CORE_COMMITS CORE_SOURCES CORE_LEVELDB CORE_WRAP CORE_REQUIRE CORE_FEATURES CORE_EDITS
  CORE_ROLES                    # the Core sides this build has
  CORE_LEFT_OUT                 # the Core sides left out, with why (a JSON list)
  "CORE_(original|optimized)_(TREE|TARGET|EDIT_DIR|OBJECT|COMPILED)")
set(_EQUIFUZZ_VARIANT_KEYS KIND DESCRIPTION CAUGHT_BY)
set(_EQUIFUZZ_TREE_KEYS SRC LABEL COMMIT)

function(_equifuzz_record_key kind key)
  if(key IN_LIST _EQUIFUZZ_${kind}_KEYS)
    return()
  endif()
  foreach(pattern IN LISTS _EQUIFUZZ_${kind}_KEYS)
    if(key MATCHES "^${pattern}$")
      return()
    endif()
  endforeach()
  string(TOLOWER "${kind}" what)
  message(FATAL_ERROR "equifuzz: '${key}' is not a key of a ${what} record (cmake/PairRecord.cmake declares them)")
endfunction()

function(equifuzz_pair_property pair key out)
  _equifuzz_record_key(PAIR "${key}")
  set(${out} "EQUIFUZZ_PAIR_${pair}_${key}" PARENT_SCOPE)
endfunction()

function(equifuzz_pair_set pair key)
  _equifuzz_record_key(PAIR "${key}")
  set_property(GLOBAL PROPERTY "EQUIFUZZ_PAIR_${pair}_${key}" "${ARGN}")
endfunction()

function(equifuzz_pair_append pair key)
  _equifuzz_record_key(PAIR "${key}")
  set_property(GLOBAL APPEND PROPERTY "EQUIFUZZ_PAIR_${pair}_${key}" ${ARGN})
endfunction()

function(equifuzz_pair_get pair key out)
  _equifuzz_record_key(PAIR "${key}")
  get_property(value GLOBAL PROPERTY "EQUIFUZZ_PAIR_${pair}_${key}")
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

function(equifuzz_variant_set pair variant key)
  _equifuzz_record_key(VARIANT "${key}")
  set_property(GLOBAL PROPERTY "EQUIFUZZ_VARIANT_${pair}_${variant}_${key}" "${ARGN}")
endfunction()

function(equifuzz_variant_get pair variant key out)
  _equifuzz_record_key(VARIANT "${key}")
  get_property(value GLOBAL PROPERTY "EQUIFUZZ_VARIANT_${pair}_${variant}_${key}")
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

function(equifuzz_tree_set tree key)
  _equifuzz_record_key(TREE "${key}")
  set_property(GLOBAL PROPERTY "EQUIFUZZ_CORE_TREE_${tree}_${key}" "${ARGN}")
endfunction()

function(equifuzz_tree_get tree key out)
  _equifuzz_record_key(TREE "${key}")
  get_property(value GLOBAL PROPERTY "EQUIFUZZ_CORE_TREE_${tree}_${key}")
  set(${out} "${value}" PARENT_SCOPE)
endfunction()
