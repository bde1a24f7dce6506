/*
** tfresolve docs [DIR]: Markdown of the module's inputs and outputs --
** name, type as written (optional attributes' defaults included),
** default, required, description, and each validation rule in words with
** its error message -- on stdout; with -var-file-each=GLOB, a table of
** each variable's value in each environment (sensitive ones hidden).
**
** -write puts it into DIR/README.md between terraform-docs' markers, as
** its inject mode does (internal/cli/writer.go:62-160 at terraform-docs
** b17ec1b; the block is print/config.go:210's template, the begin
** marker, the content and the end marker, one a line): README.md missing
** or empty, the block is the whole file; neither marker in it, the block
** is appended after a newline; a begin marker without an end marker, an
** end marker without a begin one, or the end before the begin, an error
** and nothing written.  -check does the same but writes nothing: exit
** status 1 when README.md would change (terraform-docs' --output-check).
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_util.h"
#include "iface_out.h"
#include "options.h"

static const char BEGIN[] = "<!-- BEGIN_TF_DOCS -->";
static const char END[] = "<!-- END_TF_DOCS -->";

/* ---- Markdown ----------------------------------------------------------- */

/* s in a table cell: | escaped, newlines as <br>. */
static void cell(struct cli_buf *b, const char *s) {
  for (; s && *s; s++) {
    if (*s == '|')
      cli_buf_puts(b, "\\|");
    else if (*s == '\n')
      cli_buf_puts(b, "<br>");
    else if (*s != '\r')
      cli_buf_put(b, s, 1);
  }
}

/* Code in a cell: `x` on one line; several lines in <pre>, HTML-escaped. */
static void code(struct cli_buf *b, const char *s) {
  if (!strchr(s, '\n') && !strchr(s, '`')) {
    cli_buf_puts(b, "`");
    cell(b, s);
    cli_buf_puts(b, "`");
    return;
  }
  cli_buf_puts(b, "<pre>");
  for (; *s; s++) {
    if (*s == '<')
      cli_buf_puts(b, "&lt;");
    else if (*s == '>')
      cli_buf_puts(b, "&gt;");
    else if (*s == '&')
      cli_buf_puts(b, "&amp;");
    else if (*s == '|')
      cli_buf_puts(b, "&#124;");
    else if (*s == '\n')
      cli_buf_puts(b, "<br>");
    else if (*s != '\r')
      cli_buf_put(b, s, 1);
  }
  cli_buf_puts(b, "</pre>");
}

/* A condition in code on one line: each run of spaces and newlines one
** space. */
static void condition_code(tfr_arena *a, struct cli_buf *b, const char *c) {
  char *one = tfr_arena_alloc(a, strlen(c) + 1), *o = one;
  for (; *c; c++) {
    bool space = *c == '\n' || *c == '\t' || *c == '\r' || *c == ' ';
    if (space && o > one && o[-1] == ' ')
      continue;
    *o++ = space || *c == '`' ? ' ' : *c;
  }
  *o = '\0';
  cli_buf_puts(b, "`");
  cell(b, one);
  cli_buf_puts(b, "`");
}

/* The rules of v, each in words (or its condition) with its message.  A
** sensitive variable's conditions are not shown: they may hold the
** secret (a literal it is compared with), and check does not quote
** their source either; nor is a message that is an expression. */
static void rules(tfr_arena *a, struct cli_buf *b,
                  const struct tfr_iface_variable *v) {
  for (size_t i = 0; i < v->nrules; i++) {
    const struct tfr_iface_rule *r = tfr_iface_variable_rule(v, i);
    cli_buf_puts(b, i ? "<br>" : "");
    const char *words = v->sensitive ? NULL : iface_rule_words(a, r);
    if (v->sensitive)
      cli_buf_puts(b, "(a rule of a sensitive variable)");
    else if (words)
      cell(b, words);
    else
      condition_code(a, b, r->condition ? r->condition : "");
    cli_buf_puts(b, " \u2014 "); /* an em dash, then the message */
    if (r->message)
      cell(b, r->message);
    else if (v->sensitive || !r->error_message)
      cli_buf_puts(b, "(its message is an expression)");
    else
      cell(b, r->error_message);
  }
}

/* A row's first cell: the name, linked to itself (KIND_NAME), as
** terraform-docs' markdown table writes it. */
static void anchor(struct cli_buf *b, const char *kind, const char *name) {
  const char *part[] = {"| <a name=\"", kind, "_", name, "\"></a> [", name,
                        "](#",          kind, "_", name, ") | "};
  for (size_t i = 0; i < sizeof part / sizeof *part; i++)
    cli_buf_puts(b, part[i]);
}

