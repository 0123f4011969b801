//! Remove what lowering made dead, and nothing else.
//!
//! Algorithm (one function per step, over the shared tables of `Cleanup`):
//! 1. `find_candidates`: candidates are the ids the removed marker calls used (their arguments and
//!    the -O0 stores that fed them), closed over the operands of removable definitions: pointer
//!    casts, zero access chains, copies, loads and `Function` variables inside functions;
//!    module-scope variables without linkage, constants and `OpSpecConstantOp`s.
//! 2. `count_uses`: one pass counts the remaining uses of the candidates (names, decorations and
//!    entry-point interfaces do not count; an entry point's function and an id a decoration takes
//!    as a parameter do). A use by an instruction whose removal would not give it back — anything
//!    but a candidate's definition or an -O0 store — *pins* the candidate (it stays), and the pass
//!    stops looking for it. The same pass applies lowering's replacements: the replaced call
//!    results are candidates (they must end unused) that are never pinned, so the pass finds every
//!    use of them; a use inside a function that calls markers is rewritten to the replacing
//!    constant ([`lower::rewrite_uses`], into one arena applied after the pass) and the rewritten
//!    instruction is counted as an edited one is. Rewriting thus costs per use, with no pass of its
//!    own over the callers' instructions (on compiled device code those are most of the module:
//!    ~20% of native lowering's instructions went to such a pass).
//! 3. `remove_dead`: a worklist removes every candidate whose count is zero and decrements its
//!    operands; an -O0 store into a local whose pointer is otherwise unused is removed too.
//!    Removing an instruction gives back exactly the uses step 2 counted for it (a replacement
//!    holding several instructions is read one instruction at a time, as step 2 reads it).
//! 4. `remove_markers`: the marker declarations are removed — an error if anything still refers to
//!    one, to one of their parameters, or to the result of a lowered call that its replacement does
//!    not define (such input is invalid SPIR-V; the error replaces an output with a dangling id).
//!    Everything removed leaves the `OpEntryPoint` interfaces, and its names and decorations go, in
//!    one pass. Then the `Linkage` capability goes if no `LinkageAttributes` decoration is left.
//!
//! Preconditions: every key of the replacement map is the result of a removed marker call of
//! `markers` (so it is a candidate). Postcondition (checked): no marker declaration and no call
//! to one is left; no use of a replaced call result is left in the functions that call markers.

use crate::error::{Error, Result};
use crate::lower::{self, Replacements, Rewrites};
use crate::markers::Markers;
use crate::module::bits::BitSet;
use crate::module::idhash::{IdBits, IdSet, IdTable};
use crate::module::index::Index;
use crate::module::inst::{self, instructions};
use crate::module::{Module, ReleaseBehind};
use spirv::{Capability, Decoration, Op, StorageClass};

/// Names and decorations (they do not keep an id alive): OpName 5, OpMemberName 6, OpDecorate 71,
/// OpMemberDecorate 72, OpDecorateString 5632, OpMemberDecorateString 5633.
fn is_annotation(op: u32) -> bool {
    matches!(op, 5 | 6 | 71 | 72 | 5632 | 5633)
}

/// In a wave (sorted keys, `inst` the instruction of each) being visited at `k`: prefetches the offset of
/// the instruction 16 entries ahead, and the words of the one 8 ahead (its offset prefetched 8
/// steps before). The waves visit scattered definitions, a few cache and TLB misses each.
#[inline]
fn prefetch_ahead(module: &Module, wave: &[u64], k: usize, inst: impl Fn(u64) -> usize) {
    if let Some(&key) = wave.get(k + 16) {
        module.prefetch_offset(inst(key));
    }
    if let Some(&key) = wave.get(k + 8) {
        module.prefetch_inst(inst(key));
    }
}

/// Whether `words` (one or several instructions) defines `id`.
fn defines(words: &[u32], id: u32) -> bool {
    instructions(words).any(|w| inst::result_id(w) == Some(id))
}

/// Calls `f` with each id that `words` uses. `words` may hold several instructions (lowering
/// replaces a call by a sequence): each is visited on its own, as the use count reads them, so
/// that removing an instruction gives back exactly the uses counted for it.
fn visit_uses(index: &Index, module: &Module, words: &[u32], f: &mut impl FnMut(u32)) {
    for w in instructions(words) {
        index.visit_use_ids(module, w, &mut *f);
    }
}

/// For an error about `id` still being used: ", by OpX at word N" for the first instruction left
/// that uses it (as step 2 counts uses: names, decorations and entry-point interfaces aside), with
/// a word on an extended instruction of a set spec-link cannot decode (its literal operands are
/// taken for ids); empty if none is found. Only on the error path: a pass over the module.
fn where_used(module: &Module, index: &Index, id: u32) -> String {
    for i in 0..module.len() {
        let Some(words) = module.inst(i) else {
            continue;
        };
        for w in instructions(words) {
            let op = inst::opcode(w);
            if is_annotation(op) || op == Op::EntryPoint as u32 {
                continue;
            }
            let mut uses = false;
            index.visit_use_ids(module, w, |u| uses |= u == id);
            if !uses {
                continue;
            }
            let mut found = format!(", by {} at word {}", inst::op_name(op), module.offset_of(i));
            if index.id_use_positions(module, w).is_none() {
                let set = index.undecodable_because(module, w);
                found.push_str(if set.is_empty() {
                    " (an instruction spec-link cannot decode: every operand is taken for an id)"
                } else {
                    &set
                });
            }
            return found;
        }
    }
    String::new()
}

/// Modules with at least this many instructions count uses on two threads.
const PARALLEL_COUNT_MIN: usize = 200_000;

