#!/usr/bin/env bash
# The fixed code compiles: each fixture crate of testdata/fix/ is copied to a scratch
# directory, every src/NAME.rs replaced by its NAME.rs.fixed, and built with `cargo check`
# against the rmcp its manifest names. Needs crates.io (CI), or CARGO_NET_OFFLINE=true with
# the crates already fetched; so it is not part of `cargo test`.
#
# Then the shipped examples (testdata/examples/*/), against the versions their Cargo.lock
# pins (the rmcp version mcp-lint reads), as they are and as `mcp-lint check --fix
# --unsafe-fixes` leaves them: the issue's bar (#13), no finding left and nothing more to fix.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cargo build --quiet --manifest-path "$root/Cargo.toml"
mcp_lint="${CARGO_TARGET_DIR:-$root/target}/debug/mcp-lint"
export CARGO_TARGET_DIR="$root/target/fix-compiles"
for fixture in "$root"/testdata/fix/*/; do
  name=$(basename "$fixture")
  crate="$scratch/$name"
  cp -r "$fixture" "$crate"
  # The fixture's Cargo.lock holds only the rmcp version mcp-lint reads: cargo resolves anew.
  rm -f "$crate/Cargo.lock"
  for fixed in "$crate"/src/*.rs.fixed; do
    [ -e "$fixed" ] && mv "$fixed" "${fixed%.fixed}"
  done
  echo "fix-compiles: $name"
  cargo check --quiet --manifest-path "$crate/Cargo.toml"
done
for example in "$root"/testdata/examples/*/; do
  name=$(basename "$example")
  crate="$scratch/example-$name"
  cp -r "$example" "$crate"
  echo "fix-compiles: examples/$name as shipped"
  cargo check --quiet --locked --manifest-path "$crate/Cargo.toml"
  # Exit 0: no finding at level error remains.
  "$mcp_lint" check --fix --unsafe-fixes --quiet "$crate" >/dev/null
  if ! again=$("$mcp_lint" check --diff --unsafe-fixes --quiet "$crate") || [ -n "$again" ]; then
    echo "fix-compiles: examples/$name: a second --fix would change it:"
    echo "$again"
    exit 1
  fi
  echo "fix-compiles: examples/$name fixed"
  cargo check --quiet --locked --manifest-path "$crate/Cargo.toml"
done
