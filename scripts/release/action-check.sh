#!/bin/sh
# Run the GitHub Action's script (scripts/action/run.sh) locally against a
# release's dist/ directory, as action.yml runs it (INPUT_* variables,
# GITHUB_OUTPUT, GITHUB_PATH, RUNNER_TEMP), with no network:
#
#   action-check.sh DISTDIR
#
# DISTDIR holds tfresolve-VERSION-linux-ARCH.tar.gz and SHA256SUMS.  The
# cases, in a workspace with fixtures/demo as infra/ and fixtures/recursive
# as stacks/:
#   - valid (TF_VAR_db_password set): exit 0; the SARIF report is valid
#     JSON with one run and no results; GITHUB_OUTPUT gets version=,
#     sarif-file= and exit-code=0; GITHUB_PATH the directory of a tfresolve
#     that runs and prints the version;
#   - valid through var-files (two, newline-separated), strict, the
#     version as vX.Y.Z, the report in a directory to make: exit 0; var
#     files separated by spaces, and args: exit 0;
#   - invalid (no db_password): exit 1, after the SARIF is written with the
#     db_password result; ::error annotations on infra/variables.tf;
#     exit-code=1;
#   - recursive, format=junit to report.xml: exit 1, well-formed XML,
#     an annotation on stacks/app/;
#   - version latest without base-url: resolved through a file:// API
#     (GITHUB_API_URL) for the repository in GITHUB_ACTION_PATH and
#     downloaded from a file:// GITHUB_SERVER_URL;
#   - modules (a root, mods/, calling a registry module acme/net/aws that
#     would reject its value): with neither terraform nor tofu on PATH, a
#     notice that its modules are not installed, the check's notice that
#     module.net is not checked, exit 0; unchecked=error: exit 1;
#     install-modules=true: exit 2.  With a stub terraform on PATH (its
#     `get` installs the module as terraform get does: modules.json and
#     the module's directory): `terraform -chdir=mods get` runs, the
#     module is checked and its rule fails: exit 1, an ::error on the
#     value; install-modules=false: the stub does not run, exit 0;
#   - credentials (GITHUB_TOKEN, ACTIONS_*, a cloud secret in the
#     environment) on a root whose rule prints file("/proc/self/environ"):
#     exit 1, that environment in the SARIF and the annotations with the
#     plain variables and TF_VAR_*, no credential anywhere; the log names
#     those held back;
#   - rejected with exit 2 and a message, nothing run: a tarball with one
#     byte flipped, a SHA256SUMS with a digit changed, a SHA256SUMS without
#     the tarball's line, a version that is not released, macOS, a 32-bit
#     ARM runner; RUNNER_ARCH=ARM64 picks (and verifies) the arm64 tarball.
# Exit status 0 when every case passes, 1 otherwise, 2 on usage errors.
set -u
if [ $# -ne 1 ] || [ ! -f "$1/SHA256SUMS" ]; then
  echo "usage: action-check.sh DISTDIR (with SHA256SUMS)" >&2
  exit 2
fi
dist=$(cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
run=$repo/scripts/action/run.sh
version=$(sed -n 's/^[0-9a-f]*  *\*\{0,1\}tfresolve-\(.*\)-linux-amd64\.tar\.gz$/\1/p' "$dist/SHA256SUMS" | head -n 1)
if [ -z "$version" ]; then
  echo "action-check: $dist/SHA256SUMS lists no linux-amd64 tarball" >&2
  exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tfresolve-action-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ws=$tmp/ws
mkdir -p "$ws"
cp -R "$repo/fixtures/demo" "$ws/infra"
cp -R "$repo/fixtures/recursive" "$ws/stacks"
printf 'db_password = "hunter2"\n' >"$ws/secret.tfvars"
printf 'instance_count = 4\n' >"$ws/infra/count.tfvars"

fails=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# act NAME [VAR=VALUE...]: run.sh in $ws with a clean environment; its
# output in $tmp/NAME.log, status in $st, GITHUB_OUTPUT in $tmp/NAME.out,
# GITHUB_PATH in $tmp/NAME.path
act() {
  name=$1
  shift
  mkdir -p "$tmp/rt-$name"
  : >"$tmp/$name.out"
  : >"$tmp/$name.path"
  (cd "$ws" && env -i PATH="$PATH" HOME="${HOME:-/}" \
    RUNNER_TEMP="$tmp/rt-$name" GITHUB_OUTPUT="$tmp/$name.out" \
    GITHUB_PATH="$tmp/$name.path" INPUT_BASE_URL="file://$dist" \
    "$@" sh "$run") >"$tmp/$name.log" 2>&1
  st=$?
}
expect_status() { # NAME WANT
  if [ "$st" = "$2" ]; then
    pass "$1: exit $st"
  else
    fail "$1: exit $st, want $2"
    sed 's/^/    /' "$tmp/$1.log" | tail -n 20
  fi
}
has() { # NAME FILE TEXT: FILE has a line that is TEXT
  if grep -qxF -- "$3" "$2"; then pass "$1: $(basename "$2") has $3"; else fail "$1: $(basename "$2") lacks $3"; fi
}
logs() { # NAME TEXT: the log mentions TEXT
  if grep -qF -- "$2" "$tmp/$1.log"; then pass "$1: says $2"; else fail "$1: does not say $2"; sed 's/^/    /' "$tmp/$1.log" | tail -n 10; fi
}
sarif() { # NAME FILE NRESULTS [VARIABLE]
  if python3 - "$2" "$3" "${4:-}" <<'EOF'; then pass "$1: $(basename "$2") is SARIF 2.1.0 with $3 result(s) ${4:-}"; else fail "$1: $(basename "$2") is not the SARIF wanted"; fi
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
assert d["version"] == "2.1.0" and len(runs) == 1, d.get("version")
assert runs[0]["tool"]["driver"]["name"] == "tfresolve"
r = runs[0]["results"]
assert len(r) == int(sys.argv[2]), len(r)
if sys.argv[3]:
    assert r[0]["properties"]["variable"] == sys.argv[3]
    assert r[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "infra/variables.tf", r[0]["locations"]
EOF
}

echo "== valid"
act valid TF_VAR_db_password=x INPUT_DIR=infra
expect_status valid 0
sarif valid "$ws/tfresolve.sarif" 0
has valid "$tmp/valid.out" "version=$version"
has valid "$tmp/valid.out" "sarif-file=tfresolve.sarif"
has valid "$tmp/valid.out" "exit-code=0"
bindir=$(cat "$tmp/valid.path")
if [ "$(wc -l <"$tmp/valid.path")" -eq 1 ] && "$bindir/tfresolve" -version | head -1 | grep -q "^tfresolve $version "; then
  pass "valid: GITHUB_PATH has $bindir, whose tfresolve is $version"
else
  fail "valid: GITHUB_PATH is not one directory with tfresolve $version: $(cat "$tmp/valid.path")"
fi
case $bindir in
  "$tmp/rt-valid/"*) pass "valid: unpacked under RUNNER_TEMP" ;;
  *) fail "valid: unpacked in $bindir, not under RUNNER_TEMP" ;;
esac

echo "== valid through var-files, strict, version v$version"
# out/ does not exist: run.sh makes it
act varfiles INPUT_DIR=infra INPUT_VERSION="v$version" INPUT_STRICT=true \
  INPUT_VAR_FILES="secret.tfvars
infra/count.tfvars" INPUT_SARIF_FILE=out/vf.sarif
expect_status varfiles 0
sarif varfiles "$ws/out/vf.sarif" 0
logs varfiles "-var-file=secret.tfvars -var-file=infra/count.tfvars -strict"
has varfiles "$tmp/varfiles.out" "sarif-file=out/vf.sarif"
act spaces INPUT_DIR=infra INPUT_VERSION="$version" \
  INPUT_VAR_FILES="secret.tfvars  infra/count.tfvars" INPUT_ARGS="-no-env -strict"
expect_status spaces 0
logs spaces "-var-file=secret.tfvars -var-file=infra/count.tfvars -no-env -strict"

echo "== invalid"
act invalid INPUT_DIR=infra
expect_status invalid 1
sarif invalid "$ws/tfresolve.sarif" 1 db_password
logs invalid "::error file=infra/variables.tf,line=45"
has invalid "$tmp/invalid.out" "exit-code=1"
act noannot INPUT_DIR=infra INPUT_ANNOTATIONS=false
expect_status noannot 1
if grep -q '^::error' "$tmp/noannot.log"; then fail "noannot: annotations printed"; else pass "noannot: no annotations"; fi

echo "== recursive, junit"
act recursive INPUT_DIR=stacks INPUT_RECURSIVE=true INPUT_FORMAT=junit INPUT_SARIF_FILE=report.xml
expect_status recursive 1
if python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.iter("testcase")' "$ws/report.xml"; then
  pass "recursive: report.xml is XML"
else
  fail "recursive: report.xml is not XML"
fi
logs recursive "::error file=stacks/app/app.auto.tfvars"

echo "== modules: installed with terraform get, or said to be not checked"
mkdir -p "$ws/mods"
cat >"$ws/mods/main.tf" <<'EOF'
module "net" {
  source  = "acme/net/aws"
  version = "1.0.0"
  cidr    = "10.0.0.0/99"
}
EOF
# PATH without terraform or tofu: the tools run.sh and check use
nobin=$tmp/nobin
mkdir -p "$nobin"
for t in sh curl tar gzip sha256sum mktemp sed awk tr head rm mkdir uname \
  find grep sort dirname cat env; do
  p=$(command -v "$t") && ln -s "$p" "$nobin/$t"
done
act nomods PATH="$nobin" INPUT_DIR=mods
expect_status nomods 0
logs nomods "::notice title=tfresolve action::Neither terraform nor tofu is on PATH, so the registry and git modules called in mods are not installed"
logs nomods "title=Module not checked::module.net is not checked: not installed"
logs nomods "1 module not checked: module.net"
act nomodserr PATH="$nobin" INPUT_DIR=mods INPUT_UNCHECKED=error
expect_status nomodserr 1
logs nomodserr "-unchecked=error"
act nomodstrue PATH="$nobin" INPUT_DIR=mods INPUT_INSTALL_MODULES=true
expect_status nomodstrue 2
logs nomodstrue "install-modules: true, but neither terraform nor tofu is on PATH"
# a stub terraform: `-chdir=DIR get` installs acme/net/aws as terraform
# get does (.terraform/modules/modules.json and the module's directory)
tfbin=$tmp/tfbin
mkdir -p "$tfbin"
cat >"$tfbin/terraform" <<EOF
#!/bin/sh
echo "\$*" >>"$tmp/terraform-calls"
d=\${1#-chdir=}
[ "\$2" = get ] || exit 1
mkdir -p "\$d/.terraform/modules/net"
printf '%s\n' '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"net","Source":"registry.terraform.io/acme/net/aws","Version":"1.0.0","Dir":".terraform/modules/net"}]}' >"\$d/.terraform/modules/modules.json"
printf '%s\n' 'variable "cidr" {' '  type = string' '  validation {' '    condition     = can(cidrhost(var.cidr, 0))' '    error_message = "Not a CIDR block."' '  }' '}' >"\$d/.terraform/modules/net/main.tf"
EOF
chmod +x "$tfbin/terraform"
act modsget PATH="$tfbin:$nobin" INPUT_DIR=mods
expect_status modsget 1
logs modsget "tfresolve action: terraform -chdir=mods get"
logs modsget "::error file=mods/main.tf,line=4"
if grep -q "not checked" "$tmp/modsget.log"; then fail "modsget: something not checked"; else pass "modsget: every module checked"; fi
rm -rf "$ws/mods/.terraform" "$tmp/terraform-calls"
act modsnoget PATH="$tfbin:$nobin" INPUT_DIR=mods INPUT_INSTALL_MODULES=false
expect_status modsnoget 0
if [ -e "$tmp/terraform-calls" ]; then fail "modsnoget: terraform ran"; else pass "modsnoget: terraform did not run"; fi

echo "== no credential reaches tfresolve"
mkdir -p "$ws/probe"
cat >"$ws/probe/main.tf" <<'EOF'
variable "api_token" {
  type    = string
  default = "none"
}

variable "probe" {
  type    = string
  default = "x"
  validation {
    condition     = var.probe == "never"
    error_message = "The environment: ${replace(file("/proc/self/environ"), "\u0000", " ")}"
  }
}
EOF
act creds INPUT_DIR=probe GITHUB_TOKEN=ghs_canary1 ACTIONS_RUNTIME_TOKEN=canary2 \
  ACTIONS_ID_TOKEN_REQUEST_TOKEN=canary3 AWS_SECRET_ACCESS_KEY=canary4 \
  PLAIN_VALUE=visible1 TF_VAR_api_token=visible2
expect_status creds 1
for f in "$tmp/creds.log" "$ws/tfresolve.sarif"; do
  if grep -q canary "$f"; then
    fail "creds: a credential in $(basename "$f"): $(grep -o '[A-Z_]*=[a-z_]*canary[0-9]*' "$f" | sort -u | tr '\n' ' ')"
  else
    pass "creds: no credential in $(basename "$f")"
  fi
  if grep -q "PLAIN_VALUE=visible1" "$f" && grep -q "TF_VAR_api_token=visible2" "$f"; then
    pass "creds: $(basename "$f") has the environment tfresolve was given"
  else
    fail "creds: $(basename "$f") lacks the plain variables: was the file read?"
  fi
done
logs creds "not passed to tfresolve (they look like credentials): ACTIONS_ID_TOKEN_REQUEST_TOKEN ACTIONS_RUNTIME_TOKEN AWS_SECRET_ACCESS_KEY GITHUB_TOKEN"

echo "== version latest from the (file://) API, default base URL"
mkdir -p "$tmp/api/repos/acme/tfresolve/releases" "$tmp/server/acme/tfresolve/releases/download"
printf '{"url": "x", "tag_name": "v%s", "name": "tfresolve %s", "draft": false}\n' "$version" "$version" \
  >"$tmp/api/repos/acme/tfresolve/releases/latest"
ln -s "$dist" "$tmp/server/acme/tfresolve/releases/download/v$version"
act latest TF_VAR_db_password=x INPUT_DIR=infra INPUT_BASE_URL= \
  GITHUB_ACTION_PATH=/home/runner/work/_actions/acme/tfresolve/v0 \
  GITHUB_API_URL="file://$tmp/api" GITHUB_SERVER_URL="file://$tmp/server"
expect_status latest 0
has latest "$tmp/latest.out" "version=$version"
act latest2 TF_VAR_db_password=x INPUT_DIR=infra INPUT_BASE_URL= \
  INPUT_REPOSITORY=acme/tfresolve GITHUB_API_URL="file://$tmp/api" \
  GITHUB_SERVER_URL="file://$tmp/server"
expect_status latest2 0

echo "== rejected"
bad=$tmp/bad
cp -R "$dist" "$bad"
tarball=tfresolve-$version-linux-amd64.tar.gz
# flip one byte in the middle of the tarball
python3 - "$bad/$tarball" <<'EOF'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 0xff
open(p, "wb").write(b)
EOF
act badtar TF_VAR_db_password=x INPUT_DIR=infra INPUT_BASE_URL="file://$bad"
expect_status badtar 2
logs badtar "checksum mismatch for $tarball"
if grep -q "^tfresolve action: tfresolve " "$tmp/badtar.log"; then fail "badtar: check ran"; else pass "badtar: check did not run"; fi
if [ -s "$tmp/badtar.path" ]; then fail "badtar: GITHUB_PATH written"; else pass "badtar: GITHUB_PATH not written"; fi

cp "$dist/$tarball" "$bad/$tarball"
python3 - "$bad/SHA256SUMS" "$tarball" <<'EOF'
import sys
p, name = sys.argv[1:]
out = []
for line in open(p):
    if line.rstrip("\n").endswith("  " + name):
        c = line[0]
        line = ("0" if c != "0" else "1") + line[1:]
    out.append(line)
open(p, "w").write("".join(out))
EOF
act badsums TF_VAR_db_password=x INPUT_DIR=infra INPUT_BASE_URL="file://$bad"
expect_status badsums 2
logs badsums "checksum mismatch for $tarball"

grep -vF "$tarball" "$dist/SHA256SUMS" >"$bad/SHA256SUMS"
act nosum TF_VAR_db_password=x INPUT_DIR=infra INPUT_BASE_URL="file://$bad" INPUT_VERSION="$version"
expect_status nosum 2
logs nosum "SHA256SUMS has no line for $tarball"

act noversion INPUT_DIR=infra INPUT_VERSION=9.9.9
expect_status noversion 2
logs noversion "could not download file://$dist/tfresolve-9.9.9-linux-amd64.tar.gz"

act macos INPUT_DIR=infra RUNNER_OS=macOS RUNNER_ARCH=ARM64
expect_status macos 2
logs macos "no tfresolve release for macOS"
act arm32 INPUT_DIR=infra RUNNER_OS=Linux RUNNER_ARCH=ARM
expect_status arm32 2
logs arm32 "no tfresolve release for linux on ARM"

if [ -f "$dist/tfresolve-$version-linux-arm64.tar.gz" ]; then
  act arm64 TF_VAR_db_password=x INPUT_DIR=infra RUNNER_OS=Linux RUNNER_ARCH=ARM64
  logs arm64 "tfresolve-$version-linux-arm64.tar.gz: sha256"
  if [ "$(uname -m)" = aarch64 ]; then expect_status arm64 0; fi
fi

if [ "$fails" = 0 ]; then
  echo "action-check: all passed"
  exit 0
fi
echo "action-check: $fails failed" >&2
exit 1
