/*
** show -format=plan-json, check -format=plan-json: the resolution as a
** document shaped as Terraform's plan JSON where the two overlap, so that
** the policies written against a plan's input variables (OPA, conftest,
** checkov...) run before any plan.  Ported field by field from
** Terraform's internal/command/jsonplan/plan.go (the document and its
** "variables") and internal/command/jsonconfig/config.go and
** expression.go (its "configuration"); what only tfresolve knows (the
** values every module instance's variables resolve to, where each came
** from, what is unknown) is under "tfresolve".  doc/json-format.md
** describes it; sensitive values are left out unless -show-sensitive,
** where Terraform writes them in clear.
*/
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_module.h"
#include "tfresolve/interface.h"

/* What every writer needs. */
struct pj {
  tfr_arena *a;
  const struct tfr_resolution *res;
  bool show; /* -show-sensitive */
  FILE *out;
  /* every module of the configuration, once a call path */
  const struct tfr_instance *cfg;
  size_t ncfg;
};

static void key(struct pj *p, bool *first, const char *k, const char *ind) {
  fprintf(p->out, "%s\n%s", *first ? "" : ",", ind);
  *first = false;
  tfr_json_write_cstr(p->out, k);
  fputs(": ", p->out);
}

/* The end of an object whose members were at indentation ind. */
static void close_obj(struct pj *p, bool first, const char *ind) {
  if (first)
    fputc('}', p->out);
  else
    fprintf(p->out, "\n%.*s}", (int)strlen(ind) - 1, ind);
}

/* A value, or nothing (false) when JSON cannot carry it (an infinite
** number: ctyjson fails there, and Terraform writes no plan). */
static bool can_write(const tfr_value *v) {
  return v && tfr_value_is_wholly_known(v) && tfr_value_json_encodable(v);
}

/* plan.go:60-81 `variables` (plan.go:357-408): each root variable the
** caller set, its value as the caller gave it (before conversion, as
** context_plan.go:407-434 stores it), and the default of each one not
** set (plan.go:373-402).  An ephemeral variable's value is not stored
** (context_plan.go:395-405), so it has its default, set or not (the
** loop of plan.go:390-402 does not look at ephemeral).  Terraform
** writes a sensitive value in
** clear; here its member is {} (`value` is omitempty, plan.go:193)
** unless -show-sensitive. */
static void plan_variables(struct pj *p) {
  bool first = true;
  for (size_t i = 0; i < p->res->n; i++) {
    const struct tfr_variable *v = tfr_resolution_variable(p->res, i);
    bool set = v->source != TFR_SRC_NONE && v->source != TFR_SRC_DEFAULT &&
               !v->ephemeral;
    const tfr_value *val =
        set ? (v->given ? v->given : v->value) : v->default_value;
    if (!can_write(val))
      continue;
    if (first) /* plan.go:404-406: no member when there are none */
      fputs("\n \"variables\": {", p->out);
    key(p, &first, v->name, "  ");
    if (v->sensitive && !p->show) {
      fputs("{}", p->out);
      continue;
    }
    fputs("{\"value\": ", p->out);
    tfr_value_write_json(p->out, p->a, val);
    fputc('}', p->out);
  }
  if (!first)
    fputs("\n },", p->out);
}

/* config.go:62-67 and 395-415: a module's variables, each with its
** default (left out of a sensitive one unless -show-sensitive, where
** Terraform writes it), description and sensitive as declared (child:
** a child instance's variables, whose sensitive may come from a value). */
static void config_variables(struct pj *p, const struct tfr_variable *const *v,
                             size_t n, bool child, const char *ind) {
  bool first = true;
  fputs("{", p->out);
  for (size_t i = 0; i < n; i++) {
    bool secret = child ? v[i]->declared_sensitive : v[i]->sensitive;
    key(p, &first, v[i]->name, ind);
    const char *sep = "";
    fputc('{', p->out);
    if (v[i]->default_value && (!secret || p->show) &&
        can_write(v[i]->default_value)) {
      fputs("\"default\": ", p->out);
      tfr_value_write_json(p->out, p->a, v[i]->default_value);
      sep = ", ";
    }
    if (v[i]->description && *v[i]->description) {
      fprintf(p->out, "%s\"description\": ", sep);
      tfr_json_write_cstr(p->out, v[i]->description);
      sep = ", ";
    }
    if (secret)
      fprintf(p->out, "%s\"sensitive\": true", sep);
    fputc('}', p->out);
  }
  close_obj(p, first, ind);
}

