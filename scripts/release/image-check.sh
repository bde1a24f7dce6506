#!/bin/sh
# Build the container image (Dockerfile) from a release's dist/ and run it,
# with no container engine: buildah builds it (chroot isolation, vfs
# storage, in a temporary directory: nothing is run while building, as
# the Dockerfile has no RUN), pushes it to an OCI layout, and the image's
# layers are unpacked into a root directory in which its ENTRYPOINT runs
# under chroot, in its WORKDIR, as its USER, with its Env, as
# `docker run --rm -v "$PWD:/src" -w /src IMAGE ...` would.
#
#   image-check.sh DISTDIR
#
# Needs root (chroot), buildah (Debian: apt-get install buildah) and
# python3 with yaml (python3-yaml).  For each of amd64 and arm64:
#   - the Dockerfile has only FROM scratch, ARG, LABEL, COPY, WORKDIR,
#     USER and ENTRYPOINT (what this check models: no RUN, no shell);
#   - the image config: os linux, that architecture, Entrypoint
#     ["/tfresolve"], WorkingDir /src, a numeric non-root User, the OCI
#     labels source, description, licenses=MIT and version = the dist's;
#   - the image's files are exactly /tfresolve, /src (empty) and
#     /usr/share/doc/tfresolve/LICENSE; /tfresolve is the release
#     tarball's binary (byte for byte), a static ELF of that architecture;
#   - run with fixtures/demo copied into /src (owned by root, read-only
#     for the image's user; the image has no /tmp): check exits 1 without
#     TF_VAR_db_password and 0 with it; check -format=sarif writes SARIF
#     2.1.0 JSON (no results when valid, the db_password one when not);
#     check -recursive -format=github over fixtures/recursive exits 1 with
#     an annotation for app/; so does the docker_image hook's entry of
#     .pre-commit-hooks.yaml (with -strict as args); -version prints the
#     dist's version; an unknown -format exits 2.
# The arm64 image runs under chroot on an arm64 machine; elsewhere its
# binary runs through qemu-aarch64 (not chrooted: qemu-user is not static
# here) in the unpacked root's /src, as the image's user.
# Exit status 0 when everything passes, 1 when a check fails, 2 when the
# check could not run.
set -eu
if [ $# -ne 1 ]; then
  echo "usage: image-check.sh DISTDIR" >&2
  exit 2
fi
dist=$(cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(id -u)" != 0 ]; then
  echo "image-check: must run as root (chroot)" >&2
  exit 2
fi
for t in buildah python3; do
  if ! command -v "$t" >/dev/null 2>&1; then
    echo "image-check: $t not found (Debian: apt-get install buildah python3)" >&2
    exit 2
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tfresolve-image-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"   # the image's user reaches root-arm64 through it (qemu)
ba() {
  buildah --root "$tmp/storage" --runroot "$tmp/run" --storage-driver vfs "$@"
}

echo "== Dockerfile instructions"
python3 - "$repo/Dockerfile" <<'EOF' || exit 1
import re, sys
allowed = {"FROM", "ARG", "LABEL", "COPY", "WORKDIR", "USER", "ENTRYPOINT"}
text = open(sys.argv[1]).read()
lines, cur = [], ""
for raw in text.splitlines():
    s = raw.strip()
    if not cur and (not s or s.startswith("#")):
        continue
    if s.endswith("\\"):
        cur += s[:-1] + " "
        continue
    lines.append(cur + s)
    cur = ""
bad = 0
froms = [l for l in lines if l.split()[0].upper() == "FROM"]
for l in lines:
    word = l.split()[0].upper()
    if word not in allowed:
        print(f"image-check: Dockerfile: {word} is not modelled by this check: {l}")
        bad = 1
if len(froms) != 1 or froms[0].split()[1:] != ["scratch"]:
    print(f"image-check: Dockerfile: want one FROM scratch, have {froms}")
    bad = 1
for l in lines:
    if l.split()[0].upper() == "COPY" and re.search(r"\s--from", l):
        print(f"image-check: Dockerfile: COPY --from is not modelled: {l}")
        bad = 1
sys.exit(bad)
EOF
echo "ok: only FROM scratch, ARG, LABEL, COPY, WORKDIR, USER, ENTRYPOINT"

echo "== build context from $dist"
version=$(sh "$repo/scripts/release/image-context.sh" "$dist" "$tmp/ctx") || exit 1
echo "ok: version $version, checksums verified"

rc=0
for arch in amd64 arm64; do
  echo "== image linux/$arch"
  if ! ba bud --isolation chroot --platform "linux/$arch" \
      --build-arg "VERSION=$version" -f "$repo/Dockerfile" \
      -t "localhost/tfresolve-image-check:$arch" "$tmp/ctx" \
      >"$tmp/build-$arch.log" 2>&1; then
    cat "$tmp/build-$arch.log" >&2
    echo "image-check: buildah could not build the linux/$arch image" >&2
    exit 2
  fi
  if ! ba push "localhost/tfresolve-image-check:$arch" "oci:$tmp/oci-$arch" \
      >"$tmp/push-$arch.log" 2>&1; then
    cat "$tmp/push-$arch.log" >&2
    echo "image-check: buildah could not export the linux/$arch image" >&2
    exit 2
  fi
  python3 - "$arch" "$version" "$tmp/oci-$arch" "$tmp/root-$arch" \
      "$tmp/ctx/tfresolve-linux-$arch" "$repo/fixtures" \
      "$repo/.pre-commit-hooks.yaml" <<'EOF' || rc=1
import json, os, shutil, struct, subprocess, sys, tarfile
arch, version, oci, root, want_bin, fixtures, hooks = sys.argv[1:]
fails = 0
def check(ok, what):
    global fails
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        fails += 1
    return ok
def blob(digest):
    return os.path.join(oci, "blobs", *digest.split(":", 1))

index = json.load(open(os.path.join(oci, "index.json")))
manifest = json.load(open(blob(index["manifests"][0]["digest"])))
config = json.load(open(blob(manifest["config"]["digest"])))
cfg = config.get("config", {})
check(config.get("os") == "linux" and config.get("architecture") == arch,
      f"image platform {config.get('os')}/{config.get('architecture')}")
check(cfg.get("Entrypoint") == ["/tfresolve"], f"Entrypoint {cfg.get('Entrypoint')}")
check(not cfg.get("Cmd"), f"no Cmd ({cfg.get('Cmd')})")
check(cfg.get("WorkingDir") == "/src", f"WorkingDir {cfg.get('WorkingDir')}")
user = cfg.get("User", "")
uid, _, gid = user.partition(":")
numeric = uid.isdigit() and (gid == "" or gid.isdigit())
check(numeric and int(uid) != 0, f"User {user!r}: numeric, not root")
uid = int(uid) if numeric else 65534
gid = int(gid) if numeric and gid else uid
labels = cfg.get("Labels") or {}
for k, v in [("org.opencontainers.image.licenses", "MIT"),
             ("org.opencontainers.image.version", version)]:
    check(labels.get(k) == v, f"label {k}={labels.get(k)!r}")
for k in ["org.opencontainers.image.source", "org.opencontainers.image.description"]:
    check(bool(labels.get(k)), f"label {k}={labels.get(k)!r}")

# unpack the layers in order (OCI whiteouts: .wh.NAME deletes NAME)
os.makedirs(root)
for layer in manifest["layers"]:
    with tarfile.open(blob(layer["digest"])) as t:
        for m in t.getmembers():
            name = os.path.normpath(m.name)
            if name.startswith("..") or os.path.isabs(name):
                check(False, f"layer member {m.name} outside the root")
                continue
            base = os.path.basename(name)
            if base.startswith(".wh."):
                victim = os.path.join(root, os.path.dirname(name), base[4:])
                shutil.rmtree(victim, ignore_errors=True)
                if os.path.lexists(victim):
                    os.remove(victim)
                continue
            t.extract(m, root, set_attrs=True)
have = set()
for d, dirs, files in os.walk(root):
    for n in dirs + files:
        have.add(os.path.relpath(os.path.join(d, n), root))
want = {"tfresolve", "src", "usr", "usr/share", "usr/share/doc",
        "usr/share/doc/tfresolve", "usr/share/doc/tfresolve/LICENSE"}
check(have == want, f"image files {sorted(have)}")
exe = os.path.join(root, "tfresolve")
data = open(exe, "rb").read()
check(data == open(want_bin, "rb").read(), "/tfresolve is the release tarball's binary")
check(os.stat(exe).st_mode & 0o005 == 0o005, f"/tfresolve mode {oct(os.stat(exe).st_mode)}: others may run it")
# ELF64 little-endian: e_machine; static-PIE: a position-independent
# executable (ET_DYN) with no PT_INTERP and no DT_NEEDED in its dynamic
# section (it relocates itself)
machine = struct.unpack_from("<H", data, 18)[0]
etype = struct.unpack_from("<H", data, 16)[0]
phoff, = struct.unpack_from("<Q", data, 32)
phentsize, phnum = struct.unpack_from("<HH", data, 54)
phdrs = [struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize) for i in range(phnum)]
ptypes = [h[0] for h in phdrs]
needed = []
for h in phdrs:
    if h[0] == 2:  # PT_DYNAMIC: (d_tag, d_val) pairs up to DT_NULL
        for off in range(h[2], h[2] + h[5], 16):
            tag = struct.unpack_from("<q", data, off)[0]
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                needed.append(off)
check(data[:4] == b"\x7fELF" and machine == {"amd64": 62, "arm64": 183}[arch],
      f"ELF machine {machine}")
check(etype == 3, f"static-PIE: ELF type {etype} (want ET_DYN)")
check(3 not in ptypes and not needed, "static: no interpreter, no DT_NEEDED")

# the module, as a bind mount of files the image's user can only read
uname = os.uname().machine
native = {"amd64": "x86_64", "arm64": "aarch64"}[arch] == uname
qemu = shutil.which("qemu-aarch64") if arch == "arm64" else None
if not native and not qemu:
    print(f"SKIP: running the linux/{arch} image (a {uname} machine, no qemu-aarch64)")
    sys.exit(1 if fails else 0)
how = "chroot" if native else "qemu-aarch64, no chroot"
src = os.path.join(root, cfg["WorkingDir"].lstrip("/"))
base_env = dict(e.split("=", 1) for e in cfg.get("Env") or [])

def run(args, env={}, module="demo"):
    shutil.rmtree(src)
    shutil.copytree(os.path.join(fixtures, module), src)
    for d, dirs, files in os.walk(src):
        for n in dirs:
            os.chmod(os.path.join(d, n), 0o755)
        for n in files:
            os.chmod(os.path.join(d, n), 0o644)
    e = dict(base_env, **env)
    if native:
        def enter():
            os.chroot(root)
            os.chdir(cfg["WorkingDir"])
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
        argv = cfg["Entrypoint"] + args
        p = subprocess.run(argv, env=e, preexec_fn=enter, capture_output=True, timeout=120)
    else:
        def drop():
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
        argv = [qemu, os.path.join(root, cfg["Entrypoint"][0].lstrip("/"))] + cfg["Entrypoint"][1:] + args
        p = subprocess.run(argv, env=e, cwd=src, preexec_fn=drop, capture_output=True, timeout=300)
    if p.returncode not in (0, 1, 2) or (p.returncode and not p.stdout and not p.stderr):
        print(f"  {argv}: exit {p.returncode}, no output")
    return p.returncode, p.stdout.decode(), p.stderr.decode()

def sarif(out, what):
    try:
        d = json.loads(out)
    except ValueError as ex:
        check(False, f"{what}: SARIF is not JSON ({ex})")
        return []
    ok = (d.get("version") == "2.1.0" and len(d.get("runs", [])) == 1
          and d["runs"][0]["tool"]["driver"]["name"] == "tfresolve")
    check(ok, f"{what}: SARIF 2.1.0, one run, tool tfresolve")
    return d["runs"][0].get("results", []) if ok else []

pw = {"TF_VAR_db_password": "hunter2"}
s, out, err = run(["check"])
check(s == 1 and "db_password" in out + err, f"[{how}] check without TF_VAR_db_password: exit {s} (want 1)")
s, out, err = run(["check"], pw)
check(s == 0, f"[{how}] check with TF_VAR_db_password: exit {s} (want 0) {err.strip()[:200]}")
s, out, err = run(["check", "-format=sarif"], pw)
r = sarif(out, f"[{how}] check -format=sarif, valid")
check(s == 0 and r == [], f"[{how}] check -format=sarif, valid: exit {s}, {len(r)} results (want 0, 0)")
s, out, err = run(["check", "-format=sarif"])
r = sarif(out, f"[{how}] check -format=sarif, invalid")
check(s == 1 and len(r) == 1 and r[0].get("properties", {}).get("variable") == "db_password",
      f"[{how}] check -format=sarif, invalid: exit {s}, results {[x.get('ruleId') for x in r]} (want 1, the db_password one)")
s, out, err = run(["check", "-recursive", "-format=github"], module="recursive")
check(s == 1 and "::error file=app/" in out,
      f"[{how}] check -recursive -format=github in fixtures/recursive: exit {s} (want 1, an annotation on app/)")
# the pre-commit hook's entry (docker_image: IMAGE ARGS..., run in /src)
# with an option as a user's args, over fixtures/recursive as the repository
import yaml
hook = [h for h in yaml.safe_load(open(hooks)) if h.get("language") == "docker_image"]
if check(len(hook) == 1, f"one docker_image hook in .pre-commit-hooks.yaml"):
    words = hook[0]["entry"].split()
    check(words[0].split("@")[0].rsplit(":", 1)[0].endswith("/tfresolve") and hook[0].get("pass_filenames") is False,
          f"hook entry {hook[0]['entry']!r}: the tfresolve image, pass_filenames: false")
    s, out, err = run(words[1:] + ["-strict"], module="recursive")
    check(s == 1 and "app" in out + err and "network" in out + err,
          f"[{how}] hook entry {words[1:] + ['-strict']} in fixtures/recursive: exit {s} (want 1; app invalid, network valid)")
s, out, err = run(["-version"])
check(s == 0 and f"tfresolve {version}" in out, f"[{how}] -version: exit {s}, {out.splitlines()[:1]}")
s, out, err = run(["check", "-format=nope"])
check(s == 2, f"[{how}] check -format=nope: exit {s} (want 2)")
sys.exit(1 if fails else 0)
EOF
done
if [ "$rc" = 0 ]; then
  echo "image-check: all passed"
else
  echo "image-check: FAILED" >&2
fi
exit "$rc"
