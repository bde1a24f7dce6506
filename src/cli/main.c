/*
** tfresolve command line: a thin layer over libtfresolve.  Only this file
** turns diagnostics into exit statuses.
*/
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>
#include <jansson.h>

#include "cli.h"
#include "commit.h"
#include "tfresolve/tfresolve.h"

static const char usage_main[] =
    "Usage: tfresolve [global options] <command> [options] [args]\n"
    "\n"
    "Evaluate Terraform/OpenTofu input variables offline.\n"
    "\n"
    "Commands:\n"
    "  show       Resolve and print every input variable of a module\n"
    "  check      Resolve and validate; exit status says pass or fail\n"
    "  explain    Every source that set one variable, and which won\n"
    "  diff       Two var files side by side: the variables they resolve\n"
    "             differently\n"
    "  lsp        A language server for editors (LSP over stdio)\n"
    "  eval       Evaluate a constant expression, optionally converted to a "
    "type\n"
    "  console    Terraform's console, offline: expressions with the "
    "module's values\n"
    "  init       Write a tfvars template for the module's variables\n"
    "  test       Run the variable-only part of tests/*.tftest.hcl "
    "offline\n"
    "  parse      Syntax-check .tf, .tf.json, .tfvars and .tfvars.json "
    "files\n"
    "\n"
    "Global options:\n"
    "  -chdir=DIR           Switch to DIR before the command, as Terraform's\n"
    "                       global -chdir does (tfresolve -chdir=env/prod "
    "show)\n"
    "  -help, --help        Show this help, or a command's help\n"
    "  -version, --version  Show the version\n"
    "  -max-memory=SIZE     Memory values may take (512M, 4G; any command;\n"
    "                       default half the physical memory, at most 16G)\n";

static const char usage_parse[] =
    "Usage: tfresolve parse [options] FILE|DIR...\n"
    "\n"
    "Parse every given file, and every .tf, .tf.json, .tofu, .tofu.json,\n"
    ".tfvars and .tfvars.json file below each given directory, and report\n"
    "syntax errors the way Terraform reports them.\n"
    "\n"
    "Options:\n"
    "  -ast               Print each file's syntax tree as JSON\n"
    "  -format=FORMAT     human (default), json, or short\n"
    "                     (short: one \"file:line:column: error: summary\" "
    "line)\n"
    "  -json              Same as -format=json\n"
    "  -no-color          No colour in human output\n"
    "\n"
    "Exit status: 0 no errors, 1 syntax errors, 2 usage error.\n";

/* "-x", "--x", "-x=v" and "--x=v" all name option x. */

/* ---- collecting files -------------------------------------------------- */

static bool is_config_name(const char *name) {
  static const char *const exts[] = {".tf",        ".tf.json", ".tofu",
                                     ".tofu.json", ".tfvars",  ".tfvars.json"};
  if (name[0] == '.' || name[0] == '#' || cli_has_suffix(name, "~"))
    return false;
  for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
    if (cli_has_suffix(name, exts[i]))
      return true;
  return false;
}

/* Every configuration file below dir, in lexical order. */
static void walk(struct cli_names *out, const char *dir) {
  struct cli_names here = {0};
  if (!cli_list_dir(dir, NULL, NULL, &here))
    return;
  for (size_t i = 0; i < here.n; i++) {
    char *full = cli_path_join(dir, here.v[i]);
    struct stat st;
    if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
      walk(out, full);
    else if (is_config_name(here.v[i]))
      cli_names_add(out, full);
    free(full);
  }
  cli_names_free(&here);
}

/* ---- parse command ----------------------------------------------------- */

static int cmd_parse(int argc, char **argv) {
  struct options o = {0};
  struct cli_names files = {0};
  int rc = EXIT_OK;
  const struct cli_common cc = {"parse", usage_parse, &o.no_color, NULL,
                                NULL,    NULL,        NULL,        NULL};
  struct cli_arg arg;
  bool bad_opt = false; /* a common option was bad (and said so) */
  for (int i = 0; cli_own(&cc, argc, argv, &i, &arg, &bad_opt); i++) {
    const char *name = arg.name, *val = arg.val;
    if (!name) {
      struct stat st;
      if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
        walk(&files, argv[i]);
      else
        cli_names_add(&files, argv[i]);
    } else if (!strcmp(name, "ast")) {
      o.ast = true;
    } else if (!strcmp(name, "json")) {
      o.format = FMT_JSON;
    } else if (!strcmp(name, "format") && val &&
               (!strcmp(val, "human") || !strcmp(val, "json") ||
                !strcmp(val, "short"))) {
      o.format = !strcmp(val, "json")    ? FMT_JSON
                 : !strcmp(val, "short") ? FMT_SHORT
                                         : FMT_HUMAN;
    } else {
      fprintf(stderr, "tfresolve parse: unknown option \"%s\"\n\n%s", argv[i],
              usage_parse);
      return EXIT_USAGE;
    }
  }
  if (bad_opt)
    return EXIT_USAGE;
  if (!files.n) {
    fprintf(stderr, "tfresolve parse: no files to parse\n\n%s", usage_parse);
    free(files.v);
    return EXIT_USAGE;
  }
  tfr_arena *a = tfr_arena_new();
  tfr_diags *diags = tfr_diags_new(a);
  size_t bad = 0;
  if (o.format == FMT_JSON)
    fputs("{\"files\": [", stdout);
  for (size_t i = 0; i < files.n; i++) {
    size_t before = tfr_diags_count(diags);
    tfr_file *f = tfr_parse_file(a, diags, files.v[i], TFR_SYNTAX_AUTO);
    if (!f && tfr_diags_count(diags) > before)
      bad++;
    if (o.format == FMT_JSON)
      printf("%s\"%s\"", i ? ", " : "", files.v[i]);
    if (f && o.ast && o.format != FMT_JSON)
      tfr_file_dump_json(f, stdout);
    free(files.v[i]);
  }
  size_t nfiles = files.n;
  free(files.v);
  bool errors = tfr_diags_has_errors(diags);
  if (o.format == FMT_JSON) {
    printf("], \"valid\": %s, \"diagnostics\": ", errors ? "false" : "true");
    tfr_diags_render_json(diags, stdout);
    fputs("}\n", stdout);
  } else {
    cli_print_diags(diags, &o);
    if (o.format == FMT_HUMAN && !o.ast)
      printf("Parsed %zu file%s: %s.\n", nfiles, nfiles == 1 ? "" : "s",
             bad ? tfr_arena_printf(a, "%zu with errors", bad)
                 : "no syntax errors");
  }
  if (errors)
    rc = EXIT_INVALID;
  tfr_arena_free(a);
  return rc;
}

