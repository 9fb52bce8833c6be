/*
 * The search core built a second time, for a newer x86-64 level, as its own
 * module: setup.py compiles this file with that -march and defines CORE_NAME
 * and CORE_ISA (a source file of its own gives it its own object file).
 * scopone/solver/core.py imports it on processors that have that level.
 */
#include "_core.c"
