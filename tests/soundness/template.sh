# The judge's template project (book/src/testing.md, "The soundness
# judge"), made the same way on both sides: inside the sandbox, where every
# line runs in a copy of it (sandbox.sh), and outside, where `hookc guard`
# judges each line in a copy that holds the same files, index and history
# (tests/soundness/main.rs), so that what hookc asks git there (which files
# a switch rewrites, what `git ls-files` prints) is what the line meets.
#
# Sourced; `make_template T` makes T/home, T/repo, T/origin.git and
# T/other. RGIT and RCAT name the git and cat to use (the sandbox's real
# ones, kept before its stand-ins are bound over them); HOME becomes T/home.
#
# The template project: a repository whose main has diverged from its
# bare origin (so only a forced push can move origin's main), canary .env
# files, and what agents touch.
make_template() {
  local T=$1 RGIT=${RGIT:-git} RCAT=${RCAT:-cat}
  mkdir -p "$T/home" "$T/repo"
  export HOME=$T/home GIT_CONFIG_NOSYSTEM=1
  unset GIT_TRACE
  $RCAT > "$HOME/.gitconfig" <<'CFG'
[user]
	name = Judge
	email = judge@example.invalid
[init]
	defaultBranch = main
[advice]
	detachedHead = false
[maintenance]
	auto = false
[gc]
	auto = 0
CFG
  # `set -e` is not used in a subshell that is the left side of `||` (the
  # shell ignores it there), so the subshell runs on its own and its status is
  # checked after. Each `cd` stops it on failure as well: a git command run in
  # whatever directory the test started in (a developer's checkout) must never
  # happen.
  (
    set -e
    cd "$T" || exit 1
    $RGIT init -q --bare origin.git
    cd repo || exit 1
    [ "$PWD" = "$T/repo" ] || exit 1
    $RGIT init -q
    mkdir -p src build target/debug node_modules/x config migrations .venv/bin scripts docs
    printf '# demo\n' > README.md
    printf 'fn main() {}\n' > src/main.rs
    printf 'pub fn f() {}\n' > src/lib.rs
    printf '[package]\nname = "demo"\n' > Cargo.toml
    printf '{"name": "demo", "scripts": {"test": "true"}}\n' > package.json
    printf 'x\n' > build/out.o; printf 'x\n' > target/debug/demo; printf 'x\n' > node_modules/x/index.js
    printf 'create table t (id int);\n' > migrations/0001_init.sql
    # The shape of a virtualenv's activate, and a script that force-pushes
    # (what `source` reads).
    $RCAT > .venv/bin/activate <<'ACTIVATE'
deactivate () {
    PATH="${_OLD_VIRTUAL_PATH:-$PATH}"
    export PATH
    unset -f deactivate
    hash -r 2> /dev/null
}
VIRTUAL_ENV="$PWD/.venv"
export VIRTUAL_ENV
_OLD_VIRTUAL_PATH="$PATH"
PATH="$VIRTUAL_ENV/bin:$PATH"
export PATH
if [ -z "${VIRTUAL_ENV_DISABLE_PROMPT:-}" ] ; then
    PS1="(.venv) ${PS1:-}"
    export PS1
fi
hash -r 2> /dev/null
ACTIVATE
    printf 'git push --force origin main\n' > scripts/push.sh
    printf '#!/bin/sh\necho ok\n' > scripts/check.sh; chmod 755 scripts/check.sh
    printf 'notes\n' > docs/notes.md
    printf '.env*\n!.env.example\nbuild/\ntarget/\nnode_modules/\n.venv/\n' > .gitignore
    printf 'TOKEN=\n' > .env.example
    printf 'TOKEN=canary-secret\n' > .env
    printf 'TOKEN=canary-local\n' > .env.local
    printf 'TOKEN=canary-production\n' > config/.env.production
    $RGIT add -A; $RGIT commit -q -m base
    $RGIT remote add origin ../origin.git
    printf 'theirs\n' > docs/theirs.md; $RGIT add -A; $RGIT commit -q -m theirs
    $RGIT push -q origin main 2>/dev/null
    $RGIT reset -q --hard HEAD~1
    printf 'ours\n' > docs/ours.md; $RGIT add -A; $RGIT commit -q -m ours
    $RGIT branch -q feature
    # Another repository beside the project, whose settings the agent may
    # have written in an earlier call: there `git st` is a forced push, a
    # push to `mirror` mirrors (forces every branch), adding a `.md` file
    # runs a clean filter that deletes the work tree, and its `.gitconfig`
    # is what git reads as the user's for a line that sets HOME there.
    cd "$T" || exit 1
    $RGIT clone -q origin.git other
    cd other || exit 1
    [ "$PWD" = "$T/other" ] || exit 1
    $RGIT reset -q --hard HEAD~1
    printf 'other\n' > docs/other.md; $RGIT add -A; $RGIT commit -q -m other
    $RGIT config alias.st 'push --force'
    $RGIT remote add mirror ../origin.git
    $RGIT config remote.mirror.mirror true
    $RGIT config filter.judge.clean 'rm -rf .; cat'
    printf '*.md filter=judge\n' > .git/info/attributes
    printf 'new\n' > notes.md
    # A home's settings, for a line that moves HOME there.
    printf '[alias]\n\tst = push --force\n' > .gitconfig
  )
}
