#!/usr/bin/env bash
# A container job (debian:12) runs as root in a workspace the runner created as another user: git
# refuses a repository of another owner ("dubious ownership") unless it is marked safe. checkout's
# own mark lives in a config of its own git calls only; ours (tests/oss_fuzz/check_build.py's git
# ls-files, the commit a report names) need this one. Run right after the checkout.
set -euo pipefail
workspace="${GITHUB_WORKSPACE:-$PWD}"
git config --global --add safe.directory "$workspace"
echo "git-safe-workspace: $workspace marked safe for git"
