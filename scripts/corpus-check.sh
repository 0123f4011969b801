#!/usr/bin/env bash
# Runs spec-link on every module of the real-world corpus (scripts/corpus.sh makes it) and prints
# a Markdown summary: processed / unchanged / lowered / refused (each distinct message counted) /
# panics / timeouts / crashes, and the spirv-val check (valid before, invalid after = bug).
# Exit status 1 when any bug was found (panic, timeout, crash, changed module without markers,
# partial output, valid-before-invalid-after).
#
#   scripts/corpus-check.sh                    whole corpus, 2 jobs, 20 s per module
#   scripts/corpus-check.sh --sample 2000      2000 modules at random (--seed S, default 1)
#   scripts/corpus-check.sh --limit 100        the first 100 (sorted by path)
#   scripts/corpus-check.sh --wheel dpctl-0.22.1 --val changed --mode emulation --jobs 4 ...
#   scripts/corpus-check.sh --info --val none     spec-link info --json on every module
#   scripts/corpus-check.sh --split auto --sample 10000   split each module (spec-link's own
#                                              validation policy; every image read again)
#   scripts/corpus-check.sh --help             every option (scripts/corpus_check.py)
#
# Builds target/release/spec-link first (cargo build --release) unless --no-build is given.
# Results: corpus/check/summary.md, corpus/check/results.jsonl (one line per module), and copies
# of the modules behind each bug and refusal under corpus/check/examples/.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
build=1
args=()
for a in "$@"; do
  if [ "$a" = "--no-build" ]; then build=0; else args+=("$a"); fi
done
if [ -x "$REPO/.venv/bin/python" ]; then PY="$REPO/.venv/bin/python"; else PY="$(command -v python3)"; fi
if [ $build -eq 1 ]; then
  cargo build --release --quiet
fi
exec "$PY" "$REPO/scripts/corpus_check.py" "${args[@]}"
