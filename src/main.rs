//! The `streamsim` command. Glue only: arguments here, everything else in `streamsim::scenario` and
//! `streamsim::export`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// streamsim: CUDA/MUSA and Ascend ACL stream and event semantics, simulated, with no hardware.
#[derive(Debug, Parser)]
#[command(name = "streamsim", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Runs a scenario file: prints each call's answer, the timeline and the race reports.
    Run {
        /// The scenario (see examples/scenarios/).
        file: PathBuf,
        /// Also write the trace as Chrome Trace Event JSON (open it in ui.perfetto.dev or chrome://tracing).
        #[arg(long, value_name = "OUT.json")]
        trace: Option<PathBuf>,
        /// Width of the timeline in characters (at most 1000: a larger value is clamped to it).
        #[arg(long, value_name = "N", default_value_t = 80)]
        width: usize,
    },
    /// Compiles a .cu / .mu / Ascend C program with nvcc's options; its kernels run on the CPU, on the simulated
    /// machine (`streamsim cc app.cu -o app && ./app`).
    #[command(disable_help_flag = true)]
    Cc {
        /// nvcc's options and the input files (see `streamsim cc` with no input).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Runs an unmodified binary built by NVIDIA's nvcc with `-cudart shared` on the simulated machine: its
    /// `libcudart.so.13` is streamsim's (`streamsim exec -- ./app args…`).
    Exec {
        /// Number of devices (`STREAMSIM_DEVICES`).
        #[arg(long, value_name = "N")]
        devices: Option<u32>,
        /// What to do about races (`STREAMSIM_RACES`): off, collect, print or fail.
        #[arg(long, value_name = "MODE")]
        races: Option<String>,
        /// Write the Chrome/Perfetto trace here at the program's exit (`STREAMSIM_TRACE`).
        #[arg(long, value_name = "OUT.json")]
        trace: Option<PathBuf>,
        /// The CPU kernels `streamsim cc --kernels app.cu -o app.kernels.so` built (`STREAMSIM_KERNELS`).
        #[arg(long, value_name = "APP.kernels.so")]
        kernels: Option<PathBuf>,
        /// The sanitizer's checks of those kernels (`STREAMSIM_CHECK`): memcheck, synccheck, all or off,
        /// comma-separated; `--tool` is compute-sanitizer's name for it.
        #[arg(long, alias = "tool", value_name = "CHECKS")]
        check: Option<String>,
        /// The program and its arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        program: Vec<std::ffi::OsString>,
    },
}

fn exec(options: streamsim::exec::Options) -> ExitCode {
    let run = streamsim::cc::find_lib().and_then(|lib| streamsim::exec::run(&options, &lib));
    match run {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(e) => {
            eprintln!("streamsim exec: {e}");
            ExitCode::from(2)
        }
    }
}

fn cc(args: &[String]) -> ExitCode {
    let options = match streamsim::cc::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("streamsim cc: {e}");
            return ExitCode::from(2);
        }
    };
    match streamsim::cc::build(options) {
        Ok(()) => ExitCode::SUCCESS,
        // An empty message: the compiler has said what failed.
        Err(e) if e.is_empty() => ExitCode::from(1),
        Err(e) => {
            eprintln!("streamsim cc: {e}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let (file, trace, width) = match Cli::parse().command {
        Command::Run { file, trace, width } => (file, trace, width),
        Command::Cc { args } => return cc(&args),
        Command::Exec {
            devices,
            races,
            trace,
            kernels,
            check,
            program,
        } => {
            return exec(streamsim::exec::Options {
                devices,
                races,
                trace,
                kernels,
                check,
                program,
            });
        }
    };
    let shown = file.display();
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("streamsim: cannot read {shown}: {e}");
            return ExitCode::from(2);
        }
    };
    let scenario = match streamsim::scenario::parse(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "{shown}:{}:{}: error: expected {}, found {}",
                e.line, e.column, e.expected, e.found
            );
            return ExitCode::from(2);
        }
    };
    let run = streamsim::scenario::run(&scenario);
    print!("{}", run.report(width));
    if let Some(path) = trace {
        if let Err(e) = std::fs::write(&path, run.chrome_json()) {
            eprintln!("streamsim: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
        eprintln!("streamsim: wrote {}", path.display());
    }
    match &run.stopped {
        Some(e) => {
            eprintln!("{shown}:{}:{}: error: {}", e.line, e.column, e.message);
            ExitCode::from(1)
        }
        None => ExitCode::SUCCESS,
    }
}
