#!/usr/bin/env bash
# Snapshot test: the CLI's outputs equal the goldens in tests/golden/ (scripts/golden.sh).
# A snapshot fails on every change, right or wrong: when a change is meant, regenerate with
# `bash scripts/golden.sh write` and say why in the commit.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
# Under the sanitizers (TRNSIM_SANITIZED) all but validate's two files: each is a whole
# validation run, minutes there, and the sanitizer suite's test_validate runs it already.
if [[ -n ${TRNSIM_SANITIZED:-} ]]; then
  TRNSIM=$TRNSIM bash "$TRNSIM_SOURCE_DIR/scripts/golden.sh" check --without-validate
else
  TRNSIM=$TRNSIM bash "$TRNSIM_SOURCE_DIR/scripts/golden.sh" check
fi