/* expression.go:39-87: an expression as {"constant_value": V} when it
** evaluates with no variables and no functions (a .tf.json value always:
** its strings as written, tfr_expr_constant_value), and {"references":
** [...]}, each reference then its shorter forms.  hide: the value of a
** sensitive variable, whose constant is left out unless -show-sensitive. */
static void expression(struct pj *p, const tfr_file *e, bool hide) {
  const tfr_value *v = tfr_expr_constant_value(p->a, e);
  const char *sep = "";
  fputc('{', p->out);
  if (can_write(v) && !hide) {
    fputs("\"constant_value\": ", p->out);
    tfr_value_write_json(p->out, p->a, v);
    sep = ", ";
  }
  size_t n;
  const char **refs = tfr_expr_references(p->a, e, &n);
  if (n) {
    fprintf(p->out, "%s\"references\": [", sep);
    for (size_t i = 0; i < n; i++) {
      fputs(i ? ", " : "", p->out);
      tfr_json_write_cstr(p->out, refs[i]);
    }
    fputc(']', p->out);
  }
  fputc('}', p->out);
}

/* The call path of the module that makes call (a call path: "module.a"
** in "module.a.module.b"; "" for the root's calls). */
static size_t parent_len(const char *call) {
  size_t len = 0;
  for (const char *s = strstr(call, ".module."); s;
       s = strstr(s + 1, ".module."))
    len = (size_t)(s - call);
  return len;
}

static void module_body(struct pj *p, const char *path,
                        const struct tfr_instance *in, const char *ind);

/* config.go:454-466: the call's depends_on, each reference's subject
** (tfr_resolution_config_depends_on); omitempty (config.go:58). */
static void depends_on(struct pj *p, size_t i, const char *ind) {
  size_t n;
  const char *const *deps = tfr_resolution_config_depends_on(p->res, i, &n);
  if (!n)
    return;
  fprintf(p->out, ",\n%s\"depends_on\": [", ind);
  for (size_t k = 0; k < n; k++) {
    fputs(k ? ", " : "", p->out);
    tfr_json_write_cstr(p->out, deps[k]);
  }
  fputc(']', p->out);
}

/* config.go:51-59 and 412-469: the i-th module of the configuration
** (tfr_resolution_config_modules) as its call: source, the arguments
** that set the child's variables, count or for_each, the child module,
** version, depends_on. */
static void module_call(struct pj *p, size_t i, const char *ind) {
  const struct tfr_instance *in = &p->cfg[i];
  const char *in2 = tfr_arena_printf(p->a, "%s ", ind);
  fputs("{\"source\": ", p->out);
  tfr_json_write_cstr(p->out, in->source);
  bool first = true;
  for (size_t k = 0; k < in->n; k++) {
    const struct tfr_variable *v = tfr_instance_variable(in, k);
    if (!v->arg_expr)
      continue;
    if (first)
      fprintf(p->out, ",\n%s\"expressions\": {", ind);
    key(p, &first, v->name, in2);
    expression(p, v->arg_expr, v->sensitive && !p->show);
  }
  if (!first)
    fprintf(p->out, "\n%s}", ind);
  /* config.go:440-448: left out when it is neither constant nor
  ** refers to anything (toset(["a"])) */
  const tfr_file *rep = in->count_expr ? in->count_expr : in->for_each_expr;
  size_t nrefs = 0;
  const tfr_value *cv = rep ? tfr_expr_constant_value(p->a, rep) : NULL;
  if (rep)
    tfr_expr_references(p->a, rep, &nrefs);
  if (rep && (nrefs || can_write(cv))) {
    fprintf(p->out, ",\n%s\"%s_expression\": ", ind,
            in->count_expr ? "count" : "for_each");
    expression(p, rep, false);
  }
  fprintf(p->out, ",\n%s\"module\": ", ind);
  module_body(p, in->call, in, in2);
  /* config.go:427 writes the parsed constraint's String(), which is the
  ** text as written: go-version's constraint.go keeps each
  ** comma-separated part's original and joins them with "," again */
  if (in->version) {
    fprintf(p->out, ",\n%s\"version_constraint\": ", ind);
    tfr_json_write_cstr(p->out, in->version);
  }
  depends_on(p, i, ind);
  fputc('}', p->out);
}

