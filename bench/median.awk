# The median of the sorted numbers on stdin (pipe them through sort -n), one a line, with three
# decimals: bench/incremental.sh and bench/pages.sh give each ratio as the median of their
# rounds' own ratios.
{ r[NR] = $1 }
END { printf "%.3f", (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }
