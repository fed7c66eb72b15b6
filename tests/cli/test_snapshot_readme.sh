#!/usr/bin/env bash
# Snapshot test: the README shows the model's output, not numbers typed in: its validation block must be
# exactly what `trnsim validate` prints, its serving excerpt lines of what `trnsim serve` prints
# for the example it names, and its Quick start must hold exactly two commands, the second of
# which .ci/run runs.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
# The validation block natively only: under the sanitizers (TRNSIM_SANITIZED) a validation run
# is minutes, and the block is a comparison of text the native run makes the same way.
block=$(awk '/<!-- trnsim validate: begin -->/{f=1;next} /<!-- trnsim validate: end -->/{f=0} f' README.md | sed '1d;$d')
if [[ -z ${TRNSIM_SANITIZED:-} ]]; then
  validated=$("$TRNSIM" validate)
  if [[ $block != "$validated" ]]; then
    echo "README.md's validation block differs from 'trnsim validate':"
    diff <(printf '%s\n' "$block") <(printf '%s\n' "$validated") | head -20
    echo "Refresh it: paste the output of build/native/trnsim validate between the markers."
    exit 1
  fi
fi
serve_block=$(awk '/<!-- trnsim serve: begin -->/{f=1;next} /<!-- trnsim serve: end -->/{f=0} f' README.md | sed '1d;$d')
serve_out=$("$TRNSIM" serve examples/serve-at-load-trn3-gen2.json)
while IFS= read -r line; do
  grep -qxF -- "$line" <<<"$serve_out" || {
    echo "README.md's serving excerpt has a line 'trnsim serve examples/serve-at-load-trn3-gen2.json' does not print:"
    echo "  $line"
    exit 1
  }
done <<<"$serve_block"
[[ -n $serve_block ]] || { echo "README.md has no serving excerpt between the trnsim serve markers"; exit 1; }
cmds=$(awk 'tolower($0) ~ /^#+ .*quick ?start/ {f=1;next} f && /^#+ / {exit} f' README.md |
       awk '/^```/{c=!c;next} c' | sed '/^[[:space:]]*$/d;/^[[:space:]]*#/d')
[[ $(printf '%s\n' "$cmds" | wc -l) == 2 ]] || { echo "Quick start must hold exactly two commands:"; echo "$cmds"; exit 1; }
grep -qxF "$(printf '%s\n' "$cmds" | sed -n 2p)" .ci/run || { echo ".ci/run must run the README's test command"; exit 1; }
echo "test_snapshot_readme: ok"
