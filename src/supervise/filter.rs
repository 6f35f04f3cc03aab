//! The seccomp program every process of a supervised tree runs under (see
//! the module documentation of [`super`]): which system calls are refused,
//! which go to the supervisor, and which run.
//!
//! No process of the tree may come by a descriptor to a file other than
//! through an open the supervisor judged. The calls that hand out such a
//! descriptor without a path open are refused with `EPERM`:
//! `fanotify_init` and `fanotify_mark` (a listener for `FAN_OPEN` events
//! receives a descriptor to each file opened, opened again with the flags
//! the listener chose, read-write included), `name_to_handle_at` and
//! `open_by_handle_at` (a file by its handle), `pidfd_getfd` (another
//! process's descriptor), and `open_tree`, `open_tree_attr`, `fsopen`,
//! `fspick`, `fsmount`, `move_mount` (a mount, or a tree of one, as a
//! descriptor). So are the calls with which the kernel writes a file
//! itself (`acct`, `swapon`, `quotactl`) or runs code it loads (modules,
//! `kexec`, `bpf`), and the `ioctl`s that set a file's attributes. `memfd_create` and `memfd_secret` make new anonymous memory,
//! no file of the file system, and run. A descriptor passed over a socket
//! (`SCM_RIGHTS`) comes from a process that opened it: inside the tree
//! that open was judged; a process outside the tree is not supervised.

use libc::{c_long, sock_filter};

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;

/// System calls of Linux 6.3 to 6.17 that `libc` does not name on every
/// architecture (the numbers are the same everywhere since 5.1).
const SYS_FCHMODAT2: c_long = 452;
const SYS_SETXATTRAT: c_long = 463;
const SYS_REMOVEXATTRAT: c_long = 466;
const SYS_OPEN_TREE_ATTR: c_long = 467;
const SYS_FILE_SETATTR: c_long = 469;
/// `renameat`, which `libc` names on aarch64 for musl only.
#[cfg(target_arch = "x86_64")]
pub(super) const SYS_RENAMEAT: c_long = libc::SYS_renameat;
#[cfg(target_arch = "aarch64")]
pub(super) const SYS_RENAMEAT: c_long = 38;
/// The first system call number hookc does not know: it and every later
/// one are answered `ENOSYS` (a new call may open or change a file in a
/// way this filter cannot see; programs fall back to the older calls).
const FIRST_UNKNOWN: u32 = 470;

/// The system calls whose file the supervisor judges and then makes itself
/// (see `files.rs`). The open calls are apart: their flags decide.
pub(super) const FILE_CALLS: &[c_long] = &[
    libc::SYS_unlinkat,
    SYS_RENAMEAT,
    libc::SYS_renameat2,
    libc::SYS_linkat,
    libc::SYS_symlinkat,
    libc::SYS_mkdirat,
    libc::SYS_mknodat,
    libc::SYS_truncate,
    libc::SYS_fchmodat,
    libc::SYS_fchownat,
    libc::SYS_utimensat,
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fchmod,
    libc::SYS_fchown,
    libc::SYS_fsetxattr,
    libc::SYS_fremovexattr,
    // A unix socket bound to a path makes a file there.
    libc::SYS_bind,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_creat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_unlink,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_rmdir,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_rename,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_link,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_symlink,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_mkdir,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_mknod,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_chmod,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_chown,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_lchown,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_utime,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_utimes,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_futimesat,
];

/// Refused with `EPERM`: ways to leave supervision, to see the file
/// system otherwise than the supervisor does, or to come by a descriptor
/// to a file without an open the supervisor judged (see the module
/// documentation).
const REFUSED: &[c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_getfd,
    libc::SYS_name_to_handle_at,
    libc::SYS_open_by_handle_at,
    libc::SYS_fanotify_init,
    libc::SYS_fanotify_mark,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_chroot,
    libc::SYS_pivot_root,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    SYS_OPEN_TREE_ATTR,
    // Files the kernel itself opens and writes, and code it loads
    // (root only): process accounting appends to the file named, a swap
    // file is written over, a quota file kept, a module or kernel run.
    libc::SYS_acct,
    libc::SYS_swapon,
    libc::SYS_quotactl,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_bpf,
];

