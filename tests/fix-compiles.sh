#!/usr/bin/env bash
# The fixed code compiles: each fixture crate of testdata/fix/ is copied to a scratch
# directory, every src/NAME.rs replaced by its NAME.rs.fixed, and built with `cargo check`
# against the rmcp its manifest names. Needs crates.io (CI), or CARGO_NET_OFFLINE=true with
# the crates already fetched; so it is not part of `cargo test`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
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
