# term.gp - the output of every plot of plots.sh: fmt ('png' or 'svg'), out (the path without
# its extension), width and height in pixels.
if (fmt eq 'png') {
    if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
        set terminal pngcairo size width, height enhanced font 'Sans,10' background rgb 'white'
    } else {
        set terminal png size width, height enhanced font 'Sans,10' background rgb 'white'
    }
} else {
    set terminal svg size width, height dynamic enhanced font 'Sans,10' background rgb 'white'
}
set output out . '.' . fmt
