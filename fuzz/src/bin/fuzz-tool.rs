//! Helpers around the fuzz targets (no libFuzzer needed):
//!
//! ```text
//! fuzz-tool seeds                               list the embedded seed modules
//! fuzz-tool seed-corpus <target> <dir>          write the target's initial corpus into <dir>
//! fuzz-tool replay <target> <file>...           run inputs, print ok / error / PANIC (message, location)
//! fuzz-tool materialize <target> <file> <dir>   write the module(s) an input stands for to
//!                                               <dir>/crash-<hash>.spv (linking: .1.spv, .2.spv)
//! ```
//!
//! `replay` exits 1 when an input panicked. Set `RUST_BACKTRACE=1` for the backtrace of a panic.

use spec_link_fuzz::{decoder, mode_name, seed_corpus, seeds::SEEDS, TARGETS};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

fn usage() -> ! {
    eprintln!(
        "usage: fuzz-tool seeds | seed-corpus <target> <dir> | replay <target> <file>... | materialize <target> <file> <dir>\ntargets: {}",
        TARGETS.iter().map(|t| t.0).collect::<Vec<_>>().join(", ")
    );
    std::process::exit(2)
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else { usage() };
    match cmd.as_str() {
        "seeds" => {
            for (i, (name, bytes)) in SEEDS.iter().enumerate() {
                println!("{i:3} {:7} {name}", bytes.len());
            }
        }
        "seed-corpus" => {
            let [_, target, dir] = &args[..] else { usage() };
            let corpus = seed_corpus(target);
            if corpus.is_empty() {
                usage();
            }
            let dir = PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
            let mut written = 0;
            for (name, bytes) in corpus {
                let p = dir.join(format!("seed-{name}"));
                if !p.exists() {
                    std::fs::write(&p, bytes).unwrap_or_else(|e| panic!("write {}: {e}", p.display()));
                    written += 1;
                }
            }
            println!("{target}: {written} seed file(s) written to {}", dir.display());
        }
        "replay" => {
            if args.len() < 3 {
                usage();
            }
            let target = &args[1];
            let decode = decoder(target).unwrap_or_else(|| usage());
            std::panic::set_hook(Box::new(|info| {
                let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                    s.to_string()
                } else if let Some(s) = info.payload().downcast_ref::<String>() {
                    s.clone()
                } else {
                    "(non-string panic payload)".into()
                };
                let loc =
                    info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
                let bt = std::backtrace::Backtrace::capture();
                let text = format!("panicked at {loc}: {msg}\n{bt}");
                if let Ok(mut g) = LAST_PANIC.lock() {
                    *g = Some(text);
                }
            }));
            let mut panics = 0;
            for file in &args[2..] {
                let data = std::fs::read(file).unwrap_or_else(|e| panic!("read {file}: {e}"));
                let Some((inputs, options)) = decode(&data) else {
                    println!("{file}: too short for target {target}");
                    continue;
                };
                if target == "mutate" {
                    if let Some(m) = spec_link_fuzz::mutate::decode(&data) {
                        println!("{file}: seeds {:?}, mutations: {}", m.seeds, m.log.join("; "));
                    }
                }
                let sizes: Vec<usize> = inputs.iter().map(|i| i.bytes().map_or(0, |b| b.len())).collect();
                print!("{file}: mode {}, input sizes {sizes:?}: ", mode_name(options_mode(&options)));
                let t0 = std::time::Instant::now();
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    spec_link_fuzz::check_report(&inputs, &options)
                }));
                print!("[{:.1} ms] ", t0.elapsed().as_secs_f64() * 1e3);
                match r {
                    Ok(text) => println!("{text}"),
                    Err(_) => {
                        panics += 1;
                        let text = LAST_PANIC.lock().ok().and_then(|mut g| g.take()).unwrap_or_default();
                        println!("PANIC\n{text}");
                    }
                }
            }
            std::process::exit(if panics > 0 { 1 } else { 0 });
        }
        "materialize" => {
            let [_, target, file, dir] = &args[..] else { usage() };
            let decode = decoder(target).unwrap_or_else(|| usage());
            let data = std::fs::read(file).unwrap_or_else(|e| panic!("read {file}: {e}"));
            let Some((inputs, options)) = decode(&data) else {
                eprintln!("{file}: too short for target {target}");
                std::process::exit(1)
            };
            let dir = Path::new(dir);
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
            let mut all = Vec::new();
            for i in &inputs {
                all.extend_from_slice(&i.bytes().unwrap_or_default());
            }
            let hash = format!("{:016x}", fnv(&all));
            for (k, i) in inputs.iter().enumerate() {
                let name =
                    if inputs.len() == 1 { format!("crash-{hash}.spv") } else { format!("crash-{hash}.{}.spv", k + 1) };
                let p = dir.join(name);
                std::fs::write(&p, i.bytes().unwrap_or_default())
                    .unwrap_or_else(|e| panic!("write {}: {e}", p.display()));
                println!("{} ({} bytes)", p.display(), i.bytes().map_or(0, |b| b.len()));
            }
            println!("mode: {}; link options: {:?}", mode_name(options_mode(&options)), options.link);
        }
        _ => usage(),
    }
}

fn options_mode(o: &spec_link::Options) -> u8 {
    use spec_link::{EmulationLayout, SpecConstMode, SpecIdOrder};
    let mode = match (o.mode, o.emulation_layout) {
        (SpecConstMode::Native, _) => 0,
        (SpecConstMode::Emulation, EmulationLayout::Aligned) => 1,
        (SpecConstMode::DefaultValues, _) => 2,
        (SpecConstMode::Emulation, EmulationLayout::Packed) => 3,
    };
    match o.spec_id_order {
        SpecIdOrder::FirstUse => mode,
        SpecIdOrder::Dpcpp => mode | 4,
    }
}
