#!/usr/bin/env bash
# The judge's sandbox (book/src/testing.md, "The soundness judge").
#
# Run by tests/soundness/main.rs as the first process of fresh user, mount,
# pid and network namespaces (`unshare`). Arguments: IO, a directory shared
# with the test, which holds `programs` (the guarded program names, one a
# line), `shells`, `cases/N` (one command line each) and `todo` (the case
# numbers this sandbox runs; `cases/N.flips` says which runs: "0", or
# "0 1" when the line has control flow that exit statuses steer); results go to IO/results/N.SHELL.FLIP/. ROOT,
# an empty directory, is where the sandbox mounts its scratch tmpfs: every
# sandbox uses the same path (each in its own mount namespace), so lines run
# in the same directory whichever sandbox runs them.
#
# Inside: a strictatime tmpfs holds the stand-ins, a template project and
# the run directory; every other mount is read-only. A logging stand-in is
# bound over every path of every guarded program (and of git's dashed
# commands), so that whatever a line really runs leaves its argv, as the
# program received it, in the log. git's stand-ins log and then hand over
# to the real git (with GIT_TRACE), which lets git itself expand aliases,
# autocorrect and run hooks, pagers and `rebase -x` commands, all of which
# reach the stand-ins again. Canary .env files have an access time in 2000:
# a read shows in their stat, under whatever name the line gave them (the
# bundled policy refuses reads of .env files; writing one is allowed).
set -uo pipefail
IO=$1
R=$2
mount --make-rprivate / 2>/dev/null
mount -t tmpfs -o strictatime,mode=755,size=1g judge "$R" || { echo "judge: cannot mount tmpfs" >&2; exit 3; }
mount --bind "$IO/results" "$IO/results"
mkdir -p "$R/real/git-core" "$R/standins" "$R/bin" "$R/state" "$R/log" "$R/tmp"
# Keep the real programs the sandbox itself needs under $R/real before
# anything is bound over them.
real() { # name path
  : > "$R/real/$1" && mount --bind "$2" "$R/real/$1"
}
GIT_EXEC=$(git --exec-path)
for p in git rm cp cat find stat env timeout unshare mkdir chmod sort readlink grep; do
  real "$p" "$(command -v "$p")"
done
# The sandbox's own uses of programs a policy may name (the presets name
# chmod, env, grep) go to the real ones, never to a stand-in.
chmod() { "$R/real/chmod" "$@"; }
mkdir() { "$R/real/mkdir" "$@"; }
sort() { "$R/real/sort" "$@"; }
readlink() { "$R/real/readlink" "$@"; }
grep() { "$R/real/grep" "$@"; }
RCAT=$R/real/cat
RFIND=$R/real/find
RSTAT=$R/real/stat
RGIT=$R/real/git
RRM=$R/real/rm
RCP=$R/real/cp

# A stand-in logs its argv; then it runs `tail` (git: the real git, whose
# status it returns) or exits 0 in the first run and 1 in the second.
standin() { # file logical-name tail
  { printf '#!/bin/dash\n# judge stand-in for %s\n' "$2"
    printf 'n=0; while [ -e %s/log/$$.$n ]; do n=$((n+1)); done\n' "$R"
    printf 'f=%s/log/$$.$n\n' "$R"
    printf 'printf %%s\\\\0 %s "$@" > "$f"\n' "$2"
    if [ -n "$3" ]; then printf '%s\n' "$3"
    else printf 'read s < %s/state/flip 2>/dev/null || s=0\nexit "$s"\n' "$R"; fi
  } > "$1"
  chmod 755 "$1"
}
# Bind a stand-in over every path of a program: every PATH match, the usual
# bin directories (through symlinks: a bind lands on the file).
paths_of() {
  { type -a -P "$1" 2>/dev/null
    for d in /bin /sbin /usr/bin /usr/sbin /usr/local/bin /usr/local/sbin; do
      [ -e "$d/$1" ] && printf '%s\n' "$d/$1"; done
  } | while read -r p; do p=$(readlink -f "$p") && [ -f "$p" ] && printf '%s\n' "$p"; done | sort -u
}
bound=()
while read -r prog; do
  # Only a program's basename: `.` (the `source` builtin's other name) or a
  # name with `/` would resolve to a directory such as /bin, and the bind
  # mount below would cover it.
  case $prog in '' | . | .. | *[!A-Za-z0-9._+-]*) continue ;; esac
  case $prog in
    git) tail="export GIT_TRACE=\$f.trace; exec $RGIT \"\$@\"" ;;
    *) tail="" ;;
  esac
  standin "$R/standins/$prog" "$prog" "$tail"
  extra=
  [ "$prog" = git ] && extra=$GIT_EXEC/git
  found=
  for p in $(paths_of "$prog") $extra; do
    mount --bind "$R/standins/$prog" "$p" && bound+=("$p") && found=1
  done
  # A program this machine lacks (kubectl, terraform, psql) still logs what
  # it would have been given: its stand-in goes first on PATH.
  [ -n "$found" ] || $RCP "$R/standins/$prog" "$R/bin/$prog"
