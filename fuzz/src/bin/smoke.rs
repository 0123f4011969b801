//! A libFuzzer-free fallback fuzzer for machines where `cargo fuzz` cannot build (no nightly, no
//! sanitizer runtime): mutates the corpus with a seeded xorshift PRNG, runs the same target
//! functions as the libFuzzer targets, and catches panics with `catch_unwind`.
//!
//! ```text
//! smoke <target> [--seconds S] [--iterations N] [--seed N] [--corpus DIR] [--artifacts DIR]
//!                [--max-len BYTES] [--timeout SECS]
//! ```
//!
//! Feedback: an input is added to the in-memory corpus when its result (ok, or the error message with
//! numbers masked) was not seen before — crude, but it keeps inputs that reach new checks.
//! Findings go to `--artifacts` (default `artifacts/<target>/`): `crash-<hash>` (the input) and
//! `crash-<hash>.txt` (message, location). Before each run the input is written to
//! `<artifacts>/.current`, so that an abort the harness cannot catch (stack overflow, out of memory)
//! leaves the input behind (`scripts/fuzz.sh` files it as a crash). A watchdog ends the process
//! (exit 3) when one input runs longer than `--timeout` (default 10 s), saving it as `timeout-<hash>`.
//! The last line is a summary: `smoke <target>: <execs> execs in <s> s, corpus <n>, crashes <k> …`.

use spec_link_fuzz::{seed_corpus, TARGETS};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

const INTERESTING32: [u32; 12] =
    [0, 1, 2, 3, 4, 0xff, 0xffff, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x0723_0203, 0x0001_0000];

fn mutate(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8], max_len: usize) {
    let rounds = 1 + rng.below(8);
    for _ in 0..rounds {
        let len = data.len();
        match rng.below(11) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                data[i] = rng.next() as u8;
            }
            2 if len >= 4 => {
                // an interesting word at a word boundary (SPIR-V is words)
                let i = rng.below(len / 4) * 4;
                let v = INTERESTING32[rng.below(INTERESTING32.len())];
                data[i..i + 4].copy_from_slice(&v.to_le_bytes());
            }
            3 if len >= 4 => {
                // small change of a word (ids, counts)
                let i = rng.below(len / 4) * 4;
                let w = u32::from_le_bytes([data[i], data[i + 1], data[i + 2], data[i + 3]]);
                let d = rng.below(33) as u32;
                let w = if rng.next() & 1 == 0 { w.wrapping_add(d) } else { w.wrapping_sub(d) };
                data[i..i + 4].copy_from_slice(&w.to_le_bytes());
            }
            4 if len > 0 => {
                // delete a range
                let a = rng.below(len);
                let n = 1 + rng.below((len - a).min(64));
                data.drain(a..a + n);
            }
            5 => {
                // insert random bytes
                let a = rng.below(len + 1);
                let n = 1 + rng.below(16);
                let ins: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                data.splice(a..a, ins);
            }
            6 if len > 0 => {
                // duplicate a (word-aligned) range elsewhere
                let a = rng.below(len / 4 + 1) * 4;
                let a = a.min(len);
                let n = rng.below((len - a).min(128) + 1);
                let chunk = data[a..a + n].to_vec();
                let at = rng.below(len / 4 + 1) * 4;
                let at = at.min(len);
                data.splice(at..at, chunk);
            }
            7 if !other.is_empty() => {
                // splice: our head, their tail
                let a = rng.below(len + 1);
                let b = rng.below(other.len());
                data.truncate(a);
                data.extend_from_slice(&other[b..]);
            }
            8 if len > 0 => {
                data.truncate(rng.below(len));
            }
            9 if len >= 8 => {
                // swap two words
                let i = rng.below(len / 4) * 4;
                let j = rng.below(len / 4) * 4;
                for k in 0..4 {
                    data.swap(i + k, j + k);
                }
            }
            _ if len > 0 => {
                // overwrite the first bytes (mode / split / seed / flags)
                let i = rng.below(len.min(4));
                data[i] = rng.next() as u8;
            }
            _ => data.push(rng.next() as u8),
        }
    }
    data.truncate(max_len);
}

fn mask_numbers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last_digit = false;
    for ch in s.chars() {
        if ch.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
        } else {
            out.push(ch);
            last_digit = false;
        }
    }
    out
}

fn usage() -> ! {
    eprintln!("usage: smoke <lower|link|mutate> [--seconds S] [--iterations N] [--seed N] [--corpus DIR] [--artifacts DIR] [--max-len BYTES] [--timeout SECS]");
    std::process::exit(2)
}

