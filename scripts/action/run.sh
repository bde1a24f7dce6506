#!/bin/sh
# The GitHub Action (action.yml) in one script: download a tfresolve
# release for this runner, verify it against the release's SHA256SUMS,
# put it on PATH and run `tfresolve check`.  Inputs come as environment
# variables (action.yml passes them; run it by hand the same way):
#
#   INPUT_VERSION     latest (default), v0.3.0 or 0.3.0
#   INPUT_BASE_URL    where the release files are (default
#                     $GITHUB_SERVER_URL/REPO/releases/download/vVERSION,
#                     GITHUB_SERVER_URL being https://github.com unless set;
#                     file:///path/to/dist works too).  With a base URL
#                     and version latest, the version is the one of the
#                     tarball that its SHA256SUMS lists.
#   INPUT_REPOSITORY  OWNER/NAME of the releases (default: the action's
#                     own repository: ACTION_REPOSITORY, else the
#                     OWNER/NAME in GITHUB_ACTION_PATH .../_actions/OWNER/NAME/REF)
#   INPUT_DIR         the directory to check (default .)
#   INPUT_VAR_FILES   var files (-var-file), separated by newlines or spaces
#   INPUT_STRICT      true: -strict
#   INPUT_RECURSIVE   true: -recursive
#   INPUT_FORMAT      the report's format (default sarif; any of check's)
#   INPUT_SARIF_FILE  where the report goes (default tfresolve.sarif)
#   INPUT_ANNOTATIONS true (default): also run check -format=github, whose
#                     workflow commands GitHub shows as annotations
#   INPUT_ARGS        more options of check, split on white space
#   INPUT_INSTALL_MODULES  auto (default): before the check, `terraform get`
#                     (or `tofu get`) in each directory that calls a
#                     registry or git module, when terraform or tofu is on
#                     PATH; else a notice says that those modules are not
#                     checked.  true: the same, and no terraform/tofu, or
#                     a get that fails, stops the action (exit 2).  false:
#                     nothing is installed (the verdict lists what was not
#                     checked)
#   INPUT_UNCHECKED   warning (default) or error: -unchecked=error, a
#                     module that is not checked fails the check
#   GITHUB_TOKEN      optional, for the API call that resolves latest
#                     ($GITHUB_API_URL/repos/REPO/releases/latest, GITHUB_API_URL
#                     being https://api.github.com unless set)
#
# tfresolve runs without the variables that look like credentials (this
# GITHUB_TOKEN, ACTIONS_*, a workflow's secrets passed as env: see
# scripts/credential-env.sh); TF_VAR_* stay.  The log names what was held
# back, never a value.
#
# Writes "version=", "sarif-file=" and "exit-code=" to $GITHUB_OUTPUT and
# the binary's directory to $GITHUB_PATH when they are set.  Exit status:
# check's (0 valid, 1 invalid inputs, 2 could not run), after the report
# is written; 2 also when tfresolve could not be downloaded or verified.
set -eu
. "$(dirname "$0")/../credential-env.sh"

die() {
  echo "::error title=tfresolve action::$*"
  echo "tfresolve action: $*" >&2
  exit 2
}

version=${INPUT_VERSION:-latest}
base_url=${INPUT_BASE_URL:-}
dir=${INPUT_DIR:-.}
format=${INPUT_FORMAT:-sarif}
report=${INPUT_SARIF_FILE:-tfresolve.sarif}

# --- platform
os=${RUNNER_OS:-$(uname -s)}
arch=${RUNNER_ARCH:-$(uname -m)}
case $os in
  Linux | linux) os=linux ;;
  *) die "no tfresolve release for $os (there are linux-amd64 and linux-arm64 ones); build it from source" ;;
esac
case $arch in
  X64 | x86_64 | amd64) arch=amd64 ;;
  ARM64 | aarch64 | arm64) arch=arm64 ;;
  *) die "no tfresolve release for linux on $arch (there are amd64 and arm64 ones); build it from source" ;;
esac

for t in curl tar sha256sum; do
  command -v "$t" >/dev/null 2>&1 || die "$t not found"
done

tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tfresolve-action.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fetch() { # URL FILE
  curl -fsSL --retry 3 --connect-timeout 30 -o "$2" "$1" || die "could not download $1"
}

