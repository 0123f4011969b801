//! The one error type of the library. Messages are lowercase, name ids as `%N`, and are printed by
//! `main.rs` as `error: <message>`.

use thiserror::Error;

/// Everything that can go wrong while processing a module. Variants are grouped by stage.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    // --- input / binary layer ---
    /// Reading a file or stream failed.
    #[error("{path}: {source}")]
    Io {
        /// The file (or `<stdin>`) being read.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The bytes are not a SPIR-V module (wrong magic, truncated, bad header).
    #[error("{0}")]
    Binary(String),
    /// Writing the output failed (the caller knows where it was going).
    #[error("cannot write the output: {0}")]
    Write(#[source] std::io::Error),
    /// An error of another kind, in the named input file.
    #[error("{file}: {source}")]
    InFile {
        /// The input file's name.
        file: String,
        /// The error in it.
        #[source]
        source: Box<Error>,
    },
    /// An instruction that breaks the SPIR-V grammar or the module's id rules.
    #[error("malformed instruction at word {offset} ({opcode}): {message}")]
    Malformed {
        /// Word offset of the instruction in the module.
        offset: usize,
        /// Its opcode's name.
        opcode: String,
        /// What is wrong with it.
        message: String,
    },
    /// The module would need more ids than the 32-bit bound allows (the bound is the payload).
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
    /// A type whose size or alignment cannot be computed (emulation buffer layout).
    #[error("{0}")]
    Layout(String),
    /// A spec constant that cannot be assigned a SpecId, descriptor or default value.
    #[error("{0}")]
    SpecMap(String),

    // --- lowering and cleanup ---
    /// A marker call that cannot be lowered.
    #[error("{0}")]
    Lower(String),
    /// A check of spec-link's own output failed (a bug in spec-link, not in the input).
    #[error("internal check failed: {0}")]
    PostCondition(String),

    // --- specialization ---
    /// Specialization errors (unknown names, values that do not fit), reported together.
    #[error("{}", .0.join("\n"))]
    Specialize(Vec<String>),

    // --- validation ---
    /// `spirv-val` is missing or rejects the output (see [`crate::Validation`]).
    #[error("{0}")]
    Validation(String),

    // --- device-code split ---
    /// The module cannot be split into device images.
    #[error("{0}")]
    Split(String),

    // --- options ---
    /// An option combination or input the library does not support.
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

/// The library's result type.
pub type Result<T> = std::result::Result<T, Error>;
