# keystrip.gp - a legend on its own, in a strip of a multiplot (so that it never sits on a
# curve), laid out here rather than by gnuplot's key (whose width estimate cuts long entries):
# the lines P_I (I = 1..keyn; P = keyprefix) with their styles (P_I_color, _dash, _point,
# _width, _psize) and titles (P_I_title), in keycols columns filled top to bottom, at screen
# keyy0..keyy1 (fractions of the picture's height). Leaves the axes as it found them.
set origin 0, keyy0
set size 1, keyy1 - keyy0
set margins 0, 0, 0, 0
unset border; unset tics; unset xlabel; unset ylabel; unset title; unset logscale; unset grid; unset key
keyrows = (keyn + keycols - 1) / keycols
set xrange [0:1]; set yrange [0:1]
kx(i) = 0.03 + ((i - 1) / keyrows) * 0.96 / keycols
ky(i) = 1.0 - (((i - 1) % keyrows) + 0.5) / keyrows
do for [i = 1:keyn] {
    set linetype 200 + i linecolor rgb value(sprintf('%s%d_color', keyprefix, i)) linewidth value(sprintf('%s%d_width', keyprefix, i)) \
        dashtype value(sprintf('%s%d_dash', keyprefix, i)) pointtype value(sprintf('%s%d_point', keyprefix, i)) pointsize value(sprintf('%s%d_psize', keyprefix, i)) * psscale
    set label 200 + i value(sprintf('%s%d_title', keyprefix, i)) at kx(i) + 0.05, ky(i) left noenhanced font f2
}
set samples 2
plot for [i = 1:keyn] [t = 0:1] '+' using (kx(i) + 0.04 * t):(ky(i)) with lines linetype 200 + i, \
     for [i = 1:keyn] [t = 0:1] '+' using (kx(i) + 0.02):(value(sprintf('%s%d_point', keyprefix, i)) > 0 ? ky(i) : NaN) \
         every ::0::0 with points linetype 200 + i
do for [i = 1:keyn] { unset label 200 + i }
set border; set tics; set margins -1, -1, -1, -1
set autoscale; set samples 100
