//! Hostile and odd input: each case either works or fails with a clear
//! `error:` — never a panic, a hang, or an allocation sized by a declared number.

mod common;

use spec_link::{process, Input, Options, Validation};
use std::path::Path;

fn example() -> String {
    std::fs::read_to_string(common::repo().join("testdata/readme-example/input.spvasm")).unwrap()
}

fn assemble_text(text: &str, name: &str) -> Vec<u8> {
    let dir = common::Scratch::new(&format!("spec-link-hostile-{}-{name}", std::process::id()));
    let p = dir.join(format!("{name}.spvasm"));
    std::fs::write(&p, text).unwrap();
    common::assemble(Path::new(&p))
}

fn run(bytes: Vec<u8>) -> Result<spec_link::Output, spec_link::Error> {
    let opts = Options {
        validation: Validation::Never,
        ..Options::default()
    };
    process(&[Input::from_bytes("hostile.spv", bytes)], &opts)
}

fn expect_err(bytes: Vec<u8>, needle: &str) {
    match run(bytes) {
        Ok(_) => panic!("expected an error containing {needle:?}"),
        Err(e) => assert!(e.to_string().contains(needle), "{e}"),
    }
}

#[test]
fn declared_bound_far_larger_than_the_file_allocates_nothing_by_it() {
    // A module without markers and a bound near u32::MAX passes through unchanged: no table is
    // sized by the bound (that would be 16 GiB).
    let mut bytes =
        std::fs::read(common::fixtures().join("basic/image0.dpcpp-native.spv")).unwrap();
    bytes[12..16].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    let out = run(bytes.clone()).unwrap();
    assert_eq!(out.module.to_bytes().unwrap(), bytes);
}

/// The same bound on a module with markers, split per kernel (its images keep its ids, so their
/// bound is the same): run under a 1 GB address-space limit (`ulimit -v`), where a table of four
/// bytes per id (16 GiB) cannot even be reserved, the split writes its images, and spirv-val
/// accepts each (told that such a bound is allowed: its default limit is 4,194,303).
#[test]
fn split_of_a_declared_bound_far_larger_than_the_file_allocates_nothing_by_it() {
    let mut bytes = std::fs::read(common::fixtures().join("types/image0.input.spv")).unwrap();
    bytes[12..16].copy_from_slice(&0xFFFF_FF00u32.to_le_bytes());
    let dir = common::Scratch::new(&format!(
        "spec-link-hostile-{}-split-bound",
        std::process::id()
    ));
    let input = dir.join("huge-bound.spv");
    std::fs::write(&input, &bytes).unwrap();
    let table = dir.join("out.table");
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            "ulimit -v 1000000 && exec \"$0\" \"$1\" --split per-kernel -o \"$2\" --no-validate",
            env!("CARGO_BIN_EXE_spec-link"),
        ])
        .arg(&input)
        .arg(&table)
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = std::fs::read_to_string(&table).unwrap();
    assert!(listed.lines().count() > 1, "{listed}");
    for row in listed.lines().skip(1) {
        let image = row.split('|').next().unwrap();
        let words = std::fs::read(image).unwrap();
        let bound = u32::from_le_bytes([words[12], words[13], words[14], words[15]]);
        // (Lowering's new ids come after the source's.)
        assert!(bound >= 0xFFFF_FF00, "{image}: bound {bound:#x}");
        common::spirv_val_with(
            &words,
            &["--target-env", "spv1.4", "--max-id-bound", "4294967295"],
            image,
        );
    }
}

#[test]
fn deeply_nested_composite_types_are_an_error() {
    let mut defs = String::from("  %n0 = OpTypeStruct %uint\n");
    for k in 1..=100 {
        defs.push_str(&format!("  %n{k} = OpTypeStruct %n{}\n", k - 1));
    }
    let text = example().replace(
        "  %struct_Pair = OpTypeStruct %uint %uchar\n",
        &format!("{defs}  %struct_Pair = OpTypeStruct %uint %n100\n"),
    );
    expect_err(assemble_text(&text, "deep"), "levels deep");
}

