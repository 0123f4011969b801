//! Keeps the README's worked example current: its "before" lines must appear, in order, in
//! `testdata/readme-example/input.spvasm`, its "after" lines in the golden disassembly, and its
//! `.prop` block must equal the golden `.prop`. (The README's Rust blocks are doctests: see the
//! end of `src/lib.rs`.)

mod common;

fn block(readme: &str, marker: &str) -> Vec<String> {
    let start = readme
        .find(marker)
        .unwrap_or_else(|| panic!("README lacks {marker}"));
    let rest = &readme[start..];
    let open = rest.find("```text\n").expect("code block") + "```text\n".len();
    let close = rest[open..].find("```").expect("end of code block");
    rest[open..open + close]
        .lines()
        .map(|l| l.to_string())
        .collect()
}

fn appears_in_order(lines: &[String], text: &str) -> Result<(), String> {
    let hay: Vec<&str> = text.lines().map(str::trim).collect();
    let mut at = 0;
    for l in lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
        match hay[at..].iter().position(|h| *h == l) {
            Some(p) => at += p + 1,
            None => return Err(format!("line not found (in order): {l}")),
        }
    }
    Ok(())
}

#[test]
fn readme_example_is_current() {
    let root = common::repo();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let dir = root.join("testdata/readme-example");
    let input = std::fs::read_to_string(dir.join("input.spvasm")).unwrap();
    let expected = std::fs::read_to_string(dir.join("expected.spvasm")).unwrap();
    let prop = std::fs::read_to_string(dir.join("expected.prop")).unwrap();
    appears_in_order(&block(&readme, "<!-- readme-example:before -->"), &input).unwrap();
    appears_in_order(&block(&readme, "<!-- readme-example:after -->"), &expected).unwrap();
    let readme_prop = block(&readme, "<!-- readme-example:prop -->").join("\n") + "\n";
    assert_eq!(
        readme_prop, prop,
        "README .prop block differs from testdata/readme-example/expected.prop"
    );
}
