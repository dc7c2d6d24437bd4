//! Transcripts that are one JSON document: HAR captures of Streamable HTTP (mitmproxy, browser
//! devtools) and MCP Inspector exports. The document is held whole; its top-level array is
//! split into element spans in one pass, and each element is parsed on its own.

use std::borrow::Cow;

use serde_json::Value;

use super::locate::{array_elements, value_span};
use super::message::{Json, Message, Parts, Span, string};
use super::read::{Dir, Origin};
use super::scan;
use super::sse::{self, Event};

/// One message of a document, or a reason an exchange cannot be judged.
pub enum Item<'d> {
    /// A message or a batch, as checked JSON text: borrowed from the document, or decoded
    /// from a string in it (an HTTP body); and the parts of each message, as spans in it.
    Message {
        origin: Origin<'d>,
        msg: Cow<'d, str>,
        parts: Vec<Parts<Span>>,
    },
    /// A body that is not JSON-RPC, or a part of the document that is not what it should be.
    Broken {
        message: String,
        text: &'d str,
        text_offset: usize,
        path: &'static [&'static str],
    },
    /// A request whose response body was not captured (mitmproxy streaming mode).
    NotCaptured {
        session: Option<String>,
        /// As [`Json::id_key`] writes it.
        id: String,
        text: &'d str,
        text_offset: usize,
    },
}

/// Whether the first line opens a document rather than being one message.
pub fn looks_like_document(first_line: &str) -> bool {
    let trimmed = first_line.trim();
    (trimmed.starts_with('{') || trimmed.starts_with('['))
        && match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Object(o)) => o.contains_key("log"),
            Ok(Value::Array(items)) => items.first().is_some_and(|i| i.get("message").is_some()),
            Ok(_) => false,
            // Pretty-printed: the first line opens the document and nothing else.
            Err(_) => trimmed == "{" || trimmed == "[",
        }
}

/// Whether `doc` is valid JSON, whatever its shape.
pub fn is_json(doc: &str) -> bool {
    why_not_json(doc).is_none()
}

/// Why a document whose entries cannot be found is not JSON at all, if it is not: a capture
/// cut short says where it ends, rather than that it lacks its entries.
fn why_not_json(doc: &str) -> Option<String> {
    let error = serde_json::from_str::<serde::de::IgnoredAny>(doc).err()?;
    Some(match error.is_eof() {
        true => format!("cut short: the JSON ends early ({error})"),
        false => format!("not valid JSON ({error})"),
    })
}

/// The messages of a HAR file, in entry order.
pub fn har(doc: &str) -> Result<Vec<Item<'_>>, String> {
    let entries = array_elements(doc, &["log", "entries"]).ok_or_else(|| {
        why_not_json(doc).unwrap_or("not a HAR file: no `log.entries` array".into())
    })?;
    let mut items = Vec::new();
    for span in entries {
        let text = &doc[span.clone()];
        let Some(entry) = entry(text, span.start, "HAR entry", &mut items) else {
            continue;
        };
        let request = &entry["request"];
        let response = &entry["response"];
        let url = request["url"].as_str().unwrap_or_default();
        let session_id =
            header(request, "mcp-session-id").or_else(|| header(response, "mcp-session-id"));
        let session = Some(format!(
            "{}#{}",
            url.split('?').next().unwrap_or_default(),
            session_id.unwrap_or_default()
        ));
        let at = |path: &'static [&'static str]| (text, span.start, path);
        let mut asked = Vec::new();
        if let Some(body) = request["postData"]["text"]
            .as_str()
            .filter(|b| !b.trim().is_empty())
        {
            let (text, text_offset, path) = at(&["request", "postData", "text"]);
            let item = body_item(
                Dir::ClientToServer,
                &session,
                body,
                (text, text_offset, path),
                "the request body",
            );
            if let Item::Message { msg, parts, .. } = &item {
                asked = requests_in(msg, parts);
            }
            items.push(item);
        }
        let content = &response["content"];
        let (text, text_offset, path) = at(&["response", "content", "text"]);
        let body = match (content["text"].as_str(), content["encoding"].as_str()) {
            (Some(b), Some("base64")) => {
                match base64(b).and_then(|bytes| String::from_utf8(bytes).ok()) {
                    Some(body) => body,
                    None => {
                        items.push(Item::Broken {
                            message: "the response body is not valid base64 UTF-8".into(),
                            text,
                            text_offset,
                            path,
                        });
                        continue;
                    }
                }
            }
            (Some(b), _) => b.to_string(),
            (None, _) => String::new(),
        };
        if body.trim().is_empty() {
            // A 202 to a notification has no body; a request's response that is missing was
            // not captured (mitmproxy streaming): it cannot be judged.
            if response["status"].as_u64() != Some(202) {
                for id in asked {
                    items.push(Item::NotCaptured {
                        session: session.clone(),
                        id,
                        text,
                        text_offset,
                    });
                }
            }
            continue;
        }
        let mime = content["mimeType"]
            .as_str()
            .map(str::to_string)
            .or_else(|| header(response, "content-type"));
        // Said with its HTTP status: a 500 or an HTML error page is not a broken message.
        let status = response["status"]
            .as_u64()
            .map_or(String::new(), |s| format!("HTTP {s} "));
        let (payloads, what) = match mime.as_deref().filter(|m| m.contains("event-stream")) {
            Some(_) => (sse_data(&body), "a response event".to_string()),
            None => {
                let kind = mime.map(|m| format!(" ({m})")).unwrap_or_default();
                (vec![body], format!("the {status}response body{kind}"))
            }
        };
        for payload in payloads {
            items.push(body_item(
                Dir::ServerToClient,
                &session,
                &payload,
                (text, text_offset, path),
                &what,
            ));
        }
    }
    Ok(items)
}