/// The use count of a pinned candidate (see step 2): far above any number of decrements (fewer
/// than 2^30 operands in a module), so it never comes down to 0 or 1.
const PINNED: u32 = 1 << 31;

struct Dce<'a> {
    index: &'a Index,
    /// Slot + 1 of each candidate (0: not a candidate), filled once the candidates are known
    /// ([`Dce::index_slots`]). `ids`, `count` and `def_inst` are by slot.
    slot: IdTable<u32>,
    /// The candidates' ids, by slot.
    ids: Vec<u32>,
    /// Remaining uses of each candidate (empty until step 2 counts them).
    count: Vec<u32>,
    /// Defining instruction + 1 of each candidate (0 for the marker declarations).
    def_inst: Vec<u32>,
}

impl Dce<'_> {
    /// Remaining uses of `id` (0 if it is not a candidate).
    fn uses(&self, id: u32) -> u32 {
        match self.slot.get(id) {
            0 => 0,
            k => self.count[k as usize - 1],
        }
    }

    /// One use of `id` less: its slot joins `work` when its count comes to zero.
    fn drop_use(&mut self, id: u32, work: &mut Vec<u32>) {
        let k = self.slot.get(id);
        if let Some(n) = k
            .checked_sub(1)
            .and_then(|k| self.count.get_mut(k as usize))
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                work.push(k - 1);
            }
        }
    }

    /// Makes `id` a candidate defined by instruction `inst` (`None`: a marker declaration).
    fn add(&mut self, id: u32, inst: Option<usize>) {
        self.def_inst.push(inst.map_or(0, |i| i as u32 + 1));
        self.ids.push(id);
    }

    /// Fills `slot`: a table as long as the id bound when the candidates are many (an eighth of
    /// the bound or more: the table then costs at most what a hash map of them would), a hash
    /// map otherwise (a large module with few marker calls). `budget` caps the table's bytes.
    fn index_slots(&mut self, bound: u32, budget: usize) {
        let many = self.ids.len().saturating_mul(32);
        self.slot = IdTable::new(bound, budget.min(many));
        for (k, &id) in self.ids.iter().enumerate() {
            *self.slot.get_mut(id) = k as u32 + 1;
        }
        self.ids.shrink_to_fit();
    }
}

impl Dce<'_> {
    /// Whether the definition of `id` may be removed once unused.
    fn removable(&self, module: &Module, id: u32) -> Option<usize> {
        let i = self.index.defs.get(&id)?;
        let w = module.inst(i)?;
        let op = inst::op_of(w)?;
        let global = i < self.index.globals_end;
        let ok = if global {
            match op {
                Op::Variable => !self.index.linkage.contains_key(&id),
                Op::SpecConstantOp
                | Op::ConstantComposite
                | Op::Constant
                | Op::ConstantNull
                | Op::ConstantTrue
                | Op::ConstantFalse
                | Op::Undef => true,
                _ => false,
            }
        } else {
            match op {
                Op::Bitcast
                | Op::PtrCastToGeneric
                | Op::GenericCastToPtr
                | Op::CopyObject
                | Op::AccessChain
                | Op::InBoundsAccessChain
                | Op::PtrAccessChain
                | Op::InBoundsPtrAccessChain => true,
                // Non-volatile loads only (memory operand bit 0 = Volatile).
                Op::Load => w.get(4).is_none_or(|m| m & 1 == 0),
                Op::Variable => w.get(3) == Some(&(StorageClass::Function as u32)),
                _ => false,
            }
        };
        ok.then_some(i)
    }
}

/// The tables the steps share, from the candidates (step 1) to the marker declarations (step 4).
///
/// Invariants: `candidates` holds exactly the ids that have a slot in `dce`; each has a
/// defining instruction there except the marker declarations, their parameters (`params`) and
/// the dropped results (`dropped_results`), which are never removed by the worklist. `replaced`
/// holds the keys of the replacement map (each a candidate), and `callers` the sorted
/// instruction ranges of the functions that call markers (both empty when nothing is replaced).
/// `dce.count` is empty until step 2 fills it, one count per slot.
struct Cleanup<'a> {
    dce: Dce<'a>,
    /// The candidates, as a set.
    candidates: IdBits,
    /// The -O0 stores that fed the removed calls (instruction indices).
    o0_stores: Vec<usize>,
    /// The marker declarations.
    functions: Vec<u32>,
    /// The markers' parameters, each with its marker.
    params: Vec<(u32, u32)>,
    /// Ids that leave the module with the markers and must not be used any more: the results of
    /// lowered calls that their replacement does not define (a call returning through its sret
    /// pointer, and the replaced ones whose uses lowering rewrote), with the calling function.
    dropped_results: Vec<(u32, u32)>,
    /// The functions whose instructions step 2 rewrites (those that call markers: a call result
    /// is used only in its own function), as sorted instruction ranges.
    callers: Vec<(usize, usize)>,
    /// The replaced call results.
    replaced: IdBits,
    /// The byte budget of the id tables (four bytes per word of the module).
    budget: usize,
}

/// Removes what lowering made dead (see the module docs).
/// Takes the markers: the per-call data is dropped once the candidates are seeded, before the
/// use count's tables are allocated (peak memory).
pub fn cleanup(
    module: &mut Module,
    index: &Index,
    markers: Markers,
    replacements: &Replacements,
) -> Result<()> {
    let mut state = Cleanup::find_candidates(module, index, markers, replacements);
    state.count_uses(module, replacements)?;
    let gone = state.remove_dead(module);
    state.remove_markers(module, gone)
}

