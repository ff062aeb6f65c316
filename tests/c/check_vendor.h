/*
 * check_vendor.h — check.h's assertions for a program linked with a vendor's runtime library only (the drop-ins
 * of `streamsim exec`: -lcudart, -lascendcl, -lmusart), which has no streamsim functions: forced in with
 * `-include check_vendor.h`, it takes check.h's include guard, so the program's own `#include "check.h"` adds
 * nothing and the program is built unchanged. On a mismatch it prints what was expected and what came back.
 */
#ifndef STREAMSIM_TESTS_CHECK_H
#define STREAMSIM_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void check_fail(const char *file, int line, const char *what) {
    fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what);
    exit(1);
}

static inline void check_eq(const char *file, int line, const char *what, long long got, long long want) {
    if (got != want) {
        fprintf(stderr, "%s:%d: %s\n  got %lld, expected %lld\n", file, line, what, got, want);
        exit(1);
    }
}

static inline void check_near(const char *file, int line, const char *what, double got, double want) {
    double d = got - want;
    if (d < -1e-6 || d > 1e-6) {
        fprintf(stderr, "%s:%d: %s\n  got %.9f, expected %.9f\n", file, line, what, got, want);
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

#define EXPECT(call, want) check_eq(__FILE__, __LINE__, #call, (long long)(call), (long long)(want))
#define CHECK(cond) ((cond) ? (void)0 : check_fail(__FILE__, __LINE__, #cond))
#define CHECK_EQ(got, want) check_eq(__FILE__, __LINE__, #got " == " #want, (long long)(got), (long long)(want))
#define CHECK_NEAR(got, want) check_near(__FILE__, __LINE__, #got " ~= " #want, (double)(got), (double)(want))
#define CHECK_CONTAINS(text, needle) check_contains(__FILE__, __LINE__, #text, (text), (needle))

#endif
