# Warnings and sanitizers, applied per target (not globally) so third-party
# code and generated sources are never held to our -Werror.
function(ecf_target_defaults tgt)
  target_compile_options(${tgt} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
    -Wmissing-prototypes -Wold-style-definition -Wformat=2 -Wwrite-strings
    -Wcast-align -Wimplicit-fallthrough -fno-common>)
  if(ECF_WERROR)
    target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Werror>)
  endif()
  if(ECF_SANITIZE)
    # GCC's -fsanitize=undefined leaves out float-cast-overflow (a double
    # out of range of the integer it is converted to: undefined, C11
    # 6.3.1.4); clang's includes it. Added whenever "undefined" is asked
    # for, so both compilers see a cast that ecf_sat_* should have taken.
    set(san "${ECF_SANITIZE}")
    if(san MATCHES "undefined" AND NOT san MATCHES "float-cast-overflow")
      set(san "${san},float-cast-overflow")
    endif()
    target_compile_options(${tgt} PRIVATE
      $<$<COMPILE_LANGUAGE:C>:-fsanitize=${san} -fno-omit-frame-pointer -fno-sanitize-recover=all>)
    target_link_options(${tgt} PRIVATE -fsanitize=${san})
  else()
    # Debian's hardening flags (dpkg-buildflags, hardening=+all minus the
    # ones that need nothing here) for every optimised build; not Debug
    # (_FORTIFY_SOURCE needs -O) nor sanitizer builds. PIE: CMAKE_POSITION_
    # INDEPENDENT_CODE in CMakeLists.txt. lintian checks them in the .deb.
    target_compile_options(${tgt} PRIVATE
      $<$<AND:$<COMPILE_LANGUAGE:C>,$<NOT:$<CONFIG:Debug>>>:-U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2 -fstack-protector-strong>)
    target_link_options(${tgt} PRIVATE
      $<$<NOT:$<CONFIG:Debug>>:LINKER:-z,relro LINKER:-z,now>)
  endif()
endfunction()
