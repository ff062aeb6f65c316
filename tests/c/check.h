/*
 * check.h — assertions for the tests/c programs (C11 and C++17): on a mismatch, print what was expected, what
 * came back and the simulator's last error messages, and exit non-zero.
 */
#ifndef STREAMSIM_TESTS_CHECK_H
#define STREAMSIM_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "streamsim.h"

static inline void check_messages(void) {
    static const streamsimApi apis[] = {STREAMSIM_API_CUDA, STREAMSIM_API_MUSA, STREAMSIM_API_ACL};
    static const char *const names[] = {"cuda", "musa", "acl"};
    for (int i = 0; i < 3; i++) {
        const char *m = streamsimGetLastErrorMessage(apis[i]);
        if (m != NULL) {
            fprintf(stderr, "  last %s error: %s\n", names[i], m);
        }
    }
}

static inline void check_fail(const char *file, int line, const char *what) {
    fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what);
    check_messages();
    exit(1);
}

static inline void check_eq(const char *file, int line, const char *what, long long got, long long want) {
    if (got != want) {
        fprintf(stderr, "%s:%d: %s\n  got %lld, expected %lld\n", file, line, what, got, want);
        check_messages();
        exit(1);
    }
}

static inline void check_near(const char *file, int line, const char *what, double got, double want) {
    double d = got - want;
    if (d < -1e-6 || d > 1e-6) {
        fprintf(stderr, "%s:%d: %s\n  got %.9f, expected %.9f\n", file, line, what, got, want);
        check_messages();
        exit(1);
    }
}

static inline void check_contains(const char *file, int line, const char *what, const char *text,
                                  const char *needle) {
    if (text == NULL || strstr(text, needle) == NULL) {
        fprintf(stderr, "%s:%d: %s\n  got \"%s\", expected it to contain \"%s\"\n", file, line, what,
                text == NULL ? "(NULL)" : text, needle);
        exit(1);
    }
}

/* EXPECT(call, code): the call returns exactly `code`. */
#define EXPECT(call, want) check_eq(__FILE__, __LINE__, #call, (long long)(call), (long long)(want))
/* CHECK(condition). */
#define CHECK(cond) ((cond) ? (void)0 : check_fail(__FILE__, __LINE__, #cond))
#define CHECK_EQ(got, want) check_eq(__FILE__, __LINE__, #got " == " #want, (long long)(got), (long long)(want))
#define CHECK_NEAR(got, want) check_near(__FILE__, __LINE__, #got " ~= " #want, (double)(got), (double)(want))
#define CHECK_CONTAINS(text, needle) check_contains(__FILE__, __LINE__, #text, (text), (needle))

#endif
