#!/usr/bin/env bash
# fetch-gnuplot.sh [DIR] - prints the command that runs gnuplot for `make plots`: the system's,
# else one fetched into DIR (default .deps/gnuplot) without root, as tests/tools/fetch-criterion.sh
# fetches Criterion: `apt-get download` of gnuplot-nox and of the packages it needs that this
# machine lacks (apt's own answer: apt-get install -s), `dpkg -x` into DIR/root, and a wrapper
# DIR/gnuplot that sets LD_LIBRARY_PATH and the fonts. Where that cannot work it says what to
# install. Messages go to stderr. GNUPLOT_FETCH_ALL=1 fetches as for a bare machine (testing).
# Debian's gnuplot-nox has the cairo terminals (pngcairo, and pdfcairo for the PDFs); a gnuplot
# without pdfcairo still plots: plots.sh then converts the SVGs (rsvg-convert) or skips the PDFs.
set -euo pipefail
dir=${1:-.deps/gnuplot}

# the system's gnuplot, when it is 5.0 or later (the scripts use do-for loops and dash types)
if [ -z "${GNUPLOT_FETCH_ALL:-}" ] && command -v gnuplot >/dev/null 2>&1; then
    version=$(gnuplot -e 'set print "-"; print GPVAL_VERSION' 2>/dev/null) || true
    version=${version:-unknown}
    if awk -v v="$version" 'BEGIN { exit !(v + 0 >= 5.0) }'; then
        command -v gnuplot
        exit 0
    fi
    echo "the system's gnuplot is $version; make plots needs 5.0 or later" >&2
fi
if [ -x "$dir/gnuplot" ]; then
    echo "$dir/gnuplot"
    exit 0
fi

install_it() {
    cat >&2 <<'EOF'
make plots needs gnuplot 5 (terminals pngcairo or png, and svg). Install it, then run make plots again:
  Debian/Ubuntu:  sudo apt-get install gnuplot-nox
  Fedora/RHEL:    sudo dnf install gnuplot
  macOS:          brew install gnuplot
EOF
    exit 1
}
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then install_it; fi

echo "gnuplot is not installed: fetching it into $dir/ (Debian packages, no root needed)" >&2
mkdir -p "$dir/debs" "$dir/root"
log=$(cd "$dir/debs" && pwd)/download.log
: >"$log"
# What apt would install for gnuplot-nox here: the package and its missing dependencies.
needed() {
    local status=()
    # a bare machine's answer: as if nothing were installed (libc6 always is)
    [ -z "${GNUPLOT_FETCH_ALL:-}" ] || status=(-o Dir::State::status=/dev/null)
    apt-get install -s --no-install-recommends "${status[@]}" gnuplot-nox 2>>"$log" |
        sed -n 's/^Inst \([^ ]*\) .*/\1/p' | grep -vx 'libc6\|libc-bin\|libgcc-s1' || true
}
pkgs=$(needed)
if [ -z "$pkgs" ] && [ "$(id -u)" = 0 ]; then
    # a fresh machine may have no package lists yet; root can fetch them
    apt-get update -qq >>"$log" 2>&1 || true
    pkgs=$(needed)
fi
if [ -z "$pkgs" ]; then
    cat "$log" >&2
    echo "fetch-gnuplot: apt-get knows no gnuplot-nox here (no package lists?)." >&2
    install_it
fi
# shellcheck disable=SC2086 # one word per package
if ! (cd "$dir/debs" && apt-get download $pkgs) >>"$log" 2>&1; then
    cat "$log" >&2
    echo "fetch-gnuplot: could not download: ${pkgs//$'\n'/ }" >&2
    install_it
fi
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
exe=""
for candidate in "$dir"/root/usr/bin/gnuplot-nox "$dir"/root/usr/bin/gnuplot; do
    if [ -z "$exe" ] && [ -x "$candidate" ]; then exe=$candidate; fi
done
[ -n "$exe" ] || { echo "fetch-gnuplot: no gnuplot binary in the packages" >&2; install_it; }
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
# Fonts: the system's configuration when there is one, and the fonts that came with the
# packages (paths relative to this file, so the folder can move).
cat >"$dir/fonts.conf" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir prefix="relative">root/usr/share/fonts</dir>
  <dir>/usr/share/fonts</dir>
  <cachedir prefix="relative">fontcache</cachedir>
</fontconfig>
EOF
cat >"$dir/gnuplot" <<EOF
#!/bin/sh
# gnuplot as fetched by tests/bench/fetch-gnuplot.sh: its libraries and fonts from here.
here=\$(cd "\$(dirname "\$0")" && pwd)
LD_LIBRARY_PATH="\$here/root/usr/lib/$multiarch:\$here/root/lib/$multiarch:\$here/root/usr/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
FONTCONFIG_FILE="\$here/fonts.conf"
export LD_LIBRARY_PATH FONTCONFIG_FILE
exec "\$here/root/usr/bin/${exe##*/}" "\$@"
EOF
chmod +x "$dir/gnuplot"
if ! "$dir/gnuplot" -e "set terminal svg; set output '/dev/null'; plot x" 2>>"$log"; then
    cat "$log" >&2
    rm -f "$dir/gnuplot"
    echo "fetch-gnuplot: the fetched gnuplot does not run here" >&2
    install_it
fi
if ! "$dir/gnuplot" -e 'set print "-"; print GPVAL_TERMINALS' 2>/dev/null | grep -qw pdfcairo; then
    echo "fetch-gnuplot: the fetched gnuplot has no pdfcairo terminal: no PDFs from it" >&2
fi
echo "gnuplot ready in $dir" >&2
echo "$dir/gnuplot"
