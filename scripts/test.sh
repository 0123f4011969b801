#!/usr/bin/env bash
# Runs every test of spec-link: unit, golden (testdata/), DPC++ acceptance cases, DPC++ fixtures
# (testdata/dpcpp-fixtures, or $SPEC_LINK_FIXTURES), CLI and bad input, and execution on the Intel
# CPU OpenCL runtime. Needs what scripts/setup.sh installs; a missing tool fails the tests that
# need it, naming the tool. Tests of features not implemented yet are marked #[ignore] with the
# reason, and cargo lists them as ignored (never as passed).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
cargo test --locked --lib --bins --tests
# The README's and the crate docs' Rust examples.
cargo test --locked --doc
