/*
 * The search core built a second time, with -march=x86-64-v2 (setup.py), as the
 * module _core_v2: the same source, its own object file and module name.
 * scopone/solver/core.py imports it on processors that have that level.
 */
#define CORE_NAME _core_v2
#define CORE_ISA "x86-64-v2"
#include "_core.c"
