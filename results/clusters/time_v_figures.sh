# Figures of a `/usr/bin/time -v` report (sourced by the measurement scripts): cpu FILE prints
# user + sys seconds, rss FILE the peak resident set in MiB.
cpu() { awk '/User time/ {u=$4} /System time/ {s=$4} END {printf "%.2f", u + s}' "$1"; }
rss() { awk '/Maximum resident/ {printf "%.0f", $6 / 1024}' "$1"; }
