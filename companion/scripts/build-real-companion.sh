#!/usr/bin/env bash
# Build Bitfocus Companion from the source archive in ../shared/companion/ once, into a cache outside the
# repository, for test/real-companion.test.ts. The build steps are the shared script's own
# (real-companion.sh: its functions tools, source_tree, patch_deps, install_deps, build, read from it
# unchanged), so its work-arounds for this machine's partial npm mirror stay in one place.
#
# usage: bash scripts/build-real-companion.sh <archive> <cache dir>
#   prints the cache dir; <cache dir>/.complete is written last, so a build stopped half-way is redone.
set -euo pipefail
ARCHIVE=$(realpath "$1")
CACHE=$2
SHARED_SCRIPT=$(dirname "$ARCHIVE")/real-companion.sh
[ -f "$SHARED_SCRIPT" ] || { echo "no $SHARED_SCRIPT beside the archive" >&2; exit 2; }
mkdir -p "$CACHE"
CACHE=$(realpath "$CACHE")
exec 9>"$CACHE.lock"
flock 9 # two test runs at once: the second waits for the first build and reuses it
if [ -f "$CACHE/.complete" ]; then echo "$CACHE"; exit 0; fi

export WORK=$CACHE COMPANION_SRC_TGZ=$ARCHIVE
# everything before the script's first `step` call: settings, exports and the step functions
source <(sed '/^step "1 /,$d' "$SHARED_SCRIPT")
for fn in tools source_tree patch_deps install_deps build; do
	declare -F "$fn" >/dev/null || { echo "$SHARED_SCRIPT has no function $fn" >&2; exit 2; }
done
step "1 node+yarn from npm" tools >&2
step "2 companion source" source_tree >&2
step "3 offline patches" patch_deps >&2
step "4 yarn install" install_deps >&2
step "5 tsc build + runtime" build >&2
rm -rf "$CACHE/yarn-global" # the yarn cache (about 1 GB) is only needed to install again
touch "$CACHE/.complete"
echo "$CACHE"
