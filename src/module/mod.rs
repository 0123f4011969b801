//! The module layer: a SPIR-V module kept as its words plus an index of instruction offsets,
//! built in one pass, and a set of pending edits that the writer applies while it copies the
//! untouched word ranges through.
//!
//! Invariants kept by [`Module`]:
//! - `words` are the input words in host order (a big-endian input is swapped once on load and
//!   swapped back on write); they are never modified after load;
//! - `insts[i]` is the word offset of the i-th instruction (its word count is in its first word);
//!   every word count is ≥ 1 and every instruction lies inside `words` (checked on load);
//! - edits (removals, replacements, appended instructions) live beside the words and are only
//!   applied by [`Module::to_bytes`]; [`Module::inst`] returns the current (edited) words;
//! - only [`ids::IdAllocator`] raises the id bound.
//!
//! Only the instructions a pass reads or rewrites are decoded (see [`inst`]); unknown opcodes
//! and vendor instructions are carried through untouched.

pub mod assemble;
pub mod bits;
pub mod idcheck;
pub mod idhash;
pub mod ids;
pub mod index;
pub mod inst;
pub mod intern;
pub mod replaced;
pub mod stream;

use crate::error::{Error, Result};
use bits::BitSet;
use replaced::Replaced;

/// The SPIR-V magic number in host order.
pub const MAGIC: u32 = 0x0723_0203;
/// Number of header words.
pub const HEADER_WORDS: usize = 5;

/// The words of a module: read into memory, or the input file mapped read-only (a little-endian
/// file on a little-endian host: no copy, no byte swap; the page cache holds the words).
///
/// A mapped file must not be truncated while spec-link runs (the kernel would stop the process
/// with SIGBUS), as with every tool that maps its inputs (LLVM's `MemoryBuffer`).
#[derive(Clone, Debug)]
enum Words {
    Owned(Vec<u32>),
    Mapped(std::sync::Arc<memmap2::Mmap>),
}

impl std::ops::Deref for Words {
    type Target = [u32];
    #[inline]
    fn deref(&self) -> &[u32] {
        match self {
            Words::Owned(v) => v,
            Words::Mapped(m) => mapped_words(m),
        }
    }
}

/// The mapping as words (a mapping is page-aligned and [`Module::map_file`] checks its length
/// is a whole number of words).
#[inline]
fn mapped_words(m: &memmap2::Mmap) -> &[u32] {
    // (Not `align_to`, which works the alignment out again on every access: this runs for every
    // instruction a pass reads.)
    if m.len() < 4 {
        return &[];
    }
    // SAFETY: a non-empty mapping starts on a page boundary, so its address is non-null and
    // aligned for u32; the length is rounded down to whole words (`map_words` accepts only
    // mappings that are whole words); every bit pattern is a valid u32; the slice borrows the
    // mapping, which outlives it.
    unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<u32>(), m.len() / 4) }
}

/// A SPIR-V module as words + index + pending edits.
#[derive(Clone, Debug)]
pub struct Module {
    words: Words,
    /// Word offset of each instruction (4 bytes an instruction: the index is a fraction of the module).
    insts: Vec<u32>,
    /// The module was big-endian on input (and is written back big-endian).
    pub big_endian: bool,
    /// The id bound; raised only by [`ids::IdAllocator`].
    pub(crate) bound: u32,
    /// Replacement words (zero, one or several complete instructions) of replaced instructions
    /// (an entry may stay for an instruction removed after it was replaced: `removed` decides).
    replaced: Replaced,
    /// Instructions removed or replaced (one bit each; reads of unedited ones need no lookup).
    edited: BitSet,
    /// Instructions removed.
    removed: BitSet,
    /// Instructions appended at the end of the debug-name section.
    appended_names: Vec<u32>,
    /// Instructions appended at the end of the annotation section.
    appended_annotations: Vec<u32>,
    /// Instructions appended at the end of the global (types, constants, variables) section.
    appended_globals: Vec<u32>,
    /// Whether [`Module::release_input`] gives pages back.
    releasing: bool,
    /// Whether the id bound may size tables indexed by id (see [`Module::trust_bound`]).
    trusted_bound: bool,
}

impl Module {
    /// Parses the header and splits the instruction stream. Checks the magic number (either byte
    /// order), that the length is a whole number of words, and that every word count is non-zero
    /// and stays inside the module. Nothing is allocated by the declared bound.
    pub fn from_bytes(bytes: &[u8]) -> Result<Module> {
        check_length(bytes.len() as u64)?;
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Self::from_le_words(words)
    }