extern char **environ;

/* ---- eval and console commands ---------------------------------------- */

static const char usage_eval[] =
    "Usage: tfresolve eval [options] [--] EXPRESSION...\n"
    "       tfresolve eval [options] -\n"
    "\n"
    "Evaluate an expression the way Terraform evaluates tfvars values\n"
    "(constants: no variables, no function calls) and print the result in\n"
    "Terraform console style.  Several expressions are evaluated in turn,\n"
    "each printed as it is evaluated; \"-\" reads one expression per line\n"
    "from standard input; after \"--\", an expression may start with \"-\".\n"
    "With -functions, evaluate it as `terraform console`\n"
    "does in the module of the current directory: Terraform's functions,\n"
    "var.* (resolved from every value source), local.*, path.* and\n"
    "terraform.workspace.\n"
    "\n"
    "Options:\n"
    "  -functions   Console mode: functions and the module's values (tfvars\n"
    "               values may not call functions or refer to anything)\n"
    "  -type=TYPE   Convert the result to a type constraint, as Terraform\n"
    "               converts a variable value (optional() defaults apply)\n"
    "  -format=F    console (default), json, or yaml\n"
    "  -json        Print {\"type\": T, \"value\": V} (cty's JSON encodings)\n"
    "               or {\"error\": {\"summary\": ..., \"detail\": ...}}\n"
    "  -engine=E    terraform (default) or opentofu (.tofu files, OpenTofu's\n"
    "               extra functions)\n"
    "  -chdir=DIR   Work in DIR (the module directory)\n"
    "  -var 'NAME=VALUE', -var-file=FILE, -no-env\n"
    "               Value sources of the module's variables, as for show\n"
    "  -show-sensitive\n"
    "               Print sensitive values (otherwise the console shows\n"
    "               \"(sensitive value)\", JSON null with \"sensitive\": "
    "true,\n"
    "               YAML a comment)\n"
    "  -no-color    No colour in diagnostics\n"
    "\n"
    "Exit status: 0 evaluated, 1 errors (in any expression), 2 usage error.\n";

static const char usage_console[] =
    "Usage: tfresolve console [options] [DIR]\n"
    "\n"
    "Terraform's console, offline: read expressions from standard input and\n"
    "print each value, with Terraform's functions and the module's var.*\n"
    "(resolved from every value source), local.*, path.* and\n"
    "terraform.workspace in scope.  On a terminal an expression may span\n"
    "lines while a bracket is open; from a pipe, as Terraform's console\n"
    "reads one, each line is an expression, only the last result is\n"
    "printed and the first error ends the run.  \"exit\" or end of input\n"
    "ends it.\n"
    "\n"
    "Options:\n"
    "  -var 'NAME=VALUE', -var-file=FILE, -no-env, -chdir=DIR,\n"
    "  -engine=E   as for show\n"
    "  -json       one line {\"type\": T, \"value\": V} or {\"error\": ...} "
    "each\n"
    "  -format=F   console (default), json or yaml\n"
    "  -show-sensitive  Print sensitive values (as for eval)\n"
    "  -no-color   No colour in diagnostics\n"
    "\n"
    "Exit status: 0, or 1 if an expression failed (from a pipe: the first\n"
    "error), or the last one failed (on a terminal); 2 usage error.\n";

static void json_error(FILE *out, const char *summary, const char *detail,
                       const char *note, bool ours) {
  fputs("{\"error\":{\"summary\":", out);
  tfr_json_write_cstr(out, summary);
  fputs(",\"detail\":", out);
  tfr_json_write_cstr(out, detail ? detail : "");
  if (note) { /* ours, after Terraform's words */
    fputs(",\"note\":", out);
    tfr_json_write_cstr(out, note);
  }
  if (ours) /* a diagnostic Terraform does not give */
    fputs(",\"origin\":\"tfresolve\"", out);
  fputs("}}\n", out);
}

/* What eval and console evaluate in. */
struct eval_env {
  const char *name;                    /* the input's name in diagnostics */
  const char *type_text;               /* convert results to this type */
  const struct tfr_resolution *module; /* console scope, or NULL */
  size_t yaml_docs;                    /* YAML documents written so far */
  FILE *out;                           /* where results go: stdout */
};

/* Whether t has an object type anywhere: its attribute names may come
** from a value's keys (a sensitive value's keys are secret too). */
static bool has_object_type(const tfr_type *t) {
  if (t->kind == TFR_OBJECT)
    return true;
  if (t->elem && has_object_type(t->elem))
    return true;
  for (uint32_t i = 0; t->kind == TFR_TUPLE && i < t->n; i++)
    if (has_object_type(t->types[i]))
      return true;
  return false;
}

/* The note after Terraform's "Functions may not be called here." */
static const char functions_note[] =
    "eval evaluates constants, as in a .tfvars file: add -functions to call "
    "functions, as terraform console does.";

