# autotune.cmake: compile a target's C sources through autotune-cc, the autotune build hook.
#
#   execute_process(COMMAND autotune-cc --cmake-dir OUTPUT_VARIABLE dir
#                   OUTPUT_STRIP_TRAILING_WHITESPACE)
#   list(APPEND CMAKE_MODULE_PATH "${dir}")
#   include(autotune)
#   autotune_enable(<target>...)        # these targets' C compiles go through autotune-cc
#   autotune_enable(GLOBAL)             # every C target created after this, in this scope
#   autotune_add_tune_target(<target>)  # target 'autotune-tune-<target>': 'autotune tune'
#                                       # on the target's C sources, with its definitions
#
# autotune-cc is a compiler launcher (C_COMPILER_LAUNCHER): it compiles the tuned variant of
# each source when 'autotune tune' stored one for this machine, and the original otherwise;
# any failure inside autotune falls back to the original compile. An existing launcher such
# as ccache is kept (autotune-cc runs it). For a tuning build that tunes every source with
# its exact compile flags:  AUTOTUNE_MODE=tune cmake --build build --clean-first
#
# Variables: AUTOTUNE_CC_EXECUTABLE and AUTOTUNE_EXECUTABLE (found on PATH, may be set),
# AUTOTUNE_LAUNCHER (the launcher command, a list; default from 'autotune-cc --launcher'),
# AUTOTUNE_TUNE_ARGS (extra arguments for 'autotune tune', a list).

include_guard(GLOBAL)

find_program(AUTOTUNE_CC_EXECUTABLE autotune-cc)
find_program(AUTOTUNE_EXECUTABLE autotune)

# The launcher: 'autotune-cc --launcher' names the same wrapper started without the
# interpreter's site step (python -S .../launch.py), which costs each compile less.
if(AUTOTUNE_CC_EXECUTABLE AND NOT AUTOTUNE_LAUNCHER)
  execute_process(COMMAND "${AUTOTUNE_CC_EXECUTABLE}" --launcher
                  OUTPUT_VARIABLE _autotune_out RESULT_VARIABLE _autotune_rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_autotune_rc EQUAL 0 AND _autotune_out)
    string(REPLACE "\n" ";" AUTOTUNE_LAUNCHER "${_autotune_out}")
  else()
    set(AUTOTUNE_LAUNCHER "${AUTOTUNE_CC_EXECUTABLE}")
  endif()
endif()

function(_autotune_launcher out old)
  if(NOT old OR old MATCHES "-NOTFOUND$")
    set(old "")
  endif()
  list(GET AUTOTUNE_LAUNCHER -1 last)
  if(last IN_LIST old)
    set(${out} "${old}" PARENT_SCOPE)
  else()
    set(launcher ${AUTOTUNE_LAUNCHER})
    list(APPEND launcher ${old})
    set(${out} "${launcher}" PARENT_SCOPE)
  endif()
endfunction()

function(autotune_enable)
  if(NOT AUTOTUNE_CC_EXECUTABLE)
    message(WARNING "autotune: autotune-cc not found on PATH; building without it")
    return()
  endif()
  if(ARGC EQUAL 0)
    message(FATAL_ERROR "autotune_enable: give one or more targets, or GLOBAL")
  endif()
  if(ARGV0 STREQUAL "GLOBAL")
    _autotune_launcher(launcher "${CMAKE_C_COMPILER_LAUNCHER}")
    set(CMAKE_C_COMPILER_LAUNCHER "${launcher}" PARENT_SCOPE)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    if(NOT TARGET ${target})
      message(FATAL_ERROR "autotune_enable: no target named '${target}'")
    endif()
    get_target_property(old ${target} C_COMPILER_LAUNCHER)
    _autotune_launcher(launcher "${old}")
    set_property(TARGET ${target} PROPERTY C_COMPILER_LAUNCHER "${launcher}")
  endforeach()
endfunction()

function(autotune_add_tune_target target)
  if(NOT AUTOTUNE_EXECUTABLE)
    message(WARNING "autotune: 'autotune' not found on PATH; no autotune-tune-${target} target")
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(c_sources "")
  foreach(src IN LISTS sources)
    if(src MATCHES "\\.c$")
      get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${source_dir}")
      list(APPEND c_sources "${abs}")
    endif()
  endforeach()
  # 'autotune tune' measures whole programs: each source with the others as --extra-source.
  set(commands "")
  foreach(abs IN LISTS c_sources)
    set(extra "")
    foreach(other IN LISTS c_sources)
      if(NOT other STREQUAL abs)
        list(APPEND extra --extra-source "${other}")
      endif()
    endforeach()
    list(APPEND commands COMMAND "${AUTOTUNE_EXECUTABLE}" tune "${abs}" ${extra}
         "$<$<BOOL:${defs}>:-D$<JOIN:${defs},$<SEMICOLON>-D>>"
         "$<$<BOOL:${incs}>:-I$<JOIN:${incs},$<SEMICOLON>-I>>"
         --cc "${CMAKE_C_COMPILER}" ${AUTOTUNE_TUNE_ARGS})
  endforeach()
  if(NOT c_sources)
    message(WARNING "autotune_add_tune_target: '${target}' has no C sources")
    return()
  endif()
  add_custom_target(autotune-tune-${target} ${commands}
                    WORKING_DIRECTORY "${source_dir}"
                    COMMENT "autotune tune: the C sources of ${target}"
                    COMMAND_EXPAND_LISTS VERBATIM)
endfunction()