/// The sorted instruction ranges of the functions that call markers, and the set of the replaced
/// call results (both empty when nothing is replaced).
fn rewrite_scope(
    module: &Module,
    index: &Index,
    markers: &Markers,
    replacements: &Replacements,
) -> (Vec<(usize, usize)>, IdBits) {
    let mut callers: Vec<(usize, usize)> = Vec::new();
    if !replacements.is_empty() {
        let ids: IdSet<u32> = markers.calls.iter().map(|c| c.caller).collect();
        callers.extend(
            index
                .functions
                .iter()
                .filter(|f| ids.contains(&f.id))
                .map(|f| (f.start, f.end)),
        );
        callers.sort_unstable();
    }
    let mut replaced = IdBits::new(
        if replacements.is_empty() {
            0
        } else {
            module.bound()
        },
        module.word_count(),
    );
    for &id in replacements.keys() {
        replaced.insert(id);
    }
    (callers, replaced)
}

impl<'a> Cleanup<'a> {
    /// Step 1: the candidates — the arguments of the removed calls and their -O0 stores, closed
    /// over the operands of removable definitions — each given a slot.
    fn find_candidates(
        module: &Module,
        index: &'a Index,
        markers: Markers,
        replacements: &Replacements,
    ) -> Self {
        let (callers, replaced) = rewrite_scope(module, index, &markers, replacements);
        let mut seeds: Vec<u32> = Vec::new();
        let mut o0_stores: Vec<usize> = Vec::new();
        let mut dropped_results: Vec<(u32, u32)> = Vec::new();
        for c in &markers.calls {
            let i = c.inst as usize;
            if module.is_removed(i) || module.is_edited(i) {
                seeds.extend_from_slice(&c.args);
                o0_stores.extend(c.o0_stores.iter().map(|&s| s as usize));
                if !module.inst(i).is_some_and(|w| defines(w, c.result)) {
                    dropped_results.push((c.result, c.caller));
                }
            }
        }
        let Markers {
            functions,
            calls,
            symbols,
            handler_buffers,
        } = markers;
        drop((calls, symbols, handler_buffers));
        let budget = module.word_count() * 4;
        let mut dce = Dce {
            index,
            slot: IdTable::new(0, 0),
            ids: Vec::new(),
            count: Vec::new(),
            def_inst: Vec::new(),
        };

        for &s in &o0_stores {
            if let Some(w) = module.inst(s) {
                visit_uses(index, module, w, &mut |u| seeds.push(u));
            }
        }
        // Only removable definitions are candidates (types and the like are never counted); each
        // has a slot with its defining instruction (`Dce::add`). The set of them:
        let mut candidates = IdBits::new(module.bound(), module.word_count());
        // The markers, their parameters and the dropped results are counted like candidates but
        // never removed by the worklist (no defining instruction): step 4 checks they are unused.
        let params: Vec<(u32, u32)> = functions
            .iter()
            .filter_map(|f| Some((*f, index.function_by_id.get(f)?)))
            .filter_map(|(f, &k)| Some((f, index.functions.get(k)?)))
            .flat_map(|(f, func)| func.params.iter().map(move |&p| (p, f)))
            .collect();
        let must_go = functions
            .iter()
            .chain(params.iter().map(|(p, _)| p))
            .chain(dropped_results.iter().map(|(r, _)| r));
        // Ids looked at (candidates or not): each is pushed, and judged, once however many uses
        // name it (the stack stays as short as the ids it reaches).
        let mut seen = IdBits::new(module.bound(), module.word_count());
        for &id in must_go {
            if candidates.insert(id) {
                dce.add(id, None);
            }
            seen.insert(id);
        }
        // Judged a wave at a time, each in the order of the definitions (a forward sweep: the
        // input's pages go behind it); the ids the wave's candidates use make the next wave. (The
        // set reached does not depend on the order.)
        let mut next = seeds;
        next.retain(|&id| seen.insert(id));
        // A wave: defining instruction << 32 | id, sorted.
        let mut wave: Vec<u64> = Vec::new();
        while !next.is_empty() {
            wave.clear();
            wave.extend(
                next.drain(..)
                    .filter_map(|id| Some((index.defs.get(&id)? as u64) << 32 | id as u64)),
            );
            wave.sort_unstable();
            let mut behind = ReleaseBehind::default();
            for (k, &key) in wave.iter().enumerate() {
                prefetch_ahead(module, &wave, k, |key| (key >> 32) as usize);
                let id = key as u32;
                behind.passed(module, module.offset_of((key >> 32) as usize));
                if let Some(i) = dce.removable(module, id) {
                    candidates.insert(id);
                    dce.add(id, Some(i));
                    if let Some(w) = module.inst(i) {
                        visit_uses(index, module, w, &mut |u| {
                            if seen.insert(u) {
                                next.push(u);
                            }
                        });
                    }
                }
            }
        }
        // (Grown by doubling, and kept to the end: give back the spare room.)
        drop((next, wave, seen));
        dce.def_inst.shrink_to_fit();
        dce.index_slots(module.bound(), budget);
        Cleanup {
            dce,
            candidates,
            o0_stores,
            functions,
            params,
            dropped_results,
            callers,
            replaced,
            budget,
        }
    }

