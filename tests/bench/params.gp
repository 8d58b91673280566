# params.gp - the parameter sweeps: a panel per swept option (and size), a line per step
# (effective GB/s against the option's value), CUB at that size as a dashed flat line.
# From plots.sh: npanels, filesP, kindsP, colorsP, titleP, logxP (P = 1..npanels), gpu,
# chapter, fmt, out, here.
cols = npanels > 1 ? 2 : 1
nrows = (npanels + cols - 1) / cols
width = 560 * cols; height = 60 + 360 * nrows
load here . 'term.gp'
set multiplot layout nrows, cols title sprintf('%s on %s: parameter sweeps', chapter, gpu) noenhanced
set ylabel 'effective GB/s'
set yrange [0:*]
set format x '%g'
set key bottom right noenhanced font ',8'
set grid xtics ytics
do for [p = 1:npanels] {
    f = value(sprintf('files%d', p)); k = value(sprintf('kinds%d', p)); c = value(sprintf('colors%d', p))
    set title value(sprintf('title%d', p)) noenhanced
    if (value(sprintf('logx%d', p))) { set logscale x 2 } else { unset logscale x }
    set xlabel value(sprintf('title%d', p))[1:strstrt(value(sprintf('title%d', p)), ' ') - 1] noenhanced
    do for [i = 1:words(f)] { # a line type per series: steps solid, CUB dashed without points
        cub = word(k, i) eq 'cub'
        d = cub ? 2 : 1
        w = cub ? 2 : 1.5
        t = cub ? 0 : 7
        set linetype 100 + i linecolor rgb word(c, i) linewidth w dashtype d pointtype t pointsize 0.6
    }
    plot for [i = 1:words(f)] word(f, i) using 1:2 smooth unique with linespoints linetype 100 + i title columnheader(2)
}
unset multiplot
