# term.gp - the output of every plot of plots.sh: fmt ('png', 'svg' or 'pdf'), out (the path
# without its extension), width and height in pixels, fs (the font size of the PNG, in points).
# One picture in three formats: the SVG and PDF fonts are scaled so that text takes the same
# share of the picture as in the PNG (pngcairo draws a point as 4/3 pixel, svg as 1, and the
# PDF page is width/96 inches wide, PowerPoint's 16:9 page at 1280 pixels; its lines 1.5 times
# pdfcairo's own, as wide as the PNG's).
if (!exists('fs')) { fs = 14 }
# fontscale: how many of the format's font units make one PNG point; f1, f2, f3: the fonts one,
# two and three points smaller than the picture's own (e.g. `set key font f2`); psscale: the
# factor of every point size (svg draws points larger than the cairo terminals)
fontscale = fmt eq 'pdf' ? 1.5 : fmt eq 'svg' ? 4.0 / 3.0 : 1.0
psscale = fmt eq 'svg' ? 0.7 : 1.0
f1 = sprintf(',%g', (fs - 1) * fontscale); f2 = sprintf(',%g', (fs - 2) * fontscale); f3 = sprintf(',%g', (fs - 3) * fontscale)
if (fmt eq 'png') {
    if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
        set terminal pngcairo size width, height enhanced font sprintf('Sans,%g', fs) background rgb 'white'
    } else {
        set terminal png size width, height enhanced font sprintf('Sans,%g', fs) background rgb 'white'
    }
} else {
    if (fmt eq 'pdf') {
        set terminal pdfcairo size width / 96.0, height / 96.0 linewidth 1.5 enhanced font sprintf('Sans,%g', fs * fontscale) background rgb 'white'
    } else {
        set terminal svg size width, height dynamic enhanced font sprintf('Sans,%g', fs * fontscale) background rgb 'white'
    }
}
set output out . '.' . fmt
