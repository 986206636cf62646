#!/usr/bin/env bash
# Non-test source lines of each package (src, .ts/.tsx/.astro, tests and type tests apart), at a commit
# or in the working tree: scripts/source-lines.sh [commit]
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-}"
for dir in packages/*/; do
  name=$(basename "$dir")
  if [ -n "$rev" ]; then
    files=$(git ls-tree -r --name-only "$rev" -- "${dir}src" | grep -E '\.(ts|tsx|astro)$' | grep -vE '\.test\.tsx?$|\.test-d\.ts$|/testing/' || true)
    lines=0
    for f in $files; do lines=$((lines + $(git show "$rev:$f" | wc -l))); done
  else
    lines=$(find "${dir}src" -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.astro' \) ! -name '*.test.ts' ! -name '*.test.tsx' ! -name '*.test-d.ts' ! -path '*/testing/*' -print0 | xargs -0 cat | wc -l)
  fi
  printf '%s\t%s\n' "$name" "$lines"
done
