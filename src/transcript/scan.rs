//! One pass over a line: it checks that the line is JSON (RFC 8259) and finds, as it goes,
//! the parts of each message the audit reads ([`Parts`]). No line is scanned twice and no
//! `Value` is built; serde_json is asked only to word the error of a line that is not JSON.

use std::borrow::Cow;

use serde::de::IgnoredAny;

use super::message::{Json, Members, Message, Parts, Span, narrow};

/// Deeper than this, a line is reported instead of read (recursion stays well inside a stack).
pub const MAX_DEPTH: usize = 1000;

/// The bytes a string holds as they are: not a quote, a backslash or a control character.
static PLAIN: [bool; 256] = {
    let mut plain = [true; 256];
    let mut b = 0;
    while b < 0x20 {
        plain[b] = false;
        b += 1;
    }
    plain[b'"' as usize] = false;
    plain[b'\\' as usize] = false;
    plain
};

/// How many bytes at the start of `bytes` a string holds as they are, eight at a time: a word
/// is plain unless one of its bytes is a quote, a backslash or below 0x20. (Each test flags
/// the lowest such byte exactly; bytes above it may be flagged falsely, so only the lowest
/// flag is used.)
fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let flags = |byte: u8, word: u64| {
        let x = word ^ (ONES * u64::from(byte));
        x.wrapping_sub(ONES) & !x
    };
    let mut run = 0;
    for chunk in bytes.chunks_exact(8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let control = word.wrapping_sub(ONES * 0x20) & !word;
        let special = (flags(b'"', word) | flags(b'\\', word) | control) & HIGH;
        if special != 0 {
            return run + special.trailing_zeros() as usize / 8;
        }
        run += 8;
    }
    run + bytes[run..]
        .iter()
        .take_while(|b| PLAIN[usize::from(**b)])
        .count()
}

/// A batch longer than this is reported instead of read: the parts of each message are kept
/// until the line is judged, and a 64 MiB line of `{},` would be 20 million of them.
pub const MAX_BATCH: usize = 10_000;

/// Why a text could not be scanned.
#[derive(Debug, PartialEq, Eq)]
pub enum Fault {
    NotJson,
    TooDeep,
    TooMany,
}

pub type Scanned<T> = Result<T, Fault>;

impl Fault {
    /// What is wrong with `text`, in serde_json's words where it has them.
    pub fn describe(&self, text: &str) -> String {
        match (self, serde_json::from_str::<IgnoredAny>(text)) {
            (Fault::TooDeep, _) => {
                format!("is nested more than {MAX_DEPTH} levels deep, so it was not checked")
            }
            (Fault::TooMany, _) => {
                format!("is a batch of more than {MAX_BATCH} messages, so it was not checked")
            }
            (Fault::NotJson, Err(e)) => format!("is not JSON ({e})"),
            (Fault::NotJson, Ok(_)) => "is not JSON".to_string(),
        }
    }
}

pub struct Scanner<'a> {
    text: &'a str,
    i: usize,
    depth: usize,
}

/// The parts of each message in `text`, one message or a batch, which must be all of it.
pub fn messages(text: &str) -> Scanned<Vec<Parts<Span>>> {
    let mut scanner = Scanner::new(text);
    let mut parts = Vec::with_capacity(1);
    scanner.messages(&mut parts)?;
    scanner.end()?;
    Ok(parts)
}

