#!/usr/bin/env bash
# Snapshot test: the CLI's outputs equal the goldens in tests/golden/ (scripts/golden.sh).
# A snapshot fails on every change, right or wrong: when a change is meant, regenerate with
# `bash scripts/golden.sh write` and say why in the commit.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
TRNSIM=$TRNSIM bash "$TRNSIM_SOURCE_DIR/scripts/golden.sh" check
