#!/usr/bin/env bash
# Fetches Criterion and the libraries it loads into DIR (default .deps) without
# root: `apt-get download` + `dpkg -x`. The Makefile links against DIR/root with
# an $ORIGIN-relative DT_RPATH, so DIR can be carried to a GPU machine that has
# no package registry.
set -euo pipefail
dir=${1:-.deps}
pkgs=(libcriterion-dev libcriterion3 libboxfort-dev libnanomsg5 libgit2-1.5 libhttp-parser2.9
      libmbedtls14 libmbedx509-1 libmbedcrypto7 libssh2-1)
mkdir -p "$dir/debs" "$dir/root"
echo "Criterion is not installed: fetching it into $dir/ (Debian packages, no root needed)"
cd "$dir/debs"
if ! apt-get download "${pkgs[@]}" >/dev/null 2>download.log; then
    # A fresh machine may have no package lists yet; root can fetch them.
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq >/dev/null 2>>download.log || true
    fi
    apt-get download "${pkgs[@]}" >/dev/null 2>>download.log || {
        cat download.log >&2
        echo "fetch-criterion: could not download ${pkgs[*]}." >&2
        echo "Install Criterion instead (Debian/Ubuntu: apt-get install libcriterion-dev) and run make again." >&2
        exit 1
    }
fi
for deb in *.deb; do dpkg -x "$deb" ../root; done
# The .pc files name /usr; point them at this folder for anyone using pkg-config.
root=$(cd ../root && pwd)
for pc in ../root/usr/lib/*/pkgconfig/*.pc; do
    [ -f "$pc" ] && sed -i "s|^prefix=/usr|prefix=$root/usr|" "$pc"
done
touch ../.criterion
echo "Criterion ready in $dir/root"
