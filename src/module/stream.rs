//! Lazy reading, for the pass-through fast path.
//!
//! Whether a module can contain marker calls is decided by its prefix: the names and linkage
//! decorations that identify marker functions come before every type, constant, variable and
//! function (see [`crate::markers::may_have_markers`]). [`read_lazily`] reads until the first
//! instruction for which `ends` is true (checking every instruction boundary on the way) and asks
//! `matches` about each instruction before it; [`map_lazily`] does the same in the mapping of a
//! file. If none matches, the rest is left unread: [`Prefix::copy_to`] later copies it to the
//! output chunk by chunk, checking the instruction boundaries and the ids (every instruction,
//! prefix included, through [`IdCheck`]) as they pass, and [`Prefix::copy_file_to`] has the
//! kernel copy the file while this thread checks them, so a module without markers is never
//! split or indexed. If one matches, the caller reads the rest
//! ([`Prefix::into_module`]) or maps the file. Anything unusual (a bad header, a word count of 0, a
//! module ending inside its prefix) makes [`read_lazily`] read the whole module and hand it to
//! [`Module`], whose checks report the error.
//!
//! Postcondition of [`Prefix::copy_to`] and [`Prefix::copy_file_to`]: what they wrote is the
//! input's bytes, unchanged, and the input is a whole number of words split into instructions
//! with non-zero word counts that end exactly at its end, whose ids pass [`IdCheck`]; otherwise
//! they return the error [`Module::from_bytes`] (or, for ids, the index) would have given (and
//! what was written is to be discarded).

use super::idcheck::IdCheck;
use super::{inst, Module, HEADER_WORDS, MAGIC};
use crate::error::{Error, Result};
use std::io::{Read, Write};

const CHUNK: usize = 1 << 18;

/// A module of which only the prefix has been read (or, mapped, looked at).
pub struct Prefix {
    kind: Kind,
    /// The file the module is read from, when it is one: [`Prefix::copy_file_to`] copies from it
    /// by offset (never moving a reader's position).
    source: Option<std::fs::File>,
}

enum Kind {
    Read {
        /// The words read so far, as read (little-endian interpretation, not swapped).
        raw: Vec<u32>,
        big_endian: bool,
        rest: Box<dyn Read + Send>,
    },
    /// A little-endian module file mapped on a little-endian host ([`map_lazily`]).
    Mapped {
        map: std::sync::Arc<memmap2::Mmap>,
        /// Word offset of the first instruction not looked at.
        next: usize,
    },
}

impl std::fmt::Debug for Prefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            Kind::Read {
                raw, big_endian, ..
            } => f
                .debug_struct("Prefix")
                .field("words", &raw.len())
                .field("big_endian", big_endian)
                .finish(),
            Kind::Mapped { next, .. } => f
                .debug_struct("Prefix")
                .field("mapped_up_to", next)
                .finish(),
        }
    }
}

/// What [`read_lazily`] read.
#[derive(Debug)]
pub enum Lazy {
    /// The whole module (`matches` matched, or the module is malformed or ended in its prefix).
    Whole(Module),
    /// Only the prefix: no instruction of it matched.
    Prefix(Prefix),
    /// The prefix up to an instruction that matched (the rest is still in the reader).
    Matched(Prefix),
}

