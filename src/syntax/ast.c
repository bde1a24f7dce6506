/*
** Generic AST access and the JSON dump used by `tfresolve parse -ast`.
*/
#include "syntax/ast.h"

#include <stdio.h>
#include <string.h>

#include "base/json_out.h"

static const char *const kind_names[] = {
    [AST_NUMBER] = "number",     [AST_BOOL] = "bool",
    [AST_NULL] = "null",         [AST_STRING] = "string",
    [AST_TEMPLATE] = "template", [AST_TIF] = "template_if",
    [AST_TFOR] = "template_for", [AST_VARIABLE] = "variable",
    [AST_GETATTR] = "getattr",   [AST_INDEX] = "index",
    [AST_SPLAT] = "splat",       [AST_SPLAT_ITEM] = "splat_item",
    [AST_CALL] = "call",         [AST_TUPLE] = "tuple",
    [AST_OBJECT] = "object",     [AST_FOR] = "for",
    [AST_UNARY] = "unary",       [AST_BINARY] = "binary",
    [AST_COND] = "conditional",  [AST_PAREN] = "paren",
    [AST_BODY] = "body",         [AST_ATTR] = "attribute",
    [AST_BLOCK] = "block",
};

static const char *const op_names[] = {
    [OP_NONE] = "",  [OP_NOT] = "!", [OP_NEG] = "-", [OP_OR] = "||",
    [OP_AND] = "&&", [OP_EQ] = "==", [OP_NE] = "!=", [OP_LT] = "<",
    [OP_LE] = "<=",  [OP_GT] = ">",  [OP_GE] = ">=", [OP_ADD] = "+",
    [OP_SUB] = "-",  [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%",
};

const char *ast_kind_name(enum ast_kind k) {
  return k <= AST_BLOCK ? kind_names[k] : "?";
}

const char *ast_op_name(enum ast_op op) {
  return op <= OP_MOD ? op_names[op] : "?";
}

/* Kinds whose first word is a child list (items/n, 2n for objects). */
static uint32_t list_len(const struct ast *x) {
  switch (x->kind) {
  case AST_TUPLE:
  case AST_TEMPLATE:
  case AST_BODY:
  case AST_CALL:
    return x->n;
  case AST_OBJECT:
    return 2 * x->n;
  default:
    return 0;
  }
}

/* Kinds whose first word is a single child (a). */
static bool has_a(const struct ast *x) {
  switch (x->kind) {
  case AST_UNARY:
  case AST_PAREN:
  case AST_INDEX:
  case AST_SPLAT:
  case AST_BINARY:
  case AST_COND:
    return true;
  default:
    return false;
  }
}

uint32_t ast_child_count(const struct ast *x) {
  return list_len(x) + (has_a(x) ? 1 : 0) +
         (uint32_t)ast_nkids((enum ast_kind)x->kind);
}

struct ast *ast_child(const struct ast *x, uint32_t i) {
  uint32_t n = list_len(x);
  if (i < n)
    return x->items[i];
  i -= n;
  if (has_a(x)) {
    if (i == 0)
      return x->a;
    i--;
  }
  return x->kids[i];
}

/* ---- dump -------------------------------------------------------------- */

struct dumper {
  struct src_file *src;
  FILE *out;
};

static void dump(struct dumper *d, const struct ast *x, int ind);

static void range(struct dumper *d, struct span s) {
  struct tfr_pos a = src_pos(d->src, s.start), b = src_pos(d->src, s.end);
  fprintf(d->out, "\"%d:%d-%d:%d\"", a.line, a.column, b.line, b.column);
}

static void newline(struct dumper *d, int ind) {
  fputc('\n', d->out);
  for (int i = 0; i < ind; i++)
    fputs("  ", d->out);
}

static void field(struct dumper *d, int ind, const char *name) {
  fputc(',', d->out);
  newline(d, ind);
  fprintf(d->out, "\"%s\": ", name);
}

static void dump_list(struct dumper *d, struct ast *const *v, uint32_t n,
                      int ind) {
  fputc('[', d->out);
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      fputc(',', d->out);
    newline(d, ind + 1);
    dump(d, v[i], ind + 1);
  }
  if (n)
    newline(d, ind);
  fputc(']', d->out);
}

