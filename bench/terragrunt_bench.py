#!/usr/bin/env python3
"""Benchmark `check -recursive` on a terragrunt live repository (issue 42):
200 units sharing a root.hcl (which reads the nearest account.hcl,
region.hcl and env.hcl with read_terragrunt_config) and 3 modules.

Usage: terragrunt_bench.py --harness BENCH_CMD --tfresolve TFRESOLVE
                           --data DATA [--units N]

Writes the repository into DATA/terragrunt-bench/ (2 accounts x 2 regions
x 5 environments x 10 apps), checks that every unit is read (the per-unit
table counts them) and times the whole process with bench_cmd (wall and
CPU time, peak RSS).  The goal: under 1 s on 2 cores.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = '''locals {
  account = read_terragrunt_config(find_in_parent_folders("account.hcl"))
  region  = read_terragrunt_config(find_in_parent_folders("region.hcl"))
  env     = read_terragrunt_config(find_in_parent_folders("env.hcl"))
}

inputs = merge(
  local.account.locals,
  local.region.locals,
  local.env.locals,
  { state_key = "${path_relative_to_include()}/terraform.tfstate" },
)
'''

UNIT = '''include "root" {
  path = find_in_parent_folders("root.hcl")
}

terraform {
  source = "%s//%s"
}

inputs = {
  name     = "app-%d"
  replicas = %d
  tags     = { team = "t%d", tier = "web" }
}
'''

MODULE = '''variable "name" {
  type = string
  validation {
    condition     = can(regex("^[a-z0-9-]+$", var.name))
    error_message = "Lower case, digits and dashes."
  }
}
variable "replicas" {
  type    = number
  default = 1
  validation {
    condition     = var.replicas >= 1 && var.replicas <= 9
    error_message = "1 to 9."
  }
}
variable "tags" {
  type = map(string)
}
variable "account_name" {
  type = string
}
variable "aws_region" {
  type = string
}
variable "environment" {
  type = string
}
variable "state_key" {
  type = string
}
'''


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def generate(out, units):
    shutil.rmtree(out, ignore_errors=True)
    for m in ("app", "worker", "cron"):
        write(os.path.join(out, "modules", m, "main.tf"), MODULE)
    write(os.path.join(out, "live", "root.hcl"), ROOT)
    n = 0
    for acct in ("prod", "nonprod"):
        write(os.path.join(out, "live", acct, "account.hcl"),
              'locals {\n  account_name = "%s"\n}\n' % acct)
        for region in ("us-east-1", "eu-west-1"):
            write(os.path.join(out, "live", acct, region, "region.hcl"),
                  'locals {\n  aws_region = "%s"\n}\n' % region)
            for e in range(5):
                env = "env%d" % e
                write(os.path.join(out, "live", acct, region, env, "env.hcl"),
                      'locals {\n  environment = "%s"\n}\n' % env)
                for a in range(10):
                    if n >= units:
                        return n
                    mod = ("app", "worker", "cron")[a % 3]
                    rel = "../../../../../modules"
                    write(os.path.join(out, "live", acct, region, env,
                                       "app%d" % a, "terragrunt.hcl"),
                          UNIT % (rel, mod, a, 1 + a % 9, a))
                    n += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    for opt in ("harness", "tfresolve", "data"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("--units", type=int, default=200)
    o = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    out = os.path.join(o.data, "terragrunt-bench")
    n = generate(out, o.units)
    live = os.path.join(out, "live")
    cmd = [o.tfresolve, "check", "-no-color", "-recursive", live]
    p = subprocess.run(cmd, capture_output=True, text=True)
    last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    print("check -recursive: %s" % last)
    if ("%d of %d units valid" % (n, n)) not in last:
        print("MISMATCH: expected %d valid units\n%s" % (n, p.stderr[-2000:]))
        return 1
    h = subprocess.run([o.harness, "-n", "5", "-w", "1", "--"] + cmd,
                       stdout=subprocess.PIPE, check=False)
    r = json.loads(h.stdout)
    print("%-40s %9s %9s %9s %11s" % ("command", "best s", "median s",
                                       "cpu s", "peakRSS MB"))
    print("%-40s %9.4f %9.4f %9.4f %11.1f" % (
        "check -recursive (%d units)" % n, r["best_s"], r["median_s"],
        r["cpu_s"], r["peak_rss_kb"] / 1024))
    print("goal: under 1 s on 2 cores (%d cores here): %s"
          % (os.cpu_count(), "met" if r["median_s"] < 1 else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
