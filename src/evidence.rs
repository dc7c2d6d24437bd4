//! What the passes know about one protocol error, as plain data: no syntax tree, no transcript
//! types. The passes build it; the MCP101-MCP105 rules classify it, so a
//! classification can be unit-tested with evidence written by hand.

/// JSON-RPC and MCP error codes the rules and passes name.
pub mod codes {
    pub const INVALID_PARAMS: i64 = -32602;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// URL elicitation required (2025-11-25 on).
    pub const URL_ELICITATION: i64 = -32042;
    /// Protocol errors the SEP keeps on a well-formed `tools/call`: URL elicitation required,
    /// and from 2026-07-28 header mismatch, missing client capability, unsupported protocol
    /// version.
    pub const KEPT: &[i64] = &[URL_ELICITATION, -32020, -32021, -32022];
}

/// Which kind of tools/call handler a protocol error leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootKind {
    /// `impl ServerHandler { fn call_tool }` (rmcp).
    RmcpCallTool,
    /// A `#[tool]` function whose error type is rmcp's `ErrorData`.
    RmcpTool,
    /// A `#[tool]` function of an mcp-attr `#[mcp_server]` impl: mcp-attr sends its every
    /// `Err` as a JSON-RPC error.
    McpAttrTool,
    /// `impl ToolHandler { fn handle }` (pmcp): pmcp sends its every `Err` but
    /// `Error::ToolRejected` as a JSON-RPC error (-32603).
    PmcpTool,
    /// `impl ToolHandler { fn handle_tool_call }` (ultrafast-mcp): every `Err` is sent as a
    /// JSON-RPC error.
    UltrafastTool,
    /// The `CallToolRequest` arm of rust-mcp-sdk's `ServerHandlerCore::handle_request`, or
    /// `handle_call_tool_request_mrtr`.
    RustMcpSdkCore,
    /// A hand-rolled JSON-RPC dispatcher's `"tools/call"` branch and the functions it calls.
    HandRolled,
    /// What a JSON-RPC framework runs for the `tools/call` method (jsonrpc-core's
    /// `io.add_method("tools/call", ..)`), and the functions returning the framework's
    /// `Result` it passes on: the framework sends every `Err` as a JSON-RPC error.
    JsonRpcMethod,
    /// turbomcp 3's `impl McpHandler { fn call_tool }`, and the functions returning its
    /// `McpResult` it passes on: turbomcp sends its `Err` as a JSON-RPC error.
    TurbomcpCallTool,
    /// `impl Tool { fn execute }` on kodegen_mcp_schema: its `ToolHandler` turns every `Err`
    /// (its `McpError`) into rmcp's `ErrorData`, a JSON-RPC error.
    KodegenTool,
    /// A public method of a pulseengine-mcp `#[mcp_tools]` impl: the generated `call_tool_impl`
    /// sends its every `Err`, of any error type, as a JSON-RPC error (-32602 by 0.13).
    PulseengineTool,
    /// A function returning rmcp's `Result` whose `Err` a tools/call root passes on
    /// (`helper(..)?`, a tail call): its errors are reported where it builds them.
    RmcpHelper,
    /// A function returning another error type (`anyhow::Result`, `Result<_, String>`, a
    /// domain enum) whose every `Err` a tools/call handler converts into a protocol error in
    /// one place (`Err(e) => Err(McpError::internal_error(e.to_string(), None))`): each of its
    /// errors (`bail!`, `?`, `Err(..)`) is reported where it starts.
    Converted,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmKind {
    /// `_ =>` or a plain binding: what no other arm matched.
    Fallback,
    /// `None =>`: what was looked for is not there.
    Missing,
    /// `Err(..) =>`: what was done failed.
    Failure,
    /// `McpRequest::ReadResource(..) =>`: a request other than tools/call, whose answer this
    /// catalog does not judge.
    OtherRequest,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardKind {
    /// Either branch of an `if` (or `if let`) on the subject.
    Condition,
    /// An arm of a `match` on the subject.
    MatchArm(ArmKind),
    /// The `else` of `let PAT = subject else { .. }`.
    LetElse,
    /// The error of `subject.ok_or(..)` or `.ok_or_else(..)`: the subject is absent.
    Absent,
    /// The error of `subject.map_err(..)` and the like: the subject failed.
    Fallible,
}

/// What a guard's subject is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// Reads `name` or `params` out of the request itself (`params.get("name")`, `req.params`).
    RequestField,
    /// Looks up a tool by its name (`self.tools.get(&name)`, `.find(|t| t.name == name)`).
    ToolLookup,
    /// Reads one argument by key (`args.get("path")`, `arguments["limit"]`).
    Argument,
    Other,
}