/// Types and constants whose members are shared, 20 levels of 8 (8^20 paths, a few hundred
/// instructions), over an empty struct: no walk follows every path (a default value read
/// through them, a zero default, a type spelled in a message or the sidecar). The constant is an
/// error (too large), the undefined default of the same type lowers, the zero one is an error.
#[test]
fn shared_members_are_not_walked_once_per_path() {
    let mut types = String::from("  %e0 = OpTypeStruct\n");
    let mut consts = String::from("  %k0 = OpConstantComposite %e0\n");
    for k in 1..=20 {
        let members = format!(" %e{}", k - 1).repeat(8);
        let parts = format!(" %k{}", k - 1).repeat(8);
        types.push_str(&format!("  %e{k} = OpTypeStruct{members}\n"));
        consts.push_str(&format!("  %k{k} = OpConstantComposite %e{k}{parts}\n"));
    }
    let with = |value: &str, extra: &str| {
        example()
            .replace(
                "  %struct_Pair = OpTypeStruct %uint %uchar\n",
                &format!("{types}  %struct_Pair = OpTypeStruct %uint %uchar %e20\n"),
            )
            .replace(
                "  %pair = OpConstantComposite %struct_Pair %uint_7 %uchar_120\n",
                &format!(
                    "{extra}  %pair = OpConstantComposite %struct_Pair %uint_7 %uchar_120 {value}\n"
                ),
            )
    };
    expect_err(
        assemble_text(&with("%k20", &consts), "shared-constant"),
        "is nested too deeply or too large",
    );
    let undef = "  %u20 = OpUndef %e20\n";
    let out = run(assemble_text(&with("%u20", undef), "shared-undef")).unwrap();
    assert_eq!(out.spec_map.constants.len(), 2);
    let null = "  %u20 = OpConstantNull %e20\n";
    expect_err(
        assemble_text(&with("%u20", null), "shared-null"),
        "is nested too deeply or too large",
    );
}

/// A type mismatch between linked inputs is spelled in the error, within bounds, however widely
/// the types share their members (8 levels of 64).
#[test]
fn link_type_mismatch_spells_shared_members_within_bounds() {
    let repo = common::repo().join("testdata/link-type-mismatch/inputs");
    let mut types = String::from("  %w0 = OpTypeInt 32 0\n");
    for k in 1..=8 {
        let members = format!(" %w{}", k - 1).repeat(64);
        types.push_str(&format!("  %w{k} = OpTypeStruct{members}\n"));
    }
    let a = std::fs::read_to_string(repo.join("a.spvasm"))
        .unwrap()
        .replace(
            "  %fn = OpTypeFunction %uint\n",
            &format!(
            "{types}  %pw = OpTypePointer CrossWorkgroup %w8\n  %fn = OpTypeFunction %uint %pw\n"
        ),
        );
    let a = a.replace(
        "%v = OpFunctionCall %uint %helper",
        "%v = OpFunctionCall %uint %helper %nw",
    );
    let a = a.replace(
        "  %helper = OpFunction",
        "  %nw = OpConstantNull %pw\n  %helper = OpFunction",
    );
    let a = a.replace(
        "  %helper = OpFunction %uint None %fn\n",
        "  %helper = OpFunction %uint None %fn\n  %hp = OpFunctionParameter %pw\n",
    );
    let b = std::fs::read_to_string(repo.join("b.spvasm")).unwrap();
    let inputs = [
        Input::from_bytes("a.spv", assemble_text(&a, "wide-a")),
        Input::from_bytes("b.spv", assemble_text(&b, "wide-b")),
    ];
    let opts = Options {
        validation: Validation::Never,
        ..Options::default()
    };
    let Err(e) = process(&inputs, &opts) else {
        panic!("expected a type mismatch");
    };
    let message = e.to_string();
    assert!(
        message.contains("type mismatch for \"helper\""),
        "{message}"
    );
    assert!(message.len() < 4096, "{} bytes", message.len());
}

