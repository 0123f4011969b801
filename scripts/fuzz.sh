#!/usr/bin/env bash
# Fuzzes spec-link: scripts/fuzz.sh [MINUTES]   (default 3; split evenly over the targets)
#
# Targets (fuzz/, a cargo-fuzz project outside the main workspace; see fuzz/src/lib.rs):
#   lower   bytes -> process (native, emulation aligned/packed, default-values)
#   link    bytes cut in two -> process linking both
#   mutate  structure-aware: a real module (testdata/, DPC++ fixtures) with instructions flipped,
#           dropped, duplicated, swapped, truncated, marker arguments and types changed -> process
#
# Engine: libFuzzer through cargo-fuzz when it builds (stable Rust is allowed nightly flags with
# RUSTC_BOOTSTRAP=1), else the libFuzzer-free fallback fuzz/src/bin/smoke.rs (seeded PRNG mutations,
# catch_unwind). Findings (panics, crashes, inputs slower than FUZZ_TIMEOUT, memory blow-ups) are saved in
# fuzz/artifacts/<target>/, replayed to print the panic message and location, and written as
# raw modules to testdata/fuzz-regressions/crash-<hash>.spv (linking: crash-<hash>.1.spv and .2.spv).
# The corpus grows in fuzz/corpus/<target>/ (git-ignored), seeded from testdata/ and the fixtures.
#
# Environment:
#   FUZZ_TARGETS    targets to run (default "lower link mutate")
#   FUZZ_ENGINE     auto (default) | libfuzzer | smoke
#   FUZZ_SANITIZER  none (default: the library is safe Rust but for the input mapping and two byte views of word slices in src/module/, and this runs ~5x faster) | address
#   FUZZ_JOBS       libFuzzer worker processes per target (default 1)
#   FUZZ_TIMEOUT    per-input time limit in seconds (default 10)
#   FUZZ_RSS_MB     memory limit in MB (default 2048; one allocation above it is a finding too)
#   FUZZ_TMIN       1: minimise each crash with `cargo fuzz tmin` before writing the regression file
#   FUZZ_NO_REGRESSIONS  1: do not write testdata/fuzz-regressions/
#   SPEC_LINK_FUZZ_STRICT  1: also require that spec-link reads its own output and finds no marker in
#                   it, that two runs give identical outputs, and that the output of a single input
#                   uses no id whose definition spec-link removed
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUZZ="$REPO/fuzz"
cd "$FUZZ"

MINUTES="${1:-3}"
TARGETS=(${FUZZ_TARGETS:-lower link mutate})
ENGINE="${FUZZ_ENGINE:-auto}"
SAN="${FUZZ_SANITIZER:-none}"
JOBS="${FUZZ_JOBS:-1}"
TIMEOUT="${FUZZ_TIMEOUT:-10}"
RSS="${FUZZ_RSS_MB:-2048}"
REGRESSIONS="$REPO/testdata/fuzz-regressions"
SECONDS_PER_TARGET=$(awk -v m="$MINUTES" -v n="${#TARGETS[@]}" 'BEGIN { s = int(m * 60 / n); if (s < 1) s = 1; print s }')
TRIPLE="$(rustc -vV | sed -n 's/^host: //p')"
RUN_DIR="$FUZZ/runs/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$RUN_DIR"
export RUSTC_BOOTSTRAP=1
REV="$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
git -C "$REPO" diff --quiet HEAD -- src 2>/dev/null || REV="$REV+local changes to src/"

echo "== building the helper tools (fuzz-tool, smoke)"
cargo build --quiet --release --no-default-features --features tools
TOOL="$FUZZ/target/release/fuzz-tool"
SMOKE="$FUZZ/target/release/smoke"

if [[ "$ENGINE" == auto || "$ENGINE" == libfuzzer ]]; then
    echo "== building the libFuzzer targets (cargo fuzz build -O -s $SAN)"
    if cargo fuzz --version >/dev/null 2>&1 && cargo fuzz build -O -s "$SAN" >"$RUN_DIR/build.log" 2>&1; then
        ENGINE=libfuzzer
    elif [[ "$ENGINE" == libfuzzer ]]; then
        echo "error: cargo fuzz could not build the targets (see $RUN_DIR/build.log)" >&2
        exit 1
    else
        echo "   cargo fuzz unavailable or failed (see $RUN_DIR/build.log); using the fallback harness"
        ENGINE=smoke
    fi
fi
echo "== engine: $ENGINE; $SECONDS_PER_TARGET s per target; run log in ${RUN_DIR#$REPO/}"

