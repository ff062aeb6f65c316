/* The plain-C baseline of examples/bench_kernels/kernels.cu (compiled with -O2): the same work, as loops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void vector_add(const float *a, const float *b, float *c, int n) {
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}

static int reduce(const int *in, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += in[i];
    return s;
}

int main(void) {
    const int n = 1 << 22;
    float *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *c = calloc(n, sizeof *c);
    int *in = malloc(n * sizeof *in);
    memset(in, 1, n * sizeof *in);
    volatile float sinkf = 0;
    volatile int sink = 0;
    double add = 1e30, red = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = now_ns();
        vector_add(a, b, c, n);
        sinkf += c[n / 2];
        double t1 = now_ns();
        sink += reduce(in, n);
        double t2 = now_ns();
        if ((t1 - t0) / n < add) add = (t1 - t0) / n;
        if ((t2 - t1) / n < red) red = (t2 - t1) / n;
    }
    printf("%.3f %.3f %d\n", add, red, sink != 0 ? 0 : 1);
    return 0;
}