/// A condition a protocol error sits under, as the words of its subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    pub kind: GuardKind,
    pub subject: Subject,
    /// Lower-cased identifiers and string literal contents of the subject.
    pub words: Vec<String>,
    /// The subject's identifiers as written.
    pub idents: Vec<String>,
}

/// One protocol error that reaches the response of a `tools/call` in source code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeError {
    pub root: RootKind,
    /// The constructor's name (`invalid_params`, `new`, `json!`, ...).
    pub constructor: String,
    pub code: Option<i64>,
    /// The message literal, or a `format!` string.
    pub message: Option<String>,
    /// The guards that explain the error: the innermost two, outermost first. Outer
    /// conditions are usually about something else (the handler sits under `if let Some(args)`).
    pub guards: Vec<Guard>,
}

/// How many of the innermost guards explain an error (see [`CodeError::guards`]).
pub const REASON_GUARDS: usize = 2;

/// Identifiers that hold a tool's name (or the part of it that picks a plugin or upstream
/// server, in proxies that namespace tools as `plugin__tool`).
pub const TOOL_NAME_IDENTS: &[&str] = &[
    "name",
    "tool_name",
    "toolname",
    "tool",
    "tool_id",
    "plugin_name",
    "server_name",
];

/// At most this many identifiers in a failing call that resolves a name
/// (`self.registry.resolve(&name)`); a call with more does work of its own.
const RESOLVER_IDENTS: usize = 5;

/// Identifiers that name a tool even inside a helper, where a plain `name` is usually what
/// the tool works on (a crate, a file), not the tool.
const TOOL_ONLY_IDENTS: &[&str] = &[
    "tool_name",
    "toolname",
    "tool_id",
    "plugin_name",
    "server_name",
];

/// Identifiers that hold a name (not a resolved `tool`, whose failure is the tool's own).
const NAME_IDENTS: &[&str] = &[
    "name",
    "tool_name",
    "toolname",
    "plugin_name",
    "server_name",
];

impl Guard {
    /// Whether a word of the subject contains one of `needles`.
    pub fn mentions(&self, needles: &[&str]) -> bool {
        self.words
            .iter()
            .any(|w| needles.iter().any(|n| w.contains(n)))
    }

    /// Whether an identifier of the subject is one of `idents`.
    fn names_one_of(&self, idents: &[&str]) -> bool {
        self.idents.iter().any(|i| idents.contains(&i.as_str()))
    }

    fn mentions_tool_name(&self, root: RootKind) -> bool {
        match root {
            RootKind::RmcpHelper | RootKind::Converted => self.names_one_of(TOOL_ONLY_IDENTS),
            _ => self.names_one_of(TOOL_NAME_IDENTS),
        }
    }

    /// Whether the subject uses the call's arguments (`args`, `arguments_value`, `params`): it
    /// then does the tool's work rather than resolve its name.
    fn mentions_argument(&self) -> bool {
        self.mentions(&["arg", "param", "input"])
    }
}

impl CodeError {
    fn innermost(&self) -> Option<&Guard> {
        self.guards.last()
    }

    /// Whether a word of the explaining `if` conditions contains one of `needles`: a check
    /// (`if self.disabled.contains(name)`), not a call's failure that merely passes such a
    /// value (`match tool.call(args, authorization)`).
    pub fn condition_mentions(&self, needles: &[&str]) -> bool {
        self.guards
            .iter()
            .filter(|g| g.kind == GuardKind::Condition)
            .any(|g| g.mentions(needles))
    }

    /// Whether a word of the explaining guards contains one of `needles`.
    pub fn guard_mentions(&self, needles: &[&str]) -> bool {
        self.guards.iter().any(|g| g.mentions(needles))
    }

    /// Whether the message, lower-cased, contains one of `needles`.
    pub fn message_mentions(&self, needles: &[&str]) -> bool {
        self.message
            .as_deref()
            .map(str::to_lowercase)
            .is_some_and(|m| needles.iter().any(|n| m.contains(n)))
    }

    /// The error answers a lookup of the tool by name: the fallback arm of a `match` on the
    /// name, or the failure of `tools.get(&name)` and the like.
    pub fn follows_tool_lookup(&self) -> bool {
        let Some(guard) = self.innermost() else {
            return false;
        };
        let names = match self.root {
            RootKind::RmcpHelper | RootKind::Converted => TOOL_ONLY_IDENTS,
            _ => NAME_IDENTS,
        };
        match (guard.kind, guard.subject) {
            // A lookup by `name` in a helper looks up what the tool works on, not the tool.
            (_, Subject::ToolLookup) => {
                !matches!(self.root, RootKind::RmcpHelper | RootKind::Converted)
                    || guard.mentions_tool_name(self.root)
            }
            (GuardKind::MatchArm(ArmKind::Fallback), _) => guard.mentions_tool_name(self.root),
            // `let tool = ..find(..)` then `None =>`: no such tool.
            (GuardKind::MatchArm(ArmKind::Missing) | GuardKind::LetElse | GuardKind::Absent, _) => {
                guard.mentions_tool_name(self.root) && !guard.mentions_argument()
            }
            // `parse_namespaced_name(request.name)` failing: the name resolves to no tool; but
            // `tool.call(args)` failing is the tool's own failure, and so is a call that
            // passes the name along with much else (`run_hook(engine, headers, tool_name, ..)`).
            (GuardKind::MatchArm(ArmKind::Failure) | GuardKind::Fallible, _) => {
                guard.names_one_of(names)
                    && !guard.mentions_argument()
                    && guard.idents.len() <= RESOLVER_IDENTS
            }
            _ => false,
        }
    }

