# bash completion for tfresolve(1)                        -*- shell-script -*-
#
# Install as bash-completion/completions/tfresolve (meson install does),
# or source this file from ~/.bashrc.  It needs nothing from the
# bash-completion package.
#
# Completes commands, each command's options, the values of -format (per
# command), -engine, -unchecked, -missing-required and -type, directories
# for DIR and -chdir, var files (*.tfvars, *.tfvars.json) for -var-file,
# the files parse reads, and the
# module's variable names for `explain NAME` and `-var NAME=`: those come
# from `tfresolve show -json -no-env`, which only reads the module's files
# and is given 2 seconds at most.

_tfresolve_options() {
  local module="-var -var-file= -chdir= -no-env -json -format= -engine=
    -show-sensitive -no-color -strict -no-modules -third-party-warnings
    -unchecked= -terragrunt= -help"
  case $1 in
    show) echo "$module -changed -required -missing-required=" ;;
    explain) echo "$module -all -missing-required=" ;;
    diff) echo "-a= -b= -var -var-file= -chdir= -no-env -engine= -json
      -no-modules -show-sensitive -no-color -help" ;;
    lsp) echo "-help" ;;
    check) echo "$module -var-file-each= -recursive -affected-by= -policy= -missing-required=" ;;
    eval) echo "-functions -scope= -type= -format= -json -engine= -chdir=
      -var -var-file= -no-env -show-sensitive -no-color -help" ;;
    console) echo "-scope= -var -var-file= -no-env -chdir= -engine= -format=
      -json -show-sensitive -no-color -help" ;;
    init) echo "-format= -json -out= -force -chdir= -engine= -no-color
      -help" ;;
    test) echo "-test-directory= -filter= -var -var-file= -chdir= -no-env
      -json -engine= -no-color -show-sensitive -verbose -compact-warnings
      -help" ;;
    parse) echo "-ast -format= -json -no-color -help" ;;
    inspect) echo "-format= -json -var-file= -show-sensitive -engine= -chdir=
      -no-color -help" ;;
    docs) echo "-write -check -var-file-each= -engine= -chdir= -no-color
      -help" ;;
  esac
  echo "-max-memory=" # every command
}

_tfresolve_formats() {
  case $1 in
    show) echo "human json yaml plan-json tfvars env" ;;
    check) echo "human json sarif github junit plan-json" ;;
    explain) echo "human json" ;;
    init) echo "tfvars json env" ;;
    eval | console) echo "console json yaml" ;;
    parse) echo "human json short" ;;
    inspect) echo "json" ;;
  esac
}

# Directories, and files whose name ends in one of the suffixes $2...,
# completing $1.
_tfresolve_files() {
  local f s cur=$1
  local -a all
  shift
  mapfile -t all < <(compgen -f -- "$cur")
  for f in "${all[@]}"; do
    if [[ -d $f ]]; then
      COMPREPLY+=("$f")
    else
      for s; do
        if [[ $f == *"$s" ]]; then
          COMPREPLY+=("$f")
          break
        fi
      done
    fi
  done
  compopt -o filenames 2>/dev/null
}

_tfresolve_dirs() {
  mapfile -t COMPREPLY < <(compgen -d -- "$1")
  compopt -o filenames 2>/dev/null
}