/// The messages of an MCP Inspector export: `[{direction, origin?, message, response?}]`. A
/// response the Inspector folded into its request's entry is read as its own message.
pub fn inspector(doc: &str) -> Result<Vec<Item<'_>>, String> {
    let entries = array_elements(doc, &[]).ok_or_else(|| {
        why_not_json(doc).unwrap_or("not an MCP Inspector export: no top-level array".into())
    })?;
    let mut items = Vec::new();
    for span in entries {
        let text = &doc[span.clone()];
        let keys = ["origin", "message", "response"];
        let [origin, message, response] = match scan::members(text, &keys) {
            Ok(found) => found.unwrap_or_default(),
            Err(fault) => {
                items.push(Item::Broken {
                    message: format!("this export entry {}", fault.describe(text)),
                    text,
                    text_offset: span.start,
                    path: &[],
                });
                continue;
            }
        };
        let dir = match string(origin).as_deref() {
            Some("client") => Some(Dir::ClientToServer),
            Some("server") => Some(Dir::ServerToClient),
            _ => None,
        };
        let parts: [(_, _, &'static [&'static str]); 2] = [
            (message, dir, &["message"]),
            (response, dir.map(Dir::opposite), &["response"]),
        ];
        for (msg, dir, path) in parts {
            if let Some(msg) = msg.filter(|m| !m.is_null()) {
                let origin = Origin {
                    dir,
                    session: None,
                    text,
                    text_offset: span.start,
                    path,
                };
                items.push(message_item(
                    origin,
                    Cow::Borrowed(msg.text()),
                    "the message",
                ));
            }
        }
    }
    Ok(items)
}

/// A message read from an HTTP body, located at the body's string in the entry.
fn body_item<'d>(
    dir: Dir,
    session: &Option<String>,
    body: &str,
    (text, text_offset, path): (&'d str, usize, &'static [&'static str]),
    what: &str,
) -> Item<'d> {
    let origin = Origin {
        dir: Some(dir),
        session: session.clone(),
        text,
        text_offset,
        path,
    };
    message_item(origin, Cow::Owned(body.to_string()), what)
}

/// A message or a batch, scanned once; MCP001 (saying `what` is wrong) if it cannot be.
fn message_item<'d>(origin: Origin<'d>, msg: Cow<'d, str>, what: &str) -> Item<'d> {
    match scan::messages(&msg) {
        Ok(parts) => Item::Message { origin, msg, parts },
        Err(fault) => Item::Broken {
            message: format!("{what} {}", fault.describe(&msg)),
            text: origin.text,
            text_offset: origin.text_offset,
            path: origin.path,
        },
    }
}

/// One entry of a document, parsed; or an MCP001 item saying why not.
fn entry<'d>(
    text: &'d str,
    text_offset: usize,
    what: &str,
    items: &mut Vec<Item<'d>>,
) -> Option<Value> {
    serde_json::from_str(text)
        .map_err(|e| items.push(not_json(e, what, text, text_offset)))
        .ok()
}

fn not_json<'d>(e: serde_json::Error, what: &str, text: &'d str, text_offset: usize) -> Item<'d> {
    Item::Broken {
        message: format!("this {what} is not JSON ({e})"),
        text,
        text_offset,
        path: &[],
    }
}

/// The ids of the requests in a POST body (one message or a batch), as [`Json::id_key`]
/// writes them.
fn requests_in(msg: &str, parts: &[Parts<Span>]) -> Vec<String> {
    let id = |parts: &Parts<Span>| {
        let Message { id, method, .. } = parts.resolve(msg).of_message;
        method.and(id).filter(|id| !id.is_null()).map(Json::id_key)
    };
    parts.iter().filter_map(id).collect()
}

/// A header's value, by case-insensitive name, from HAR's `[{name, value}]`.
fn header(message: &Value, name: &str) -> Option<String> {
    let headers = message["headers"].as_array()?;
    let found = headers.iter().find(|h| {
        h["name"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    })?;
    found["value"].as_str().map(str::to_string)
}

/// The `data` of each event of a `text/event-stream` body, held whole.
fn sse_data(body: &str) -> Vec<String> {
    let events = sse::events(body.as_bytes(), usize::MAX).into_iter();
    events
        .filter_map(|event| match event {
            Event::Data(data) => Some(data),
            Event::TooLarge => None,
        })
        .collect()
}

/// Standard base64 (HAR's `encoding: "base64"`), padding optional.
fn base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .map(value)
        .collect::<Option<_>>()?;
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, d)| n | (u32::from(*d) << (18 - 6 * i)));
        out.extend(n.to_be_bytes()[1..chunk.len()].iter());
    }
    Some(out)
}

/// The span of a document item's message, for its line number.
pub fn located(text: &str, text_offset: usize, path: &[&str]) -> std::ops::Range<usize> {
    let local = value_span(text, path).unwrap_or(0..text.len());
    text_offset + local.start..text_offset + local.end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_events_in_every_line_ending() {
        let body = "event: message\r\ndata: {\"id\":1}\r\n\r\n: ping\r\nid: 7\ndata: \n\ndata: {\"a\":\ndata: 2}\r";
        assert_eq!(sse_data(body), ["{\"id\":1}", "{\"a\":\n2}"]);
    }

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(base64("eyJpZCI6MX0=").unwrap(), b"{\"id\":1}");
        assert_eq!(base64("eyJpZCI6MX0").unwrap(), b"{\"id\":1}");
        assert!(base64("*").is_none());
    }
}
