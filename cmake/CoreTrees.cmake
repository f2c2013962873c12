# Bitcoin Core's own code as sides of the pairs. How it works: differential/core/README.md.
#
#   EQUIFUZZ_CORE_SIDES=AUTO|ON|OFF   AUTO (default): built when the trees can be had; otherwise
#                                     left out with one line saying why. ON: that line is an error.
#   EQUIFUZZ_CORE_ORIGINAL_SRC=<tree> every pair's Core original / Core optimized side, instead
#   EQUIFUZZ_CORE_OPTIMIZED_SRC=<tree> of the pinned commits just before / after each pair's
#                                     change: a checkout (or its src/), git:<ref> (a branch, tag or
#                                     commit of the git remote) or pr:<N> (a pull request).
#   EQUIFUZZ_CORE_TREE_SOURCE=AUTO|git|registry
#                                     where the pinned trees come from. git: each pair's exact
#                                     commits (differential/core/commits.json) from the git remote;
#                                     registry: the crate trees below; AUTO (default): git when the
#                                     remote answers, else the registry, with one line saying so.
#   EQUIFUZZ_CORE_GIT_REMOTE=<url|dir> the git remote (default: $EQUIFUZZ_CORE_GIT_REMOTE, else
#                                     commits.json's, github.com/bitcoin/bitcoin); a local clone
#                                     serves a machine without network.
#
# The git trees are unpacked once per machine into a cache outside the build directory
# (tools/equifuzz/core_git.py: $EQUIFUZZ_CORE_CACHE, default ~/.cache/equifuzz), each commit
# checked to be the one asked for.
#
# The registry trees are the crate libbitcoinkernel-sys at exact versions, pinned with their
# checksums in differential/core/trees/kernel-<version>/Cargo.lock; cargo fetches the sources
# only (once per machine, into its cache), never builds the crate.
#
# This file gets the trees and records each (cmake/PairRecord.cmake's tree record);
# cmake/CoreObjects.cmake builds the sides from them.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/Cargo.cmake)
# At file scope, so that every function below sees it (tools/equifuzz/core_git.py gets git trees).
find_package(Python3 3.9 REQUIRED COMPONENTS Interpreter)

set(EQUIFUZZ_CORE_SIDES "AUTO" CACHE STRING "Bitcoin Core's own routines as sides of the pairs: AUTO, ON or OFF")
set_property(CACHE EQUIFUZZ_CORE_SIDES PROPERTY STRINGS AUTO ON OFF)
# STRING, not PATH: CMake would make "git:master" a path under the working directory.
set(EQUIFUZZ_CORE_ORIGINAL_SRC "" CACHE STRING "Every pair's Core original side: a checkout's path, git:<ref> or pr:<N> (default: each pair's pinned commit)")
set(EQUIFUZZ_CORE_OPTIMIZED_SRC "" CACHE STRING "Every pair's Core optimized side: a checkout's path, git:<ref> or pr:<N> (default: each pair's pinned commit)")
set(EQUIFUZZ_CORE_TREE_SOURCE "AUTO" CACHE STRING "Where each pair's pinned Core trees come from: AUTO (git when the remote answers, else registry), git or registry")
set_property(CACHE EQUIFUZZ_CORE_TREE_SOURCE PROPERTY STRINGS AUTO git registry)
set(EQUIFUZZ_CORE_GIT_REMOTE "" CACHE STRING "The git remote of the pinned Core commits (default: environment EQUIFUZZ_CORE_GIT_REMOTE, else differential/core/commits.json's)")
# A build keeps the remote the environment named when it was configured: ninja re-runs the
# configure when a CMakeLists.txt changes, often from a shell without the variable, and that run
# must not move the Core sides to other trees. (-DEQUIFUZZ_CORE_GIT_REMOTE= still comes first, and
# a new value in the environment replaces the kept one.)
if(NOT "$ENV{EQUIFUZZ_CORE_GIT_REMOTE}" STREQUAL "")
  set(EQUIFUZZ_CORE_GIT_REMOTE_FROM_ENV "$ENV{EQUIFUZZ_CORE_GIT_REMOTE}" CACHE INTERNAL "")
endif()
set(EQUIFUZZ_CORE_REGISTRY_VERSIONS 0.0.10 0.0.20 0.1.1 0.4.1)
set(EQUIFUZZ_CORE_SIDES_ENABLED FALSE)

