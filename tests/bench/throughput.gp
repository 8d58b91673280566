# throughput.gp - effective GB/s against n, log-log: a line per step, CUB dashed, the copy
# (the bandwidth ceiling) in black. From plots.sh: files, kinds (step|cub|copy), colors, gpu,
# chapter, focus, fmt, out, here.
width = 1000; height = 600
load here . 'term.gp'
set title sprintf('%s on %s: effective throughput against size%s', chapter, gpu, focus eq '' ? '' : ' (' . focus . ')') noenhanced
set logscale x 2
set logscale y 10
set format x '2^{%L}'
set format y '%g'
set xlabel 'n (elements)'
set ylabel 'effective GB/s (bytes that must move / median time)'
set key outside right top noenhanced
set grid xtics ytics
do for [i = 1:words(files)] { # a line type per series: steps solid, CUB dashed, the copy dotted
    k = word(kinds, i)
    d = k eq 'cub' ? 2 : k eq 'copy' ? 3 : 1
    w = k eq 'step' ? 1.5 : 2.5
    t = k eq 'step' ? 7 : 6
    set linetype 100 + i linecolor rgb word(colors, i) linewidth w dashtype d pointtype t pointsize 0.6
}
plot for [i = 1:words(files)] word(files, i) using 1:2 smooth unique with linespoints linetype 100 + i title columnheader(2)