    /// Step 2: counts the remaining uses of the candidates, in the module and in what lowering
    /// appended, pinning the candidates a use keeps and rewriting the uses of the replaced call
    /// results (the rewrites are applied to `module` at the end).
    fn count_uses(&mut self, module: &mut Module, replacements: &Replacements) -> Result<()> {
        let dce = &mut self.dce;
        let index = dce.index;
        // The instructions whose removal decrements their operands' counts: the candidates'
        // definitions and the -O0 stores (one bit per instruction).
        let mut may_go = BitSet::new(module.len());
        let definitions = dce.def_inst.iter().filter_map(|&d| d.checked_sub(1));
        for i in definitions
            .map(|i| i as usize)
            .chain(self.o0_stores.iter().copied())
        {
            may_go.insert(i);
        }
        let counter = UseCounter {
            module,
            index,
            slot: &dce.slot,
            may_go: &may_go,
            callers: &self.callers,
            replaced: &self.replaced,
            replacements,
        };
        let candidates = &self.candidates;
        // This pass reads every word of the module: two threads on big modules, each counting
        // into its own table (with its own copy of the set), summed (the result does not depend
        // on the split: a pin in either half pins).
        let n = module.len();
        let slots = dce.def_inst.len();
        let mut count = vec![0u32; slots];
        let mut rewritten = Rewrites::default();
        let mut upper_rewrites: Option<Rewrites> = None;
        if n >= PARALLEL_COUNT_MIN {
            let mid = n / 2;
            let counter = &counter;
            let (lower_half, upper) = std::thread::scope(|scope| {
                let upper = scope.spawn(|| {
                    let mut c = vec![0u32; slots];
                    let mut live = candidates.clone();
                    let mut r = Rewrites::default();
                    counter
                        .count_range(mid..n, &mut c, &mut live, &mut r)
                        .map(|()| (c, r))
                });
                let mut live = candidates.clone();
                let lower_half = counter.count_range(0..mid, &mut count, &mut live, &mut rewritten);
                (lower_half, upper.join())
            });
            // (The first error in instruction order, as one pass would report.)
            lower_half?;
            let (upper, upper_rewritten) = upper
                .map_err(|_| Error::PostCondition("the use-counting thread failed".into()))??;
            for (c, u) in count.iter_mut().zip(upper) {
                *c = c.saturating_add(u);
            }
            upper_rewrites = Some(upper_rewritten);
        } else {
            let mut live = candidates.clone();
            counter.count_range(0..n, &mut count, &mut live, &mut rewritten)?;
        }
        for w in instructions(module.appended_globals()) {
            counter.count_in(w, &mut count, candidates);
        }
        rewritten.apply(module);
        if let Some(upper) = upper_rewrites {
            upper.apply(module);
        }
        dce.count = count;
        Ok(())
    }

    /// Step 3: the worklist. Removes every candidate whose count is zero and decrements its
    /// operands, and the -O0 stores into locals whose pointer is otherwise unused. Returns the ids
    /// removed (their names and decorations go in step 4).
    fn remove_dead(&mut self, module: &mut Module) -> IdBits {
        let dce = &mut self.dce;
        let index = dce.index;
        let mut gone = IdBits::new(module.bound(), self.budget);
        let mut buf: Vec<u32> = Vec::new();
        // Any order gives the same result (a fixpoint: counts only go down). It starts from the
        // unused candidates that have a definition to remove (not the markers, their parameters
        // and the dropped results), found by slot; the others join when their count reaches zero.
        // It goes a wave at a time, each in the order of the definitions (a forward sweep: the
        // input's pages go behind it); the operands whose count reaches zero make the next wave.
        let mut work: Vec<u32> = (0..dce.def_inst.len() as u32)
            .filter(|&k| dce.def_inst[k as usize] != 0 && dce.count[k as usize] == 0)
            .collect();
        // A wave: (defining instruction + 1) << 32 | slot, sorted.
        let mut wave: Vec<u64> = Vec::new();
        loop {
            while !work.is_empty() {
                wave.clear();
                wave.extend(work.drain(..).filter_map(|k| {
                    let d = *dce.def_inst.get(k as usize)?;
                    (d != 0).then_some((d as u64) << 32 | k as u64)
                }));
                wave.sort_unstable();
                let mut behind = ReleaseBehind::default();
                for (at, &key) in wave.iter().enumerate() {
                    prefetch_ahead(module, &wave, at, |key| (key >> 32) as usize - 1);
                    let (k, i) = (key as u32 as usize, (key >> 32) as usize - 1);
                    if dce.count[k] > 0 {
                        continue;
                    }
                    behind.passed(module, module.offset_of(i));
                    let Some(w) = module.inst(i) else { continue };
                    buf.clear();
                    buf.extend_from_slice(w);
                    module.remove(i);
                    gone.insert(dce.ids[k]);
                    // The result is the same in any order (counts only go down): an operand is
                    // queued when its count reaches zero.
                    visit_uses(index, module, &buf, &mut |u| dce.drop_use(u, &mut work));
                }
            }
            // -O0 stores whose pointer nothing else uses any more.
            let mut progressed = false;
            for &s in &self.o0_stores {
                let Some(w) = module.inst(s) else { continue };
                if dce.uses(w[1]) == 1 {
                    buf.clear();
                    buf.extend_from_slice(w);
                    module.remove(s);
                    visit_uses(index, module, &buf, &mut |u| dce.drop_use(u, &mut work));
                    progressed = true;
                }
            }
            if !progressed {
                break;
            }
        }
        gone
    }

