//! The floor of a *streaming* lowering tool, the design spec-link does not have: read the module
//! once in 1 MiB chunks (`read(2)` into one buffer that stays in the cache, as `dd` does), walk
//! its instructions (word counts checked), look up each result id in a bitmap (an id defined
//! twice is an error) and count the `OpFunctionCall`s — what such a tool must do per instruction
//! to find marker calls and check the module it copies — then write the output: the header (whose
//! id bound a lowering changes) from memory, and the rest by `copy_file_range(2)` from the input,
//! inside the kernel, as `cp` copies: as if every instruction a lowering edits were written apart
//! and everything between them copied so. Real lowering adds its work on the functions that call
//! markers and on the instructions it edits.
//! `scripts/bench.sh` times it next to `cp` and the walker (`examples/walker.rs`, the floor of a
//! tool that holds the module, as spec-link does).
//!
//!     cargo run --release --example stream_floor -- IN.spv OUT.spv

use std::io::{Read, Write};
use std::process::ExitCode;

const CHUNK: usize = 1 << 20;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, input, output] = args.as_slice() else {
        eprintln!("usage: stream_floor IN.spv OUT.spv");
        return ExitCode::from(2);
    };
    match stream(input, output) {
        Ok(s) => {
            if std::env::var_os("WALKER_VERBOSE").is_some() {
                eprintln!(
                    "{} instructions, {} calls, the first function at byte {}",
                    s.instructions, s.calls, s.first_function
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

struct Stats {
    instructions: usize,
    calls: usize,
    first_function: usize,
}

/// Position of the result id in each opcode's operands (0: none), from rspirv's grammar.
fn result_positions() -> Vec<u8> {
    let mut table = vec![0u8; 1 << 16];
    for inst in rspirv::grammar::INSTRUCTION_TABLE.iter() {
        if let Some(k) = inst
            .operands
            .iter()
            .position(|o| o.kind == rspirv::grammar::OperandKind::IdResult)
        {
            table[inst.opcode as usize] = k as u8 + 1;
        }
    }
    table
}

fn stream(input: &str, output: &str) -> Result<Stats, String> {
    let err = |e: std::io::Error| format!("{input}: {e}");
    let mut file = std::fs::File::open(input).map_err(err)?;
    let size = file.metadata().map_err(err)?.len() as usize;
    if size % 4 != 0 || size < 20 {
        return Err(format!("{input}: not a whole number of words"));
    }
    let result_at = result_positions();
    // Words, read into as bytes (a word buffer keeps the instructions aligned without a copy).
    let mut buf = vec![0u32; CHUNK / 4];
    let (mut kept, mut consumed) = (0usize, 0usize);
    let mut defined: Vec<u64> = Vec::new();
    let mut header = [0u8; 20];
    let mut stats = Stats {
        instructions: 0,
        calls: 0,
        first_function: 0,
    };
    let mut first = true;
    loop {
        let n = file.read(&mut bytes_mut(&mut buf)[kept..]).map_err(err)?;
        if n == 0 {
            break;
        }
        let len = kept + n;
        let words = &buf[..len / 4];
        let mut at = 0;
        if first {
            if words.len() < 5 {
                return Err(format!("{input}: no header"));
            }
            if words[0] != spirv::MAGIC_NUMBER {
                return Err(format!(
                    "{input}: not a SPIR-V module in this host's byte order"
                ));
            }
            defined = vec![0; words[3] as usize / 64 + 1];
            for (k, w) in words[..5].iter().enumerate() {
                header[4 * k..4 * k + 4].copy_from_slice(&w.to_ne_bytes());
            }
            at = 5;
            first = false;
        }
        while at < words.len() {
            let w0 = words[at];
            let count = (w0 >> 16) as usize;
            if count == 0 {
                return Err(format!(
                    "{input}: word count 0 at byte {}",
                    consumed + at * 4
                ));
            }
            if at + count > words.len() {
                break;
            }
            let op = (w0 & 0xffff) as usize;
            if op == spirv::Op::Function as usize && stats.first_function == 0 {
                stats.first_function = consumed + at * 4;
            }
            stats.calls += usize::from(op == spirv::Op::FunctionCall as usize);
            let p = result_at[op] as usize;
            if p != 0 && p < count {
                let id = words[at + p] as usize;
                let slot = defined
                    .get_mut(id / 64)
                    .ok_or_else(|| format!("{input}: id {id} above the bound"))?;
                let bit = 1u64 << (id % 64);
                if *slot & bit != 0 {
                    return Err(format!("{input}: id {id} defined twice"));
                }
                *slot |= bit;
            }
            stats.instructions += 1;
            at += count;
        }
        consumed += at * 4;
        bytes_mut(&mut buf).copy_within(at * 4..len, 0);
        kept = len - at * 4;
        if kept + CHUNK / 2 > buf.len() * 4 {
            buf.resize(buf.len() * 2, 0);
        }
    }
    if kept != 0 || consumed != size {
        return Err(format!("{input}: the last instruction runs past the end"));
    }
    let mut out = std::fs::File::create(output).map_err(|e| format!("{output}: {e}"))?;
    out.write_all(&header)
        .map_err(|e| format!("{output}: {e}"))?;
    copy_range(&file, &out, header.len(), size - header.len())
        .map_err(|e| format!("{output}: {e}"))?;
    Ok(stats)
}

/// The bytes of a word buffer.
fn bytes_mut(words: &mut [u32]) -> &mut [u8] {
    // SAFETY: u8 has no alignment requirement and every byte pattern is valid in both types; the
    // length covers exactly the words' bytes, borrowed mutably for the view's lifetime.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), words.len() * 4) }
}

/// `len` bytes of `from` at `offset`, appended to `to` inside the kernel.
#[cfg(target_os = "linux")]
fn copy_range(
    from: &std::fs::File,
    to: &std::fs::File,
    offset: usize,
    len: usize,
) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let mut off_in = offset as libc::loff_t;
    let mut left = len;
    while left > 0 {
        // SAFETY: two open descriptors; the kernel reads and writes through them only.
        let r = unsafe {
            libc::copy_file_range(
                from.as_raw_fd(),
                &mut off_in,
                to.as_raw_fd(),
                std::ptr::null_mut(),
                left,
                0,
            )
        };
        if r < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if r == 0 {
            return Err(std::io::Error::other("the input ended early"));
        }
        left -= r as usize;
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn copy_range(
    from: &std::fs::File,
    to: &std::fs::File,
    offset: usize,
    len: usize,
) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut from = from;
    let mut to = to;
    from.seek(SeekFrom::Start(offset as u64))?;
    std::io::copy(&mut from.take(len as u64), &mut to)?;
    Ok(())
}