# The variable names of the module in $3 (relative to -chdir $2), each
# followed by $4, starting with $1.  $5 is the tfresolve to run.
_tfresolve_variables() {
  local prog=$5 out
  local -a run
  # shellcheck disable=SC2088 # a literal "~/" as typed on the line
  case $prog in "~/"*) prog=$HOME/${prog#"~/"} ;; esac
  if [[ $prog != */* ]]; then
    prog=$(type -P "$prog") || return
  fi
  [[ -f $prog && -x $prog ]] || return
  run=("$prog" show -json -no-env)
  [[ -n $2 ]] && run+=("-chdir=$2")
  if type -P timeout >/dev/null; then
    run=(timeout 2 "${run[@]}")
  fi
  out=$("${run[@]}" "${3:-.}" </dev/null 2>/dev/null)
  local name
  while IFS= read -r name; do
    [[ $name == "$1"* ]] && COMPREPLY+=("$name$4")
  done < <(sed -n 's/^  "\([^"]*\)": {"type".*/\1/p' <<<"$out")
}

_tfresolve() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prog=${COMP_WORDS[0]} opt="" val="" prefix="" split=""
  COMPREPLY=()

  if ((COMP_CWORD == 1)); then
    case $cur in
      -*) mapfile -t COMPREPLY < <(compgen -W "-help -version -max-memory=
           -chdir=" -- "$cur") ;;
      *) mapfile -t COMPREPLY < <(compgen -W "show check explain diff lsp
           eval console init inspect docs test parse" -- "$cur") ;;
    esac
    return
  fi
  local cmd=${COMP_WORDS[1]}

  # An option's value.  With "=" in COMP_WORDBREAKS (the default),
  # "-format=js" arrives as the words "-format" "=" "js".
  if [[ $cur == "=" ]]; then
    opt=${COMP_WORDS[COMP_CWORD - 1]} split=1
  elif ((COMP_CWORD >= 3)) && [[ ${COMP_WORDS[COMP_CWORD - 1]} == "=" ]]; then
    opt=${COMP_WORDS[COMP_CWORD - 2]} val=$cur split=1
  elif [[ $cur == -*=* ]]; then
    opt=${cur%%=*} val=${cur#*=} prefix=${cur%%=*}=
  else
    case ${COMP_WORDS[COMP_CWORD - 1]} in
      -var | --var | -var-file | --var-file | -var-file-each | --var-file-each)
        opt=${COMP_WORDS[COMP_CWORD - 1]} val=$cur ;;
    esac
  fi
  # a "=" after a word that is no option: the VALUE of -var NAME=VALUE
  [[ -n $split && $opt != -* ]] && return

  # Positional arguments and -chdir, from the whole line.
  local i=2 w npos=0 curpos=0 chdir="" dir=""
  while ((i < ${#COMP_WORDS[@]})); do
    w=${COMP_WORDS[i]}
    if ((i == COMP_CWORD)); then
      curpos=$((npos + 1))
      ((i++))
      continue
    fi
    case $w in
      =) ((i += 2)); continue ;;
      -chdir | --chdir)
        [[ ${COMP_WORDS[i + 1]} == "=" ]] && ((i + 2 != COMP_CWORD)) &&
          chdir=${COMP_WORDS[i + 2]} ;;
      -chdir=* | --chdir=*) chdir=${w#*=} ;;
      -var | --var | -var-file | --var-file | -var-file-each | --var-file-each)
        [[ ${COMP_WORDS[i + 1]} != "=" ]] && ((i++)) ;;
      -*) ;;
      *)
        ((npos++))
        case $cmd in
          explain) ((npos == 2)) && dir=$w ;;
          eval | parse) ;; # no DIR
          *) ((npos == 1)) && dir=$w ;;
        esac ;;
    esac
    ((i++))
  done

  if [[ -n $opt ]]; then
    case ${opt#-} in
      format | -format)
        mapfile -t COMPREPLY < <(compgen -W "$(_tfresolve_formats "$cmd")" \
          -- "$val") ;;
      engine | -engine)
        mapfile -t COMPREPLY < <(compgen -W "terraform opentofu" -- "$val") ;;
      unchecked | -unchecked)
        mapfile -t COMPREPLY < <(compgen -W "error warning" -- "$val") ;;
      missing-required | -missing-required)
        mapfile -t COMPREPLY < <(compgen -W "info error" -- "$val") ;;
      type | -type) # complex types need quoting: left to the user
        mapfile -t COMPREPLY < <(compgen -W "string number bool any" \
          -- "$val") ;;
      chdir | -chdir | policy | -policy) _tfresolve_dirs "$val" ;;
      out | -out) _tfresolve_files "$val" .tfvars .tfvars.json ;;
      test-directory | -test-directory) _tfresolve_dirs "$val" ;;
      filter | -filter) _tfresolve_files "$val" .tftest.hcl .tftest.json ;;
      affected-by | -affected-by) _tfresolve_files "$val" "" ;;
      var-file | -var-file | var-file-each | -var-file-each)
        _tfresolve_files "$val" .tfvars .tfvars.json ;;
      var | -var)
        [[ $val == *=* ]] && return # the VALUE: nothing to offer
        _tfresolve_variables "$val" "$chdir" "$dir" "=" "$prog"
        compopt -o nospace 2>/dev/null ;;
    esac
    if [[ -n $prefix ]]; then
      COMPREPLY=("${COMPREPLY[@]/#/$prefix}")
    fi
    return
  fi

  if [[ $cur == -* ]]; then
    local -a opts
    read -r -d '' -a opts < <(_tfresolve_options "$cmd")
    [[ $cur == --* ]] && opts=("${opts[@]/#/-}")
    mapfile -t COMPREPLY < <(compgen -W "${opts[*]}" -- "$cur")
    if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *= ]]; then
      compopt -o nospace 2>/dev/null
    fi
    return
  fi

  case $cmd in
    explain)
      if ((curpos == 1)); then
        _tfresolve_variables "$cur" "$chdir" "$dir" "" "$prog"
      elif ((curpos == 2)); then
        _tfresolve_dirs "$cur"
      fi ;;
    show | check | console | init | inspect | docs | test)
      ((curpos == 1)) && _tfresolve_dirs "$cur" ;;
    parse)
      _tfresolve_files "$cur" .tf .tf.json .tofu .tofu.json .tfvars \
        .tfvars.json ;;
  esac
}

complete -F _tfresolve tfresolve