    /// Reads a module straight into words (the bytes are never held as a whole: peak memory is
    /// the module's size, or `size_hint` when given and right). Same checks as [`Module::from_bytes`],
    /// made as the words arrive: the magic number on the first 20 bytes, before anything else is
    /// read (unless `size_hint` gives a length whose own error comes first, as it does for
    /// [`Module::from_bytes`]), and the word counts as they pass: after a word count of 0 the
    /// rest is only counted (its length decides between the two errors), never kept.
    pub fn read_from(
        reader: &mut impl std::io::Read,
        size_hint: Option<u64>,
    ) -> std::io::Result<Result<Module>> {
        let cap = size_hint.map_or(0, |n| (n / 4).min(1 << 30) as usize);
        let mut words: Vec<u32> = Vec::with_capacity(cap);
        // A small input needs no 64 KiB buffer (zeroing one per file shows when linking
        // thousands); any size above 3 bytes works.
        let buf_len =
            size_hint.map_or(1 << 16, |n| n.saturating_add(4).clamp(64, 1 << 16) as usize);
        let mut buf = vec![0u8; buf_len];
        let mut have = 0usize; // bytes in buf
        let mut total = 0u64;
        // Byte order, once the header is in; the next instruction head; a word count of 0.
        let mut big_endian: Option<bool> = None;
        let mut next = HEADER_WORDS;
        let mut broken: Option<Error> = None;
        loop {
            // Until the header is in, no more than it (the magic number is checked first).
            let want = if big_endian.is_none() {
                (HEADER_WORDS * 4)
                    .saturating_sub(words.len() * 4)
                    .max(have + 1)
                    .min(buf.len())
            } else {
                buf.len()
            };
            let n = match reader.read(&mut buf[have..want]) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            total += n as u64;
            have += n;
            let whole = have / 4 * 4;
            if broken.is_none() {
                words.extend(
                    buf[..whole]
                        .chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                );
            }
            buf.copy_within(whole..have, 0);
            have -= whole;
            if big_endian.is_none() && words.len() >= HEADER_WORDS {
                let first = words[0];
                if first != MAGIC && first.swap_bytes() != MAGIC {
                    // The length's errors come first where the length is known.
                    if let Some(len) = size_hint.filter(|&len| len >= total) {
                        if let Err(e) = check_length(len) {
                            return Ok(Err(e));
                        }
                    }
                    return Ok(Err(wrong_magic(first)));
                }
                big_endian = Some(first != MAGIC);
            }
            if let (Some(be), None) = (big_endian, &broken) {
                while next < words.len() {
                    let head = if be {
                        words[next].swap_bytes()
                    } else {
                        words[next]
                    };
                    if head >> 16 == 0 {
                        broken = Some(Error::Malformed {
                            offset: next,
                            opcode: inst::op_name(head & 0xffff),
                            message: "word count is 0".into(),
                        });
                        words.truncate(next);
                        words.shrink_to_fit();
                        break;
                    }
                    next += (head >> 16) as usize;
                }
            }
        }
        if let Err(e) = check_length(total) {
            return Ok(Err(e));
        }
        if let Some(e) = broken {
            // The header's errors come first, as in [`Module::from_storage`].
            let schema = words.get(4).map_or(0, |&w| match big_endian {
                Some(true) => w.swap_bytes(),
                _ => w,
            });
            return Ok(Err(if total / 4 > u32::MAX as u64 {
                Error::Binary("the module is larger than 16 GiB".into())
            } else if schema != 0 {
                schema_error(schema)
            } else {
                e
            }));
        }
        Ok(Self::from_le_words(words))
    }

    /// A module from words read as little-endian (swapped here if the magic says big-endian).
    fn from_le_words(mut words: Vec<u32>) -> Result<Module> {
        let first = words.first().copied().unwrap_or(0);
        let big_endian = if first == MAGIC {
            false
        } else if first.swap_bytes() == MAGIC {
            true
        } else {
            return Err(wrong_magic(first));
        };
        if big_endian {
            for w in &mut words {
                *w = w.swap_bytes();
            }
        }
        Self::from_words(words, big_endian)
    }

    /// A module from host-order words (e.g. a linker's output), written back in the given byte
    /// order. Checks the same as [`Module::from_bytes`].
    pub fn from_words(words: Vec<u32>, big_endian: bool) -> Result<Module> {
        Self::from_storage(Words::Owned(words), big_endian)
    }

    /// Maps a module file instead of reading it, when that gives the words as they are: a
    /// little-endian module on a little-endian host, a whole number of words. `None` when the
    /// file is not such a module (read it instead; the read path reports what is wrong).
    pub fn map_file(file: &std::fs::File) -> Option<Result<Module>> {
        if cfg!(target_endian = "big") {
            return None;
        }
        Some(Self::from_storage(
            Words::Mapped(std::sync::Arc::new(map_words(file)?)),
            false,
        ))
    }

    fn from_storage(words: Words, big_endian: bool) -> Result<Module> {
        if words.len() < HEADER_WORDS || words[0] != MAGIC {
            return Err(Error::Binary("not a SPIR-V module".into()));
        }
        if words.len() > u32::MAX as usize {
            return Err(Error::Binary("the module is larger than 16 GiB".into()));
        }
        let bound = words[3];
        if words[4] != 0 {
            return Err(schema_error(words[4]));
        }
        let insts = split(&words)?;
        let (edited, removed) = (BitSet::new(insts.len()), BitSet::new(insts.len()));
        Ok(Module {
            words,
            insts,
            big_endian,
            bound,
            replaced: Replaced::default(),
            edited,
            removed,
            appended_names: Vec::new(),
            appended_annotations: Vec::new(),
            appended_globals: Vec::new(),
            releasing: false,
            trusted_bound: false,
        })
    }

    /// SPIR-V version as (major, minor).
    pub fn version(&self) -> (u8, u8) {
        let v = self.words[1];
        (((v >> 16) & 0xff) as u8, ((v >> 8) & 0xff) as u8)
    }

