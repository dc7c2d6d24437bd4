//! The protocol versions the probe speaks, and how it opens a conversation in one: from
//! 2026-07-28 there is no `initialize`; a client asks `server/discover` which versions the
//! server supports and names its version in every request's `_meta`.

use serde_json::{Value, json};

use super::{Answer, Session, unanswered};
pub use crate::transcript::era::{VERSION_KEY, is_modern};

/// Newest first. From 2026-07-28 on, a version is "modern": stateless, named per request.
pub const VERSIONS: [&str; 5] = [
    "2026-07-28",
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];

/// What `initialize` offers: the newest version before 2026-07-28.
const OFFERED: &str = "2025-11-25";

/// `--protocol-version`, checked against the versions the probe speaks.
pub fn parse(forced: Option<&str>) -> Result<Option<&'static str>, String> {
    let Some(forced) = forced else {
        return Ok(None);
    };
    VERSIONS
        .into_iter()
        .find(|v| *v == forced)
        .map(Some)
        .ok_or_else(|| {
            format!(
                "--protocol-version {forced}: the probe speaks {}",
                VERSIONS.join(", ")
            )
        })
}

/// The `_meta` a modern request carries: its version, and the client's capabilities (none)
/// and identity, which the version requires in place of `initialize`'s.
pub fn envelope(version: &str) -> Value {
    json!({
        VERSION_KEY: version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": client_info(),
    })
}

fn client_info() -> Value {
    json!({"name": "mcp-lint", "version": env!("CARGO_PKG_VERSION")})
}

/// Opens the conversation in the newest version both sides speak, and gives it: a
/// `server/discover` answered with a modern version the probe speaks decides; any other
/// answer, or none, falls back to `initialize`, which offers the newest version before
/// 2026-07-28 and takes the one the server answers with. `forced` skips the discovery: a
/// modern version is spoken at once, an older one offered to `initialize`.
pub fn open(session: &mut Session, forced: Option<&'static str>) -> Result<String, String> {
    match forced {
        Some(version) if is_modern(version) => {
            session.speak(version);
            return Ok(version.to_string());
        }
        Some(_) => {}
        None => {
            let newest = VERSIONS[0];
            session.speak(newest);
            let answer = session.request("server/discover", Some(json!({}))).1;
            let supported = match &answer {
                Answer::Result(result) => result["supportedVersions"].as_array(),
                _ => None,
            };
            let common = VERSIONS
                .into_iter()
                .filter(|v| is_modern(v))
                .find(|v| supported.is_some_and(|s| s.iter().any(|listed| listed == *v)));
            if let Some(version) = common {
                session.speak(version);
                return Ok(version.to_string());
            }
            if let Some(gone) = session.gone.clone() {
                // A server of an older version may end on a first request that is not
                // `initialize` (rmcp's servers do): it is started again, for `initialize`.
                let unanswered = unanswered(session, "server/discover");
                session
                    .restart()
                    .map_err(|e| format!("{unanswered}; starting it again failed: {e}"))?;
                session.notes.push(format!(
                    "{gone} on `server/discover`, as a server may that takes only `initialize` first; it was started again and opened with `initialize`"
                ));
            }
            session.unspeak();
        }
    }
    let offered = forced.unwrap_or(OFFERED);
    let init = session.request(
        "initialize",
        Some(json!({
            "protocolVersion": offered,
            "capabilities": {},
            "clientInfo": client_info(),
        })),
    );
    let version = match init.1 {
        Answer::Result(result) => result["protocolVersion"]
            .as_str()
            .unwrap_or(offered)
            .to_string(),
        Answer::Error(error) => return Err(format!("the server refused `initialize`: {error}")),
        Answer::None | Answer::NotSent | Answer::Unread => {
            return Err(unanswered(session, "initialize"));
        }
    };
    if forced.is_some_and(|forced| forced != version) {
        session.notes.push(format!(
            "--protocol-version {offered}: the server answered `initialize` with {version}, which the probe goes on in"
        ));
    }
    session.notify("notifications/initialized");
    Ok(version)
}