declare -A EXECS CRASHES NEWFILES
for t in "${TARGETS[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    "$TOOL" seed-corpus "$t" "corpus/$t" >/dev/null
    before="$(ls "artifacts/$t" | grep -E '^(crash|timeout|oom|slow-unit|leak)-' | sort || true)"
    log="$RUN_DIR/$t.log"
    echo "-- $t: fuzzing for $SECONDS_PER_TARGET s"
    if [[ "$ENGINE" == libfuzzer ]]; then
        max_len=65536
        extra=()
        if [[ "$t" == mutate ]]; then max_len=512; extra=(-len_control=0); fi
        # fork mode keeps going after a finding (-ignore_*); the last "#N:" status line has the totals
        "target/$TRIPLE/release/$t" "corpus/$t" -fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 \
            -ignore_ooms=1 -max_total_time="$SECONDS_PER_TARGET" -timeout="$TIMEOUT" \
            -rss_limit_mb="$RSS" -max_len="$max_len" "${extra[@]}" \
            -artifact_prefix="artifacts/$t/" >"$log" 2>&1 || true
        status="$(grep -E '^#[0-9]+: ' "$log" | tail -1 || true)"
        EXECS[$t]="$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$status")"
    else
        end=$((SECONDS + SECONDS_PER_TARGET))
        total=0
        aborts=0
        seed=1
        while ((SECONDS < end)); do
            rc=0
            "$SMOKE" "$t" --seconds "$((end - SECONDS))" --seed "$seed" --corpus "corpus/$t" \
                --artifacts "artifacts/$t" --timeout "$TIMEOUT" >>"$log" 2>&1 || rc=$?
            if ((rc == 0)); then
                n="$(grep -E "^smoke $t: " "$log" | tail -1 | sed -E 's/^smoke [a-z]+: ([0-9]+) execs.*/\1/')"
                total=$((total + n))
            else
                # a timeout (exit 3, input already saved) or an abort catch_unwind cannot catch
                # (stack overflow, out of memory): keep the input that was running
                aborts=$((aborts + 1))
                if [[ -f "artifacts/$t/.current" ]]; then
                    h="$(sha1sum "artifacts/$t/.current" | cut -c1-16)"
                    if ((rc == 3)); then rm -f "artifacts/$t/.current"; else
                        mv "artifacts/$t/.current" "artifacts/$t/crash-abort-$h"
                        echo "abort (exit $rc): input saved as artifacts/$t/crash-abort-$h" >>"$log"
                    fi
                fi
            fi
            seed=$((seed + 1))
        done
        EXECS[$t]="$total"
        ((aborts == 0)) || EXECS[$t]="$total+"
    fi
    after="$(ls "artifacts/$t" | grep -E '^(crash|timeout|oom|slow-unit|leak)-' | grep -v '\.txt$' | sort || true)"
    new="$(comm -13 <(echo "$before") <(echo "$after") | sed '/^$/d' || true)"
    NEWFILES[$t]="$new"
    CRASHES[$t]="$(sed '/^$/d' <<<"$new" | wc -l)"
    echo "   ${EXECS[$t]:-?} executions, ${CRASHES[$t]} new finding(s)"
done

echo
echo "== findings"
for t in "${TARGETS[@]}"; do
    [[ -n "${NEWFILES[$t]}" ]] || continue
    while read -r f; do
        [[ -n "$f" ]] || continue
        art="artifacts/$t/$f"
        if [[ "${FUZZ_TMIN:-0}" == 1 && "$ENGINE" == libfuzzer && "$f" == crash-* ]]; then
            cargo fuzz tmin -O -s "$SAN" "$t" "$art" -r 2000 >"$RUN_DIR/tmin-$f.log" 2>&1 || true
            min="$(ls -t "artifacts/$t" | grep '^minimized-from-' | head -1 || true)"
            [[ -n "$min" ]] && art="artifacts/$t/$min"
        fi
        echo "-- $t: $art"
        # the result, the panic message and the innermost spec-link frames of the backtrace
        RUST_BACKTRACE=1 "$TOOL" replay "$t" "$art" 2>&1 | awk '
            /^panicked at / { print; next }
            / mode .*: \[/ { sub(/^[^:]*: /, ""); print; next }
            /^ *[0-9]+: .*spec_link::/ && !/spec_link_fuzz/ { if (n++ < 4) { f = $0; getline; print f; print } }
        ' | sed 's/^ */   /' || true
        if [[ "${FUZZ_NO_REGRESSIONS:-0}" != 1 ]]; then
            "$TOOL" materialize "$t" "$art" "$REGRESSIONS" | sed 's/^/   regression: /'
        fi
    done <<<"${NEWFILES[$t]}"
done

echo
echo "== summary ($ENGINE, sanitizer $SAN, spec-link $REV)"
printf '%-8s %8s %14s %9s\n' target seconds executions findings
for t in "${TARGETS[@]}"; do
    printf '%-8s %8s %14s %9s\n' "$t" "$SECONDS_PER_TARGET" "${EXECS[$t]:-?}" "${CRASHES[$t]}"
done
total=0
for t in "${TARGETS[@]}"; do total=$((total + CRASHES[$t])); done
((total == 0)) || exit 1
