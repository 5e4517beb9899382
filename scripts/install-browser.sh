#!/usr/bin/env bash
# Debian's Chromium and its WebDriver, for the browser test (tests/serve/browser.rs), when
# missing. `.ci/run` calls it; a developer runs it once (or installs the two packages by hand).
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# The package lists may be stale on a fresh machine: refresh them when the install fails.
if ! $sudo apt-get install -y -q chromium chromium-driver > /dev/null 2>&1; then
    $sudo apt-get update -q > /dev/null
    $sudo apt-get install -y -q chromium chromium-driver > /dev/null
fi
echo "install-browser: $(/usr/bin/chromium --version 2>/dev/null | head -1), $(/usr/bin/chromedriver --version | head -1)"
