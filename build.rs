//! Links the `hookc` program as a position-dependent executable on Linux
//! (glibc, dynamic), because every hook call starts it afresh.
//!
//! A position-independent executable is relocated by the dynamic loader at
//! every start: about 10,000 pointers (vtables, panic locations, string
//! tables), written into some 48 pages that each take a copy-on-write fault.
//! That is a fifth of the instructions of a whole `hookc guard` call on the
//! bundled policy (594 k against 466 k), and 0.2 to 0.4 ms of its wall time
//! (`bench/run.sh`). Go links the same way by default.
//!
//! What is given up is address randomisation of the executable itself
//! (libraries, stack and heap are still randomised). The crate forbids unsafe
//! code. Set `HOOKC_PIE=1` when building to keep the default
//! position-independent link, as a distribution's hardening policy may
//! require. Static builds (`-C target-feature=+crt-static`) are left alone:
//! they have no dynamic loader to save.

fn main() {
    println!("cargo::rerun-if-env-changed=HOOKC_PIE");
    let target = |key: &str| std::env::var(format!("CARGO_CFG_TARGET_{key}")).unwrap_or_default();
    let linux_gnu = target("OS") == "linux" && target("ENV") == "gnu";
    let crt_static = target("FEATURE").split(',').any(|f| f == "crt-static");
    let keep_pie = std::env::var_os("HOOKC_PIE").is_some_and(|v| v != "0" && !v.is_empty());
    if linux_gnu && !crt_static && !keep_pie {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
