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

/// What is wrong with the cache hints of a new-era `tools/list` result, which the era
/// requires: `ttlMs`, a non-negative integer, and `cacheScope`, "public" or "private".
pub fn cache_hint_problems(result: &serde_json::Value) -> Vec<String> {
    let mut problems = Vec::new();
    match result.get("ttlMs") {
        Some(ttl) if ttl.is_u64() => {}
        Some(ttl) => problems.push(format!("`ttlMs` is {ttl}, not a non-negative integer")),
        None => problems.push("`ttlMs` is missing".to_string()),
    }
    match result.get("cacheScope") {
        Some(scope) if scope == "public" || scope == "private" => {}
        Some(scope) => problems.push(format!(
            "`cacheScope` is {scope}, not \"public\" or \"private\""
        )),
        None => problems.push("`cacheScope` is missing".to_string()),
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cache_hints_are_a_non_negative_ttl_and_a_known_scope() {
        let fine = json!({"tools": [], "ttlMs": 0, "cacheScope": "private"});
        assert!(cache_hint_problems(&fine).is_empty());
        assert_eq!(
            cache_hint_problems(&json!({"tools": []})),
            ["`ttlMs` is missing", "`cacheScope` is missing"]
        );
        assert_eq!(
            cache_hint_problems(&json!({"ttlMs": -1.5, "cacheScope": "shared"})),
            [
                "`ttlMs` is -1.5, not a non-negative integer",
                "`cacheScope` is \"shared\", not \"public\" or \"private\""
            ]
        );
    }
}
