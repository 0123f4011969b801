//! Per-stage timings of spec-link's hot path (a plain `harness = false` bench, no criterion).
//!
//! ```text
//! scripts/gen-bench.sh --no-link --sizes 10        # once: bench-data/bench-10MB.spv
//! cargo bench --bench stages
//! SPEC_LINK_BENCH_INPUT=bench-data/bench-100MB.spv SPEC_LINK_BENCH_RUNS=3 cargo bench --bench stages
//! ```
//!
//! Input: `SPEC_LINK_BENCH_INPUT` (default `bench-data/bench-10MB.spv`, relative to the crate root);
//! when `<input stem>-passthrough.spv` exists beside it, the pass-through case is timed too.
//! Runs: `SPEC_LINK_BENCH_RUNS` (default 5) after one warm-up; the table shows median and minimum.
//! Each stage is timed on its own, fed by the previous stages' results computed outside the timing.
//! No assertion on times: this shows where the time goes and makes per-stage regressions visible.
//! The stages are reached through `spec_link::internals` (the `internals` feature, which the
//! crate's own dev-dependency turns on for benchmarks; not part of the library's API).

use spec_link::internals;
use spec_link::{Input, Options, SpecConstMode, Validation};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

struct Row {
    stage: &'static str,
    median: Duration,
    min: Duration,
}

/// Runs `f` once to warm up, then `runs` times; returns (median, min).
fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, Duration) {
    black_box(f());
    let mut t: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let out = f();
            let elapsed = start.elapsed();
            drop(black_box(out));
            elapsed
        })
        .collect();
    t.sort();
    (t[t.len() / 2], t[0])
}

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input: PathBuf = match std::env::var_os("SPEC_LINK_BENCH_INPUT") {
        Some(p) => PathBuf::from(p),
        None => root.join("bench-data/bench-10MB.spv"),
    };
    let runs: usize = match std::env::var("SPEC_LINK_BENCH_RUNS") {
        Ok(s) => match s.parse() {
            Ok(n) if n >= 1 => n,
            _ => {
                eprintln!("error: SPEC_LINK_BENCH_RUNS={s:?} is not a positive number");
                return ExitCode::FAILURE;
            }
        },
        Err(_) => 5,
    };
    let bytes = match std::fs::read(&input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!(
                "error: cannot read the bench input {}: {e}\n\
                 Generate it with `scripts/gen-bench.sh --no-link --sizes 10`, or point \
                 SPEC_LINK_BENCH_INPUT at a SPIR-V module.",
                input.display()
            );
            return ExitCode::FAILURE;
        }
    };
    match run(&input, bytes, runs) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}: {e}", input.display());
            ExitCode::FAILURE
        }
    }
}

fn process(bytes: &[u8], name: &str, mode: SpecConstMode) -> spec_link::Result<spec_link::Output> {
    let inputs = [Input::from_bytes(name.to_string(), bytes.to_vec())];
    let options = Options {
        mode,
        validation: Validation::Never,
        ..Default::default()
    };
    spec_link::process(&inputs, &options)
}

fn run(input: &Path, bytes: Vec<u8>, runs: usize) -> spec_link::Result<()> {
    let name = input.display().to_string();
    let mut rows = Vec::new();
    let mut push = |stage, (median, min)| rows.push(Row { stage, median, min });

    // Stages, each fed by the results of the ones before (computed outside the timing).
    push(
        "read file (fs::read)",
        time(runs, || std::fs::read(input).map(|b| b.len()).unwrap_or(0)),
    );
    push(
        "load + split (Module::from_bytes)",
        time(runs, || internals::load(&bytes).map(|m| m.instructions())),
    );
    let module = internals::load(&bytes)?;
    push(
        "index (Index::build)",
        time(runs, || module.index().map(|x| x.functions())),
    );
    let index = module.index()?;
    push(
        "find markers (markers::find_markers)",
        time(runs, || index.find_markers()),
    );
    let found = index.find_markers()?;
    push(
        "assign (specmap::build, native)",
        time(runs, || {
            index.assign_native(&found, spec_link::SpecIdOrder::FirstUse)
        }),
    );
    push(
        "write unedited (Module::write_to a sink)",
        time(runs, || {
            index.write_unedited(&mut std::io::sink()).map(|_| 0)
        }),
    );
    // Whole runs (input copied into an `Input`, as the binary does after reading the file).
    push(
        "copy input bytes (to_vec, part of process below)",
        time(runs, || bytes.to_vec()),
    );
    push(
        "process native",
        time(runs, || {
            process(&bytes, &name, SpecConstMode::Native)
                .map(|o| o.module.write_to(&mut std::io::sink()).map(|_| o.calls))
        }),
    );
    push(
        "process emulation",
        time(runs, || {
            process(&bytes, &name, SpecConstMode::Emulation)
                .map(|o| o.module.write_to(&mut std::io::sink()).map(|_| o.calls))
        }),
    );
    let pt_path = input.with_file_name(format!(
        "{}-passthrough.spv",
        input
            .file_stem()
            .map(|s| s.to_string_lossy())
            .unwrap_or_default()
    ));
    let pt = std::fs::read(&pt_path).ok();
    if let Some(pt) = &pt {
        push(
            "process pass-through (-passthrough.spv)",
            time(runs, || {
                process(pt, &name, SpecConstMode::Native)
                    .map(|o| o.module.write_to(&mut std::io::sink()).map(|_| o.calls))
            }),
        );
    }
    let out = process(&bytes, &name, SpecConstMode::Native)?;

    let mb = bytes.len() as f64 / 1e6;
    println!(
        "spec-link stages on {} ({:.1} MB, {} instructions, {} functions, {} marker calls, {} spec constants); \
         {runs} runs after 1 warm-up",
        input.display(),
        mb,
        module.instructions(),
        index.functions(),
        found.calls(),
        out.spec_map.constants.len()
    );
    if pt.is_none() {
        println!(
            "(no {} beside it: pass-through not timed)",
            pt_path.display()
        );
    }
    println!();
    println!("| stage | median ms | min ms | MB/s (median) |");
    println!("|---|---:|---:|---:|");
    for r in &rows {
        let ms = r.median.as_secs_f64() * 1e3;
        println!(
            "| {} | {:.1} | {:.1} | {:.0} |",
            r.stage,
            ms,
            r.min.as_secs_f64() * 1e3,
            mb / r.median.as_secs_f64()
        );
    }
    Ok(())
}
