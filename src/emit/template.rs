//! Guard payloads rendered from the handlebars templates in `templates/`.
//!
//! The templates are compiled into the binary. HTML escaping is off (it would
//! corrupt shell), strict mode is on (a missing variable is an error, not an
//! empty string). Policy text never reaches a template: shims contain only
//! fixed words (harness, event) and fixed refusal text, so nothing a policy
//! says can become shell code.

use std::sync::{Mutex, OnceLock};

use handlebars::Handlebars;
use serde::Serialize;

const SHIM: &str = include_str!("../../templates/shim.sh.hbs");
/// Whole files a harness renders itself with [`render_file`] (name, template).
const FILES: &[(&str, &str)] = &[
    (
        "opencode/plugin.js",
        include_str!("../../templates/opencode/plugin.js.hbs"),
    ),
    (
        "claude-agent-sdk/hookc_hooks.py",
        include_str!("../../templates/claude-agent-sdk/hookc_hooks.py.hbs"),
    ),
    (
        "claude-agent-sdk/hookc_hooks.ts",
        include_str!("../../templates/claude-agent-sdk/hookc_hooks.ts.hbs"),
    ),
    (
        "windows/guard.ps1",
        include_str!("../../templates/windows/guard.ps1.hbs"),
    ),
];

/// The shim template, compiled once.
fn registry() -> &'static Handlebars<'static> {
    static REGISTRY: OnceLock<Handlebars<'static>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut hb = configured();
        hb.register_template_string("shim", SHIM)
            .expect("templates/shim.sh.hbs parses");
        hb
    })
}

/// Each harness's refusal template (its profile's
/// [`refusal`](crate::profile::Profile::refusal)), compiled the first time
/// a shim of that harness is rendered.
fn render_refusal(harness: &str, template: &str, shim: &Shim) -> String {
    static REFUSALS: Mutex<Option<Handlebars<'static>>> = Mutex::new(None);
    let mut guard = REFUSALS.lock().unwrap_or_else(|e| e.into_inner());
    let hb = guard.get_or_insert_with(configured);
    let name = format!("{harness}/refuse");
    if !hb.has_template(&name) {
        hb.register_template_string(&name, template)
            .expect("refusal templates parse");
    }
    hb.render(&name, shim).expect("refusal template renders")
}

/// One of the [`FILES`], compiled the first time a build renders it. They
/// are most of the templates' text, handlebars takes time quadratic in a
/// template's length to compile one, and a policy for one or two harnesses
/// renders one of them or none: compiling all three took 24 M instructions,
/// twice the rest of `hookc check` on the bundled policy for Claude alone
/// (6 ms of its 12 ms).
fn file_registry(index: usize) -> &'static Handlebars<'static> {
    static COMPILED: [OnceLock<Handlebars<'static>>; FILES.len()] =
        [const { OnceLock::new() }; FILES.len()];
    COMPILED[index].get_or_init(|| {
        let (name, text) = FILES[index];
        let mut hb = configured();
        hb.register_template_string(name, text)
            .expect("file templates parse");
        hb
    })
}

fn configured() -> Handlebars<'static> {
    let mut hb = Handlebars::new();
    hb.set_strict_mode(true);
    hb.register_escape_fn(handlebars::no_escape);
    hb
}

/// What a shim needs to know.
#[derive(Debug, Serialize)]
pub struct Shim<'a> {
    pub header: String,
    pub harness: &'a str,
    pub harness_name: &'a str,
    pub event: &'a str,
    /// The harness's own name for the event.
    pub native_event: &'a str,
    /// `deny` or `ask`: what the call gets when hookc cannot answer.
    pub on_error: &'a str,
    /// Path of `policy.json` relative to the shim's own directory.
    pub policy_from_shim: &'a str,
    /// The seconds the harness gives the hook
    /// ([`Profile::hook_timeout`](crate::profile::Profile::hook_timeout)).
    pub timeout: u32,
    /// When the shim kills a hookc that has not answered, in seconds
    /// (`8.5`): [`deadline`] of `timeout`.
    pub deadline: String,
    /// Whether the shim kills a late hookc itself: unless the harness always
    /// refuses a late hook's call ([`LateHook::Refuses`](crate::profile::LateHook)).
    pub outer: bool,
    /// The fixes the shim prints when no hookc, or the wrong program,
    /// answers: shell words, quoted by [`crate::emit::sh_word`].
    pub not_found_fix: String,
    pub not_hookc_fix: String,
    /// A managed install's hookc, as a shell word: the one program the shim
    /// runs, whatever the environment says (`None` in a project).
    pub managed_hookc: Option<String>,
}

/// When a shim kills a hookc guard that has not answered, as the seconds
/// `timeout` takes (`8.5`, `510`): 85% of the `timeout` seconds the harness
/// gives a hook, in tenths, rounded down. hookc's own watchdog answers at
/// about 70%; the rest is for the shim to print its refusal before the
/// harness gives up on the hook and lets the call through.
pub fn deadline(timeout: u32) -> String {
    let tenths = u64::from(timeout) * 85 / 10;
    match tenths % 10 {
        0 => format!("{}", tenths / 10),
        t => format!("{}.{t}", tenths / 10),
    }
}

/// Render a POSIX-sh shim for one harness and event; `refusal` is the
/// harness's refusal template.
pub fn render_shim(shim: &Shim, refusal: &str) -> String {
    let hb = registry();
    let refuse = render_refusal(shim.harness, refusal, shim);
    #[derive(Serialize)]
    struct Full<'a> {
        #[serde(flatten)]
        shim: &'a Shim<'a>,
        refuse: String,
    }
    hb.render("shim", &Full { shim, refuse })
        .expect("shim template renders")
}

/// Render one of the [`FILES`] templates. Callers pass only fixed words and
/// values they have already quoted for the target language.
pub fn render_file(name: &str, data: &impl Serialize) -> String {
    let index = FILES
        .iter()
        .position(|(file, _)| *file == name)
        .unwrap_or_else(|| panic!("no file template {name}"));
    file_registry(index)
        .render(name, data)
        .unwrap_or_else(|e| panic!("template {name} renders: {e}"))
}

#[cfg(test)]
mod tests {
    use super::deadline;

    #[test]
    fn the_deadline_is_85_percent_of_the_timeout_in_tenths() {
        assert_eq!(deadline(10), "8.5");
        assert_eq!(deadline(2), "1.7");
        assert_eq!(deadline(1), "0.8");
        assert_eq!(deadline(20), "17");
        assert_eq!(deadline(600), "510");
        assert_eq!(deadline(7), "5.9");
    }
}
