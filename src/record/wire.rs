//! The client's side of `record --listen`: HTTP/1.1 requests read from a connection, and
//! responses written to it, a body streamed as it comes (chunked when its length is unknown).

use std::io::{self, BufRead, Read, Write};

use crate::transcript::read::MAX_LINE_BYTES;

/// A request head over this is refused.
const MAX_HEAD_BYTES: usize = 64 << 10;
const MAX_HEADERS: usize = 128;

pub struct Request {
    pub method: String,
    /// As sent: a path and query, or an absolute URL.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The client asked for the connection to end after this exchange (or speaks HTTP/1.0).
    pub close: bool,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

/// A header's value by case-insensitive name.
pub fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    let found = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name));
    found.map(|(_, v)| v.as_str())
}

/// Why a request could not be read: the status to answer with, and why.
pub struct Refusal(pub u16, pub String);

/// The next request on the connection; `None` when the client closed it between requests.
/// `interim` is where a `100 Continue` goes when the client waits for one.
pub fn read_request(
    reader: &mut impl BufRead,
    interim: &mut impl Write,
) -> Result<Option<Request>, Refusal> {
    let mut head = Vec::new();
    loop {
        let before = head.len();
        let n = reader
            .take((MAX_HEAD_BYTES + 1 - head.len()) as u64)
            .read_until(b'\n', &mut head)
            .map_err(|e| Refusal(400, format!("the request could not be read: {e}")))?;
        if n == 0 {
            return match head.iter().all(u8::is_ascii_whitespace) {
                true => Ok(None),
                false => Err(Refusal(400, "the request head was cut short".into())),
            };
        }
        if head.len() > MAX_HEAD_BYTES {
            return Err(Refusal(431, "the request head is too large".into()));
        }
        let line = &head[before..];
        // Blank lines before a request are allowed (RFC 9112 section 2.2).
        if line.trim_ascii().is_empty() && head[..before].trim_ascii().is_empty() {
            head.clear();
        } else if line == b"\r\n" || line == b"\n" {
            break;
        }
    }
    let mut slots = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut slots);
    match parsed.parse(&head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) | Err(_) => {
            return Err(Refusal(400, "the request head is not HTTP/1.1".into()));
        }
    }
    let headers: Vec<(String, String)> = parsed
        .headers
        .iter()
        .map(|h| {
            let value = String::from_utf8_lossy(h.value);
            (h.name.to_string(), value.trim().to_string())
        })
        .collect();
    let connection = header(&headers, "connection").unwrap_or_default();
    let mut request = Request {
        method: parsed.method.unwrap_or_default().to_string(),
        target: parsed.path.unwrap_or_default().to_string(),
        close: parsed.version == Some(0) || has_token(connection, "close"),
        headers,
        body: Vec::new(),
    };
    if request
        .header("expect")
        .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let _ = interim
            .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .and_then(|()| interim.flush());
    }
    let chunked = request
        .header("transfer-encoding")
        .is_some_and(|te| has_token(te, "chunked"));
    request.body = match (chunked, request.header("content-length")) {
        (true, _) => read_chunked(reader)?,
        (false, Some(length)) => {
            let length: usize = length
                .parse()
                .map_err(|_| Refusal(400, format!("Content-Length `{length}` is not a number")))?;
            if length > MAX_LINE_BYTES {
                return Err(too_large());
            }
            let mut body = vec![0; length];
            reader
                .read_exact(&mut body)
                .map_err(|_| Refusal(400, "the request body was cut short".into()))?;
            body
        }
        (false, None) => Vec::new(),
    };
    Ok(Some(request))
}

fn too_large() -> Refusal {
    Refusal(
        413,
        format!("a request body over {MAX_LINE_BYTES} bytes is not relayed"),
    )
}

/// Whether a comma-separated header value holds `token`, in any case.
pub fn has_token(value: &str, token: &str) -> bool {
    value
        .split(',')
        .any(|t| t.trim().eq_ignore_ascii_case(token))
}

fn read_chunked(reader: &mut impl BufRead) -> Result<Vec<u8>, Refusal> {
    let cut = || Refusal(400, "the chunked request body was cut short".into());
    let mut body = Vec::new();
    loop {
        let mut line = String::new();
        reader.take(1024).read_line(&mut line).map_err(|_| cut())?;
        let size = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size, 16)
            .map_err(|_| Refusal(400, format!("`{}` is not a chunk size", line.trim())))?;
        if size == 0 {
            break;
        }
        if body.len() + size > MAX_LINE_BYTES {
            return Err(too_large());
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..]).map_err(|_| cut())?;
        let mut crlf = String::new();
        reader.take(2).read_line(&mut crlf).map_err(|_| cut())?;
    }
    // Trailers, up to the blank line that ends them.
    loop {
        let mut line = String::new();
        let n = reader
            .take(MAX_HEAD_BYTES as u64)
            .read_line(&mut line)
            .map_err(|_| cut())?;
        if n == 0 || line.trim().is_empty() {
            return Ok(body);
        }
    }
}

/// How a response's body is delimited.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// No body (a HEAD request, a 204 or a 304).
    Empty,
    Length(u64),
    Chunked,
}