static void inputs(tfr_arena *a, struct cli_buf *b,
                   const struct tfr_interface *f) {
  cli_buf_puts(b, "## Inputs\n\n");
  if (!f->nvars) {
    cli_buf_puts(b, "No inputs.\n");
    return;
  }
  cli_buf_puts(b, "| Name | Description | Type | Default | Required | Rules "
                  "|\n|------|-------------|------|---------|:--------:|-----"
                  "--|\n");
  for (size_t i = 0; i < f->nvars; i++) {
    const struct tfr_iface_variable *v = tfr_interface_variable(f, i);
    anchor(b, "input", v->name);
    cell(b, v->description ? v->description : "n/a");
    cli_buf_puts(b, " | ");
    const char *type = iface_type_text(a, v, false);
    code(b, type ? type : "any");
    cli_buf_puts(b, " | ");
    if (!v->default_given)
      cli_buf_puts(b, "n/a");
    else if (v->sensitive)
      cli_buf_puts(b, "(sensitive)");
    else
      code(b, tfr_value_hcl_line(a, v->default_value ? v->default_value
                                                     : v->default_given));
    cli_buf_puts(b, v->required ? " | yes | " : " | no | ");
    rules(a, b, v);
    cli_buf_puts(b, " |\n");
  }
}

static void outputs(struct cli_buf *b, const struct tfr_interface *f) {
  cli_buf_puts(b, "\n## Outputs\n\n");
  if (!f->noutputs) {
    cli_buf_puts(b, "No outputs.\n");
    return;
  }
  cli_buf_puts(b, "| Name | Description | Sensitive |\n"
                  "|------|-------------|:---------:|\n");
  for (size_t i = 0; i < f->noutputs; i++) {
    const struct tfr_iface_output *o = tfr_interface_output(f, i);
    anchor(b, "output", o->name);
    cell(b, o->description ? o->description : "n/a");
    cli_buf_puts(b, o->sensitive ? " | yes |\n" : " | no |\n");
  }
}

/* The value of each variable in each environment. */
static void environments(tfr_arena *a, struct cli_buf *b,
                         const struct iface_run *r) {
  if (!r->nenvs)
    return;
  cli_buf_puts(b, "\n## Values per environment\n\n| Name |");
  for (size_t k = 0; k < r->nenvs; k++) {
    cli_buf_puts(b, " ");
    cell(b, r->envs[k].file);
    cli_buf_puts(b, " |");
  }
  cli_buf_puts(b, "\n|------|");
  for (size_t k = 0; k < r->nenvs; k++)
    cli_buf_puts(b, "------|");
  cli_buf_puts(b, "\n");
  for (size_t i = 0; i < r->f->nvars; i++) {
    const struct tfr_iface_variable *v = tfr_interface_variable(r->f, i);
    cli_buf_puts(b, "| ");
    cli_buf_puts(b, v->name);
    cli_buf_puts(b, " |");
    for (size_t k = 0; k < r->nenvs; k++) {
      const struct tfr_variable *rv =
          tfr_resolution_find(r->envs[k].res, v->name);
      cli_buf_puts(b, " ");
      if (!rv || !rv->value)
        cli_buf_puts(b, !rv || rv->source == TFR_SRC_NONE ? "(no value)"
                                                          : "(invalid)");
      else if (rv->sensitive || v->sensitive)
        cli_buf_puts(b, "(sensitive)");
      else
        code(b, tfr_value_hcl_line(a, rv->value));
      cli_buf_puts(b, " |");
    }
    cli_buf_puts(b, "\n");
  }
}

static char *markdown(const struct iface_run *r) {
  struct cli_buf b = {0};
  inputs(r->a, &b, r->f);
  outputs(&b, r->f);
  environments(r->a, &b, r);
  return b.p ? b.p : cli_strdup("");
}

/* ---- README.md ---------------------------------------------------------- */

static char *read_all(const char *path, size_t *len, bool *missing) {
  FILE *f = fopen(path, "rb");
  *missing = !f && errno == ENOENT;
  if (!f)
    return NULL;
  struct cli_buf b = {0};
  cli_buf_read(&b, f);
  fclose(f);
  *len = b.p ? strlen(b.p) : 0;
  return b.p ? b.p : cli_strdup("");
}

/* What README.md should hold (writer.go's Write and inject), or NULL
** after a message. */
static char *injected(const char *path, const char *content,
                      const char *block) {
  size_t len = 0;
  bool missing;
  char *old = read_all(path, &len, &missing);
  if (!old && !missing) {
    fprintf(stderr, "tfresolve docs: cannot read %s: %s\n", path,
            strerror(errno));
    return NULL;
  }
  struct cli_buf b = {0};
  const char *begin = old ? strstr(old, BEGIN) : NULL;
  const char *end = old ? strstr(old, END) : NULL;
  const char *bad = NULL;
  if (!old || !len) {
    cli_buf_puts(&b, block);
  } else if (!begin && !end) {
    cli_buf_puts(&b, old);
    cli_buf_puts(&b, "\n");
    cli_buf_puts(&b, block);
  } else if (!begin) {
    bad = "begin comment is missing";
  } else if (!end) {
    bad = "end comment is missing";
  } else if (end < begin) {
    bad = "end comment is before begin comment";
  } else {
    cli_buf_put(&b, old, (size_t)(begin - old));
    cli_buf_puts(&b, block);
    cli_buf_puts(&b, end + strlen(END));
  }
  (void)content;
  free(old);
  if (bad) {
    fprintf(stderr, "tfresolve docs: %s: %s (%s ... %s)\n", path, bad, BEGIN,
            END);
    free(b.p);
    return NULL;
  }
  return b.p ? b.p : cli_strdup("");
}

/* path replaced whole: a new file in its directory (its mode the old
** file's), renamed over it, so that a full disk leaves it as it was. */
static int write_file(const char *path, const char *text) {
  char *tmp = cli_alloc(strlen(path) + 32);
  sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
  struct stat st;
  mode_t mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : 0644;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, mode);
  FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
  bool ok = f && fputs(text, f) >= 0;
  ok = f && fclose(f) == 0 && ok;
  if (!f && fd >= 0)
    close(fd);
  ok = ok && rename(tmp, path) == 0;
  if (!ok) {
    fprintf(stderr, "tfresolve docs: cannot write %s: %s\n", path,
            strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return ok ? EXIT_OK : EXIT_USAGE;
}

static int to_readme(const struct cli_opts *co, const char *dir,
                     const char *md) {
  char *path = cli_path_join(dir, "README.md");
  size_t n = strlen(BEGIN) + strlen(md) + strlen(END) + 3;
  char *block = cli_alloc(n);
  snprintf(block, n, "%s\n%s\n%s", BEGIN, md, END);
  char *want = injected(path, md, block);
  int rc = EXIT_USAGE;
  if (want) {
    size_t len = 0;
    bool missing;
    char *old = read_all(path, &len, &missing);
    bool same = old && !strcmp(old, want);
    free(old);
    if (co->check) {
      printf("%s is %s\n", path, same ? "up to date" : "out of date");
      rc = same ? EXIT_OK : EXIT_INVALID;
    } else {
      rc = same ? EXIT_OK : write_file(path, want);
      if (rc == EXIT_OK)
        printf("%s %s\n", path, same ? "is up to date" : "updated");
    }
  }
  free(want);
  free(block);
  free(path);
  return rc;
}

static int run(struct cli_opts *co) {
  const char *dir = iface_dir_operand(co);
  if (!dir)
    return EXIT_USAGE;
  if (co->write && co->check)
    return cli_usage_error(co->cmd, "-write and -check do not go together");
  const char **files = NULL;
  size_t nfiles = 0;
  if (!iface_var_files(co->each.v, co->each.n, &files, &nfiles))
    return EXIT_USAGE;
  struct iface_run r = {0};
  int rc = EXIT_OK;
  if (!iface_load(&r, dir, co->o.opentofu, files, nfiles)) {
    cli_print_diags(r.d, &co->o);
    rc = EXIT_INVALID;
  } else {
    char *md = markdown(&r);
    if (co->write || co->check)
      rc = to_readme(co, dir, md);
    else
      fputs(md, stdout);
    free(md);
  }
  for (size_t i = 0; i < nfiles; i++)
    free((char *)files[i]);
  free(files);
  tfr_arena_free(r.a);
  return rc;
}

static const struct cli_option options[] = {
    CLI_OPT_FLAG("write", write,
                 "Put the Markdown into DIR/README.md between <!-- "
                 "BEGIN_TF_DOCS --> and <!-- END_TF_DOCS --> (terraform-docs' "
                 "inject mode; appended with the markers when README.md has "
                 "neither)",
                 CLI_NOVAL),
    CLI_OPT_FLAG("check", check,
                 "Write nothing: exit status 1 when README.md is out of date "
                 "(what -write would change)",
                 CLI_NOVAL),
    CLI_OPT_LIST("var-file-each", "GLOB", each,
                 "Add a table of each variable's value in each environment: "
                 "one var file each of the files GLOB matches (repeatable; "
                 "sensitive values hidden)"),
    CLI_OPT_INCLUDE(cli_opts_dir_end), CLI_OPT_END};

const struct cli_command cli_cmd_docs = {
    .name = "docs",
    .summary = "Markdown of the module's inputs, outputs and their rules",
    .run = run,
    .options = options,
    .usage =
        "Usage: tfresolve docs [options] [DIR]\n"
        "\n"
        "Print Markdown of the inputs and outputs of the module in DIR\n"
        "(default: the current directory): each input's name, description,\n"
        "type as written (with optional attributes' defaults), default,\n"
        "whether it is required, and its validation rules in words with\n"
        "their error messages.  Sensitive defaults are never printed.\n"
        "With -write, into DIR/README.md between terraform-docs' markers;\n"
        "with -check, exit status 1 when README.md is out of date.\n",
    .footer = "Exit status: 0 printed (or README.md up to date or written), "
              "1 the module\n"
              "does not load or (-check) README.md is out of date, 2 usage "
              "error or\n"
              "README.md cannot be read, has a marker without its pair, or "
              "cannot be written.\n"};
