//! Big modules take the paths small test modules never reach (the use count of cleanup runs on
//! two threads from 200,000 instructions on): padding a DPC++ fixture with 400,000 `OpNoLine`
//! (no ids, no effect) must give the unpadded result, padding aside, in every mode.

mod common;

use spec_link::{process, Input, Options, SpecConstMode, Validation};

const NO_LINE: u32 = (1 << 16) | 317;
const OP_LABEL: u32 = 248;

/// Word offsets of the instructions after the header.
fn instructions(w: &[u32]) -> Vec<usize> {
    let mut at = 5;
    let mut out = Vec::new();
    while at < w.len() {
        out.push(at);
        at += (w[at] >> 16) as usize;
    }
    out
}

use common::{bytes, words};

/// The module with `n` OpNoLine after the first and after the last OpLabel (2n after the only
/// one): the marker calls and the globals they use fall on both sides of the module's middle.
fn padded(input: &[u8], n: usize) -> Vec<u8> {
    let w = words(input);
    let labels: Vec<usize> = instructions(&w)
        .into_iter()
        .filter(|&a| w[a] & 0xffff == OP_LABEL)
        .collect();
    assert!(!labels.is_empty(), "the fixture has no function body");
    let (first, last) = (labels[0] + 2, *labels.last().unwrap() + 2);
    let mut out = w[..first].to_vec();
    out.extend(std::iter::repeat_n(NO_LINE, n));
    out.extend_from_slice(&w[first..last]);
    out.extend(std::iter::repeat_n(NO_LINE, n));
    out.extend_from_slice(&w[last..]);
    bytes(&out)
}

fn without_no_lines(b: &[u8]) -> Vec<u32> {
    let w = words(b);
    let mut out = w[..5].to_vec();
    for a in instructions(&w) {
        if w[a] != NO_LINE {
            out.extend_from_slice(&w[a..a + (w[a] >> 16) as usize]);
        }
    }
    out
}

#[test]
fn padded_fixtures_lower_as_the_unpadded_ones() {
    for fixture in ["basic", "basic-O0", "types"] {
        let input =
            std::fs::read(common::fixtures().join(fixture).join("image0.input.spv")).unwrap();
        let big = padded(&input, 200_000);
        for mode in common::MODES {
            let opts = common::unvalidated(mode);
            let small_out = process(&[Input::from_bytes(fixture, input.clone())], &opts).unwrap();
            let big_out = process(&[Input::from_bytes(fixture, big.clone())], &opts).unwrap();
            let (s, b) = (
                small_out.module.to_bytes().unwrap(),
                big_out.module.to_bytes().unwrap(),
            );
            assert!(
                b.len() > s.len() + 4 * 399_000,
                "{fixture} {mode:?}: the padding is gone"
            );
            assert!(
                words(&s) != words(&input),
                "{fixture} {mode:?}: nothing was lowered"
            );
            assert_eq!(
                without_no_lines(&b),
                without_no_lines(&s),
                "{fixture} {mode:?}"
            );
            assert_eq!(big_out.prop, small_out.prop, "{fixture} {mode:?}");
            // The padded output is a module too: spirv-val must accept it (fails, not skips,
            // without spirv-val).
            common::spirv_val(
                &b,
                "spv1.4",
                &format!("the padded {fixture} output ({mode:?})"),
            );
        }
    }
}

