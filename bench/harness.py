"""What the benchmark scripts share: one command timed whole process by
bench_cmd (bench_cmd.c: -n runs after -w warm-up runs, each stopped
after -t seconds, in directory -C), its JSON report as a dict
(median_s, best_s, cpu_s, peak_rss_kb, status)."""
import json
import subprocess


def measure(harness, argv, cwd, runs, timeout=600):
    p = subprocess.run([harness, "-n", str(runs), "-w", "1", "-t",
                        str(timeout), "-C", cwd, "--"] + argv,
                       stdout=subprocess.PIPE, text=True)
    return json.loads(p.stdout)
