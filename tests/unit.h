/*
** cmocka glue: every unit-test program ends with "N passed, M failed", as
** every test program of the suite does.
*/
#ifndef TFR_TEST_UNIT_H
#define TFR_TEST_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#define RUN_UNIT_TESTS(tests)                                                  \
  do {                                                                         \
    int failed_ = cmocka_run_group_tests(tests, NULL, NULL);                   \
    int total_ = (int)(sizeof(tests) / sizeof((tests)[0]));                    \
    printf("%d passed, %d failed\n", total_ - failed_, failed_);               \
    return failed_ ? 1 : 0;                                                    \
  } while (0)

#endif