/// The members of the object `text` named in `keys`, in that order (the last of a repeated key
/// wins); `None` when `text` is JSON but not an object.
pub fn members<'a, const N: usize>(
    text: &'a str,
    keys: &[&str; N],
) -> Scanned<Option<[Option<Json<'a>>; N]>> {
    let mut scanner = Scanner::new(text);
    let mut found = [None; N];
    let object = scanner.object(|s, key| {
        let Some(k) = keys.iter().position(|k| *k == key) else {
            return Ok(false);
        };
        found[k] = Some(s.value()?);
        Ok(true)
    })?;
    scanner.end()?;
    Ok(object.map(|_| found))
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str) -> Self {
        Scanner {
            text,
            i: 0,
            depth: 0,
        }
    }

    /// Nothing but blanks is left.
    pub fn end(&mut self) -> Scanned<()> {
        self.blanks();
        match self.i == self.text.len() {
            true => Ok(()),
            false => Err(Fault::NotJson),
        }
    }

    /// A message or a batch of them; the parts of each go to `out`.
    pub fn messages(&mut self, out: &mut Vec<Parts<Span>>) -> Scanned<()> {
        self.blanks();
        if self.peek() != Some(b'[') {
            return self.message().map(|parts| out.push(parts));
        }
        self.container(b']', |s| match out.len() < MAX_BATCH {
            true => s.message().map(|parts| out.push(parts)),
            false => Err(Fault::TooMany),
        })
        .map(drop)
    }

    /// One message: `params`, `result` and `error` are walked as they are met; the last of a
    /// repeated member wins, whole.
    fn message(&mut self) -> Scanned<Parts<Span>> {
        let mut of_message = Message::default();
        let (mut of_params, mut of_result, mut of_error) = Default::default();
        let start = self.blank_then_offset();
        let object = self.object(|s, key| {
            let Some(slot) = of_message.slot(key) else {
                return Ok(false);
            };
            let part = match key {
                "params" => s.nested(&mut of_params)?,
                "result" => s.nested(&mut of_result)?,
                "error" => s.nested(&mut of_error)?,
                _ => s.value()?,
            };
            *slot = Some(s.span(part));
            Ok(true)
        })?;
        let message = match object {
            Some(message) => message,
            None => self.since(start),
        };
        Ok(Parts {
            message: self.span(message),
            object: object.is_some(),
            of_message,
            of_params,
            of_result,
            of_error,
        })
    }

    /// A value; when it is an object, the members of its group go to `found`.
    fn nested(&mut self, found: &mut impl Members<Span>) -> Scanned<Json<'a>> {
        *found = Default::default();
        let start = self.blank_then_offset();
        let object = self.object(|s, key| {
            let Some(slot) = found.slot(key) else {
                return Ok(false);
            };
            let value = s.value()?;
            *slot = Some(s.span(value));
            Ok(true)
        })?;
        Ok(object.unwrap_or_else(|| self.since(start)))
    }

    /// An object, each member's name given to `member`, which reads the value and says so
    /// (`true`), or leaves it to be checked and skipped. Any other value is checked and
    /// skipped: `None`.
    pub fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, &str) -> Scanned<bool>,
    ) -> Scanned<Option<Json<'a>>> {
        self.blanks();
        if self.peek() != Some(b'{') {
            self.value()?;
            return Ok(None);
        }
        let object = self.container(b'}', |s| {
            s.blanks();
            let key = match s.string()? {
                (key, false) => Cow::Borrowed(&key.text()[1..key.text().len() - 1]),
                (key, true) => key.string().ok_or(Fault::NotJson)?,
            };
            s.blanks();
            s.expect(b':')?;
            if !member(s, &key)? {
                s.value()?;
            }
            Ok(())
        })?;
        Ok(Some(object))
    }

    /// An array, each item read by `item`. Any other value is checked and skipped: `None`.
    pub fn array(
        &mut self,
        item: impl FnMut(&mut Self) -> Scanned<()>,
    ) -> Scanned<Option<Json<'a>>> {
        match self.ahead() {
            Some(b'[') => self.container(b']', item).map(Some),
            _ => self.value().map(|_| None),
        }
    }

    /// The first byte of the next value, blanks skipped: what kind of value comes.
    pub fn ahead(&mut self) -> Option<u8> {
        self.blanks();
        self.peek()
    }

    /// An object or an array (`close` says which), each item read by `item`.
    fn container(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Scanned<()>,
    ) -> Scanned<Json<'a>> {
        let start = self.i;
        self.enter()?;
        self.blanks();
        if !self.eat(close) {
            loop {
                item(self)?;
                self.blanks();
                match self.next() {
                    Some(b',') => {}
                    Some(b) if b == close => break,
                    _ => return Err(Fault::NotJson),
                }
            }
        }
        self.depth -= 1;
        Ok(self.since(start))
    }

    /// Any value, checked.
    pub fn value(&mut self) -> Scanned<Json<'a>> {
        self.blanks();
        let start = self.i;
        match self.peek().ok_or(Fault::NotJson)? {
            b'{' => {
                let object = self.object(|_, _| Ok(false))?;
                return Ok(object.unwrap_or_else(|| self.since(start)));
            }
            b'[' => return self.container(b']', |s| s.value().map(drop)),
            b'"' => return self.string().map(|(string, _)| string),
            b't' => self.literal(b"true")?,
            b'f' => self.literal(b"false")?,
            b'n' => self.literal(b"null")?,
            _ => self.number()?,
        }
        Ok(self.since(start))
    }

    fn enter(&mut self) -> Scanned<()> {
        self.i += 1;
        self.depth += 1;
        match self.depth > MAX_DEPTH {
            true => Err(Fault::TooDeep),
            false => Ok(()),
        }
    }

    /// A string, and whether it holds escapes.
    fn string(&mut self) -> Scanned<(Json<'a>, bool)> {
        let bytes = self.text.as_bytes();
        let start = self.i;
        self.expect(b'"')?;
        let mut escaped = false;
        loop {
            self.i += plain_run(bytes.get(self.i..).ok_or(Fault::NotJson)?);
            match self.next() {
                Some(b'"') => return Ok((self.since(start), escaped)),
                Some(b'\\') => escaped = true,
                _ => return Err(Fault::NotJson),
            }
            match self.next().ok_or(Fault::NotJson)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                b'u' => {
                    let hex = bytes.get(self.i..self.i + 4).ok_or(Fault::NotJson)?;
                    if !hex.iter().all(u8::is_ascii_hexdigit) {
                        return Err(Fault::NotJson);
                    }
                    self.i += 4;
                }
                _ => return Err(Fault::NotJson),
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Scanned<()> {
        self.eat(b'-');
        match self.next() {
            Some(b'0') => {}
            Some(b'1'..=b'9') => self.digits(0)?,
            _ => return Err(Fault::NotJson),
        }
        if self.eat(b'.') {
            self.digits(1)?;
        }
        if self.eat(b'e') || self.eat(b'E') {
            let _ = self.eat(b'+') || self.eat(b'-');
            self.digits(1)?;
        }
        Ok(())
    }

    fn digits(&mut self, at_least: usize) -> Scanned<()> {
        let rest = &self.text.as_bytes()[self.i..];
        let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        self.i += n;
        match n >= at_least {
            true => Ok(()),
            false => Err(Fault::NotJson),
        }
    }

    fn literal(&mut self, word: &[u8]) -> Scanned<()> {
        match self.text.as_bytes()[self.i..].starts_with(word) {
            true => {
                self.i += word.len();
                Ok(())
            }
            false => Err(Fault::NotJson),
        }
    }

    fn blanks(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    fn blank_then_offset(&mut self) -> usize {
        self.blanks();
        self.i
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.i += 1;
        Some(b)
    }

    fn eat(&mut self, b: u8) -> bool {
        let here = self.peek() == Some(b);
        self.i += usize::from(here);
        here
    }

    fn expect(&mut self, b: u8) -> Scanned<()> {
        match self.eat(b) {
            true => Ok(()),
            false => Err(Fault::NotJson),
        }
    }

    /// Where `part` of the text is.
    fn span(&self, part: Json<'a>) -> Span {
        let span = part.span_in(self.text).unwrap_or_default();
        narrow(span.start)..narrow(span.end)
    }

    /// The text from `start` to here.
    fn since(&self, start: usize) -> Json<'a> {
        Json::checked(&self.text[start..self.i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn checks(text: &str) -> bool {
        let mut scanner = Scanner::new(text);
        scanner.value().and_then(|_| scanner.end()).is_ok()
    }

    #[test]
    fn agrees_with_serde_json_on_what_is_json() {
        let samples = [
            "0",
            "-0",
            "1.5e-3",
            "-12E+4",
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "true",
            "tru",
            "nul",
            "null x",
            r#""a\"b""#,
            r#""\u00e9""#,
            r#""\u00g9""#,
            r#""\x""#,
            "\"tab\t\"",
            "\"raw\u{1}\"",
            r#"{"a": [1, {"b": null}], "c": "}"}"#,
            "{,}",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "[1, 2,]",
            "[",
            "]",
            "{}",
            "[]",
            " [ ] ",
            "{\"a\":1}}",
            r#"{"\u0061": 2}"#,
            "\"\u{7f}\"",
            "\"é\"",
            "",
            "  ",
            r#""\ud800""#,
            r#""\ud800\udc00""#,
        ];
        for sample in samples {
            let serde = serde_json::from_str::<IgnoredAny>(sample).is_ok();
            assert_eq!(checks(sample), serde, "{sample:?}");
        }
    }

    #[test]
    fn plain_runs_stop_at_the_first_special_byte() {
        for special in ["\"", "\\", "\u{0}", "\u{1f}"] {
            for at in 0..20 {
                let text = format!("{}{special}é\u{1}\"", "a".repeat(at));
                assert_eq!(plain_run(text.as_bytes()), at, "{special:?} at {at}");
            }
        }
        assert_eq!(plain_run("é ~\u{7f}".as_bytes()), 5);
    }

    /// Token soup: every structure JSON has, and the ways to get each wrong.
    fn soup() -> impl Strategy<Value = String> {
        let token = prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\n",
            "\"a\"",
            "\"id\"",
            "\"\\u00e9\"",
            "\"\\ud83d\\ude00\"",
            "\"\\x\"",
            "\"\\",
            "\"",
            "\u{1}",
            "é",
            "0",
            "01",
            "-",
            "-0.5e+3",
            "1.",
            ".5",
            "1e",
            "true",
            "tru",
            "null",
            "nullx",
            "false",
        ]);
        prop::collection::vec(token, 0..24).prop_map(|tokens| tokens.concat())
    }

    proptest! {
        // PROPTEST_CASES sets a longer run (README, "Fuzzing").
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(2048)
        ))]

        #[test]
        fn the_scanner_and_serde_json_agree_on_what_is_json(text in soup()) {
            let serde = serde_json::from_str::<IgnoredAny>(&text).is_ok();
            prop_assert_eq!(checks(&text), serde, "{:?}", text);
        }

        #[test]
        fn message_parts_never_panic_and_lie_in_the_text(text in soup()) {
            if let Ok(all) = messages(&text) {
                for parts in &all {
                    let resolved = parts.resolve(&text);
                    prop_assert!(resolved.message.span_in(&text).is_some());
                }
            }
        }
    }

    #[test]
    fn deep_nesting_is_a_fault_not_a_crash() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(Scanner::new(&deep).value().err(), Some(Fault::TooDeep));
        let fine = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(checks(&fine));
    }

    #[test]
    fn members_and_message_parts() {
        let text = r#" {"a": 1, "\u0062": [2], "a": {"c": "}\"{"}, "z": null} "#;
        let [a, b, c] = members(text, &["a", "b", "c"]).unwrap().unwrap();
        assert_eq!(a.map(Json::text), Some(r#"{"c": "}\"{"}"#));
        assert_eq!(b.map(Json::text), Some("[2]"));
        assert!(c.is_none());
        assert!(members("[1]", &["a"]).unwrap().is_none());
        assert!(members("{} x", &["a"]).is_err());

        let text = r#"{"id": 7, "result": {"isError": true, "content": [{"text": "}"}]},
            "method": 3, "result": {"structuredContent": {"a": 1}}, "error": "x"}"#;
        let parts: Vec<_> = messages(text)
            .unwrap()
            .iter()
            .map(|p| p.resolve(text))
            .collect();
        let text_of = |p: Option<Json>| p.map(|p| p.text().to_string());
        let some = |s: &str| Some(s.to_string());
        assert!(parts[0].object);
        let m = parts[0].of_message;
        assert_eq!(
            [m.id, m.method, m.params, m.result, m.error].map(text_of),
            [
                some("7"),
                some("3"),
                None,
                some(r#"{"structuredContent": {"a": 1}}"#),
                some(r#""x""#)
            ]
        );
        let r = parts[0].of_result;
        assert_eq!(text_of(r.structured), some(r#"{"a": 1}"#));
        assert!(
            [r.result_type, r.task, r.is_error, r.content, r.capabilities]
                .iter()
                .all(Option::is_none)
        );
        let text = r#"[{"id": 1}, 2, {"id": "x"}]"#;
        let batch: Vec<_> = messages(text)
            .unwrap()
            .iter()
            .map(|p| p.resolve(text))
            .collect();
        let ids: Vec<Option<String>> = batch
            .iter()
            .map(|p| p.of_message.id.map(Json::id_key))
            .collect();
        assert_eq!(
            ids,
            [Some("1".to_string()), None, Some(r#""x""#.to_string())]
        );
        assert_eq!(batch[1].message.text(), "2");
        assert!(!batch[1].object);
    }
}
