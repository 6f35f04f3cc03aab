//! What a harness does with what its hook printed: the decoding half of each
//! harness's protocol, used by `hookc simulate` and `hookc test` alike.

use serde::Serialize;
use serde_json::Value;

/// What a hook process did, as the harness observes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observation {
    /// The exit status; `None` when the process was killed by a signal.
    pub exit: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The harness's timeout ran out before the hook finished.
    pub timed_out: bool,
}

/// What the harness then does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The call (or the stop, or the prompt) goes ahead.
    pub proceeds: bool,
    /// The harness asks the user instead of deciding (then `proceeds` is false until they agree).
    pub asks: bool,
    /// The text the model reads, if any.
    pub model_reads: Option<String>,
    /// The text the user sees, if any.
    pub user_sees: Option<String>,
    /// The harness rule that decided.
    pub rule: &'static str,
    /// The tool input the harness runs instead of the model's, when a hook
    /// rewrote the call and the harness applies it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<Value>,
}

impl Outcome {
    pub fn proceeds(rule: &'static str) -> Outcome {
        Outcome {
            proceeds: true,
            asks: false,
            model_reads: None,
            user_sees: None,
            rule,
            runs: None,
        }
    }

    pub fn blocks(model_reads: Option<String>, rule: &'static str) -> Outcome {
        Outcome {
            proceeds: false,
            asks: false,
            model_reads,
            user_sees: None,
            rule,
            runs: None,
        }
    }

    pub fn asks(reason: Option<String>, rule: &'static str) -> Outcome {
        Outcome {
            proceeds: false,
            asks: true,
            model_reads: None,
            user_sees: reason,
            rule,
            runs: None,
        }
    }

    pub fn model(mut self, text: Option<String>) -> Outcome {
        self.model_reads = text.filter(|t| !t.is_empty());
        self
    }

    /// The call runs with this input instead of the model's.
    pub fn runs(mut self, input: Option<Value>) -> Outcome {
        self.runs = input.filter(Value::is_object);
        self
    }

    pub fn user(mut self, text: Option<String>) -> Outcome {
        self.user_sees = text.filter(|t| !t.is_empty());
        self
    }

    /// Whether the call runs under hookc's run-time judge (`hookc exec`):
    /// the input the harness runs instead is such a command.
    pub fn supervised(&self) -> bool {
        self.runs
            .as_ref()
            .and_then(|input| input.get("command"))
            .and_then(Value::as_str)
            .is_some_and(|c| c.contains("' exec --harness "))
    }

    /// One word for people: `supervises`, `proceeds`, `asks` or `blocks`.
    pub fn word(&self) -> &'static str {
        if self.supervised() {
            "supervises"
        } else if self.proceeds {
            "proceeds"
        } else if self.asks {
            "asks"
        } else {
            "blocks"
        }
    }
}

/// The trimmed text, or `None` when it is empty.
pub fn text(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

/// The whole trimmed text as one JSON object, if it is one.
pub fn json_object(s: &str) -> Option<Value> {
    serde_json::from_str::<Value>(s.trim())
        .ok()
        .filter(Value::is_object)
}

/// The string at a JSON pointer, if non-empty.
pub fn str_at(v: &Value, pointer: &str) -> Option<String> {
    v.pointer(pointer).and_then(Value::as_str).and_then(text)
}

/// The first line of a text.
pub fn first_line(s: &str) -> Option<String> {
    s.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_owned)
}
