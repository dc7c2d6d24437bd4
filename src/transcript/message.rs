//! JSON read lazily. A line is checked once, by serde_json; after that its parts are found by
//! a structural scan that skips strings with memchr, and only the parts a rule needs are
//! parsed (a tool's content text only when it reports an error, its `structuredContent` only
//! when there is a schema to check it against). Most of a week of traffic is content no rule
//! reads, so no `Value` is built for it; and a part's place in the line is its span, so labels
//! need no second scan.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde::Deserializer as _;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use super::locate;

/// A slice of text that serde_json has checked to be one JSON value.
#[derive(Clone, Copy)]
pub struct Json<'a>(&'a str);

/// The members of an object named in `keys`, in that order, as raw JSON; `Ok(None)` when
/// the text is JSON but not an object. The whole text is checked here, in one pass; the last
/// of a repeated key wins, as in a `Value`.
pub fn members<'a, const N: usize>(
    text: &'a str,
    keys: &[&str; N],
) -> serde_json::Result<Option<[Option<&'a RawValue>; N]>> {
    if !text.trim_start().starts_with('{') {
        return serde_json::from_str::<IgnoredAny>(text).map(|_| None);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let found = de.deserialize_map(Members { keys })?;
    de.end()?;
    Ok(Some(found))
}

impl<'a> From<&'a RawValue> for Json<'a> {
    fn from(raw: &'a RawValue) -> Self {
        Json(raw.get())
    }
}

impl<'a> Json<'a> {
    /// Text that serde_json has already checked, in the reader's thread.
    pub fn checked(text: &'a str) -> Self {
        Json(text)
    }

    pub fn text(self) -> &'a str {
        self.0
    }

    /// The members named in `keys`, in that order; `None` unless this is an object. The last
    /// of a repeated key wins, as in a `Value`.
    pub fn fields<const N: usize>(self, keys: &[&str; N]) -> Option<[Option<Json<'a>>; N]> {
        let found = locate::members(self.0, keys)?;
        Some(found.map(|span| span.map(|span| Json(&self.0[span]))))
    }

    /// The elements of an array; `None` unless this is one.
    pub fn elements(self) -> Option<Vec<Json<'a>>> {
        if !self.0.starts_with('[') {
            return None;
        }
        let spans = locate::array_elements(self.0, &[])?;
        Some(spans.into_iter().map(|span| Json(&self.0[span])).collect())
    }

    /// A string's text, borrowed unless it holds escapes; `None` for any other value.
    pub fn string(self) -> Option<Cow<'a, str>> {
        let inner = self.0.strip_prefix('"')?.strip_suffix('"')?;
        if inner.contains('\\') {
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

/// The members of a JSON-RPC message that the audit reads.
pub const MESSAGE: [&str; 5] = ["id", "method", "params", "result", "error"];
/// Of its `params`.
pub const PARAMS: [&str; 6] = ["name", "arguments", "_meta", "task", "cursor", "requestId"];
/// Of its `result`.
pub const RESULT: [&str; 7] = [
    "resultType",
    "task",
    "isError",
    "content",
    "structuredContent",
    "protocolVersion",
    "capabilities",
];
/// Of its `error`.
pub const ERROR: [&str; 2] = ["code", "message"];

/// The parts of one message the audit reads, in the order of [`MESSAGE`], [`PARAMS`],
/// [`RESULT`] and [`ERROR`]: found in one structural pass, as [`Json`] or as spans (`J`).
pub struct Parts<J> {
    pub message: J,
    /// Whether the message is an object at all (if not, it has no parts).
    pub object: bool,
    pub of_message: [Option<J>; 5],
    pub of_params: [Option<J>; 6],
    pub of_result: [Option<J>; 7],
    pub of_error: [Option<J>; 2],
}

impl<J> Parts<J> {
    pub fn as_ref(&self) -> Parts<&J> {
        Parts {
            message: &self.message,
            object: self.object,
            of_message: self.of_message.each_ref().map(Option::as_ref),
            of_params: self.of_params.each_ref().map(Option::as_ref),
            of_result: self.of_result.each_ref().map(Option::as_ref),
            of_error: self.of_error.each_ref().map(Option::as_ref),
        }
    }

    /// The same parts in another form (spans in a buffer that another thread reads).
    pub fn map<K>(self, mut f: impl FnMut(J) -> K) -> Parts<K> {
        Parts {
            message: f(self.message),
            object: self.object,
            of_message: self.of_message.map(|p| p.map(&mut f)),
            of_params: self.of_params.map(|p| p.map(&mut f)),
            of_result: self.of_result.map(|p| p.map(&mut f)),
            of_error: self.of_error.map(|p| p.map(&mut f)),
        }
    }
}

impl<'a> Parts<Json<'a>> {
    /// The parts of each message of `msg`, a message or a batch of them.
    pub fn each(msg: Json<'a>, mut f: impl FnMut(Self)) {
        match msg.elements() {
            Some(batch) => batch.into_iter().for_each(|m| f(Parts::of(m))),
            None => f(Parts::of(msg)),
        }
    }

    /// The parts of one message. `params`, `result` and `error` are walked as they are met,
    /// not skipped and walked again; the last of a repeated member wins, whole.
    pub fn of(message: Json<'a>) -> Self {
        let text = message.0;
        let (mut of_message, mut of_params, mut of_result, mut of_error) =
            ([None; 5], [None; 6], [None; 7], [None; 2]);
        let object = locate::walk_members(text, |key, at| {
            let k = MESSAGE.iter().position(|m| *m == key)?;
            let (value, end) = match k {
                2 => nested(text, at, &PARAMS, &mut of_params),
                3 => nested(text, at, &RESULT, &mut of_result),
                4 => nested(text, at, &ERROR, &mut of_error),
                _ => plain(text, at),
            }?;
            of_message[k] = Some(value);
            Some(end)
        })
        .is_some();
        Parts {
            message,
            object,
            of_message,
            of_params,
            of_result,
            of_error,
        }
    }
}

/// The value at `at` in `text`, and where it ends.
fn plain(text: &str, at: usize) -> Option<(Json<'_>, usize)> {
    let end = locate::value_end(text, at)?;
    Some((Json(&text[at..end]), end))
}

/// [`plain`], and when the value is an object, the members named in `keys` put in `found`.
fn nested<'a, const N: usize>(
    text: &'a str,
    at: usize,
    keys: &[&str; N],
    found: &mut [Option<Json<'a>>; N],
) -> Option<(Json<'a>, usize)> {
    *found = [None; N];
    let inner = &text[at..];
    let end = locate::walk_members(inner, |key, at| {
        let k = keys.iter().position(|x| *x == key)?;
        let (value, end) = plain(inner, at)?;
        found[k] = Some(value);
        Some(end)
    });
    match end {
        Some(end) => Some((Json(&inner[..end]), at + end)),
        None => plain(text, at),
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

struct Members<'k, const N: usize> {
    keys: &'k [&'k str; N],
}

impl<'de, const N: usize> Visitor<'de> for Members<'_, N> {
    type Value = [Option<&'de RawValue>; N];

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = [None; N];
        while let Some(index) = map.next_key_seed(Key { keys: self.keys })? {
            match index {
                Some(i) => found[i] = Some(map.next_value()?),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(found)
    }
}

/// A member name, as its place in the wanted keys; read without allocating.
struct Key<'k, const N: usize> {
    keys: &'k [&'k str; N],
}