/* Evaluate one expression (and convert it to type_text if given). */
static bool eval_one(const char *text, struct eval_env *env,
                     const struct options *o) {
  FILE *out = env->out ? env->out : stdout;
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  const tfr_value *v = NULL;
  const char *cerr = NULL;
  const char *type_text = env->type_text;
  tfr_file *e = tfr_parse_expr(a, d, env->name ? env->name : "<eval>", text,
                               strlen(text));
  if (e && o->functions) {
    struct tfr_eval_opts eo = TFR_EVAL_OPTS_INIT;
    eo.opentofu = o->opentofu;
    eo.module = env->module;
    v = tfr_eval_functions_opts(a, d, e, &eo);
  } else if (e) {
    v = tfr_eval_const(a, d, e);
    /* eval without -functions evaluates as a tfvars file does: say how
    ** to call one (after Terraform's words) */
    size_t nd = tfr_diags_count(d);
    const struct tfr_diag *g = nd ? tfr_diags_get(d, nd - 1) : NULL;
    if (g && !strcmp(g->summary, "Function calls not allowed"))
      tfr_diags_set_note(d, functions_note);
  }
  if (v && !tfr_diags_has_errors(d) && type_text) {
    tfr_file *te = tfr_parse_expr(a, d, "<type>", type_text, strlen(type_text));
    const struct tfr_defaults *defs = NULL;
    const tfr_type *t = te ? tfr_parse_type(a, d, te, &defs) : NULL;
    if (t) {
      v = tfr_convert(a, v, t, defs, &cerr);
      if (!v) { /* -type is ours: Terraform's console has no such option */
        tfr_diags_add(d, TFR_DIAG_ERROR, NULL, "Invalid value",
                      tfr_arena_printf(a, "Unsuitable value: %s.",
                                       cerr ? cerr : "incorrect type"));
        tfr_diags_set_ours(d);
      }
    }
  }
  bool ok = v && !tfr_diags_has_errors(d);
  if (ok && (v->flags & TFR_V_TYPE) && tfr_value_has_mark(v, TFR_V_SENSITIVE) &&
      !o->show_sensitive) {
    /* a sensitive value's type: its attribute names may be its keys */
    fputs(o->format == FMT_JSON
              ? "{\"type\":\"type\",\"value\":null,\"sensitive\":true}\n"
              : "(sensitive value)\n",
          out);
    fflush(out);
    tfr_arena_free(a);
    return true;
  }
  if (ok && (v->flags & TFR_V_TYPE)) { /* the console's type(x) */
    if (o->format == FMT_JSON) {
      fputs("{\"type\":\"type\",\"value\":", out);
      tfr_json_write_cstr(out, v->s);
      fputs("}\n", out);
    } else {
      fprintf(out, "%s\n", v->s);
    }
    fflush(out);
    tfr_arena_free(a);
    return true;
  }
  /* A sensitive value, or one with a sensitive part, is not printed
  ** unless asked for: the console shows "(sensitive value)" in its place,
  ** JSON null with "sensitive": true, YAML a comment. */
  bool sensitive = ok && tfr_value_has_mark(v, TFR_V_SENSITIVE);
  bool hide = sensitive && !o->show_sensitive;
  if (sensitive && o->show_sensitive && o->format != FMT_JSON)
    v = tfr_value_unmark(a, v, TFR_V_SENSITIVE, NULL);
  if (o->format == FMT_JSON && ok && !hide && !tfr_value_json_encodable(v)) {
    json_error(out, "Value cannot be encoded as JSON",
               "cannot serialize infinity as JSON", NULL, true);
    ok = false;
  } else if (o->format == FMT_JSON) {
    if (!ok) {
      const struct tfr_diag *g = tfr_diags_get(d, 0);
      const char *note = g ? g->note : NULL;
      if (g && !note && !o->functions &&
          !strcmp(g->summary, "Function calls not allowed"))
        note = functions_note; /* the first of several: noted too */
      json_error(out, g ? g->summary : "Error", g ? g->detail : "", note,
                 !g || g->ours);
    } else {
      fputs("{\"type\":", out);
      if (hide && has_object_type(v->type)) /* its names may be secrets */
        fputs("\"dynamic\"", out);
      else
        tfr_type_write_json(out, v->type);
      fputs(",\"value\":", out);
      if (hide)
        fputs("null", out);
      else
        tfr_value_write_json(out, a, v);
      if (!tfr_value_is_wholly_known(v))
        fputs(",\"unknown\":true", out);
      if (sensitive)
        fputs(",\"sensitive\":true", out);
      if (tfr_value_has_mark(v, TFR_V_EPHEMERAL))
        fputs(",\"ephemeral\":true", out);
      fputs("}\n", out);
    }
  } else if (!ok) {
    cli_print_diags(d, o);
  } else if (o->format == FMT_YAML) {
    if (env->yaml_docs++) /* several values: a stream of documents */
      fputs("---\n", out);
    if (hide)
      fputs("# (sensitive value: use -show-sensitive to print it)\n", out);
    else
      tfr_value_write_yaml(out, a, v);
  } else {
    fprintf(out, "%s\n", tfr_value_console(a, v));
  }
  fflush(out);
  tfr_arena_free(a);
  return ok;
}

/* Resolve the module of the current directory for console scope; NULL
** when it has no configuration.  Its problems are shown once, on stderr:
** a variable that could not be resolved is unknown in expressions. */
static const struct tfr_resolution *
console_module(tfr_arena *a, const struct tfr_cli_arg *args, size_t nargs,
               bool no_env, const struct options *o) {
  tfr_diags *d = tfr_diags_new(a);
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  ro.dir = ".";
  ro.env = no_env ? NULL : environ;
  ro.args = args;
  ro.nargs = nargs;
  ro.opentofu = o->opentofu;
  const struct tfr_resolution *res = tfr_resolve(a, d, &ro);
  if (!res->has_config)
    return NULL;
  if (tfr_diags_count(d))
    cli_print_diags(d, o);
  return res;
}

/* Options of eval and console; false (after a message) on a usage error. */
/* The operands (eval: expressions; console: at most one directory) are
** collected in operands[], which has room for argc; "--" ends the
** options, so that an expression may start with "-". */
static bool eval_flags(int argc, char **argv, bool console, struct options *o,
                       struct eval_env *env, struct tfr_cli_arg *args,
                       size_t *nargs, bool *no_env, const char **operands,
                       size_t *noperands) {
  const char *usage = console ? usage_console : usage_eval;
  const char *cmd = console ? "console" : "eval";
  bool options_end = false;
  for (int i = 0; i < argc; i++) {
    char buf[64];
    const char *val = NULL;
    const char *name = options_end || !strcmp(argv[i], "-")
                           ? NULL
                           : cli_opt_name(argv[i], buf, sizeof buf, &val);
    const struct cli_common cc = {cmd,          usage,  &o->no_color,
                                  &o->opentofu, no_env, &o->show_sensitive,
                                  args,         nargs};
    enum cli_opt r = name && strcmp(argv[i], "--")
                         ? cli_common_opt(&cc, name, val, argc, argv, &i)
                         : CLI_OPT_NOT;
    if (r == CLI_OPT_BAD)
      return false;
    if (r == CLI_OPT_TAKEN)
      continue;
    if (name && !strcmp(argv[i], "--"))
      options_end = true;
    else if (!name && (!console || *noperands == 0))
      operands[(*noperands)++] = argv[i];
    else if (name && !strcmp(name, "json"))
      o->format = FMT_JSON;
    else if (name && !strcmp(name, "functions") && !console)
      o->functions = true;
    else if (name && !strcmp(name, "format") && val &&
             (!strcmp(val, "json") || !strcmp(val, "yaml") ||
              !strcmp(val, "console")))
      o->format = !strcmp(val, "json")   ? FMT_JSON
                  : !strcmp(val, "yaml") ? FMT_YAML
                                         : FMT_HUMAN;
    else if (name && !strcmp(name, "type") && !console && (val || i + 1 < argc))
      env->type_text = val ? val : argv[++i];
    else {
      fprintf(stderr, "tfresolve %s: unexpected argument \"%s\"\n\n%s", cmd,
              argv[i], usage);
      return false;
    }
  }
  return true;
}