done < "$IO/programs"
# git's dashed commands: each logs as `git-NAME` and hands over to the real
# file (`git-receive-pack` must still work for a local push, and the
# scripts among them, such as git-submodule, must not call themselves).
if grep -qx git "$IO/programs"; then
  for p in "$GIT_EXEC"/git-*; do
    [ -f "$p" ] && [ -x "$p" ] || continue
    name=${p##*/}
    # The real file, kept under its own name (git reads its argv[0]).
    : > "$R/real/git-core/$name" && mount --bind "$p" "$R/real/git-core/$name"
    standin "$R/standins/$name" "$name" "export GIT_TRACE=\$f.trace; exec $R/real/git-core/$name \"\$@\""
    mount --bind "$R/standins/$name" "$p" && bound+=("$p")
  done
fi
printf '%s\n' "${bound[@]}" > "$IO/results/bound.$$"

# Neutral programs an agent runs (test runners, package managers): they
# log too, and succeed in the first run and fail in the second, so that
# both sides of && and || run.
# ssh runs its command string on "the remote host", which is this one;
# parallel (`parallel ::: CMD`) runs its commands. Both log first.
for prog in ssh parallel; do
  standin "$R/bin/$prog" "$prog" 'while [ $# -gt 0 ]; do case $1 in -[iloJpFE]) shift 2 ;; -*|:::) shift ;; *) break ;; esac; done
[ '"$prog"' = ssh ] && shift
[ $# -gt 0 ] && exec sh -c "$*"'
done
# sudo and doas (not installed here) run their command.
for prog in sudo doas; do
  printf '#!/bin/dash\nwhile [ $# -gt 0 ]; do case $1 in -u|-g) shift 2 ;; -*) shift ;; *) break ;; esac; done\nexec "$@"\n' > "$R/bin/$prog"
  chmod 755 "$R/bin/$prog"
done
for prog in probe cargo npm npx pnpm yarn pytest docker make go tsc eslint prettier jest pip uv ruff mypy; do
  standin "$R/bin/$prog" "$prog" ""
done
# Programs hookc does not know, for the generated lines of class 11
# (IO/wrappers, one `KIND NAME [PROGRAM]` a line; generate.rs says what
# each does): they run their arguments, so what they run reaches the
# stand-ins above. busybox and toybox are ours too, whether installed or
# not: a real one would run its own rm, which logs nothing.
if [ -f "$IO/wrappers" ]; then
  while read -r kind name prog; do
    case $kind in
      unknown) body='while [ $# -gt 0 ]; do
  case $1 in
    --run|-c) exec sh -c "$2" ;;
    --run=*) exec sh -c "${1#--run=}" ;;
    --level) shift 2 ;;
    --) shift; break ;;
    -*) shift ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] && exec "$@"' ;;
      gnu) body="exec $prog \"\$@\"" ;;
      coreutils) body='case $1 in --coreutils-prog=*) p=${1#--coreutils-prog=}; shift; exec "$p" "$@" ;; esac
exec "$@"' ;;
      *) continue ;;
    esac
    printf '#!/bin/sh\n# judge: a program hookc does not know (%s)\n%s\n' "$kind" "$body" > "$R/bin/$name"
    chmod 755 "$R/bin/$name"
  done < "$IO/wrappers"
fi

