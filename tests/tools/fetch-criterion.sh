#!/usr/bin/env bash
# fetch-criterion.sh [DIR]: Criterion (the test framework) and the libraries it loads, into DIR
# (default .deps) without root, for a machine where it is not installed: the Makefile uses the
# system's Criterion when pkg-config finds it, and this otherwise. On Debian and Ubuntu (any
# release) the packages are resolved for the running system: libcriterion-dev and every package
# it depends on that is not installed here, fetched with `apt-get download` and unpacked with
# `dpkg -x`. The Makefile links against DIR/root with an $ORIGIN-relative DT_RPATH, so DIR can be
# carried to a GPU machine that has no package registry. Elsewhere it says what to install.
set -euo pipefail
dir=${1:-.deps}
top=libcriterion-dev

cannot() {
    cat >&2 <<EOF
fetch-criterion: $1
Install Criterion (the test framework) and run make again:
  Debian, Ubuntu:   sudo apt-get install libcriterion-dev
  Fedora:           sudo dnf install criterion-devel
  Arch:             sudo pacman -S criterion
  macOS (Homebrew): brew install criterion
  anything else:    build it from https://github.com/Snaipe/Criterion (meson), then make sure
                    pkg-config finds it (PKG_CONFIG_PATH=<prefix>/lib/pkgconfig).
EOF
    exit 1
}

command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
    cannot "this is not a Debian or Ubuntu system (no apt-get/dpkg), so it cannot fetch the packages itself."

echo "Criterion is not installed: fetching it into $dir/ (this system's packages, no root needed)"
mkdir -p "$dir/debs" "$dir/root"
cd "$dir/debs"

# What to fetch, as this release names it: the headers (libcriterion-dev, and its own -dev
# packages not installed here) and the runtime library closure of libcriterion3, fetched even
# where installed here, so that the folder also runs on a GPU machine that lacks them; only the
# base libraries nearly every system has (C, C++, zlib, OpenSSL, libffi, Kerberos) are left to the
# system, where they are installed here. A fresh machine may have no
# package lists: root can fetch them.
closure() {
    apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
        --no-enhances "$1" 2>/dev/null | grep -v '^ ' | grep -v '^<' | sort -u
}
runtime=$(closure libcriterion3 || true)
if [ -z "$runtime" ] && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null 2>download.log || true
    runtime=$(closure libcriterion3 || true)
fi
[ -n "$runtime" ] || cannot "apt does not know $top on this system (no package lists? run apt-get update as root)."
base='^(libc6|libgcc-s1|gcc-[0-9]+-base|libstdc\+\+6|zlib1g|libcrypt1|libssl3|libssl3t64|libffi8|libcom-err2|libkeyutils1|libgssapi-krb5-2|libk5crypto3|libkrb5-3|libkrb5support0)$'
need=()
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for p in $runtime; do [[ $p =~ $base ]] && installed "$p" || need+=("$p"); done
for p in $(closure "$top" | grep -- '-dev$'); do
    installed "$p" || need+=("$p")
done
echo "  packages: ${need[*]}"
apt-get download "${need[@]}" >/dev/null 2>>download.log || {
    cat download.log >&2
    cannot "apt-get download failed for ${need[*]}."
}
for deb in *.deb; do dpkg -x "$deb" ../root; done
# The .pc files name /usr; point them at this folder for anyone using pkg-config.
root=$(cd ../root && pwd)
for pc in ../root/usr/lib/*/pkgconfig/*.pc ../root/usr/share/pkgconfig/*.pc; do
    [ -f "$pc" ] && sed -i "s|^prefix=/usr|prefix=$root/usr|" "$pc"
done
[ -f ../root/usr/include/criterion/criterion.h ] || cannot "the packages did not hold criterion/criterion.h."
touch ../.criterion
echo "Criterion ready in $dir/root"