static int cmd_eval(int argc, char **argv) {
  struct options o = {0};
  struct eval_env env = {0};
  struct tfr_cli_arg *args = calloc((size_t)argc + 1, sizeof *args);
  const char **exprs = calloc((size_t)argc + 1, sizeof *exprs);
  size_t nargs = 0, nexprs = 0;
  bool no_env = false;
  if (!args || !exprs ||
      !eval_flags(argc, argv, false, &o, &env, args, &nargs, &no_env, exprs,
                  &nexprs)) {
    free(args);
    free(exprs);
    return EXIT_USAGE;
  }
  if (!nexprs) {
    fprintf(stderr, "tfresolve eval: no expression given\n\n%s", usage_eval);
    free(args);
    free(exprs);
    return EXIT_USAGE;
  }
  tfr_arena *a = tfr_arena_new();
  if (o.functions)
    env.module = console_module(a, args, nargs, no_env, &o);
  /* Each expression in turn, in the same scope; "-" stands for the lines
  ** of standard input, one expression each. */
  bool all = true;
  for (size_t i = 0; i < nexprs; i++) {
    if (strcmp(exprs[i], "-") != 0) {
      all &= eval_one(exprs[i], &env, &o);
      continue;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
      if (line[n - 1] == '\n')
        line[n - 1] = '\0';
      all &= eval_one(line, &env, &o);
    }
    free(line);
  }
  tfr_arena_free(a);
  free(args);
  free(exprs);
  return all ? EXIT_OK : EXIT_INVALID;
}

/* How many brackets the text leaves open (outside strings), so that an
** expression can span lines as in Terraform's console. */
static int open_brackets(const char *s) {
  int depth = 0;
  bool in_str = false;
  for (; *s; s++) {
    if (in_str) {
      if (*s == '\\' && s[1])
        s++;
      else if (*s == '"')
        in_str = false;
    } else if (*s == '"') {
      in_str = true;
    } else if (*s == '#' || (*s == '/' && s[1] == '/')) {
      break;
    } else if (*s == '(' || *s == '[' || *s == '{') {
      depth++;
    } else if (*s == ')' || *s == ']' || *s == '}') {
      depth--;
    }
  }
  return depth;
}

/* What the console's "help" prints. */
static const char console_help[] =
    "The console evaluates expressions: try var.NAME, local.NAME or a "
    "function call such as upper(\"x\").  \"exit\" leaves.\n";

/* Standard input that is not a terminal, as Terraform's console reads it
** (console.go's modePiped): each line one expression (surrounding white
** space trimmed); the first error is shown and ends the run with status
** 1; "exit" ends it with status 0 and nothing printed; at the end of the
** input only the last line's result is printed (an empty line's is an
** empty line). */
static int console_piped(struct eval_env *env, const struct options *o) {
  char *line = NULL, *last = NULL;
  size_t cap = 0;
  ssize_t n;
  int status = EXIT_OK;
  bool done = false;
  while (!done && (n = getline(&line, &cap, stdin)) > 0) {
    char *t = line, *end = line + n;
    while (end > t && strchr(" \t\n\v\f\r", end[-1]))
      *--end = '\0';
    while (*t && strchr(" \t\n\v\f\r", *t))
      t++;
    char *result = NULL;
    if (!strcmp(t, "exit")) {
      done = true;
      free(last);
      last = NULL;
      continue;
    }
    if (!*t || !strcmp(t, "help")) {
      result = strdup(*t ? console_help : "\n");
    } else {
      size_t size = 0;
      env->out = open_memstream(&result, &size);
      env->yaml_docs = 0; /* one value shown: no stream of documents */
      bool ok = env->out && eval_one(t, env, o);
      if (env->out)
        fclose(env->out);
      env->out = NULL;
      if (!ok) { /* what eval_one wrote (-format=json's error) */
        if (result)
          fputs(result, stdout);
        free(result);
        status = EXIT_INVALID;
        done = true;
        free(last);
        last = NULL;
        continue;
      }
    }
    free(last);
    last = result;
  }
  fputs(last ? last : done ? "" : "\n", stdout);
  free(last);
  free(line);
  return status;
}

static int cmd_console(int argc, char **argv) {
  struct options o = {0};
  struct eval_env env = {0};
  struct tfr_cli_arg *args = calloc((size_t)argc + 1, sizeof *args);
  size_t nargs = 0;
  bool no_env = false;
  const char *dir = NULL;
  size_t ndirs = 0;
  o.functions = true;
  env.name = "<console-input>"; /* as Terraform's console names it */
  if (!eval_flags(argc, argv, true, &o, &env, args, &nargs, &no_env, &dir,
                  &ndirs) ||
      (dir && chdir(dir) != 0)) {
    if (dir)
      fprintf(stderr, "tfresolve: cannot change directory to %s\n", dir);
    free(args);
    return EXIT_USAGE;
  }
  tfr_arena *a = tfr_arena_new();
  env.module = console_module(a, args, nargs, no_env, &o);
  bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  if (!isatty(STDIN_FILENO)) {
    int status = console_piped(&env, &o);
    tfr_arena_free(a);
    free(args);
    return status;
  }
  bool last = true;
  char *line = NULL, *expr = NULL;
  size_t cap = 0, len = 0;
  ssize_t n;
  for (;;) {
    if (tty) { /* line editing and history (libedit) */
      free(line);
      line = readline(len ? ". " : "> ");
      cap = 0;
      if (!line)
        break;
      n = (ssize_t)strlen(line);
    } else if ((n = getline(&line, &cap, stdin)) <= 0) {
      break;
    }
    if (n && line[n - 1] == '\n')
      line[--n] = '\0';
    expr = realloc(expr, len + (size_t)n + 2);
    memcpy(expr + len, line, (size_t)n + 1);
    len += (size_t)n;
    if (open_brackets(expr) > 0) {
      expr[len++] = '\n';
      expr[len] = '\0';
      continue;
    }
    const char *t = expr;
    while (*t == ' ' || *t == '\t')
      t++;
    if (tty && *t)
      add_history(expr);
    if (!strcmp(t, "exit")) {
      len = 0;
      break;
    }
    if (!strcmp(t, "help"))
      fputs(console_help, stdout);
    else if (*t)
      last = eval_one(expr, &env, &o);
    len = 0;
  }
  if (len && strspn(expr, " \t\n") < len)
    last = eval_one(expr, &env, &o); /* cut short by the end of input */
  if (tty)
    fputc('\n', stdout);
  free(line);
  free(expr);
  tfr_arena_free(a);
  free(args);
  return last ? EXIT_OK : EXIT_INVALID;
}

