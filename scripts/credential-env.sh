# Sourced (`. scripts/credential-env.sh`) by the scripts that run tfresolve
# on code they did not write: the GitHub Action (scripts/action/run.sh) and
# the pre-commit hook (scripts/pre-commit-check.sh).
#
# The files tfresolve checks may come from a pull request, and Terraform's
# functions read any file: an error message built from
# file("/proc/self/environ") would print the job's environment into the
# report, annotations and SARIF.  So tfresolve is started without the
# variables that look like credentials:
#   - a name holding TOKEN, SECRET, PASSW(ORD), PASSPHRASE, CREDENTIAL,
#     PRIVATE, JWT, AUTH or COOKIE, or PAT or KEY as a word of its own
#     (AWS_ACCESS_KEY_ID, API_KEY, ARM_ACCESS_KEY), any letter case;
#   - ACTIONS_* (the runner's cache, artifact and OIDC endpoints and
#     their tokens);
#   - a value that is a URL with a password (https://user:pass@host,
#     as GitLab's CI_REPOSITORY_URL), or that starts as a GitHub, GitLab,
#     AWS or Slack token does (ghp_, ghs_, github_pat_, glpat-, AKIA...).
# TF_VAR_* are kept whatever their names: they are the values tfresolve is
# asked to check (sensitive ones stay hidden in its output).  tfresolve
# itself reads only TF_VAR_*, TF_WORKSPACE, TF_DATA_DIR, NO_COLOR and the
# like, none of which looks like a credential.  Needs env -u (GNU, BSD and
# busybox env have it) and awk's ENVIRON (POSIX).

# credential_names: the names of the environment's credential-looking
# variables, one per line.
credential_names() {
  awk 'BEGIN {
    for (k in ENVIRON) {
      if (k ~ /^TF_VAR_/)
        continue
      u = toupper(k)
      v = ENVIRON[k]
      if (u ~ /TOKEN|SECRET|PASSW|PASSPHRASE|CREDENTIAL|PRIVATE|JWT|AUTH|COOKIE/ ||
          u ~ /(^|_)PAT(_|$)/ ||
          u ~ /(^|_)KEY(_|$)/ || u ~ /^ACTIONS_/ ||
          v ~ /:\/\/[^\/@:]*:[^\/@]*@/ ||
          v ~ /^(gh[pousr]_|github_pat_|glpat-|gl[a-z]+-|AKIA|ASIA|xox[abposr]-)/)
        print k
    }
  }' | sort
}

# without_credentials CMD [ARG...]: run CMD with those variables removed
# from its environment (the caller's stays as it is).
without_credentials() {
  _tfr_names=$(credential_names)
  while IFS= read -r _tfr_n; do
    [ -z "$_tfr_n" ] || set -- -u "$_tfr_n" "$@"
  done <<EOF
$_tfr_names
EOF
  env "$@"
}