/* A module of the configuration (call path path; in: it as the
** configuration has it, NULL for the root): its module calls -- every
** one the configuration has, whatever its instances (config.go:401-410
** walks the configuration's calls: count = 0 and for_each = {} too) --
** then its variables, as config.go:40-48 orders them. */
static void module_body(struct pj *p, const char *path,
                        const struct tfr_instance *in, const char *ind) {
  size_t plen = strlen(path);
  bool first = true;
  fputc('{', p->out);
  for (size_t i = 0; i < p->ncfg; i++) {
    const struct tfr_instance *c = &p->cfg[i];
    if (parent_len(c->call) != plen || strncmp(c->call, path, plen))
      continue;
    if (first)
      fprintf(p->out, "\n%s\"module_calls\": {", ind);
    key(p, &first, strrchr(c->call, '.') + 1,
        tfr_arena_printf(p->a, "%s ", ind));
    module_call(p, i, tfr_arena_printf(p->a, "%s  ", ind));
  }
  if (!first)
    close_obj(p, false, tfr_arena_printf(p->a, "%s ", ind));
  size_t n = in ? in->n : p->res->n;
  const struct tfr_variable **v =
      tfr_arena_alloc(p->a, (n ? n : 1) * sizeof *v);
  for (size_t k = 0; k < n; k++)
    v[k] =
        in ? tfr_instance_variable(in, k) : tfr_resolution_variable(p->res, k);
  if (n) {
    fprintf(p->out, "%s\n%s\"variables\": ", first ? "" : ",", ind);
    config_variables(p, v, n, in != NULL, tfr_arena_printf(p->a, "%s ", ind));
  }
  fputc('}', p->out);
}

/* ---- the tfresolve part ------------------------------------------------- */

/* A variable's address as Terraform writes it: var.NAME in the root,
** module.a["k"].var.NAME in an instance. */
static const char *var_address(tfr_arena *a, const struct tfr_instance *in,
                               const struct tfr_variable *v) {
  return in ? tfr_arena_printf(a, "%s.var.%s", in->address, v->name)
            : tfr_arena_printf(a, "var.%s", v->name);
}

/* The addresses of the variables whose values are left out, by why. */
struct pj_lists {
  const char **sensitive, **unknown, **unresolved;
  size_t nsensitive, nunknown, nunresolved;
};

/* v's resolved value as a member of an object (address addr), or its
** address in the list that says why there is none. */
static void resolved_value(struct pj *p, struct pj_lists *l, bool *first,
                           const struct tfr_variable *v, const char *addr,
                           const char *ind) {
  if (!v->value)
    l->unresolved[l->nunresolved++] = addr;
  else if (v->sensitive && !p->show)
    l->sensitive[l->nsensitive++] = addr;
  else if (!tfr_value_is_wholly_known(v->value))
    l->unknown[l->nunknown++] = addr;
  else if (tfr_value_json_encodable(v->value)) {
    key(p, first, v->name, ind);
    tfr_value_write_json(p->out, p->a, v->value);
  }
}

/* The variables of the root (in NULL) or of an instance, resolved. */
static void resolved_values(struct pj *p, struct pj_lists *l,
                            const struct tfr_instance *in, const char *ind) {
  bool first = true;
  size_t n = in ? in->n : p->res->n;
  fputc('{', p->out);
  for (size_t k = 0; k < n; k++) {
    const struct tfr_variable *v =
        in ? tfr_instance_variable(in, k) : tfr_resolution_variable(p->res, k);
    resolved_value(p, l, &first, v, var_address(p->a, in, v), ind);
  }
  close_obj(p, first, ind);
}

/* The child instances: address, call, source, directory and their
** variables' values. */
static void instances(struct pj *p, struct pj_lists *l) {
  bool first = true;
  fputs(",\n  \"modules\": {", p->out);
  for (size_t i = 0; i < p->res->ninstances; i++) {
    const struct tfr_instance *in = tfr_resolution_instance(p->res, i);
    key(p, &first, in->address, "   ");
    fputs("{\"call\": ", p->out);
    tfr_json_write_cstr(p->out, in->call);
    fputs(", \"source\": ", p->out);
    tfr_json_write_cstr(p->out, in->source);
    fputs(", \"dir\": ", p->out);
    tfr_json_write_cstr(p->out, in->dir);
    if (in->installed_version) { /* as terraform init installed it */
      fputs(", \"version\": ", p->out);
      tfr_json_write_cstr(p->out, in->installed_version);
    }
    fputs(",\n    \"variables\": ", p->out);
    resolved_values(p, l, in, "     ");
    fputc('}', p->out);
  }
  fputs(first ? "}" : "\n  }", p->out);
}

/* Where v's value came from: the source (a file and line), and for a
** module argument the references of its expression and the element of
** a root variable in a var file it took its value from. */
static void provenance(struct pj *p, const struct tfr_variable *v) {
  fputs("{\"kind\": ", p->out);
  tfr_json_write_cstr(p->out, tfr_source_kind_name(v->source));
  if (v->source_file) {
    fputs(", \"file\": ", p->out);
    tfr_json_write_cstr(p->out, v->source_file);
    fprintf(p->out, ", \"line\": %d", v->source_line);
  }
  if (v->source_via) {
    fputs(", \"via\": ", p->out);
    tfr_json_write_cstr(p->out, v->source_via);
  }
  size_t n = 0;
  const char **refs =
      v->arg_expr ? tfr_expr_references(p->a, v->arg_expr, &n) : NULL;
  if (n) {
    fputs(", \"references\": [", p->out);
    for (size_t i = 0; i < n; i++) {
      fputs(i ? ", " : "", p->out);
      tfr_json_write_cstr(p->out, refs[i]);
    }
    fputc(']', p->out);
  }
  if (v->from_element) {
    fputs(", \"element\": {\"address\": ", p->out);
    tfr_json_write_cstr(p->out, v->from_element);
    if (v->from_range.filename) {
      fputs(", \"file\": ", p->out);
      tfr_json_write_cstr(p->out, v->from_range.filename);
      fprintf(p->out, ", \"line\": %d", v->from_range.start.line);
    }
    fputc('}', p->out);
  }
  fputc('}', p->out);
}