/* ---- show command ------------------------------------------------------ */

static const char usage_module[] =
    "Usage: tfresolve show [options] [DIR]\n"
    "       tfresolve check [options] [DIR]\n"
    "       tfresolve explain [options] NAME... [DIR]\n"
    "       tfresolve explain [options] -all [DIR]\n"
    "\n"
    "Resolve every input variable of the module in DIR (default: the current\n"
    "directory) as `terraform plan` would.  show prints them; check prints\n"
    "only the diagnostics and says whether the inputs are valid; explain\n"
    "tells the whole story of one variable: every source that tried to set\n"
    "it, in precedence order, which one won and why, and the conversion.\n"
    "\n"
    "Options:\n"
    "  -var 'NAME=VALUE'   Set a variable (repeatable; order matters)\n"
    "  -var-file=FILE      Load variable values from FILE (repeatable)\n"
    "  -chdir=DIR          Work in DIR (relative -var-file paths too)\n"
    "  -no-env             Ignore TF_VAR_*, TF_CLI_ARGS and TF_CLI_ARGS_plan\n"
    "  -json               Machine-readable output (doc/json-format.md;\n"
    "                      explain: each variable's whole story)\n"
    "  -all                explain: every variable (and every child\n"
    "                      instance's)\n"
    "  -format=F           show: human, json, yaml, tfvars (a variables file)\n"
    "                      or env (export TF_VAR_... lines); check: human,\n"
    "                      json, sarif (SARIF 2.1.0), github (workflow\n"
    "                      commands) or junit (JUnit XML)\n"
    "  -engine=E           terraform (default) or opentofu (.tofu files)\n"
    "  -strict             Stricter than Terraform: values for undeclared\n"
    "                      variables in files are errors, and so is every\n"
    "                      object attribute a variable's type drops\n"
    "                      (misspelt ones); a -var or TF_VAR_\n"
    "                      value of an any-typed variable that is not valid\n"
    "                      HCL is explained\n"
    "  -var-file-each=GLOB check: check the module once per matching var\n"
    "                      file (repeatable), in parallel, with a summary\n"
    "  -recursive          check: every module below DIR, each with its own\n"
    "                      tfvars\n"
    "  -no-modules         The root module alone: module blocks are not\n"
    "                      followed into child modules\n"
    "  -missing-required=info\n"
    "                      A required variable without a value is a\n"
    "                      warning, not an error (reusable modules: the\n"
    "                      caller sets it); the rest is checked\n"
    "  -changed            show: only the variables set to something other\n"
    "                      than their default\n"
    "  -required           show: only the variables without a default, and\n"
    "                      whether each is set\n"
    "  -show-sensitive     Print the values of sensitive variables\n"
    "  -no-color           No colour\n"
    "\n"
    "terraform plan's options that change no value (-out, -target,\n"
    "-refresh, -parallelism, -lock...) are accepted and change nothing.\n"
    "TF_CLI_ARGS_plan and TF_CLI_ARGS come before the arguments, as in\n"
    "Terraform.\n"
    "\n"
    "Exit status: 0 valid, 1 invalid inputs, 2 usage error.\n";

void cli_show_json(tfr_arena *a, const struct tfr_resolution *res,
                   const tfr_diags *d, bool show_sensitive) {
  tfr_resolution_write_json(stdout, a, res, d, show_sensitive);
}

/* show -changed: a variable something sets (a value, or its preview,
** unlike its default; or one without a default that is set). */
static bool is_changed(const struct tfr_variable *v, void *ctx) {
  (void)ctx;
  if (v->source == TFR_SRC_DEFAULT || v->source == TFR_SRC_NONE)
    return false;
  const tfr_value *val = v->value ? v->value : v->preview;
  return !(val && v->default_value && tfr_value_equal(val, v->default_value));
}

/* show -required: a variable without a default. */
static bool is_required(const struct tfr_variable *v, void *ctx) {
  (void)ctx;
  return !v->default_value;
}

/* One variable of the human table: name, value, type and source (ind:
** the indentation of a child instance's). */
static void show_variable(tfr_arena *a, const struct tfr_variable *v,
                          bool show_sensitive, bool mark_required,
                          const char *ind) {
  /* plan's value, or (when plan stops before it) the preview */
  const tfr_value *shown = v->value ? v->value : v->preview;
  bool hidden = shown && v->sensitive && !show_sensitive;
  /* a required variable no source sets ("No value for required
  ** variable"): its error is that it is not set */
  bool unset = !shown && v->error && v->source == TFR_SRC_NONE &&
               !v->default_value && !v->preview_error;
  printf("%s%s = ", ind, v->name);
  if (shown && !hidden && !*ind) /* written as it is made: it may be large */
    tfr_value_write_console(stdout, a, shown);
  else if (shown && !hidden) /* a child's: its lines indented */
    for (const char *p = tfr_value_console(a, shown); *p; p++) {
      putchar(*p);
      if (*p == '\n' && p[1])
        fputs(ind, stdout);
    }
  else
    fputs(hidden ? "(sensitive value)"
          : v->preview_error
              ? tfr_arena_printf(a, "(would fail: %s)",
                                 cli_preview_failure(a, v->preview_error))
          : unset ? "(not set)" /* the whole story */
                  : "(not resolved: see the errors below)",
          stdout);
  const char *src =
      unset ? NULL
            : cli_source_text(a, v->source, v->source_file, v->source_line,
                              v->name, v->source_via);
  printf("\n%s    # %s%s%s%s\n", ind,
         tfr_type_friendly(a, shown ? shown->type : v->type),
         src ? ", from " : "", src ? src : "",
         !mark_required || v->default_value ? (src ? "" : ", not set")
         : !src                             ? " (required: not set)"
                                            : " (required: set)");
  if (!v->value && (v->preview || v->preview_error))
    printf("%s    # preview only: %s\n", ind, v->reason);
}

/* The human table: the root's variables, then each child instance's
** under its address. */
static void show_table(tfr_arena *a, const struct tfr_resolution *res,
                       bool show_sensitive, bool mark_required) {
  for (size_t i = 0; i < res->n; i++)
    show_variable(a, tfr_resolution_variable(res, i), show_sensitive,
                  mark_required, "");
  for (size_t i = 0; res->tree && i < res->ninstances; i++) {
    const struct tfr_instance *in = tfr_resolution_instance(res, i);
    printf("\n%s (%s)%s\n", in->address, in->source,
           in->n ? ":" : ": no variables");
    for (size_t k = 0; k < in->n; k++)
      show_variable(a, tfr_instance_variable(in, k), show_sensitive,
                    mark_required, "  ");
  }
}

