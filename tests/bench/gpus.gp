# gpus.gp - the multi-GPU step's throughput against the GPU count at one size: a line per step
# (or local sort), its ideal (its throughput per GPU at its fewest GPUs, times the GPU count) as
# a thin dashed line in the same colour, CUB on one GPU as a grey flat line, each point's ratio
# to CUB to its right, in its line's colour, at the height plotdata-multigpu.awk gives it (labels of one
# GPU count that would touch stand one above the other). The legend below the axes, in one or
# two columns as its entries fit. From plots.sh and plotdata.awk + plotdata-multigpu.awk: files (columns: gpus, y, label,
# the label's height), gI_* (the line of I), gI_one (its throughput per GPU), nat, cubv,
# cub_color, cub_dash, maxg, top, nkeys, keycols, keyK_* (the legend), note, chaptitle, gpu,
# ylabel, fmt, out, here.
if (!exists('note')) { note = '' }
keyrows = (nkeys + keycols - 1) / keycols
keyh = 30 + 24 * keyrows + (note ne '' ? 24 : 0)
width = 1280; height = 620 + keyh
load here . 'term.gp'
set multiplot title sprintf('%s on %s: scaling over GPUs at n = %s', chaptitle, gpu, nat) noenhanced
keyprefix = 'key'; keyn = nkeys; keyy0 = (note ne '' ? 24.0 : 0) / height; keyy1 = keyh / (1.0 * height)
load here . 'keystrip.gp'
if (note ne '') { set label 1 note at screen 0.012, character 0.7 left font f3 noenhanced }
set origin 0, keyy1
set size 1, 1 - keyy1 - 40.0 / height
set logscale x 2
set xrange [0.8:maxg * 1.9] # room for the last points' labels, to their right
set xtics 1, 2, maxg nomirror
set yrange [0:top]
set xlabel 'GPUs'
set ylabel ylabel noenhanced
set grid xtics ytics lc rgb '#dddddd'
unset key
set style textbox opaque noborder margins 0.5, 0.2 # a label stays readable where a line runs behind it
do for [i = 1:words(files)] {
    set linetype 100 + i linecolor rgb value(sprintf('g%d_color', i)) linewidth value(sprintf('g%d_width', i)) \
        dashtype value(sprintf('g%d_dash', i)) pointtype value(sprintf('g%d_point', i)) pointsize 1.4 * psscale
    set linetype 150 + i linecolor rgb value(sprintf('g%d_color', i)) linewidth 1.2 dashtype 2 pointtype 0
}
if (cubv > 0) {
    set arrow 1 from graph 0, first cubv to graph 1, first cubv nohead linewidth 3 dashtype cub_dash linecolor rgb cub_color back
}
plot for [i = 1:words(files)] word(files, i) using 1:(value(sprintf('g%d_one', i)) * $1) with lines linetype 150 + i, \
     for [i = 1:words(files)] word(files, i) using 1:2 with linespoints linetype 100 + i, \
     for [i = 1:words(files)] word(files, i) using ($1 * 1.06):4:3 with labels boxed left textcolor lt 100 + i noenhanced font f2
unset multiplot