# The repository whose releases to use: the repository input, else the
# action's own (composite actions may see an empty github.action_repository:
# then the OWNER/NAME in the runner's .../_actions/OWNER/NAME/REF path).
action_repo() {
  r=${INPUT_REPOSITORY:-${ACTION_REPOSITORY:-}}
  if [ -z "$r" ]; then
    case ${GITHUB_ACTION_PATH:-} in
      */_actions/*/*/*)
        r=${GITHUB_ACTION_PATH##*/_actions/}
        owner=${r%%/*}
        r=${r#*/}
        r=$owner/${r%%/*}
        ;;
    esac
  fi
  echo "$r"
}

# --- version and where its files are
case $version in
  latest)
    if [ -n "$base_url" ]; then
      fetch "$base_url/SHA256SUMS" "$tmp/SHA256SUMS"
      version=$(sed -n "s/^[0-9a-f]*  *\*\{0,1\}tfresolve-\(.*\)-linux-$arch\.tar\.gz$/\1/p" "$tmp/SHA256SUMS" | head -n 1)
      [ -n "$version" ] || die "$base_url/SHA256SUMS lists no tfresolve-VERSION-linux-$arch.tar.gz"
    else
      repo=$(action_repo)
      [ -n "$repo" ] || die "cannot tell which repository's releases to use: set the repository or base-url input"
      api=${GITHUB_API_URL:-https://api.github.com}
      if [ -n "${GITHUB_TOKEN:-}" ]; then
        curl -fsSL --retry 3 --connect-timeout 30 -H "Authorization: Bearer $GITHUB_TOKEN" \
          -o "$tmp/latest.json" "$api/repos/$repo/releases/latest" ||
          die "could not ask $api which release of $repo is the latest"
      else
        fetch "$api/repos/$repo/releases/latest" "$tmp/latest.json"
      fi
      version=$(tr ',' '\n' <"$tmp/latest.json" | sed -n 's/^[[:space:]{]*"tag_name":[[:space:]]*"\([^"]*\)".*/\1/p' | head -n 1)
      [ -n "$version" ] || die "no tag_name in the latest release of $repo"
    fi
    ;;
esac
version=${version#v}
case $version in
  '' | *[!0-9A-Za-z.+~-]*) die "not a version: $version" ;;
esac
if [ -z "$base_url" ]; then
  repo=$(action_repo)
  [ -n "$repo" ] || die "cannot tell which repository's releases to use: set the repository or base-url input"
  base_url=${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download/v$version
fi
base_url=${base_url%/}

# --- download and verify
name=tfresolve-$version-linux-$arch
tarball=$name.tar.gz
[ -f "$tmp/SHA256SUMS" ] || fetch "$base_url/SHA256SUMS" "$tmp/SHA256SUMS"
fetch "$base_url/$tarball" "$tmp/$tarball"
want=$(awk -v f="$tarball" '$2 == f || $2 == "*" f { print $1 }' "$tmp/SHA256SUMS")
[ -n "$want" ] || die "$base_url/SHA256SUMS has no line for $tarball"
have=$(sha256sum "$tmp/$tarball" | awk '{ print $1 }')
if [ "$want" != "$have" ]; then
  die "checksum mismatch for $tarball: SHA256SUMS says $want, the download is $have"
fi
echo "tfresolve action: $tarball: sha256 $have (matches SHA256SUMS)"

dest=${RUNNER_TEMP:-$tmp}/tfresolve-bin
[ -n "${RUNNER_TEMP:-}" ] || dest=$(mktemp -d "${TMPDIR:-/tmp}/tfresolve-bin.XXXXXX")
rm -rf "${dest:?}/$name"
mkdir -p "$dest"
tar -xzf "$tmp/$tarball" -C "$dest" || die "could not unpack $tarball"
bindir=$dest/$name
[ -x "$bindir/tfresolve" ] || die "$tarball has no $name/tfresolve"
"$bindir/tfresolve" -version >/dev/null || die "$bindir/tfresolve does not run here"
[ -z "${GITHUB_PATH:-}" ] || echo "$bindir" >>"$GITHUB_PATH"
echo "tfresolve action: $("$bindir/tfresolve" -version | head -n 1) in $bindir"

# --- modules: installed, so that they are checked
# The directories below $dir (not in .terraform, nor hidden) whose .tf or
# .tofu files call a module that is neither local nor installed by hand:
# a `source` that does not start with "." (registry, git, http...).  With
# -recursive every one of them; else $dir alone.
remote_callers() {
  case ${INPUT_RECURSIVE:-false} in
    true | True | TRUE) depth= ;;
    *) depth=1 ;;
  esac
  find "$dir" ${depth:+-maxdepth "$depth"} -name '.*' ! -name . ! -name .. \
    -prune -o \( -name '*.tf' -o -name '*.tofu' \) -type f -print |
    while IFS= read -r f; do
      if grep -qE '^[[:space:]]*source[[:space:]]*=[[:space:]]*"[^.]' "$f"; then
        dirname "$f"
      fi
    done | sort -u
}

install_modules() {
  mode=${INPUT_INSTALL_MODULES:-auto}
  case $mode in
    false | False | FALSE) return 0 ;;
    true | True | TRUE) mode=true ;;
    auto) ;;
    *) die "install-modules: $mode is none of auto, true, false" ;;
  esac
  tf=
  for t in terraform tofu; do
    if command -v "$t" >/dev/null 2>&1; then
      tf=$t
      break
    fi
  done
  dirs=$(remote_callers)
  [ -n "$dirs" ] || return 0
  if [ -z "$tf" ]; then
    [ "$mode" != true ] || die "install-modules: true, but neither terraform nor tofu is on PATH"
    echo "::notice title=tfresolve action::Neither terraform nor tofu is on PATH, so the registry and git modules called in $(echo "$dirs" | tr '\n' ' ' | sed 's/ $//; s/ /, /g') are not installed, and not checked: nothing inside them is validated (the verdict lists each). Set up Terraform (hashicorp/setup-terraform) or OpenTofu before this step to check them, or set install-modules: false."
    return 0
  fi
  while IFS= read -r d; do
    echo "tfresolve action: $tf -chdir=$d get"
    if ! "$tf" "-chdir=$d" get -no-color </dev/null; then
      [ "$mode" != true ] || die "$tf get failed in $d"
      echo "::warning title=tfresolve action::$tf get failed in $d: the modules it could not install are not checked (the verdict lists each)."
    fi
  done <<EOF