enum module_cmd { CMD_SHOW, CMD_CHECK, CMD_EXPLAIN };

struct module_opts {
  struct options o;
  bool show_sensitive, no_env, opentofu, strict, recursive;
  bool no_modules; /* -no-modules: the root module alone */
  char **each;     /* -var-file-each patterns */
  size_t neach;
  const char *dir, *bad_flag;
  const char **names; /* explain: the variables named */
  size_t nnames;
  bool all; /* explain -all */
  bool dir_given;
  bool changed, required; /* show -changed, -required */
  bool missing_info;      /* -missing-required=info */
  struct tfr_cli_arg *args;
  size_t nargs;
  struct cli_names plan_flags; /* terraform plan's, accepted (plan_flag) */
  const char *extra;           /* an operand too many */
};

/* terraform plan's options that change no variable's value, accepted so
** that a plan command line works unchanged: 1 for those that take a value
** (as "=" or the next argument, as Go's flag package reads them). */
static const struct {
  const char *name;
  bool takes_value;
} plan_flags[] = {
    {"compact-warnings", false},
    {"destroy", false},
    {"detailed-exitcode", false},
    {"exclude", true},
    {"generate-config-out", true},
    {"input", false},
    {"lock", false},
    {"lock-timeout", true},
    {"out", true},
    {"parallelism", true},
    {"refresh", false},
    {"refresh-only", false},
    {"replace", true},
    {"state", true},
    {"target", true},
};

/* Option name (argv[*i]) if it is one of plan_flags: CLI_OPT_TAKEN (*i
** past its value), CLI_OPT_BAD (its value is missing), or CLI_OPT_NOT. */
static enum cli_opt plan_flag(const char *name, const char *val, int argc,
                              char **argv, int *i) {
  for (size_t k = 0; k < sizeof plan_flags / sizeof *plan_flags; k++) {
    if (strcmp(name, plan_flags[k].name))
      continue;
    if (plan_flags[k].takes_value && !val) {
      if (*i + 1 >= argc) {
        fprintf(stderr, "tfresolve: %s needs a value\n\n%s", argv[*i],
                usage_module);
        return CLI_OPT_BAD;
      }
      ++*i;
    }
    return CLI_OPT_TAKEN;
  }
  return CLI_OPT_NOT;
}

/* The flags show, check and explain share; false on a usage error. */
static bool module_flags(int argc, char **argv, enum module_cmd cmd,
                         struct module_opts *m) {
  m->dir = ".";
  m->args = calloc((size_t)argc + 1, sizeof *m->args);
  m->names = calloc((size_t)argc + 1, sizeof *m->names);
  if (!m->args || !m->names)
    cli_oom();
  const struct cli_common cc = {cmd == CMD_SHOW    ? "show"
                                : cmd == CMD_CHECK ? "check"
                                                   : "explain",
                                usage_module,
                                &m->o.no_color,
                                &m->opentofu,
                                &m->no_env,
                                &m->show_sensitive,
                                m->args,
                                &m->nargs};
  struct cli_arg arg;
  bool bad_opt = false; /* a common option was bad (and said so) */
  for (int i = 0; cli_own(&cc, argc, argv, &i, &arg, &bad_opt); i++) {
    const char *name = arg.name, *val = arg.val;
    enum cli_opt r;
    if (!name) {
      if (cmd == CMD_EXPLAIN)
        m->names[m->nnames++] = argv[i]; /* the last may be DIR: below */
      else if (!m->dir_given)
        m->dir = argv[i], m->dir_given = true;
      else if (!m->extra)
        m->extra = argv[i];
    } else if (!strcmp(name, "var-file-each") && cmd == CMD_CHECK) {
      if (!val && i + 1 >= argc) {
        fprintf(stderr, "tfresolve: %s needs a value\n\n%s", argv[i],
                usage_module);
        return false;
      }
      if (!m->each)
        m->each = calloc((size_t)argc + 1, sizeof *m->each);
      m->each[m->neach++] = (char *)(val ? val : argv[++i]);
    } else if (!strcmp(name, "all") && !val && cmd == CMD_EXPLAIN) {
      m->all = true;
    } else if (!strcmp(name, "recursive") && cmd == CMD_CHECK) {
      m->recursive = true;
    } else if (!strcmp(name, "strict")) {
      m->strict = true;
    } else if (!strcmp(name, "no-modules") && !val) {
      m->no_modules = true;
    } else if (!strcmp(name, "missing-required") && val &&
               (!strcmp(val, "info") || !strcmp(val, "error"))) {
      m->missing_info = !strcmp(val, "info");
    } else if (!strcmp(name, "changed") && cmd == CMD_SHOW) {
      m->changed = true;
    } else if (!strcmp(name, "required") && cmd == CMD_SHOW) {
      m->required = true;
    } else if (!strcmp(name, "json") ||
               (!strcmp(name, "format") && val && !strcmp(val, "json"))) {
      m->o.format = FMT_JSON;
    } else if (!strcmp(name, "format") && val && !strcmp(val, "human")) {
      m->o.format = FMT_HUMAN;
    } else if (!strcmp(name, "format") && val &&
               (!strcmp(val, "sarif") || !strcmp(val, "github") ||
                !strcmp(val, "junit")) &&
               cmd == CMD_CHECK) {
      m->o.format = !strcmp(val, "sarif")    ? FMT_SARIF
                    : !strcmp(val, "github") ? FMT_GITHUB
                                             : FMT_JUNIT;
    } else if (!strcmp(name, "format") && val &&
               (!strcmp(val, "yaml") || !strcmp(val, "tfvars") ||
                !strcmp(val, "env")) &&
               cmd == CMD_SHOW) {
      m->o.format = !strcmp(val, "yaml")     ? FMT_YAML
                    : !strcmp(val, "tfvars") ? FMT_TFVARS
                                             : FMT_ENV;
    } else if ((r = plan_flag(name, val, argc, argv, &i)) != CLI_OPT_NOT) {
      if (r == CLI_OPT_BAD)
        return false;
      bool seen = false;
      for (size_t k = 0; k < m->plan_flags.n; k++)
        seen |= !strcmp(m->plan_flags.v[k], name);
      if (!seen)
        cli_names_add(&m->plan_flags, name);
    } else if (!m->bad_flag) {
      m->bad_flag = argv[i];
    }
  }
  if (bad_opt)
    return false;
  /* explain NAME... [DIR]: a last operand that is a directory is DIR
  ** (with -all, the only operand) */
  struct stat st;
  if (cmd == CMD_EXPLAIN && m->nnames && (m->all || m->nnames > 1) &&
      stat(m->names[m->nnames - 1], &st) == 0 && S_ISDIR(st.st_mode))
    m->dir = m->names[--m->nnames], m->dir_given = true;
  if (cmd == CMD_EXPLAIN && m->all && m->nnames) {
    fprintf(stderr, "tfresolve explain: -all or names, not both\n\n%s",
            usage_module);
    return false;
  }
  if (cmd == CMD_EXPLAIN && !m->nnames && !m->all) {
    fprintf(stderr, "tfresolve explain: which variable?\n\n%s", usage_module);
    return false;
  }
  if (m->extra) {
    fprintf(stderr, "tfresolve %s: too many arguments: \"%s\" (one %s)\n\n%s",
            cc.cmd, m->extra,
            cmd == CMD_EXPLAIN ? "variable name and one module directory"
                               : "module directory",
            usage_module);
    return false;
  }
  return cli_module_dir_ok(cc.cmd, m->dir);
}

