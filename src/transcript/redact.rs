//! Secrets kept out of what `record` and `probe --save` write: the string values of members
//! whose names say they hold a secret become a fixed marker, in place, so the JSON stays valid
//! and everything else stays as it was written. Keys, ids, methods, error codes and the
//! messages' shape are never touched, so the audit of a redacted transcript gives the findings
//! of the original (unless a tool's schema constrains a secret's text, which then judges the
//! marker).

use std::borrow::Cow;
use std::ops::Range;

use super::message::Json;
use super::scan::{Scanned, Scanner};

/// What a secret's value becomes.
pub const MARKER: &str = "[redacted]";

/// The member names whose string values are secrets by default, compared without case:
/// credentials, and the headers that carry them (a tool's `headers` argument).
pub const DEFAULT_KEYS: &[&str] = &[
    "password",
    "token",
    "secret",
    "api_key",
    "apikey",
    "authorization",
    "access_token",
    "refresh_token",
    "cookie",
    "set-cookie",
];

/// Header names ending so are secrets too (`X-Api-Key`, `X-Auth-Token`).
const SECRET_SUFFIXES: &[&str] = &["-api-key", "-token"];

pub struct Redactor {
    /// Lowercase.
    keys: Vec<String>,
}

impl Redactor {
    /// The default keys and `extra` ones (`--redact KEY`).
    pub fn new(extra: &[String]) -> Self {
        let keys = DEFAULT_KEYS.iter().map(|k| k.to_string());
        let keys = keys.chain(extra.iter().map(|k| k.to_ascii_lowercase()));
        Redactor {
            keys: keys.collect(),
        }
    }

    /// Whether a member or header of this name holds a secret.
    pub fn names_secret(&self, name: &str) -> bool {
        let name = name.to_ascii_lowercase();
        self.keys.contains(&name) || SECRET_SUFFIXES.iter().any(|s| name.ends_with(s))
    }

    /// `text` with the secrets in it replaced. Text that is not JSON is redacted up to where
    /// it stops being JSON, and a message nested deeper than the scanner reads down to that
    /// depth.
    pub fn redact<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut secrets = Vec::new();
        let _ = self.walk(&mut Scanner::new(text), &mut secrets);
        if secrets.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for Range { start, end } in secrets.iter().filter_map(|s| s.span_in(text)) {
            out.push_str(&text[at..start]);
            out.push('"');
            out.push_str(MARKER);
            out.push('"');
            at = end;
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// Any value: the secrets in it go to `secrets`.
    fn walk<'t>(&self, s: &mut Scanner<'t>, secrets: &mut Vec<Json<'t>>) -> Scanned<()> {
        match s.ahead() {
            Some(b'{') => s
                .object(|s, key| {
                    match self.names_secret(key) {
                        true => self.secret(s, secrets)?,
                        false => self.walk(s, secrets)?,
                    }
                    Ok(true)
                })
                .map(drop),
            Some(b'[') => s.array(|s| self.walk(s, secrets)).map(drop),
            _ => s.value().map(drop),
        }
    }