function(_equifuzz_core_off why)
  if(EQUIFUZZ_CORE_SIDES STREQUAL "ON")
    message(FATAL_ERROR "equifuzz: Bitcoin Core sides: ${why}")
  endif()
  message(NOTICE "equifuzz: Bitcoin Core sides OFF: ${why}")
  set_property(GLOBAL PROPERTY EQUIFUZZ_CORE_SIDES_WHY "${why}")
endfunction()

# "<major>.<minor>" and "release"/"master" from a tree's top-level CMakeLists.txt.
function(_equifuzz_core_version top out)
  set(version "unknown version")
  if(EXISTS "${top}/CMakeLists.txt")
    file(STRINGS "${top}/CMakeLists.txt" lines REGEX "^set\\(CLIENT_VERSION_(MAJOR|MINOR|IS_RELEASE) ")
    string(REGEX MATCH "MAJOR ([0-9]+)" _ "${lines}")
    set(major "${CMAKE_MATCH_1}")
    string(REGEX MATCH "MINOR ([0-9]+)" _ "${lines}")
    set(minor "${CMAKE_MATCH_1}")
    set(kind "master")
    if(lines MATCHES "IS_RELEASE \"true\"")
      set(kind "release")
    endif()
    if(NOT major STREQUAL "")
      set(version "v${major}.${minor} (${kind})")
    endif()
  elseif(EXISTS "${top}/configure.ac")
    file(STRINGS "${top}/configure.ac" lines REGEX "_CLIENT_VERSION_(MAJOR|MINOR), ")
    string(REGEX MATCH "MAJOR, ([0-9]+)" _ "${lines}")
    set(major "${CMAKE_MATCH_1}")
    string(REGEX MATCH "MINOR, ([0-9]+)" _ "${lines}")
    set(version "v${major}.${CMAKE_MATCH_1} (autotools era)")
  endif()
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

# Registers tree <id> with its src/ directory and a one-line label.
function(_equifuzz_core_register id src label)
  equifuzz_tree_set(${id} SRC "${src}")
  equifuzz_tree_set(${id} LABEL "${label}")
  message(STATUS "equifuzz: Core tree ${id}: ${label}")
endfunction()

# Runs tools/equifuzz/core_git.py with <args>; sets <out_json> (its JSON line), <out_rc> and <out_err>.
function(_equifuzz_core_git out_json out_rc out_err)
  _equifuzz_core_git_remote(remote)
  set(remote_arg --remote "${remote}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${EQUIFUZZ_ROOT}/tools"
                          "${Python3_EXECUTABLE}" -m equifuzz.core_git ${ARGN} ${remote_arg}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err TIMEOUT 1800
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE)
  set(${out_json} "${json}" PARENT_SCOPE)
  set(${out_rc} "${rc}" PARENT_SCOPE)
  set(${out_err} "${err}" PARENT_SCOPE)
endfunction()

# The remote git trees come from, as the user sees it.
function(_equifuzz_core_git_remote out)
  if(NOT EQUIFUZZ_CORE_GIT_REMOTE STREQUAL "")
    set(${out} "${EQUIFUZZ_CORE_GIT_REMOTE}" PARENT_SCOPE)
  elseif(NOT "${EQUIFUZZ_CORE_GIT_REMOTE_FROM_ENV}" STREQUAL "")
    set(${out} "${EQUIFUZZ_CORE_GIT_REMOTE_FROM_ENV}" PARENT_SCOPE)
  else()
    file(READ "${EQUIFUZZ_ROOT}/differential/core/commits.json" lock)
    string(JSON remote GET "${lock}" remote)
    set(${out} "${remote}" PARENT_SCOPE)
  endif()
endfunction()

# Unpacks the tree <spec> names (a commit id with its lock ref, or git:<ref> / pr:<N>) and
# registers it as <id> (or, with id "", as git-<commit12>). Sets <out_id> to the tree's id and
# <out_error> to one sentence ("" on success).
function(_equifuzz_core_git_tree id spec ref role what suffix out_id out_error)
  set(${out_error} "" PARENT_SCOPE)
  set(ref_arg "")
  if(ref)
    set(ref_arg --ref "${ref}")
  endif()
  _equifuzz_core_git(json rc err tree --spec "${spec}" --role ${role} ${ref_arg})
  if(NOT rc EQUAL 0)
    set(${out_error} "${err}" PARENT_SCOPE)
    return()
  endif()
  string(JSON commit GET "${json}" commit)
  string(JSON date GET "${json}" date)
  string(JSON src GET "${json}" src)
  string(JSON how GET "${json}" what)
  string(SUBSTRING "${commit}" 0 12 short)
  if(id STREQUAL "")
    set(id git-${short})
  endif()
  if(what STREQUAL "")
    set(what "${how}")
  endif()
  equifuzz_tree_get(${id} SRC known)
  if(NOT known)
    get_filename_component(top "${src}" DIRECTORY)
    _equifuzz_core_version("${top}" core_version)
    file(CREATE_LINK "${top}" "${CMAKE_BINARY_DIR}/core-trees/${id}" SYMBOLIC)
    _equifuzz_core_register(${id} "${src}" "Bitcoin Core ${core_version} commit ${commit} (${date}), ${what}${suffix}")
    equifuzz_tree_set(${id} COMMIT "${commit}")
  endif()
  set(${out_id} ${id} PARENT_SCOPE)