    /// Step 4: removes the marker declarations — an error if anything still refers to one, to
    /// one of their parameters, or to a dropped result — then everything removed (`gone`) from
    /// the entry-point interfaces with its names and decorations, and the `Linkage` capability if
    /// no `LinkageAttributes` decoration is left; checks the postcondition.
    fn remove_markers(self, module: &mut Module, mut gone: IdBits) -> Result<()> {
        let (dce, index) = (&self.dce, self.dce.index);
        for &(p, f) in &self.params {
            if dce.uses(p) > 0 {
                return Err(Error::Lower(format!(
                    "parameter %{p} of marker {} is used outside the marker's declaration{}",
                    index.display_name(f),
                    where_used(module, index, p)
                )));
            }
        }
        for &(r, caller) in &self.dropped_results {
            if dce.uses(r) > 0 {
                return Err(Error::Lower(format!(
                    "the result %{r} of a marker call in {} is still used where spec-link cannot replace it (a call that returns through its sret pointer has no value; a use outside the calling function is out of reach){}",
                    index.display_name(caller),
                    where_used(module, index, r)
                )));
            }
            gone.insert(r);
        }
        for &f in &self.functions {
            let entry_point = index
                .entry_points
                .iter()
                .any(|&e| module.inst(e).and_then(|w| w.get(2)) == Some(&f));
            if dce.uses(f) > 0 || entry_point {
                let by = if entry_point {
                    " (an OpEntryPoint)".to_string()
                } else {
                    match where_used(module, index, f) {
                        w if w.is_empty() => " (a function pointer?)".to_string(),
                        w => w,
                    }
                };
                return Err(Error::Lower(format!(
                    "marker function {} is still referenced by something other than a direct call{by}",
                    index.display_name(f),
                )));
            }
            let Some(&k) = index.function_by_id.get(&f) else {
                continue;
            };
            let func = &index.functions[k];
            for i in func.start..=func.end {
                module.remove(i);
            }
            for id in std::iter::once(f).chain(func.params.iter().copied()) {
                gone.insert(id);
            }
        }
        remove_references(module, index, &gone);
        check_no_markers(module, index, &self.functions)
    }
}

/// The end of step 4: everything in `gone` leaves the entry-point interfaces (globals, in a
/// valid module) and its names and decorations go, in one pass; then the `Linkage` capability
/// goes if no `LinkageAttributes` decoration is left.
fn remove_references(module: &mut Module, index: &Index, gone: &IdBits) {
    for &e in &index.entry_points {
        let Some(w) = module.inst(e) else { continue };
        let Some(n) = inst::string_len(&w[3..]) else {
            continue;
        };
        let keep = 3 + n;
        if !w[keep..].iter().any(|&x| gone.contains(x)) {
            continue;
        }
        let mut new: Vec<u32> = w[..keep].to_vec();
        new.extend(w[keep..].iter().filter(|&&x| !gone.contains(x)));
        new[0] = inst::head(Op::EntryPoint, new.len());
        module.replace(e, new);
    }
    // (Before the linkage check below: the markers' own LinkageAttributes go here.)
    index.remove_annotations_of(module, gone);
    let linkage_left = index.linkage.values().any(|l| {
        module
            .inst(l.inst)
            .is_some_and(|w| w.len() > 2 && w[2] == Decoration::LinkageAttributes as u32)
    });
    if !linkage_left {
        for &(cap, i) in &index.capabilities {
            if cap == Capability::Linkage as u32 {
                module.remove(i);
            }
        }
    }
}

/// Step 2's reading of the module (shared by its two threads).
///
/// A use by an unedited instruction whose removal would not decrement it — anything but a
/// candidate's definition or an -O0 store — pins the candidate: its count becomes [`PINNED`] (it
/// can never come down to 0 or 1), and the candidate leaves this thread's copy of the set
/// (`live`), so a constant used everywhere stops costing an operand decode per use.
struct UseCounter<'a> {
    module: &'a Module,
    index: &'a Index,
    /// The candidates' slots (see [`Dce::slot`]).
    slot: &'a IdTable<u32>,
    /// One bit per instruction: set for those whose removal decrements their operands' counts
    /// (the candidates' definitions and the -O0 stores).
    may_go: &'a BitSet,
    /// See [`Cleanup::callers`].
    callers: &'a [(usize, usize)],
    /// See [`Cleanup::replaced`].
    replaced: &'a IdBits,
    replacements: &'a Replacements,
}

