//! Paths a tool would touch, normalised so that path rules cannot be beaten
//! by spelling (`./.env`, `src/../.env`, `/work/proj/.env`, `~/proj/.env`
//! and `C:\proj\.env` may all be the same file).
//!
//! [`normalize`] resolves a path *lexically* (no file-system access, so no
//! symlink resolution: the guard must stay fast and must not depend on the
//! state of the disk) and expresses it relative to the project root when it
//! lies inside, absolute otherwise. [`PathSet`] matches such paths against
//! gitignore-like globs.
//!
//! ## Glob semantics ([`PathSet`])
//!
//! * `*` and `?` do not cross `/`; `**` does (`src/**/*.rs`).
//! * A glob without `/` matches any path *component* anywhere, like
//!   gitignore: `.env*` matches `.env` and `config/.env.local`, and `.ssh`
//!   matches everything inside a `.ssh` directory.
//! * A glob with a `/` is matched against the whole normalised path:
//!   relative globs (`config/*.json`, `./secrets/**`) match paths inside the
//!   project root; globs starting with `/` match absolute paths outside it.
//!   It also matches everything below what it names (`secrets` dir →
//!   `secrets/key`).
//! * A trailing `/` is ignored (we cannot know whether a path is a
//!   directory).
//! * A glob starting with `!` excludes: a path matching any `!` glob is not
//!   matched, whatever the order (simpler than gitignore's last-match-wins,
//!   and never surprising for deny lists: `[".env*", "!.env.example"]`).
//! * Matching is case-sensitive, also on case-insensitive file systems:
//!   write `[Ee]nv` if you need both.
//! * A glob starting with `~/` matches a path in the home directory: the
//!   evaluator hands [`PathSet::is_match_any`] the path's [`home_form`] too
//!   (`~/.ssh/id_rsa` for `/home/u/.ssh/id_rsa`). [`PathSet::with_home`]
//!   expands `~` in the globs instead, for callers that know the home.

use globset::{GlobBuilder, GlobSet};

/// Normalise a path a tool would touch.
///
/// * backslashes become `/` (Windows paths);
/// * `~`, `~/…`, `$HOME`, `${HOME}` are expanded with `home` (left as is when
///   `home` is None);
/// * relative paths are taken relative to `project_root`;
/// * `.` and `..` are resolved lexically (`..` never climbs above `/`);
/// * paths inside `project_root` are returned relative to it, without a
///   leading `./` (the root itself is `.`); paths outside are absolute.
///
/// Without a project root, relative paths stay relative (resolved
/// lexically; leading `..` are kept).
pub fn normalize(path: &str, project_root: Option<&str>, home: Option<&str>) -> String {
    let root = project_root.map(|r| clean(&r.replace('\\', "/")));
    let cleaned = clean(&joined(path, project_root, home));
    if let Some(r) = root.filter(|r| is_absolute(r))
        && is_absolute(&cleaned)
    {
        if cleaned == r {
            return ".".to_owned();
        }
        let prefix = if r.ends_with('/') {
            r.clone()
        } else {
            format!("{r}/")
        };
        if let Some(rel) = cleaned.strip_prefix(&prefix) {
            return rel.to_owned();
        }
    }
    cleaned
}

/// `path` as [`normalize`] reads it before resolving `.` and `..`: with
/// `/` for `\\`, `~` expanded, and joined on `project_root` (cleaned)
/// when relative. The kernel resolves a `..` after a link from
/// where the link leads, so a walk that follows links starts from this.
pub fn joined(path: &str, project_root: Option<&str>, home: Option<&str>) -> String {
    let path = expand_home(&path.replace('\\', "/"), home);
    match project_root.map(|r| clean(&r.replace('\\', "/"))) {
        Some(r) if !is_absolute(&path) && !path.starts_with('~') && is_absolute(&r) => {
            format!("{r}/{path}")
        }
        _ => path,
    }
}

