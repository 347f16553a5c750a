# Shared helpers for the ci/ scripts. Source it; do not run it.
#
# Everything here installs what it needs on a fresh machine (cargo-fuzz from crates.io,
# llvm-tools through rustup) and works on the stable toolchain: cargo fuzz needs nightly
# flags (-Zsanitizer=address, -Cpasses=sancov-module), which stable accepts with
# RUSTC_BOOTSTRAP=1.

# shellcheck shell=bash

# The repository root, whatever the caller's directory.
CI_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CI_ROOT

export RUSTC_BOOTSTRAP=1
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# Compile the fuzz crate only for the host: cargo fuzz passes --target itself.
CI_HOST_TRIPLE="$(rustc -vV | sed -n 's/^host: //p')"
export CI_HOST_TRIPLE
# libFuzzer's -timeout for one input, in seconds: long enough for the slowest inputs the
# generator makes on purpose (a 10^5-file bulk and the 32 ops after it take about 20 s
# under AddressSanitizer), short enough that a hang still fails the run.
CI_FUZZ_INPUT_TIMEOUT=60

ci_log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
ci_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Section header: a visible line in CI logs.
ci_section() { printf '\n==== %s\n' "$*"; }

ci_nproc() { nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1; }

# cargo-fuzz from crates.io when it is missing (about a minute to build).
ci_ensure_cargo_fuzz() {
    if ! command -v cargo-fuzz >/dev/null 2>&1; then
        ci_log "cargo-fuzz is missing: cargo install cargo-fuzz --locked"
        cargo install cargo-fuzz --locked
    fi
    cargo fuzz --version >&2
}

# The programs the mount tests run as clients (fuse/tests/clients.rs,
# cli/tests/mount_command.rs), installed from Debian's packages when one is missing.
ci_ensure_mount_clients() {
    local missing=() tool pkg
    for tool in ls:coreutils stat:coreutils cat:coreutils find:findutils \
        python3:python3 umount:mount kill:procps; do
        pkg="${tool#*:}"
        command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("$pkg")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        ci_log "installing the mount tests' clients: ${missing[*]}"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    fi
    [ -e /dev/fuse ] || ci_log "warning: /dev/fuse is missing: the mount tests will fail under CI=true"
}

# llvm-cov and llvm-profdata matching rustc's LLVM (the profile format must match).
# Sets CI_LLVM_BIN to the directory that holds them.
ci_ensure_llvm_tools() {
    local sysroot bin
    sysroot="$(rustc --print sysroot)"
    bin="$sysroot/lib/rustlib/$CI_HOST_TRIPLE/bin"
    if [ ! -x "$bin/llvm-cov" ] || [ ! -x "$bin/llvm-profdata" ]; then
        ci_log "llvm-tools missing: rustup component add llvm-tools-preview"
        rustup component add llvm-tools-preview >&2 ||
            ci_die "could not install llvm-tools-preview (needed for llvm-cov/llvm-profdata of rustc's LLVM version)"
    fi
    [ -x "$bin/llvm-cov" ] || ci_die "no llvm-cov in $bin"
    CI_LLVM_BIN="$bin"
    export CI_LLVM_BIN
}

# The fuzz targets, from fuzz/Cargo.toml (one line each).
ci_fuzz_targets() {
    [ -f "$CI_ROOT/fuzz/Cargo.toml" ] || ci_die "no fuzz/Cargo.toml: the cargo-fuzz crate is missing"
    (cd "$CI_ROOT" && cargo fuzz list)
}

# Where cargo fuzz puts a release (-O) build of a target.
ci_fuzz_binary() {
    echo "$CI_ROOT/fuzz/target/$CI_HOST_TRIPLE/release/$1"
}

# Run a step, and on failure say which step failed before exiting.
ci_step() {
    local name="$1"
    shift
    ci_section "$name"
    local start=$SECONDS rc
    # A subshell outside any `if`, so that `set -e` holds inside shell functions too.
    set +e
    (
        set -e
        "$@"
    )
    rc=$?
    set -e
    if [ "$rc" -ne 0 ]; then
        printf '\nFAILED step: %s (exit %s after %ss)\n' "$name" "$rc" "$((SECONDS - start))" >&2
        exit 1
    fi
    printf -- '---- %s: ok (%ss)\n' "$name" "$((SECONDS - start))"
}
