cmake_minimum_required(VERSION 3.20)
# One golden CLI case, run in the fixtures folder (so paths in arguments
# and in messages are relative and stable). Files in DIR, all named after CASE:
#   CASE.args   line 1: the arguments (separated by ';' as a CMake list, or by spaces)
#               line 2 (optional): the expected exit code (default 0)
#   CASE.out    expected stdout, byte for byte (optional: absent = not compared)
#   CASE.err    expected stderr, byte for byte (optional: absent = must be empty
#               when the exit code is 0, not compared otherwise)
#   CASE.stdin  optional file fed to stdin
# Paths in arguments are relative to tests/fixtures (the working directory),
# so messages that quote them are the same on every machine.
# Set UPDATE=1 in the environment to rewrite .out/.err from the actual output.
file(STRINGS ${DIR}/${CASE}.args lines)
list(GET lines 0 argline)
set(want_rc 0)
list(LENGTH lines n)
if(n GREATER 1)
  list(GET lines 1 want_rc)
endif()
separate_arguments(argv UNIX_COMMAND "${argline}")
set(stdin_opt "")
if(EXISTS ${DIR}/${CASE}.stdin)
  set(stdin_opt INPUT_FILE ${DIR}/${CASE}.stdin)
endif()
file(MAKE_DIRECTORY ${WORK})
set(ENV{NO_COLOR} 1)
# the staleness warning is printed in pipes too (issue 26): off here, so the
# expected stderr does not depend on the day the test runs
set(ENV{EC2FIT_STALE_DAYS} 0)
# the catalog's age in days is in the JSON, tfvars and tf-external outputs
# (issue 26): "today" pinned to 2026-12-01T12:00:00Z, so it is the same
# number every day
set(ENV{EC2FIT_NOW} 1796126400)
set(ENV{EC2FIT_CATALOG} "")
set(ENV{XDG_CACHE_HOME} "${WORK}/nocache")
set(ENV{XDG_CONFIG_HOME} "${WORK}/noconfig")
unset(ENV{AWS_REGION})
unset(ENV{AWS_DEFAULT_REGION})
unset(ENV{AWS_PROFILE})
# the AWS profile's region is a default too (docs/config.md): none here
set(ENV{AWS_CONFIG_FILE} "${WORK}/no-aws-config")
execute_process(COMMAND ${EXE} ${argv} ${stdin_opt}
  WORKING_DIRECTORY ${FIXTURES}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(fail "")
if(NOT rc STREQUAL want_rc)
  string(APPEND fail "exit code ${rc}, expected ${want_rc}\n")
endif()
if("$ENV{UPDATE}" STREQUAL "1")
  file(WRITE ${DIR}/${CASE}.out "${out}")
  if(NOT err STREQUAL "")
    file(WRITE ${DIR}/${CASE}.err "${err}")
  endif()
endif()
if(EXISTS ${DIR}/${CASE}.out)
  file(READ ${DIR}/${CASE}.out want_out)
  if(NOT out STREQUAL want_out)
    file(WRITE ${WORK}/${CASE}.actual.out "${out}")
    string(APPEND fail "stdout differs: diff ${DIR}/${CASE}.out ${WORK}/${CASE}.actual.out\n")
  endif()
endif()
if(EXISTS ${DIR}/${CASE}.err)
  file(READ ${DIR}/${CASE}.err want_err)
  if(NOT err STREQUAL want_err)
    string(APPEND fail "stderr differs:\n--- expected\n${want_err}--- actual\n${err}")
  endif()
elseif(want_rc STREQUAL "0" AND NOT err STREQUAL "")
  string(APPEND fail "unexpected stderr:\n${err}")
endif()
if(fail)
  message(FATAL_ERROR "cli case ${CASE} (${argline}):\n${fail}")
endif()
