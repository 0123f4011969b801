//! The floor of a tool that holds a module: map the input, walk its instruction word counts
//! (checking each is non-zero and the last ends at the end), write it out unchanged.
//! `scripts/bench.sh` times it next to spec-link and `cp` (the "bare instruction walker" of docs/performance.md).
//!
//!     cargo run --release --example walker -- IN.spv OUT.spv

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, input, output] = args.as_slice() else {
        eprintln!("usage: walker IN.spv OUT.spv");
        return ExitCode::from(2);
    };
    match walk(input, output) {
        Ok(n) => {
            if std::env::var_os("WALKER_VERBOSE").is_some() {
                eprintln!("{n} instructions");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn walk(input: &str, output: &str) -> Result<usize, String> {
    let file = std::fs::File::open(input).map_err(|e| format!("{input}: {e}"))?;
    // SAFETY: a read-only mapping of a file nobody truncates while the walker runs.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| format!("{input}: {e}"))?;
    if map.len() % 4 != 0 || map.len() < 20 {
        return Err(format!("{input}: not a whole number of words"));
    }
    let mut at = 20;
    let mut count = 0;
    while at < map.len() {
        let head = u32::from_le_bytes([map[at], map[at + 1], map[at + 2], map[at + 3]]);
        let wc = (head >> 16) as usize;
        if wc == 0 {
            return Err(format!("{input}: word count 0 at byte {at}"));
        }
        at += wc * 4;
        count += 1;
    }
    if at != map.len() {
        return Err(format!("{input}: the last instruction runs past the end"));
    }
    let mut out = std::fs::File::create(output).map_err(|e| format!("{output}: {e}"))?;
    out.write_all(&map).map_err(|e| format!("{output}: {e}"))?;
    Ok(count)
}
