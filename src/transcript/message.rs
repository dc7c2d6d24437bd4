//! Parts of a message, read lazily. A line is checked once, by [`super::scan`], which also
//! finds the parts the audit reads; only those a rule needs are parsed further (a tool's
//! content text only when it reports an error, its `structuredContent` only when there is a
//! schema to check it against). Most of a week of traffic is content no rule reads, so no
//! `Value` is built for it; and a part's place in the line is its span, so labels need no
//! second scan.

use std::borrow::Cow;
use std::ops::Range;

use serde_json::Value;

use super::locate;

/// A slice of text checked to be one JSON value.
#[derive(Clone, Copy)]
pub struct Json<'a>(&'a str);

impl<'a> Json<'a> {
    /// Text the scan has checked to be one JSON value.
    pub fn checked(text: &'a str) -> Self {
        Json(text)
    }

    pub fn text(self) -> &'a str {
        self.0
    }

    /// A string's text, borrowed unless it holds escapes; `None` for any other value.
    pub fn string(self) -> Option<Cow<'a, str>> {
        let inner = self.0.strip_prefix('"')?.strip_suffix('"')?;
        // Most strings here are short: a walk beats setting up a search.
        if inner.bytes().any(|b| b == b'\\') {
            serde_json::from_str::<String>(self.0).ok().map(Cow::Owned)
        } else {
            Some(Cow::Borrowed(inner))
        }
    }

    pub fn is_null(self) -> bool {
        self.0 == "null"
    }

    pub fn is_object(self) -> bool {
        self.0.starts_with('{')
    }

    /// The value built whole, for the parts a rule reads in depth (schemas, arguments,
    /// errors); an error only where it is nested deeper than serde_json builds.
    pub fn value(self) -> serde_json::Result<Value> {
        serde_json::from_str(self.0)
    }

    /// A request id as compact JSON: typed (`3` is not `"3"`) and the same however it was
    /// written (`"\u0061"` is `"a"`).
    pub fn id_key(self) -> String {
        // Short digit strings are integers a `Value` prints as written; a checked string
        // without a backslash has no escape to undo.
        let plain_number =
            (1..=18).contains(&self.0.len()) && self.0.bytes().all(|b| b.is_ascii_digit());
        let plain_string = self.0.starts_with('"') && !self.0.contains('\\');
        if plain_number || plain_string {
            return self.0.to_string();
        }
        self.value()
            .map_or_else(|_| self.0.to_string(), |v| v.to_string())
    }

    /// Where this sits in `text`, when it is a part of it.
    pub fn span_in(self, text: &str) -> Option<Range<usize>> {
        locate::span_in(text, self.0)
    }
}

/// Where a part is in the text a message was scanned from. Lines and chunks are far below
/// 4 GiB.
pub type Span = Range<u32>;

pub fn narrow(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

/// A group of members the scan fills in.
pub trait Members<J>: Default {
    /// Where the member named `key` goes, if it is one of the group.
    fn slot(&mut self, key: &str) -> Option<&mut Option<J>>;
}

/// A group of members of one JSON object that the audit reads: a struct with a field per
/// member, named as the code reads it, and the member names the scan looks for.
macro_rules! members {
    ($(#[$doc:meta])* $group:ident { $($field:ident = $key:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $group<J> {
            $(pub $field: Option<J>,)+
        }

        impl<J> Default for $group<J> {
            fn default() -> Self {
                Self { $($field: None,)+ }
            }
        }

        impl<J> Members<J> for $group<J> {
            fn slot(&mut self, key: &str) -> Option<&mut Option<J>> {
                match key {
                    $($key => Some(&mut self.$field),)+
                    _ => None,
                }
            }
        }

        impl<J> $group<J> {
            pub fn map<K>(&self, f: impl Fn(&J) -> K) -> $group<K> {
                $group { $($field: self.$field.as_ref().map(&f),)+ }
            }
        }
    };
}

members! {
    /// The members of a JSON-RPC message that the audit reads.
    Message { id = "id", method = "method", params = "params", result = "result", error = "error" }
}
members! {
    /// Of its `params`.
    Params {
        name = "name",
        arguments = "arguments",
        meta = "_meta",
        task = "task",
        cursor = "cursor",
        request_id = "requestId",
    }
}
members! {
    /// Of its `result`.
    Outcome {
        result_type = "resultType",
        task = "task",
        is_error = "isError",
        content = "content",
        structured = "structuredContent",
        protocol_version = "protocolVersion",
        capabilities = "capabilities",
    }
}
members! {
    /// Of its `error`.
    Failure { code = "code", message = "message" }
}

/// The parts of one message the audit reads: found by the scan as spans, read as [`Json`].
pub struct Parts<J> {
    pub message: J,
    /// Whether the message is an object at all (if not, it has no parts).
    pub object: bool,
    pub of_message: Message<J>,
    pub of_params: Params<J>,
    pub of_result: Outcome<J>,
    pub of_error: Failure<J>,
}

impl Parts<Span> {
    /// The parts in `text`, the text they were scanned from.
    pub fn resolve<'t>(&self, text: &'t str) -> Parts<Json<'t>> {
        let part = |span: &Span| {
            Json(
                text.get(span.start as usize..span.end as usize)
                    .unwrap_or_default(),
            )
        };
        Parts {
            message: part(&self.message),
            object: self.object,
            of_message: self.of_message.map(part),
            of_params: self.of_params.map(part),
            of_result: self.of_result.map(part),
            of_error: self.of_error.map(part),
        }
    }
}

/// Whether a member is present with a value other than `null`.
pub fn given(part: Option<Json>) -> bool {
    part.is_some_and(|p| !p.is_null())
}

/// A member's string text, if it is a string.
pub fn string(part: Option<Json<'_>>) -> Option<Cow<'_, str>> {
    part?.string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Json<'_> {
        Json::checked(text)
    }

    #[test]
    fn strings_and_ids() {
        assert_eq!(
            json(r#""tools/call""#).string().as_deref(),
            Some("tools/call")
        );
        assert_eq!(json(r#""a\"b""#).string().as_deref(), Some("a\"b"));
        assert_eq!(json("3").string(), None);
        for id in [
            "3",
            "-3",
            "-0",
            r#""3""#,
            "1e2",
            "123456789012345678901",
            r#"{"b": 1, "a": 2}"#,
        ] {
            assert_eq!(
                json(id).id_key(),
                json(id).value().unwrap().to_string(),
                "{id}"
            );
        }
        assert_eq!(json(r#""\u0061""#).id_key(), r#""a""#);
        assert!(given(Some(json("0"))) && !given(Some(json("null"))) && !given(None));
    }
}
