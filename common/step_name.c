/* step_name.c - compiled once per step with -DLAB_STEP_NAME="<its path>". */
#include "report.h"

const char *const lab_step_name = LAB_STEP_NAME;