static PANIC_TEXT: Mutex<Option<String>> = Mutex::new(None);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(target) = args.first().cloned() else { usage() };
    let Some(&(_, run)) = TARGETS.iter().find(|t| t.0 == target) else { usage() };
    let mut seconds: Option<u64> = None;
    let mut iterations: Option<u64> = None;
    let mut seed: u64 = 0x5eed_5eed_1234_5678;
    let mut corpus_dir: Option<PathBuf> = None;
    let mut artifacts = PathBuf::from(format!("artifacts/{target}"));
    let mut max_len = 1 << 16;
    let mut timeout = 10u64;
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        let v = it.next().unwrap_or_else(|| usage());
        let num = || v.parse::<u64>().unwrap_or_else(|_| usage());
        match a.as_str() {
            "--seconds" => seconds = Some(num()),
            "--iterations" => iterations = Some(num()),
            "--seed" => seed = num().max(1),
            "--corpus" => corpus_dir = Some(PathBuf::from(v)),
            "--artifacts" => artifacts = PathBuf::from(v),
            "--max-len" => max_len = num() as usize,
            "--timeout" => timeout = num().max(1),
            _ => usage(),
        }
    }
    if seconds.is_none() && iterations.is_none() {
        seconds = Some(60);
    }
    std::fs::create_dir_all(&artifacts).unwrap_or_else(|e| panic!("create {}: {e}", artifacts.display()));

    // corpus: the directory's files, else the built-in seeds
    let mut corpus: Vec<Vec<u8>> = Vec::new();
    if let Some(d) = &corpus_dir {
        if let Ok(rd) = std::fs::read_dir(d) {
            let mut files: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
            files.sort();
            for f in files {
                if let Ok(b) = std::fs::read(&f) {
                    corpus.push(b);
                }
            }
        }
    }
    if corpus.is_empty() {
        corpus = seed_corpus(&target).into_iter().map(|(_, b)| b).collect();
    }
    if corpus.is_empty() {
        corpus.push(Vec::new());
    }

    std::panic::set_hook(Box::new(|info| {
        let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
            s.to_string()
        } else if let Some(s) = info.payload().downcast_ref::<String>() {
            s.clone()
        } else {
            "(non-string panic payload)".into()
        };
        let loc = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
        if let Ok(mut g) = PANIC_TEXT.lock() {
            *g = Some(format!("{loc}\t{msg}\n{}", std::backtrace::Backtrace::force_capture()));
        }
    }));

    // watchdog
    let execs = Arc::new(AtomicU64::new(0));
    let current = artifacts.join(".current");
    {
        let execs = Arc::clone(&execs);
        let current = current.clone();
        let artifacts = artifacts.clone();
        std::thread::spawn(move || {
            let mut last = u64::MAX;
            let mut since = Instant::now();
            loop {
                std::thread::sleep(Duration::from_millis(250));
                let now = execs.load(Ordering::Relaxed);
                if now != last {
                    last = now;
                    since = Instant::now();
                } else if since.elapsed() > Duration::from_secs(timeout) {
                    let data = std::fs::read(&current).unwrap_or_default();
                    let p = artifacts.join(format!("timeout-{:016x}", fnv(&data)));
                    let _ = std::fs::write(&p, &data);
                    eprintln!("smoke: an input ran longer than {timeout} s; saved as {}", p.display());
                    std::process::exit(3);
                }
            }
        });
    }

    let mut rng = Rng(seed);
    let mut seen: HashSet<String> = HashSet::new();
    let mut crash_locs: HashSet<String> = HashSet::new();
    let mut crashes = 0u64;
    let start = Instant::now();
    let deadline = seconds.map(|s| start + Duration::from_secs(s));
    let mut n = 0u64;
    loop {
        if iterations.is_some_and(|i| n >= i) || deadline.is_some_and(|d| n.is_multiple_of(64) && Instant::now() >= d) {
            break;
        }
        let parent = rng.below(corpus.len());
        let other = rng.below(corpus.len());
        let mut data = corpus[parent].clone();
        // replay the corpus as it is first
        if n as usize >= corpus.len() || corpus_dir.is_none() {
            let other = corpus[other].clone();
            mutate(&mut rng, &mut data, &other, max_len);
        } else {
            data = corpus[n as usize].clone();
        }
        let _ = std::fs::write(&current, &data);
        let result = std::panic::catch_unwind(|| {
            // the result class, for the crude feedback
            match spec_link_fuzz::decoder(&target).and_then(|d| d(&data)) {
                Some((inputs, opts)) => {
                    let r = spec_link::process(&inputs, &opts);
                    let class = match &r {
                        Ok(o) => format!("ok {} {}", o.calls, o.spec_map.constants.len()),
                        Err(e) => mask_numbers(&e.to_string()),
                    };
                    if r.is_ok() {
                        run(&data); // the full target (including the re-run on the output)
                    }
                    class
                }
                None => "short".to_string(),
            }
        });
        n += 1;
        execs.store(n, Ordering::Relaxed);
        match result {
            Ok(class) => {
                if seen.insert(class) && corpus.len() < 100_000 {
                    corpus.push(data);
                }
            }
            Err(_) => {
                crashes += 1;
                let text = PANIC_TEXT.lock().ok().and_then(|mut g| g.take()).unwrap_or_default();
                let loc = text.lines().next().unwrap_or("").to_string();
                let h = fnv(&data);
                let p = artifacts.join(format!("crash-{h:016x}"));
                if crash_locs.insert(loc.clone()) {
                    eprintln!("smoke: panic at {loc} (input saved as {})", p.display());
                }
                let _ = std::fs::write(&p, &data);
                let _ = std::fs::write(artifacts.join(format!("crash-{h:016x}.txt")), &text);
            }
        }
    }
    let _ = std::fs::remove_file(&current);
    println!(
        "smoke {target}: {n} execs in {:.0} s, corpus {}, crashes {crashes} ({} distinct locations), timeouts 0",
        start.elapsed().as_secs_f64(),
        corpus.len(),
        crash_locs.len()
    );
}