# Everything else read-only (the scratch tmpfs and the results excepted).
while read -r _ _ _ _ mp _; do
  case $mp in "$R"|"$R"/*|"$IO/results"|/proc|/proc/*|/sys|/sys/*|/dev|/dev/*) continue ;; esac
  mount -o remount,bind,ro "$mp" 2>/dev/null
done < /proc/self/mountinfo
# A private /tmp, unless that would hide IO and ROOT: then /tmp stays
# read-only like the rest, and is never cleared.
PRIVATE_TMP=
case $IO/:$R/ in
  /tmp/*|*:/tmp/*) ;;
  *) mount -t tmpfs judge-tmp /tmp && PRIVATE_TMP=1 ;;
esac

T=$R/template
. "$(dirname "${BASH_SOURCE[0]}")/template.sh"
make_template "$T"
[ $? -eq 0 ] || { echo "judge: template failed" >&2; exit 3; }
ORIGIN_MAIN=$($RGIT --git-dir="$T/origin.git" rev-parse refs/heads/main)
$RGIT --git-dir="$T/origin.git" pack-refs --all
for c in .env .env.local config/.env.production; do touch -a -d 2000-01-01T00:00:00 "$T/repo/$c"; done
# The canary files of a run by inode, with their access times: a file
# still there (under any name) whose access time changed was read. One
# process each.
canary_inodes() { $RFIND "$1/repo" -name '.env*' ! -name '.env.example' -printf '%i\n' | sort; }
canary_times() {
  local expr=() i
  for i in $2; do expr+=(-o -inum "$i"); done
  $RFIND "$1" -xdev \( -false "${expr[@]}" \) -printf '%i %A@\n' 2>/dev/null | sort -u
}
# A supervised run (IO/exec: the hookc to run lines under, and the files of
# the policy's build): each line runs as `hookc exec --harness claude --
# SHELL -c LINE` in a project that holds the build, as a rewritten Claude
# Code call would. hookc exec kills whatever the line leaves running.
HOOKC=
if [ -f "$IO/exec" ]; then
  { read -r HOOKC; read -r BUILT; } < "$IO/exec"
  $RCP -a "$BUILT/." "$T/repo/"
fi
# Reading the template must not change the access times cp -a copies.
mount --bind "$T" "$T" && mount -o remount,bind,ro,noatime "$T"

RUN=$R/run
SHELLS=$($RCAT "$IO/shells")
TIMEOUT=${JUDGE_TIMEOUT:-3}
while read -r id; do
  line=$($RCAT "$IO/cases/$id")
  flips=$($RCAT "$IO/cases/$id.flips")
  for sh in $SHELLS; do
    for flip in $flips; do
      out=$IO/results/$id.$sh.$flip
      mkdir -p "$out"
      t0=$EPOCHREALTIME
      $RRM -rf "$RUN" "$R"/log/* "$R"/tmp/* 2>/dev/null
      [ -n "$PRIVATE_TMP" ] && $RRM -rf /tmp/* 2>/dev/null
      $RCP -a "$T" "$RUN"
      inodes=$(canary_inodes "$RUN")
      times_before=$(canary_times "$RUN" "$inodes")
      echo "$flip" > "$R/state/flip"
      if [ -n "$HOOKC" ]; then
        under=("$HOOKC" exec --harness claude --policy "$RUN/repo/.hookc/policy.json" --)
      else
        under=("$R/real/unshare" --pid --fork --kill-child --)
      fi
      (cd "$RUN/repo" && exec "$R/real/env" -i HOME="$RUN/home" PATH="$R/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        TERM=dumb LANG=C.UTF-8 USER=root GIT_CONFIG_NOSYSTEM=1 JUDGE_FLIP=$flip TMPDIR=$R/tmp \
        "$R/real/timeout" -s KILL "$TIMEOUT" "${under[@]}" "$sh" -c "$line" \
        </dev/null >/dev/null 2>"$out/stderr")
      echo "$?" > "$out/status"
      echo "$t0 $EPOCHREALTIME" > "$out/time"
      $RCP -a "$R"/log/. "$out/" 2>/dev/null
      {
        times_after=$(canary_times "$RUN" "$inodes")
        while read -r ino at; do
          [ -n "$ino" ] || continue
          case $'\n'"$times_before"$'\n' in
            *$'\n'"$ino $at"$'\n'*) ;;
            *) echo "canary: a .env file was read"; break ;;
          esac
        done <<< "$times_after"
        # A push writes a loose ref: only then is there anything to check.
        if [ -f "$RUN/origin.git/refs/heads/main" ]; then
          read -r now < "$RUN/origin.git/refs/heads/main"
          if [ "$now" != "$ORIGIN_MAIN" ] \
            && ! $RGIT --git-dir="$RUN/origin.git" merge-base --is-ancestor "$ORIGIN_MAIN" "$now" 2>/dev/null; then
            echo "force-push: origin's main was rewritten"
          fi
        fi
      } > "$out/events"
    done
  done
  echo "$id" > "$IO/results/done.$$"
done < "$IO/todo"
