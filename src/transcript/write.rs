//! Writes envelope JSONL, the format `record` and `probe` save and `audit` reads back.

use std::borrow::Cow;
use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::read::Dir;
use super::redact::Redactor;

/// Appends one `{"ts", "dir", "msg"}` line per message and flushes it, so a crash of either
/// side loses nothing already seen.
pub struct Recorder<W: Write> {
    out: W,
    /// The `session` of every line (an HTTP `Mcp-Session-Id`), once known.
    pub session: Option<String>,
    /// `None` with `--no-redact`.
    redactor: Option<Redactor>,
}

impl<W: Write> Recorder<W> {
    pub fn new(out: W, redactor: Option<Redactor>) -> Self {
        Recorder {
            out,
            session: None,
            redactor,
        }
    }

    /// Records one message as it crossed the wire. A line that is JSON is kept verbatim but
    /// for its secrets, so the recording is lossless; anything else is kept as a JSON string,
    /// which the audit reports as a line that is not a message.
    pub fn raw(&mut self, dir: Dir, line: &[u8]) -> io::Result<()> {
        self.raw_in(None, dir, line)
    }

    /// [`Self::raw`], in `session` (an HTTP `Mcp-Session-Id`) rather than the recorder's.
    pub fn raw_in(&mut self, session: Option<&str>, dir: Dir, line: &[u8]) -> io::Result<()> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let text = String::from_utf8_lossy(line);
        let text = self.redacted(text.trim());
        let text = text.trim();
        if text.is_empty() {
            return Ok(());
        }
        match serde_json::from_str::<&serde_json::value::RawValue>(text) {
            Ok(raw) if !text.contains('\n') => self.line(session, dir, raw.get()),
            // Pretty-printed JSON (an HTTP body) is made one line: the format is a line each.
            Ok(_) => match serde_json::from_str::<Value>(text) {
                Ok(value) => self.line(session, dir, &value.to_string()),
                Err(_) => self.line(session, dir, &Value::from(text).to_string()),
            },
            Err(_) => self.line(session, dir, &Value::from(text).to_string()),
        }
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    pub fn message(&mut self, dir: Dir, msg: &Value) -> io::Result<()> {
        let text = msg.to_string();
        let text = self.redacted(&text);
        self.line(None, dir, &text)
    }

    fn redacted<'t>(&self, text: &'t str) -> Cow<'t, str> {
        match &self.redactor {
            Some(redactor) => redactor.redact(text),
            None => Cow::Borrowed(text),
        }
    }

    fn line(&mut self, session: Option<&str>, dir: Dir, msg: &str) -> io::Result<()> {
        let dir = match dir {
            Dir::ClientToServer => "c2s",
            Dir::ServerToClient => "s2c",
        };
        let session = match session.or(self.session.as_deref()) {
            Some(id) => format!(",\"session\":{}", Value::from(id)),
            None => String::new(),
        };
        writeln!(
            self.out,
            "{{\"ts\":\"{}\",\"dir\":\"{dir}\"{session},\"msg\":{msg}}}",
            timestamp_now()
        )?;
        self.out.flush()
    }
}

pub fn timestamp_now() -> String {
    timestamp(SystemTime::now())
}

/// RFC 3339 in UTC with milliseconds, `2026-12-02T12:15:38.123Z`.
fn timestamp(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        let at = |secs, millis| {
            timestamp(UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(millis))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 7), "2000-02-29T00:00:00.007Z");
        assert_eq!(at(1_796_213_738, 123), "2026-12-02T12:15:38.123Z");
    }

    #[test]
    fn lines_are_kept_verbatim_or_quoted() {
        let mut recorder = Recorder::new(Vec::new(), Some(Redactor::new(&[])));
        recorder
            .raw(Dir::ClientToServer, b"{\"id\":1, \"method\":\"x\"}\r")
            .unwrap();
        recorder.raw(Dir::ServerToClient, b"not json").unwrap();
        recorder
            .raw(Dir::ServerToClient, b"{\n  \"id\": 1\n}")
            .unwrap();
        recorder.raw(Dir::ServerToClient, b"  ").unwrap();
        recorder
            .raw(Dir::ClientToServer, br#"{"params": {"token": "t0k"}}"#)
            .unwrap();
        recorder
            .message(Dir::ServerToClient, &serde_json::json!({"secret": "s"}))
            .unwrap();
        let text = String::from_utf8(recorder.out).unwrap();
        let msgs: Vec<&str> = text
            .lines()
            .map(|l| &l[l.find("\"msg\":").unwrap() + 6..l.len() - 1])
            .collect();
        assert_eq!(
            msgs,
            [
                r#"{"id":1, "method":"x"}"#,
                r#""not json""#,
                r#"{"id":1}"#,
                r#"{"params": {"token": "[redacted]"}}"#,
                r#"{"secret":"[redacted]"}"#,
            ]
        );
        assert!(text.contains("\"dir\":\"c2s\""));
    }
}
