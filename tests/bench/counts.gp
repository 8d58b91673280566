# counts.gp - chapter 10's counts (./run --analyze, steps 1-3), a panel per count and N: for each
# step, what the book prints (grey), the book's formula at that N (orange) and the measurement
# (blue; red, with both numbers written above, where it differs from the book). One legend,
# above the panels. From plots.sh and plotdata.awk + plotdata-counts.awk: npanels, fileP, titleP, ylabelP, topP (the tallest bar), groupsP, xticsP (P = 1..),
# gpu, chapter, chaptitle, fmt, out, here.
cols = npanels > 9 ? 4 : npanels > 4 ? 3 : npanels > 1 ? 2 : 1
nrows = (npanels + cols - 1) / cols
keyh = 60
panelh = 350
pad = 16 # below the last row, for its tic labels
width = cols > 2 ? 1680 : 1280; height = 50 + keyh + panelh * nrows + pad
load here . 'term.gp'
set multiplot title sprintf("%s on %s: the book's counts against the measured ones (./run --analyze)", chaptitle, gpu) noenhanced
set origin 0, 1.0 - (50.0 + keyh) / height
set size 1, keyh / (1.0 * height)
unset border; unset tics
set xrange [0:1]; set yrange [0:1]
set style fill solid 0.9 border lc rgb '#303030'
set key center center horizontal noenhanced font f1 samplen 2 width 3
plot NaN with boxes lc rgb '#9a9a9a' title 'the book prints', \
     NaN with boxes lc rgb '#e69f00' title "the book's formula at that N", \
     NaN with boxes lc rgb '#0072b2' title 'measured: agrees with the book', \
     NaN with boxes lc rgb '#d62728' title 'measured: differs from the book'
set border; set tics; unset key
set datafile missing '?'
set boxwidth 0.26
set xtics nomirror scale 0 noenhanced font f2
set ytics nomirror font f3
set grid ytics lc rgb '#dddddd'
set format y '%g'
hi3(a, b, c) = a > b ? (a > c ? a : c) : (b > c ? b : c)
pw = 1.0 / cols
ph = panelh / (1.0 * height)
do for [m = 1:npanels] {
    f = value(sprintf('file%d', m))
    col = (m - 1) % cols; row = (m - 1) / cols
    set origin col * pw, (pad + (nrows - 1 - row) * panelh) / (1.0 * height)
    set size pw, ph
    set title value(sprintf('title%d', m)) noenhanced font f1
    set ylabel value(sprintf('ylabel%d', m)) noenhanced font f2
    set yrange [0:value(sprintf('top%d', m)) * 1.45]
    set xrange [-0.6:value(sprintf('groups%d', m)) - 0.4]
    eval sprintf('set xtics (%s)', value(sprintf('xtics%d', m)))
    plot f using ($1 - 0.28):2 with boxes lc rgb '#9a9a9a', \
         '' using 1:3 with boxes lc rgb '#e69f00', \
         '' using ($1 + 0.28):4:5 with boxes lc rgb variable, \
         '' using 1:(hi3(valid(2) ? $2 : 0, valid(3) ? $3 : 0, $4)):6 with labels offset 0, 1.6 tc rgb '#d62728' font f2 noenhanced
}
unset multiplot
