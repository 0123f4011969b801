//! Phase 9: write the linked module.
//!
//! Algorithm: the link's tables are released (only the arena and the drop marks are needed),
//! then [`crate::module::assemble::assemble`] writes the kept slots in the logical layout under
//! a header with the highest input version, the first input's generator and the link's id bound.
//!
//! Preconditions: phases 2–8 done. Postconditions: the words are one module whose ids are below
//! its bound.

use super::state::{Insts, State};
use super::LinkReport;
use crate::module::assemble::{assemble, Header, Section, Slots};

/// The arena's slots with their sections.
struct Arena<'a> {
    insts: &'a Insts,
    sections: &'a [Section],
}

impl Slots for Arena<'_> {
    fn len(&self) -> usize {
        self.insts.len()
    }
    #[inline]
    fn words(&self, n: usize) -> &[u32] {
        self.insts.words(n)
    }
    #[inline]
    fn section(&self, n: usize) -> Section {
        self.sections[n]
    }
}

/// The linked module's words, and the report of the link.
pub(super) fn assemble_output(state: State) -> (Vec<u32>, LinkReport) {
    let header = Header::new(state.version(), state.generator, state.ids.bound());
    // Memory: only the arena and the drop marks are needed to assemble.
    let State {
        insts,
        sections,
        drop,
        report,
        replace,
        removed_symbols,
        defs,
        adapted,
        ids: _,
        inputs: _,
        versions: _,
        generator: _,
    } = state;
    std::mem::drop((replace, removed_symbols, defs, adapted));
    let arena = Arena {
        insts: &insts,
        sections: &sections,
    };
    let words = assemble(&header, &arena, |n| !drop.contains(n));
    (words, report)
}