static void dump_str(struct dumper *d, const struct ast *x) {
  if (x)
    json_write_string(d->out, x->str, x->n);
  else
    fputs("null", d->out);
}

/* x's first n kids as fields of these names, the first nstr of them
** names (strings). */
static void dump_kids(struct dumper *d, const struct ast *x, int ind,
                      const char *const *names, int n, int nstr) {
  for (int i = 0; i < n; i++) {
    field(d, ind, names[i]);
    if (i < nstr)
      dump_str(d, x->kids[i]);
    else
      dump(d, x->kids[i], ind);
  }
}

/* x's name, then its kid under the field name kid. */
static void dump_named(struct dumper *d, const struct ast *x, int ind,
                       const char *kid) {
  field(d, ind, "name");
  dump_str(d, x);
  field(d, ind, kid);
  dump(d, x->kids[0], ind);
}

static void dump_object(struct dumper *d, const struct ast *x, int ind) {
  field(d, ind, "items");
  fputc('[', d->out);
  for (uint32_t i = 0; i < x->n; i++) {
    fputs(i ? "," : "", d->out);
    newline(d, ind + 1);
    fputs("{\"key\": ", d->out);
    dump(d, x->items[2 * i], ind + 2);
    fputs(",", d->out);
    newline(d, ind + 2);
    fputs("\"value\": ", d->out);
    dump(d, x->items[2 * i + 1], ind + 2);
    fputc('}', d->out);
  }
  if (x->n)
    newline(d, ind);
  fputc(']', d->out);
}

/* Fields of each kind, after "kind" and "range".  (Longer than a screen:
** one short case per node kind, the dump format read as a table.) */
static void dump_fields(struct dumper *d, const struct ast *x, int ind) {
  static const char *const for_names[] = {"key_var", "value_var", "collection",
                                          "key",     "value",     "condition"};
  static const char *const tfor_names[] = {"key_var", "value_var", "collection",
                                           "body"};
  static const char *const tif_names[] = {"condition", "then", "else"};
  switch (x->kind) {
  case AST_NUMBER:
  case AST_STRING:
  case AST_VARIABLE:
    field(d, ind, x->kind == AST_VARIABLE ? "name" : "value");
    dump_str(d, x);
    if (x->flags & AST_F_HEREDOC)
      fputs(", \"heredoc\": true", d->out);
    break;
  case AST_BOOL:
    field(d, ind, "value");
    fputs(x->flags & AST_F_TRUE ? "true" : "false", d->out);
    break;
  case AST_TEMPLATE:
  case AST_TUPLE:
  case AST_BODY:
    field(d, ind, x->kind == AST_TEMPLATE ? "parts" : "items");
    dump_list(d, x->items, x->n, ind);
    break;
  case AST_OBJECT:
    dump_object(d, x, ind);
    break;
  case AST_CALL:
    field(d, ind, "name");
    dump_str(d, x->kids[0]);
    if (x->flags & AST_F_EXPAND)
      fputs(", \"expand_final\": true", d->out);
    field(d, ind, "args");
    dump_list(d, x->items, x->n, ind);
    break;
  case AST_GETATTR:
    dump_named(d, x, ind, "object");
    break;
  case AST_INDEX:
    if (x->flags & AST_F_LEGACY)
      fputs(", \"legacy\": true", d->out);
    field(d, ind, "collection");
    dump(d, x->a, ind);
    field(d, ind, "key");
    dump(d, x->kids[0], ind);
    break;
  case AST_SPLAT:
    fprintf(d->out, ", \"full\": %s", x->flags & AST_F_FULL ? "true" : "false");
    field(d, ind, "source");
    dump(d, x->a, ind);
    field(d, ind, "each");
    dump(d, x->kids[0], ind);
    break;
  case AST_UNARY:
  case AST_BINARY:
    fprintf(d->out, ", \"op\": \"%s\"", ast_op_name(x->op));
    field(d, ind, x->kind == AST_UNARY ? "operand" : "left");
    dump(d, x->a, ind);
    if (x->kind == AST_BINARY) {
      field(d, ind, "right");
      dump(d, x->kids[0], ind);
    }
    break;
  case AST_COND:
    field(d, ind, "condition");
    dump(d, x->a, ind);
    field(d, ind, "true");
    dump(d, x->kids[0], ind);
    field(d, ind, "false");
    dump(d, x->kids[1], ind);
    break;
  case AST_PAREN:
    field(d, ind, "expr");
    dump(d, x->a, ind);
    break;
  case AST_FOR:
    fprintf(d->out, ", \"object\": %s, \"group\": %s",
            x->flags & AST_F_OBJECT ? "true" : "false",
            x->flags & AST_F_GROUP ? "true" : "false");
    dump_kids(d, x, ind, for_names, 6, 2);
    break;
  case AST_TFOR:
    dump_kids(d, x, ind, tfor_names, 4, 2);
    break;
  case AST_TIF:
    dump_kids(d, x, ind, tif_names, 3, 0);
    break;
  case AST_ATTR:
    dump_named(d, x, ind, "value");
    break;
  case AST_BLOCK: {
    const struct ast *labels = x->kids[0];
    field(d, ind, "type");
    dump_str(d, x);
    field(d, ind, "labels");
    fputc('[', d->out);
    for (uint32_t i = 0; i < labels->n; i++) {
      fputs(i ? ", " : "", d->out);
      dump_str(d, labels->items[i]);
    }
    fputc(']', d->out);
    field(d, ind, "body");
    dump(d, x->kids[1], ind);
    break;
  }
  default:
    break;
  }
}