    /// The error answers a missing or unusable argument (`args.get("path")` failed).
    pub fn follows_argument_lookup(&self) -> bool {
        self.innermost().is_some_and(|g| {
            g.kind != GuardKind::MatchArm(ArmKind::Other) && g.subject == Subject::Argument
        })
    }

    /// The request itself is malformed (no `params`, no `name`, `arguments` not an object): a
    /// protocol error is right.
    pub fn is_malformed_request(&self) -> bool {
        let arguments_not_an_object = self.message_mentions(&["arguments"])
            && self.message_mentions(&["must be an object", "not an object"]);
        let absent = self.innermost().is_some_and(|g| {
            g.kind != GuardKind::MatchArm(ArmKind::Other)
                && g.kind != GuardKind::MatchArm(ArmKind::Fallback)
                && g.subject == Subject::RequestField
        });
        // `params.arguments.ok_or_else(|| invalid_params("Missing parameters"))`: the call's
        // `arguments` may be left out; a tool that needs some was given bad input.
        let on_arguments = self.innermost().is_some_and(|g| g.mentions(&["arguments"]));
        absent
            || arguments_not_an_object
            || !on_arguments
                && self.message_mentions(&[
                    "missing tool name",
                    "missing name",
                    "missing 'name'",
                    "missing `name`",
                    "missing \"name\"",
                    "missing params",
                    "missing 'params'",
                    "params required",
                    "requires params",
                    "params.name",
                    "missing parameters",
                    "tool name is required",
                    "name is required",
                    "name required",
                    "requires 'name'",
                    "requires `name`",
                    "requires \"name\"",
                    "name must be a string",
                    "invalid tool name type",
                    "expected 'name'",
                    "expected `name`",
                    "expected \"name\"",
                    // The request's own metadata (the protocol version in `_meta`).
                    "_meta",
                ])
    }

    /// Protocol errors the SEP keeps: spec-defined codes, rmcp's own conversion of argument
    /// errors (>= 1.8), and server failures before any result exists.
    pub fn is_permitted(&self) -> bool {
        const KEPT_CONSTRUCTORS: &[&str] = &[
            // Not a protocol error at all: pmcp (2.22 on) answers it with an isError result.
            "tool_rejected",
            "header_mismatch",
            "unsupported_protocol_version",
            "missing_required_client_capability",
        ];
        KEPT_CONSTRUCTORS.contains(&self.constructor.as_str())
            || self.code.is_some_and(|c| codes::KEPT.contains(&c))
            || self.message_mentions(&["failed to deserialize parameters:"])
            // The client cancelled: the cancellation utility governs the answer, not SEP-2145.
            || self.guard_mentions(&["cancel"])
            || self.message_mentions(&["cancel"])
            // MRTR: a tampered or unknown `requestState` is a protocol error by design.
            || self.guard_mentions(&["request_state", "requeststate"])
            || self.message_mentions(&["request state", "requeststate", "request_state"])
            // The session's lifecycle (a call before `initialize`), not a component a tool
            // needs: "client not initialized" inside a tool is that tool failing.
            || (self.message_mentions(&["not initiali"])
                && self.message_mentions(&["server", "session"]))
            || self.message_mentions(&[
                "lock poisoned",
                "failed to serialize",
                "fail to serialize",
                "could not serialize",
            ])
            || self.is_malformed_request()
            || self.serializes_the_result()
    }

    /// The error answers serializing the tool's own result (`serde_json::to_string_pretty`,
    /// `Content::json`): it cannot fail for the plain data tools return, and reviewers of
    /// real servers do not count it.
    pub fn serializes_the_result(&self) -> bool {
        self.innermost().is_some_and(|g| {
            let has = |w: &str| g.words.iter().any(|x| x == w);
            let serde = has("serde_json")
                && [
                    "to_string",
                    "to_string_pretty",
                    "to_vec",
                    "to_vec_pretty",
                    "to_value",
                ]
                .iter()
                .any(|w| has(w));
            matches!(
                g.kind,
                GuardKind::Fallible | GuardKind::MatchArm(ArmKind::Failure)
            ) && (serde || (has("content") && has("json")))
        })
    }
}

