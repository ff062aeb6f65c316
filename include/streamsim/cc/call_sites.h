/*
 * call_sites.h — where the program allocates and frees memory, for the sanitizer's reports ("allocation #3
 * (4096 bytes at 0x…, cudaMalloc at line 12 of out_of_bounds.cu)", "… which was freed (cudaFree at line 20 of
 * use_after_free.cu)"). The pre-include headers include it last, after the runtime headers, and define each
 * allocation and free call as a function-like macro of the same name:
 *
 *     cudaMalloc(&p, n)  →  __streamsim_cc::at("cudaMalloc", __FILE__, __LINE__, [&] { return cudaMalloc(&p, n); })
 *
 * `at` tells the library the call's site (__streamsim_at) for as long as the call runs, and forgets it when
 * it returns. A function-like macro does not expand inside its own expansion, so the inner name is the
 * runtime's own function (overloads and templates resolve as written). The expansion starts with a name, so
 * `::cudaMalloc(…)` stays valid; `&cudaMalloc` and `(cudaMalloc)(…)` are not expanded (no site). Not in the
 * device pass. What does not compile with it: a program's own prototype of one of these calls (the macro
 * expands in it), and what a lambda cannot do: stand at namespace scope (a global initialiser calling
 * cudaMalloc), capture a structured binding or appear in `decltype` / `sizeof` (before C++20); define
 * STREAMSIM_CC_NO_CALL_SITES (-D) to build such a program without sites.
 */
#ifndef STREAMSIM_CC_CALL_SITES_H
#define STREAMSIM_CC_CALL_SITES_H
#if !defined(__CUDA_ARCH__) && !defined(STREAMSIM_CC_NO_CALL_SITES)
extern "C" void __streamsim_at(const char *call, const char *file, int line);
namespace __streamsim_cc {
/* The site, said while it lives. */
struct CallSite {
    CallSite(const char *call, const char *file, int line) { __streamsim_at(call, file, line); }
    ~CallSite() { __streamsim_at(0, 0, 0); }
    CallSite(const CallSite &) = delete;
    CallSite &operator=(const CallSite &) = delete;
};
/* Runs the call `f` with its site said. */
template <class F> inline auto at(const char *call, const char *file, int line, F &&f) -> decltype(f()) {
    CallSite site(call, file, line);
    return f();
}
} // namespace __streamsim_cc
#define STREAMSIM_CC_AT(call, ...) __streamsim_cc::at(#call, __FILE__, __LINE__, [&] { return call(__VA_ARGS__); })
#define STREAMSIM_CC_CALL_SITES 1
#endif
#endif
