#!/bin/sh
# Regenerates data/spider/audit/flags.csv: `sqlboard audit`, label-free, over the 23 bundled systems'
# predictions as agents (the command in data/spider/audit/README.md), from the source (tsx), with a
# throw-away run store. With the path of SALUS's GT_RS_200_spider.csv as $1, also prints, as --json, the
# evaluation that data/spider/audit/README.md quotes (precision, recall, F1, MCC, the baselines).
# test/spider-audit-flags.test.ts fails when flags.csv or the count the README quotes drifts from what
# the code makes; test/fidelity/spider-audit-figures.test.ts checks the quoted evaluation figures.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
agents=$(node -e "const m=require('./data/spider/predictions/manifest.json');console.log(m.systems.map(s=>'--agent '+s.name+'=data/spider/predictions/'+s.file).join(' '))")
# shellcheck disable=SC2086 # one word per --agent NAME=FILE
npx --no-install tsx src/cli.ts audit --questions data/spider/dev.json --db-root data/spider/database $agents \
  --store "$tmp/store.db" --out "$tmp/audit" >/dev/null
cp "$tmp/audit/flags.csv" data/spider/audit/flags.csv
echo "data/spider/audit/flags.csv: $(awk -F, 'NR > 1 && $2 == 0' data/spider/audit/flags.csv | wc -l) flagged tasks" >&2
if [ $# -ge 1 ]; then
  # shellcheck disable=SC2086
  npx --no-install tsx src/cli.ts audit --questions data/spider/dev.json --db-root data/spider/database $agents \
    --store "$tmp/store.db" --labels "$1" --json
fi
