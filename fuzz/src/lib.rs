//! The code behind the spec-link fuzz targets, shared by the libFuzzer targets (`fuzz_targets/`),
//! the libFuzzer-free fallback harness (`src/bin/smoke.rs`) and `fuzz-tool` (seed corpora, replay,
//! materialising a `mutate` input into the module it stands for).
//!
//! Every target calls the library ([`spec_link::process`]) with `validation: Validation::Never` and
//! `sidecars: true`; only panics, crashes, hangs and memory blow-ups count as findings (errors are
//! the expected answer to most inputs). When a run succeeds, its output module is processed again
//! with the same options (spec-link must read its own output); with `SPEC_LINK_FUZZ_STRICT=1` that
//! second run must also succeed and find no marker call (idempotence), and processing the input
//! twice must give byte-identical outputs (determinism), else the target panics.
//!
//! Input formats:
//! - `lower`: `[mode] ++ module bytes`;
//! - `link`: `[split lo, split hi, flags] ++ payload`; the payload is cut in two at
//!   `split % (len + 1)` and the two halves are linked; `flags` bits 0–1 are the mode, bit 2
//!   `allow_partial`, bit 3 `create_library`, bit 4 `renumber_spec_ids`;
//! - `mutate`: see [`mutate`].
//!
//! Mode byte (`mode % 4`): 0 native, 1 emulation (aligned), 2 default-values, 3 emulation (packed).

pub mod mutate;

use spec_link::{link::LinkOptions, process, EmulationLayout, Input, Options, SpecConstMode, SpecIdOrder, Validation};

/// The seed modules (see `build.rs`), sorted by name.
pub mod seeds {
    include!(concat!(env!("OUT_DIR"), "/seeds.rs"));
}

/// Options for a mode byte (`mode % 4`: native, emulation aligned, default-values, emulation packed;
/// bit 2: SpecIds in DPC++'s order instead of first use).
pub fn options(mode_byte: u8) -> Options {
    let (mode, emulation_layout) = match mode_byte % 4 {
        0 => (SpecConstMode::Native, EmulationLayout::Aligned),
        1 => (SpecConstMode::Emulation, EmulationLayout::Aligned),
        2 => (SpecConstMode::DefaultValues, EmulationLayout::Aligned),
        _ => (SpecConstMode::Emulation, EmulationLayout::Packed),
    };
    Options {
        mode,
        emulation_layout,
        spec_id_order: if mode_byte & 4 != 0 { SpecIdOrder::Dpcpp } else { SpecIdOrder::FirstUse },
        validation: Validation::Never,
        target_env: None,
        link: LinkOptions::default(),
        sidecars: true,
        // The emulation modes index every input, markers or not (as emulation with sidecars did
        // before pass-through covered every mode): malformed modules without markers reach the
        // index and the marker search there.
        pass_through: !matches!(mode, SpecConstMode::Emulation),
    }
}

/// Name of a mode byte, for reports.
pub fn mode_name(mode: u8) -> &'static str {
    match mode % 8 {
        0 => "native",
        1 => "emulation (aligned)",
        2 => "default-values",
        3 => "emulation (packed)",
        4 => "native, DPC++ order",
        5 => "emulation (aligned), DPC++ order",
        6 => "default-values, DPC++ order",
        _ => "emulation (packed), DPC++ order",
    }
}

fn strict() -> bool {
    static STRICT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *STRICT.get_or_init(|| std::env::var_os("SPEC_LINK_FUZZ_STRICT").is_some_and(|v| v != "0" && !v.is_empty()))
}

/// Runs spec-link on `inputs`; on success runs it again on the output (see the crate docs).
pub fn check(inputs: &[Input], options: &Options) {
    let _ = check_report(inputs, options);
}

/// [`check`], describing what happened (for `fuzz-tool replay`).
pub fn check_report(inputs: &[Input], options: &Options) -> String {
    let out = match process(inputs, options) {
        Ok(out) => out,
        Err(e) => return format!("error: {e}"),
    };
    let calls = out.calls;
    if strict() {
        if let Ok(twin) = process(inputs, options) {
            assert!(
                twin.module.to_bytes().ok() == out.module.to_bytes().ok()
                    && twin.prop == out.prop
                    && twin.json == out.json,
                "two runs on the same input gave different outputs"
            );
        } else {
            panic!("a second run on the same input failed");
        }
    }
    let module = match out.module.to_bytes() {
        Ok(m) => m,
        Err(e) => return format!("error writing the output: {e}"),
    };
    if strict() {
        // Cleanup never removes a definition that is still used (a single little-endian input:
        // linking renumbers ids).
        if let [one] = inputs {
            if let Some(input) = one.bytes().ok().filter(|b| b.starts_with(&0x0723_0203u32.to_le_bytes())) {
                let words = |b: &[u8]| -> Vec<u32> {
                    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
                };
                let dangling = spec_link::internals::dangling_uses(&words(&input), &words(&module));
                assert!(dangling.is_empty(), "the output uses ids whose definitions were removed: {dangling:?}");
            }
        }
    }
    let again = process(&[Input::from_bytes("output.spv", module)], options);
    if strict() {
        match &again {
            Ok(o) => assert!(o.calls == 0, "spec-link's output still has {} marker call(s)", o.calls),
            Err(e) => panic!("spec-link cannot read its own output: {e}"),
        }
    }
    match again {
        Ok(o) => format!("ok ({calls} calls); output re-read: ok ({} calls)", o.calls),
        Err(e) => format!("ok ({calls} calls); output re-read: error: {e}"),
    }
}

