//! Typed link errors. Each variant prints the message the command line shows after `error: `;
//! a link gathers the errors of one kind and reports them together ([`crate::Error::Link`]).

use thiserror::Error;

/// One thing that prevents a link.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LinkError {
    /// An instruction whose operands cannot be decoded, so its ids cannot be shifted.
    #[error(
        "{input}: cannot link {opcode} at word {offset}: its operands cannot be decoded (unknown opcode or extended instruction set)"
    )]
    Undecodable {
        /// The input's name.
        input: String,
        /// The instruction's opcode.
        opcode: String,
        /// Its word offset in the input.
        offset: usize,
    },
    /// The inputs' id ranges together exceed the 32-bit id bound.
    #[error(
        "the linked module needs more than {} ids (id bound overflow at {input})",
        u32::MAX
    )]
    TooManyIds {
        /// The input at which the bound is exceeded.
        input: String,
    },
    /// The linked module would have more than 2^32 words.
    #[error("the linked module is too large (more than 2^32 words)")]
    TooLarge,
    /// No id is left for an instruction the link adds.
    #[error("id bound overflow")]
    IdBoundOverflow,
    /// Two entry points of one execution model and name.
    #[error("entry point \"{name}\" ({model}) is defined {by}")]
    DuplicateEntryPoint {
        /// The entry point's name.
        name: String,
        /// The execution model, spelled as in the grammar (`Kernel`).
        model: String,
        /// Which inputs define it.
        by: Definers,
    },
    /// Two inputs with different `OpMemoryModel` operands.
    #[error(
        "addressing or memory model mismatch: {first_input} uses {first_model}, {input} uses {model}"
    )]
    ModelMismatch {
        /// The first input.
        first_input: String,
        /// The first input's addressing and memory model.
        first_model: String,
        /// The input that differs.
        input: String,
        /// Its addressing and memory model.
        model: String,
    },
    /// One name exported by several inputs with different definitions.
    #[error("symbol \"{symbol}\" is exported by {}", .inputs.join(" and "))]
    ExportedTwice {
        /// The linkage name.
        symbol: String,
        /// The inputs exporting it.
        inputs: Vec<String>,
    },
    /// An import nobody exports (and not kept: no `allow_partial`).
    #[error("unresolved symbol \"{symbol}\" (imported by {})", .importers.join(", "))]
    Unresolved {
        /// The linkage name.
        symbol: String,
        /// The inputs importing it.
        importers: Vec<String>,
    },
    /// The way out of [`LinkError::Unresolved`], once after the list.
    #[error(
        "{count} unresolved symbol{}: add the inputs that export {}, or pass \
         --allow-partial to keep unresolved imports in the output (for a library linked \
         again later, or functions a driver provides)",
        if *.count == 1 { "" } else { "s" },
        if *.count == 1 { "it" } else { "them" }
    )]
    UnresolvedHint {
        /// How many symbols are unresolved.
        count: usize,
    },
    /// An import whose type is not the export's (and not adaptable).
    #[error(
        "type mismatch for \"{symbol}\": imported by {import_input} as {import_type}, exported by {export_input} as {export_type}"
    )]
    TypeMismatch {
        /// The linkage name.
        symbol: String,
        /// The importing input.
        import_input: String,
        /// The type it imports, disassembled.
        import_type: String,
        /// The exporting input.
        export_input: String,
        /// The type it exports, disassembled.
        export_type: String,
    },
    /// No input has an entry point and the result is not a library: linking would drop every
    /// export's linkage, leaving a module with nothing to call.
    #[error(
        "no input has an entry point: a linked module without one is a library (pass \
         --create-library to keep the exports)"
    )]
    NoEntryPoint,
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
    Twice {
        /// The input.
        input: String,
    },
    /// Two inputs of one name: their positions (from 1).
    SameName {
        /// The inputs' name.
        input: String,
        /// Position of the first.
        first: usize,
        /// Position of the second.
        second: usize,
    },
    /// Two inputs.
    Two {
        /// The first input.
        first: String,
        /// The second input.
        second: String,
    },
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
    /// The SpecId.
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
