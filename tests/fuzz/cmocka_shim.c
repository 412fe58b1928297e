/*
 * The cmocka entry points the unit-test drivers (model_harness.c,
 * rdma_driver.c, dp_driver.c) call, for fuzzers that include them: a failed
 * assert aborts, which libFuzzer reports as a crash with the input.
 * Included by the fuzzer that needs it (as those drivers are).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
void _assert_true(const uintmax_t result, const char *const expression,
                  const char *const file, const int line)
{
    if (!result) {
        abort();
    }
}

void _assert_int_equal(const uintmax_t a, const uintmax_t b,
                       const char *const file, const int line)
{
    if (a != b) {
        abort();
    }
}

void _assert_int_not_equal(const uintmax_t a, const uintmax_t b,
                           const char *const file, const int line)
{
    if (a == b) {
        abort();
    }
}

void _fail(const char *const file, const int line)
{
    abort();
}

void print_error(const char *const format, ...)
{
}