endfunction()

# A user's checkout: the directory itself or its src/. Returns the src/ path or "".
function(_equifuzz_core_user_tree role path)
  string(TOLOWER "${role}" r)
  if(path MATCHES "^(git|pr):")
    _equifuzz_core_git_remote(remote)
    _equifuzz_core_git_tree(user-${r} "${path}" "" ${r} "" " from ${remote} (EQUIFUZZ_CORE_${role}_SRC)" id error)
    if(NOT error STREQUAL "")
      message(FATAL_ERROR "EQUIFUZZ_CORE_${role}_SRC=${path}: ${error}")
    endif()
    return()
  endif()
  get_filename_component(path "${path}" ABSOLUTE)
  if(EXISTS "${path}/src/streams.h")
    set(src "${path}/src")
    set(top "${path}")
  elseif(EXISTS "${path}/streams.h")
    set(src "${path}")
    get_filename_component(top "${path}" DIRECTORY)
  else()
    message(FATAL_ERROR "EQUIFUZZ_CORE_${role}_SRC=${path} is not a Bitcoin Core checkout (no src/streams.h there)")
  endif()
  _equifuzz_core_version("${top}" version)
  set(commit "not a git checkout")
  find_package(Git QUIET)
  if(GIT_EXECUTABLE)
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${top}" rev-parse --short=12 HEAD
                    OUTPUT_VARIABLE sha ERROR_QUIET RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      set(commit "git ${sha}")
    endif()
  endif()
  _equifuzz_core_register(user-${r} "${src}" "Bitcoin Core ${version}, ${commit}, from ${top} (EQUIFUZZ_CORE_${role}_SRC)")
endfunction()

# Fetches the pinned registry trees. Returns TRUE/FALSE in out; says why on FALSE.
function(_equifuzz_core_registry_trees out)
  set(${out} FALSE PARENT_SCOPE)
  equifuzz_find_cargo()
  if(EQUIFUZZ_CARGO_EXE STREQUAL "")
    get_property(why GLOBAL PROPERTY EQUIFUZZ_CARGO_WHY)
    _equifuzz_core_off("the pinned Core trees need cargo: ${why}; or name your own checkouts with EQUIFUZZ_CORE_ORIGINAL_SRC and EQUIFUZZ_CORE_OPTIMIZED_SRC")
    return()
  endif()
  foreach(version IN LISTS EQUIFUZZ_CORE_REGISTRY_VERSIONS)
    set(manifest "${EQUIFUZZ_ROOT}/differential/core/trees/kernel-${version}/Cargo.toml")
    # Sources only: fetch checks the locked checksum; metadata then names where the crate is.
    execute_process(COMMAND "${EQUIFUZZ_CARGO_EXE}" fetch --locked --quiet --manifest-path "${manifest}"
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 300)
    if(rc EQUAL 0)
      execute_process(COMMAND "${EQUIFUZZ_CARGO_EXE}" metadata --locked --offline --format-version 1 --manifest-path "${manifest}"
                      RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err TIMEOUT 120)
    endif()
    if(NOT rc EQUAL 0)
      equifuzz_cargo_error("${err}" ${rc} first)
      _equifuzz_core_off("cargo could not fetch libbitcoinkernel-sys ${version} (${first})")
      return()
    endif()
    string(JSON count LENGTH "${json}" packages)
    math(EXPR last "${count} - 1")
    set(crate_manifest "")
    foreach(i RANGE ${last})
      string(JSON name GET "${json}" packages ${i} name)
      if(name STREQUAL "libbitcoinkernel-sys")
        string(JSON crate_manifest GET "${json}" packages ${i} manifest_path)
        break()
      endif()
    endforeach()
    get_filename_component(crate_dir "${crate_manifest}" DIRECTORY)
    if(NOT EXISTS "${crate_dir}/bitcoin/src/streams.h")
      _equifuzz_core_off("libbitcoinkernel-sys ${version} has no bitcoin/src/ tree at ${crate_dir}")
      return()
    endif()
    _equifuzz_core_version("${crate_dir}/bitcoin" core_version)
    # A link in the build directory, so the tree a binary was built from is easy to find.
    file(CREATE_LINK "${crate_dir}/bitcoin" "${CMAKE_BINARY_DIR}/core-trees/kernel-${version}" SYMBOLIC)
    _equifuzz_core_register(kernel-${version} "${crate_dir}/bitcoin/src"
      "crate libbitcoinkernel-sys ${version} (checksum locked), Bitcoin Core ${core_version}")
  endforeach()
  set(${out} TRUE PARENT_SCOPE)
