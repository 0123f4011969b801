//! Typed link errors. Each variant prints the message the command line shows after `error: `;
//! a link gathers the errors of one kind and reports them together ([`crate::Error::Link`]).

use thiserror::Error;

/// One thing that prevents a link.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LinkError {
    /// An instruction whose operands cannot be decoded, so its ids cannot be shifted.
    #[error(
        "{input}: cannot link {opcode} at word {offset}: its operands cannot be decoded (unknown opcode or extended instruction set)"
    )]
    Undecodable {
        input: String,
        opcode: String,
        offset: usize,
    },
    /// The inputs' id ranges together exceed the 32-bit id bound.
    #[error(
        "the linked module needs more than {} ids (id bound overflow at {input})",
        u32::MAX
    )]
    TooManyIds { input: String },
    /// The linked module would have more than 2^32 words.
    #[error("the linked module is too large (more than 2^32 words)")]
    TooLarge,
    /// No id is left for an instruction the link adds.
    #[error("id bound overflow")]
    IdBoundOverflow,
    /// Two entry points of one execution model and name.
    #[error("entry point \"{name}\" ({model}) is defined {by}")]
    DuplicateEntryPoint {
        name: String,
        /// The execution model, spelled as in the grammar (`Kernel`).
        model: String,
        by: Definers,
    },
    /// Two inputs with different `OpMemoryModel` operands.
    #[error(
        "addressing or memory model mismatch: {first_input} uses {first_model}, {input} uses {model}"
    )]
    ModelMismatch {
        first_input: String,
        first_model: String,
        input: String,
        model: String,
    },
    /// One name exported by several inputs with different definitions.
    #[error("symbol \"{symbol}\" is exported by {}", .inputs.join(" and "))]
    ExportedTwice { symbol: String, inputs: Vec<String> },
    /// An import nobody exports (and not kept: no `allow_partial`).
    #[error("unresolved symbol \"{symbol}\" (imported by {})", .importers.join(", "))]
    Unresolved {
        symbol: String,
        importers: Vec<String>,
    },
    /// The way out of [`LinkError::Unresolved`], once after the list.
    #[error(
        "{count} unresolved symbol{}: add the inputs that export {}, or pass \
         --allow-partial to keep unresolved imports in the output (for a library linked \
         again later, or `llvm.*` intrinsics a driver provides)",
        if *.count == 1 { "" } else { "s" },
        if *.count == 1 { "it" } else { "them" }
    )]
    UnresolvedHint { count: usize },
    /// An import whose type is not the export's (and not adaptable).
    #[error(
        "type mismatch for \"{symbol}\": imported by {import_input} as {import_type}, exported by {export_input} as {export_type}"
    )]
    TypeMismatch {
        symbol: String,
        import_input: String,
        import_type: String,
        export_input: String,
        export_type: String,
    },
    /// SpecIds used by more than one input (without `renumber_spec_ids`), reported as one.
    #[error(
        "{} (pass --renumber-spec-ids to renumber the later inputs' SpecIds)",
        .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    SpecIdCollisions(Vec<SpecIdCollision>),
}

/// Who defines an entry point twice ([`LinkError::DuplicateEntryPoint`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Definers {
    /// One input, twice.
    Twice { input: String },
    /// Two inputs of one name: their positions (from 1).
    SameName {
        input: String,
        first: usize,
        second: usize,
    },
    /// Two inputs.
    Two { first: String, second: String },
}

impl std::fmt::Display for Definers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Definers::Twice { input } => write!(f, "twice by {input}"),
            Definers::SameName {
                input,
                first,
                second,
            } => write!(f, "by inputs {first} and {second} (both {input})"),
            Definers::Two { first, second } => write!(f, "by {first} and by {second}"),
        }
    }
}

/// One SpecId used by several inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecIdCollision {
    pub spec_id: u32,
    /// The inputs using it, in input order (a name repeated in a row once).
    pub inputs: Vec<String>,
}

impl std::fmt::Display for SpecIdCollision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SpecId {} is used by {}",
            self.spec_id,
            self.inputs.join(" and ")
        )
    }
}
