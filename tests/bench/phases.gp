# phases.gp - the multi-GPU step's time by phase at one size: a stacked bar per GPU count (and
# per step or local sort when there are several), its measured total written above it (phases
# that overlap add up to more than the total), and CUB's time on one GPU as a dashed line.
# The labels stand on opaque boxes, so CUB's line never runs through them.
# From plots.sh and plotdata.awk + plotdata-multigpu.awk: file (run, x, a column per phase, total, the top of the bar or total, "label", its lines), bars, note,
# nphases, phaseP_color, nat, cubms, cubside (the end of CUB's line its label stands at: left or
# right), top, xlines (the bar names' most lines), what, chaptitle, gpu, fmt, out, here.
width = 1280; height = 720
load here . 'term.gp'
set title sprintf('%s on %s: %s time by phase at n = %s', chaptitle, gpu, what eq '' ? 'multi-GPU' : what, nat) noenhanced
set style data histograms
set style histogram rowstacked gap 1
set style fill solid 0.9 border lc rgb '#303030'
set boxwidth 0.6
set yrange [0:top]
set xrange [-0.6:bars - 0.4]
set ylabel 'milliseconds (median)'
set xtics nomirror scale 0 noenhanced
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse noenhanced font f2 title 'phase'
set rmargin at screen 0.78
if (cubms > 0) {
    set arrow from graph 0, first cubms to graph 1, first cubms nohead dashtype 2 linewidth 2 linecolor rgb '#3a3a3a' back
    if (exists('cubside') && cubside eq 'right') {
        set label 2 sprintf('CUB on 1 GPU: %.3g ms', cubms) at graph 0.99, first cubms offset 0, 0.6 right front boxed font f2
    } else {
        set label 2 sprintf('CUB on 1 GPU: %.3g ms', cubms) at graph 0.01, first cubms offset 0, 0.6 left front boxed font f2
    }
}
if (!exists('xlines')) { xlines = 1 }
set bmargin xlines + 1.5
if (note ne '') { set label 1 note at screen 0.012, character 0.7 left font f3 noenhanced; set bmargin xlines + 3 }
set style textbox opaque noborder margins 0.5, 0.2
plot for [j = 1:nphases] file using j + 2:xtic(1) linecolor rgb value(sprintf('phase%d_color', j)) title columnheader(j + 2), \
     file using 2:nphases + 3 with points pointtype 3 pointsize 2 * psscale linecolor rgb 'black' title 'measured total', \
     file using 2:(column(nphases + 4) + (0.01 + column(nphases + 6) * 0.036) * top):nphases + 5 with labels boxed noenhanced font f2 notitle