static void dump(struct dumper *d, const struct ast *x, int ind) {
  if (!x) {
    fputs("null", d->out);
    return;
  }
  fprintf(d->out, "{\"kind\": \"%s\", \"range\": ",
          ast_kind_name((enum ast_kind)x->kind));
  range(d, x->span);
  dump_fields(d, x, ind + 1);
  fputc('}', d->out);
}

void ast_dump_json(struct ast_file *f, FILE *out) {
  struct dumper d = {f->src, out};
  dump(&d, f->body, 0);
  fputc('\n', out);
}

bool ast_json_comment(const struct ast *key) {
  return key->n == 2 && !memcmp(key->str, "//", 2);
}

struct span ast_json_start(const struct ast *x) {
  if (x->kind == AST_OBJECT || x->kind == AST_TUPLE)
    return (struct span){x->span.start, x->span.start + 1};
  return x->span;
}

const struct ast *const *ast_json_blocks(const struct ast *x,
                                         const struct ast **one, size_t *n) {
  *one = x;
  if (x->kind != AST_TUPLE) {
    *n = 1;
    return one;
  }
  *n = x->n;
  return (const struct ast *const *)x->items;
}

void ast_json_members(struct json_members *it, const struct ast *x) {
  *it = (struct json_members){0};
  it->objs = ast_json_blocks(x, &it->one, &it->n);
}

bool ast_json_next(struct json_members *it) {
  for (; it->i < it->n; it->i++, it->j = 0) {
    const struct ast *o = it->objs[it->i];
    if (o->kind != AST_OBJECT)
      continue;
    while (it->j < o->n) {
      const struct ast *k = o->items[2 * it->j];
      const struct ast *v = o->items[2 * it->j + 1];
      it->j++;
      if (ast_json_comment(k))
        continue;
      it->key = k;
      it->value = v;
      it->obj = o;
      return true;
    }
  }
  return false;
}
