//! The `spec-link` command: arguments → [`spec_link::Options`], run, print, exit code.
//! Exit 0 on success, 1 on a processing error (`error: …` on stderr, no file written or
//! modified), 2 on a usage error.

mod args;
mod docs;
mod info;
mod inputs;
mod lower;
mod signals;
mod specialize;
mod split;
mod staging;

use args::Cli;
use clap::Parser;
use spec_link::{Error, Severity};
use std::process::ExitCode;

/// Why a run failed: a usage error (exit 2) or a processing error (exit 1).
pub(crate) enum Failure {
    Usage(String),
    Error(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Error(e)
    }
}

/// Has glibc map every allocation of 128 KiB or more on its own. By default glibc raises that
/// threshold each time such a block is freed (up to 32 MiB), after which the big tables of later
/// stages live in the heap, where a vector that grows leaves its old buffer's pages resident:
/// the 101 MB dense bench module peaked at 273 MB instead of 244 MB. Mapped blocks go back to
/// the system when freed, and grow in place (`mremap`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_allocator() {
    // SAFETY: `mallopt` only sets an allocator parameter; this runs first in `main`, before any
    // other thread exists or allocates.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_allocator() {}

/// Prints a run's warnings, then its notes (`warning: …`, `note: …`), unless `--quiet`.
pub(crate) fn print_diagnostics(quiet: bool, diagnostics: &[spec_link::Diagnostic]) {
    if quiet {
        return;
    }
    for severity in [Severity::Warning, Severity::Note] {
        for d in diagnostics.iter().filter(|d| d.severity() == severity) {
            eprintln!("{}: {d}", severity.as_str());
        }
    }
}

/// Parses the arguments after the first `skip` (a subcommand's name stands in for the
/// program's); on an error or `--help`/`--version`, prints and gives the exit code.
fn parse<P: Parser>(skip: usize) -> Result<P, ExitCode> {
    P::try_parse_from(std::env::args_os().skip(skip)).map_err(|e| {
        let code = if e.use_stderr() { 2 } else { 0 };
        let _ = e.print();
        ExitCode::from(code)
    })
}

fn main() -> ExitCode {
    tune_allocator();
    signals::install();
    let result = match std::env::args_os()
        .nth(1)
        .as_deref()
        .and_then(|a| a.to_str())
    {
        Some("info") => parse::<info::InfoCli>(1).map(|c| info::run(&c)),
        Some("specialize") => parse::<specialize::SpecializeCli>(1).map(|c| specialize::run(&c)),
        Some("completions") => parse::<docs::CompletionsCli>(1).map(|c| docs::completions(&c)),
        Some("man") => parse::<docs::ManCli>(1).map(|c| docs::man(&c)),
        _ => parse::<Cli>(0).map(|cli| {
            if cli.split.is_some() {
                split::run(&cli)
            } else {
                split::check_no_split_options(&cli).and_then(|()| lower::run(&cli))
            }
        }),
    };
    let result = match result {
        Ok(r) => r,
        Err(code) => return code,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Error(e)) => {
            // Gathered errors one per line, each marked; the first of a flood are enough.
            const SHOWN: usize = 100;
            let messages = e.messages();
            for m in messages.iter().take(SHOWN) {
                eprintln!("error: {m}");
            }
            if messages.len() > SHOWN {
                eprintln!(
                    "error: … and {} more errors of this kind (the first {SHOWN} are shown)",
                    messages.len() - SHOWN
                );
            }
            ExitCode::from(1)
        }
    }
}

/// What `-v` says of a validation that ran: `ok`, or that the output fails as its input does
/// (the warning says how).
pub(crate) fn validation_outcome(diagnostics: &[spec_link::Diagnostic]) -> &'static str {
    let inherited = diagnostics.iter().any(|d| {
        matches!(
            d,
            spec_link::Diagnostic::InvalidAsInput { .. }
                | spec_link::Diagnostic::InvalidHiddenInInput { .. }
        )
    });
    if inherited {
        "fails as the input does (see the warning)"
    } else {
        "ok"
    }
}