    /// Whether the module declares `OpCapability cap` (reads the preamble only).
    pub fn declares_capability(&self, cap: spirv::Capability) -> bool {
        (0..self.len())
            .take_while(|&i| self.opcode(i) == spirv::Op::Capability as u32)
            .any(|i| self.original(i).get(1) == Some(&(cap as u32)))
    }

    /// The generator word of the header.
    pub fn generator(&self) -> u32 {
        self.words[2]
    }

    /// The id bound (one more than the largest id).
    pub fn bound(&self) -> u32 {
        self.bound
    }

    /// Number of instructions in the input (edits do not change indices).
    pub fn len(&self) -> usize {
        self.insts.len()
    }

    /// The original words of instruction `i` (ignoring edits).
    #[inline]
    pub fn original(&self, i: usize) -> &[u32] {
        let at = self.insts[i] as usize;
        &self.words[at..at + (self.words[at] >> 16) as usize]
    }

    /// Asks the cache for instruction `i`'s entry in the offset table, ahead of a read of it
    /// (see [`prefetch`]).
    #[inline]
    pub fn prefetch_offset(&self, i: usize) {
        if let Some(at) = self.insts.get(i) {
            prefetch(at);
        }
    }

    /// Asks the cache for the first word of instruction `i` (its offset read now: prefetched by
    /// [`Module::prefetch_offset`] some steps before), ahead of a read of it.
    #[inline]
    pub fn prefetch_inst(&self, i: usize) {
        if let Some(w) = self
            .insts
            .get(i)
            .and_then(|&at| self.words.get(at as usize))
        {
            prefetch(w);
        }
    }

    /// Word offset of instruction `i` in the input (for error messages).
    pub fn offset_of(&self, i: usize) -> usize {
        self.insts[i] as usize
    }

    /// Index of the instruction at word offset `offset` (of the first after it, if none starts there).
    pub fn inst_at_offset(&self, offset: usize) -> usize {
        self.insts.partition_point(|&o| (o as usize) < offset)
    }

    /// Opcode of the original instruction `i`.
    pub fn opcode(&self, i: usize) -> u32 {
        self.words[self.insts[i] as usize] & 0xffff
    }

    /// Number of words of the input module.
    pub fn word_count(&self) -> usize {
        self.words.len()
    }

    /// Lets the id bound size tables indexed by id however few instructions the module has: for a
    /// module spec-link assembled itself from one whose bound passed the size rule for inputs (a
    /// split image keeps its source's ids, so its bound is its source's, far above its own size),
    /// never for an input, whose bound a hostile header could set. Such tables are
    /// zero-initialised: only the pages of the ids used are touched.
    pub fn trust_bound(&mut self) {
        self.trusted_bound = true;
    }

    /// See [`Module::trust_bound`].
    pub fn bound_is_trusted(&self) -> bool {
        self.trusted_bound
    }

    /// Whether [`Module::release_input`] gives pages back from now on (off when loaded: giving
    /// back pages that a later pass maps again costs time, so it pays only when what is built
    /// from the module would otherwise sit on top of all of it).
    pub fn set_releasing(&mut self, on: bool) {
        self.releasing = on;
    }

    /// Whether [`Module::release_input`] gives pages back: [`Module::set_releasing`] is on and
    /// the words are a mapped file.
    pub fn releases_input(&self) -> bool {
        self.releasing && matches!(self.words, Words::Mapped(_))
    }

