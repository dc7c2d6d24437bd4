//! How the source pass names a crate's functions. A method or associated function (`impl T {
//! fn f }`, called `x.f()`, `Self::f()` or `T::f()`) is `.f`; a free function (`fn f`, called
//! `f()`) is `f`, and called through its module (`search::run()`) is `search::run` as well:
//! a crate with a `run` in every command module knows which one a call reaches. So a
//! server's `self.dispatch(..)` and its `tools::dispatch(..)` are two functions, as they are
//! to rustc. The crate index knows a free function by both its names (see
//! [`in_module`]); a module-qualified name it does not define is the plain one (a re-export,
//! `std::fs::read`).

use syn::Ident;

/// A free function's name.
pub fn free(ident: &Ident) -> String {
    ident.to_string()
}

/// A method's or associated function's name.
pub fn method(ident: &Ident) -> String {
    format!(".{ident}")
}

/// The function a path calls or names: `f`, `module::f`, `Self::f`, `Type::f`.
pub fn of_path(path: &syn::Path) -> Option<String> {
    let mut segments = path.segments.iter().rev();
    let last = &segments.next()?.ident;
    let owner = segments.next().map(|s| s.ident.to_string());
    Some(match owner {
        Some(owner) if owner.starts_with(char::is_uppercase) => method(last),
        Some(owner) if !matches!(owner.as_str(), "crate" | "self" | "super") => {
            format!("{owner}::{last}")
        }
        _ => free(last),
    })
}

/// A name without the module it was called through: `search::run` is `run`.
pub fn unqualified(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// The name a free function `name` defined in `file` (as named to mcp-lint) is called by
/// through its module: `search::run` for `fn run` of `src/search.rs` or `src/search/mod.rs`.
/// None for a method, and for a crate root (`lib.rs`, `main.rs`, a binary).
pub fn in_module(file: &str, name: &str) -> Option<String> {
    if name.starts_with('.') || name.contains("::") {
        return None;
    }
    let path = std::path::Path::new(file);
    let stem = path.file_stem()?.to_str()?;
    let parent = path.parent()?;
    let module = match stem {
        "lib" | "main" | "build" => return None,
        "mod" => parent.file_name()?.to_str()?,
        _ if parent.file_name().is_some_and(|p| p == "bin") => return None,
        stem => stem,
    };
    Some(format!("{module}::{name}"))
}

/// The name as written in the code, for messages.
pub fn shown(name: &str) -> &str {
    unqualified(name.strip_prefix('.').unwrap_or(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(path: &str) -> String {
        of_path(&syn::parse_str(path).unwrap()).unwrap()
    }

    #[test]
    fn a_path_names_a_method_by_its_type() {
        assert_eq!(of("dispatch"), "dispatch");
        assert_eq!(of("tools::dispatch"), "tools::dispatch");
        assert_eq!(of("crate::tools::dispatch"), "tools::dispatch");
        assert_eq!(of("crate::dispatch"), "dispatch");
        assert_eq!(of("super::dispatch"), "dispatch");
        assert_eq!(of("Self::dispatch"), ".dispatch");
        assert_eq!(of("Server::dispatch"), ".dispatch");
        assert_eq!(shown(".dispatch"), "dispatch");
        assert_eq!(shown("tools::dispatch"), "dispatch");
    }

    #[test]
    fn a_free_function_is_known_by_its_module() {
        assert_eq!(
            in_module("c/src/search.rs", "run").as_deref(),
            Some("search::run")
        );
        assert_eq!(
            in_module("c/src/search/mod.rs", "run").as_deref(),
            Some("search::run")
        );
        assert_eq!(in_module("c/src/lib.rs", "run"), None);
        assert_eq!(in_module("c/src/bin/tool.rs", "run"), None);
        assert_eq!(in_module("c/src/search.rs", ".run"), None);
    }
}
