//! How the source pass names a crate's functions. A method or associated function (`impl T {
//! fn f }`, called `x.f()`, `Self::f()` or `T::f()`) is `.f`; a free function (`fn f`, called
//! `f()` or `module::f()`) is `f`. So a server's `self.dispatch(..)` and its
//! `tools::dispatch(..)` are two functions, as they are to rustc.

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
        _ => free(last),
    })
}

/// The name as written in the code, for messages.
pub fn shown(name: &str) -> &str {
    name.strip_prefix('.').unwrap_or(name)
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
        assert_eq!(of("tools::dispatch"), "dispatch");
        assert_eq!(of("crate::tools::dispatch"), "dispatch");
        assert_eq!(of("Self::dispatch"), ".dispatch");
        assert_eq!(of("Server::dispatch"), ".dispatch");
        assert_eq!(shown(".dispatch"), "dispatch");
    }
}
