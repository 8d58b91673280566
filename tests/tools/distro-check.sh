#!/usr/bin/env bash
# distro-check.sh [RELEASE...] (root, network to Debian's archive): proves that Criterion's fetch
# (tests/tools/fetch-criterion.sh) resolves the packages of each Debian release and that a test
# built against the fetched copy links and runs, as root and as an unprivileged user, in a fresh
# debootstrap root filesystem per release (default: bookworm trixie; under /srv/roots).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ "$(id -u)" = 0 ] || { echo "distro-check: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
roots=${ROOTS:-/srv/roots}
for rel in "${@:-bookworm trixie}"; do
    R=$roots/$rel
    [ -x "$R/usr/bin/gcc" ] || debootstrap --variant=minbase --include=gcc,make,libc6-dev,pkg-config,ca-certificates \
        "$rel" "$R" http://deb.debian.org/debian >/dev/null
    cp /etc/resolv.conf "$R/etc/resolv.conf"
    mkdir -p "$R/proof" "$R/dev/shm"
    cp "$here/fetch-criterion.sh" "$R/proof/"
    cat >"$R/proof/t.c" <<'C'
#include <criterion/criterion.h>
Test(proof, runs) { cr_assert_eq(1 + 1, 2); }
C
    cat >"$R/proof/proof.sh" <<'SH'
set -e
cd "$1"; . /etc/os-release; echo "== $PRETTY_NAME, as $(id -un 2>/dev/null || id -u)"
rm -rf .deps; bash fetch-criterion.sh .deps
lib=.deps/root/usr/lib/$(gcc -print-multiarch)
gcc -std=gnu11 -I.deps/root/usr/include t.c -L$lib -lcriterion -Wl,--disable-new-dtags \
    -Wl,-rpath='$ORIGIN/'$lib -Wl,-rpath-link=$lib -o t
./t 2>&1 | tail -n 1
SH
    mount -t proc proc "$R/proc"; mount -t tmpfs tmpfs "$R/dev/shm"; chmod 1777 "$R/dev/shm"
    trap 'umount "$R/proc" "$R/dev/shm" 2>/dev/null || true' EXIT
    chroot "$R" bash /proof/proof.sh /proof
    mkdir -p "$R/tmp/u"; cp "$R"/proof/{fetch-criterion.sh,t.c,proof.sh} "$R/tmp/u/"; chown -R 65534:65534 "$R/tmp/u"
    chroot --userspec=65534:65534 "$R" env HOME=/tmp/u bash /tmp/u/proof.sh /tmp/u
    umount "$R/proc" "$R/dev/shm"; trap - EXIT
done
