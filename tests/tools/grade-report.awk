# grade-report.awk - make grade's reports from its records (tests/tools/grade.sh writes them, a step
# a line: step, kind (tests|perf), status, score, points, passed, of, note, output file, seconds):
# table.txt, Gradescope's results.json, JUnit XML (a testsuite per chapter) and TAP 13, under `out`.
#   awk -F'\t' -v out=DIR -v elapsed=S -v gpu=NAME -v when=DATE -v who=TREE -v commit=C -f grade-report.awk RECORDS
# Exit 1 when a step did not pass, else 0.
function jesc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); gsub(/\r/, "\\r", s); gsub(/\n/, "\\n", s); return s }
function xesc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s); return s }
function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
{
    n++; step[n] = $1; kind[n] = $2; st[n] = $3; sc[n] = $4; mx[n] = $5; np[n] = $6; nt[n] = $7; note[n] = $8
    text[n] = slurp($9); secs[n] = $10; name[n] = $1 ($2 == "perf" ? " (performance)" : "")
    total += $4; max += $5; if ($3 != "passed") fails++
}
END {
    # the table
    tf = out "/table.txt"
    printf "%-44s %-9s %-11s %s\n", "step", "tests", "points", "note" > tf
    for (i = 1; i <= n; i++) {
        tests = kind[i] == "perf" ? "" : (nt[i] == "-" ? "-" : np[i] "/" nt[i])
        nn = note[i]; if (length(nn) > 110) nn = substr(nn, 1, 107) "..."
        printf "%-44s %-9s %-11s %s\n", name[i], tests, sc[i] "/" mx[i], nn > tf
    }
    printf "%-44s %-9s %-11s %s\n", "total", "", total "/" max, (fails ? fails " of " n " not passed" : "every step passed") > tf
    close(tf)
    # Gradescope: results.json
    jf = out "/results.json"
    printf "{\n  \"score\": %s,\n  \"execution_time\": %d,\n  \"output\": \"%s\",\n  \"stdout_visibility\": \"visible\",\n  \"tests\": [\n",
        total, elapsed, jesc("make grade, lab " commit ", GPU: " gpu ", " when ": " total " of " max " points") > jf
    for (i = 1; i <= n; i++)
        printf "    {\"name\": \"%s\", \"number\": \"%d\", \"score\": %s, \"max_score\": %s, \"status\": \"%s\", \"visibility\": \"visible\", \"output\": \"%s\"}%s\n",
            jesc(name[i]), i, sc[i], mx[i], st[i], jesc(text[i]), (i < n ? "," : "") > jf
    printf "  ]\n}\n" > jf
    close(jf)
    # JUnit XML: one testsuite per chapter, one testcase per step
    xf = out "/junit.xml"
    printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"make grade\" tests=\"%d\" failures=\"%d\" time=\"%d\">\n", n, fails, elapsed > xf
    for (i = 1; i <= n; i++) { split(step[i], p, "/"); ch = p[1]; if (!(ch in cn)) { chs[++nch] = ch }; cn[ch]++; if (st[i] != "passed") cf[ch]++ }
    for (c = 1; c <= nch; c++) {
        ch = chs[c]
        printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\">\n", ch, cn[ch], cf[ch] + 0 > xf
        for (i = 1; i <= n; i++) {
            split(step[i], p, "/"); if (p[1] != ch) continue
            printf "    <testcase classname=\"%s\" name=\"%s\" time=\"%s\">\n", xesc(ch), xesc(substr(name[i], length(ch) + 2)), secs[i] > xf
            printf "      <properties><property name=\"score\" value=\"%s\"/><property name=\"max_score\" value=\"%s\"/><property name=\"tests\" value=\"%s/%s\"/></properties>\n", sc[i], mx[i], np[i], nt[i] > xf
            if (st[i] != "passed")
                printf "      <failure type=\"%s\" message=\"%s\">%s</failure>\n", (note[i] ~ /^not run/ ? "not-run" : "failed"), xesc(note[i]), xesc(text[i]) > xf
            else printf "      <system-out>%s</system-out>\n", xesc(text[i]) > xf
            printf "    </testcase>\n" > xf
        }
        printf "  </testsuite>\n" > xf
    }
    printf "</testsuites>\n" > xf
    close(xf)
    # TAP
    af = out "/results.tap"
    printf "TAP version 13\n1..%d\n", n > af
    for (i = 1; i <= n; i++) {
        printf "%s %d - %s: %s/%s points\n", (st[i] == "passed" ? "ok" : "not ok"), i, name[i], sc[i], mx[i] > af
        if (st[i] != "passed") {
            m = note[i]; gsub(/\\/, "\\\\", m); gsub(/"/, "\\\"", m)
            printf "  ---\n  message: \"%s\"\n  output: |\n", m > af
            t = text[i]; gsub(/\n/, "\n    ", t); sub(/ +$/, "", t); printf "    %s", t > af
            printf "  ...\n" > af
        }
    }
    close(af)
    exit (fails > 0 ? 1 : 0)
}