static int cmd_module(enum module_cmd cmd, int argc, char **argv) {
  struct module_opts m = {0};
  bool ok = module_flags(argc, argv, cmd, &m);
  if (ok && m.plan_flags.n) {
    fputs("tfresolve: note: ", stderr);
    for (size_t i = 0; i < m.plan_flags.n; i++)
      fprintf(stderr, "%s-%s", i ? ", " : "", m.plan_flags.v[i]);
    fputs(": options of terraform plan that change no variable's value, so "
          "nothing here (no plan is written, no state is read)\n",
          stderr);
  }
  cli_names_free(&m.plan_flags);
  if (!ok) {
    free(m.args);
    free(m.names);
    return EXIT_USAGE;
  }
  if ((m.neach || m.recursive) && !m.bad_flag) {
    struct many_opts mo = {&m.o,
                           m.dir,
                           m.no_env ? NULL : environ,
                           m.args,
                           m.nargs,
                           m.opentofu,
                           m.strict,
                           m.show_sensitive,
                           (const char *const *)m.each,
                           m.neach,
                           m.recursive,
                           m.missing_info,
                           !m.no_modules,
                           NULL};
    int rc = cli_check_many(&mo);
    free(m.args);
    free(m.names);
    free(m.each);
    return rc;
  }
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  ro.dir = m.dir;
  ro.env = m.no_env ? NULL : environ;
  ro.args = m.args;
  ro.nargs = m.nargs;
  ro.opentofu = m.opentofu;
  ro.declarations_only = m.bad_flag != NULL;
  ro.strict = m.strict;
  ro.tree = !m.no_modules;
  ro.missing_required_info = m.missing_info;
  ro.keep_given = cmd == CMD_EXPLAIN; /* it shows the conversion */
  /* explain tells the whole story: the attributes the type drops too,
  ** as warnings (-strict: errors); the verdict stays Terraform's */
  ro.warn_dropped = cmd == CMD_EXPLAIN;
  if (m.bad_flag) {
    /* as Terraform: the variables are listed, none is resolved */
    tfr_diags_add(
        d, TFR_DIAG_ERROR, NULL, "Failed to parse command-line flags",
        tfr_arena_printf(a, "flag provided but not defined: %s", m.bad_flag));
  }
  const struct tfr_resolution *res = tfr_resolve(a, d, &ro);
  int rc = res->valid ? EXIT_OK : EXIT_INVALID;
  if (m.changed)
    res = tfr_resolution_select(a, res, is_changed, NULL);
  if (m.required)
    res = tfr_resolution_select(a, res, is_required, NULL);
  if (cmd == CMD_EXPLAIN) {
    rc = cli_explain(a, res, d, m.names, m.nnames, m.all, m.show_sensitive,
                     &m.o);
  } else if (m.o.format == FMT_JSON) {
    cli_show_json(a, res, d, m.show_sensitive);
  } else if (m.o.format == FMT_SARIF || m.o.format == FMT_GITHUB ||
             m.o.format == FMT_JUNIT) {
    struct report_env env = {NULL, res, d};
    report_write(stdout, m.o.format, &env, 1);
  } else if (m.o.format == FMT_YAML || m.o.format == FMT_TFVARS ||
             m.o.format == FMT_ENV) {
    cli_show_values(a, res, m.o.format, m.show_sensitive);
    cli_print_diags(d, &m.o);
  } else {
    if (cmd == CMD_SHOW)
      show_table(a, res, m.show_sensitive, m.required);
    cli_print_diags(d, &m.o);
    if (cmd == CMD_CHECK) {
      size_t errors = 0;
      for (size_t i = 0; i < tfr_diags_count(d); i++)
        errors += tfr_diags_get(d, i)->sev == TFR_DIAG_ERROR;
      size_t deferred = 0, nchild = 0;
      for (size_t i = 0; i < res->n; i++) {
        const struct tfr_variable *v = tfr_resolution_variable(res, i);
        for (size_t k = 0; k < v->nrules; k++)
          deferred += tfr_variable_rule(v, k)->result == TFR_RULE_DEFERRED;
      }
      for (size_t i = 0; i < res->ninstances; i++) {
        const struct tfr_instance *in = tfr_resolution_instance(res, i);
        nchild += in->n;
        for (size_t j = 0; j < in->n; j++) {
          const struct tfr_variable *v = tfr_instance_variable(in, j);
          for (size_t k = 0; k < v->nrules; k++)
            deferred += tfr_variable_rule(v, k)->result == TFR_RULE_DEFERRED;
        }
      }
      const char *children =
          res->ninstances
              ? tfr_arena_printf(a, " (and %zu in %zu module instance%s)",
                                 nchild, res->ninstances,
                                 res->ninstances == 1 ? "" : "s")
              : "";
      const char *also =
          deferred ? tfr_arena_printf(a,
                                      "; %zu validation rule%s deferred "
                                      "(known only after apply)",
                                      deferred, deferred == 1 ? "" : "s")
                   : "";
      if (res->valid)
        printf("Success! %zu variable%s resolved%s, all valid%s.\n", res->n,
               res->n == 1 ? "" : "s", children, also);

      else
        printf("%zu error%s%s.\n", errors, errors == 1 ? "" : "s", also);
    }
  }
  if (m.bad_flag) {
    rc = EXIT_USAGE;
    if (m.o.format != FMT_JSON)
      fprintf(stderr, "\n%s", usage_module);
  }
  tfr_arena_free(a);
  free(m.args);
  free(m.names);
  free(m.each);
  return rc;
}

