//! The two eras of the protocol: up to 2025-11-25 a session opens with `initialize`; from
//! 2026-07-28 there is none, and each request names its version in `_meta`.

/// The `_meta` key under which a request of the new era names its version.
pub const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The first version of the new era.
pub const MODERN: &str = "2026-07-28";

/// Whether `version` belongs to the new era: versions are dates, so they order as strings.
pub fn is_modern(version: &str) -> bool {
    version >= MODERN
}
