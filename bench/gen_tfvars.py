#!/usr/bin/env python3
"""Write a large, realistic variables file twice: as HCL and as JSON.

Usage: gen_tfvars.py OUTDIR [SIZE_MB] [SEED]

Writes OUTDIR/hcl/terraform.tfvars (about SIZE_MB megabytes, default 50)
and OUTDIR/json/terraform.tfvars.json holding the same values, one
directory each so that a module-directory tool (hclstages -dir) sees one
file.  The data imitates real tfvars: a few thousand variables, mostly
small scalars, lists and tag maps, some long lists of objects (subnets,
instances, IAM statements) with nested maps and lists, heredocs (policy
documents, scripts) and string templates.  Templates and heredocs only use
literals, so Terraform can evaluate them without any context; the JSON file
holds their results.  Deterministic for a given SEED.  Standard library
only.
"""
import json
import os
import random
import sys

WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo "
         "lima mike november oscar papa quebec romeo sierra tango uniform "
         "victor whiskey xray yankee zulu app web api db cache queue worker "
         "edge core shared prod staging dev east west north south").split()
REGIONS = ["us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-central-1",
           "ap-southeast-2", "ap-northeast-1", "sa-east-1"]
INSTANCE = ["t3.micro", "t3.small", "m5.large", "m5.xlarge", "c6g.2xlarge",
            "r6i.4xlarge"]


class Tmpl:
    """A string written in HCL as a template; JSON gets its value."""

    def __init__(self, hcl, value):
        self.hcl = hcl
        self.value = value


class Heredoc:
    """A multi-line string written in HCL as an indented heredoc."""

    def __init__(self, text):
        assert text.endswith("\n") and "\n\n" not in text
        self.text = text


# ---- HCL rendering ---------------------------------------------------------

def hcl_str(s):
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        else:
            out.append(ch)
    # A literal "${" or "%{" must be escaped as "$${" / "%%{".
    return "".join(out).replace("${", "$${").replace("%{", "%%{") + '"'


def hcl_key(k):
    ok = k and (k[0].isalpha() or k[0] == "_") and all(
        c.isalnum() or c in "_-" for c in k)
    return k if ok else hcl_str(k)


def hcl_heredoc(text, ind):
    pad = "  " * (ind + 1)
    body = "".join(pad + line.replace("${", "$${").replace("%{", "%%{") + "\n"
                   for line in text[:-1].split("\n"))
    return "<<-EOT\n" + body + "  " * ind + "EOT"


def hcl_value(v, ind, out):
    """Append the HCL for v, indented for nesting level ind, to out."""
    if isinstance(v, Tmpl):
        out.append(v.hcl)
    elif isinstance(v, Heredoc):
        out.append(hcl_heredoc(v.text, ind))
    elif v is None:
        out.append("null")
    elif isinstance(v, bool):
        out.append("true" if v else "false")
    elif isinstance(v, (int, float)):
        out.append(repr(v))
    elif isinstance(v, str):
        out.append(hcl_str(v))
    elif isinstance(v, list):
        hcl_list(v, ind, out)
    else:
        hcl_object(v, ind, out)


def hcl_list(v, ind, out):
    if not v:
        out.append("[]")
    elif all(isinstance(x, (str, int, float)) for x in v) and len(v) <= 8:
        out.append("[")
        for i, x in enumerate(v):
            out.append(", " if i else "")
            hcl_value(x, ind, out)
        out.append("]")
    else:
        pad = "  " * (ind + 1)
        out.append("[\n")
        for x in v:
            out.append(pad)
            hcl_value(x, ind + 1, out)
            out.append(",\n")
        out.append("  " * ind + "]")


def hcl_object(v, ind, out):
    if not v:
        out.append("{}")
        return
    pad = "  " * (ind + 1)
    width = max(len(hcl_key(k)) for k in v)
    out.append("{\n")
    for k, x in v.items():
        key = hcl_key(k)
        out.append(pad + key + " " * (width - len(key)) + " = ")
        hcl_value(x, ind + 1, out)
        out.append("\n")
    out.append("  " * ind + "}")


def json_default(v):
    if isinstance(v, Tmpl):
        return v.value
    if isinstance(v, Heredoc):
        return v.text
    raise TypeError(type(v))


# ---- data ----------------------------------------------------------------