/* Every variable's provenance, by address: the root's, then each
** instance's. */
static void provenances(struct pj *p) {
  bool first = true;
  fputs(",\n  \"provenance\": {", p->out);
  for (size_t i = 0; i <= p->res->ninstances; i++) {
    const struct tfr_instance *in =
        i ? tfr_resolution_instance(p->res, i - 1) : NULL;
    size_t n = in ? in->n : p->res->n;
    for (size_t k = 0; k < n; k++) {
      const struct tfr_variable *v = in ? tfr_instance_variable(in, k)
                                        : tfr_resolution_variable(p->res, k);
      key(p, &first, var_address(p->a, in, v), "   ");
      provenance(p, v);
    }
  }
  fputs(first ? "}" : "\n  }", p->out);
}

static void address_list(struct pj *p, const char *name, const char *const *v,
                         size_t n) {
  fprintf(p->out, ",\n  \"%s\": [", name);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ", " : "", p->out);
    tfr_json_write_cstr(p->out, v[i]);
  }
  fputc(']', p->out);
}

/* The module calls not checked, as show -json's "unchecked". */
static void unchecked(struct pj *p) {
  if (!p->res->nunchecked)
    return;
  fputs(",\n  \"unchecked\": [", p->out);
  for (size_t i = 0; i < p->res->nunchecked; i++) {
    const struct tfr_unchecked *u = tfr_resolution_unchecked(p->res, i);
    fputs(i ? ",\n   {\"module\": " : "\n   {\"module\": ", p->out);
    tfr_json_write_cstr(p->out, u->address);
    fprintf(p->out, ", \"reason\": \"%s\", \"why\": ",
            tfr_unchecked_reason_name(u->reason));
    tfr_json_write_cstr(p->out, u->why);
    fputs(", \"range\": ", p->out);
    tfr_range_write_json(p->out, &u->range);
    fputc('}', p->out);
  }
  fputs("]", p->out);
}

/* What only tfresolve knows, under "tfresolve". */
static void ours(struct pj *p, const tfr_diags *d) {
  size_t total = p->res->n + 1;
  for (size_t i = 0; i < p->res->ninstances; i++)
    total += tfr_resolution_instance(p->res, i)->n;
  struct pj_lists l = {0};
  l.sensitive = tfr_arena_alloc(p->a, total * sizeof *l.sensitive);
  l.unknown = tfr_arena_alloc(p->a, total * sizeof *l.unknown);
  l.unresolved = tfr_arena_alloc(p->a, total * sizeof *l.unresolved);
  fprintf(p->out,
          ",\n \"tfresolve\": {\n  \"format_version\": \"1.0\",\n"
          "  \"valid\": %s,\n  \"variables\": ",
          p->res->valid ? "true" : "false");
  resolved_values(p, &l, NULL, "   ");
  if (p->res->tree)
    instances(p, &l);
  provenances(p);
  address_list(p, "sensitive", l.sensitive, l.nsensitive);
  address_list(p, "unknown", l.unknown, l.nunknown);
  address_list(p, "unresolved", l.unresolved, l.nunresolved);
  unchecked(p);
  fputs(",\n  \"diagnostics\": ", p->out);
  tfr_diags_render_json(d, p->out);
  fputs("}", p->out);
}

void cli_plan_json(tfr_arena *a, const struct tfr_resolution *res,
                   const tfr_diags *d, bool show_sensitive) {
  struct pj p = {a, res, show_sensitive, stdout, NULL, 0};
  p.cfg = tfr_resolution_config_modules(res, &p.ncfg);
  /* plan.go:34 FormatVersion, 60-81: the members in its order */
  fputs("{\"format_version\": \"1.2\",", p.out);
  plan_variables(&p);
  fputs("\n \"configuration\": {\"root_module\": ", p.out);
  module_body(&p, "", NULL, "  ");
  /* plan.go:78-80: no plan is made, so none can be applied */
  fprintf(p.out,
          "},\n \"applyable\": false, \"complete\": false,"
          " \"errored\": %s",
          res->valid ? "false" : "true");
  ours(&p, d);
  fputs("}\n", p.out);
}
