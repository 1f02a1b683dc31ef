#!/usr/bin/env bash
# Fetch the Lua 5.4 interpreter sources (MIT; bundled in the `lupa` sdist on PyPI) into .cache/lua54
# for the real-world split test. Needs network; the test skips with a reason when this has not run.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.cache/lua54
[ -f "$dest/lvm.c" ] && exit 0
mkdir -p .cache
url=https://files.pythonhosted.org/packages/c3/a6/0f869fbb07c393f15473b1eefefb7b5bec162fb7481803d040ed4dc46002/lupa-2.8.tar.gz
curl -fsSL -o .cache/lupa.tar.gz "$url"
echo "d8022641b9ec8ecf2c5ecbe9f47e5a70e0b87c4b5ae921b92cb02a638e0acd08  .cache/lupa.tar.gz" | sha256sum -c --quiet
tar xzf .cache/lupa.tar.gz -C .cache lupa-2.8/third-party/lua54
rm -rf "$dest" && mv .cache/lupa-2.8/third-party/lua54 "$dest" && rm -rf .cache/lupa-2.8 .cache/lupa.tar.gz