#[test]
fn recursive_struct_types_are_an_error() {
    let text = example().replace(
        "%struct_Pair = OpTypeStruct %uint %uchar",
        "%struct_Pair = OpTypeStruct %uint %struct_Pair",
    );
    expect_err(assemble_text(&text, "recursive"), "levels deep");
}

#[test]
fn looping_spec_constant_op_chain_is_an_error() {
    let text = example()
        .replace(
            "  %null = OpConstantNull %ptr_Generic_uchar\n",
            "  %null = OpConstantNull %ptr_Generic_uchar\n  %loop_a = OpSpecConstantOp %ptr_Generic_uchar Bitcast %loop_b\n  %loop_b = OpSpecConstantOp %ptr_Generic_uchar Bitcast %loop_a\n",
        )
        .replace("%c0 = OpBitcast %ptr_Generic_uchar %usid_int", "%c0 = OpBitcast %ptr_Generic_uchar %loop_a");
    expect_err(
        assemble_text(&text, "loop"),
        "does not resolve to a constant global",
    );
}

#[test]
fn ids_used_before_definition_are_handled() {
    // The marker call's arguments are defined after the call in the instruction stream (invalid
    // SPIR-V, but the walk must not care about order and must not panic).
    let text = example().replace(
        "  %c0 = OpBitcast %ptr_Generic_uchar %usid_int\n  %c1 = OpPtrCastToGeneric %ptr_Generic_spec_int %intId\n  %c2 = OpBitcast %ptr_Generic_uchar %c1\n  %value = OpFunctionCall %uint %get_int %c0 %c2 %null\n",
        "  %value = OpFunctionCall %uint %get_int %c0 %c2 %null\n  %c0 = OpBitcast %ptr_Generic_uchar %usid_int\n  %c1 = OpPtrCastToGeneric %ptr_Generic_spec_int %intId\n  %c2 = OpBitcast %ptr_Generic_uchar %c1\n",
    );
    assert!(text.contains("%value = OpFunctionCall %uint %get_int %c0 %c2 %null\n  %c0"));
    let out = run(assemble_text(&text, "forward")).unwrap();
    assert_eq!(out.spec_map.constants.len(), 2);
}

/// The output of `input` uses no id whose definition spec-link removed.
fn assert_no_dangling(input: &[u8], out: &spec_link::Output, what: &str) {
    let output = out.module.to_bytes().unwrap();
    let dangling = common::dangling_uses(input, &output);
    assert!(
        dangling.is_empty(),
        "{what}: the output uses ids whose definitions were removed: {dangling:?}"
    );
}

/// Runs `bytes` in every mode; each run must fail with an error containing `needle`.
fn expect_err_in_every_mode(bytes: Vec<u8>, needle: &str) {
    for mode in common::MODES {
        let opts = common::unvalidated(mode);
        match process(&[Input::from_bytes("hostile.spv", bytes.clone())], &opts) {
            Ok(_) => panic!("{mode:?}: expected an error containing {needle:?}"),
            Err(e) => assert!(e.to_string().contains(needle), "{mode:?}: {e}"),
        }
    }
}

/// Invalid SPIR-V whose lowering would leave an id used but no longer defined is refused.
#[test]
fn a_marker_parameter_used_outside_its_declaration_is_an_error() {
    let text = example().replace(
        "               OpReturn\n",
        "  %x = OpCopyObject %ptr_Generic_uchar %a1\n               OpReturn\n",
    );
    let bytes = assemble_text(&text, "param-use");
    expect_err_in_every_mode(
        bytes.clone(),
        "is used outside the marker's declaration, by OpCopyObject at word ",
    );
    // The same use by an instruction of an opcode spec-link does not know (every operand is then
    // taken for an id): the error says so.
    let mut words = common::words(&bytes);
    let mut at = 5;
    let mut copies = 0;
    while at < words.len() {
        let n = (words[at] >> 16) as usize;
        if words[at] & 0xffff == 83 {
            words[at] = (words[at] & 0xffff_0000) | 32951;
            copies += 1;
        }
        at += n.max(1);
    }
    assert_eq!(copies, 1, "one OpCopyObject expected");
    expect_err_in_every_mode(
        common::bytes(&words),
        "is used outside the marker's declaration, by opcode 32951 at word ",
    );
    expect_err_in_every_mode(
        common::bytes(&words),
        " (an instruction spec-link cannot decode: every operand is taken for an id)",
    );
}

