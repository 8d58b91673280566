# profile.gp - a chapter's profile chart: a panel per counter that shows a step's lesson (make
# profile's counters, tests/profile/counters.awk's words), a bar per step, its figure above it; for
# chapter 10, ./run --analyze's count of the same thing beside it (orange) where a step has one.
# The steps' names and sizes in a note below. From plots.sh and profiledata.awk: npanels, fileP,
# titleP, topP, nbarsP, twoP, xticsP, yformatP (P = 1..), analysis, note (notelines lines), gpu, chaptitle,
# fmt, out, here. A data file's columns: x, the counter, --analyze's, their labels, where the labels go.
cols = npanels > 4 ? 3 : npanels > 1 ? 2 : 1
nrows = (npanels + cols - 1) / cols
keyh = analysis ? 40 : 0
panelh = 330
noteh = 22 + 22 * notelines
width = 1280; height = 50 + keyh + panelh * nrows + noteh
load here . 'term.gp'
set multiplot title sprintf("%s on %s: the counters of each step's lesson (make profile)", chaptitle, gpu) noenhanced
if (analysis) {
    set origin 0, 1.0 - (50.0 + keyh) / height
    set size 1, keyh / (1.0 * height)
    unset border; unset tics
    set xrange [0:1]; set yrange [0:1]
    set style fill solid 0.9 border lc rgb '#303030'
    set key center center horizontal Left reverse noenhanced font f2 samplen 2 width 2
    plot NaN with boxes lc rgb '#0072b2' title 'ncu (make profile): the counter over one timed run', \
         NaN with boxes lc rgb '#e69f00' title "./run --analyze: the book's count, measured (lanes adding per warp step; requests)"
    set border; set tics; unset key
}
set label 1 note at screen 0.012, screen (noteh - 12.0) / height left font f3 noenhanced
set style fill solid 0.9 border lc rgb '#303030'
set xtics nomirror scale 0 font f2
set ytics nomirror font f3
set grid ytics lc rgb '#dddddd'
set datafile missing '?'
unset key
pw = 1.0 / cols
ph = panelh / (1.0 * height)
do for [m = 1:npanels] {
    f = value(sprintf('file%d', m))
    col = (m - 1) % cols; row = (m - 1) / cols
    set origin col * pw, (noteh + (nrows - 1 - row) * panelh) / (1.0 * height)
    set size pw, ph
    set title value(sprintf('title%d', m)) noenhanced font f1
    set xlabel 'step' font f3 offset 0, 0.6
    set yrange [0:value(sprintf('top%d', m)) * 1.3]
    set xrange [-0.6:value(sprintf('nbars%d', m)) - 0.4]
    eval sprintf('set xtics (%s)', value(sprintf('xtics%d', m)))
    set format y value(sprintf('yformat%d', m))
    if (value(sprintf('two%d', m))) {
        set boxwidth 0.38
        plot f using ($1 - 0.2):2 with boxes lc rgb '#0072b2', \
             '' using ($1 + 0.2):3 with boxes lc rgb '#e69f00', \
             '' using ($1 - 0.2):6:4 with labels offset 0, 0.7 font f3 noenhanced, \
             '' using ($1 + 0.2):7:5 with labels offset 0, 0.7 font f3 noenhanced
    } else {
        set boxwidth 0.6
        plot f using 1:2 with boxes lc rgb '#0072b2', \
             '' using 1:2:4 with labels offset 0, 0.7 font f2 noenhanced
    }
}
unset label 1
unset multiplot