/// Writes a response head; `headers` must not include the framing ones.
pub fn write_head(
    out: &mut impl Write,
    status: u16,
    reason: &str,
    headers: &[(String, String)],
    framing: Framing,
) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {reason}\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    match framing {
        Framing::Empty => {}
        Framing::Length(n) => head.push_str(&format!("Content-Length: {n}\r\n")),
        Framing::Chunked => head.push_str("Transfer-Encoding: chunked\r\n"),
    }
    head.push_str("\r\n");
    out.write_all(head.as_bytes())?;
    out.flush()
}

/// Writes part of a body as the framing wants it, and flushes it (an SSE event must reach
/// the client when it comes).
pub fn write_body(out: &mut impl Write, framing: Framing, bytes: &[u8]) -> io::Result<()> {
    if bytes.is_empty() {
        return Ok(());
    }
    if framing == Framing::Chunked {
        write!(out, "{:x}\r\n", bytes.len())?;
        out.write_all(bytes)?;
        out.write_all(b"\r\n")?;
    } else {
        out.write_all(bytes)?;
    }
    out.flush()
}

/// Ends a body.
pub fn end_body(out: &mut impl Write, framing: Framing) -> io::Result<()> {
    if framing == Framing::Chunked {
        out.write_all(b"0\r\n\r\n")?;
    }
    out.flush()
}

/// A short plain-text response of the proxy's own.
pub fn write_error(out: &mut impl Write, Refusal(status, why): &Refusal) -> io::Result<()> {
    let reason = match status {
        400 => "Bad Request",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        _ => "Bad Gateway",
    };
    let body = format!("mcp-lint record: {why}\n");
    let headers = [
        ("Content-Type".to_string(), "text/plain".to_string()),
        ("Connection".to_string(), "close".to_string()),
    ];
    let framing = Framing::Length(body.len() as u64);
    write_head(out, *status, reason, &headers, framing)?;
    write_body(out, framing, body.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read(text: &[u8]) -> Result<Option<Request>, Refusal> {
        read_request(&mut &text[..], &mut Vec::new())
    }

    #[test]
    fn requests_are_read_with_either_framing() {
        let text = b"\r\nPOST /mcp?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nMcp-Session-Id:  s1 \r\n\r\n{}";
        let request = read(text).ok().flatten().unwrap();
        assert_eq!(
            (request.method.as_str(), request.target.as_str()),
            ("POST", "/mcp?x=1")
        );
        assert_eq!(request.header("mcp-session-id"), Some("s1"));
        assert_eq!(
            (request.body.as_slice(), request.close),
            (&b"{}"[..], false)
        );

        let text = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3;x=y\r\n{\"a\r\n2\r\n\"}\r\n0\r\nTrailer: t\r\n\r\n";
        let request = read(text).ok().flatten().unwrap();
        assert_eq!(
            (request.body.as_slice(), request.close),
            (&b"{\"a\"}"[..], true)
        );
        assert!(read(b"").ok().unwrap().is_none());
    }

    #[test]
    fn a_bad_request_is_refused_with_its_reason() {
        let cases: [(&[u8], u16); 4] = [
            (b"NOT HTTP\r\n\r\n", 400),
            (b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\n{}", 400),
            (
                b"POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n",
                413,
            ),
            (b"GET / HTTP/1.1\r\nHost: a", 400),
        ];
        for (text, status) in cases {
            match read(text) {
                Err(Refusal(got, _)) => assert_eq!(got, status, "{text:?}"),
                Ok(_) => panic!("{text:?} was read"),
            }
        }
    }

    #[test]
    fn a_client_waiting_for_continue_gets_it() {
        let mut interim = Vec::new();
        let text = b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n";
        assert!(read_request(&mut &text[..], &mut interim).is_ok());
        assert_eq!(interim, b"HTTP/1.1 100 Continue\r\n\r\n");
    }

    #[test]
    fn chunks_frame_what_is_written() {
        let mut out = Vec::new();
        write_head(&mut out, 200, "OK", &[], Framing::Chunked).unwrap();
        write_body(&mut out, Framing::Chunked, b"data: 1\n\n").unwrap();
        write_body(&mut out, Framing::Chunked, b"").unwrap();
        end_body(&mut out, Framing::Chunked).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\ndata: 1\n\n\r\n0\r\n\r\n"
        );
    }

    /// Pieces of requests, right and wrong, in any order.
    fn soup() -> impl Strategy<Value = Vec<u8>> {
        let token = prop::sample::select(vec![
            "POST /mcp HTTP/1.1\r\n",
            "GET / HTTP/1.0\r\n",
            "Content-Length: 2\r\n",
            "Content-Length: x\r\n",
            "Transfer-Encoding: chunked\r\n",
            "Expect: 100-continue\r\n",
            "Connection: close\r\n",
            ": no name\r\n",
            "\r\n",
            "\n",
            "{}",
            "2\r\n",
            "0\r\n",
            "zz\r\n",
            "\u{0}",
            "é",
        ]);
        prop::collection::vec(token, 0..16).prop_map(|t| t.concat().into_bytes())
    }

    proptest! {
        #[test]
        fn any_bytes_are_read_or_refused_with_a_client_error(text in soup()) {
            match read(&text) {
                Ok(None) => prop_assert!(text.trim_ascii().is_empty()),
                Ok(Some(request)) => prop_assert!(request.body.len() <= text.len()),
                Err(Refusal(status, why)) => {
                    prop_assert!(matches!(status, 400 | 413 | 431), "{status} {why}");
                }
            }
        }
    }
}