/// A marker parameter's id equal to a literal of an extended instruction whose set spec-link
/// cannot decode (every operand is then taken for an id): the error names the instruction and the
/// set, so that the user sees it is no real use. The case: `testdata/clang-debuginfo/legacy-O0.spv`
/// (a `DebugFunction`'s Flags, 136, equal to a marker parameter's id) with its debug-info set
/// renamed to one spec-link does not know.
#[test]
fn a_use_by_an_undecodable_extended_instruction_names_the_set() {
    // (The module, and the same with its debug-info set renamed.)
    let read = |name: &str| {
        let path = common::repo().join("testdata/clang-debuginfo").join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (known, unknown) = (&b"SPIRV.debug\0"[..], &b"VENDOR.dbgx\0"[..]);
        let at = bytes
            .windows(known.len())
            .position(|w| w == known)
            .unwrap_or_else(|| panic!("{name} does not import SPIRV.debug"));
        let mut renamed = bytes.clone();
        renamed[at..at + unknown.len()].copy_from_slice(unknown);
        (bytes, renamed)
    };
    let (o0, o0_renamed) = read("legacy-O0.spv");
    expect_err_in_every_mode(
        o0_renamed,
        "is used outside the marker's declaration, by OpExtInst at word 2922 (an instruction of the extended instruction set \"VENDOR.dbgx\", which spec-link cannot decode",
    );
    // At -O2 a DebugValue names a call result, which native lowering must rewrite.
    let (o2, o2_renamed) = read("legacy-O2.spv");
    let opts = common::unvalidated(spec_link::SpecConstMode::Native);
    match process(&[Input::from_bytes("renamed.spv", o2_renamed)], &opts) {
        Ok(_) => panic!("a call result used by an undecodable instruction was lowered"),
        Err(e) => assert!(
            e.to_string().contains("cannot rewrite OpExtInst at word 4018 that uses a marker call result: the instruction cannot be decoded (an instruction of the extended instruction set \"VENDOR.dbgx\""),
            "{e}"
        ),
    }
    // The set known, the same modules lower.
    for (name, bytes) in [("legacy-O0.spv", o0), ("legacy-O2.spv", o2)] {
        for mode in common::MODES {
            let opts = common::unvalidated(mode);
            let out = process(&[Input::from_bytes(name, bytes.clone())], &opts);
            assert!(out.is_ok(), "{name} {mode:?}: {:?}", out.err());
        }
    }
}

#[test]
fn the_void_result_of_an_sret_marker_call_still_used_is_an_error() {
    let text = example().replace(
        "               OpReturn\n",
        "  %x = OpCopyObject %void %unused\n               OpReturn\n",
    );
    expect_err_in_every_mode(
        assemble_text(&text, "void-result-use"),
        "is still used where spec-link cannot replace it (a call that returns through its sret pointer has no value; a use outside the calling function is out of reach), by OpCopyObject at word ",
    );
}

#[test]
fn a_marker_with_instructions_but_no_label_is_an_error() {
    let text = example().replace(
        "  %a2 = OpFunctionParameter %ptr_Generic_uchar\n",
        "  %a2 = OpFunctionParameter %ptr_Generic_uchar\n  %x = OpCopyObject %ptr_Generic_uchar %a2\n",
    );
    expect_err_in_every_mode(assemble_text(&text, "marker-body"), "but no OpLabel");
}

#[test]
fn a_marker_that_is_an_entry_point_is_an_error() {
    let text = example().replace(
        "               OpName %usid_int",
        "               OpEntryPoint Kernel %get_int \"M\"\n               OpName %usid_int",
    );
    expect_err_in_every_mode(assemble_text(&text, "marker-entry"), "an OpEntryPoint");
}

