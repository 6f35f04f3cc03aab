//! Building blocks for [`Harness::payload`](super::Harness::payload): an
//! example call in the pieces every harness's stdin is made of.
//!
//! `hookc test` feeds each generated hook the stdin its harness would send.
//! The shape of that stdin belongs to the harness's own file; what is the
//! same for all of them (which native tool an example means, the absolute
//! path it touches, the text of a prompt or a stop) is read here once.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::Profile;
use crate::ir::{Event, ExampleCall, Tool, ToolKind};

/// A tool-call example in one harness's words.
pub struct ToolCall {
    pub kind: ToolKind,
    /// The harness's own name for the tool (its first, for kinds with several).
    pub native: &'static str,
    /// The command line, for shell calls (else empty).
    pub command: String,
    /// The file the call touches, absolute under the project root (else empty).
    pub path: String,
    /// The project root, as the harness reports it.
    pub root: String,
}

impl ToolCall {
    /// The example as a call of one of `profile`'s tools. `None` when the
    /// harness has no such tool, or a file tool's example has no file.
    pub fn of(profile: &Profile, call: &ExampleCall, root: &Path) -> Option<ToolCall> {
        let kind = match (&call.tool, &call.command) {
            (Some(Tool::Known { tool }), _) => *tool,
            (None, Some(_)) => ToolKind::Shell,
            _ => return None,
        };
        let native = *profile.tool_names(kind).first()?;
        // A path in the home directory stays `~/…`: the hook expands it with
        // its own HOME, as it would a real call's.
        let path = call.path.as_ref().map(|p| {
            if p == "~" || p.starts_with("~/") {
                p.clone()
            } else {
                root.join(p).to_string_lossy().into_owned()
            }
        });
        if kind != ToolKind::Shell && path.is_none() {
            return None;
        }
        Some(ToolCall {
            kind,
            native,
            command: call.command.clone().unwrap_or_default(),
            path: path.unwrap_or_default(),
            root: root.to_string_lossy().into_owned(),
        })
    }

    /// `{"<key>": path}` (plus `content` for writes): a file tool's input.
    pub fn file_input(&self, key: &str) -> Value {
        let mut m = Map::new();
        m.insert(key.to_owned(), json!(self.path));
        if self.kind == ToolKind::Write {
            m.insert("content".into(), json!("x\n"));
        }
        Value::Object(m)
    }

    /// `{"command": …}` for shell calls, else [`file_input`](Self::file_input) under `key`.
    pub fn input(&self, key: &str) -> Value {
        if self.kind == ToolKind::Shell {
            json!({ "command": self.command })
        } else {
            self.file_input(key)
        }
    }
}

/// The text of a prompt or stop example (empty when it gives none), or
/// `None` when the example is not about `event` in a way a payload without
/// tools can carry (it names a tool, a command or a file).
pub fn text_of(event: Event, call: &ExampleCall) -> Option<String> {
    if event.has_tools() || call.tool.is_some() || call.command.is_some() || call.path.is_some() {
        return None;
    }
    Some(call.text.clone().unwrap_or_default())
}

/// The prompt, stop and session-start fields of a Claude-shaped payload
/// (Claude Code's, and Codex's, which copies it), into `o`; `agent_type` is
/// the harness's name for a subagent. `None` for an example `event` cannot
/// carry; the tool events' fields are the harness's own.
pub fn claude_shaped_fields(
    o: &mut Map<String, Value>,
    event: Event,
    call: &ExampleCall,
    agent_type: &str,
) -> Option<()> {
    match event {
        Event::PreTool | Event::PostTool => {}
        Event::Prompt => {
            o.insert("prompt".into(), json!(text_of(event, call)?));
        }
        Event::Stop | Event::SubagentStop => {
            o.insert("stop_hook_active".into(), json!(false));
            o.insert(
                "last_assistant_message".into(),
                json!(text_of(event, call)?),
            );
            if event == Event::SubagentStop {
                o.insert("agent_id".into(), json!("a1"));
                o.insert("agent_type".into(), json!(agent_type));
                o.insert("agent_transcript_path".into(), json!("/tmp/a.jsonl"));
            }
        }
        Event::SessionStart => {
            text_of(event, call)?;
            o.insert("source".into(), json!("startup"));
        }
    }
    Some(())
}

/// For stop events of harnesses whose payload carries no text of the
/// agent's: an example that gives text cannot be put into that payload.
pub fn without_text(event: Event, call: &ExampleCall) -> Option<()> {
    text_of(event, call).filter(String::is_empty).map(|_| ())
}