/// Fills `buf` from `reader` (short only at the end); returns the number of bytes read.
fn fill(reader: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut have = 0;
    while have < buf.len() {
        match reader.read(&mut buf[have..]) {
            Ok(0) => break,
            Ok(n) => have += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(have)
}

fn le_words(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// Reads the prefix of a module (see the module docs); `matches` sees each prefix instruction in
/// host order.
pub fn read_lazily(
    mut reader: Box<dyn Read + Send>,
    size_hint: Option<u64>,
    ends: impl Fn(u32) -> bool,
    matches: impl Fn(&[u32]) -> bool,
) -> std::io::Result<Result<Lazy>> {
    // Room for the whole file (pages are only used as the prefix fills them): no regrowing.
    let mut raw: Vec<u32> =
        Vec::with_capacity(size_hint.map_or(0, |n| (n / 4).min(1 << 28) as usize));
    let mut buf = vec![0u8; CHUNK];
    let mut big_endian = None;
    let mut next = HEADER_WORDS;
    let mut scratch: Vec<u32> = Vec::new();
    let whole =
        |raw: Vec<u32>, reader: &mut dyn Read, tail: &[u8]| -> std::io::Result<Result<Lazy>> {
            // Rebuild the bytes read so far in front of the rest of the reader.
            let mut bytes: Vec<u8> = raw.iter().flat_map(|w| w.to_le_bytes()).collect();
            bytes.extend_from_slice(tail);
            let mut chained = std::io::Cursor::new(bytes).chain(reader);
            Module::read_from(&mut chained, size_hint).map(|r| r.map(Lazy::Whole))
        };
    loop {
        let n = fill(&mut *reader, &mut buf)?;
        let whole_words = n / 4 * 4;
        raw.extend(le_words(&buf[..whole_words]));
        if n < CHUNK {
            // The module ended inside its prefix (or is malformed): the whole module it is.
            return whole(raw, &mut *reader, &buf[whole_words..n]);
        }
        if big_endian.is_none() && raw.len() >= HEADER_WORDS {
            big_endian = match raw[0] {
                MAGIC => Some(false),
                w if w.swap_bytes() == MAGIC => Some(true),
                _ => return whole(raw, &mut *reader, &[]),
            };
            if raw[4] != 0 {
                return whole(raw, &mut *reader, &[]);
            }
        }
        let Some(be) = big_endian else { continue };
        while next < raw.len() {
            let head = if be {
                raw[next].swap_bytes()
            } else {
                raw[next]
            };
            let wc = (head >> 16) as usize;
            if wc == 0 {
                return whole(raw, &mut *reader, &[]);
            }
            if next + wc > raw.len() {
                break; // the instruction continues in the next chunk
            }
            // The prefix ends here, or this instruction names a marker: stop at it.
            let stop: Option<fn(Prefix) -> Lazy> = if ends(head & 0xffff) {
                Some(Lazy::Prefix)
            } else {
                let w = &raw[next..next + wc];
                let hit = if be {
                    scratch.clear();
                    scratch.extend(w.iter().map(|x| x.swap_bytes()));
                    matches(&scratch)
                } else {
                    matches(w)
                };
                hit.then_some(Lazy::Matched as fn(Prefix) -> Lazy)
            };
            if let Some(lazy) = stop {
                return Ok(Ok(lazy(Prefix {
                    kind: Kind::Read {
                        raw,
                        big_endian: be,
                        rest: reader,
                    },
                    source: None,
                })));
            }
            next += wc;
        }
    }
}

/// [`read_lazily`] for a module file that can be mapped ([`Module::map_file`]'s conditions):
/// the prefix is looked at in the mapping, nothing is copied. `None`: the file cannot be mapped.
pub fn map_lazily(
    file: &std::fs::File,
    ends: impl Fn(u32) -> bool,
    matches: impl Fn(&[u32]) -> bool,
) -> Option<Result<Lazy>> {
    let map = std::sync::Arc::new(super::map_words(file)?);
    let words = super::mapped_words(&map);
    let mut next = HEADER_WORDS;
    while next < words.len() {
        let head = words[next];
        let wc = (head >> 16) as usize;
        if wc == 0 || next + wc > words.len() || matches(&words[next..next + wc]) {
            break; // the whole module: its errors, or its markers
        }
        if ends(head & 0xffff) {
            if words[4] != 0 || words.len() > u32::MAX as usize {
                break; // a header error
            }
            return Some(Ok(Lazy::Prefix(Prefix {
                kind: Kind::Mapped { map, next },
                source: None,
            })));
        }
        next += wc;
    }
    Some(Module::from_storage(super::Words::Mapped(map), false).map(Lazy::Whole))
}

impl Prefix {
    /// Declares the file the rest is read from (a handle to the same open file), so that
    /// [`Prefix::copy_file_to`] can copy it in the kernel.
    pub fn set_source(&mut self, file: std::fs::File) {
        self.source = Some(file);
    }

    /// Copies the module to `out`, a new empty file, as [`Prefix::copy_to`] does, but in the
    /// kernel (`copy_file_range`) from the source file ([`Prefix::set_source`]) on a second
    /// thread, while this one reads the rest and checks it as `copy_to` does. `Ok(false)`: nothing
    /// was written, because there is no source file or the kernel cannot copy between these
    /// files; use `copy_to`. On an error, what was written to `out` is to be discarded.
    pub fn copy_file_to(&mut self, out: &std::fs::File) -> Result<bool> {
        let Some(source) = self.source.take() else {
            return Ok(false);
        };
        let Some(probe) = kernel_copy::probe(&source, out)? else {
            return Ok(false);
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (checked, copied) = std::thread::scope(|scope| {
            let copier = scope.spawn(|| kernel_copy::rest(&source, out, probe, &stop));
            let checked = self.check();
            if checked.is_err() {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            (checked, copier.join())
        });
        let checked = checked?;
        let copied = match copied {
            Ok(c) => c.map_err(Error::Write)?,
            Err(_) => return Err(Error::PostCondition("the copying thread panicked".into())),
        };
        if copied != checked {
            return Err(Error::Io {
                path: String::new(),
                source: std::io::Error::other(format!(
                    "the file changed while it was read ({checked} bytes read, {copied} bytes copied)"
                )),
            });
        }
        Ok(true)
    }

    /// Reads the rest: the whole module.
    pub fn into_module(self) -> std::io::Result<Result<Module>> {
        match self.kind {
            Kind::Read { raw, mut rest, .. } => {
                let bytes: Vec<u8> = raw.iter().flat_map(|w| w.to_le_bytes()).collect();
                let mut chained = std::io::Cursor::new(bytes).chain(&mut rest);
                Module::read_from(&mut chained, None)
            }
            Kind::Mapped { map, .. } => Ok(Module::from_storage(super::Words::Mapped(map), false)),
        }
    }

    /// Copies the module to `out` unchanged (see the module docs). Write errors are
    /// [`Error::Write`]; read errors [`Error::Io`] with an empty path; a malformed rest the
    /// error [`Module`] would give.
    /// Returns the number of bytes copied.
    pub fn copy_to<W: Write>(&mut self, out: &mut W) -> Result<u64> {
        match &mut self.kind {
            Kind::Read {
                raw,
                big_endian,
                rest,
                ..
            } => copy_read(raw, *big_endian, &mut **rest, out),
            Kind::Mapped { map, .. } => {
                check_words(super::mapped_words(map))?;
                out.write_all(map.as_ref()).map_err(Error::Write)?;
                Ok(map.len() as u64)
            }
        }
    }

    /// Checks the module as [`Prefix::copy_to`] does, without writing it; returns its length in
    /// bytes. A mapped module is read in its mapping, its pages given back behind the check
    /// ([`check_mapped`]).
    fn check(&mut self) -> Result<u64> {
        match &mut self.kind {
            Kind::Read { .. } => self.copy_to(&mut std::io::sink()),
            Kind::Mapped { map, .. } => check_mapped(map),
        }
    }
}

/// Checks a mapped module as [`check_words`] does, a chunk at a time, giving each chunk's pages
/// back once checked (reading the mapping copies nothing; giving its pages back keeps the
/// process's memory small, as reading the file would).
fn check_mapped(map: &memmap2::Mmap) -> Result<u64> {
    let words = super::mapped_words(map);
    let mut walker = Walker::new(
        words.get(3).copied().unwrap_or(0),
        words.get(2).copied().unwrap_or(0),
    );
    let step = CHUNK * 4; // words: 1 MiB
    let mut at = HEADER_WORDS.min(words.len());
    while at < words.len() {
        let end = (at + step).min(words.len());
        walker.feed(&words[at..end], at);
        #[cfg(unix)]
        {
            // SAFETY: a private read-only mapping (`Mmap`): no page of it was written, so
            // dropping pages loses nothing, and a later read maps the same file contents again
            // (the one hazard is that of every mapping: see [`super::Words`]). The range is
            // inside the mapping.
            let _ = unsafe {
                map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    at * 4,
                    (end - at) * 4,
                )
            };
        }
        if walker.broken.is_some() {
            break;
        }
        at = end;
    }
    walker.finish(words.len())?;
    Ok(map.len() as u64)
}

/// The instruction boundaries and the ids ([`IdCheck`]) of a module's words, fed piece by piece
/// in order; the errors are [`Module`]'s (and the index's, for ids), structural ones first.
struct Walker {
    ids: IdCheck,
    /// Word offset of the next instruction head (`usize::MAX` once a word count of 0 was met).
    next: usize,
    /// The words so far of an instruction that continues in the next piece.
    pending: Vec<u32>,
    pending_at: usize,
    /// Head and offset of the last instruction met.
    last: (u32, usize),
    /// A word count of 0 (reported after the length check, as [`Module`] does).
    broken: Option<Error>,
    /// The first id error (reported after every structural one).
    id_error: Option<Error>,
}

impl Walker {
    fn new(bound: u32, generator: u32) -> Self {
        Walker {
            ids: IdCheck::new(bound, generator),
            next: HEADER_WORDS,
            pending: Vec::new(),
            pending_at: 0,
            last: (0, HEADER_WORDS),
            broken: None,
            id_error: None,
        }
    }

    /// Whether an error was found (what is written from here on is to be discarded anyway).
    fn failed(&self) -> bool {
        self.broken.is_some() || self.id_error.is_some()
    }

    fn check(&mut self, words: &[u32], at: usize) {
        if self.id_error.is_none() {
            if let Err(e) = self.ids.inst(words, at) {
                self.id_error = Some(e);
            }
        }
    }

    /// `words` (host order) are the module's words from word offset `base` on, right after the
    /// previous piece (the first piece starts at or before [`HEADER_WORDS`]).
    fn feed(&mut self, words: &[u32], base: usize) {
        let end = base + words.len();
        if !self.pending.is_empty() {
            let wc = (self.pending[0] >> 16) as usize;
            let take = (wc - self.pending.len()).min(words.len());
            self.pending.extend_from_slice(&words[..take]);
            if self.pending.len() < wc {
                return;
            }
            let pending = std::mem::take(&mut self.pending);
            self.check(&pending, self.pending_at);
            self.pending = pending;
            self.pending.clear();
        }
        while self.next < end {
            let k = self.next - base;
            let head = words[k];
            let wc = (head >> 16) as usize;
            if wc == 0 {
                self.broken = Some(Error::Malformed {
                    offset: self.next,
                    opcode: inst::op_name(head & 0xffff),
                    message: "word count is 0".into(),
                });
                self.next = usize::MAX;
                return;
            }
            self.last = (head, self.next);
            if k + wc <= words.len() {
                self.check(&words[k..k + wc], self.next);
            } else {
                self.pending.extend_from_slice(&words[k..]);
                self.pending_at = self.next;
            }
            self.next += wc;
        }
    }

    /// After the last piece, which ended at word `end` (a whole number of words).
    fn finish(self, end: usize) -> Result<()> {
        if let Some(e) = self.broken {
            return Err(e);
        }
        if self.next != end {
            let (head, at) = self.last;
            return Err(Error::Malformed {
                offset: at,
                opcode: inst::op_name(head & 0xffff),
                message: format!(
                    "word count {} runs past the end of the module ({} words left)",
                    head >> 16,
                    end - at
                ),
            });
        }
        if let Some(e) = self.id_error {
            return Err(e);
        }
        self.ids.finish().map_err(|(_, e)| e)
    }
}

/// Checks a module's words (host order, header included) as [`Prefix::copy_to`] does.
fn check_words(words: &[u32]) -> Result<()> {
    let mut walker = Walker::new(
        words.get(3).copied().unwrap_or(0),
        words.get(2).copied().unwrap_or(0),
    );
    walker.feed(words.get(HEADER_WORDS..).unwrap_or(&[]), HEADER_WORDS);
    walker.finish(words.len())
}

/// [`Prefix::copy_to`] of a module being read: `raw` are its first words (the header and at
/// least the prefix, as read), `rest` the reader of the others.
fn copy_read<W: Write>(
    raw: &[u32],
    big_endian: bool,
    rest: &mut dyn Read,
    out: &mut W,
) -> Result<u64> {
    let write = |out: &mut W, bytes: &[u8]| out.write_all(bytes).map_err(Error::Write);
    let read_err = |e| Error::Io {
        path: String::new(),
        source: e,
    };
    if cfg!(target_endian = "little") {
        // `raw` holds the bytes as read.
        // SAFETY: initialised u32 memory is valid as bytes; the length is the words' size.
        let read = unsafe {
            std::slice::from_raw_parts(raw.as_ptr().cast::<u8>(), std::mem::size_of_val(raw))
        };
        write(out, read)?;
    } else {
        let bytes: Vec<u8> = raw.iter().flat_map(|w| w.to_le_bytes()).collect();
        write(out, &bytes)?;
    }
    let host = |w: u32| if big_endian { w.swap_bytes() } else { w };
    let swapped: Vec<u32>;
    let first: &[u32] = if big_endian {
        swapped = raw.iter().map(|&w| host(w)).collect();
        &swapped
    } else {
        raw
    };
    let mut walker = Walker::new(
        first.get(3).copied().unwrap_or(0),
        first.get(2).copied().unwrap_or(0),
    );
    walker.feed(first.get(HEADER_WORDS..).unwrap_or(&[]), HEADER_WORDS);
    // The chunk is read into words (no copy to turn bytes into words): their native reading is
    // the module's host-order word unless the module's byte order is not the host's.
    let swap = big_endian != cfg!(target_endian = "big");
    let mut words = vec![0u32; CHUNK / 4];
    // Word offset of the first word of the chunk once filled. `fill` fills the whole chunk (a
    // multiple of 4 bytes) until the input ends, so only the last chunk can end mid-word. After
    // an error the rest is still read (not written) to learn the length.
    let mut base = raw.len();
    loop {
        // SAFETY: u32 memory is valid as bytes, and any bytes are valid u32s; the view has the
        // words' size and lives while `words` is not otherwise used.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), CHUNK) };
        let have = fill(rest, bytes).map_err(read_err)?;
        if !walker.failed() {
            write(out, &bytes[..have])?;
        }
        let whole = have / 4;
        if walker.broken.is_none() {
            if swap {
                words[..whole].iter_mut().for_each(|w| *w = w.swap_bytes());
            }
            walker.feed(&words[..whole], base);
        }
        if have < CHUNK {
            // End of input.
            let total = base * 4 + have;
            if have % 4 != 0 {
                return Err(Error::Binary(format!(
                    "truncated SPIR-V module: {total} bytes is not a whole number of 32-bit words"
                )));
            }
            walker.finish(base + whole)?;
            return Ok(total as u64);
        }
        base += whole;
    }
}

/// `copy_file_range(2)`, by offsets (neither file's position moves).
#[cfg(target_os = "linux")]
mod kernel_copy {
    use crate::error::{Error, Result};
    use std::fs::File;
    use std::os::unix::io::AsRawFd;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Bytes per call: small enough to stop soon after the check fails.
    const STEP: usize = 8 << 20;

    /// Copies up to `len` bytes from offset `at` of `src` to the same offset of `dst`.
    fn copy(src: &File, dst: &File, at: u64, len: usize) -> std::io::Result<u64> {
        let mut off_in = at as libc::loff_t;
        let mut off_out = at as libc::loff_t;
        loop {
            // SAFETY: two open descriptors and two offsets that live across the call.
            let n = unsafe {
                libc::copy_file_range(
                    src.as_raw_fd(),
                    &mut off_in,
                    dst.as_raw_fd(),
                    &mut off_out,
                    len,
                    0,
                )
            };
            if n >= 0 {
                return Ok(n as u64);
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }

    /// Copies the first bytes; `None` if the kernel cannot copy between these files (nothing
    /// written), else the number of bytes copied.
    pub fn probe(src: &File, dst: &File) -> Result<Option<u64>> {
        match copy(src, dst, 0, 64 << 10) {
            Ok(0) => Ok(None),
            Ok(n) => Ok(Some(n)),
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(
                        libc::ENOSYS
                            | libc::EXDEV
                            | libc::EINVAL
                            | libc::EOPNOTSUPP
                            | libc::EBADF
                            | libc::EPERM
                    )
                ) =>
            {
                Ok(None)
            }
            Err(e) => Err(Error::Write(e)),
        }
    }

    /// Copies from offset `from` to the end of `src` (or until `stop`); returns the offset reached.
    pub fn rest(src: &File, dst: &File, from: u64, stop: &AtomicBool) -> std::io::Result<u64> {
        let mut at = from;
        while !stop.load(Ordering::Relaxed) {
            match copy(src, dst, at, STEP)? {
                0 => break,
                n => at += n,
            }
        }
        Ok(at)
    }
}

#[cfg(not(target_os = "linux"))]
mod kernel_copy {
    use crate::error::Result;
    use std::fs::File;
    use std::sync::atomic::AtomicBool;

    pub fn probe(_: &File, _: &File) -> Result<Option<u64>> {
        Ok(None)
    }

    pub fn rest(_: &File, _: &File, from: u64, _: &AtomicBool) -> std::io::Result<u64> {
        Ok(from)
    }
}
