# speedup.gp - the multi-GPU step's speed-up over one-GPU CUB against n: a line per step (and
# local sort) and GPU count, and the anchor's (a baseline built from libraries), CUB on one GPU
# the flat line at 1. A line's GPU count is in its dash (plotdata-multigpu.awk's chart_speedup). The
# legend below the axes, in one or two columns as its entries fit. From plots.sh and
# plotdata.awk + plotdata-multigpu.awk: files (columns: n, speed-up), uI_* (the style and title of line I; the last, CUB's),
# nkeys, keycols, top, lo, hi, note, chaptitle, gpu, fmt, out, here.
if (!exists('note')) { note = '' }
keyrows = (nkeys + keycols - 1) / keycols
keyh = 30 + 24 * keyrows + (note ne '' ? 24 : 0)
width = 1280; height = 620 + keyh
load here . 'term.gp'
set multiplot title sprintf('%s on %s: speed-up over one-GPU CUB at each n', chaptitle, gpu) noenhanced
keyprefix = 'u'; keyn = nkeys; keyy0 = (note ne '' ? 24.0 : 0) / height; keyy1 = keyh / (1.0 * height)
load here . 'keystrip.gp'
if (note ne '') { set label 1 note at screen 0.012, character 0.7 left font f3 noenhanced }
set origin 0, keyy1
set size 1, 1 - keyy1 - 40.0 / height
set logscale x 2
set xrange [lo / 1.5:hi * 1.5]
set format x '2^{%L}'
set yrange [0:top]
set xlabel 'n (keys)'
set ylabel "speed-up: one-GPU CUB's time / this one's" noenhanced
set grid xtics ytics lc rgb '#dddddd'
unset key
do for [i = 1:words(files)] {
    set linetype 100 + i linecolor rgb value(sprintf('u%d_color', i)) linewidth value(sprintf('u%d_width', i)) \
        dashtype value(sprintf('u%d_dash', i)) pointtype value(sprintf('u%d_point', i)) pointsize value(sprintf('u%d_psize', i)) * 1.4 * psscale
}
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead linewidth 3 dashtype 2 linecolor rgb '#3a3a3a' back
plot for [i = 1:words(files)] word(files, i) using 1:2 with linespoints linetype 100 + i
unset multiplot
