# throughput.gp - the chapter's metric against n, log-log: a line per step (its variants told
# apart by dash and point), CUB dashed grey, the copy dotted black; the legend below the axes,
# in keycols columns (two when the entries fit). From plots.sh and plotdata.awk + plotdata-ladder.awk: files, keycols, sI_color/_dash/_point/_width/_psize
# and sI_title (I = 1..words(files)), chaptitle, gpu, focus, ylabel, xlabel, fmt, out, here.
nkey = words(files)
keyrows = (nkey + keycols - 1) / keycols
keyh = 30 + 24 * keyrows
width = 1280; height = 620 + keyh
load here . 'term.gp'
set multiplot title sprintf('%s%s on %s: throughput against size', chaptitle, focus eq '' ? '' : ' (' . focus . ')', gpu) noenhanced
keyprefix = 's'; keyn = nkey; keyy0 = 0; keyy1 = keyh / (1.0 * height)
load here . 'keystrip.gp'
set origin 0, keyy1
set size 1, 1 - keyy1 - 40.0 / height
set logscale x 2
set logscale y 10
set format x '2^{%L}'
set format y '%g'
set xlabel xlabel noenhanced
set ylabel ylabel noenhanced
set grid xtics ytics mytics lc rgb '#dddddd'
set mytics 10
do for [i = 1:nkey] {
    set linetype 100 + i linecolor rgb value(sprintf('s%d_color', i)) linewidth value(sprintf('s%d_width', i)) \
        dashtype value(sprintf('s%d_dash', i)) pointtype value(sprintf('s%d_point', i)) pointsize value(sprintf('s%d_psize', i)) * psscale
}
plot for [i = 1:nkey] word(files, i) using 1:2 smooth unique with linespoints linetype 100 + i notitle
unset multiplot
