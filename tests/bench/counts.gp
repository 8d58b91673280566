# counts.gp - chapter 10's counts (./run --analyze, steps 1-3): for each metric a panel of
# grouped bars, per step and N: measured, the book's formula at that N, the number the book
# prints ('?' in the data: none). From plots.sh: npanels, fileP, titleP, gpu, chapter, fmt, out, here.
cols = npanels > 1 ? 2 : 1
nrows = (npanels + cols - 1) / cols
width = 560 * cols; height = 60 + 340 * nrows
load here . 'term.gp'
set multiplot layout nrows, cols title sprintf('%s on %s: measured counts beside the book''s', chapter, gpu) noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set datafile missing '?'
set linetype 1 linecolor rgb '#0072b2'
set linetype 2 linecolor rgb '#e69f00'
set linetype 3 linecolor rgb '#999999'
set key inside top left opaque noenhanced font ',8'
set xtics noenhanced font ',8'
set yrange [0:*]
set offsets 0, 0, graph 0.35, 0
set grid ytics
do for [m = 1:npanels] {
    set title value(sprintf('title%d', m)) noenhanced
    f = value(sprintf('file%d', m))
    plot f using 2:xtic(1) title columnheader(2), '' using 3 title columnheader(3), '' using 4 title columnheader(4)
}
unset multiplot