/// The inputs and options a `lower` input stands for.
pub fn decode_lower(data: &[u8]) -> Option<(Vec<Input>, Options)> {
    let (&mode, module) = data.split_first()?;
    Some((vec![Input::from_bytes("fuzz.spv", module.to_vec())], options(mode)))
}

/// The inputs and options a `link` input stands for.
pub fn decode_link(data: &[u8]) -> Option<(Vec<Input>, Options)> {
    if data.len() < 3 {
        return None;
    }
    let split = u16::from_le_bytes([data[0], data[1]]) as usize;
    let flags = data[2];
    let payload = &data[3..];
    let at = split % (payload.len() + 1);
    let mut opts = options(flags & 3);
    opts.link = LinkOptions {
        allow_partial: flags & 4 != 0,
        create_library: flags & 8 != 0,
        renumber_spec_ids: flags & 16 != 0,
    };
    let inputs =
        vec![Input::from_bytes("a.spv", payload[..at].to_vec()), Input::from_bytes("b.spv", payload[at..].to_vec())];
    Some((inputs, opts))
}

/// The inputs and options a `mutate` input stands for.
pub fn decode_mutate(data: &[u8]) -> Option<(Vec<Input>, Options)> {
    let m = mutate::decode(data)?;
    let opts = options(m.mode);
    Some((m.inputs, opts))
}

/// Target `lower`: `[mode] ++ module` → process.
pub fn run_lower(data: &[u8]) {
    if let Some((inputs, opts)) = decode_lower(data) {
        check(&inputs, &opts);
    }
}

/// Target `link`: two halves of the payload linked → process.
pub fn run_link(data: &[u8]) {
    if let Some((inputs, opts)) = decode_link(data) {
        check(&inputs, &opts);
    }
}

/// Target `mutate`: a real module, mutated structurally → process.
pub fn run_mutate(data: &[u8]) {
    if let Some((inputs, opts)) = decode_mutate(data) {
        check(&inputs, &opts);
    }
}

/// A target's entry point.
pub type Target = fn(&[u8]);
/// What an input of a target stands for: the inputs and options of the run.
pub type Decoder = fn(&[u8]) -> Option<(Vec<Input>, Options)>;

/// The targets by name.
pub const TARGETS: &[(&str, Target)] = &[("lower", run_lower), ("link", run_link), ("mutate", run_mutate)];

/// The decoder of a target by name.
pub fn decoder(target: &str) -> Option<Decoder> {
    match target {
        "lower" => Some(decode_lower),
        "link" => Some(decode_link),
        "mutate" => Some(decode_mutate),
        _ => None,
    }
}

/// The initial corpus of a target: `(file name, bytes)`.
pub fn seed_corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let seeds = seeds::SEEDS;
    let flat = |n: &str| n.replace(['/', '.'], "_");
    let mut out = Vec::new();
    match target {
        "lower" => {
            for (name, bytes) in seeds {
                for mode in 0..4u8 {
                    let mut v = vec![mode];
                    v.extend_from_slice(bytes);
                    out.push((format!("{}-m{mode}", flat(name)), v));
                }
            }
        }
        "link" => {
            // The link-* cases' inputs, consecutive pairs, in every mode; plus each DPC++ fixture
            // with each other (different modules with the same marker declarations).
            let mut groups: Vec<(&str, Vec<&[u8]>)> = Vec::new();
            for (name, bytes) in seeds {
                if let Some(rest) = name.strip_prefix("testdata/") {
                    if let Some((case, _)) = rest.split_once("/inputs/") {
                        match groups.last_mut() {
                            Some((c, v)) if *c == case => v.push(bytes),
                            _ => groups.push((case, vec![bytes])),
                        }
                    }
                }
            }
            let fixtures: Vec<&[u8]> =
                seeds.iter().filter(|(n, _)| n.starts_with("fixtures/")).map(|(_, b)| *b).collect();
            for (i, a) in fixtures.iter().enumerate() {
                for b in fixtures.iter().skip(i + 1) {
                    groups.push(("fixtures", vec![a, b]));
                }
            }
            for (k, (case, mods)) in groups.iter().enumerate() {
                for (i, pair) in mods.windows(2).enumerate() {
                    for flags in [0u8, 1, 2, 3, 4 | 8, 16] {
                        let at = pair[0].len() as u16;
                        let mut v = at.to_le_bytes().to_vec();
                        v.push(flags);
                        v.extend_from_slice(pair[0]);
                        v.extend_from_slice(pair[1]);
                        out.push((format!("{case}-{k}-{i}-f{flags}"), v));
                    }
                }
            }
        }
        "mutate" => {
            for (i, (name, _)) in seeds.iter().enumerate() {
                for mode in 0..4u8 {
                    out.push((format!("{}-m{mode}", flat(name)), vec![i as u8, mode]));
                }
            }
        }
        _ => {}
    }
    out
}
