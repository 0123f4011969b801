//! Lazy reading, for the pass-through fast path.
//!
//! Whether a module can contain marker calls is decided by its prefix: the names and linkage
//! decorations that identify marker functions come before every type, constant, variable and
//! function (see [`crate::markers::may_have_markers`]). [`read_lazily`] reads until the first
//! instruction for which `ends` is true (checking every instruction boundary on the way) and asks
//! `matches` about each instruction before it. If none matches, the rest is left in the reader: [`Prefix::copy_to`] later copies
//! it to the output chunk by chunk, checking the instruction boundaries as they pass, so a module
//! without markers is never held in memory. If one matches, the caller reads the rest
//! ([`Prefix::into_module`]) or maps the file. Anything unusual (a bad header, a word count of 0, a
//! module ending inside its prefix) makes [`read_lazily`] read the whole module and hand it to
//! [`Module`], whose checks report the error.
//!
//! Postcondition of [`Prefix::copy_to`]: what it wrote is the input's bytes, unchanged, and the
//! input is a whole number of words split into instructions with non-zero word counts that end
//! exactly at its end; otherwise it returns the error [`Module::from_bytes`] would have given.

use super::{inst, Module, HEADER_WORDS, MAGIC};
use crate::error::{Error, Result};
use std::io::{Read, Write};

const CHUNK: usize = 1 << 18;

/// A module of which only the prefix has been read.
pub struct Prefix {
    /// The words read so far, as read (little-endian interpretation, not swapped).
    raw: Vec<u32>,
    big_endian: bool,
    /// Word offset of the next instruction boundary (can be past `raw`).
    next: usize,
    rest: Box<dyn Read + Send>,
}

impl std::fmt::Debug for Prefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prefix").field("words", &self.raw.len()).field("big_endian", &self.big_endian).finish()
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
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
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
    let mut raw: Vec<u32> = Vec::with_capacity(size_hint.map_or(0, |n| (n / 4).min(1 << 28) as usize));
    let mut buf = vec![0u8; CHUNK];
    let mut big_endian = None;
    let mut next = HEADER_WORDS;
    let mut scratch: Vec<u32> = Vec::new();
    let whole = |raw: Vec<u32>, reader: &mut dyn Read, tail: &[u8]| -> std::io::Result<Result<Lazy>> {
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
            let head = if be { raw[next].swap_bytes() } else { raw[next] };
            let wc = (head >> 16) as usize;
            if wc == 0 {
                return whole(raw, &mut *reader, &[]);
            }
            if next + wc > raw.len() {
                break; // the instruction continues in the next chunk
            }
            if ends(head & 0xffff) {
                return Ok(Ok(Lazy::Prefix(Prefix { raw, big_endian: be, next, rest: reader })));
            }
            let w = &raw[next..next + wc];
            let hit = if be {
                scratch.clear();
                scratch.extend(w.iter().map(|x| x.swap_bytes()));
                matches(&scratch)
            } else {
                matches(w)
            };
            if hit {
                return Ok(Ok(Lazy::Matched(Prefix { raw, big_endian: be, next, rest: reader })));
            }
            next += wc;
        }
    }
}

impl Prefix {
    /// Reads the rest: the whole module.
    pub fn into_module(mut self) -> std::io::Result<Result<Module>> {
        let bytes: Vec<u8> = self.raw.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut chained = std::io::Cursor::new(bytes).chain(&mut self.rest);
        Module::read_from(&mut chained, None)
    }

    /// Copies the module to `out` unchanged (see the module docs). Write errors are
    /// [`Error::Write`]; read errors [`Error::Io`] with an empty path; a malformed rest the
    /// error [`Module`] would give.
    pub fn copy_to<W: Write>(&mut self, out: &mut W) -> Result<()> {
        let write = |out: &mut W, bytes: &[u8]| out.write_all(bytes).map_err(Error::Write);
        let read_err = |e| Error::Io { path: String::new(), source: e };
        let mut bytes = vec![0u8; CHUNK];
        if cfg!(target_endian = "little") {
            // `raw` holds the bytes as read.
            // SAFETY: initialised u32 memory is valid as bytes; the length is the words' size.
            let read = unsafe { std::slice::from_raw_parts(self.raw.as_ptr().cast::<u8>(), std::mem::size_of_val(&self.raw[..])) };
            write(out, read)?;
        } else {
            for chunk in self.raw.chunks(CHUNK / 4) {
                for (b, w) in bytes.chunks_exact_mut(4).zip(chunk) {
                    b.copy_from_slice(&w.to_le_bytes());
                }
                write(out, &bytes[..chunk.len() * 4])?;
            }
        }
        let host = |w: u32| if self.big_endian { w.swap_bytes() } else { w };
        let mut next = self.next;
        let (mut last_head, mut last_at) = (host(self.raw[next]), next);
        // A word count of 0 is reported after the length check, as [`Module`] does: the rest is
        // still read (not written) to learn the length.
        let mut broken: Option<Error> = None;
        let word_count_0 = |at: usize, head: u32| Error::Malformed {
            offset: at,
            opcode: inst::op_name(head & 0xffff),
            message: "word count is 0".into(),
        };
        // Boundaries inside the words already read (the prefix ends inside them).
        while next < self.raw.len() {
            let head = host(self.raw[next]);
            if head >> 16 == 0 {
                broken = Some(word_count_0(next, head));
                next = usize::MAX;
                break;
            }
            (last_head, last_at) = (head, next);
            next += (head >> 16) as usize;
        }
        // Word offset of the first word of `bytes` once filled. `fill` fills the whole chunk (a
        // multiple of 4 bytes) until the input ends, so only the last chunk can end mid-word.
        let mut base = self.raw.len();
        loop {
            let have = fill(&mut *self.rest, &mut bytes).map_err(read_err)?;
            if broken.is_none() {
                write(out, &bytes[..have])?;
            }
            let whole = have / 4;
            // Instruction boundaries inside this chunk's whole words.
            while next < base + whole {
                let k = (next - base) * 4;
                let head = host(u32::from_le_bytes([bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]]));
                let wc = (head >> 16) as usize;
                if wc == 0 {
                    broken = Some(word_count_0(next, head));
                    next = usize::MAX;
                    break;
                }
                (last_head, last_at) = (head, next);
                next += wc;
            }
            if have < bytes.len() {
                // End of input.
                let total = base * 4 + have;
                if have % 4 != 0 {
                    return Err(Error::Binary(format!(
                        "truncated SPIR-V module: {total} bytes is not a whole number of 32-bit words"
                    )));
                }
                if let Some(e) = broken {
                    return Err(e);
                }
                let end = base + whole;
                if next != end {
                    let wc = (last_head >> 16) as usize;
                    return Err(Error::Malformed {
                        offset: last_at,
                        opcode: inst::op_name(last_head & 0xffff),
                        message: format!(
                            "word count {wc} runs past the end of the module ({} words left)",
                            end - last_at
                        ),
                    });
                }
                return Ok(());
            }
            base += whole;
        }
    }
}
