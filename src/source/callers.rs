//! Which functions of a file only one call reaches: what a fix may change in a function the
//! tools/call handler calls without changing what any other caller gets.

use std::collections::{HashMap, HashSet};

use syn::visit::{self, Visit};

/// The names of the file's functions and methods that are declared once, private, and called
/// once in the file, in a file with no module of its own elsewhere (whose code could call
/// them as `super::name`).
pub fn called_once(file: &syn::File) -> HashSet<String> {
    let mut census = Census::default();
    census.visit_file(file);
    if census.outside_modules {
        return HashSet::new();
    }
    census
        .declared
        .into_iter()
        .filter(|(name, private)| {
            *private == Some(true) && census.calls.get(name).copied() == Some(1)
        })
        .map(|(name, _)| name)
        .collect()
}

#[derive(Default)]
struct Census {
    /// By name: `Some(true)` if declared once and private, `Some(false)` otherwise.
    declared: HashMap<String, Option<bool>>,
    calls: HashMap<String, usize>,
    outside_modules: bool,
}

impl Census {
    fn declare(&mut self, name: String, vis: &syn::Visibility) {
        let private = matches!(vis, syn::Visibility::Inherited);
        self.declared
            .entry(name)
            .and_modify(|d| *d = Some(false))
            .or_insert(Some(private));
    }

    fn call(&mut self, name: String) {
        *self.calls.entry(name).or_default() += 1;
    }
}

impl<'a> Visit<'a> for Census {
    fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
        self.declare(f.sig.ident.to_string(), &f.vis);
        visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
        self.declare(f.sig.ident.to_string(), &f.vis);
        visit::visit_impl_item_fn(self, f);
    }

    fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
        self.outside_modules |= m.content.is_none();
        visit::visit_item_mod(self, m);
    }

    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        self.call(m.method.to_string());
        visit::visit_expr_method_call(self, m);
    }

    // The function of a call, or one named as a value (`map(handle)`), called where mcp-lint
    // cannot count: either way, one more.
    fn visit_expr_path(&mut self, p: &'a syn::ExprPath) {
        if let Some(last) = p.path.segments.last() {
            self.call(last.ident.to_string());
        }
        visit::visit_expr_path(self, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn once(text: &str) -> Vec<String> {
        let mut names: Vec<String> = called_once(&syn::parse_file(text).unwrap())
            .into_iter()
            .collect();
        names.sort();
        names
    }

    #[test]
    fn only_private_functions_with_one_call() {
        let text = "
            fn a() { b(); c(); c(); self.d(); e(); }
            fn b() {}
            fn c() {}
            struct S;
            impl S { fn d(&self) {} pub fn e() {} }
            fn f() { [1].map(g); }
            fn g(_: i32) {}
        ";
        // `g` is named once, as a value: counted as its one call.
        assert_eq!(once(text), ["b", "d", "g"]);
        assert!(once(&format!("mod elsewhere;\n{text}")).is_empty());
    }
}
