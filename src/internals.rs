//! The pipeline's first stages one at a time, and an output check, for the project's own stage
//! benchmark (`benches/stages.rs`) and fuzz targets (`fuzz/`). **Not part of the library's API:**
//! compiled only with the `internals` feature (which the benchmark and the fuzz crate turn on),
//! no stability promise; a library user has no reason to enable it.
//!
//! The stages are wrapped, not re-exported: the module, index and marker types stay private,
//! and each wrapper is one call of the stage the pipeline runs ([`crate::process`] calls the same
//! functions), so that timing a wrapper times the stage.

use crate::error::Result;
use crate::markers::Markers;
use crate::module::index::Index;
use crate::module::Module;
use crate::{specmap, SpecIdOrder, SpecMap};

/// A module read into words (the pipeline's `load` step).
pub struct Loaded(Module);

/// Reads a module from its bytes (either byte order), as the pipeline's `load` step does.
pub fn load(bytes: &[u8]) -> Result<Loaded> {
    Module::from_bytes(bytes).map(Loaded)
}

impl Loaded {
    /// Number of instructions.
    pub fn instructions(&self) -> usize {
        self.0.len()
    }

    /// Indexes the module (the pipeline's `index` step).
    pub fn index(&self) -> Result<Indexed<'_>> {
        Ok(Indexed {
            module: &self.0,
            index: Index::build(&self.0)?,
        })
    }
}

/// A module with its index.
pub struct Indexed<'a> {
    module: &'a Module,
    index: Index,
}

impl Indexed<'_> {
    /// Number of functions.
    pub fn functions(&self) -> usize {
        self.index.functions.len()
    }

    /// Finds the marker calls (the pipeline's `find markers` step).
    pub fn find_markers(&self) -> Result<Found> {
        crate::markers::find_markers(self.module, &self.index).map(Found)
    }

    /// Assigns SpecIds, descriptors and default bytes as native lowering does (the pipeline's
    /// `assign` step in native mode).
    pub fn assign_native(&self, found: &Found, order: SpecIdOrder) -> Result<SpecMap> {
        specmap::build(
            self.module,
            &self.index,
            &found.0,
            specmap::Numbering::Native,
            order,
        )
    }

    /// Writes the module unedited to `out`, as an output without edits is written.
    pub fn write_unedited<W: std::io::Write>(&self, out: &mut W) -> std::io::Result<()> {
        self.module.write_to(
            out,
            self.index.names_end,
            self.index.annotation_end,
            self.index.globals_end,
        )
    }
}

/// The marker calls of a module.
pub struct Found(Markers);

impl Found {
    /// Number of marker calls.
    pub fn calls(&self) -> usize {
        self.0.calls.len()
    }
}

/// Ids that `output` uses and `input` defines but `output` does not: a definition removed while
/// still in use. Both are whole modules as words in host order, header included; the operands
/// of `OpExtInst` are not looked at.
pub fn dangling_uses(input: &[u32], output: &[u32]) -> Vec<u32> {
    crate::module::inst::dangling_uses(input, output)
}

/// spirv-val's first error line with numbers and ids masked, as the validation policy compares
/// an output's error with an input's (for the link tests' comparison with `spirv-link`).
pub fn spirv_val_error_key(msg: &str) -> String {
    crate::validate::error_key(msg)
}