/// The two indexing threads find different errors; the first in instruction order is reported.
#[test]
fn the_first_error_in_instruction_order_wins_on_big_modules() {
    let input = std::fs::read(common::fixtures().join("types/image0.input.spv")).unwrap();
    let w = words(&padded(&input, 200_000));
    let at = instructions(&w);
    // A type id (defined once) and the first and last padding positions.
    let ty_at = *at
        .iter()
        .find(|&&a| (19..=39).contains(&(w[a] & 0xffff)))
        .unwrap();
    let ty = w[ty_at + 1];
    let pads: Vec<usize> = at.iter().copied().filter(|&a| w[a] == NO_LINE).collect();
    let (early, late) = (pads[10], pads[pads.len() - 10]);
    // Found by the definitions pass: `%r = OpUndef %ty` with r = ty.
    let defined_twice = [(3 << 16) | 1, ty, ty];
    // Found by the other pass: a parameter in a block.
    let parameter = [(3 << 16) | 55, ty, w[3] - 1];
    let with = |first: (usize, &[u32]), second: (usize, &[u32])| -> String {
        let mut out = w[..first.0].to_vec();
        out.extend_from_slice(first.1);
        out.extend_from_slice(&w[first.0..second.0]);
        out.extend_from_slice(second.1);
        out.extend_from_slice(&w[second.0..]);
        let opts = Options {
            validation: Validation::Never,
            ..Options::default()
        };
        match process(&[Input::from_bytes("big.spv", bytes(&out))], &opts) {
            Ok(_) => panic!("a malformed module was accepted"),
            Err(e) => e.to_string(),
        }
    };
    let a = with((early, &defined_twice), (late, &parameter));
    assert!(a.contains(&format!("id %{ty} is defined twice")), "{a}");
    let b = with((early, &parameter), (late, &defined_twice));
    assert!(b.contains("parameter outside a function header"), "{b}");
}