/// `ioctl` requests refused with `EPERM`: they change a file through any
/// descriptor to it, one opened only to read too. `FS_IOC_SETFLAGS` (both
/// sizes) and `FS_IOC_FSSETXATTR` set its attributes (`chattr +i`, `+a`):
/// an immutable file can no longer be built, an append-only one no
/// longer rewritten.
const IOCTL_REFUSED: &[u32] = &[0x4008_6602, 0x4004_6602, 0x401c_5820];

/// Answered `ENOSYS`, as a kernel without them would: `clone3`, whose flags
/// a filter cannot read, `io_uring`, which opens files without system
/// calls, and the newer calls that open or change files (their older forms
/// are judged).
const MISSING: &[c_long] = &[
    libc::SYS_clone3,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_openat2,
    SYS_FCHMODAT2,
    SYS_SETXATTRAT,
    SYS_REMOVEXATTRAT,
    SYS_FILE_SETATTR,
];

/// Refused with `EPERM` under a supervisor that runs as root: a process
/// that changed its user would have its file calls made as root.
const CREDENTIALS: &[c_long] = &[
    libc::SYS_setuid,
    libc::SYS_setgid,
    libc::SYS_setreuid,
    libc::SYS_setregid,
    libc::SYS_setresuid,
    libc::SYS_setresgid,
    libc::SYS_setfsuid,
    libc::SYS_setfsgid,
    libc::SYS_setgroups,
    libc::SYS_capset,
];

/// `clone` flags refused: a child nobody traces, or a new namespace (where
/// mounts and the root could differ from the supervisor's view).
const CLONE_REFUSED: u32 = (libc::CLONE_UNTRACED
    | libc::CLONE_NEWNS
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWCGROUP) as u32;

/// Open flags that may change a file (or make one).
const OPEN_WRITES: u32 =
    (libc::O_WRONLY | libc::O_RDWR | libc::O_CREAT | libc::O_TRUNC) as u32 | libc::O_TMPFILE as u32;

/// What the program decides, beside the supervisor's own choices.
pub(super) struct Options {
    /// Opens that only read go to the supervisor (else they run).
    pub reads: bool,
    /// The supervisor runs as root: credential changes are refused.
    pub root: bool,
}

/// A BPF program under construction. Every check leaves the system call
/// number in the accumulator for the next.
struct Program(Vec<sock_filter>);

const LD: u32 = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
const JEQ: u32 = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
const JGE: u32 = libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K;
const JSET: u32 = libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K;
const RET: u32 = libc::BPF_RET | libc::BPF_K;
/// Offsets in `struct seccomp_data`.
const NR: u32 = 0;
const ARCH: u32 = 4;
/// The low half of argument `i` (both architectures are little-endian).
const fn arg(i: u32) -> u32 {
    16 + 8 * i
}

fn errno(e: i32) -> u32 {
    libc::SECCOMP_RET_ERRNO | (e as u32 & libc::SECCOMP_RET_DATA)
}

impl Program {
    fn op(&mut self, code: u32, k: u32, jt: u8, jf: u8) {
        self.0.push(sock_filter {
            code: code as u16,
            jt,
            jf,
            k,
        });
    }

    fn load(&mut self, offset: u32) {
        self.op(LD, offset, 0, 0);
    }

    fn ret(&mut self, action: u32) {
        self.op(RET, action, 0, 0);
    }

    /// `nr` is answered `action`.
    fn on(&mut self, nr: c_long, action: u32) {
        self.op(JEQ, nr as u32, 0, 1);
        self.ret(action);
    }

    /// For `nr`, run `body`, which must end in a `ret` on every path.
    fn when(&mut self, nr: c_long, body: impl FnOnce(&mut Program)) {
        let at = self.0.len();
        self.op(JEQ, nr as u32, 0, 0);
        body(self);
        let skip = self.0.len() - at - 1;
        self.0[at].jf = u8::try_from(skip).expect("a short filter block");
    }