/* Large tfvars files are mapped (see the library's src/syntax/source.c): a file
** cut short by another program while it is read would end the process
** with SIGBUS.  Say what happened instead. */
static void on_sigbus(int sig) {
  static const char msg[] =
      "tfresolve: a file became shorter while it was being read (another "
      "program changed it); run tfresolve again\n";
  (void)sig;
  ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)w;
  _exit(EXIT_INVALID);
}

/*
** -max-memory=SIZE, accepted by every command (before "--"): the memory
** budget of values (tfr_set_memory_budget), in bytes or with a K, M, G or
** T suffix (powers of 1024; "B" or "iB" may follow).  Removed from argv;
** the new argc, or -1 after a usage error.
*/
static int take_max_memory(int argc, char **argv) {
  int out = 1;
  bool rest = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--"))
      rest = true;
    const char *v = NULL;
    if (!rest &&
        (!strncmp(a, "-max-memory=", 12) || !strncmp(a, "--max-memory=", 13)))
      v = strchr(a, '=') + 1;
    if (!v) {
      argv[out++] = argv[i];
      continue;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    int shift = 0;
    switch (*end) {
    case 'K':
    case 'k':
      shift = 10;
      end++;
      break;
    case 'M':
    case 'm':
      shift = 20;
      end++;
      break;
    case 'G':
    case 'g':
      shift = 30;
      end++;
      break;
    case 'T':
    case 't':
      shift = 40;
      end++;
      break;
    default:
      break;
    }
    if (shift && !strcmp(end, "iB"))
      end += 2;
    else if (*end == 'B')
      end++;
    if (!isdigit((unsigned char)*v) || *end || errno || n == 0 ||
        n > (SIZE_MAX >> shift)) {
      fprintf(stderr,
              "tfresolve: -max-memory: invalid size \"%s\" (a "
              "number of bytes, or with K, M, G or T: 512M, 4G)\n",
              v);
      return -1;
    }
    tfr_set_memory_budget((size_t)(n << shift));
  }
  argv[out] = NULL;
  return out;
}

static int real_main(int argc, char **argv) {
  argc = take_max_memory(argc, argv);
  if (argc < 0)
    return EXIT_USAGE;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigbus;
  sigaction(SIGBUS, &sa, NULL);
  char buf[64];
  const char *val = NULL;
  /* Terraform's global -chdir=DIR, before the command: everything after
  ** (relative -var-file paths too) happens in DIR */
  while (argc >= 2 && !strncmp(argv[1], "-chdir=", 7)) {
    const char *dir = argv[1] + 7;
    if (!*dir || chdir(dir) != 0) {
      fprintf(stderr, "tfresolve: error handling -chdir option: chdir %s: %s\n",
              dir, *dir ? strerror(errno) : "no directory given");
      return EXIT_USAGE;
    }
    argv[1] = argv[0];
    argc--;
    argv++;
  }
  if (argc < 2) {
    fputs(usage_main, stderr);
    return EXIT_USAGE;
  }
  const char *name = cli_opt_name(argv[1], buf, sizeof buf, &val);
  if (name && (!strcmp(name, "version") || !strcmp(name, "v"))) {
    /* the semantics followed: Terraform's, of this version */
    printf("tfresolve %s (commit %s)\n"
           "Follows the input-variable semantics of Terraform 1.16 and, with "
           "-engine=opentofu, OpenTofu 1.12\n"
           "(value sources and precedence, type constraints and conversion, "
           "validation rules, built-in functions).\n"
           "Built with %s, libedit %s, jansson %s.\n",
           tfr_version(), TFR_COMMIT, tfr_library_versions(),
           TFR_LIBEDIT_VERSION, jansson_version_str());
    return EXIT_OK;
  }
  if (name && (!strcmp(name, "help") || !strcmp(name, "h"))) {
    fputs(usage_main, stdout);
    return EXIT_OK;
  }
  /* Terraform's extra arguments from the environment, for the commands
  ** that stand for one of Terraform's */
  const char *tfcmd = !strcmp(argv[1], "show") || !strcmp(argv[1], "check") ||
                              !strcmp(argv[1], "explain")
                          ? "plan"
                      : !strcmp(argv[1], "console") ? "console"
                      : !strcmp(argv[1], "test")    ? "test"
                                                    : NULL;
  if (tfcmd && !cli_merge_env_args(&argc, &argv, tfcmd))
    return EXIT_USAGE;
  if (!strcmp(argv[1], "parse"))
    return cmd_parse(argc - 2, argv + 2);
  if (!strcmp(argv[1], "eval"))
    return cmd_eval(argc - 2, argv + 2);
  if (!strcmp(argv[1], "console"))
    return cmd_console(argc - 2, argv + 2);
  if (!strcmp(argv[1], "init"))
    return cmd_init(argc - 2, argv + 2);
  if (!strcmp(argv[1], "test"))
    return cmd_test(argc - 2, argv + 2);
  if (!strcmp(argv[1], "show"))
    return cmd_module(CMD_SHOW, argc - 2, argv + 2);
  if (!strcmp(argv[1], "check"))
    return cmd_module(CMD_CHECK, argc - 2, argv + 2);
  if (!strcmp(argv[1], "explain"))
    return cmd_module(CMD_EXPLAIN, argc - 2, argv + 2);
  if (!strcmp(argv[1], "diff"))
    return cmd_diff(argc - 2, argv + 2);
  if (!strcmp(argv[1], "lsp"))
    return cmd_lsp(argc - 2, argv + 2);
  static const char *const commands[] = {"show", "check", "explain", "diff",
                                         "lsp",  "eval",  "console", "init",
                                         "test", "parse"};
  const char *near =
      tfr_suggest_name(argv[1], commands, sizeof commands / sizeof *commands);
  fprintf(stderr, "tfresolve: unknown command \"%s\"", argv[1]);
  if (near)
    fprintf(stderr, ". Did you mean \"%s\"?", near);
  fprintf(stderr, "\n\n%s", usage_main);
  return EXIT_USAGE;
}

int main(int argc, char **argv) {
  /* the library's out-of-memory path ends the run like the CLI's own */
  tfr_set_oom_handler(cli_oom);
  return cli_run_with_stack(real_main, argc, argv);
}