/// Emulation refuses a marker reachable through a function whose id is used other than by a
/// direct call; on big modules that scan runs on two threads, and a use in either half is found.
#[test]
fn a_function_pointer_is_found_in_either_half_of_a_big_module() {
    // In the globals (the first half once padded)...
    let (text, global) = common::threading_with_function_pointer();
    // ... or in the last function, after the second padding (the second half).
    let body = text.replace(
        "               OpStore %o3 %uint_5 Aligned 4\n",
        "               OpStore %o3 %uint_5 Aligned 4\n  %cp = OpCopyObject %uint %get\n",
    );
    let dir = std::env::temp_dir().join(format!("spec-link-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (case, t) in [("global", &global), ("body", &body)] {
        assert_ne!(t, &text, "{case}: the edit did not apply");
        let path = dir.join(format!("{case}.spvasm"));
        std::fs::write(&path, t).unwrap();
        let input = padded(&common::assemble(&path), 200_000);
        let opts = Options {
            mode: SpecConstMode::Emulation,
            validation: Validation::Never,
            ..Options::default()
        };
        match process(&[Input::from_bytes(format!("{case}.spv"), input)], &opts) {
            Ok(_) => panic!("{case}: a function pointer to a marker caller was accepted"),
            Err(e) => assert!(
                e.to_string()
                    .contains("function pointer or an indirect call of get"),
                "{case}: {e}"
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A candidate of cleanup used where nothing will remove the use, in both halves of a big module
/// (a type in the globals, an add in the body), is kept: each half's count pins it, and the two
/// pins add up to a pin.
#[test]
fn a_constant_pinned_in_both_halves_is_kept() {
    let example =
        std::fs::read_to_string(common::repo().join("testdata/readme-example/input.spvasm"))
            .unwrap();
    // %uint_7 is the default value's first member: a candidate once the marker call goes.
    let text = example
        .replace(
            "  %str4 = OpTypeArray %uchar %ulong_4\n",
            "  %str4 = OpTypeArray %uchar %ulong_4\n  %arr7 = OpTypeArray %uchar %uint_7\n",
        )
        .replace(
            "               OpStore %o2 %sum Aligned 4\n",
            "  %sum7 = OpIAdd %uint %sum %uint_7\n               OpStore %o2 %sum7 Aligned 4\n",
        );
    assert_eq!(
        text.matches("%uint_7").count(),
        4,
        "the edits did not apply"
    );
    let dir = std::env::temp_dir().join(format!("spec-link-big-pin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pinned.spvasm");
    std::fs::write(&path, &text).unwrap();
    let small = common::assemble(&path);
    let _ = std::fs::remove_dir_all(&dir);
    let big = padded(&small, 200_000);
    for mode in common::MODES {
        let opts = common::unvalidated(mode);
        for (size, input) in [("small", &small), ("big", &big)] {
            let out = process(&[Input::from_bytes("pinned.spv", input.clone())], &opts).unwrap();
            let output = out.module.to_bytes().unwrap();
            let dangling = common::dangling_uses(input, &output);
            assert!(
                dangling.is_empty(),
                "{size}, {mode:?}: dangling {dangling:?}"
            );
            // A valid module in, a valid module out (fails, not skips, without spirv-val).
            common::spirv_val(&output, "spv1.4", &format!("the {size} output ({mode:?})"));
        }
    }
}

const OP_FUNCTION_CALL: u32 = 57;

/// The module with every `OpFunctionCall` repeated `n` more times, each copy with a fresh result
/// id (unused): a module dense with marker calls when the fixture calls only markers.
fn with_calls_repeated(input: &[u8], n: usize) -> Vec<u8> {
    let w = words(input);
    let mut bound = w[3];
    let mut out = w[..5].to_vec();
    for a in instructions(&w) {
        let inst = &w[a..a + (w[a] >> 16) as usize];
        out.extend_from_slice(inst);
        if inst[0] & 0xffff == OP_FUNCTION_CALL {
            for _ in 0..n {
                let mut copy = inst.to_vec();
                copy[2] = bound;
                bound += 1;
                out.extend_from_slice(&copy);
            }
        }
    }
    out[3] = bound;
    bytes(&out)
}

/// A mapped module dense with marker calls (more per-call data than a quarter of its size) has
/// its pages given back behind each pass, which must change no byte of any output: it lowers
/// as the same module read into memory (never released), in every mode. Big enough for every
/// pass to give pages back as it goes (and for cleanup's use count to run on two threads).
#[test]
fn giving_the_input_back_behind_the_passes_changes_nothing() {
    let scratch = common::Scratch::new("spec-link-big-release");
    // (-O0: the calls' arguments come through stores and loads, the most cleanup has to do.)
    for fixture in ["basic-O0"] {
        let input =
            std::fs::read(common::fixtures().join(fixture).join("image0.input.spv")).unwrap();
        let dense = with_calls_repeated(&input, 70_000);
        assert!(
            dense.len() > 4 << 20,
            "{fixture}: only {} bytes",
            dense.len()
        );
        let path = scratch.join(format!("{fixture}.spv"));
        std::fs::write(&path, &dense).unwrap();
        for mode in common::MODES {
            let opts = Options {
                sidecars: true,
                ..common::unvalidated(mode)
            };
            let mapped =
                spec_link::process_owned(vec![Input::open(&path, false).unwrap()], &opts).unwrap();
            assert!(
                mapped.input_released,
                "{fixture} {mode:?}: the input was not given back"
            );
            let read = process(&[Input::from_bytes(fixture, dense.clone())], &opts).unwrap();
            assert!(!read.input_released, "{fixture} {mode:?}: words in memory");
            assert!(
                read.calls > 200_000,
                "{fixture} {mode:?}: {} calls",
                read.calls
            );
            let out = mapped.module.to_bytes().unwrap();
            assert!(
                out == read.module.to_bytes().unwrap(),
                "{fixture} {mode:?}: the outputs differ"
            );
            assert_eq!(mapped.prop, read.prop, "{fixture} {mode:?}");
            assert_eq!(mapped.json, read.json, "{fixture} {mode:?}");
            common::spirv_val(
                &out,
                "spv1.4",
                &format!("the dense {fixture} output ({mode:?})"),
            );
        }
    }
    // A module with few calls for its size keeps its pages (mapping them again would cost time),
    // once it is big enough for the process's fixed memory not to weigh on it (20 MB).
    let input = std::fs::read(common::fixtures().join("basic/image0.input.spv")).unwrap();
    let sparse = scratch.join("sparse.spv");
    std::fs::write(&sparse, padded(&input, 2_500_000)).unwrap();
    let out = spec_link::process_owned(
        vec![Input::open(&sparse, false).unwrap()],
        &common::unvalidated(SpecConstMode::Native),
    )
    .unwrap();
    assert!(out.calls > 0 && !out.input_released);
    // A small one gives them back: the process's own memory would otherwise put it over twice
    // the module.
    std::fs::write(&sparse, padded(&input, 200_000)).unwrap();
    let out = spec_link::process_owned(
        vec![Input::open(&sparse, false).unwrap()],
        &common::unvalidated(SpecConstMode::Native),
    )
    .unwrap();
    assert!(out.calls > 0 && out.input_released);
}