endfunction()

# Called once, before the pairs: decides EQUIFUZZ_CORE_SIDES_ENABLED and registers the trees.
function(equifuzz_core_setup)
  set_property(GLOBAL PROPERTY EQUIFUZZ_CORE_SIDES_WHY "")
  set(EQUIFUZZ_CORE_SIDES_ENABLED FALSE PARENT_SCOPE)
  if(EQUIFUZZ_CORE_SIDES STREQUAL "OFF")
    _equifuzz_core_off("EQUIFUZZ_CORE_SIDES=OFF")
    return()
  endif()
  # Core's trees since v29 use std::source_location (logging.h), which clang before 15 cannot give
  # with libstdc++: AFL++ 4.04c's afl-clang-fast++ is clang 14. Such a build has our sides only.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 15)
    _equifuzz_core_off("Bitcoin Core's trees need std::source_location, which ${CMAKE_CXX_COMPILER} (clang ${CMAKE_CXX_COMPILER_VERSION}) lacks; clang 15 or newer builds them (AFL++ 4.04c's afl-clang-fast++ is clang 14)")
    return()
  endif()
  find_program(EQUIFUZZ_OBJCOPY NAMES objcopy llvm-objcopy-19 llvm-objcopy)
  find_program(EQUIFUZZ_LD_BFD NAMES ld.bfd ld)
  if(NOT EQUIFUZZ_OBJCOPY OR NOT EQUIFUZZ_LD_BFD)
    _equifuzz_core_off("GNU ld and objcopy are needed to keep each Core tree's symbols apart (Debian package binutils)")
    return()
  endif()
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/core-trees")
  # Core's own configure step generates these; nothing the sides use depends on their contents
  # (SHA-256's back-end switches are set per object, _equifuzz_core_compile_setup), so empty ones
  # stand in.
  foreach(header bitcoin-build-config.h config/bitcoin-config.h)
    file(WRITE "${CMAKE_BINARY_DIR}/core-config/${header}"
         "// Written by equifuzz (cmake/CoreTrees.cmake) in place of Bitcoin Core's generated header.\n")
  endforeach()
  foreach(role ORIGINAL OPTIMIZED)
    if(NOT EQUIFUZZ_CORE_${role}_SRC STREQUAL "")
      _equifuzz_core_user_tree(${role} "${EQUIFUZZ_CORE_${role}_SRC}")
    endif()
  endforeach()
  if(EQUIFUZZ_CORE_ORIGINAL_SRC STREQUAL "" OR EQUIFUZZ_CORE_OPTIMIZED_SRC STREQUAL "")
    _equifuzz_core_git_setup()
    _equifuzz_core_registry_trees(ok)
    if(NOT ok)
      return()
    endif()
  endif()
  set(EQUIFUZZ_CORE_SIDES_ENABLED TRUE PARENT_SCOPE)
  set_property(GLOBAL PROPERTY EQUIFUZZ_CORE_SIDES_ENABLED TRUE)
endfunction()