/// What a recorded protocol error answering a well-formed `tools/call` proves.
#[derive(Debug, Clone, Copy)]
pub struct ErrorAnswer<'a> {
    /// Whether the tool is in the session's fresh catalog; `None` without one.
    pub tool_known: Option<bool>,
    /// How the arguments fail the tool's inputSchema, if they do.
    pub input_error: Option<&'a str>,
    pub code: Option<i64>,
    pub message: &'a str,
}

impl ErrorAnswer<'_> {
    /// Whether the error message, lower-cased, contains one of `needles`.
    pub fn message_mentions(&self, needles: &[&str]) -> bool {
        let message = self.message.to_lowercase();
        needles.iter().any(|n| message.contains(n))
    }
}

/// The JSON type of a member of a recorded request, as far as a rule asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    Absent,
    Object,
    String,
    /// Any other value, `null` included.
    Other,
}

/// The shape of a recorded `tools/call`'s params: what CallToolRequest requires of them.
#[derive(Debug, Clone, Copy)]
pub struct CallShape {
    pub params: Member,
    pub name: Member,
    pub arguments: Member,
}

/// Evidence written by hand, for the rules' unit tests.
#[cfg(test)]
pub mod build {
    use super::*;

    /// An error of `root` built with `constructor`, under no guard.
    pub fn error(constructor: &str, code: Option<i64>, message: Option<&str>) -> CodeError {
        CodeError {
            root: RootKind::RmcpCallTool,
            constructor: constructor.to_string(),
            code,
            message: message.map(str::to_string),
            guards: Vec::new(),
        }
    }

    /// A guard whose subject is written with `idents` (also its words, lower-cased).
    pub fn guard(kind: GuardKind, subject: Subject, idents: &[&str]) -> Guard {
        Guard {
            kind,
            subject,
            words: idents.iter().map(|i| i.to_lowercase()).collect(),
            idents: idents.iter().map(|i| i.to_string()).collect(),
        }
    }

    impl CodeError {
        pub fn under(mut self, guard: Guard) -> CodeError {
            self.guards.push(guard);
            self
        }
    }

    /// A recorded answer with `code` and `message`, and no catalog.
    pub fn answer(code: Option<i64>, message: &str) -> ErrorAnswer<'_> {
        ErrorAnswer {
            tool_known: None,
            input_error: None,
            code,
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::build::*;
    use super::*;

    #[test]
    fn a_match_fallback_on_the_name_is_a_tool_lookup() {
        let e = error("invalid_params", Some(-32602), None).under(guard(
            GuardKind::MatchArm(ArmKind::Fallback),
            Subject::Other,
            &["request", "name", "as_str"],
        ));
        assert!(e.follows_tool_lookup());
        let on_args = error("invalid_params", None, None).under(guard(
            GuardKind::MatchArm(ArmKind::Missing),
            Subject::Other,
            &["args", "get", "name"],
        ));
        assert!(!on_args.follows_tool_lookup());
    }

    #[test]
    fn a_missing_request_field_is_malformed_and_permitted() {
        let e = error("invalid_params", None, None).under(guard(
            GuardKind::Absent,
            Subject::RequestField,
            &["params"],
        ));
        assert!(e.is_malformed_request() && e.is_permitted());
        assert!(error("internal_error", Some(-32042), None).is_permitted());
        assert!(error("new", Some(-32602), Some("Tool name required")).is_permitted());
        let no_name = Some("tools/call requires params.name");
        assert!(error("error", Some(-32602), no_name).is_malformed_request());
        let quoted = Some("tools/call requires 'name'");
        assert!(error("error", Some(-32000), quoted).is_malformed_request());
        assert!(error("new", None, Some("Tool call params required")).is_malformed_request());
        assert!(error("new", None, Some("`params.arguments` must be an object")).is_permitted());
        assert!(!error("new", None, Some("`path` must be an absolute path")).is_permitted());
        assert!(!error("internal_error", None, Some("disk full")).is_permitted());
    }

    #[test]
    fn missing_arguments_are_bad_input_not_a_malformed_request() {
        let missing = Some("Missing parameters");
        assert!(error("invalid_params", None, missing).is_malformed_request());
        let no_arguments = error("invalid_params", None, missing).under(guard(
            GuardKind::Absent,
            Subject::Other,
            &["params", "arguments"],
        ));
        assert!(!no_arguments.is_malformed_request() && !no_arguments.is_permitted());
    }

    #[test]
    fn only_the_explaining_conditions_count() {
        let e = error("internal_error", None, None).under(guard(
            GuardKind::Fallible,
            Subject::Other,
            &["authorization"],
        ));
        assert!(e.guard_mentions(&["authori"]));
        assert!(!e.condition_mentions(&["authori"]));
    }
}