impl<'de, const N: usize> DeserializeSeed<'de> for Key<'_, N> {
    type Value = Option<usize>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for Key<'_, N> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E>(self, name: &str) -> Result<Option<usize>, E> {
        Ok(self.keys.iter().position(|k| *k == name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Json<'_> {
        Json::from(serde_json::from_str::<&RawValue>(text).unwrap())
    }

    #[test]
    fn members_are_borrowed_and_the_last_repeat_wins() {
        let text = r#" {"a": 1, "\u0062": [2], "a": {"c": "}\"{"}, "z": null} "#;
        let [a, b, c] = members(text, &["a", "b", "c"]).unwrap().unwrap();
        assert_eq!(a.map(RawValue::get), Some(r#"{"c": "}\"{"}"#));
        assert_eq!(b.map(RawValue::get), Some("[2]"));
        assert!(c.is_none());
        let at = text.find(r#"{"c""#).unwrap();
        assert_eq!(Json::from(a.unwrap()).span_in(text), Some(at..at + 13));
        let msg = Json::from(a.unwrap());
        let [c] = msg.fields(&["c"]).unwrap();
        assert_eq!(c.and_then(Json::string).as_deref(), Some("}\"{"));
        assert!(members("[1]", &["a"]).unwrap().is_none());
        assert!(members("{\"a\": }", &["a"]).is_err());
        assert!(members("{} x", &["a"]).is_err());
    }

    #[test]
    fn parts_are_found_in_one_pass_and_a_repeat_wins_whole() {
        let text = r#"{"id": 7, "result": {"isError": true, "content": [{"text": "}"}]},
            "method": 3, "result": {"structuredContent": {"a": 1}}, "error": "x"}"#;
        let parts = Parts::of(json(text));
        let texts = |found: &[Option<Json>]| -> Vec<Option<String>> {
            found
                .iter()
                .map(|p| p.map(|p| p.text().to_string()))
                .collect()
        };
        let some = |s: &str| Some(s.to_string());
        assert!(parts.object);
        assert_eq!(
            texts(&parts.of_message),
            [
                some("7"),
                some("3"),
                None,
                some(r#"{"structuredContent": {"a": 1}}"#),
                some(r#""x""#)
            ]
        );
        assert_eq!(
            texts(&parts.of_result),
            [None, None, None, None, some(r#"{"a": 1}"#), None, None]
        );
        assert_eq!(texts(&parts.of_error), [None, None]);
        assert!(!Parts::of(json("[1]")).object);
        let mut ids = Vec::new();
        Parts::each(json(r#"[{"id": 1}, 2, {"id": "x"}]"#), |p| {
            ids.push(p.of_message[0].map(|id| id.id_key()));
        });
        assert_eq!(
            ids,
            [Some("1".to_string()), None, Some(r#""x""#.to_string())]
        );
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
        let elements = json(r#"[1, {"a": "]"}, "x"]"#).elements().unwrap();
        let texts: Vec<&str> = elements.into_iter().map(Json::text).collect();
        assert_eq!(texts, ["1", r#"{"a": "]"}"#, r#""x""#]);
        assert!(json("{}").elements().is_none());
    }
}
