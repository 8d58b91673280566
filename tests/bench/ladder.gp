# ladder.gp - the ladder at one size: a bar per step (its colour; a second variant hatched) and
# per CUB (grey), every bar measured at n = nat; above each bar its value and its ratio to CUB;
# the copy as a dashed line (with a right axis in % of it) when it fits. Notes below the chart
# name what is not in it (small: the bars are many, their labels one point smaller). From plots.sh and plotdata.awk + plotdata-ladder.awk: file (x, value, the value when solid
# or '?', the value when hatched or '?', colour, "value", "ratio"), the xtics (set there), bars, nat, width, xlines, notes, nnotes, small, copy, copylabel, top, chaptitle, gpu,
# focus, unit, ylabel, fmt, out, here.
height = 720
load here . 'term.gp'
set title sprintf('%s%s on %s: every step at n = %s', chaptitle, focus eq '' ? '' : ' (' . focus . ')', gpu, nat) noenhanced
top = (copy > 0 && copy * 1.12 > top) ? copy * 1.12 : top
set yrange [0:top]
set ylabel ylabel noenhanced
set grid ytics lc rgb '#dddddd'
set xrange [-0.6:bars - 0.4]
xticfont = small ? f3 : f2
set xtics nomirror noenhanced font xticfont scale 0 offset 0, -0.3
set ytics nomirror
set boxwidth 0.72
set style fill solid 0.9 border lc rgb '#303030'
set bmargin xlines + 1.6 + 1.25 * nnotes
set tmargin 3.5
set rmargin copy > 0 ? 10 : 3
unset key
if (copy > 0) {
    # behind the bars' labels (opaque boxes below), so a label that reaches the line stays legible
    set arrow from graph 0, first copy to graph 1, first copy nohead dashtype 2 linewidth 2 linecolor rgb 'black' back
    set label 2 copylabel at graph 0.01, first copy offset 0, 0.6 left front font f2
    set y2range [0:top / copy * 100]
    set y2tics 0, 20, 100 nomirror
    set format y2 '%g%%'
    set y2label '% of the copy' offset -1, 0
}
if (nnotes > 0) {
    set label 1 notes at screen 0.012, character 0.85 * nnotes - 0.2 left font f3 noenhanced # its first line; the others below
}
set datafile missing '?'
set style textbox opaque noborder margins 0.5, 0.3
plot file using 1:3:(0.72):5 with boxes linecolor rgb variable, \
     '' using 1:4:(0.72):5 with boxes linecolor rgb variable fillstyle pattern 4 border, \
     '' using 1:2:6 with labels boxed offset 0, 0.7 noenhanced font f2, \
     '' using 1:2:7 with labels boxed offset 0, 1.9 noenhanced font f1