impl UseCounter<'_> {
    /// Counts the uses of live candidates in `w` (one instruction).
    fn count_in(&self, w: &[u32], count: &mut [u32], live: &IdBits) {
        if w[1..].iter().any(|&x| live.contains(x)) {
            self.index.visit_use_ids(self.module, w, |id| {
                if live.contains(id) {
                    // (No overflow: fewer than 2^30 uses, on top of at most PINNED.)
                    let c = &mut count[self.slot.get(id) as usize - 1];
                    *c = c.wrapping_add(1);
                }
            });
        }
    }

    /// Inside a function that calls markers: rewrites instruction `i` (`w`) when it uses a
    /// replaced call result, and counts it as an edited instruction is counted.
    fn rewrite(
        &self,
        i: usize,
        w: &[u32],
        count: &mut [u32],
        live: &IdBits,
        rewritten: &mut Rewrites,
    ) -> Result<bool> {
        let callers = self.callers;
        let k = callers.partition_point(|&(_, end)| end < i);
        if callers.get(k).is_none_or(|&(start, _)| start > i) {
            return Ok(false);
        }
        if !lower::rewrite_uses(
            self.module,
            self.index,
            i,
            w,
            self.replaced,
            self.replacements,
            rewritten,
        )? {
            return Ok(false);
        }
        for one in instructions(rewritten.last()) {
            self.count_in(one, count, live);
        }
        Ok(true)
    }

    /// A use that keeps `id`: pins it, but a replaced call result only counts (it stays live, so
    /// that step 2 sees every use of it to rewrite).
    fn pin(&self, id: u32, count: &mut [u32], live: &mut IdBits) {
        let c = &mut count[self.slot.get(id) as usize - 1];
        if self.replaced.contains(id) {
            *c = c.wrapping_add(1);
        } else {
            *c = PINNED;
            live.remove(id);
        }
    }

    /// Counts uses in `range`; inside the functions that call markers, an instruction that uses
    /// a replaced call result is rewritten first (into `rewritten`) and counted as rewritten.
    fn count_range(
        &self,
        range: std::ops::Range<usize>,
        count: &mut [u32],
        live: &mut IdBits,
        rewritten: &mut Rewrites,
    ) -> Result<()> {
        let (module, index) = (self.module, self.index);
        // The live candidates an instruction uses (once per use).
        let mut hits: Vec<u32> = Vec::new();
        let mut ext_ids = inst::ExtIdsCache::default();
        // The last pass but the writer's to read every word: the input's pages go behind it.
        let mut behind = ReleaseBehind::default();
        // The input's instructions are walked by their word counts (as the module's own walk
        // found them: `insts` agrees), not looked up in the offset table one by one.
        let words = module.original_words();
        let mut next = range.clone().next().map_or(0, |i| module.offset_of(i));
        for i in range {
            let at = next;
            let op = words[at] & 0xffff;
            next = at + (words[at] >> 16) as usize;
            behind.passed(module, at);
            if is_annotation(op) {
                // Its target keeps nothing alive (names and decorations go with what they
                // name), but an id a decoration takes as a parameter (`AlignmentId` and the
                // like, which belong to OpDecorateId but decode in OpDecorate too) does.
                if op == Op::Decorate as u32 || op == Op::MemberDecorate as u32 {
                    // (The decoration: word 2, or 3 after a member number.)
                    let at = if op == Op::Decorate as u32 { 2 } else { 3 };
                    let w = if module.is_edited(i) {
                        module.inst(i).unwrap_or_default()
                    } else {
                        module.original(i)
                    };
                    // (Most take no parameter or literals only: no further look.)
                    if w.len() > 3
                        && !inst::decoration_parameters_are_literals(w[at], &w[at + 1..])
                        && w[2..].iter().any(|&x| live.contains(x))
                    {
                        // (A decoration spec-link cannot decode keeps nothing: its words are
                        // mostly literals.)
                        let positions = inst::id_use_positions(w).unwrap_or_default();
                        for id in positions.into_iter().filter(|&p| p >= 2).map(|p| w[p]) {
                            if live.contains(id) {
                                self.pin(id, count, live);
                            }
                        }
                    }
                }
                continue;
            }
            if op == Op::EntryPoint as u32 {
                // Its interface keeps no global alive (removed ones leave it), but the function
                // it names stays.
                if let Some(&f) = module.inst(i).and_then(|w| w.get(2)) {
                    if live.contains(f) {
                        self.pin(f, count, live);
                    }
                }
                continue;
            }
            if !module.is_edited(i) {
                // The common case, without the edit lookups.
                let w = &words[at..next];
                // Some word might be a live candidate's id (a literal may equal one too): then
                // the id operands. An extended instruction whose set says every operand is an
                // id has its instruction number (a literal, often equal to a small id) left out:
                // on OpenCL.std-heavy modules half the instructions otherwise came to decoding
                // here for nothing.
                let maybe = if op == OP_EXT_INST
                    && ext_ids.operands_are_ids(w, |set| index.ext_sets.get(&set).copied())
                {
                    w[1..4].iter().chain(&w[5..]).any(|&x| live.contains(x))
                } else {
                    w[1..].iter().any(|&x| live.contains(x))
                };
                if !maybe {
                    continue;
                }
                hits.clear();
                index.visit_use_ids(module, w, |id| {
                    if live.contains(id) {
                        hits.push(id);
                    }
                });
                if hits.is_empty() {
                    continue;
                }
                if hits.iter().any(|&id| self.replaced.contains(id))
                    && self.rewrite(i, w, count, live, rewritten)?
                {
                    continue;
                }
                // Whether taking this instruction out decrements its operands' counts: a
                // candidate's definition or an -O0 store. (The marker declarations go without
                // decrementing: a use there keeps a candidate as surely as a pin.)
                let counted = self.may_go.contains(i);
                for &id in &hits {
                    if counted {
                        let c = &mut count[self.slot.get(id) as usize - 1];
                        *c = c.wrapping_add(1);
                    } else {
                        self.pin(id, count, live);
                    }
                }
                continue;
            }
            let Some(w) = module.inst(i) else { continue };
            if !self.replacements.is_empty() && self.rewrite(i, w, count, live, rewritten)? {
                continue;
            }
            // A replaced instruction may hold several instructions (e.g. a store).
            for one in instructions(w) {
                self.count_in(one, count, live);
            }
        }
        Ok(())
    }
}

const OP_EXT_INST: u32 = Op::ExtInst as u32;

