# PencilcConfig.cmake: pencilc as a compile step in CMake builds.
#
#   find_package(Pencilc REQUIRED)   # Pencilc_DIR=<pencilc>/cmake, or
#                                    # include(<pencilc>/cmake/PencilcConfig.cmake)
#   add_executable(app main.c)
#   pencilc_add_sources(app OPENCL src/kernels.c
#                       [INCLUDE_DIRECTORIES dir...] [COMPILE_DEFINITIONS def...]
#                       [OPTIONS pencilc-option...] [OUTPUT_DIRECTORY dir])
#
# For each source, one custom command runs pencilc with a dependency file
# (-MD, CMake's DEPFILE), so that editing a header the source includes
# reruns pencilc on that source only, and adds the generated host file
# to the target: <stem>_host.c (OPENCL, kernels embedded; link OpenCL),
# <stem>_host.c and <stem>_kernel.cu (CUDA; enable the C and CUDA
# languages: the host file is C, built by the C compiler with the CUDA
# toolkit's headers, and the CUDA runtime is linked as for any CUDA
# target), <stem>_pencilc.c (C: the mapped program as sequential C).
#
# pencilc sees the target's own include directories and compile
# definitions, then INCLUDE_DIRECTORIES and COMPILE_DEFINITIONS. The
# pencilc found is PENCILC_EXECUTABLE (a cache variable: set it to choose
# one); the custom commands depend on it, so a new pencilc regenerates.
# With the Ninja generator pencilc leaves unchanged outputs untouched
# (--write-if-changed) and CMake's restat then skips recompiling them.

cmake_minimum_required(VERSION 3.20) # DEPFILE with every generator

find_program(PENCILC_EXECUTABLE pencilc
  HINTS "${CMAKE_CURRENT_LIST_DIR}/../target/release"
  DOC "the pencilc compiler")
if(NOT PENCILC_EXECUTABLE)
  set(Pencilc_FOUND FALSE)
  set(Pencilc_NOT_FOUND_MESSAGE
    "pencilc not found: build it (cargo build --release) or set PENCILC_EXECUTABLE")
  return()
endif()
set(Pencilc_FOUND TRUE)

function(pencilc_add_sources target)
  set(modes OPENCL CUDA C)
  cmake_parse_arguments(PARSE_ARGV 1 PA "${modes}" "OUTPUT_DIRECTORY"
    "INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;OPTIONS")
  set(mode "")
  foreach(m IN LISTS modes)
    if(PA_${m})
      if(mode)
        message(FATAL_ERROR "pencilc_add_sources(${target}): give one of OPENCL, CUDA, C")
      endif()
      set(mode ${m})
    endif()
  endforeach()
  if(NOT mode)
    message(FATAL_ERROR "pencilc_add_sources(${target}): give one of OPENCL, CUDA, C")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "pencilc_add_sources: no target ${target}")
  endif()
  if(mode STREQUAL "CUDA" AND NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "pencilc_add_sources(${target} CUDA): enable the CUDA language (project(... C CUDA) or enable_language(CUDA))")
  endif()
  if(NOT PA_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pencilc_add_sources(${target}): no sources")
  endif()
  set(out "${PA_OUTPUT_DIRECTORY}")
  if(NOT out)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/pencilc/${target}")
  endif()

  # The target's include directories and definitions become -I/-D words
  # in the command itself (an empty list gives no word): a generator
  # expression with `;` cannot travel through a list variable.
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(flags "")
  foreach(d IN LISTS PA_INCLUDE_DIRECTORIES)
    get_filename_component(d "${d}" ABSOLUTE)
    list(APPEND flags -I "${d}")
  endforeach()
  foreach(d IN LISTS PA_COMPILE_DEFINITIONS)
    list(APPEND flags "-D${d}")
  endforeach()
  if(CMAKE_GENERATOR MATCHES "Ninja")
    list(APPEND flags --write-if-changed)
  endif()

  string(TOLOWER "${mode}" lang)
  foreach(src IN LISTS PA_UNPARSED_ARGUMENTS)
    get_filename_component(src "${src}" ABSOLUTE)
    get_filename_component(stem "${src}" NAME_WE)
    if(mode STREQUAL "OPENCL")
      set(outputs "${out}/${stem}_host.c" "${out}/${stem}_kernel.cl")
      set(compiled "${out}/${stem}_host.c")
    elseif(mode STREQUAL "CUDA")
      set(outputs "${out}/${stem}_host.c" "${out}/${stem}_kernel.cu" "${out}/${stem}_kernel.h")
      set(compiled "${out}/${stem}_host.c" "${out}/${stem}_kernel.cu")
      # The host file calls the CUDA runtime's C API (cuda_runtime_api.h).
      set_property(SOURCE "${out}/${stem}_host.c" APPEND PROPERTY
        INCLUDE_DIRECTORIES ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
    else()
      set(outputs "${out}/${stem}_pencilc.c")
      set(compiled "${out}/${stem}_pencilc.c")
    endif()
    list(GET outputs 0 host)
    set(depfile "${out}/${stem}.d")
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND "${PENCILC_EXECUTABLE}" --target ${lang}
              -MD -MF "${depfile}" -MQ "${host}"
              "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
              "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
              ${flags} ${PA_OPTIONS}
              -o "${host}" "${src}"
      DEPENDS "${src}" "${PENCILC_EXECUTABLE}"
      DEPFILE "${depfile}"
      WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
      COMMENT "pencilc ${stem} (${lang})"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    target_sources(${target} PRIVATE ${compiled})
  endforeach()
endfunction()
