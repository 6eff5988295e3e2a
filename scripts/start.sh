#!/bin/sh
# npm start / start:services / migrate / cli: build the server once (cached by
# a hash of its sources, scripts/build.mjs), then run the built JavaScript
# with the production flags (scripts/run-server.sh).
#   sh scripts/start.sh main|services|replicas|cli [arguments]
set -e
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
node "$root/scripts/build.mjs"
exec sh "$root/scripts/run-server.sh" "$@"