class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def word(self):
        return self.r.choice(WORDS)

    def name(self, n=2):
        return "-".join(self.word() for _ in range(n))

    def tags(self):
        t = {"Environment": self.r.choice(["prod", "staging", "dev"]),
             "Owner": self.word() + "@example.com",
             "CostCenter": str(self.r.randint(1000, 9999))}
        for _ in range(self.r.randint(0, 4)):
            t["team:" + self.word()] = self.name(3)
        return t

    def cidr(self):
        return "10.%d.%d.0/24" % (self.r.randint(0, 255),
                                  self.r.randint(0, 255))

    def template(self):
        a, b, n = self.word(), self.word(), self.r.randint(1, 99)
        forms = [
            (f'"{a}-${{{n} + 1}}-{b}"', f"{a}-{n + 1}-{b}"),
            (f'"%{{ for x in ["{a}", "{b}"] }}${{x}}.%{{ endfor }}example"',
             f"{a}.{b}.example"),
            (f'"%{{ if {n} > 50 }}large%{{ else }}small%{{ endif }}-{a}"',
             ("large" if n > 50 else "small") + "-" + a),
            (f'"arn:aws:iam::${{"{n:012d}"}}:role/{a}"',
             f"arn:aws:iam::{n:012d}:role/{a}"),
            (f'"$${{literal}} {a}"', "${literal} " + a),
        ]
        return Tmpl(*self.r.choice(forms))

    def policy(self):
        stmts = []
        for _ in range(self.r.randint(1, 4)):
            stmts.append('    {"Effect": "Allow", "Action": ["s3:GetObject", '
                         '"s3:ListBucket"], "Resource": "arn:aws:s3:::%s/*"}'
                         % self.name())
        return Heredoc('{\n  "Version": "2012-10-17",\n  "Statement": [\n'
                       + ",\n".join(stmts) + "\n  ]\n}\n")

    def script(self):
        lines = ["#!/bin/bash", "set -euo pipefail"]
        for _ in range(self.r.randint(2, 10)):
            lines.append('echo "configuring %s" >> /var/log/%s.log'
                         % (self.name(), self.word()))
        lines.append("systemctl restart %s" % self.word())
        return Heredoc("\n".join(lines) + "\n")

    def subnet(self):
        return {"name": self.name(3), "cidr_block": self.cidr(),
                "availability_zone": self.r.choice(REGIONS) + "a",
                "public": self.r.random() < 0.5,
                "map_public_ip": self.r.random() < 0.2,
                "route_priority": self.r.randint(100, 4096),
                "tags": self.tags()}

    def instance(self):
        d = {"name": self.name(2), "instance_type": self.r.choice(INSTANCE),
             "count": self.r.randint(1, 12),
             "cpu_credits": self.r.choice(["standard", "unlimited"]),
             "ebs_optimized": self.r.random() < 0.7,
             "root_volume": {"size_gb": self.r.choice([8, 20, 50, 100]),
                             "type": "gp3", "encrypted": True,
                             "iops": self.r.randint(3000, 16000)},
             "security_groups": [self.name() for _ in
                                 range(self.r.randint(0, 4))],
             "spot_price": round(self.r.uniform(0.01, 2.0), 4),
             "tags": self.tags()}
        if self.r.random() < 0.1:
            d["user_data"] = self.script()
        if self.r.random() < 0.2:
            d["hostname"] = self.template()
        return d

    def statement(self):
        return {"sid": self.name(2).replace("-", ""),
                "effect": self.r.choice(["Allow", "Deny"]),
                "actions": ["%s:%s" % (self.word(), self.word().title())
                            for _ in range(self.r.randint(1, 6))],
                "resources": ["arn:aws:s3:::%s/*" % self.name()],
                "condition": None if self.r.random() < 0.6 else {
                    "test": "StringEquals", "variable": "aws:SourceVpc",
                    "values": ["vpc-%08x" % self.r.getrandbits(32)]}}

    def value(self):
        """One variable's value; the mix decides the file's character."""
        r = self.r.random()
        if r < 0.25:
            return self.r.choice([self.name(), self.r.randint(0, 10 ** 6),
                                  self.r.random() < 0.5,
                                  round(self.r.uniform(0, 100), 3), None,
                                  "caf\u00e9 \u65e5\u672c \"quoted\" \\ tab\t"])
        if r < 0.35:
            return [self.name() for _ in range(self.r.randint(0, 20))]
        if r < 0.45:
            return self.tags()
        if r < 0.50:
            return self.template()
        if r < 0.55:
            return self.policy()
        if r < 0.70:
            return [self.subnet() for _ in range(self.r.randint(5, 120))]
        if r < 0.85:
            return [self.instance() for _ in range(self.r.randint(5, 80))]
        if r < 0.93:
            return {self.r.choice(REGIONS) + "-" + self.word() + str(i): {
                "enabled": self.r.random() < 0.8,
                "statements": [self.statement()
                               for _ in range(self.r.randint(1, 8))],
                "limits": {"min": self.r.randint(0, 3),
                           "max": self.r.randint(4, 100)}}
                for i in range(self.r.randint(2, 40))}
        return {"matrix": [[self.r.randint(0, 999) for _ in range(8)]
                           for _ in range(self.r.randint(5, 60))],
                "cidrs": {self.word() + str(i): self.cidr()
                          for i in range(self.r.randint(1, 30))}}


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) >= 2 else 2
    outdir = sys.argv[1]
    target = float(sys.argv[2] if len(sys.argv) > 2 else 50) * 1e6
    g = Gen(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    os.makedirs(os.path.join(outdir, "hcl"), exist_ok=True)
    os.makedirs(os.path.join(outdir, "json"), exist_ok=True)
    hcl_path = os.path.join(outdir, "hcl", "terraform.tfvars")
    json_path = os.path.join(outdir, "json", "terraform.tfvars.json")
    size, n = 0, 0
    with open(hcl_path + ".tmp", "w", encoding="utf-8") as hf, \
            open(json_path + ".tmp", "w", encoding="utf-8") as jf:
        hf.write("# Generated by bench/gen_tfvars.py: benchmark input.\n")
        jf.write("{")
        while size < target:
            n += 1
            name = "%s_%s_%d" % (g.word(), g.word(), n)
            v = g.value()
            out = [name, " = "]
            hcl_value(v, 0, out)
            out.append("\n")
            text = "".join(out)
            size += len(text.encode("utf-8"))
            hf.write(text)
            jf.write("%s\n  %s: " % ("," if n > 1 else "", json.dumps(name)))
            jf.write(json.dumps(v, default=json_default, ensure_ascii=False,
                                indent=2).replace("\n", "\n  "))
        jf.write("\n}\n")
    os.replace(hcl_path + ".tmp", hcl_path)
    os.replace(json_path + ".tmp", json_path)
    print("%s: %d variables, %.1f MB" % (hcl_path, n,
                                          os.path.getsize(hcl_path) / 1e6))
    print("%s: %.1f MB" % (json_path, os.path.getsize(json_path) / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