/// Post-condition: no marker declaration and no call to one survives (every call of the input is
/// in [`Index::calls`], and lowering adds none).
fn check_no_markers(module: &Module, index: &Index, functions: &[u32]) -> Result<()> {
    let set: IdSet<u32> = functions.iter().copied().collect();
    for &f in functions {
        let Some(&k) = index.function_by_id.get(&f) else {
            continue;
        };
        if index
            .functions
            .get(k)
            .is_some_and(|func| module.inst(func.start).is_some())
        {
            return Err(Error::PostCondition(format!(
                "marker {} survived lowering",
                index.display_name(f)
            )));
        }
    }
    for call in index.calls.iter().filter(|c| set.contains(&c.callee)) {
        if let Some(w) = module.inst(call.inst as usize) {
            if inst::is(w, Op::FunctionCall) && w.len() > 3 && set.contains(&w[3]) {
                return Err(Error::PostCondition(format!(
                    "a call to marker {} survived lowering",
                    index.display_name(w[3])
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::testing::{assemble, validate, TestResult};
    use crate::markers::find_markers;

    /// A kernel that stores the scalar spec constant `A` (default 7) through `%out`: the marker
    /// call `%v` takes the symbolic-ID string `%usid` (through `%c0`), the default's global
    /// `%idvar` (through `%c1` and `%c2`) and a null pointer.
    const KERNEL: &str = r#"
OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpCapability Int64
OpCapability Int8
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %usid
OpName %get "_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_"
OpName %usid "__usid_str"
OpName %s "s"
OpName %c0 "c0"
OpName %v "v"
OpName %null "null"
OpName %uchar_65 "uchar_65"
OpName %uchar_0 "uchar_0"
OpName %ulong_4 "ulong_4"
OpName %uint_42 "uint_42"
OpName %a0 "a0"
OpName %k "k"
OpName %idvar "idvar"
OpName %c1 "c1"
OpName %c2 "c2"
OpName %uint_7 "uint_7"
OpDecorate %get LinkageAttributes "_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_" Import
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%void = OpTypeVoid
%ulong_4 = OpConstant %ulong 4
%uchar_65 = OpConstant %uchar 65
%uchar_0 = OpConstant %uchar 0
%uint_42 = OpConstant %uint 42
%uint_7 = OpConstant %uint 7
%str4 = OpTypeArray %uchar %ulong_4
%ptr_G_str4 = OpTypePointer Generic %str4
%ptr_G_uint = OpTypePointer Generic %uint
%ptr_G_uchar = OpTypePointer Generic %uchar
%ptr_CW_uint = OpTypePointer CrossWorkgroup %uint
%fn_int = OpTypeFunction %uint %ptr_G_uchar %ptr_G_uchar %ptr_G_uchar
%fn_k = OpTypeFunction %void %ptr_CW_uint
%s = OpConstantComposite %str4 %uchar_65 %uchar_0 %uchar_0 %uchar_0
%usid = OpVariable %ptr_G_str4 Generic %s
%idvar = OpVariable %ptr_CW_uint CrossWorkgroup %uint_7
%null = OpConstantNull %ptr_G_uchar
%get = OpFunction %uint None %fn_int
%a0 = OpFunctionParameter %ptr_G_uchar
%a1 = OpFunctionParameter %ptr_G_uchar
%a2 = OpFunctionParameter %ptr_G_uchar
OpFunctionEnd
%k = OpFunction %void None %fn_k
%out = OpFunctionParameter %ptr_CW_uint
%e = OpLabel
%c0 = OpBitcast %ptr_G_uchar %usid
%c1 = OpPtrCastToGeneric %ptr_G_uint %idvar
%c2 = OpBitcast %ptr_G_uchar %c1
%v = OpFunctionCall %uint %get %c0 %c2 %null
OpStore %out %v
OpReturn
OpFunctionEnd
"#;

    /// The marker's name.
    const MARKER: &str = "_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_";

    /// The id `OpName` gives `name`.
    fn id(module: &Module, name: &str) -> TestResult<u32> {
        (0..module.len())
            .map(|i| module.original(i))
            .filter(|w| inst::is(w, Op::Name))
            .find(|w| inst::read_string(&w[2..]).is_some_and(|(s, _)| s == name.as_bytes()))
            .map(|w| w[1])
            .ok_or_else(|| format!("no OpName {name}").into())
    }

    /// The kernel with its marker call removed as lowering removes it, its markers and index,
    /// and the replacement of the call's result by `%uint_42` (none if `replace` is false).
    fn lowered(replace: bool) -> TestResult<(Module, Index, Markers, Replacements)> {
        let mut module = assemble(KERNEL)?;
        let index = Index::build(&module)?;
        let markers = find_markers(&module, &index)?;
        let [call] = markers.calls.as_slice() else {
            return Err(format!("{} marker calls, not 1", markers.calls.len()).into());
        };
        module.remove(call.inst as usize);
        let mut replacements = Replacements::default();
        if replace {
            replacements.insert(id(&module, "v")?, id(&module, "uint_42")?);
        }
        Ok((module, index, markers, replacements))
    }

    /// What only fed the marker call: every one is a candidate, and the worklist removes it.
    const FED_THE_CALL: [&str; 10] = [
        "c0",
        "c1",
        "c2",
        "idvar",
        "uint_7",
        "null",
        "__usid_str",
        "s",
        "uchar_65",
        "uchar_0",
    ];

    #[test]
    fn candidates_close_over_removable_definitions_only() -> TestResult {
        let (module, index, markers, replacements) = lowered(true)?;
        let state = Cleanup::find_candidates(&module, &index, markers, &replacements);
        for name in FED_THE_CALL.iter().chain(&["a0", "v"]) {
            assert!(state.candidates.contains(id(&module, name)?), "{name}");
        }
        // A constant reached only through a type, and one the call did not use, are not.
        for name in ["ulong_4", "uint_42"] {
            assert!(!state.candidates.contains(id(&module, name)?), "{name}");
        }
        assert_eq!(
            state.dropped_results,
            vec![(id(&module, "v")?, id(&module, "k")?)]
        );
        assert_eq!(state.params.len(), 3);
        Ok(())
    }

    #[test]
    fn use_count_rewrites_replaced_results_and_skips_names() -> TestResult {
        let (mut module, index, markers, replacements) = lowered(true)?;
        let mut state = Cleanup::find_candidates(&module, &index, markers, &replacements);
        state.count_uses(&mut module, &replacements)?;
        let uses = |name: &str| id(&module, name).map(|x| state.dce.uses(x));
        // The store now stores the default: the call result is unused.
        assert_eq!(uses("v")?, 0);
        // Used only by the removed call (names and the entry point's interface do not count).
        assert_eq!(uses("c0")?, 0);
        assert_eq!(uses("null")?, 0);
        // Used by removable definitions (once per use).
        assert_eq!(uses("__usid_str")?, 1);
        assert_eq!(uses("c1")?, 1);
        assert_eq!(uses("uchar_0")?, 3);
        let store = (0..module.len())
            .filter_map(|i| module.inst(i))
            .find(|w| inst::is(w, Op::Store))
            .ok_or("no OpStore")?;
        assert_eq!(store[2], id(&module, "uint_42")?);
        Ok(())
    }

    #[test]
    fn worklist_removes_what_the_call_kept_alive() -> TestResult {
        let (mut module, index, markers, replacements) = lowered(true)?;
        let mut state = Cleanup::find_candidates(&module, &index, markers, &replacements);
        state.count_uses(&mut module, &replacements)?;
        let gone = state.remove_dead(&mut module);
        for name in FED_THE_CALL {
            let x = id(&module, name)?;
            assert!(gone.contains(x), "{name}");
            let def = index.defs.get(&x).ok_or("no definition")?;
            assert!(module.is_removed(def), "{name}");
        }
        // Kept: what something else uses, and the markers (step 4 removes them).
        for name in ["uint_42", "ulong_4", MARKER, "a0"] {
            assert!(!gone.contains(id(&module, name)?), "{name}");
        }
        Ok(())
    }

    #[test]
    fn whole_cleanup_leaves_a_valid_module_without_markers() -> TestResult {
        let (mut module, index, markers, replacements) = lowered(true)?;
        cleanup(&mut module, &index, markers, &replacements)?;
        let bytes = module.to_bytes(index.names_end, index.annotation_end, index.globals_end);
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        validate(&words)?;
        let get = id(&module, MARKER)?;
        assert!(
            !words.contains(&get) || get == 0,
            "marker id left in the output"
        );
        Ok(())
    }

    #[test]
    fn marker_step_rejects_a_dropped_result_still_used() -> TestResult {
        let (mut module, index, markers, replacements) = lowered(false)?;
        match cleanup(&mut module, &index, markers, &replacements) {
            Err(Error::Lower(m)) => assert!(m.contains("is still used"), "{m}"),
            other => return Err(format!("expected a lowering error, got {other:?}").into()),
        }
        Ok(())
    }

    /// Every input the fuzzers found a crash or a bad output with (testdata/fuzz-regressions/,
    /// written by scripts/fuzz.sh) runs in every mode without a panic: an output or a clear
    /// error. An output is read back without an error, and one of a single input uses no id
    /// whose definition cleanup removed ([`inst::dangling_uses`]). Files named `<name>.1.spv` /
    /// `<name>.2.spv` are linked together.
    #[test]
    fn fuzz_regressions_do_not_panic_nor_leave_dangling_uses() -> TestResult {
        use crate::{process, EmulationLayout, Input, Options, SpecConstMode, Validation};
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz-regressions");
        let mut files = Vec::new();
        for entry in std::fs::read_dir(&dir)? {
            files.push(entry?.path());
        }
        files.sort();
        let mut groups: Vec<Vec<std::path::PathBuf>> = Vec::new();
        for f in files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "spv"))
        {
            let stem = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if stem.ends_with(".2.spv") {
                continue;
            }
            if let Some(base) = stem.strip_suffix(".1.spv") {
                groups.push(vec![f.clone(), dir.join(format!("{base}.2.spv"))]);
            } else {
                groups.push(vec![f]);
            }
        }
        assert!(
            !groups.is_empty(),
            "no regression inputs in {}",
            dir.display()
        );
        for group in &groups {
            let inputs: Vec<Input> = group
                .iter()
                .map(|p| {
                    Ok(Input::from_bytes(
                        p.display().to_string(),
                        std::fs::read(p)?,
                    ))
                })
                .collect::<TestResult<_>>()?;
            for (mode, layout) in [
                (SpecConstMode::Native, EmulationLayout::Aligned),
                (SpecConstMode::Emulation, EmulationLayout::Aligned),
                (SpecConstMode::Emulation, EmulationLayout::Packed),
                (SpecConstMode::DefaultValues, EmulationLayout::Aligned),
            ] {
                let opts = Options {
                    mode,
                    emulation_layout: layout,
                    validation: Validation::Never,
                    ..Options::default()
                };
                // Ok or a clean Err; a panic fails the test.
                let Ok(out) = process(&inputs, &opts) else {
                    continue;
                };
                // spec-link reads its own output (its id checks see the ids every pass sees).
                let output = out.module.to_bytes()?;
                let again = process(&[Input::from_bytes("output.spv", output.clone())], &opts);
                assert!(
                    again.is_ok(),
                    "{} ({mode:?}, {layout:?}): the output is refused: {}",
                    group[0].display(),
                    again.err().map(|e| e.to_string()).unwrap_or_default()
                );
                let input = std::fs::read(&group[0])?;
                if group.len() > 1 || !input.starts_with(&0x0723_0203u32.to_le_bytes()) {
                    continue; // linked (ids renumbered) or big-endian
                }
                let words = |b: &[u8]| -> Vec<u32> {
                    b.chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .collect()
                };
                let dangling = inst::dangling_uses(&words(&input), &words(&output));
                assert!(
                    dangling.is_empty(),
                    "{} ({mode:?}, {layout:?}): the output uses ids whose definitions were removed: {dangling:?}",
                    group[0].display()
                );
            }
        }
        Ok(())
    }
}