/// A marker whose address is taken cannot go with its calls: the error names the instruction.
#[test]
fn a_marker_whose_address_is_taken_is_an_error_naming_the_use() {
    let text = example()
        .replace(
            "               OpCapability Addresses\n",
            "               OpCapability Addresses\n               OpCapability FunctionPointersINTEL\n               OpExtension \"SPV_INTEL_function_pointers\"\n",
        )
        .replace(
            "  %null = OpConstantNull %ptr_Generic_uchar\n",
            "  %null = OpConstantNull %ptr_Generic_uchar\n  %ptr_fn_int = OpTypePointer CodeSectionINTEL %fn_int\n  %fp = OpConstantFunctionPointerINTEL %ptr_fn_int %get_int\n",
        );
    assert_ne!(text, example(), "the function-pointer edit did not apply");
    expect_err_in_every_mode(
        assemble_text(&text, "marker-address"),
        "is still referenced by something other than a direct call, by OpConstantFunctionPointerINTEL at word ",
    );
}

/// Whatever cleanup removes leaves the entry-point interfaces, not only globals (a local listed
/// there is invalid input, but must not become a dangling id).
#[test]
fn removed_ids_leave_the_entry_point_interfaces() {
    let text = example().replace("%usid_pair %pairId\n", "%usid_pair %pairId %c0\n");
    let input = assemble_text(&text, "interface-local");
    for mode in common::MODES {
        let opts = common::unvalidated(mode);
        let out = process(&[Input::from_bytes("hostile.spv", input.clone())], &opts).unwrap();
        assert_no_dangling(&input, &out, &format!("{mode:?}"));
    }
}

/// An id that an `OpEntryPoint` names as its function is used: cleanup keeps it (a symbolic-ID
/// variable named so is invalid input, but must not become a dangling id).
#[test]
fn an_entry_point_function_is_never_removed() {
    let text = example().replace(
        "               OpName %usid_int",
        "               OpEntryPoint Kernel %usid_int \"X\"\n               OpName %usid_int",
    );
    let input = assemble_text(&text, "entry-variable");
    let out = run(input.clone()).unwrap();
    assert_no_dangling(&input, &out, "native");
}

/// A spec constant whose composite has more elements than one instruction can hold (a
/// `[65533 x i32]` member: 65,536 words; a fuzzer found one) is refused where a composite would
/// be emitted, and lowered by emulation, which loads it from the buffer.
#[test]
fn a_spec_constant_too_wide_for_one_instruction_is_refused_where_it_would_be_emitted() {
    use spec_link::SpecConstMode;
    // Pair becomes { [65533 x u32] }: 65,535 nodes, and an array composite of 65,536 words.
    let text = example()
        .replace(
            "  %struct_Pair = OpTypeStruct %uint %uchar\n",
            "  %ulong_65533 = OpConstant %ulong 65533\n  %wide = OpTypeArray %uint %ulong_65533\n  \
             %wide_0 = OpConstantNull %wide\n  %struct_Pair = OpTypeStruct %wide\n",
        )
        .replace(
            "%pair = OpConstantComposite %struct_Pair %uint_7 %uchar_120",
            "%pair = OpConstantComposite %struct_Pair %wide_0",
        );
    assert!(text.contains("%struct_Pair %wide_0"));
    let input = assemble_text(&text, "wide");
    for mode in common::MODES {
        let opts = common::unvalidated(mode);
        let out = process(&[Input::from_bytes("wide.spv", input.clone())], &opts);
        match (mode, out) {
            (SpecConstMode::Emulation, out) => {
                out.unwrap();
            }
            (_, Ok(_)) => panic!("{mode:?}: a 65,537-operand composite was accepted"),
            (_, Err(e)) => assert!(
                e.to_string()
                    .contains("does not fit one SPIR-V instruction"),
                "{mode:?}: {e}"
            ),
        }
    }
}

/// The fuzzer's module of that finding also uses ids above its bound (flipped bits: `OpDecorate
/// %1073742367` for %543): refused, naming the first, in every mode.
#[test]
fn the_wide_composite_fuzz_finding_is_refused_for_its_stray_ids() {
    let input =
        std::fs::read(common::repo().join("testdata/fuzz-regressions/crash-6aff47dade18caa3.spv"))
            .unwrap();
    for mode in common::MODES {
        let out = process(
            &[Input::from_bytes("wide.spv", input.clone())],
            &common::unvalidated(mode),
        );
        let e = out.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            e.ends_with(
                "word 919 (OpDecorate): id %1073742367 is not below the module's id bound 548"
            ),
            "{mode:?}: {e}"
        );
    }
}