$dirs
EOF
}
install_modules

# --- check
set -- check
set -f
for f in $(printf '%s\n' "${INPUT_VAR_FILES:-}" | tr '\n' ' '); do
  set -- "$@" "-var-file=$f"
done
case ${INPUT_STRICT:-false} in true | True | TRUE) set -- "$@" -strict ;; esac
case ${INPUT_RECURSIVE:-false} in true | True | TRUE) set -- "$@" -recursive ;; esac
case ${INPUT_UNCHECKED:-warning} in
  warning) ;;
  error) set -- "$@" -unchecked=error ;;
  *) die "unchecked: ${INPUT_UNCHECKED} is neither warning nor error" ;;
esac
# shellcheck disable=SC2086 # split on white space, as documented
set -- "$@" ${INPUT_ARGS:-}
set +f

case $report in
  */*) mkdir -p "${report%/*}" || die "cannot make the directory of $report" ;;
esac
: >"$report" || die "cannot write $report"
status=0
held=$(credential_names | tr '\n' ' ' | sed 's/ $//')
[ -z "$held" ] || echo "tfresolve action: not passed to tfresolve (they look like credentials): $held"
echo "tfresolve action: tfresolve $* -format=$format $dir > $report"
without_credentials "$bindir/tfresolve" "$@" "-format=$format" "$dir" >"$report" || status=$?
case ${INPUT_ANNOTATIONS:-true} in
  true | True | TRUE)
    if [ "$format" != github ]; then
      s=0
      without_credentials "$bindir/tfresolve" "$@" -format=github "$dir" || s=$?
      [ "$s" -le "$status" ] || status=$s
    fi
    ;;
esac
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "version=$version"
    echo "sarif-file=$report"
    echo "exit-code=$status"
  } >>"$GITHUB_OUTPUT"
fi
case $status in
  0) echo "tfresolve action: valid" ;;
  1) echo "tfresolve action: invalid inputs (exit status 1); report in $report" ;;
  *) echo "tfresolve action: tfresolve could not run (exit status $status)" ;;
esac
exit "$status"
