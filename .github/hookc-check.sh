#!/usr/bin/env bash
# What action.yml runs: `hookc check`, or `hookc check --org "$HOOKC_ORG"`,
# with the hookc of version $HOOKC_VERSION (run with pipx) or the one on PATH.
set -euo pipefail
if [ -n "${HOOKC_VERSION:-}" ]; then
    hookc=(pipx run --spec "hookc==${HOOKC_VERSION}" hookc)
elif command -v hookc >/dev/null 2>&1; then
    hookc=(hookc)
else
    echo "::error::no hookc on PATH: give the action a version (with: version: 0.1.0)" >&2
    exit 2
fi
if [ -n "${HOOKC_ORG:-}" ]; then
    exec "${hookc[@]}" check --org "$HOOKC_ORG"
fi
exec "${hookc[@]}" check
