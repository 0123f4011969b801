//! The one error type of the library. Messages are lowercase, name ids as `%N`, and are printed by
//! `main.rs` as `error: <message>`.

use thiserror::Error;

/// Everything that can go wrong while processing a module. Variants are grouped by stage.
#[derive(Debug, Error)]
pub enum Error {
    // --- input / binary layer ---
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Binary(String),
    /// Writing the output failed (the caller knows where it was going).
    #[error("cannot write the output: {0}")]
    Write(#[source] std::io::Error),
    /// An error of another kind, in the named input file.
    #[error("{file}: {source}")]
    InFile {
        file: String,
        #[source]
        source: Box<Error>,
    },
    #[error("malformed instruction at word {offset} ({opcode}): {message}")]
    Malformed {
        offset: usize,
        opcode: String,
        message: String,
    },
    #[error("id bound overflow: the module needs more than {0} ids")]
    IdOverflow(u32),

    // --- marker recognition ---
    /// Several recognition errors, reported together.
    #[error("{}", .0.join("\n"))]
    Markers(Vec<String>),

    // --- linking ---
    /// Linking errors, reported together.
    #[error("{}", join_lines(.0))]
    Link(Vec<crate::link::error::LinkError>),

    // --- layout / spec constants ---
    #[error("{0}")]
    Layout(String),
    #[error("{0}")]
    SpecMap(String),

    // --- lowering and cleanup ---
    #[error("{0}")]
    Lower(String),
    #[error("internal check failed: {0}")]
    PostCondition(String),

    // --- specialization ---
    /// Specialization errors (unknown names, values that do not fit), reported together.
    #[error("{}", .0.join("\n"))]
    Specialize(Vec<String>),

    // --- validation ---
    #[error("{0}")]
    Validation(String),

    // --- device-code split ---
    #[error("{0}")]
    Split(String),

    // --- options ---
    #[error("{0}")]
    Unsupported(String),
}

impl Error {
    /// The error as separate messages: one per error gathered in [`Error::Markers`] and
    /// [`Error::Link`] (each with the file of an enclosing [`Error::InFile`]), else the one
    /// message (which may span lines, such as spirv-val's report). The command line prints each
    /// as its own `error: …` line.
    pub fn messages(&self) -> Vec<String> {
        match self {
            Error::Markers(v) | Error::Specialize(v) => v.clone(),
            Error::Link(v) => v.iter().map(ToString::to_string).collect(),
            Error::InFile { file, source } => source
                .messages()
                .into_iter()
                .map(|m| format!("{file}: {m}"))
                .collect(),
            e => vec![e.to_string()],
        }
    }
}

/// The errors' messages, one a line.
fn join_lines(errors: &[crate::link::error::LinkError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

pub type Result<T> = std::result::Result<T, Error>;
