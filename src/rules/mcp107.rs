use super::{Fixable, Level, RuleMeta};
use crate::evidence::{CallShape, Member};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP107",
    name: "malformed-call-not-rejected",
    level: Level::Error,
    source: false,
    transcript: true,
    summary: "a malformed `tools/call` (no `params`, no `name`, `name` not a string, `arguments` not an object) answered with a result instead of a protocol error",
    sep: "SEP-2145: servers MUST use Protocol Errors for malformed requests that fail to satisfy the CallToolRequest schema",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP107.md"),
};

/// A malformed tools/call (`reason`) with request id `id`, answered with a result.
pub fn answered(reason: &str, id: &str) -> Violation {
    Violation::new(
        &META,
        format!("malformed tools/call ({reason}) answered with a result (id {id})"),
        "a result",
        Some("a tools/call that does not satisfy CallToolRequest gets a JSON-RPC error, -32602 \"Invalid params\"".into()),
    )
}

/// How a tools/call fails the CallToolRequest schema, if it does: it is then malformed, and a
/// protocol error is its right answer.
pub fn malformed(call: CallShape) -> Option<&'static str> {
    match call {
        CallShape {
            params: Member::Absent,
            ..
        } => Some("no `params`"),
        CallShape { params: p, .. } if p != Member::Object => Some("`params` is not an object"),
        CallShape {
            name: Member::Absent,
            ..
        } => Some("no `name`"),
        CallShape { name: n, .. } if n != Member::String => Some("`name` is not a string"),
        CallShape { arguments: a, .. } if !matches!(a, Member::Absent | Member::Object) => {
            Some("`arguments` is not an object")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Member::*;

    fn call(params: Member, name: Member, arguments: Member) -> Option<&'static str> {
        malformed(CallShape {
            params,
            name,
            arguments,
        })
    }

    #[test]
    fn what_fails_call_tool_request() {
        assert_eq!(call(Absent, Absent, Absent), Some("no `params`"));
        assert_eq!(
            call(Other, Absent, Absent),
            Some("`params` is not an object")
        );
        assert_eq!(call(Object, Absent, Object), Some("no `name`"));
        assert_eq!(call(Object, Other, Object), Some("`name` is not a string"));
        assert_eq!(
            call(Object, String, Other),
            Some("`arguments` is not an object")
        );
        assert_eq!(
            call(Object, String, String),
            Some("`arguments` is not an object")
        );
    }

    #[test]
    fn arguments_may_be_left_out() {
        assert_eq!(call(Object, String, Absent), None);
        assert_eq!(call(Object, String, Object), None);
    }
}