/// `path` as seen from `dir`: a relative path joined onto `dir` when `dir` is
/// absolute; anything else (absolute paths, `~` and `$HOME` paths, no usable
/// `dir`) unchanged. For harnesses that run a call in a directory below the
/// project root and name files relative to it.
pub fn in_dir(path: &str, dir: Option<&str>) -> String {
    let unixy = path.replace('\\', "/");
    match dir {
        Some(dir)
            if is_absolute(&dir.replace('\\', "/"))
                && !is_absolute(&unixy)
                && !unixy.starts_with('~')
                && !unixy.starts_with('$') =>
        {
            format!("{}/{unixy}", dir.trim_end_matches(['/', '\\']))
        }
        _ => path.to_owned(),
    }
}

/// The `~` spelling of a path [`normalize`] returned, when it lies in `home`
/// (`/home/u/.ssh/id_rsa` is `~/.ssh/id_rsa`, and so is `.ssh/id_rsa` in a
/// project that is `home` itself), so that a glob written with `~` matches
/// the absolute paths tools are called with. `None` outside `home`, or
/// without an absolute `home`.
pub fn home_form(
    normalized: &str,
    project_root: Option<&str>,
    home: Option<&str>,
) -> Option<String> {
    let home = clean(&home?.replace('\\', "/"));
    if !is_absolute(&home) {
        return None;
    }
    let absolute = if is_absolute(normalized) {
        normalized.to_owned()
    } else {
        let root = clean(&project_root?.replace('\\', "/"));
        if !is_absolute(&root) || normalized.starts_with("..") {
            return None;
        }
        clean(&format!("{root}/{normalized}"))
    };
    if absolute == home {
        return Some("~".to_owned());
    }
    let prefix = if home.ends_with('/') {
        home
    } else {
        format!("{home}/")
    };
    absolute
        .strip_prefix(&prefix)
        .map(|rest| format!("~/{rest}"))
}

fn expand_home(path: &str, home: Option<&str>) -> String {
    let Some(home) = home else {
        return path.to_owned();
    };
    let home = home.replace('\\', "/");
    for prefix in ["~", "$HOME", "${HOME}"] {
        if let Some(rest) = path.strip_prefix(prefix)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            return format!("{home}{rest}");
        }
    }
    path.to_owned()
}

/// Length of the absolute prefix: `/` (1) or a drive `C:/` (3, or 2 for a
/// bare `C:`); 0 for relative paths.
fn root_len(p: &str) -> usize {
    let b = p.as_bytes();
    if b.first() == Some(&b'/') {
        1
    } else if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        if b.get(2) == Some(&b'/') { 3 } else { 2 }
    } else {
        0
    }
}

fn is_absolute(p: &str) -> bool {
    root_len(p) > 0
}

/// Lexical clean-up: drop empty and `.` components, resolve `..`.
fn clean(p: &str) -> String {
    let rl = root_len(p);
    // Byte index `rl` is after ASCII characters, so it is a char boundary.
    let (prefix, rest) = p.split_at(rl);
    let prefix = if prefix.len() == 2 {
        format!("{prefix}/")
    } else {
        prefix.to_owned()
    };
    let mut parts: Vec<&str> = Vec::new();
    for comp in rest.split('/') {
        match comp {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if rl > 0 => {} // cannot climb above the root
                _ => parts.push(".."),
            },
            c => parts.push(c),
        }
    }
    let body = parts.join("/");
    match (prefix.is_empty(), body.is_empty()) {
        (true, true) => ".".to_owned(),
        (true, false) => body,
        (false, _) => prefix + &body,
    }
}

