//! The harnesses hookc compiles for: one line each, the one list every other
//! list of harnesses is made from.
//!
//! A line names the harness's module under `src/harness/`, the type there
//! that implements the `Harness` trait, and the word users write in
//! `targets`. The IR's `HarnessId` gets one variant per line, named after
//! the type, and `harness::all()` one entry, in this order, which is the
//! order of every list made from them (the book's capability matrix,
//! `hookc test`'s rows, `--help`). (No links here: this module sits below
//! both and uses neither.)
//!
//! Adding a harness is writing `src/harness/<module>.rs` and adding its line
//! here. The compiler then asks for its `mod` line in `src/harness/mod.rs`
//! (and refuses a `mod` line without a line here: the type would be unused),
//! the tests for its book page and a recorded payload (the steps are in
//! `README.md`, the item "Adding a harness").
//!
//! The list lives here, below every other module, because the IR names
//! harnesses (`targets`) and the harness modules sit far above it; a
//! `macro_rules!` callback lets both read the one list.

/// Calls `$then! { module::Type = "word", … }` with every harness.
macro_rules! harnesses {
    ($then:ident) => {
        $then! {
            /// Claude Code.
            claude::Claude = "claude",
            /// OpenAI's Codex CLI.
            codex::Codex = "codex",
            /// GitHub Copilot CLI.
            copilot::Copilot = "copilot",
            /// Cursor's agent.
            cursor::Cursor = "cursor",
            /// Google's Gemini CLI.
            gemini::Gemini = "gemini",
            /// Google's Antigravity.
            antigravity::Antigravity = "antigravity",
            /// Moonshot's Kimi Code CLI.
            kimi::Kimi = "kimi",
            /// OpenCode, through a plugin.
            opencode::Opencode = "opencode",
            /// Kilo Code CLI, through OpenCode's plugin.
            kilo::Kilo = "kilo",
            /// Qwen Code.
            qwen::Qwen = "qwen",
            /// Factory's Droid.
            droid::Droid = "droid",
            /// Augment's Auggie CLI.
            auggie::Auggie = "auggie",
            /// Windsurf's Cascade.
            windsurf::Windsurf = "windsurf",
            /// VS Code's agent hooks (GitHub Copilot in VS Code).
            vscode::VsCode = "vscode",
            /// Cline (the VS Code extension and its CLI).
            cline::Cline = "cline",
            /// Letta Code.
            letta::Letta = "letta",
            /// Tencent's CodeBuddy Code.
            codebuddy::CodeBuddy = "codebuddy",
            /// Qoder CLI.
            qoder::Qoder = "qoder",
            /// Mistral Vibe.
            vibe::Vibe = "vibe",
            /// OpenHands (its CLI).
            openhands::OpenHands = "openhands",
            /// Charm's Crush.
            crush::Crush = "crush",
            /// Cognition's Devin CLI (and Devin Local in Devin Desktop).
            devin::Devin = "devin",
            /// Goose, through a plugin of hookc's.
            goose::Goose = "goose",
            /// Amazon's Kiro CLI.
            kiro::Kiro = "kiro",
            /// Callbacks for the Claude Agent SDK (Python and TypeScript).
            agent_sdk::ClaudeAgentSdk = "claude-agent-sdk",
        }
    };
}

pub(crate) use harnesses;
