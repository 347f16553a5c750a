#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every cargo-fuzz target into $OUT, with its committed
# corpus as <target>_seed_corpus.zip and its libFuzzer options.
#
# In the base-builder-rust image this runs with SANITIZER=address for the fuzzing modes
# (code-change, batch, prune) and SANITIZER=coverage for the coverage mode; the image's
# `cargo` wrapper adds the coverage instrumentation for `cargo fuzz build` itself.
#
# Locally (no Docker): SRC=<parent of the checkout> OUT=/tmp/out bash .clusterfuzzlite/build.sh
# builds the same with the stable toolchain (RUSTC_BOOTSTRAP=1) -- see docs/CI.md.

# The source is $SRC/pdtree in the image; elsewhere, the checkout this script is in.
if [ -n "${SRC:-}" ] && [ -f "$SRC/pdtree/fuzz/Cargo.toml" ]; then
    cd "$SRC/pdtree"
else
    cd "$(dirname "${BASH_SOURCE[0]}")/.."
fi
: "${OUT:?set OUT to the directory that receives the fuzzers}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

# The image's toolchain is nightly, where this is a no-op; it lets stable build locally.
export RUSTC_BOOTSTRAP=1

# OSS-Fuzz passes the sanitizer to use; cargo fuzz knows address (and none for coverage,
# whose instrumentation the image's cargo wrapper adds).
sanitizer_flag=()
case "${SANITIZER:-address}" in
address) sanitizer_flag=(--sanitizer address) ;;
coverage) sanitizer_flag=() ;;
*) echo "build.sh: sanitizer '${SANITIZER}' not supported, building with address" >&2 ;;
esac

# Release with debug assertions (integer overflow, debug_assert!), as ci/nightly runs them.
cargo fuzz build -O --debug-assertions "${sanitizer_flag[@]}"

triple="${CARGO_BUILD_TARGET:-x86_64-unknown-linux-gnu}"
bin_dir="fuzz/target/$triple/release"

zip_dir() { # zip_dir DIR ZIP: the files of DIR, flat, into ZIP
    rm -f "$2"
    if command -v zip >/dev/null 2>&1; then
        (cd "$1" && find . -maxdepth 1 -type f -print0 | xargs -0 -r zip -q -j "$2")
    else
        python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        p = os.path.join(src, name)
        if os.path.isfile(p):
            z.write(p, name)
PY
    fi
}

for target in $(cargo fuzz list); do
    cp "$bin_dir/$target" "$OUT/$target"
    if [ -d "corpus/$target" ] && [ -n "$(ls -A "corpus/$target")" ]; then
        zip_dir "$(pwd)/corpus/$target" "$OUT/${target}_seed_corpus.zip"
    fi
    # Per-target libFuzzer options (ClusterFuzz reads <target>.options). The default
    # timeout is ci/lib.sh's CI_FUZZ_INPUT_TIMEOUT (this runs in the OSS-Fuzz image, which
    # does not source it): a 10^5-file bulk input takes about 20 s under the sanitizer.
    if [ -f "fuzz/options/$target.options" ]; then
        cp "fuzz/options/$target.options" "$OUT/$target.options"
    else
        printf '[libfuzzer]\ntimeout = 60\n' >"$OUT/$target.options"
    fi
    echo "build.sh: $OUT/$target"
done
