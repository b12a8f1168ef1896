# Script mode (cmake -P): writes the three completion scripts by running the
# built binary, so the installed files list exactly its commands, flags,
# models and instance types. -DEXE=<ec2fit> -DOUT=<dir>
# A user's config file must not change (or break) a build: point the
# config lookup at a directory that does not exist.
set(ENV{XDG_CONFIG_HOME} "${OUT}/no-config")
set(ENV{EC2FIT_CATALOG} "")
file(MAKE_DIRECTORY ${OUT})
foreach(pair "bash;ec2fit" "zsh;_ec2fit" "fish;ec2fit.fish")
  list(GET pair 0 shell)
  list(GET pair 1 name)
  execute_process(COMMAND ${EXE} completion ${shell}
    OUTPUT_FILE ${OUT}/${name}.tmp RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ec2fit completion ${shell} failed (${rc}): ${err}")
  endif()
  file(RENAME ${OUT}/${name}.tmp ${OUT}/${name})
endforeach()
