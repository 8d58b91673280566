# ladder.gp - the ladder at the largest size: a bar per step (and CUB) at the chapter's
# largest n (a step that stops earlier: at its own, named in the label), its height the
# percent of the copy ceiling at that n, labelled with its ratio to CUB. From plots.sh:
# file (label, percent, 1 step | 2 CUB, "ratio to CUB"), nmax, bars, gpu, chapter, focus, fmt, out, here.
width = 300 + 90 * bars; width = width < 900 ? 900 : width; height = 620
load here . 'term.gp'
set title sprintf('%s on %s: the ladder at n = %s%s', chapter, gpu, nmax, focus eq '' ? '' : ' (' . focus . ')') noenhanced
stats file using 2 nooutput
top = STATS_max * 1.3
set yrange [0:top]
if (top >= 100) { set arrow from graph 0, first 100 to graph 1, first 100 nohead dashtype 2 linecolor rgb 'black' back; set label 'copy' at graph 1, first 100 left offset 0.5, 0 }
set ylabel '% of the copy ceiling at the same n (small print: ratio to CUB)'
set rmargin 10
set style fill solid 0.85 border -1
set boxwidth 0.7
set linetype 1 linecolor rgb '#0072b2'
set linetype 2 linecolor rgb '#b2182b'
set xtics rotate by -30 noenhanced nomirror
set xrange [-0.6:bars - 0.4]
set grid ytics
unset key
plot file using 0:2:3:xtic(1) with boxes linecolor variable, \
     '' using 0:2:(sprintf('%.1f%%', $2)) with labels offset 0, 2.0 noenhanced, \
     '' using 0:2:4 with labels offset 0, 0.8 font ',8' noenhanced
