//! Scenarios: small line-based programs, close to the seeds' code, that the `streamsim run` command executes
//! on a fresh machine, printing each call's answer, the terminal timeline and the race reports.
//!
//! ```
//! use streamsim::scenario;
//!
//! let text = "
//!     event start
//!     event stop
//!     record start
//!     kernel k 250us
//!     record stop
//!     sync event stop
//!     elapsed start stop
//! ";
//! let run = scenario::run(&scenario::parse(text)?);
//! assert!(run.stopped.is_none());
//! assert!(run.transcript().contains("ok: 0.251 ms"));
//! assert!(run.report(80).lines().all(|l| l.chars().count() <= 80 || !l.contains('|')));
//! # Ok::<(), scenario::ParseError>(())
//! ```
//!
//! # The language
//!
//! One statement per line; `#` starts a comment; words are separated by spaces. Names (streams, events,
//! buffers, processes) are letters, digits and `_`, declared by the statement that creates them and usable on
//! later lines. Sizes are `4096`, `64KiB`, `1MiB`, `2GiB` (or `KB`, `MB`, `GB` for powers of ten); durations
//! are `800ns`, `200us` (or `µs`), `1.5ms`, `2s`.
//!
//! | statement | runtime call |
//! |---|---|
//! | `dialect cuda` / `musa` / `acl` | which vendor (before the first call; ACL is not supported yet) |
//! | `devices N`, `seed N` | the machine (before the first call; default 1 device, seed 0) |
//! | `process NAME` | later lines run in that simulated process (created at first use; the first is `main`) |
//! | `set-device D` | `cudaSetDevice(D)` |
//! | `stream S [non-blocking] [priority P] [flags N]` | `cudaStreamCreateWithPriority(&S, flags, P)` |
//! | `event E [blocking-sync] [disable-timing] [interprocess] [flags N]` | `cudaEventCreateWithFlags(&E, flags)` |
//! | `malloc B SIZE` / `malloc-host B SIZE` | `cudaMalloc` / `cudaMallocHost` |
//! | `pageable B SIZE` | ordinary host memory (no runtime call) |
//! | `free B`, `destroy S` / `destroy E` | `cudaFree` / `cudaFreeHost`, `cudaStreamDestroy` / `cudaEventDestroy` |
//! | `kernel K [on S] [DURATION] [reads B...] [writes B...]` | `K<<<…, S>>>()` (default stream, 10 µs if not given) |
//! | `memcpy DST SRC [SIZE]` / `memcpy-async DST SRC [SIZE] [on S]` | `cudaMemcpy` / `cudaMemcpyAsync` |
//! | `memset B VALUE [SIZE]` / `memset-async B VALUE [SIZE] [on S]` | `cudaMemset` / `cudaMemsetAsync` |
//! | `host-fn [on S]` | `cudaLaunchHostFunc` |
//! | `record E [on S]` | `cudaEventRecord(E, S)` |
//! | `wait S E` | `cudaStreamWaitEvent(S, E)` |
//! | `query E` / `query S` (or `query event E`, `query stream S`) | `cudaEventQuery` / `cudaStreamQuery` |
//! | `sync event E` / `sync stream S` / `sync device` (or `sync NAME`) | `cudaEventSynchronize` / `cudaStreamSynchronize` / `cudaDeviceSynchronize` |
//! | `elapsed E1 E2` | `cudaEventElapsedTime(&ms, E1, E2)` |
//! | `get-last-error` / `peek-last-error` | `cudaGetLastError` / `cudaPeekAtLastError` |
//! | `can-access-peer D P`, `enable-peer-access P`, `disable-peer-access P` | peer access (not supported yet) |
//! | `ipc-get-event-handle E H`, `ipc-open-event-handle H E2` | IPC event handles (not supported yet) |
//! | `ipc-get-mem-handle B H`, `ipc-open-mem-handle H B2` | IPC memory handles (not supported yet) |
//! | `context C [device D]`, `set-context C`, `reset-device` | contexts, device reset (not supported yet) |
//!
//! Streams can also be written `default` (the NULL stream), `legacy` and `per-thread`. Copies take the kind
//! of their buffers: `malloc` is device memory, `malloc-host` pinned host memory, `pageable` ordinary host
//! memory; `SIZE` defaults to the source's size (`memset`: the buffer's).
//!
//! A call that fails prints its error and the run goes on. A statement that uses a feature the simulator does
//! not have yet stops the run with "… is not supported yet" and its line. A malformed file is refused before
//! anything runs, with line, column, what was expected and what was found.

mod ast;
mod lex;
mod outcome;
mod parse;
mod report;
mod run;

pub use ast::{Name, Scenario, Statement, Stmt, StreamRef, Target, Vendor};
pub use outcome::{CallRecord, Outcome, Run, RunError, race_reports};
pub use parse::{ParseError, parse};
pub use report::{error_message, error_name, outcome_text};
pub use run::{MAX_HOST_BUFFER, run};

/// Parses and runs `text`.
pub fn run_source(text: &str) -> Result<Run, ParseError> {
    Ok(run(&parse(text)?))
}
