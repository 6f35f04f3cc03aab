//! What `hookc lint` knows about Codex CLI beyond its [`Profile`](crate::harness::Profile).

use super::other::{parse, to_span};
use super::{FileReport, diag};
use crate::diag::Code;
use crate::source::SourceFile;

/// Top-level keys of Codex's `config.toml` (checked strictly by `--strict-config`).
pub const CODEX_CONFIG_KEYS: &[&str] = &[
    "model",
    "model_provider",
    "model_providers",
    "model_context_window",
    "model_auto_compact_token_limit",
    "model_max_output_tokens",
    "model_reasoning_effort",
    "model_reasoning_summary",
    "model_verbosity",
    "model_supports_reasoning_summaries",
    "approval_policy",
    "sandbox_mode",
    "sandbox_workspace_write",
    "shell_environment_policy",
    "hooks",
    "mcp_servers",
    "profiles",
    "profile",
    "projects",
    "features",
    "tools",
    "history",
    "tui",
    "notify",
    "file_opener",
    "hide_agent_reasoning",
    "show_raw_agent_reasoning",
    "disable_response_storage",
    "instructions",
    "developer_instructions",
    "base_instructions",
    "experimental_instructions_file",
    "project_doc_max_bytes",
    "project_doc_fallback_filenames",
    "project_root_markers",
    "chatgpt_base_url",
    "forced_login_method",
    "forced_chatgpt_workspace_id",
    "preferred_auth_method",
    "otel",
    "windows_wsl_setup_acknowledged",
    "review_model",
    "oss_provider",
    "cli_auth_credentials_store",
    "mcp_oauth_credentials_store",
    "web_search",
    "skills",
    "agents",
    "notice",
    "analytics",
    "feedback",
    "sandbox",
    "permissions",
];

pub fn lint_config(file: &SourceFile, report: &mut FileReport) {
    let Some(doc) = parse(file, "Codex", report) else {
        return;
    };
    for (k, _) in doc.as_table().iter() {
        if CODEX_CONFIG_KEYS.contains(&k) || k.starts_with("experimental_") {
            continue;
        }
        let (key, _) = doc.as_table().get_key_value(k).expect("just listed");
        report.diags.push(
            diag(
                Code::LintUnknownKey,
                file,
                to_span(key.span()),
                format!("Codex's config has no setting `{k}` (`--strict-config` refuses the file)"),
                "unknown setting",
            )
            .help(
                match crate::diag::did_you_mean(k, CODEX_CONFIG_KEYS.iter().copied()) {
                    Some(best) => format!("did you mean `{best}`?"),
                    None => {
                        "remove it; see Codex's configuration reference for the settings it knows"
                            .into()
                    }
                },
            ),
        );
    }
}