# Decides whether the pairs' pinned trees come from git (EQUIFUZZ_CORE_TREE_SOURCE): sets the
# global EQUIFUZZ_CORE_GIT_ENABLED, and EQUIFUZZ_CORE_TREES_FROM to what ctest and reports say.
function(_equifuzz_core_git_setup)
  set_property(GLOBAL PROPERTY EQUIFUZZ_CORE_GIT_ENABLED FALSE)
  if(NOT EQUIFUZZ_CORE_TREE_SOURCE MATCHES "^(AUTO|git|registry)$")
    message(FATAL_ERROR "EQUIFUZZ_CORE_TREE_SOURCE must be AUTO, git or registry, not '${EQUIFUZZ_CORE_TREE_SOURCE}'")
  endif()
  if(EQUIFUZZ_CORE_TREE_SOURCE STREQUAL "registry")
    set_property(GLOBAL PROPERTY EQUIFUZZ_CORE_TREES_FROM "registry (EQUIFUZZ_CORE_TREE_SOURCE=registry)")
    message(STATUS "equifuzz: Core trees from the registry (EQUIFUZZ_CORE_TREE_SOURCE=registry), not each pair's commits in differential/core/commits.json")
    return()
  endif()
  _equifuzz_core_git_remote(remote)
  _equifuzz_core_git(json rc err reachable)
  if(NOT rc EQUAL 0)
    if(EQUIFUZZ_CORE_TREE_SOURCE STREQUAL "git")
      message(FATAL_ERROR "equifuzz: EQUIFUZZ_CORE_TREE_SOURCE=git, but the git remote cannot be reached: ${err}")
    endif()
    set_property(GLOBAL PROPERTY EQUIFUZZ_CORE_TREES_FROM "registry (git remote ${remote} unreachable)")
    message(NOTICE "equifuzz: Core trees from git unavailable (${err}): every pair's Core sides are the registry trees, "
                   "not the pair's commits in differential/core/commits.json; set EQUIFUZZ_CORE_GIT_REMOTE to a clone that has them")
    return()
  endif()
  set_property(GLOBAL PROPERTY EQUIFUZZ_CORE_GIT_ENABLED TRUE)
  set_property(GLOBAL PROPERTY EQUIFUZZ_CORE_TREES_FROM "git (${remote})")
  message(STATUS "equifuzz: Core trees from git: ${remote}, each pair at its commits in differential/core/commits.json")
endfunction()

# The tree that plays <role> for <pair>: the user's, else the pair's pinned commit from git
# (CORE_COMMITS names its entry in commits.json), else the registry tree kernel-<version>.
function(_equifuzz_core_pair_tree pair role default_version out)
  string(TOUPPER "${role}" ROLE)
  equifuzz_pair_get(${pair} CORE_COMMITS key)
  get_property(git GLOBAL PROPERTY EQUIFUZZ_CORE_GIT_ENABLED)
  if(NOT EQUIFUZZ_CORE_${ROLE}_SRC STREQUAL "" OR NOT git OR key STREQUAL "")
    _equifuzz_core_tree_for(${role} ${default_version} tree)
    set(${out} ${tree} PARENT_SCOPE)
    return()
  endif()
  set(when before)
  if(role STREQUAL "optimized")
    set(when after)
  endif()
  file(READ "${EQUIFUZZ_ROOT}/differential/core/commits.json" lock)
  string(JSON commit GET "${lock}" trees ${key} ${when} commit)
  string(JSON ref GET "${lock}" trees ${key} ${when} ref)
  string(JSON how GET "${lock}" trees ${key} ${when} what)
  string(JSON pr GET "${lock}" trees ${key} pr)
  string(JSON other GET "${lock}" trees ${key} before commit)
  set(what "${key} ${when}, ${how}")
  if(NOT pr EQUAL 0)
    set(what "#${pr} ${when}, ${how}")
  elseif(other STREQUAL commit)  # one commit for both sides (a CORE_EDIT makes the difference)
    set(what "${key}, ${how}")
  endif()
  _equifuzz_core_git_tree("" "${commit}" "${ref}" ${role} "${what}" "" tree error)
  if(NOT error STREQUAL "" AND EQUIFUZZ_CORE_TREE_SOURCE STREQUAL "git")
    message(FATAL_ERROR "equifuzz: pair ${pair}: Core ${role} side: ${error}")
  elseif(NOT error STREQUAL "")
    message(NOTICE "equifuzz: pair ${pair}: Core ${role} side from kernel-${default_version} instead of commit ${commit}: ${error}")
    set(tree kernel-${default_version})
  endif()
  set(${out} ${tree} PARENT_SCOPE)
endfunction()

# The tree that plays <role> (original/optimized) for a pair whose default is kernel-<version>.
function(_equifuzz_core_tree_for role default_version out)
  string(TOUPPER "${role}" ROLE)
  if(NOT EQUIFUZZ_CORE_${ROLE}_SRC STREQUAL "")
    set(${out} user-${role} PARENT_SCOPE)
  else()
    set(${out} kernel-${default_version} PARENT_SCOPE)
  endif()
endfunction()