    /// When [`Module::set_releasing`] is on, gives back the memory of the input words in `range`
    /// (word offsets; clamped to the module) when they are a mapped file: their pages leave this
    /// process's resident set (the page cache keeps them) and a later read maps them again, with
    /// the same contents. Nothing changes for words read into memory. Reads are never affected,
    /// only where their memory is counted: a pass over a big mapped module calls this behind
    /// itself (see [`ReleaseBehind`]), so that a module's pages and the tables built from it are
    /// not all resident at once.
    pub fn release_input(&self, range: std::ops::Range<usize>) {
        if !self.releasing {
            return;
        }
        #[cfg(unix)]
        if let Words::Mapped(map) = &self.words {
            let end = range.end.min(self.words.len());
            if range.start < end {
                // SAFETY: the mapping is private and read-only (`Mmap`): no page of it was ever
                // written, so dropping its pages loses nothing and a later access reads the same
                // file contents back (the one hazard is that of every mapping, see [`Words`]).
                // The range is inside the mapping (the start is rounded down to a page by
                // memmap2, still inside).
                let _ = unsafe {
                    map.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        range.start * 4,
                        (end - range.start) * 4,
                    )
                };
            }
        }
    }

    /// The current words of instruction `i`: `None` if removed; replaced words if replaced.
    #[inline]
    pub fn inst(&self, i: usize) -> Option<&[u32]> {
        if !self.edited.contains(i) {
            return Some(self.original(i));
        }
        if self.removed.contains(i) {
            return None;
        }
        Some(match self.replaced.get(i) {
            Some(words) => words,
            None => self.original(i),
        })
    }

    /// Whether any instruction was removed or replaced (a pass over every instruction can then
    /// read [`Module::original`] without the edit lookups of [`Module::inst`]).
    pub fn has_edits(&self) -> bool {
        !self.edited.is_empty()
    }

    pub fn is_removed(&self, i: usize) -> bool {
        self.removed.contains(i)
    }

    pub fn is_edited(&self, i: usize) -> bool {
        self.edited.contains(i)
    }

    /// Whether input instruction `i` is in the output as it was: not edited, or replaced by a
    /// sequence that holds it unchanged (an instruction something was inserted next to).
    pub fn survives(&self, i: usize) -> bool {
        let Some(words) = self.inst(i) else {
            return false;
        };
        if !self.edited.contains(i) {
            return true;
        }
        let original = self.original(i);
        inst::instructions(words).any(|one| one == original)
    }

    /// Marks instruction `i` as removed.
    pub fn remove(&mut self, i: usize) {
        self.edited.insert(i);
        self.removed.insert(i);
    }

    /// Replaces instruction `i` by `words` (complete instructions).
    pub fn replace(&mut self, i: usize, words: Vec<u32>) {
        self.replace_with(i, &words);
    }

    /// [`Module::replace`] from a slice.
    pub fn replace_with(&mut self, i: usize, words: &[u32]) {
        self.edited.insert(i);
        self.removed.remove(i);
        self.replaced.insert(i, words);
    }

    /// Replaces the instructions `batch` replaces by its words ([`Replaced::absorb`]: its arena
    /// is taken as it is when nothing is replaced yet).
    pub fn absorb_replacements(&mut self, batch: replaced::Replaced) {
        for i in batch.instructions() {
            self.edited.insert(i);
            self.removed.remove(i);
        }
        self.replaced.absorb(batch);
    }

    /// Appends a complete instruction (an `OpName`) at the end of the debug section.
    pub fn append_name(&mut self, words: &[u32]) {
        self.appended_names.extend_from_slice(words);
    }

    /// Appends a complete instruction at the end of the annotation section.
    pub fn append_annotation(&mut self, words: &[u32]) {
        self.appended_annotations.extend_from_slice(words);
    }

    /// Appends a complete instruction at the end of the global section (before the first function).
    pub fn append_global(&mut self, words: &[u32]) {
        self.appended_globals.extend_from_slice(words);
    }

    /// The instructions appended to the global section so far, as words.
    pub fn appended_globals(&self) -> &[u32] {
        &self.appended_globals
    }

    /// The input module's words, unedited, in host order (header included).
    pub fn original_words(&self) -> &[u32] {
        &self.words
    }

    /// The input module, unedited, in its byte order.
    pub fn original_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.words.len() * 4);
        let _ = self.write_words(&mut out, &self.words);
        out
    }

    /// Writes the input module, unedited, in its byte order (when the input is given back, a
    /// window at a time, its pages going behind it: see [`WRITE_WINDOW`]).
    pub fn write_original<W: std::io::Write>(&self, out: &mut W) -> std::io::Result<()> {
        if !self.releases_input() {
            return self.write_words(out, &self.words);
        }
        let mut behind = ReleaseBehind::default();
        behind.passed(self, 0);
        let mut at = 0;
        for window in self.words.chunks(WRITE_WINDOW) {
            self.write_words(out, window)?;
            out.flush()?;
            at += window.len();
            behind.passed(self, at);
        }
        Ok(())
    }

    /// The edited module as bytes (see [`Module::write_to`]).
    pub fn to_bytes(&self, names_end: usize, annotation_end: usize, globals_end: usize) -> Vec<u8> {
        let extra = self.appended_names.len()
            + self.appended_annotations.len()
            + self.appended_globals.len();
        let mut out = Vec::with_capacity((self.words.len() + extra) * 4);
        // Writing to a Vec cannot fail.
        let _ = self.write_to(&mut out, names_end, annotation_end, globals_end);
        out
    }

    /// Writes the edited module in its byte order. `names_end`, `annotation_end` and
    /// `globals_end` are the instruction indices before which appended names, annotations and
    /// globals go (from [`index::Index`]; `names_end <= annotation_end <= globals_end`).
    /// Untouched runs of instructions are written as one piece each, straight from the input
    /// (gathered into vectored writes); nothing is built in memory.
    pub fn write_to<W: std::io::Write>(
        &self,
        out: &mut W,
        names_end: usize,
        annotation_end: usize,
        globals_end: usize,
    ) -> std::io::Result<()> {
        // The edited instructions come in order; merge in the section ends.
        let mut ends = [names_end, annotation_end, globals_end, self.insts.len()];
        ends.sort_unstable();
        let mut stops: Vec<usize> = Vec::with_capacity(self.replaced.len() + 4);
        let mut k = 0;
        for e in self.edited.iter() {
            while k < ends.len() && ends[k] <= e {
                stops.push(ends[k]);
                k += 1;
            }
            stops.push(e);
        }
        stops.extend_from_slice(&ends[k..]);
        stops.dedup();
        let mut header = [0u32; HEADER_WORDS];
        header.copy_from_slice(&self.words[..HEADER_WORDS]);
        header[3] = self.bound;
        let mut out = Gather {
            module: self,
            out,
            pending: Vec::new(),
            pending_bytes: 0,
            behind: ReleaseBehind::default(),
            read_to: 0,
        };
        out.push(&header, None)?;
        // (From the start: the header and the first run are written first.)
        out.behind.passed(self, 0);
        let mut next = 0; // first instruction not yet written
        let mut replaced = self.replaced.in_order();
        for stop in stops.into_iter().filter(|&s| s <= self.insts.len()) {
            if stop > next {
                let from = self.insts[next] as usize;
                let to = self
                    .insts
                    .get(stop)
                    .map_or(self.words.len(), |&r| r as usize);
                out.push(&self.words[from..to], Some(to))?;
                next = stop;
            }
            if stop == next {
                if stop == names_end {
                    out.push(&self.appended_names, None)?;
                }
                if stop == annotation_end {
                    out.push(&self.appended_annotations, None)?;
                }
                if stop == globals_end {
                    out.push(&self.appended_globals, None)?;
                }
                if stop < self.insts.len() && self.edited.contains(stop) {
                    // Removed (most edits): nothing to look up.
                    if !self.removed.contains(stop) {
                        if let Some(words) = replaced.get(stop) {
                            out.push(words, None)?;
                        }
                    }
                    next = stop + 1;
                }
            }
        }
        out.flush()
    }

    /// Writes words in the module's byte order, through a small buffer.
    fn write_words<W: std::io::Write>(&self, out: &mut W, words: &[u32]) -> std::io::Result<()> {
        if cfg!(target_endian = "little") && !self.big_endian {
            // Host order is the output's: the words' bytes as they are, no conversion copy.
            // SAFETY: any initialised u32 memory is valid as bytes (u8 has alignment 1), and the
            // length is exactly the words' size.
            let bytes = unsafe {
                std::slice::from_raw_parts(
                    words.as_ptr().cast::<u8>(),
                    std::mem::size_of_val(words),
                )
            };
            return out.write_all(bytes);
        }
        let mut buf = [0u8; 1 << 15];
        for chunk in words.chunks(buf.len() / 4) {
            let bytes = &mut buf[..chunk.len() * 4];
            for (b, w) in bytes.chunks_exact_mut(4).zip(chunk) {
                b.copy_from_slice(&if self.big_endian {
                    w.to_be_bytes()
                } else {
                    w.to_le_bytes()
                });
            }
            out.write_all(bytes)?;
        }
        Ok(())
    }
}

