#!/usr/bin/env bash
# Records a prediction: fills a draft (predictions/drafts/NAME.json: the figures to predict and
# the computation of each, validate.h's format) with the model's figures at this commit and
# writes predictions/DATE-NAME.json. A recorded file is never edited: a new model version
# records a new dated one (this script refuses to overwrite). Needs a built CLI
# (scripts/build.sh) and a clean work tree, so the commit named is the model that spoke.
#   bash scripts/predict.sh predictions/drafts/trn3-serving.json
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
draft=${1:?usage: scripts/predict.sh predictions/drafts/NAME.json}
[[ -f $draft ]] || { echo "predict: no draft $draft" >&2; exit 2; }
if [[ -n $(git status --porcelain -- core examples native) ]]; then
  echo "predict: the work tree has uncommitted changes to the model; commit them first" >&2
  exit 2
fi
commit=$(git rev-parse HEAD)
date=$(date -u +%F)
out="predictions/$date-$(basename "$draft")"
[[ -e $out ]] && { echo "predict: $out exists; a recorded prediction is never edited" >&2; exit 2; }
build/native/trnsim validate --record "$draft" --date "$date" --commit "$commit" > "$out.tmp"
mv "$out.tmp" "$out"
echo "predict: recorded $out (commit ${commit:0:12}); rebuild to embed it"
