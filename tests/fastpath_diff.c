/*
** The fast paths against the general ones: each module directory given
** is resolved twice, with the fast paths (configuration files read block
** by block, tfvars values read by src/module/fastval.c: as show and check run)
** and without them (files parsed whole, values evaluated: keep_given, as
** explain runs), and everything the user can see must be the same:
** validity, every variable's value (cty JSON), type, source and line,
** and every diagnostic.  Each directory is compared twice: as show runs,
** and with warn_dropped (as check and explain run: the fast path tells
** which values drop an attribute their object type does not declare, so
** that only those are looked at again).  Prints one line per difference,
** then "N passed, M failed".
**
**   fastpath_diff DIR...
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module/module.h"
#include "render/render.h"
#include "tfresolve/tfresolve.h"

static char *json_of(tfr_arena *a, const tfr_value *v) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    abort();
  if (v)
    render_json_value(f, a, v);
  else
    fputs("(none)", f);
  fclose(f);
  return buf;
}

static bool same_str(const char *x, const char *y) {
  return (!x && !y) || (x && y && !strcmp(x, y));
}

static bool same_range(const struct tfr_range *x, const struct tfr_range *y) {
  return same_str(x->filename, y->filename) && x->start.line == y->start.line &&
         x->start.column == y->start.column && x->start.byte == y->start.byte &&
         x->end.line == y->end.line && x->end.column == y->end.column &&
         x->end.byte == y->end.byte;
}

static int differences;

static void differ(const char *dir, const char *what, const char *fast,
                   const char *slow) {
  differences++;
  printf("%s: %s differs\n  fast path:    %.300s\n  general path: %.300s\n",
         dir, what, fast ? fast : "(null)", slow ? slow : "(null)");
}

static void compare(tfr_arena *a, const char *dir,
                    const struct tfr_resolution *f, const tfr_diags *fd,
                    const struct tfr_resolution *s, const tfr_diags *sd) {
  if (f->valid != s->valid)
    differ(dir, "validity", f->valid ? "valid" : "invalid",
           s->valid ? "valid" : "invalid");
  if (f->n != s->n) {
    differ(dir, "variable count", "", "");
    return;
  }
  for (size_t i = 0; i < f->n; i++) {
    const struct tfr_variable *x = tfr_resolution_variable(f, i);
    const struct tfr_variable *y = tfr_resolution_variable(s, i);
    char *jx = json_of(a, x->value), *jy = json_of(a, y->value);
    const char *what = tfr_arena_printf(a, "var.%s", x->name);
    if (strcmp(jx, jy) ||
        (x->value && y->value && !tfr_value_equal(x->value, y->value)))
      differ(dir, tfr_arena_printf(a, "%s value", what), jx, jy);
    free(jx);
    free(jy);
    const char *tx = tfr_type_expr(a, x->type), *ty = tfr_type_expr(a, y->type);
    if (strcmp(tx, ty))
      differ(dir, tfr_arena_printf(a, "%s type", what), tx, ty);
    if (x->error != y->error || x->source != y->source ||
        x->source_line != y->source_line ||
        !same_str(x->source_file, y->source_file) ||
        x->nattempts != y->nattempts)
      differ(
          dir, tfr_arena_printf(a, "%s source", what),
          tfr_arena_printf(a, "error=%d source=%d %s:%d attempts=%zu", x->error,
                           x->source, x->source_file ? x->source_file : "",
                           x->source_line, x->nattempts),
          tfr_arena_printf(a, "error=%d source=%d %s:%d attempts=%zu", y->error,
                           y->source, y->source_file ? y->source_file : "",
                           y->source_line, y->nattempts));
    for (size_t k = 0; k < x->nattempts && k < y->nattempts; k++) {
      const struct tfr_attempt *p = tfr_variable_attempt(x, k);
      const struct tfr_attempt *q = tfr_variable_attempt(y, k);
      if (p->line != q->line || p->won != q->won || p->failed != q->failed ||
          p->text_len != q->text_len || memcmp(p->text, q->text, p->text_len))
        differ(dir, tfr_arena_printf(a, "%s attempt %zu", what, k + 1),
               tfr_arena_printf(a, "line %d won=%d failed=%d %.*s", p->line,
                                p->won, p->failed, (int)p->text_len, p->text),
               tfr_arena_printf(a, "line %d won=%d failed=%d %.*s", q->line,
                                q->won, q->failed, (int)q->text_len, q->text));
    }
  }
  size_t nf = tfr_diags_count(fd), ns = tfr_diags_count(sd);
  for (size_t i = 0; i < nf || i < ns; i++) {
    const struct tfr_diag *x = i < nf ? tfr_diags_get(fd, i) : NULL;
    const struct tfr_diag *y = i < ns ? tfr_diags_get(sd, i) : NULL;
    char rx[512] = "", ry[512] = "";
    if (x)
      tfr_range_format(&x->subject, rx, sizeof rx);
    if (y)
      tfr_range_format(&y->subject, ry, sizeof ry);
    if (!x || !y || x->sev != y->sev || !same_str(x->summary, y->summary) ||
        !same_str(x->detail, y->detail) ||
        !same_str(x->variable, y->variable) ||
        !same_range(&x->subject, &y->subject))
      differ(dir, tfr_arena_printf(a, "diagnostic %zu", i + 1),
             x ? tfr_arena_printf(a, "%s: %s: %s", rx, x->summary,
                                  x->detail ? x->detail : "")
               : "(none)",
             y ? tfr_arena_printf(a, "%s: %s: %s", ry, y->summary,
                                  y->detail ? y->detail : "")
               : "(none)");
  }
}

int main(int argc, char **argv) {
  int passed = 0, failed = 0;
  for (int j = 0; j < 2 * (argc - 1); j++) {
    int i = 1 + j / 2;
    tfr_arena *a = tfr_arena_new();
    tfr_diags *fd = tfr_diags_new(a), *sd = tfr_diags_new(a);
    struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
    o.dir = argv[i];
    o.warn_dropped = j % 2 == 1;
    module_whole_files = false;
    const struct tfr_resolution *f = tfr_resolve(a, fd, &o);
    o.keep_given = true;
    module_whole_files = true;
    const struct tfr_resolution *s = tfr_resolve(a, sd, &o);
    int before = differences;
    compare(a, argv[i], f, fd, s, sd);
    if (differences == before)
      passed++;
    else
      failed++;
    tfr_arena_free(a);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
