//! The fix for rmcp's `#[tool_handler]` router default (MCP108): the router answers a name it
//! has no route for (unknown or disabled) with a JSON-RPC error, so the impl gets a `call_tool`
//! of its own that answers such a name with the SEP's tool execution error and hands the rest
//! to the same router.
//!
//! From rmcp 1.7 on, `#[tool_handler]` generates `call_tool` only when the impl has none
//! (`has_method("call_tool", ..)` in rmcp-macros 1.7, 1.8, 2.2 and 3.11), its router is
//! `Self::tool_router()` unless `router = ..` says otherwise, and `ToolRouter::has_route` is
//! false for a disabled tool as for an unknown one. rmcp 0.x generates `call_tool` beside one of
//! the impl's own, which does not compile: no fix there.

use syn::punctuated::Punctuated;
use syn::spanned::Spanned;

use crate::finding::{Applicability, Edit, Fix};
use crate::source::span_range;
use crate::text::SourceText;

/// The fix for the `#[tool_handler]` `attribute` of `handler`, with rmcp at `version`
/// (major, minor) if known, or why there is none.
pub fn call_tool(
    handler: &syn::ItemImpl,
    attribute: &syn::Attribute,
    source: &SourceText,
    version: Option<(u64, u64)>,
) -> Result<Fix, &'static str> {
    let (major, minor) = version.ok_or(super::UNKNOWN_RMCP)?;
    if (major, minor) < (1, 7) {
        return Err(
            "`#[tool_handler]` of rmcp before 1.7 generates its `call_tool` even beside one of the impl's own: upgrade rmcp, or drop `#[tool_handler]` and write `call_tool` and `list_tools` yourself",
        );
    }
    let router = router(attribute, source)?;
    let (response, into) = match major >= 3 {
        true => ("CallToolResponse", ".into()"),
        false => ("CallToolResult", ""),
    };
    let content = match major >= 2 {
        true => "ContentBlock",
        false => "Content",
    };
    // Indented one step deeper than the impl, as rustfmt would.
    let outer = super::indent(source, span_range(source, handler.span()).start);
    let indent = format!("{outer}    ");
    let body = [
        "async fn call_tool(".to_string(),
        "    &self,".to_string(),
        "    request: rmcp::model::CallToolRequestParams,".to_string(),
        "    context: rmcp::service::RequestContext<rmcp::RoleServer>,".to_string(),
        format!(") -> Result<rmcp::model::{response}, rmcp::ErrorData> {{"),
        "    // A name with no route, unknown or disabled: a tool execution error (SEP-2145).".to_string(),
        format!("    let router = &{router};"),
        "    if !router.has_route(&request.name) {".to_string(),
        "        let text = format!(\"Unknown tool: {}. Re-run tools/list and retry.\", request.name);".to_string(),
        format!("        return Ok(rmcp::model::CallToolResult::error(vec![rmcp::model::{content}::text(text)]){into});"),
        "    }".to_string(),
        "    router.call(rmcp::handler::server::tool::ToolCallContext::new(self, request, context)).await".to_string(),
        "}".to_string(),
    ];
    let mut text = String::new();
    for line in body {
        text.push('\n');
        text.push_str(&indent);
        text.push_str(&line);
    }
    // After the impl's `{`: a blank line then separates it from the items already there; an
    // impl written `{}` gets its `}` on a line of its own.
    let open = span_range(source, handler.brace_token.span.open()).end;
    let close = span_range(source, handler.brace_token.span.close()).start;
    if !handler.items.is_empty() {
        text.push('\n');
    } else if !source.text()[open..close].contains('\n') {
        text.push('\n');
        text.push_str(outer);
    }
    Ok(Fix {
        applicability: Applicability::Unsafe,
        edits: vec![Edit {
            range: open..open,
            text,
        }],
    })
}

/// The router `#[tool_handler]` routes to, as written: its `router = ..`, or its default.
fn router(attribute: &syn::Attribute, source: &SourceText) -> Result<String, &'static str> {
    if matches!(attribute.meta, syn::Meta::Path(_)) {
        return Ok("Self::tool_router()".to_string());
    }
    let args = attribute
        .parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
        .map_err(|_| "the arguments of `#[tool_handler]` are not ones mcp-lint reads")?;
    Ok(args
        .iter()
        .find_map(|meta| match meta {
            syn::Meta::NameValue(nv) if nv.path.is_ident("router") => Some(
                source
                    .snippet(&span_range(source, nv.value.span()))
                    .to_string(),
            ),
            _ => None,
        })
        .unwrap_or_else(|| "Self::tool_router()".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(text: &str, version: Option<(u64, u64)>) -> Result<String, &'static str> {
        let source = SourceText::new("a.rs", text.into());
        let file = syn::parse_file(text).unwrap();
        let Some(syn::Item::Impl(handler)) = file.items.first() else {
            panic!("no impl in {text}");
        };
        let fix = call_tool(handler, &handler.attrs[0], &source, version)?;
        Ok(crate::fix::apply::apply(text, &[&fix]))
    }

    #[test]
    fn no_fix_before_rmcp_1_7_or_without_a_version() {
        let text = "#[tool_handler]\nimpl ServerHandler for S {}\n";
        assert!(fix(text, Some((0, 8))).unwrap_err().contains("before 1.7"));
        assert_eq!(fix(text, None), Err(crate::fix::UNKNOWN_RMCP));
    }

    #[test]
    fn the_router_is_the_attributes_own_and_an_empty_impl_gets_its_own_closing_line() {
        let text = "#[tool_handler(router = self.r, meta = m())]\nimpl ServerHandler for S {}\n";
        let want = r#"#[tool_handler(router = self.r, meta = m())]
impl ServerHandler for S {
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        // A name with no route, unknown or disabled: a tool execution error (SEP-2145).
        let router = &self.r;
        if !router.has_route(&request.name) {
            let text = format!("Unknown tool: {}. Re-run tools/list and retry.", request.name);
            return Ok(rmcp::model::CallToolResult::error(vec![rmcp::model::ContentBlock::text(text)]).into());
        }
        router.call(rmcp::handler::server::tool::ToolCallContext::new(self, request, context)).await
    }
}
"#;
        assert_eq!(fix(text, Some((3, 11))).unwrap(), want);
    }
}