    /// The value of a secret member: a string is a secret, and so is each string of an array;
    /// an object is walked (`{"authorization": {"token": ..}}`), other values are kept.
    fn secret<'t>(&self, s: &mut Scanner<'t>, secrets: &mut Vec<Json<'t>>) -> Scanned<()> {
        match s.ahead() {
            Some(b'"') => s.value().map(|string| secrets.push(string)),
            Some(b'[') => s.array(|s| self.secret(s, secrets)).map(drop),
            _ => self.walk(s, secrets),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    #[test]
    fn secrets_are_replaced_in_place_and_the_rest_kept_as_written() {
        let redactor = Redactor::new(&["Session".to_string()]);
        let text = r#"{"jsonrpc":"2.0", "id":"password","method":"tools/call","params":{"name":"login","arguments":{"Password":"hunter2","user":"me","PIN":1234,"session":"s\"1","tokens":["kept"],"token":["a",{"secret":"b","n":2}],"authorization":{"type":"bearer","value":"x"},"headers":{"X-Api-Key":"k","Cookie":"c=1"}},"_meta":{"progressToken":7}}}"#;
        let redacted = redactor.redact(text);
        assert_eq!(
            redacted,
            r#"{"jsonrpc":"2.0", "id":"password","method":"tools/call","params":{"name":"login","arguments":{"Password":"[redacted]","user":"me","PIN":1234,"session":"[redacted]","tokens":["kept"],"token":["[redacted]",{"secret":"[redacted]","n":2}],"authorization":{"type":"bearer","value":"x"},"headers":{"X-Api-Key":"[redacted]","Cookie":"[redacted]"}},"_meta":{"progressToken":7}}}"#
        );
        assert!(serde_json::from_str::<serde_json::Value>(&redacted).is_ok());
    }

    #[test]
    fn schemas_that_name_secrets_are_kept() {
        let redactor = Redactor::new(&[]);
        let listing = r#"{"id":2,"result":{"tools":[{"name":"login","inputSchema":{"type":"object","properties":{"password":{"type":"string"}},"required":["password"]}}]}}"#;
        assert!(matches!(redactor.redact(listing), Cow::Borrowed(_)));
    }

    #[test]
    fn text_that_is_not_json_is_kept_but_for_the_secrets_before_its_fault() {
        let redactor = Redactor::new(&[]);
        for text in ["password=hunter2", r#""password""#, ""] {
            assert_eq!(redactor.redact(text), text);
        }
        let cut = r#"{"password":"hunter2", "more"#;
        assert_eq!(redactor.redact(cut), r#"{"password":"[redacted]", "more"#);
        let batch = r#"[{"password":"a"},{"password":"b"}]"#;
        assert_eq!(
            redactor.redact(batch),
            r#"[{"password":"[redacted]"},{"password":"[redacted]"}]"#
        );
    }

    #[test]
    fn header_names_are_judged_alike() {
        let redactor = Redactor::new(&[]);
        for name in [
            "Authorization",
            "Cookie",
            "Set-Cookie",
            "X-Api-Key",
            "X-Auth-Token",
        ] {
            assert!(redactor.names_secret(name), "{name}");
        }
        for name in ["Mcp-Session-Id", "Content-Type", "progressToken", "tokens"] {
            assert!(!redactor.names_secret(name), "{name}");
        }
    }

    /// What redaction must give, computed on a built value.
    fn reference(redactor: &Redactor, value: &Value, secret: bool) -> Value {
        match value {
            Value::String(_) if secret => Value::from(MARKER),
            Value::Array(items) => {
                let items = items.iter().map(|v| reference(redactor, v, secret));
                Value::Array(items.collect())
            }
            Value::Object(members) => {
                let members = members
                    .iter()
                    .map(|(k, v)| (k.clone(), reference(redactor, v, redactor.names_secret(k))));
                Value::Object(members.collect())
            }
            other => other.clone(),
        }
    }

    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            r#"[a-z"\\é ]{0,6}"#.prop_map(Value::from),
        ];
        let key = prop::sample::select(vec![
            "password",
            "Token",
            "X-Api-Key",
            "set-cookie",
            "tokens",
            "id",
            "method",
            "a",
            "",
        ]);
        leaf.prop_recursive(6, 64, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((key.clone(), inner), 0..6).prop_map(|members| {
                    Value::Object(
                        members
                            .into_iter()
                            .map(|(k, v)| (k.to_string(), v))
                            .collect(),
                    )
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn redaction_replaces_exactly_the_secrets(value in json(), pretty in any::<bool>()) {
            let redactor = Redactor::new(&[]);
            let text = match pretty {
                true => serde_json::to_string_pretty(&value).unwrap(),
                false => value.to_string(),
            };
            let redacted: Value = serde_json::from_str(&redactor.redact(&text)).unwrap();
            prop_assert_eq!(redacted, reference(&redactor, &value, false));
        }
    }
}
