//! What `find` hands to the command of its `-exec`: the files it finds, as
//! globs. The normaliser gives them to that command (as its `{}`), and the
//! file-access model counts them as what the command touches.

/// The files `find` (whose words are `rest`) hands to what `-exec` runs,
/// as globs that include dotfiles.
pub fn found(rest: &[super::lex::Word]) -> Vec<String> {
    let args: Vec<String> = rest.iter().map(|w| w.text.clone()).collect();
    found_globs(&args)
}

/// The most globs of a start folder and a `-name` together: each name is
/// looked for below each folder, so many of both would cost their product.
/// Past it each folder stands for all it holds (`DIR/**`), which names more
/// files, never fewer.
pub const MAX_FOUND: usize = 64;

pub fn found_globs(args: &[String]) -> Vec<String> {
    let starts: Vec<&str> = args
        .iter()
        .take_while(|a| !a.starts_with('-') && !matches!(a.as_str(), "(" | "!" | ","))
        .map(String::as_str)
        .collect();
    let starts = if starts.is_empty() { vec!["."] } else { starts };
    let mut names: Vec<String> = Vec::new();
    let mut whole: Vec<String> = Vec::new();
    let mut unknown = false;
    let mut i = 0;
    while let Some(t) = args.get(i) {
        i += 1;
        let v = args.get(i).cloned().unwrap_or_default();
        match t.as_str() {
            "-name" => names.push(v),
            "-iname" => names.push(either_case(&v)),
            "-path" | "-wholename" => whole.push(v),
            "-ipath" | "-iwholename" => whole.push(either_case(&v)),
            "-regex" | "-iregex" | "-lname" | "-ilname" => unknown = true,
            "-o" | "-or" | "!" | "-not" => unknown = true,
            _ => continue,
        }
    }
    let mut out = Vec::new();
    for s in &starts {
        let s = s.trim_end_matches('/');
        let s = if s.is_empty() { "/" } else { s };
        if unknown
            || (names.is_empty() && whole.is_empty())
            || starts.len().saturating_mul(names.len()) > MAX_FOUND
        {
            out.push(format!("{s}/**"));
            continue;
        }
        for n in &names {
            out.push(format!("{s}/**/{n}"));
        }
    }
    out.extend(whole);
    out
}

/// Whether what `find` (whose words after the name are `args`) finds is
/// only regular files it lists itself, below its start folders as they are
/// when it runs: `-type f` outside any `-o`, `!` or parentheses, no link
/// followed (`-L`, `-H`, `-follow`), and nothing printed but the names
/// (`-print`, `-print0`): then the files on disk where the call runs are
/// what it hands on, and a link or a folder (which a reader handed one may
/// follow or walk) is none of them.
pub fn lists_files(args: &[String]) -> bool {
    const OTHER: [&str; 20] = [
        "-L", "-H", "-follow", "-o", "-or", "!", "-not", ",", "(", ")", "-printf", "-fprintf",
        "-fprint", "-fprint0", "-ls", "-fls", "-exec", "-execdir", "-ok", "-okdir",
    ];
    let typed = args.windows(2).any(|w| w[0] == "-type" && w[1] == "f");
    typed
        && !args.iter().any(|a| {
            OTHER.contains(&a.as_str()) || matches!(a.as_str(), "-delete" | "-files0-from")
        })
}

/// [`lists_files`] for a `find` whose `-exec` (or `-execdir`, `-ok`,
/// `-okdir`) commands are what it hands the files to.
pub fn lists_files_for_exec(args: &[String]) -> bool {
    let mut rest = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            while args.get(i).is_some_and(|a| a != ";" && a != "+") {
                i += 1;
            }
        } else {
            rest.push(a.clone());
        }
        i += 1;
    }
    lists_files(&rest)
}

/// A glob matching `pattern` in either case (`-iname`): letters become
/// `[xX]`.
fn either_case(pattern: &str) -> String {
    pattern
        .chars()
        .map(|c| {
            if c.is_ascii_alphabetic() {
                format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn each_name_is_looked_for_below_each_folder() {
        assert_eq!(
            found_globs(&words("a b -name *.rs -o -name x")),
            ["a/**", "b/**"]
        );
        assert_eq!(
            found_globs(&words("a b -name *.rs -name x")),
            ["a/**/*.rs", "a/**/x", "b/**/*.rs", "b/**/x"]
        );
    }

    #[test]
    fn only_regular_files_find_lists_itself_are_files_on_disk() {
        assert!(lists_files(&words("src -type f -name *.rs")));
        assert!(lists_files(&words(". -maxdepth 2 -type f -print0")));
        for other in [
            "src -name *.rs",
            "src -type d",
            "-L src -type f",
            "src -type f -o -name x",
            "src ! -type f",
            "src -type f -printf %p",
            "src -type f -exec cat {} ;",
            "src -type f -delete",
        ] {
            assert!(!lists_files(&words(other)), "{other}");
        }
    }

    #[test]
    fn many_folders_and_names_are_each_folder_whole() {
        let folders: Vec<String> = (0..1000).map(|k| format!("d{k}")).collect();
        let names: String = (0..1000).map(|k| format!(" -name n{k}")).collect();
        let found = found_globs(&words(&format!("{}{names}", folders.join(" "))));
        assert_eq!(found.len(), 1000);
        assert!(found.iter().all(|g| g.ends_with("/**")));
    }
}
