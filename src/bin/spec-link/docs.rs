//! `spec-link completions SHELL` and `spec-link man`: shell completions and the man page,
//! generated from the same clap definitions that parse the arguments (so they cannot drift from
//! them). `scripts/setup.sh` installs both.

use crate::args::Cli;
use crate::info::InfoCli;
use crate::specialize::SpecializeCli;
use crate::Failure;
use clap::{CommandFactory, Parser};
use spec_link::Error;
use std::io::Write;

/// `spec-link completions SHELL`.
#[derive(Parser, Debug)]
#[command(
    name = "spec-link completions",
    bin_name = "spec-link completions",
    version,
    after_help = "Example:\n  spec-link completions bash > /usr/share/bash-completion/completions/spec-link"
)]
pub(crate) struct CompletionsCli {
    /// The shell to write completions for (to standard output)
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// `spec-link man`.
#[derive(Parser, Debug)]
#[command(
    name = "spec-link man",
    bin_name = "spec-link man",
    version,
    after_help = "Example:\n  spec-link man > /usr/local/share/man/man1/spec-link.1"
)]
pub(crate) struct ManCli {}

/// The whole command line as one clap command: the default form with the subcommands beside it.
fn command() -> clap::Command {
    let sub =
        |c: clap::Command, name: &'static str| c.name(name).bin_name(format!("spec-link {name}"));
    Cli::command()
        .subcommand(sub(InfoCli::command(), "info"))
        .subcommand(sub(SpecializeCli::command(), "specialize"))
        .subcommand(sub(CompletionsCli::command(), "completions"))
        .subcommand(sub(ManCli::command(), "man"))
        // The default form takes inputs, not a subcommand: both parse on their own (main.rs).
        .args_conflicts_with_subcommands(true)
        .subcommand_negates_reqs(true)
}

fn stdout_error(e: std::io::Error) -> Failure {
    Failure::Error(Error::Io {
        path: "<stdout>".into(),
        source: e,
    })
}

pub(crate) fn completions(cli: &CompletionsCli) -> Result<(), Failure> {
    let mut out = Vec::new();
    clap_complete::generate(cli.shell, &mut command(), "spec-link", &mut out);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out).map_err(stdout_error)?;
    stdout.flush().map_err(stdout_error)
}

pub(crate) fn man(_: &ManCli) -> Result<(), Failure> {
    let mut out = Vec::new();
    clap_mangen::Man::new(command())
        .render(&mut out)
        .map_err(stdout_error)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out).map_err(stdout_error)?;
    stdout.flush().map_err(stdout_error)
}

#[cfg(test)]
mod tests {
    /// The combined command is well formed (clap's own consistency checks).
    #[test]
    fn the_combined_command_is_consistent() {
        super::command().debug_assert();
    }
}
