#!/usr/bin/env bash
# Snapshot test: the CLI's outputs equal the goldens in tests/golden/ (scripts/golden.sh).
# A snapshot fails on every change, right or wrong: when a change is meant, regenerate with
# `bash scripts/golden.sh write` and say why in the commit.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
# Under the sanitizers (TRNSIM_SANITIZED) the JSON outputs and the rest but validate: a
# validation run is minutes there and the sanitizer suite's test_validate makes one, and each
# example's text and trace twin repeats the evaluation its JSON made (their printers run under
# the sanitizers in test_serve, test_workload and test_run_link).
if [[ -n ${TRNSIM_SANITIZED:-} ]]; then
  TRNSIM=$TRNSIM bash "$TRNSIM_SOURCE_DIR/scripts/golden.sh" check --sanitized
else
  TRNSIM=$TRNSIM bash "$TRNSIM_SOURCE_DIR/scripts/golden.sh" check
fi
