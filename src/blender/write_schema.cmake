# cmake -DPLUME=path/to/plume -DOUT=plume_schema.json -P write_schema.cmake
execute_process(COMMAND ${PLUME} check --reference --reference-format json
                OUTPUT_FILE ${OUT} RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PLUME} check --reference --reference-format json failed (${status}): ${err}")
endif()
