#!/usr/bin/env python3
"""Module-tree benchmarks (issue 9, point 9): how much following `module`
blocks into child modules costs, whole process, against the root module
alone and against the reference program `tforacle -tree`.

Usage:
  tree_bench.py corpus --harness BENCH_CMD --tfresolve TFRESOLVE
                       --corpus DIR --data DATADIR
  tree_bench.py wide   --harness ... --tfresolve ... --data DATADIR
                       [--sizes 1000,4000] [--tforacle PATH]
  tree_bench.py deep   --harness ... --tfresolve ... --data DATADIR
                       [--instances 200] [--depth 5] [--tforacle PATH]
  tree_bench.py gen wide|deep OUTDIR N     (write one input and stop)

corpus: `tfresolve check -recursive -json -no-env CORPUS` with the tree
  (the default) against the same with `-no-modules` (root modules only):
  both times, the ratio (target: the tree at most 2x) and peak RSS.
wide: a root whose `module "app"` has `for_each = var.apps` over N
  instances (N from --sizes; the map is set in terraform.tfvars with the
  other root variables) of a child with 20 typed variables (string,
  number, list, map, object with optional() defaults), each with one or
  two validation rules (length, regex, contains, alltrue); the arguments
  are built from each.value and the root variables.  Time and peak RSS per
  N, the growth from the smallest N to the largest (target: at most 4.5x
  per 4x: linear), and tforacle -tree on the same inputs.
deep: a chain of DEPTH wrapper modules, each taking an object variable
  with optional() attributes and a validation rule and passing it down
  (one more attribute set at each level), instantiated by the root with a
  for_each of INSTANCES; time, peak RSS and tforacle -tree.

The inputs are generated, deterministically, into DATADIR/tree-*/ (only
files whose text changed are rewritten).  Before timing, `tfresolve show
-json -show-sensitive` must resolve each generated root: valid, every
module instance there, no variable unknown or in error, every rule
passed; tforacle's values (`-tree`) must equal tfresolve's.

The reference is looked up at run time only ($TFORACLE, else --tforacle,
normally ../shared/oracle/bin/tforacle built by ../shared/oracle/build.sh):
when it is missing the comparison columns are skipped, never failed.

Environment:
  BENCH_RUNS         timed runs of each tfresolve command (default 5;
                     corpus: 3)
  BENCH_REF_RUNS     timed runs of tforacle when its first run took under
                     a second (default 3; a slower one is measured by
                     that run)
  BENCH_REF_TIMEOUT  kill a tforacle run after this many seconds
                     (default 900)
  BENCH_SKIP_SLOW_REF  1: no tforacle on wide at 4,000 instances or more
                     (it takes ~6 minutes there: it grows quadratically)
  TFORACLE           another path to tforacle; empty disables it
  BENCH_STRICT       1: exit 1 when a target is missed (default: report)
Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys

REQ_CORPUS_RATIO = 2.0   # tree at most 2x the root modules alone
REQ_WIDE_GROWTH = 4.5    # time per 4x instances: linear (4x, some slack)


def env_int(name, default):
    v = os.environ.get(name, "")
    return int(v) if v.strip() else default


# ---- inputs -----------------------------------------------------------------

def write_tree(root, files):
    """files: {relative path: text}; rewrite only what differs, remove
    nothing else (the directory holds only what we write)."""
    for rel, text in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        try:
            with open(p) as f:
                if f.read() == text:
                    continue
        except OSError:
            pass
        with open(p, "w") as f:
            f.write(text)
    return sum(len(t.encode()) for t in files.values())


def hcl_str(s):
    return json.dumps(s)


def hcl_list(xs):
    return "[" + ", ".join(hcl_str(x) if isinstance(x, str) else str(x)
                           for x in xs) + "]"


def hcl_map(d, indent):
    pad = " " * indent
    w = max(len(k) for k in d) if d else 0
    return ("{\n" + "".join("%s  %-*s = %s\n" % (pad, w, k, hcl_str(v))
                            for k, v in d.items()) + pad + "}")


# The child of `wide`: 20 variables, each with one or two rules.
WIDE_CHILD = r'''
variable "name" {
  type = string
  validation {
    condition     = length(var.name) >= 3 && length(var.name) <= 32
    error_message = "name: 3 to 32 characters."
  }
  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*$", var.name))
    error_message = "name: lower case letters, digits and dashes."
  }
}

variable "env" {
  type = string
  validation {
    condition     = contains(["dev", "staging", "prod"], var.env)
    error_message = "env: dev, staging or prod."
  }
}

variable "region" {
  type = string
  validation {
    condition     = can(regex("^[a-z]{2}-[a-z]+-[0-9]$", var.region))
    error_message = "region: like eu-west-1."
  }
}

variable "port" {
  type = number
  validation {
    condition     = var.port >= 1024 && var.port <= 65535
    error_message = "port: 1024 to 65535."
  }
}

variable "replicas" {
  type    = number
  default = 1
  validation {
    condition     = var.replicas >= 1 && var.replicas <= 50
    error_message = "replicas: 1 to 50."
  }
  validation {
    condition     = floor(var.replicas) == var.replicas
    error_message = "replicas: a whole number."
  }
}

variable "zones" {
  type = list(string)
  validation {
    condition     = length(var.zones) > 0 && length(var.zones) <= 6
    error_message = "zones: 1 to 6."
  }
  validation {
    condition     = alltrue([for z in var.zones : can(regex("^[a-z]{2}-[a-z]+-[0-9][a-f]$", z))])
    error_message = "zones: like eu-west-1a."
  }
}

variable "tags" {
  type = map(string)
  validation {
    condition     = alltrue([for k, v in var.tags : length(k) <= 128 && length(v) <= 256])
    error_message = "tags: keys up to 128 characters, values up to 256."
  }
  validation {
    condition     = contains(keys(var.tags), "owner")
    error_message = "tags: an owner tag."
  }
}

variable "settings" {
  type = object({
    cpu       = number
    memory    = number
    debug     = optional(bool, false)
    log_level = optional(string, "info")
  })
  validation {
    condition     = contains(["debug", "info", "warn", "error"], var.settings.log_level)
    error_message = "settings.log_level: debug, info, warn or error."
  }
  validation {
    condition     = var.settings.cpu > 0 && var.settings.memory >= 128 * var.settings.cpu
    error_message = "settings: at least 128 MB per CPU."
  }
}

variable "network" {
  type = object({
    vpc_id     = string
    subnet_ids = list(string)
    cidr       = optional(string, "10.0.0.0/16")
    public     = optional(bool, false)
  })
  validation {
    condition     = can(regex("^vpc-[0-9a-f]{8,17}$", var.network.vpc_id))
    error_message = "network.vpc_id: a VPC id."
  }
  validation {
    condition     = length(var.network.subnet_ids) > 0 && alltrue([for s in var.network.subnet_ids : length(regexall("^subnet-[0-9a-f]+$", s)) > 0])
    error_message = "network.subnet_ids: subnet ids."
  }
}

variable "health_check" {
  type = object({
    path     = optional(string, "/health")
    interval = optional(number, 30)
    timeout  = optional(number, 5)
  })
  default = {}
  validation {
    condition     = var.health_check.timeout < var.health_check.interval
    error_message = "health_check: the timeout under the interval."
  }
  validation {
    condition     = can(regex("^/", var.health_check.path))
    error_message = "health_check.path: absolute."
  }
}

variable "ports" {
  type = list(number)
  validation {
    condition     = alltrue([for p in var.ports : p > 0 && p < 65536])
    error_message = "ports: 1 to 65535."
  }
}

variable "owners" {
  type = list(string)
  validation {
    condition     = alltrue([for o in var.owners : can(regex("^[a-z.]+@example\\.com$", o))])
    error_message = "owners: example.com addresses."
  }
}

variable "labels" {
  type    = map(string)
  default = {}
  validation {
    condition     = alltrue([for k in keys(var.labels) : can(regex("^[a-z][a-z0-9_./-]*$", k))])
    error_message = "labels: lower-case keys."
  }
}

variable "image" {
  type = string
  validation {
    condition     = length(regexall("^[a-z0-9.-]+/[a-z0-9-]+:[0-9a-z.-]+$", var.image)) == 1
    error_message = "image: registry/name:tag."
  }
}

variable "app_version" {
  type = string
  validation {
    condition     = can(regex("^[0-9]+\\.[0-9]+\\.[0-9]+$", var.app_version))
    error_message = "app_version: semantic version."
  }
}

variable "cpu_limit" {
  type    = number
  default = 2
  validation {
    condition     = var.cpu_limit > 0 && var.cpu_limit <= 64
    error_message = "cpu_limit: up to 64."
  }
}

variable "enable_monitoring" {
  type    = bool
  default = true
  validation {
    condition     = var.enable_monitoring != null
    error_message = "enable_monitoring: set."
  }
}

variable "retention_days" {
  type    = number
  default = 30
  validation {
    condition     = contains([1, 3, 5, 7, 14, 30, 60, 90, 180, 365], var.retention_days)
    error_message = "retention_days: one of CloudWatch's periods."
  }
}

variable "alarms" {
  type = list(object({
    name       = string
    threshold  = number
    comparison = optional(string, "GreaterThanThreshold")
    periods    = optional(number, 1)
  }))
  default = []
  validation {
    condition     = length(var.alarms) <= 10
    error_message = "alarms: at most 10."
  }
  validation {
    condition     = alltrue([for a in var.alarms : contains(["GreaterThanThreshold", "LessThanThreshold"], a.comparison)])
    error_message = "alarms: a known comparison."
  }
}

variable "extra_env" {
  type    = map(string)
  default = {}
  validation {
    condition     = alltrue([for k in keys(var.extra_env) : can(regex("^[A-Z_][A-Z0-9_]*$", k))])
    error_message = "extra_env: upper-case names."
  }
}
'''.lstrip()

WIDE_ROOT = r'''
variable "env" {
  type = string
}

variable "region" {
  type = string
}

variable "vpc_id" {
  type = string
}

variable "subnet_ids" {
  type = list(string)
}

variable "registry" {
  type = string
}

variable "base_tags" {
  type = map(string)
}

variable "owners" {
  type = list(string)
}

variable "apps" {
  type = map(object({
    port      = number
    replicas  = optional(number, 2)
    zones     = list(string)
    cpu       = number
    memory    = number
    log_level = optional(string)
    version   = string
    tags      = optional(map(string), {})
    alarms    = optional(list(object({ name = string, threshold = number })), [])
  }))
}

module "app" {
  source   = "./modules/app"
  for_each = var.apps

  name        = each.key
  env         = var.env
  region      = var.region
  port        = each.value.port
  replicas    = each.value.replicas
  zones       = [for z in each.value.zones : "${var.region}${z}"]
  tags        = merge(var.base_tags, each.value.tags, { app = each.key })
  settings    = { cpu = each.value.cpu, memory = each.value.memory, log_level = each.value.log_level }
  network     = { vpc_id = var.vpc_id, subnet_ids = var.subnet_ids }
  ports       = [each.value.port, each.value.port + 1]
  owners      = var.owners
  labels      = { "app.kubernetes.io/name" = each.key, "tier" = var.env }
  image       = "${var.registry}/${each.key}:${each.value.version}"
  app_version = each.value.version
  cpu_limit   = each.value.cpu * 2
  alarms      = each.value.alarms
  extra_env   = { APP_NAME = upper(each.key), APP_ENV = var.env }
}
'''.lstrip()


def gen_wide(out, n):
    """The wide root in OUT with N instances; returns meta."""
    levels = [None, "debug", "info", "warn", "error"]
    lines = [
        'env        = "prod"',
        'region     = "eu-west-1"',
        'vpc_id     = "vpc-0a1b2c3d4e5f60718"',
        'subnet_ids = ["subnet-0a1b2c3d", "subnet-1b2c3d4e", "subnet-2c3d4e5f"]',
        'registry   = "registry.example.com"',
        'owners     = ["ops@example.com", "platform.team@example.com"]',
        'base_tags = ' + hcl_map({"owner": "platform", "cost_center": "cc-1234",
                                  "managed_by": "terraform"}, 0),
        "", "apps = {"]
    for i in range(n):
        key = "app-%05d" % i
        e = ["    port     = %d" % (8000 + i % 50000)]
        if i % 3:
            e.append("    replicas = %d" % (1 + i % 7))
        e.append("    zones    = %s" % hcl_list(["abc"[j % 3] for j in
                                                  range(i % 3 + 1)]))
        e.append("    cpu      = %d" % (1 + i % 4))
        e.append("    memory   = %d" % (512 * (1 + i % 8)))
        if levels[i % 5]:
            e.append("    log_level = %s" % hcl_str(levels[i % 5]))
        e.append('    version  = "1.%d.%d"' % (i % 20, i % 7))
        if i % 2 == 0:
            e.append("    tags     = { team = %s, index = \"%d\" }"
                     % (hcl_str("team-%d" % (i % 13)), i))
        if i % 4 == 0:
            e.append("    alarms   = [{ name = \"cpu\", threshold = 80 }, "
                     "{ name = \"mem\", threshold = %d }]" % (70 + i % 20))
        lines.append("  %s = {\n%s\n  }" % (hcl_str(key), "\n".join(e)))
    lines.append("}")
    files = {"main.tf": WIDE_ROOT,
             "modules/app/variables.tf": WIDE_CHILD,
             "terraform.tfvars": "\n".join(lines) + "\n"}
    size = write_tree(out, files)
    return {"instances": n, "modules": n, "child_variables": 20,
            "rules": WIDE_CHILD.count("validation {") * n, "bytes": size}


DEEP_TYPE = '''object({
    name     = string
    size     = number
    tier     = optional(string, "standard")
    tags     = optional(map(string), {})
    path     = optional(list(string), [])
    limits   = optional(object({ cpu = optional(number, 1), memory = optional(number, 512) }), {})
    level    = optional(number, 0)
  })'''


def deep_level(k, depth):
    """Wrapper module number K (1..DEPTH): the object variable, a rule, and
    (but for the last) the call of the next level."""
    t = ('variable "cfg" {\n  type = %s\n'
         '  validation {\n'
         '    condition     = var.cfg.level == %d && length(var.cfg.path) == %d'
         ' && alltrue([for p in var.cfg.path : can(regex("^l[0-9]+$", p))])\n'
         '    error_message = "cfg: level %d, with its path."\n  }\n'
         '  validation {\n'
         '    condition     = var.cfg.size > 0 && contains(["standard", "premium"], var.cfg.tier)'
         ' && length(var.cfg.name) <= 64\n'
         '    error_message = "cfg: a size and a known tier."\n  }\n}\n\n'
         'variable "suffix" {\n  type    = string\n  default = "x"\n'
         '  validation {\n'
         '    condition     = length(var.suffix) > 0\n'
         '    error_message = "suffix: not empty."\n  }\n}\n'
         % (DEEP_TYPE, k - 1, k - 1, k - 1))
    if k < depth:
        t += ('\nmodule "next" {\n  source = "../l%d"\n'
              '  cfg = merge(var.cfg, {\n'
              '    level  = var.cfg.level + 1\n'
              '    path   = concat(var.cfg.path, ["l%d"])\n'
              '    tags   = merge(var.cfg.tags, { "level%d" = var.suffix })\n'
              '    limits = { cpu = var.cfg.limits.cpu * 2, memory = var.cfg.limits.memory }\n'
              '  })\n'
              '  suffix = "${var.suffix}%d"\n}\n' % (k + 1, k, k, k))
    return t


def gen_deep(out, n, depth=5):
    """The deep root in OUT: N instances of a DEPTH-deep chain; meta."""
    root = ('variable "services" {\n  type = map(%s)\n}\n\n'
            'variable "owner" {\n  type = string\n}\n\n'
            'module "svc" {\n  source   = "./modules/l1"\n'
            '  for_each = var.services\n'
            '  cfg      = merge(each.value, { name = each.key, tags = merge('
            'each.value.tags, { owner = var.owner }) })\n'
            '  suffix   = substr(each.key, 0, 3)\n}\n'
            % DEEP_TYPE.replace("\n  ", "\n"))
    lines = ['owner = "platform"', "", "services = {"]
    for i in range(n):
        e = ["    name = \"\"", "    size = %d" % (1 + i % 100)]
        if i % 2:
            e.append('    tier = "premium"')
        if i % 3 == 0:
            e.append('    tags = { team = "t%d", index = "%d" }' % (i % 11, i))
        if i % 4 == 1:
            e.append("    limits = { cpu = %d }" % (1 + i % 4))
        lines.append('  "svc-%04d" = {\n%s\n  }' % (i, "\n".join(e)))
    lines.append("}")
    files = {"main.tf": root, "terraform.tfvars": "\n".join(lines) + "\n"}
    for k in range(1, depth + 1):
        files["modules/l%d/main.tf" % k] = deep_level(k, depth)
    size = write_tree(out, files)
    return {"instances": n, "depth": depth, "modules": n * depth,
            "child_variables": 2, "rules": 3 * n * depth, "bytes": size}


# ---- measuring --------------------------------------------------------------

class Bench:
    def __init__(self, o):
        self.o = o
        self.runs = env_int("BENCH_RUNS", 3 if o.kind == "corpus" else 5)
        self.ref_runs = env_int("BENCH_REF_RUNS", 3)
        self.ref_timeout = env_int("BENCH_REF_TIMEOUT", 900)
        self.missed = []
        self.rows = []
        path = os.environ.get("TFORACLE", o.tforacle or "")
        self.tforacle = None
        if o.kind == "corpus":
            pass
        elif not path:
            print("tforacle: disabled: comparison skipped")
        elif not os.access(path, os.X_OK):
            print("tforacle: not found at %s: comparison skipped (build it "
                  "with ../shared/oracle/build.sh)" % path)
        else:
            self.tforacle = os.path.abspath(path)

    def harness(self, argv, runs, warmup, cwd=None, out=None, timeout=None):
        cmd = [self.o.harness, "-n", str(runs), "-w", str(warmup)]
        if cwd:
            cmd += ["-C", cwd]
        if out:
            cmd += ["-o", out]
        if timeout:
            cmd += ["-t", str(timeout)]
        p = subprocess.run(cmd + ["--"] + argv, stdout=subprocess.PIPE,
                           check=False)
        if p.returncode == 2:
            raise SystemExit("bench_cmd: usage error")
        return json.loads(p.stdout)

    def time_tfresolve(self, argv, label, statuses=(0,)):
        r = self.harness(argv, self.runs, 1)
        if r.get("error") or r["status"] not in statuses:
            raise SystemExit("%s failed: %s" % (label, r))
        r["label"] = label
        return r

    def time_oracle(self, root, label, n):
        """tforacle -tree in ROOT: a probe run; REF_RUNS more when it was
        quick.  None when it is not there."""
        if not self.tforacle:
            return None
        if (self.o.kind == "wide" and n >= 4000
                and os.environ.get("BENCH_SKIP_SLOW_REF") == "1"):
            print("tforacle: skipped at N=%d (BENCH_SKIP_SLOW_REF=1)" % n)
            return None
        out = os.path.join(os.path.dirname(root), "tforacle.out")
        argv = [self.tforacle, "-tree"]
        r = self.harness(argv, 1, 0, root, out, self.ref_timeout)
        if r.get("error"):
            print("tforacle: cannot run: %s" % r["error"])
            return None
        if not r["timed_out"] and r["median_s"] < 1.0 and self.ref_runs > 1:
            r = self.harness(argv, self.ref_runs, 0, root, out,
                             self.ref_timeout)
        r["label"] = label
        r["agrees"] = ("killed after %d s" % self.ref_timeout
                       if r["timed_out"] else self.compare_oracle(out))
        return r

    # ---- checking -------------------------------------------------------

    def check_tree(self, root, meta):
        """tfresolve must resolve the generated tree whole: otherwise its
        times would mean nothing."""
        p = subprocess.run([self.o.tfresolve, "show", "-json", "-no-env",
                            "-show-sensitive", root],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        problems = []
        try:
            doc = json.loads(p.stdout)
        except ValueError as e:
            raise SystemExit("%s: output is not JSON (%s)" % (root, e))
        if p.returncode != 0 or not doc.get("valid"):
            errs = [d for d in doc.get("diagnostics", [])
                    if d.get("severity") == "error"]
            problems.append("exit status %d, valid=%s, %d error(s), first: %s"
                            % (p.returncode, doc.get("valid"), len(errs),
                               json.dumps(errs[:1])[:400]))
        mods = doc.get("modules", {})
        if len(mods) != meta["modules"]:
            problems.append("%d module instances, expected %d"
                            % (len(mods), meta["modules"]))
        rules = 0
        for addr, m in mods.items():
            vs = m.get("variables", {})
            if len(vs) != meta["child_variables"]:
                problems.append("%s: %d variables" % (addr, len(vs)))
            for name, v in vs.items():
                if v.get("error") or v.get("unknown"):
                    problems.append("%s.var.%s: error or unknown: %s"
                                    % (addr, name, json.dumps(v)[:300]))
                for r in v.get("rules", []):
                    rules += 1
                    if r.get("result") != "passed":
                        problems.append("%s.var.%s: rule %s"
                                        % (addr, name, r.get("result")))
            if len(problems) > 5:
                break
        if not problems and rules != meta["rules"]:
            problems.append("%d rules evaluated, expected %d"
                            % (rules, meta["rules"]))
        if problems:
            raise SystemExit("tfresolve does not resolve %s:\n  %s"
                             % (root, "\n  ".join(problems[:6])))
        self.tfr_doc = doc

    def compare_oracle(self, out):
        """Do tforacle -tree's values equal tfresolve's, in every module
        instance?"""
        try:
            with open(out) as f:
                ref = json.load(f)
        except (OSError, ValueError) as e:
            return "no output (%s)" % e
        if not ref.get("valid"):
            return "tforacle says invalid"
        mine = self.tfr_doc
        for section in ("variables", "modules"):
            if set(ref.get(section, {})) != set(mine.get(section, {})):
                return "different %s" % section
        pairs = [("var." + k, v, mine["variables"][k])
                 for k, v in ref["variables"].items()]
        for addr, m in ref["modules"].items():
            for k, v in m["variables"].items():
                pairs.append(("%s.var.%s" % (addr, k), v,
                              mine["modules"][addr]["variables"].get(k, {})))
        for name, a, b in pairs:
            if a.get("type") != b.get("type"):
                return "%s: type differs" % name
            if a.get("value") != b.get("value"):
                return "%s: value differs" % name
        return "yes"

    # ---- reporting ------------------------------------------------------

    def requirement(self, what, ok, detail):
        print("  %-48s %-7s %s" % (what, "met" if ok else "MISSED", detail))
        if not ok:
            self.missed.append(what)

    def table(self):
        print("%-34s %4s %9s %9s %8s %11s"
              % ("command", "runs", "best s", "median s", "cpu s",
                 "peakRSS MB"))
        for r in self.rows:
            if r is None:
                continue
            if r.get("timed_out"):
                print("%-34s killed after %d s" % (r["label"],
                                                   self.ref_timeout))
                continue
            print("%-34s %4d %9.4f %9.4f %8.4f %11.1f"
                  % (r["label"], r["runs"], r["best_s"], r["median_s"],
                     r["cpu_s"], r["peak_rss_kb"] / 1024))

    def oracle_lines(self, tfr, ref):
        if ref is None:
            return
        print("  tforacle -tree's values equal tfresolve's: %s"
              % ref["agrees"])
        if not ref.get("timed_out"):
            print("  tfresolve is %.1fx as fast as tforacle -tree (median), "
                  "%.2fx its peak RSS"
                  % (ref["median_s"] / tfr["median_s"],
                     tfr["peak_rss_kb"] / ref["peak_rss_kb"]))

    # ---- the three shapes -----------------------------------------------

    def corpus(self):
        c = self.o.corpus
        if not os.path.isdir(c):
            print("corpus: %s not found: skipped" % c)
            return
        t = self.o.tfresolve
        base = [t, "check", "-recursive", "-json", "-no-env"]
        # check exits 1 when any module of the corpus is invalid (some are)
        tree = self.time_tfresolve(base + [c], "check -recursive (tree)",
                                   (0, 1))
        root = self.time_tfresolve(base + ["-no-modules", c],
                                   "check -recursive -no-modules", (0, 1))
        self.rows = [tree, root]
        n = self.count_corpus(base, c)
        print("input: %s (%d root modules, %d child module instances "
              "followed)" % (c, n[0], n[1]))
        self.table()
        ratio = tree["median_s"] / root["median_s"]
        print("ratio, tree / root modules alone: %.2fx the time (median; "
              "best %.2fx, CPU %.2fx), %.2fx the peak RSS"
              % (ratio, tree["best_s"] / root["best_s"],
                 tree["cpu_s"] / root["cpu_s"],
                 tree["peak_rss_kb"] / root["peak_rss_kb"]))
        print("targets:")
        self.requirement("tree at most %gx the root modules alone"
                         % REQ_CORPUS_RATIO, ratio <= REQ_CORPUS_RATIO,
                         "%.2fx" % ratio)

    def count_corpus(self, base, c):
        p = subprocess.run(base + [c], stdout=subprocess.PIPE)
        try:
            checks = json.loads(p.stdout).get("checks", [])
        except ValueError:
            return (0, 0)
        return (len(checks), sum(len(x.get("result", {}).get("modules", {}))
                                 for x in checks))

    def shape(self, name, gen, n, *extra):
        root = os.path.join(self.o.data, "tree-%s-%d" % (name, n), "root")
        meta = gen(root, n, *extra)
        self.check_tree(root, meta)
        t = self.o.tfresolve
        r = self.time_tfresolve([t, "show", "-json", "-no-env", root],
                                "tfresolve show -json (N=%d)" % n)
        self.time_tfresolve([t, "check", "-no-env", root],
                            "  check (info)")  # validity asserted above
        ref = self.time_oracle(root, "tforacle -tree (N=%d)" % n, n)
        return root, meta, r, ref

    def wide(self):
        sizes = sorted(int(s) for s in self.o.sizes.split(","))
        res = []
        for n in sizes:
            root, meta, r, ref = self.shape("wide", gen_wide, n)
            res.append((n, meta, r, ref))
            print("input: %s: %d instances of a child with 20 variables, "
                  "%d rules, %.2f MB" % (root, n, meta["rules"],
                                         meta["bytes"] / 1e6))
        self.rows = [x for n, meta, r, ref in res for x in (r, ref)]
        self.table()
        for n, meta, r, ref in res:
            print("N=%d: %.1f us per instance, %.2f us per rule, peak RSS "
                  "%.1f KB per instance" % (n, r["median_s"] * 1e6 / n,
                                            r["median_s"] * 1e6 / meta["rules"],
                                            r["peak_rss_kb"] / n))
            self.oracle_lines(r, ref)
        print("targets:")
        if len(res) > 1:
            (n0, _, r0, f0), (n1, _, r1, f1) = res[0], res[-1]
            steps = max(1.0, (n1 / n0) / 4)   # the budget is per 4x
            g = r1["median_s"] / r0["median_s"]
            gc = r1["cpu_s"] / r0["cpu_s"]
            self.requirement("time %d / %d at most %gx (linear)"
                             % (n1, n0, REQ_WIDE_GROWTH * steps),
                             g <= REQ_WIDE_GROWTH * steps,
                             "%.2fx (best %.2fx, CPU %.2fx); peak RSS %.2fx"
                             % (g, r1["best_s"] / r0["best_s"], gc,
                                r1["peak_rss_kb"] / r0["peak_rss_kb"]))
            if f0 and f1 and not (f0.get("timed_out") or f1.get("timed_out")):
                print("  (tforacle -tree: %.2fx from %d to %d)"
                      % (f1["median_s"] / f0["median_s"], n0, n1))

    def deep(self):
        n, depth = self.o.instances, self.o.depth
        root, meta, r, ref = self.shape("deep", gen_deep, n, depth)
        print("input: %s: %d instances of a %d-deep chain (%d module "
              "instances, %d rules), %.2f MB"
              % (root, n, depth, meta["modules"], meta["rules"],
                 meta["bytes"] / 1e6))
        self.rows = [r, ref]
        self.table()
        print("%.1f us per module instance, peak RSS %.1f KB per module "
              "instance" % (r["median_s"] * 1e6 / meta["modules"],
                            r["peak_rss_kb"] / meta["modules"]))
        self.oracle_lines(r, ref)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "gen":
        if len(sys.argv) != 5 or sys.argv[2] not in ("wide", "deep"):
            raise SystemExit("usage: tree_bench.py gen wide|deep OUTDIR N")
        gen = gen_wide if sys.argv[2] == "wide" else gen_deep
        print(json.dumps(gen(sys.argv[3], int(sys.argv[4]))))
        return 0
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=("corpus", "wide", "deep"))
    ap.add_argument("--harness", required=True)
    ap.add_argument("--tfresolve", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--corpus", default="")
    ap.add_argument("--tforacle", default="")
    ap.add_argument("--sizes", default="1000,4000")
    ap.add_argument("--instances", type=int, default=200)
    ap.add_argument("--depth", type=int, default=5)
    o = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    # the generated inputs are the only values: no TF_VAR_* or TF_CLI_ARGS*
    # of this environment reaches tfresolve (-no-env too) or tforacle
    for k in list(os.environ):
        if k.startswith("TF_VAR_") or k.startswith("TF_CLI_ARGS"):
            del os.environ[k]
    os.makedirs(o.data, exist_ok=True)
    b = Bench(o)
    getattr(b, o.kind)()
    print("(%d cores; times are whole process, medians unless said "
          "otherwise)" % os.cpu_count())
    if b.missed:
        print("missed: %s" % "; ".join(b.missed))
        if os.environ.get("BENCH_STRICT") == "1":
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