/// The pieces of an output module (slices of the input, of the replacements and of what was
/// appended), written a batch at a time with one vectored write each: no piece is copied in
/// this process when the output's byte order is the host's (a big module has thousands of
/// pieces between its edits, each smaller than a writer's buffer).
struct Gather<'a, W: std::io::Write> {
    module: &'a Module,
    out: &'a mut W,
    /// Pieces not written yet, as bytes.
    pending: Vec<std::io::IoSlice<'a>>,
    /// Gives the input's pages back behind what was written.
    behind: ReleaseBehind,
    /// Bytes in `pending`.
    pending_bytes: usize,
    /// Input words up to this offset are in `pending` or written.
    read_to: usize,
}

/// Input words written at a time when the input's pages are given back behind the writer (1 MiB):
/// the kernel maps every page of a piece it writes from, so one long untouched run written whole
/// was resident whole (the last run of an 8.5 MB module put its run at 2.1 times the module).
const WRITE_WINDOW: usize = 1 << 18;

impl<'a, W: std::io::Write> Gather<'a, W> {
    /// Pieces written at a time (at most Linux's `IOV_MAX`).
    const BATCH: usize = 1024;

    /// Adds `words` (input words up to offset `input_to`, if they are input words).
    fn push(&mut self, words: &'a [u32], input_to: Option<usize>) -> std::io::Result<()> {
        if words.is_empty() {
            return Ok(());
        }
        if !cfg!(target_endian = "little") || self.module.big_endian {
            // (Converted through a buffer; nothing is pending then, but keep the order anyway.)
            self.write_pending()?;
            self.module.write_words(self.out, words)?;
        } else {
            // SAFETY: any initialised u32 memory is valid as bytes (u8 has alignment 1), and the
            // length is exactly the words' size; the bytes borrow `words` for 'a.
            let bytes = unsafe {
                std::slice::from_raw_parts(
                    words.as_ptr().cast::<u8>(),
                    std::mem::size_of_val(words),
                )
            };
            // (A long run of input words goes a window at a time when the input is given back.)
            let window = match input_to {
                Some(_) if self.module.releases_input() => WRITE_WINDOW * 4,
                _ => usize::MAX,
            };
            let mut rest = bytes;
            while !rest.is_empty() {
                let (piece, after) = rest.split_at(rest.len().min(window));
                rest = after;
                self.pending.push(std::io::IoSlice::new(piece));
                self.pending_bytes += piece.len();
                if let Some(to) = input_to {
                    self.read_to = to - rest.len() / 4;
                }
                if self.pending.len() >= Self::BATCH || self.pending_bytes >= window {
                    self.write_pending()?;
                }
            }
        }
        if let Some(to) = input_to {
            self.read_to = to;
            if self.pending.is_empty() {
                self.behind.passed(self.module, to);
            }
        }
        Ok(())
    }

