//! The three exit statuses of every command but `guard`.

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: done, nothing wrong.
    Success,
    /// 1: the command ran and found a problem (invalid policy, drift, failed examples).
    Failure,
    /// 2: the command could not do its job (usage, I/O, unmergeable files).
    Error,
}

impl ExitStatus {
    pub fn code(self) -> i32 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Error => 2,
        }
    }
}
