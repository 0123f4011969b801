#!/usr/bin/env python3
"""Differential campaign: spec-link's device-code split and property sets against DPC++ 2026.2's
on random SYCL sources from gen_postlink.py.

A developer tool (not run by CI or the tests); what it covers and finds: docs/testing.md.

usage: scripts/dpcpp-random/postlink_campaign.py FIRST_SEED COUNT [--jobs 2] [--out DIR]
Needs what scripts/gen-postlink-testdata.sh needs (scripts/setup.sh, then DPC++'s wheel and
jitc through scripts/dpcpp-jit/setup.sh, which that script sources). Per seed: gen_postlink.py
writes a case (source.cpp, flags) into DIR/cases/sSEED (default DIR: .dpcpp-random/postlink,
git-ignored); scripts/gen-postlink-testdata.sh compiles it in every split mode with DPC++, as
for testdata/postlink; then tests/postlink.rs's `split_equals_dpcpp` and
`emulation_split_equals_dpcpp` run on DIR/cases ($SPEC_LINK_POSTLINK_CASES): spec-link splits
each case's `off` images and every image, `.sym` and property set must equal DPC++'s. The
test's output is kept in DIR/test-native.log and DIR/test-emulation.log.
"""
import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def make_case(seed, cases):
    name = f"s{seed}"
    subprocess.run([sys.executable, f"{HERE}/gen_postlink.py", str(seed), f"{cases}/{name}"], check=True)
    env = dict(os.environ, POSTLINK_DIR=cases)
    p = subprocess.run([f"{REPO}/scripts/gen-postlink-testdata.sh", name], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return name, p.returncode, p.stdout.strip().replace("\n", "; ")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("first", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=f"{REPO}/.dpcpp-random/postlink")
    a = ap.parse_args()
    cases = os.path.abspath(f"{a.out}/cases")
    os.makedirs(cases, exist_ok=True)
    with ThreadPoolExecutor(a.jobs) as ex:
        for name, rc, log in ex.map(lambda s: make_case(s, cases), range(a.first, a.first + a.count)):
            print(f"{name}: {'compiled' if rc == 0 else 'generator failed'}: {log}", flush=True)
    failed = False
    for test in ("split_equals_dpcpp", "emulation_split_equals_dpcpp"):
        log = f"{a.out}/test-{'native' if test == 'split_equals_dpcpp' else 'emulation'}.log"
        env = dict(os.environ, SPEC_LINK_POSTLINK_CASES=cases)
        with open(log, "w") as fh:
            p = subprocess.run(["cargo", "test", "--release", "--test", "postlink", "--", "--exact", test,
                                "--nocapture"], cwd=REPO, env=env, stdout=fh, stderr=subprocess.STDOUT)
        print(f"{test}: {'passed' if p.returncode == 0 else 'FAILED'} (log: {log})")
        failed |= p.returncode != 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
