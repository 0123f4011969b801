//! Link several modules into one, as `spirv-link` does, before lowering.
//!
//! The phases, in order (one file each, one entry function; `Linker::finish` calls them):
//! 1. `input`: give each module a disjoint id range (error when the 32-bit bound overflows) and
//!    copy its instructions into one arena with every id shifted, including those inside extended
//!    instructions (decoded with their set's grammar);
//! 2. `merge`: merge capabilities, extensions and extended-instruction imports; the addressing
//!    and memory models must agree; an entry point is defined once; the highest SPIR-V version
//!    wins;
//! 3. `dedup`: deduplicate types and constants (structs only when their decorations agree);
//! 4. `symbols`: resolve each `Import` to the one `Export` of the same name and type and replace
//!    its uses; `LinkOnceODR` duplicates are merged, and so are exports of one name whose
//!    definitions are copies of one another (`copies`; two different ones are an error);
//!    marker imports are left for lowering; with `allow_partial` other unresolved imports are
//!    kept; without `create_library` the resolved exports lose their linkage;
//! 5. `spec_ids`: check that no SpecId is used by two inputs (or renumber the later input's);
//! 6. `adapt`: imports whose type differs from the export's only in pointee types are made to
//!    fit with bitcasts;
//! 7. `prune`: apply the id replacements everywhere; names and decorations of ids that are gone
//!    go, identical ones collapse; the `Linkage` capability goes when no linkage is left;
//! 8. `interfaces`: at SPIR-V 1.4 and later, extend entry-point interfaces to list every global
//!    variable the entry point's call tree uses (it may now reach into other inputs);
//! 9. `assemble`: write the sections in SPIR-V's logical order, function declarations before
//!    definitions (`module::assemble`).
//!
//! The phases share a `state::State`: the arena and the tables (id replacements, dropped slots,
//! removed symbols). All id replacements are collected in one map and applied once (phase 7).
//! Errors of a kind are gathered and reported together ([`LinkError`]), naming the symbols and
//! the files.
//!
//! Preconditions: every input is a module (`module::Module`) with its index. Postcondition: the
//! returned words are one module whose ids are below its bound.

mod adapt;
#[cfg(test)]
mod against_spirv_link;
mod assemble;
mod copies;
mod dedup;
pub(crate) mod error;
mod input;
mod interfaces;
mod merge;
mod prune;
mod spec_ids;
mod state;
mod symbols;
#[cfg(test)]
pub(crate) mod testing;
mod types;

pub use error::{Definers, LinkError, SpecIdCollision};

use crate::error::{Error, Result};
use crate::module::assemble::Section;
use crate::module::ids::IdAllocator;
use crate::module::index::Index;
use crate::module::Module;
use state::{Insts, State};

/// Linking options.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinkOptions {
    /// Keep unresolved imports (other than markers) instead of failing.
    pub allow_partial: bool,
    /// Keep exports (the result is a library).
    pub create_library: bool,
    /// Give the later input's colliding SpecIds fresh numbers instead of failing.
    pub renumber_spec_ids: bool,
}

/// A SpecId that was renumbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renumbered {
    /// The input whose SpecId it was.
    pub input: String,
    /// The SpecId in the input.
    pub from: u32,
    /// The SpecId in the linked module.
    pub to: u32,
}

/// What linking did besides producing the module.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct LinkReport {
    /// Imports kept unresolved (`allow_partial`), by name.
    pub unresolved: Vec<String>,
    /// SpecIds renumbered (`renumber_spec_ids`).
    pub renumbered: Vec<Renumbered>,
    /// Notes for the user.
    pub notes: Vec<crate::Diagnostic>,
}

/// One input to link.
pub(crate) struct LinkInput<'a> {
    /// The input's name (for messages).
    pub(crate) name: &'a str,
    /// The input module.
    pub(crate) module: &'a Module,
    /// Its index.
    pub(crate) index: &'a Index,
}

/// Links the inputs (see the module docs); returns the module's words. (The pipeline adds its
/// inputs to a [`Linker`] one at a time instead, dropping each once it is copied.)
#[cfg(test)]
pub(crate) fn link(inputs: &[LinkInput], options: &LinkOptions) -> Result<(Vec<u32>, LinkReport)> {
    let mut linker = Linker::default();
    for input in inputs {
        linker.add(input)?;
    }
    linker.finish(options)
}

/// A link in progress: [`Linker::add`] copies each input's instructions (ids shifted into the
/// output's range: phase 1) so that the caller can drop the input before reading the next one;
/// then [`Linker::finish`] runs the other phases.
#[derive(Default)]
pub(crate) struct Linker {
    insts: Insts,
    sections: Vec<Section>,
    /// The id ranges handed out so far.
    ids: IdAllocator,
    names: Vec<String>,
    versions: Vec<(u8, u8)>,
    generator: Option<u32>,
    /// Instructions that cannot be decoded (reported together by `finish`).
    errors: Vec<LinkError>,
}

impl Linker {
    /// Phase 1 for one input: its id range, and its instructions shifted into it.
    pub(crate) fn add(&mut self, input: &LinkInput) -> Result<()> {
        input::add_input(self, input)
    }

    /// Phases 2–9 (see the module docs); returns the module's words.
    pub(crate) fn finish(self, options: &LinkOptions) -> Result<(Vec<u32>, LinkReport)> {
        if !self.errors.is_empty() {
            return Err(Error::Link(self.errors));
        }
        let mut state = State::new(
            self.insts,
            self.sections,
            self.ids,
            self.names,
            self.versions,
            self.generator.unwrap_or(0),
        );
        merge::merge_module_level(&mut state)?;
        dedup::deduplicate_types_and_constants(&mut state);
        symbols::resolve_symbols(&mut state, options)?;
        if !options.create_library && !state.sections.contains(&Section::EntryPoint) {
            return Err(Error::Link(vec![LinkError::NoEntryPoint]));
        }
        spec_ids::check_spec_ids(&mut state, options)?;
        adapt::adapt_imports(&mut state)?;
        prune::apply_replacements_and_prune(&mut state);
        interfaces::extend_interfaces(&mut state)?;
        Ok(assemble::assemble_output(state))
    }
}