/// Whether the file system that holds the files of `dir` takes names that
/// differ only in case for one file (macOS and Windows by default), found by
/// looking a name up in the other case: an entry of `dir` (a mount point's
/// own name lives in the file system above it), else a directory on its
/// path. With `entries` false only the path is tried, which costs two
/// `stat`s. `None` when nothing there has a letter to try.
#[cfg(unix)]
pub fn folds_case(dir: &std::path::Path, entries: bool) -> Option<bool> {
    use std::os::unix::fs::MetadataExt;
    let swapped = |name: &str| -> Option<String> {
        name.bytes().any(|b| b.is_ascii_alphabetic()).then(|| {
            name.chars()
                .map(|c| {
                    if c.is_ascii_lowercase() {
                        c.to_ascii_uppercase()
                    } else {
                        c.to_ascii_lowercase()
                    }
                })
                .collect()
        })
    };
    let same = |a: &std::path::Path, b: &std::path::Path| -> bool {
        match (std::fs::symlink_metadata(a), std::fs::symlink_metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    };
    let listed = std::fs::read_dir(dir)
        .into_iter()
        .filter(|_| entries)
        .flatten()
        .flatten()
        .take(64);
    let mut tries: Vec<(std::path::PathBuf, std::path::PathBuf)> = listed
        .filter_map(|e| {
            let other = swapped(e.file_name().to_str()?)?;
            Some((e.path(), dir.join(other)))
        })
        .take(1)
        .collect();
    if tries.is_empty() {
        tries = dir
            .ancestors()
            .filter_map(|a| {
                let other = swapped(a.file_name()?.to_str()?)?;
                Some((a.to_path_buf(), a.parent()?.join(other)))
            })
            .take(1)
            .collect();
    }
    let (a, b) = tries.pop()?;
    Some(same(&a, &b))
}

/// Windows' file systems take names in either case.
#[cfg(not(unix))]
pub fn folds_case(_dir: &std::path::Path, _entries: bool) -> Option<bool> {
    Some(true)
}

/// A compiled set of gitignore-like path globs (see the module docs).
#[derive(Debug, Clone)]
pub struct PathSet {
    include: Globs,
    exclude: Globs,
    /// Letters match either case (a file system that folds case).
    fold: bool,
}

impl PathSet {
    /// Compile globs. On error, returns the index of the offending glob and
    /// a message.
    pub fn new(globs: &[String]) -> Result<PathSet, (usize, String)> {
        Self::with_home(globs, None)
    }

    /// Like [`new`](Self::new), expanding a leading `~` in globs to `home`
    /// (so that `~/.ssh/**` matches what [`normalize`] returns for
    /// `~/.ssh/id_rsa`).
    pub fn with_home(globs: &[String], home: Option<&str>) -> Result<PathSet, (usize, String)> {
        Self::compile(globs, home, Globs::add)
    }

    /// Like [`new`](Self::new), letters matching either case: where the
    /// file system folds case, `.ENV` is the file `.env`.
    pub fn folding_case(globs: &[String]) -> Result<PathSet, (usize, String)> {
        let lower: Vec<String> = globs.iter().map(|g| g.to_lowercase()).collect();
        let mut set = Self::compile(&lower, None, Globs::add)?;
        set.fold = true;
        Ok(set)
    }

    /// `add` files each glob into its polarity: [`Globs::add`], or in the
    /// tests [`Globs::add_to_set`], which puts every glob in the `GlobSet`.
    fn compile(
        globs: &[String],
        home: Option<&str>,
        add: impl Fn(&mut Globs, GlobText<'_>) -> Result<(), String>,
    ) -> Result<PathSet, (usize, String)> {
        let mut include = Globs::default();
        let mut exclude = Globs::default();
        for (i, raw) in globs.iter().enumerate() {
            let (negated, g) = match raw.trim().strip_prefix('!') {
                Some(g) => (true, g),
                None => (false, raw.trim()),
            };
            let g = match home {
                Some(h) if g == "~" || g.starts_with("~/") => {
                    format!("{}{}", h.trim_end_matches('/'), &g[1..])
                }
                _ => g.to_owned(),
            };
            // A leading `./` anchors the glob to the project root, whose
            // paths are relative, so the marker itself is dropped.
            let (anchored, g) = match g.strip_prefix("./") {
                Some(rest) => (true, rest),
                None => (false, g.as_str()),
            };
            let g = g.trim_end_matches('/');
            if g.is_empty() {
                return Err((i, format!("glob `{raw}` is empty")));
            }
            let glob = GlobText {
                text: g,
                whole_path: anchored || g.contains('/'),
            };
            let set = if negated { &mut exclude } else { &mut include };
            add(set, glob).map_err(|e| (i, format!("invalid glob `{raw}`: {e}")))?;
        }
        Ok(PathSet {
            include: include.finish()?,
            exclude: exclude.finish()?,
            fold: false,
        })
    }

    /// Does the (already [`normalize`]d) path match?
    pub fn is_match(&self, normalized: &str) -> bool {
        self.is_match_any(&[normalized])
    }

    /// Does one file, given by all its spellings (its normalised path and
    /// its [`home_form`]), match: some spelling matches an including glob
    /// and none an excluding one?
    pub fn is_match_any(&self, spellings: &[&str]) -> bool {
        if self.fold {
            let lower: Vec<String> = spellings.iter().map(|s| s.to_lowercase()).collect();
            let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
            return self.matches(&lower);
        }
        self.matches(spellings)
    }

    fn matches(&self, spellings: &[&str]) -> bool {
        spellings.iter().any(|p| self.include.is_match(p))
            && !spellings.iter().any(|p| self.exclude.is_match(p))
    }

    /// True when the set has no including globs (it matches nothing).
    pub fn is_empty(&self) -> bool {
        self.include.is_empty()
    }
}

/// One glob of a [`PathSet`], its `!`, `./` and trailing `/` taken off.
struct GlobText<'a> {
    text: &'a str,
    /// Matched against the whole path (it has a `/`, or was anchored with
    /// `./`), rather than against components anywhere.
    whole_path: bool,
}

/// The globs of one polarity. Plain names and directories, the usual path
/// rules (`secrets/**`, `Cargo.lock`, `.ssh`), are compared as strings; the
/// rest go to a `GlobSet`. Building a `GlobSet` costs far more than matching
/// with it (about 190,000 instructions for `dir/**`, most of them an
/// Aho-Corasick automaton for the literal prefix), and `hookc build` builds
/// one per guard with paths.
#[derive(Debug, Clone, Default)]
struct Globs {
    /// The path itself.
    exact: Vec<String>,
    /// Anything below the directory (`dir/**`).
    below: Vec<String>,
    /// Components anywhere in the path (a glob without `/`, like `.ssh`).
    names: Vec<String>,
    /// Components anywhere in the path that match a name with `*` and `?`
    /// besides literal characters (`.env*`), matched here without building
    /// a `GlobSet`.
    wild_names: Vec<String>,
    /// The rest, until [`finish`](Self::finish) builds them into `set`.
    others: Vec<globset::Glob>,
    set: GlobSet,
}

impl Globs {
    /// Add a glob, comparing it as a string when that means the same.
    fn add(&mut self, glob: GlobText<'_>) -> Result<(), String> {
        const SPECIAL: &[char] = &['*', '?', '[', ']', '{', '}', '\\'];
        // `GlobSet` never matches a `.` or `..` component by name.
        let plain = |s: &str| {
            !s.is_empty() && !s.contains(SPECIAL) && s.split('/').all(|c| c != "." && c != "..")
        };
        let g = glob.text;
        if plain(g) && glob.whole_path {
            self.exact.push(g.to_owned());
            self.below.push(g.to_owned());
        } else if plain(g) {
            self.names.push(g.to_owned());
        } else if !glob.whole_path
            && g.contains(['*', '?'])
            && !g.contains(['[', ']', '{', '}', '\\', '/'])
            // One literal character other than `.`: it never matches a `.`
            // or `..` component, where `GlobSet` has ways of its own.
            && g.chars().any(|c| !matches!(c, '.' | '*' | '?'))
        {
            self.wild_names.push(g.to_owned());
        } else if let Some(dir) = g.strip_suffix("/**").filter(|d| plain(d)) {
            // `dir/**` and `dir/**/**`: what is below `dir`.
            self.below.push(dir.to_owned());
        } else {
            self.add_to_set(glob)?;
        }
        Ok(())
    }

    /// Add a glob to the `GlobSet`: a glob with `/` as itself and everything
    /// below it, one without as a component anywhere.
    fn add_to_set(&mut self, glob: GlobText<'_>) -> Result<(), String> {
        let g = glob.text;
        let variants: [String; 2] = if glob.whole_path {
            [g.to_owned(), format!("{g}/**")]
        } else {
            [format!("**/{g}"), format!("**/{g}/**")]
        };
        for v in variants {
            let glob = GlobBuilder::new(&v)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| e.to_string())?;
            self.others.push(glob);
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Globs, (usize, String)> {
        self.set =
            GlobSet::new(std::mem::take(&mut self.others)).map_err(|e| (0, e.to_string()))?;
        Ok(self)
    }

    fn is_match(&self, path: &str) -> bool {
        let below = |dir: &String| {
            path.strip_prefix(dir.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
        };
        let named = |name: &String| path.split('/').any(|c| c == name);
        let wild = |name: &String| {
            path.split('/')
                .any(|c| name_matches(name.as_bytes(), c.as_bytes()))
        };
        self.exact.iter().any(|e| e == path)
            || self.below.iter().any(below)
            || self.names.iter().any(named)
            || self.wild_names.iter().any(wild)
            || self.set.is_match(path)
    }

    fn is_empty(&self) -> bool {
        self.exact.is_empty()
            && self.below.is_empty()
            && self.names.is_empty()
            && self.wild_names.is_empty()
            && self.set.is_empty()
    }
}

/// Whether one path component matches a name pattern of `*` (any run of
/// characters, none a `/`) and `?` (one character).
fn name_matches(pattern: &[u8], name: &[u8]) -> bool {
    // The usual two-pointer match with one star to go back to.
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    let one_char = |at: usize| {
        // The length of the UTF-8 character starting at `at`.
        let lead = name[at];
        match lead {
            0xF0..=0xFF => 4,
            0xE0..=0xEF => 3,
            0xC0..=0xDF => 2,
            _ => 1,
        }
        .min(name.len() - at)
    };
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(b'?') => {
                p += 1;
                n += one_char(n);
            }
            Some(&c) if c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    let next = sn + one_char(sn);
                    star = Some((sp, next));
                    p = sp + 1;
                    n = next;
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ROOT: Option<&str> = Some("/work/proj");

    /// A name glob matched here means what `GlobSet` makes of it.
    #[test]
    fn name_globs_match_as_globset_matches_them() {
        let names = [
            ".env",
            ".env.local",
            "env",
            ".envrc",
            "a.env",
            ".en",
            "é.env",
            ".envé",
            "x",
        ];
        for pattern in [
            ".env*", "*.env", ".en?", "*", "?", "*env*", "e*v", ".e*n*v", "??",
        ] {
            let set = globset::GlobBuilder::new(&format!("**/{pattern}"))
                .literal_separator(true)
                .build()
                .unwrap()
                .compile_matcher();
            for name in names {
                assert_eq!(
                    name_matches(pattern.as_bytes(), name.as_bytes()),
                    set.is_match(name),
                    "{pattern} on {name:?}"
                );
            }
        }
        let env = PathSet::new(&[".env*".to_owned(), "!.env.example".to_owned()]).unwrap();
        assert!(env.is_match("config/.env.local"));
        assert!(env.is_match(".env/x"));
        assert!(!env.is_match(".env.example"));
        assert!(!env.is_match("src/env.rs"));
    }

    /// Linux's file systems here keep case: a name in the other case is
    /// another file, found by an entry or, in an empty folder, by a folder
    /// on the way. (No file system that folds case can be mounted here; the
    /// evaluator's tests cover what folding changes.)
    #[cfg(unix)]
    #[test]
    fn case_is_kept_where_the_file_system_keeps_it() {
        let dir = std::env::temp_dir().join(format!("hookc-case-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("123")).unwrap();
        std::fs::write(dir.join("Notes.md"), "x").unwrap();
        assert_eq!(folds_case(&dir, true), Some(false));
        assert_eq!(folds_case(&dir.join("123"), true), Some(false));
        assert_eq!(
            folds_case(std::path::Path::new("/usr/bin"), false),
            Some(false)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn globs_folding_case_match_either_case() {
        let globs = [
            ".env*".to_owned(),
            "!.env.example".to_owned(),
            "Secrets/**".to_owned(),
        ];
        let folded = PathSet::folding_case(&globs).unwrap();
        assert!(folded.is_match(".ENV"));
        assert!(folded.is_match("config/.Env.Local"));
        assert!(folded.is_match("secrets/KEY"));
        assert!(!folded.is_match(".ENV.EXAMPLE"));
        let kept = PathSet::new(&globs).unwrap();
        assert!(!kept.is_match(".ENV"));
        assert!(!kept.is_match("secrets/KEY"));
    }
    const HOME: Option<&str> = Some("/home/u");

    #[test]
    fn normalizes() {
        let n = |p| normalize(p, ROOT, HOME);
        assert_eq!(n(".env"), ".env");
        assert_eq!(n("./.env"), ".env");
        assert_eq!(n("src/../.env"), ".env");
        assert_eq!(n("/work/proj/.env"), ".env");
        assert_eq!(n("/work/proj/"), ".");
        assert_eq!(n("."), ".");
        assert_eq!(n(""), ".");
        assert_eq!(n("/work/proj/a//b/./c/"), "a/b/c");
        assert_eq!(n("/work/project/x"), "/work/project/x");
        assert_eq!(n("../other/x"), "/work/other/x");
        assert_eq!(n("../../../../../x"), "/x");
        assert_eq!(n("~/.ssh/id_rsa"), "/home/u/.ssh/id_rsa");
        assert_eq!(n("~"), "/home/u");
        assert_eq!(n("$HOME/x"), "/home/u/x");
        assert_eq!(n("${HOME}"), "/home/u");
        assert_eq!(n("~bob/x"), "~bob/x");
        assert_eq!(n("config\\.env"), "config/.env");
        assert_eq!(normalize("~/proj/a", Some("/home/u/proj"), HOME), "a");
        assert_eq!(
            normalize("C:\\proj\\src\\.env", Some("C:\\proj"), None),
            "src/.env"
        );
        assert_eq!(normalize("D:\\x", Some("C:\\proj"), None), "D:/x");
        assert_eq!(normalize("a/../../b", None, None), "../b");
        assert_eq!(normalize("~/x", None, None), "~/x");
        assert_eq!(normalize("x", Some("/"), None), "x");
        assert_eq!(normalize("/etc/passwd", Some("/"), None), "etc/passwd");
        assert_eq!(normalize("/..", None, None), "/");
    }

    #[test]
    fn home_forms_spell_paths_in_home_with_a_tilde() {
        let home = Some("/home/u");
        let root = Some("/home/u/proj");
        assert_eq!(
            home_form("/home/u/.ssh/id_rsa", root, home).as_deref(),
            Some("~/.ssh/id_rsa")
        );
        assert_eq!(home_form("/home/u", root, home).as_deref(), Some("~"));
        // Inside the project (relative), still in home.
        assert_eq!(
            home_form(".env", root, home).as_deref(),
            Some("~/proj/.env")
        );
        assert_eq!(home_form("/home/user2/x", root, home), None);
        assert_eq!(home_form("/etc/passwd", root, home), None);
        assert_eq!(home_form("/home/u/x", root, None), None);
        assert_eq!(home_form("/home/u/x", root, Some("relative")), None);
        // A set with a `~` glob and an exclusion, over both spellings.
        let set = PathSet::new(&["~/.ssh/*".to_owned(), "!~/.ssh/*.pub".to_owned()]).unwrap();
        assert!(set.is_match_any(&["/home/u/.ssh/id_rsa", "~/.ssh/id_rsa"]));
        assert!(!set.is_match_any(&["/home/u/.ssh/id_rsa.pub", "~/.ssh/id_rsa.pub"]));
        assert!(!set.is_match_any(&["/home/u/.ssh/id_rsa"]));
    }

    #[test]
    fn paths_relative_to_a_working_directory() {
        let cwd = Some("/work/proj/config");
        assert_eq!(in_dir(".env", cwd), "/work/proj/config/.env");
        assert_eq!(normalize(&in_dir(".env", cwd), ROOT, HOME), "config/.env");
        assert_eq!(normalize(&in_dir("../.env", cwd), ROOT, HOME), ".env");
        assert_eq!(in_dir("/etc/x", cwd), "/etc/x");
        assert_eq!(in_dir("~/x", cwd), "~/x");
        assert_eq!(in_dir("$HOME/x", cwd), "$HOME/x");
        assert_eq!(in_dir("x", Some("relative")), "x");
        assert_eq!(in_dir("x", Some("")), "x");
        assert_eq!(in_dir("x", None), "x");
        assert_eq!(in_dir("x", Some("/work/proj/")), "/work/proj/x");
    }

    fn set(globs: &[&str]) -> PathSet {
        let globs: Vec<String> = globs.iter().map(|s| (*s).to_owned()).collect();
        PathSet::with_home(&globs, HOME).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn globs() {
        let s = set(&[
            ".env*",
            "!.env.example",
            "*.pem",
            ".ssh",
            "secrets/",
            "/etc/**",
            "./top.txt",
            "~/.aws/**",
        ]);
        for yes in [
            ".env",
            ".env.local",
            "config/.env.prod",
            "/home/u/proj/.env",
            "key.pem",
            "a/b/key.pem",
            "/home/u/.ssh/id_rsa",
            "secrets",
            "secrets/db.json",
            "sub/secrets/x",
            "/etc/passwd",
            "top.txt",
            "/home/u/.aws/credentials",
        ] {
            assert!(s.is_match(yes), "{yes}");
        }
        for no in [
            ".env.example",
            "config/.env.example",
            "env",
            "src/env.rs",
            "x.pem.txt",
            "etc/passwd",
            "sub/top.txt",
            "README.md",
            ".ENV",
        ] {
            assert!(!s.is_match(no), "{no}");
        }
        let star = set(&["src/*.rs"]);
        assert!(star.is_match("src/a.rs"));
        assert!(!star.is_match("src/x/a.rs"), "`*` must not cross `/`");
        assert!(set(&["src/**/*.rs"]).is_match("src/x/y/a.rs"));
        assert_eq!(PathSet::new(&["a[".to_owned()]).err().map(|e| e.0), Some(0));
        assert_eq!(
            PathSet::new(&["ok".to_owned(), "!".to_owned()])
                .err()
                .map(|e| e.0),
            Some(1)
        );
        assert!(
            PathSet::new(&[])
                .map(|s| s.is_empty() && !s.is_match("x"))
                .unwrap_or(false)
        );
    }

    /// Globs compared as strings match exactly what the same globs match
    /// through a `GlobSet`.
    fn agrees_with_globset(globs: &[String], paths: &[String]) -> Result<(), TestCaseError> {
        let fast = PathSet::with_home(globs, HOME);
        let slow = PathSet::compile(globs, HOME, Globs::add_to_set);
        match (&fast, &slow) {
            (Ok(fast), Ok(slow)) => {
                for p in paths {
                    prop_assert_eq!(fast.is_match(p), slow.is_match(p), "{:?} on {:?}", globs, p);
                }
                prop_assert_eq!(fast.is_empty(), slow.is_empty());
            }
            _ => prop_assert_eq!(fast.err(), slow.err()),
        }
        Ok(())
    }

    #[test]
    fn plain_globs_agree_with_globset_on_the_edges() {
        let globs = |g: &[&str]| g.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let paths = globs(&[
            "a",
            "a/",
            "a/b",
            "/a",
            "/a/b",
            "b/a",
            "b/a/c",
            "ab",
            "a.b",
            "ab/c",
            "b/ab",
            ".",
            "/",
            "",
            "a//b",
            "/home/u/a",
            "/home/u/a/b",
            "/home/u",
        ]);
        for g in [
            "a", "a/", "./a", "a/b", "/a", "a/**", "./a/**", "a/b/**", "/**", "**", "~", "~/a",
            "~/a/**", "!a", "a.b", "*", "a/*", "[a]", "a*", "*b", ".?", "a*b", "?",
        ] {
            agrees_with_globset(&globs(&[g]), &paths).unwrap();
            agrees_with_globset(&globs(&["a", g]), &paths).unwrap();
            agrees_with_globset(&globs(&[g, "!a/b"]), &paths).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        #[test]
        fn plain_globs_agree_with_globset(
            globs in prop::collection::vec(
                r"!?(\./|~/|/)?([ab.]{1,2}|\*|\*\*|[ab.]?[*?][ab.]?)(/([ab.]{1,2}|\*\*|\*|[ab.]?[*?][ab.]?)){0,2}/?", 1..4),
            paths in prop::collection::vec(r"(/home/u/|/)?[ab.]{1,2}(/[ab.]{1,2}){0,3}/?", 12),
        ) {
            agrees_with_globset(&globs, &paths)?;
        }
    }

    proptest! {
        #[test]
        fn normalize_never_panics(p in any::<String>(), r in any::<String>(), h in any::<String>()) {
            let _ = normalize(&p, Some(&r), Some(&h));
            let _ = normalize(&p, None, None);
        }

        #[test]
        fn normalize_is_idempotent(p in "(~/)?[a-z./]{0,20}") {
            let once = normalize(&p, ROOT, HOME);
            prop_assert_eq!(normalize(&once, ROOT, HOME), once.clone());
        }
    }
}
