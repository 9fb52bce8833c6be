/*
 * The search core built for the standard rules (scientifico) and the default
 * options only, as its own module: setup.py compiles this file with
 * CORE_STANDARD (the options and rules switches become constants: see OPTS and
 * RULE in solver.h), CORE_NAME, and the level's -march where there is one.
 * scopone/solver/core.py imports it for those rules and options.
 */
#include "_core.c"
