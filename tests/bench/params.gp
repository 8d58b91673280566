# params.gp - the parameter sweeps: a panel per swept option (and size), a line per step (the
# chapter's metric against the option's value, in the step's own colour), CUB at that size as a
# flat grey dashed line (drawn first, so that no step hides under it). One legend for every panel, above them. The y axis is logarithmic in
# every panel when CUB is more than 2.5 times the best step (logy), so that the steps are not
# squeezed at the bottom. From plots.sh and plotdata.awk + plotdata-params.awk: npanels, filesP (the steps), cubsP (CUB), titleP, xlabelP,
# logxP, xminP, xmaxP, pP_I_* and pP_cubJ_* (P = panel, I = line), nkeys, keycols, keyK_title, keyK_* (the legend),
# logy, ymin, ymax (one y axis for every panel; its tics set there when logarithmic), chaptitle, gpu, unit, ylabel, fmt, out, here.
cols = npanels > 1 ? 2 : 1
nrows = (npanels + cols - 1) / cols
keyrows = (nkeys + keycols - 1) / keycols
keyh = 24 + 28 * keyrows
panelh = 420
width = 1280; height = 50 + keyh + panelh * nrows
load here . 'term.gp'
set multiplot title sprintf('%s on %s: parameter sweeps', chaptitle, gpu) noenhanced
keyprefix = 'key'; keyn = nkeys; keyy1 = 1.0 - 50.0 / height; keyy0 = keyy1 - keyh / (1.0 * height)
load here . 'keystrip.gp'
# the panels
set xtics nomirror out; set ytics nomirror out
set grid xtics ytics lc rgb '#dddddd'
set clip two
set format x '%g'
set format y '%g'
set ylabel unit . (logy ? ' (log scale)' : '') noenhanced
set autoscale xfix
if (logy) { set logscale y 10; eval sprintf('set ytics (%s)', yticlist) } else { unset logscale y }
set yrange [ymin:ymax]
pw = 1.0 / cols
ph = panelh / (1.0 * height)
do for [p = 1:npanels] {
    f = value(sprintf('files%d', p))
    col = (p - 1) % cols; row = (p - 1) / cols
    set origin col * pw, 1.0 - (50.0 + keyh) / height - (row + 1) * ph
    set size pw, ph
    set title value(sprintf('title%d', p)) noenhanced font f1
    set xlabel value(sprintf('xlabel%d', p)) noenhanced
    if (value(sprintf('logx%d', p))) { set logscale x 2; set xtics 1, 2 } else { unset logscale x; set xtics autofreq }
    xlo = value(sprintf('xmin%d', p)); xhi = value(sprintf('xmax%d', p))
    if (value(sprintf('logx%d', p))) { set xrange [xlo / 1.12:xhi * 1.12] } else { set xrange [xlo - 0.04 * (xhi - xlo):xhi + 0.04 * (xhi - xlo)] }
    do for [i = 1:words(f)] {
        set linetype 100 + i linecolor rgb value(sprintf('p%d_%d_color', p, i)) linewidth value(sprintf('p%d_%d_width', p, i)) \
            dashtype value(sprintf('p%d_%d_dash', p, i)) pointtype value(sprintf('p%d_%d_point', p, i)) pointsize value(sprintf('p%d_%d_psize', p, i)) * psscale
    }
    c = value(sprintf('cubs%d', p))
    do for [i = 1:words(c)] {
        set linetype 150 + i linecolor rgb value(sprintf('p%d_cub%d_color', p, i)) linewidth value(sprintf('p%d_cub%d_width', p, i)) \
            dashtype value(sprintf('p%d_cub%d_dash', p, i)) pointtype 0
    }
    do for [i = 1:words(c)] { # CUB's lines named on the chart too, at the left above the line
        set label 300 + i value(sprintf('p%d_cub%d_label', p, i)) at graph 0.02, first value(sprintf('p%d_cub%d_y', p, i)) \
            offset 0, 0.55 left front font f3 textcolor rgb value(sprintf('p%d_cub%d_color', p, i)) noenhanced
    }
    plot for [i = 1:words(c)] word(c, i) using 1:2 with lines linetype 150 + i notitle, \
         for [i = 1:words(f)] word(f, i) using 1:2 with linespoints linetype 100 + i notitle
    do for [i = 1:words(c)] { unset label 300 + i }
}
unset multiplot