#[test]
fn long_symbolic_ids_with_characters_of_their_own_decode_exactly() {
    // Two 600-character symbolic IDs whose every character is its own constant (600 consecutive
    // ids), the second string reading them in reverse: the finder's memo of decoded characters
    // (a few hundred slots) sees ids collide and be replaced, and each string must still come
    // out exactly.
    const N: usize = 600;
    let byte = |k: usize| b'a' + ((k * 7 + k / 26) % 26) as u8;
    let consts: String = (0..N)
        .map(|k| format!("%k{k} = OpConstant %uchar {}\n", byte(k)))
        .collect();
    let fwd: Vec<String> = (0..N).map(|k| format!("%k{k}")).collect();
    let rev: Vec<String> = (0..N).rev().map(|k| format!("%k{k}")).collect();
    let text = example()
        .replace(
            "%ulong_4 = OpConstant %ulong 4",
            &format!("%ulong_4 = OpConstant %ulong {}", N + 1),
        )
        .replace(
            "%str4 = OpTypeArray",
            &format!("{consts}%str4 = OpTypeArray"),
        )
        .replace(
            "%s_int = OpConstantComposite %str4 %uchar_65 %uchar_73 %uchar_66 %uchar_0",
            &format!(
                "%s_int = OpConstantComposite %str4 {} %uchar_0",
                fwd.join(" ")
            ),
        )
        .replace(
            "%s_pair = OpConstantComposite %str4 %uchar_65 %uchar_66 %uchar_65 %uchar_0",
            &format!(
                "%s_pair = OpConstantComposite %str4 {} %uchar_0",
                rev.join(" ")
            ),
        );
    assert!(text.contains("%k599 %uchar_0") && text.contains("%k0 %uchar_0"));
    let expect_fwd: Vec<u8> = (0..N).map(byte).collect();
    let expect_rev: Vec<u8> = (0..N).rev().map(byte).collect();
    let out = run(assemble_text(&text, "long-ids")).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&[u8]> = out
        .spec_map
        .constants
        .iter()
        .map(|c| &c.symbolic_id.0[..])
        .collect();
    assert_eq!(ids, [&expect_fwd[..], &expect_rev[..]]);
    common::spirv_val(
        &out.module.to_bytes().unwrap(),
        "spv1.4",
        "the module with long symbolic IDs",
    );
}

#[test]
fn a_symbolic_id_character_naming_id_0_is_an_error() {
    // Id 0 is never defined: a string holding it (after characters that decoded fine) is
    // refused by the id checks, at the composite that uses it, before any marker is read.
    let text = example()
        .replace(
            "%uchar_120 = OpConstant %uchar 120",
            "%uchar_120 = OpConstant %uchar 120\n%uchar_99 = OpConstant %uchar 99",
        )
        .replace(
            "%s_pair = OpConstantComposite %str4 %uchar_65 %uchar_66 %uchar_65 %uchar_0",
            "%s_pair = OpConstantComposite %str4 %uchar_65 %uchar_66 %uchar_99 %uchar_0",
        );
    let mut words = common::words(&assemble_text(&text, "char-id-0"));
    // The id of the constant 99, then its one use (in %s_pair) set to 0.
    let mut at = 5;
    let mut c99 = None;
    while at < words.len() {
        let n = (words[at] >> 16) as usize;
        let w = &words[at..at + n];
        if w[0] & 0xffff == 43 && n == 4 && w[3] == 99 {
            c99 = Some(w[2]);
        }
        if w[0] & 0xffff == 44 {
            if let Some(k) = w.iter().skip(3).position(|&x| Some(x) == c99) {
                words[at + 3 + k] = 0;
            }
        }
        at += n;
    }
    assert!(c99.is_some());
    expect_err(
        common::bytes(&words),
        "(OpConstantComposite): id %0 is never defined in the module",
    );
}

