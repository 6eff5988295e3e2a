#!/bin/sh
# Runs the built server (dist/server, scripts/build.mjs) with the production
# flags: what npm start / start:services / cli run after building, and the
# container image's entrypoint (deploy/Dockerfile).
#   sh scripts/run-server.sh main|services|replicas|cli [arguments]
set -e
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
entry=$1
shift
# An 8 MB young generation (semi-space) instead of Node 24's 32 MB: ~35-50 MB less
# resident, request garbage still dies young (docs/performance.md).
# --heap-growing-percent=50: after each full GC, old space may grow by half of
# what survived before the next one, where V8 otherwise picks up to 4x on a
# machine with memory to spare: under refresh load the in-flight requests'
# objects promoted to old space let it reach ~150 MB, ~40 MB of it live (RSS
# ~260 MB); now ~60 MB (RSS ~160 MB), at the same CPU per request. It caps no size: a
# bigger live heap still grows, only its full GCs come sooner.
# --expose-gc: once ready, a server runs one memory-reducing GC to give back what
# its start-up left (apps/standalone/src/memory.ts; ~20 MB per process).
flags="--disable-warning=ExperimentalWarning --max-semi-space-size=8 --heap-growing-percent=50 --expose-gc"
# Embedded PGlite (no DATABASE_URL) is PostgreSQL compiled to WebAssembly: V8's
# optimizing WebAssembly tier holds ~400 MB while it compiles and keeps more
# code resident; the baseline tier alone keeps the process small and starts it
# faster (docs/performance.md). No other WebAssembly runs on the hot path.
if [ -z "$DATABASE_URL" ]; then flags="$flags --liftoff-only"; fi
exec node $flags "$root/dist/server/$entry.js" "$@"