    /// Writes the pending pieces, then gives back the input's pages behind them.
    fn write_pending(&mut self) -> std::io::Result<()> {
        let mut pieces = &mut self.pending[..];
        while !pieces.is_empty() {
            match self.out.write_vectored(pieces) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(n) => std::io::IoSlice::advance_slices(&mut pieces, n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.pending.clear();
        self.pending_bytes = 0;
        self.behind.passed(self.module, self.read_to);
        Ok(())
    }

    fn flush(mut self) -> std::io::Result<()> {
        self.write_pending()
    }
}

/// Releases the input behind a forward pass over a mapped module, [`ReleaseBehind::CHUNK`]
/// words at a time, from the first word the pass reads (see [`Module::release_input`]).
#[derive(Default)]
pub struct ReleaseBehind {
    /// First word not released (`None` until the pass reads its first word).
    from: Option<usize>,
}

impl ReleaseBehind {
    /// Words released at a time (256 KiB).
    pub const CHUNK: usize = 1 << 16;

    /// The pass reads nothing before word `at` any more.
    #[inline]
    pub fn passed(&mut self, module: &Module, at: usize) {
        // Up to the 4 KiB page `at` is on (that page is being read).
        let to = at & !1023;
        match self.from {
            None => self.from = Some(to),
            Some(from) if to >= from + Self::CHUNK => {
                module.release_input(from..to);
                self.from = Some(to);
            }
            Some(_) => {}
        }
    }
}

/// Asks the cache for the line holding `value`, without waiting for it.
///
/// For the passes that visit a sorted list of scattered instructions (cleanup's waves over the
/// candidates' definitions): each visit is a few cache and TLB misses, which prefetching a few
/// visits ahead overlaps.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it never faults and changes no memory; SSE (which has it) is
    // part of every x86-64 target.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

fn wrong_magic(first: u32) -> Error {
    Error::Binary(format!(
        "not a SPIR-V module: wrong magic number 0x{first:08x} (expected 0x07230203)"
    ))
}

fn schema_error(schema: u32) -> Error {
    Error::Binary(format!(
        "invalid SPIR-V header: schema word is {schema} (must be 0)"
    ))
}

/// Checks a module's byte length (the messages of [`Module::from_bytes`]).
fn check_length(len: u64) -> Result<()> {
    if len == 0 {
        return Err(Error::Binary(
            "not a SPIR-V module: the input is empty".into(),
        ));
    }
    if len < HEADER_WORDS as u64 * 4 {
        return Err(Error::Binary(format!(
            "not a SPIR-V module: {len} bytes is shorter than the 20-byte header"
        )));
    }
    if len % 4 != 0 {
        return Err(Error::Binary(format!(
            "truncated SPIR-V module: {len} bytes is not a whole number of 32-bit words"
        )));
    }
    Ok(())
}

/// Maps a little-endian module file on a little-endian host: `None` if the host or the file is
/// big-endian, the file is not a whole number of words (or too short, or too long), or mapping
/// fails. Afterwards, [`mapped_words`] of the mapping is the whole file and starts with [`MAGIC`].
fn map_words(file: &std::fs::File) -> Option<memmap2::Mmap> {
    if cfg!(target_endian = "big") {
        return None;
    }
    let len = file.metadata().ok()?.len();
    if len < (HEADER_WORDS * 4) as u64 || len % 4 != 0 || len / 4 > u32::MAX as u64 {
        return None;
    }
    // SAFETY: a read-only private mapping; see [`Words`] for the one hazard (truncation by
    // another process while mapped).
    let map = unsafe { memmap2::Mmap::map(file) }.ok()?;
    // SAFETY: every bit pattern is a valid u32; only the aligned middle is taken (checked
    // below to be the whole mapping).
    let (pre, words, post) = unsafe { map.align_to::<u32>() };
    if !pre.is_empty() || !post.is_empty() || words.len() as u64 * 4 != len || words[0] != MAGIC {
        return None;
    }
    Some(map)
}

/// Modules of at least this many words are split on two threads.
const PARALLEL_SPLIT_MIN: usize = 1 << 20;

/// Word offsets of the instructions after the header; every word count must be non-zero and
/// stay inside the words.
///
/// On big modules a second thread walks the second half from a boundary it guesses (a run of
/// plausible instruction heads), while this thread walks from the start, as on small modules.
/// When this thread's walk reaches an offset of the other walk, the two coincide from there on
/// (the next offset depends only on the current one), so the other walk's offsets are taken as
/// they are; if it never does (a wrong guess), or the other walk met a malformed instruction,
/// this thread walks on alone. The result, errors included, is always the single walk's.
fn split(words: &[u32]) -> Result<Vec<u32>> {
    let mut insts = Vec::with_capacity(words.len() / 4);
    if words.len() < PARALLEL_SPLIT_MIN {
        walk(words, HEADER_WORDS, &mut insts, |_| false)?;
        return Ok(insts);
    }
    let mid = words.len() / 2;
    std::thread::scope(|scope| {
        let tail = scope.spawn(|| {
            let start = guess_boundary(words, mid)?;
            let mut tail = Vec::with_capacity((words.len() - start) / 4);
            walk(words, start, &mut tail, |_| false).ok()?;
            Some(tail)
        });
        // To the middle alone, then on until the walks meet (or to the end).
        let at = walk(words, HEADER_WORDS, &mut insts, |at| at >= mid)?;
        let tail = tail.join().unwrap_or(None).unwrap_or_default();
        let mut k = tail.partition_point(|&o| (o as usize) < at);
        let mut meets = |at: usize| {
            while k < tail.len() && (tail[k] as usize) < at {
                k += 1;
            }
            k < tail.len() && tail[k] as usize == at
        };
        let at = walk(words, at, &mut insts, &mut meets)?;
        if at < words.len() {
            insts.extend_from_slice(&tail[k..]);
        }
        Ok(insts)
    })
}

/// Walks instruction heads from word `at`, pushing their offsets, until `stop(at)` (the offset
/// it stopped at is not pushed) or the end; returns where it stopped.
fn walk(
    words: &[u32],
    mut at: usize,
    insts: &mut Vec<u32>,
    mut stop: impl FnMut(usize) -> bool,
) -> Result<usize> {
    while at < words.len() && !stop(at) {
        let wc = (words[at] >> 16) as usize;
        if wc == 0 || at + wc > words.len() {
            let op = words[at] & 0xffff;
            let message = if wc == 0 {
                "word count is 0".into()
            } else {
                format!(
                    "word count {wc} runs past the end of the module ({} words left)",
                    words.len() - at
                )
            };
            return Err(Error::Malformed {
                offset: at,
                opcode: inst::op_name(op),
                message,
            });
        }
        insts.push(at as u32);
        at += wc;
    }
    Ok(at)
}

/// A word at or after `from` that starts 32 plausible instruction heads in a row (word counts
/// of 1 to 255 that stay inside the module, opcodes below 8192); `None` if none in 1024 words.
fn guess_boundary(words: &[u32], from: usize) -> Option<usize> {
    (from..(from + 1024).min(words.len())).find(|&start| {
        let mut at = start;
        for _ in 0..32 {
            let Some(&head) = words.get(at) else {
                return false;
            };
            let wc = (head >> 16) as usize;
            if wc == 0 || wc > 255 || head & 0xffff >= 8192 || at + wc > words.len() {
                return false;
            }
            at += wc;
        }
        true
    })
}

/// `words` written to a temporary file and mapped (the file is gone once mapped), for tests of
/// what giving a mapped input back changes.
#[cfg(test)]
pub(crate) fn mapped_for_test(words: &[u32], tag: &str) -> Option<Module> {
    let path =
        std::env::temp_dir().join(format!("spec-link-unit-{}-{tag}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mapped = std::fs::write(&path, bytes)
        .and_then(|()| std::fs::File::open(&path))
        .ok()
        .and_then(|f| Module::map_file(&f))
        .and_then(|m| m.ok());
    let _ = std::fs::remove_file(&path);
    mapped
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The single walk (the reference the two-thread split must equal).
    fn one_walk(words: &[u32]) -> Result<Vec<u32>> {
        let mut v = Vec::new();
        walk(words, HEADER_WORDS, &mut v, |_| false).map(|_| v)
    }

    /// A module of `n` words: instructions of 1 to 4 words, and (from word `decoy`) one long
    /// instruction whose operands look like instruction heads (a wrong place to start a walk).
    fn module(n: usize, decoy: Option<usize>) -> Vec<u32> {
        let mut w = vec![MAGIC, 0x0001_0000, 0, 100, 0];
        let mut k = 0u32;
        while w.len() < n {
            if decoy.is_some_and(|d| w.len() >= d && w.len() < d + 10) {
                // 200 words: head, then 199 words that each read as a 1-word OpNop head.
                w.push((200 << 16) | 4);
                w.extend(std::iter::repeat_n(1 << 16, 199));
                continue;
            }
            let wc = 1 + k % 4;
            w.push((wc << 16) | (k % 300));
            w.extend(std::iter::repeat_n(7, wc as usize - 1));
            k += 1;
        }
        w.truncate(n);
        // End on a whole instruction.
        let offsets = {
            let mut v = Vec::new();
            let mut at = HEADER_WORDS;
            while at < w.len() {
                v.push(at);
                at += (w[at] >> 16) as usize;
            }
            v
        };
        w.truncate(offsets.last().copied().unwrap_or(HEADER_WORDS));
        w
    }

    /// A writer that takes at most a few bytes per call, vectored or not, and is interrupted
    /// every third call (as a pipe or a signal may make a real one).
    struct Trickle {
        got: Vec<u8>,
        calls: usize,
    }

    impl std::io::Write for Trickle {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.calls += 1;
            if self.calls % 3 == 0 {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let n = buf.len().min(1 + self.calls % 7);
            self.got.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn write_vectored(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
            // Across slices: a short write may end inside any of them.
            self.calls += 1;
            if self.calls % 3 == 0 {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let mut budget = 5 + self.calls % 11;
            let mut n = 0;
            for b in bufs {
                let take = b.len().min(budget);
                self.got.extend_from_slice(&b[..take]);
                n += take;
                budget -= take;
                if budget == 0 {
                    break;
                }
            }
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn an_edited_module_is_written_whole_through_short_and_interrupted_writes() {
        let words = module(20_000, None);
        let loaded = Module::from_words(words, false);
        assert!(loaded.is_ok(), "the test module does not load");
        let Ok(mut m) = loaded else { return };
        // More runs between edits than one batch of pieces, a removal and a replacement
        // next to each other, and appended instructions in every section.
        for i in (3..m.len()).step_by(3) {
            m.remove(i);
        }
        m.replace(4, vec![(2 << 16) | 1, 99, (1 << 16) | 2]);
        m.append_name(&[(2 << 16) | 5, 1]);
        m.append_annotation(&[(3 << 16) | 71, 1, 2]);
        m.append_global(&[(1 << 16) | 3]);
        assert!(
            m.len() / 3 > Gather::<Vec<u8>>::BATCH,
            "too few pieces for two batches"
        );
        let (n, a, g) = (10, 20, 30);
        let expected = m.to_bytes(n, a, g);
        let mut out = Trickle {
            got: Vec::new(),
            calls: 0,
        };
        let result = m.write_to(&mut out, n, a, g);
        assert!(result.is_ok(), "write failed: {result:?}");
        assert!(out.calls > 1000, "the writer took too much at a time");
        assert!(out.got == expected, "the trickled output differs");
        // Straight to a file: writev, which takes at most 1,024 pieces at a time.
        let path =
            std::env::temp_dir().join(format!("spec-link-unit-{}-gather.spv", std::process::id()));
        let written = std::fs::File::create(&path).and_then(|mut f| {
            m.write_to(&mut f, n, a, g)?;
            drop(f);
            std::fs::read(&path)
        });
        let _ = std::fs::remove_file(&path);
        assert!(
            written.as_ref().is_ok_and(|bytes| *bytes == expected),
            "writing {}: {:?}",
            path.display(),
            written.map(|b| b.len())
        );
        // And the pieces are what they should be: the kept input instructions in order, with
        // the replacement and the appended ones at their places.
        let mut manual: Vec<u32> = m.words[..HEADER_WORDS].to_vec();
        manual[3] = m.bound;
        for i in 0..m.len() {
            if i == n {
                manual.extend_from_slice(&m.appended_names);
            }
            if i == a {
                manual.extend_from_slice(&m.appended_annotations);
            }
            if i == g {
                manual.extend_from_slice(&m.appended_globals);
            }
            if let Some(w) = m.inst(i) {
                manual.extend_from_slice(w);
            }
        }
        let manual: Vec<u8> = manual.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert!(
            expected == manual,
            "the written module is not its instructions in order"
        );
    }

    /// Counts the writes it is given; takes everything.
    struct Counting {
        got: Vec<u8>,
        writes: usize,
    }

    impl std::io::Write for Counting {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.writes += 1;
            self.got.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn write_vectored(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
            self.writes += 1;
            bufs.iter().for_each(|b| self.got.extend_from_slice(b));
            Ok(bufs.iter().map(|b| b.len()).sum())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_given_back_input_is_written_a_window_at_a_time_with_the_same_bytes() {
        // Untouched runs of several windows between edits near the ends.
        let words = module(5 * WRITE_WINDOW, None);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let loaded = (
            mapped_for_test(&words, "window"),
            Module::from_words(words, false),
        );
        assert!(
            matches!(loaded, (Some(_), Ok(_))),
            "the test module does not map or load"
        );
        let (Some(mut m), Ok(mut kept)) = loaded else {
            return;
        };
        m.set_releasing(true);
        assert!(
            m.releases_input(),
            "a mapped module does not give its input back"
        );
        let last = m.len() - 1;
        for each in [&mut m, &mut kept] {
            each.remove(2);
            each.replace(last - 1, vec![(2 << 16) | 1, 99]);
            each.append_global(&[(1 << 16) | 3]);
        }
        let (n, a, g) = (1, 1, 3);
        let write = |module: &Module| {
            let mut out = Counting {
                got: Vec::new(),
                writes: 0,
            };
            let result = module.write_to(&mut out, n, a, g);
            assert!(result.is_ok(), "write failed: {result:?}");
            out
        };
        let (released, whole) = (write(&m), write(&kept));
        assert!(
            released.got == kept.to_bytes(n, a, g),
            "the windows' bytes differ"
        );
        assert!(whole.got == released.got, "the bytes differ");
        // Each window of the long run is a write of its own (its pages go after it).
        assert!(
            released.writes >= whole.writes + 4,
            "{} writes given back, {} kept",
            released.writes,
            whole.writes
        );
        // Unedited, too.
        let (mut out, mut kept_out) = (Vec::new(), Vec::new());
        assert!(m.write_original(&mut out).is_ok() && kept.write_original(&mut kept_out).is_ok());
        assert!(
            out == bytes && kept_out == bytes,
            "the unedited module differs"
        );
    }

    #[test]
    fn the_two_thread_split_is_the_single_walk() {
        let n = 3 * PARALLEL_SPLIT_MIN;
        let mut cases: Vec<(String, Vec<u32>)> = vec![
            ("plain".into(), module(n, None)),
            ("decoy at the middle".into(), module(n, Some(n / 2 - 5))),
            (
                "decoy after the middle".into(),
                module(n, Some(n / 2 + 100)),
            ),
        ];
        let plain = module(n, None);
        let heads = one_walk(&plain).unwrap_or_default();
        assert!(heads.len() > 1000, "the plain module does not split");
        for (label, at) in [("first quarter", n / 4), ("third quarter", 3 * n / 4)] {
            let i = heads.partition_point(|&o| (o as usize) < at);
            let mut zero = plain.clone();
            zero[heads[i] as usize] &= 0xffff;
            cases.push((format!("word count 0 in the {label}"), zero));
        }
        let mut past = plain.clone();
        let last = heads.last().copied().unwrap_or_default() as usize;
        past[last] = (50 << 16) | 1;
        cases.push(("the last instruction runs past the end".into(), past));
        for (label, w) in cases {
            assert!(
                w.len() >= PARALLEL_SPLIT_MIN,
                "{label}: too small to split on two threads"
            );
            let expected = one_walk(&w).map_err(|e| e.to_string());
            let got = split(&w).map_err(|e| e.to_string());
            assert!(
                got == expected,
                "{label}: {:?} / {:?}",
                got.as_ref().map(Vec::len),
                expected.as_ref().map(Vec::len)
            );
        }
    }
}
