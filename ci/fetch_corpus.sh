#!/usr/bin/env bash
# Fetch the real-world C corpus (fuzz/corpus.py) from Debian's source packages into
# .cache/corpus/src, by package name and pinned version, checked by sha256.
# Needs root + apt (deb-src entries are added from the machine's own deb entries),
# tclsh/make/cc for SQLite's amalgamation, cc for gawk's, bc's and libxml2's configure.
# Tests and benchmarks skip with the reason when a program's sources are missing. Usage: bash ci/fetch_corpus.sh [NAME ...]
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.cache/corpus/src
mkdir -p "$dest" .cache/corpus/dl

# name  package=version  orig tarball  sha256  top directory inside it
packages="
bzip2 bzip2=1.0.8-5 bzip2_1.0.8.orig.tar.gz ab5a03176ee106d3f0fa90e381da478ddae405918153cca248e682cd0c4a2269 bzip2-1.0.8
zlib zlib=1:1.2.13.dfsg-1 zlib_1.2.13.dfsg.orig.tar.bz2 71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1 zlib-1.2.13.dfsg
cjson cjson=1.7.15-1+deb12u4 cjson_1.7.15.orig.tar.gz 5308fd4bd90cef7aa060558514de6a1a4a0819974a26e6ed13973c5f624c24b2 cJSON-1.7.15
mujs mujs=1.3.2-1 mujs_1.3.2.orig.tar.xz 4886593fc688b0cdccd31e5ecbe5afe7ad1bee23aa69e667b871afd5dfc640c3 mujs-1.3.2
duktape duktape=2.7.0-2 duktape_2.7.0.orig.tar.xz 90f8d2fa8b5567c6899830ddef2c03f3c27960b11aca222fa17aa7ac613c2890 duktape-2.7.0
sqlite sqlite3=3.40.1-2+deb12u2 sqlite3_3.40.1.orig.tar.xz aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655 sqlite3-3.40.1
pcre2 pcre2=10.42-1 pcre2_10.42.orig.tar.gz c33b418e3b936ee3153de2c61cc638e7e4fe3156022a5c77d0711bcbb9d64f1f pcre2-10.42
jq jq=1.6-2.1+deb12u2 jq_1.6.orig.tar.gz 3ba940b97571c866923f0409678033d33b5a98758dfc174fad8397ed908bc4d9 jq-jq-1.6
gawk gawk=1:5.2.1-2 gawk_5.2.1.orig.tar.xz 2337a0283b180ec1b9c727973a34781c6478b3ae9bcbdcca0a4dc49861d75a65 gawk-5.2.1
bc bc=1.07.1-3 bc_1.07.1.orig.tar.gz 62adfca89b0a1c0164c2cdca59ca210c1d44c3ffc46daf9931cf4942664cb02a bc-1.07.1
libxml2 libxml2=2.9.14+dfsg-1.3~deb12u6 libxml2_2.9.14+dfsg.orig.tar.xz 4fe913dec8b1ab89d13b489b419a8203176ea39e931eaa0d25b17eafb9c279e9 libxml2-2.9.14
"

ensure_deb_src() {
  if apt-get source --print-uris -q bzip2 >/dev/null 2>&1; then return 0; fi
  [ "$(id -u)" = 0 ] || { echo "corpus: no deb-src entries and not root: cannot fetch sources" >&2; return 1; }
  local src
  for src in /etc/apt/sources.list.d/*.sources; do
    [ -f "$src" ] || continue
    sed 's/^Types: deb$/Types: deb-src/' "$src" > "/etc/apt/sources.list.d/ember-src-$(basename "$src")"
  done
  if [ -f /etc/apt/sources.list ]; then
    grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > /etc/apt/sources.list.d/ember-src.list || true
  fi
  apt-get update -q >/dev/null 2>&1
}

# The files a program's build generates (run in its top directory): what its own build
# would make before compiling, nothing else.
generate() {
  case "$1" in
    sqlite)  # the amalgamation (sqlite3.c + shell.c); needs tclsh, make, cc
      mkdir -p bld && cd bld && ../configure -q >/dev/null 2>&1 && make -s sqlite3.c shell.c >/dev/null 2>&1 ;;
    pcre2)  # NON-AUTOTOOLS-BUILD: the generic config and header, the default character tables
      cp src/config.h.generic src/config.h && cp src/pcre2.h.generic src/pcre2.h \
        && cp src/pcre2_chartables.c.dist src/pcre2_chartables.c ;;
    jq)  # Makefile.am's rules for the version header and the builtins written in jq
      echo '#define JQ_VERSION "1.6"' > src/version.h \
        && sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' src/builtin.jq > src/builtin.inc ;;
    gawk)  # config.h (no NLS, MPFR, readline, dynamic extensions or persistent memory); needs cc
      ./configure -q --disable-nls --disable-mpfr --without-readline --disable-extensions --disable-pma >/dev/null 2>&1 ;;
    bc)  # config.h, and bc/libmath.h: bc's math library compiled by a bootstrap bc (bc/Makefile.am); needs cc, make
      ./configure -q >/dev/null 2>&1 && make -s -C lib >/dev/null 2>&1 && make -s -C bc libmath.h >/dev/null 2>&1 ;;
    libxml2)  # config.h and xmlversion.h (no zlib, lzma, ICU, HTTP, FTP, Python); needs cc
      ./configure -q --without-python --without-zlib --without-lzma --without-icu --without-http --without-ftp >/dev/null 2>&1 ;;
  esac
}

fetch_one() {
  local name=$1 pkgver=$2 tarball=$3 sum=$4 top=$5
  [ -d "$dest/$name" ] && return 0
  if ! echo "$sum  .cache/corpus/dl/$tarball" | sha256sum -c --quiet >/dev/null 2>&1; then
    (cd .cache/corpus/dl && apt-get source -q -d --only-source "$pkgver" >/dev/null 2>&1) \
      || { echo "corpus: apt-get source $pkgver failed" >&2; return 1; }
    echo "$sum  .cache/corpus/dl/$tarball" | sha256sum -c --quiet
  fi
  rm -rf ".cache/corpus/tmp-$name" && mkdir -p ".cache/corpus/tmp-$name"
  tar xf ".cache/corpus/dl/$tarball" -C ".cache/corpus/tmp-$name"
  (cd ".cache/corpus/tmp-$name/$top" && generate "$name") || { echo "corpus: generating $name's build files failed" >&2; return 1; }
  mv ".cache/corpus/tmp-$name/$top" "$dest/$name" && rm -rf ".cache/corpus/tmp-$name"
}

wanted=" ${*:-bzip2 zlib cjson mujs duktape sqlite pcre2 jq gawk bc libxml2} "
ensure_deb_src || exit 1
status=0
while read -r name pkgver tarball sum top; do
  [ -n "$name" ] || continue
  case "$wanted" in *" $name "*) ;; *) continue ;; esac
  fetch_one "$name" "$pkgver" "$tarball" "$sum" "$top" || status=1
done <<< "$packages"
exit $status