/// Two inputs that each define the exports `f00000` … of a call chain, the first calling the
/// second and so on (each caller before its callee in name order, so that a caller's copies
/// match only once its callee's have merged): every copy merges and the output has one chain.
/// A name whose copies differ only in naming copies of another name waits for that name alone,
/// so the merge is linear in the chain's depth (0.01 s at this depth, 0.05 s at 10,000;
/// re-comparing every remaining name once per merged one is quadratic: 2.9 s and 32 s). When the chains' last functions differ, no copy merges: every name is an error.
#[test]
fn a_deep_chain_of_copies_merges_in_one_pass() {
    const DEPTH: usize = 3000;
    let module = |kernel: &str, leaf: &str| {
        let mut text = String::from(
            "OpCapability Addresses\nOpCapability Linkage\nOpCapability Kernel\n\
             OpMemoryModel Physical64 OpenCL\n",
        );
        text.push_str(&format!("OpEntryPoint Kernel %k \"{kernel}\"\n"));
        for i in 0..DEPTH {
            text.push_str(&format!(
                "OpDecorate %f{i} LinkageAttributes \"f{i:05}\" Export\n"
            ));
        }
        text.push_str(
            "%uint = OpTypeInt 32 0\n%void = OpTypeVoid\n%fty = OpTypeFunction %uint %uint\n\
             %kty = OpTypeFunction %void\n%one = OpConstant %uint 1\n",
        );
        for i in 0..DEPTH {
            let body = if i + 1 < DEPTH {
                format!(
                    "%r{i} = OpFunctionCall %uint %f{} %p{i}\nOpReturnValue %r{i}\n",
                    i + 1
                )
            } else {
                format!("{leaf}OpReturnValue %p{i}\n")
            };
            text.push_str(&format!(
                "%f{i} = OpFunction %uint None %fty\n%p{i} = OpFunctionParameter %uint\n\
                 %l{i} = OpLabel\n{body}OpFunctionEnd\n"
            ));
        }
        text.push_str(
            "%k = OpFunction %void None %kty\n%kl = OpLabel\n\
             %kr = OpFunctionCall %uint %f0 %one\nOpReturn\nOpFunctionEnd\n",
        );
        assemble_text(&text, &format!("chain-{kernel}"))
    };
    let inputs = [
        Input::from_bytes("a.spv", module("ka", "")),
        Input::from_bytes("b.spv", module("kb", "")),
    ];
    let opts = Options {
        validation: Validation::Never,
        ..Options::default()
    };
    let out = match process(&inputs, &opts) {
        Ok(out) => out,
        Err(e) => panic!("linking the chains: {e}"),
    };
    let notes = out.link_report.map(|r| r.notes).unwrap_or_default();
    assert!(
        notes.iter().any(
            |n| matches!(n, spec_link::Diagnostic::CopiesMerged { symbols }
            if symbols.len() == DEPTH && symbols[0] == "f00000")
        ),
        "{notes:?}"
    );
    let mut bytes = Vec::new();
    out.module.write_to(&mut bytes).unwrap();
    let words = common::words(&bytes);
    let (mut at, mut functions) = (5, 0);
    while at < words.len() {
        functions += usize::from(words[at] & 0xffff == 54);
        at += (words[at] >> 16) as usize;
    }
    assert_eq!(functions, DEPTH + 2, "one chain and the two kernels");
    common::spirv_val(&bytes, "spv1.4", "the linked chains");

    let differing = [
        Input::from_bytes("a.spv", module("ka", "")),
        Input::from_bytes("c.spv", module("kc", "OpNop\n")),
    ];
    let Err(e) = process(&differing, &opts) else {
        panic!("chains whose last functions differ linked");
    };
    let message = e.to_string();
    for i in [0, DEPTH - 1] {
        assert!(
            message.contains(&format!(
                "symbol \"f{i:05}\" is exported by a.spv and c.spv"
            )),
            "{}",
            &message[..message.len().min(2000)]
        );
    }
}