    /// An open whose flags are argument `flags`: an `O_PATH` open runs (it
    /// reads and writes nothing, and whatever is done with its descriptor
    /// is judged), an open that only reads runs unless `reads`, the rest
    /// goes to the supervisor.
    fn open(&mut self, flags: u32, reads: bool) {
        self.load(arg(flags));
        self.op(JSET, libc::O_PATH as u32, 0, 1);
        self.ret(libc::SECCOMP_RET_ALLOW);
        if !reads {
            self.op(JSET, OPEN_WRITES, 1, 0);
            self.ret(libc::SECCOMP_RET_ALLOW);
        }
        self.ret(libc::SECCOMP_RET_USER_NOTIF);
    }
}

/// The program (see the module documentation of [`super`]).
pub(super) fn program(options: &Options) -> Vec<sock_filter> {
    let mut p = Program(Vec::with_capacity(160));
    // A system call of another ABI (i386 through `int 0x80`) has other
    // numbers: refused whole; so are x32's (bit 30).
    p.load(ARCH);
    p.op(JEQ, AUDIT_ARCH, 1, 0);
    p.ret(errno(libc::ENOSYS));
    p.load(NR);
    p.op(JGE, 0x4000_0000, 0, 1);
    p.ret(errno(libc::ENOSYS));
    p.op(JGE, FIRST_UNKNOWN, 0, 1);
    p.ret(errno(libc::ENOSYS));
    for &nr in MISSING {
        p.on(nr, errno(libc::ENOSYS));
    }
    for &nr in REFUSED {
        p.on(nr, errno(libc::EPERM));
    }
    if options.root {
        for &nr in CREDENTIALS {
            p.on(nr, errno(libc::EPERM));
        }
    }
    // clone's flags are its first argument.
    p.when(libc::SYS_clone, |p| {
        p.load(arg(0));
        p.op(JSET, CLONE_REFUSED, 0, 1);
        p.ret(errno(libc::EPERM));
        p.ret(libc::SECCOMP_RET_ALLOW);
    });
    // A filter with a listener of its own would take the file calls of the
    // processes below it away from this supervisor.
    p.when(libc::SYS_seccomp, |p| {
        p.load(arg(1));
        p.op(JSET, libc::SECCOMP_FILTER_FLAG_NEW_LISTENER as u32, 0, 1);
        p.ret(errno(libc::EPERM));
        p.ret(libc::SECCOMP_RET_ALLOW);
    });
    // The request is the second argument (its low half: requests are
    // 32 bits).
    p.when(libc::SYS_ioctl, |p| {
        p.load(arg(1));
        for &request in IOCTL_REFUSED {
            p.op(JEQ, request, 0, 1);
            p.ret(errno(libc::EPERM));
        }
        p.ret(libc::SECCOMP_RET_ALLOW);
    });
    p.when(libc::SYS_openat, |p| p.open(2, options.reads));
    #[cfg(target_arch = "x86_64")]
    p.when(libc::SYS_open, |p| p.open(1, options.reads));
    for &nr in FILE_CALLS {
        p.on(nr, libc::SECCOMP_RET_USER_NOTIF);
    }
    p.ret(libc::SECCOMP_RET_ALLOW);
    p.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run the program over one system call, as the kernel would.
    fn verdict(program: &[sock_filter], nr: c_long, args: [u64; 6]) -> u32 {
        let mut data = [0u8; 64];
        data[0..4].copy_from_slice(&(nr as u32).to_le_bytes());
        data[4..8].copy_from_slice(&AUDIT_ARCH.to_le_bytes());
        for (i, a) in args.iter().enumerate() {
            data[16 + 8 * i..24 + 8 * i].copy_from_slice(&a.to_le_bytes());
        }
        let mut a: u32 = 0;
        let mut pc = 0;
        loop {
            let f = program[pc];
            let code = u32::from(f.code);
            pc += 1;
            match code {
                LD => {
                    let k = f.k as usize;
                    a = u32::from_le_bytes(data[k..k + 4].try_into().unwrap());
                }
                RET => return f.k,
                JEQ | JGE | JSET => {
                    let taken = match code {
                        JEQ => a == f.k,
                        JGE => a >= f.k,
                        _ => a & f.k != 0,
                    };
                    pc += usize::from(if taken { f.jt } else { f.jf });
                }
                other => panic!("unexpected instruction {other:#x}"),
            }
        }
    }

    const NOTIFY: u32 = libc::SECCOMP_RET_USER_NOTIF;
    const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;

    #[test]
    fn the_program_sends_file_calls_and_keeps_the_ways_out_shut() {
        let all = program(&Options {
            reads: true,
            root: false,
        });
        let writes_only = program(&Options {
            reads: false,
            root: true,
        });
        let rdonly = [0, 0, libc::O_RDONLY as u64, 0, 0, 0];
        let creat = [0, 0, (libc::O_WRONLY | libc::O_CREAT) as u64, 0, 0, 0];
        let path = [0, 0, (libc::O_PATH | libc::O_RDONLY) as u64, 0, 0, 0];
        assert_eq!(verdict(&all, libc::SYS_openat, rdonly), NOTIFY);
        assert_eq!(verdict(&writes_only, libc::SYS_openat, rdonly), ALLOW);
        assert_eq!(verdict(&writes_only, libc::SYS_openat, creat), NOTIFY);
        assert_eq!(verdict(&all, libc::SYS_openat, path), ALLOW);
        for &nr in FILE_CALLS {
            assert_eq!(verdict(&writes_only, nr, [0; 6]), NOTIFY, "{nr}");
        }
        assert_eq!(verdict(&all, libc::SYS_read, [0; 6]), ALLOW);
        assert_eq!(verdict(&all, libc::SYS_ptrace, [0; 6]), errno(libc::EPERM));
        for nr in [
            libc::SYS_fanotify_init,
            libc::SYS_fanotify_mark,
            libc::SYS_name_to_handle_at,
            libc::SYS_open_by_handle_at,
            libc::SYS_pidfd_getfd,
            libc::SYS_open_tree,
            libc::SYS_fsopen,
            libc::SYS_fsmount,
            libc::SYS_move_mount,
            libc::SYS_acct,
            libc::SYS_swapon,
            libc::SYS_bpf,
        ] {
            assert_eq!(verdict(&writes_only, nr, [0; 6]), errno(libc::EPERM), "{nr}");
        }
        // `chattr +i` through a descriptor opened to read; other requests
        // (a terminal's size) run.
        let setflags = [3, 0x4008_6602, 0, 0, 0, 0];
        assert_eq!(
            verdict(&all, libc::SYS_ioctl, setflags),
            errno(libc::EPERM)
        );
        let winsize = [1, libc::TIOCGWINSZ, 0, 0, 0, 0];
        assert_eq!(verdict(&all, libc::SYS_ioctl, winsize), ALLOW);
        assert_eq!(
            verdict(&all, libc::SYS_openat2, [0; 6]),
            errno(libc::ENOSYS)
        );
        assert_eq!(verdict(&all, 471, [0; 6]), errno(libc::ENOSYS));
        let untraced = [libc::CLONE_UNTRACED as u64, 0, 0, 0, 0, 0];
        let thread = [(libc::CLONE_VM | libc::CLONE_THREAD) as u64, 0, 0, 0, 0, 0];
        assert_eq!(verdict(&all, libc::SYS_clone, untraced), errno(libc::EPERM));
        assert_eq!(verdict(&all, libc::SYS_clone, thread), ALLOW);
        let listener = [1, libc::SECCOMP_FILTER_FLAG_NEW_LISTENER, 0, 0, 0, 0];
        assert_eq!(
            verdict(&all, libc::SYS_seccomp, listener),
            errno(libc::EPERM)
        );
        assert_eq!(verdict(&all, libc::SYS_seccomp, [1, 0, 0, 0, 0, 0]), ALLOW);
        assert_eq!(verdict(&all, libc::SYS_setuid, [0; 6]), ALLOW);
        assert_eq!(
            verdict(&writes_only, libc::SYS_setuid, [0; 6]),
            errno(libc::EPERM)
        );
    }
}
