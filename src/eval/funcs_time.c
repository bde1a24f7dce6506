/*
** Date and time functions: formatdate timeadd timecmp timestamp
** plantimestamp (timestamp is unknown during plan, as an impure function;
** plantimestamp is known during plan, unknown outside it, and no function
** at all in the console: funcs.c's in_scope).
**
** Timestamps are parsed the way Go's time.Parse reads the RFC 3339 layout
** "2006-01-02T15:04:05Z07:00" (Go 1.19, what Terraform's and cty's
** parseTimestamp call), including its leniencies (one-digit hours, any
** fraction of a second, offsets up to +99:99) and the ParseError fields
** that parseTimestamp turns into its messages.  The same layout engine
** reads the timestamps go-cty-yaml recognises in YAML (time_yaml_stamp).
** Durations follow time.ParseDuration; output follows Time.Format.
** Times are kept as Unix seconds + nanoseconds + the zone offset, which
** is all that Go's RFC 3339 output and formatdate's verbs depend on (a
** UTC offset is printed as "Z" whatever its zone, as Go does).
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "eval/funcs.h"
#include "values/number.h"
#include "base/strutil.h"

/* A parsed instant: Unix seconds, nanoseconds and the zone offset. */
struct gtime {
  int64_t sec;
  int32_t nsec;
  int32_t off; /* seconds east of UTC */
};

/* Broken-down local time of a gtime. */
struct civil {
  int64_t year;
  int month, day, hour, min, sec, wday;
};

/* ---- calendar ---------------------------------------------------------- */

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
static int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = floor_div(y, 400);
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static struct civil civil_of(const struct gtime *t) {
  struct civil c;
  int64_t local = t->sec + t->off;
  int64_t days = floor_div(local, 86400);
  int64_t secs = local - days * 86400;
  c.hour = (int)(secs / 3600);
  c.min = (int)(secs / 60 % 60);
  c.sec = (int)(secs % 60);
  c.wday = (int)(((days % 7) + 11) % 7); /* 1970-01-01 was a Thursday */
  int64_t z = days + 719468;
  int64_t era = floor_div(z, 146097);
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  c.day = (int)(doy - (153 * mp + 2) / 5 + 1);
  c.month = (int)(mp < 10 ? mp + 3 : mp - 9);
  c.year = yoe + era * 400 + (c.month <= 2);
  return c;
}

static bool is_leap(int64_t y) {
  return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static int days_in(int month, int64_t year) {
  static const int n[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : n[month - 1];
}

static const char *const month_names[] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};
static const char *const day_names[] = {"Sunday",    "Monday",   "Tuesday",
                                        "Wednesday", "Thursday", "Friday",
                                        "Saturday"};

/* ---- Go's time.Parse for a few layouts ---------------------------------- */

enum std {
  STD_END,
  STD_LONG_YEAR,   /* 2006 */
  STD_NUM_MONTH,   /* 1 */
  STD_ZERO_MONTH,  /* 01 */
  STD_DAY,         /* 2 */
  STD_ZERO_DAY,    /* 02 */
  STD_HOUR,        /* 15 */
  STD_MINUTE,      /* 4 */
  STD_ZERO_MINUTE, /* 04 */
  STD_SECOND,      /* 5 */
  STD_ZERO_SECOND, /* 05 */
  STD_FRAC9,       /* .999999999 */
  STD_TZ,          /* Z07:00 */
};

/* One element of a layout: literal text, then a std value. */
struct chunk {
  const char *prefix;
  enum std std;
  const char *stdstr;
};

static const struct chunk rfc3339[] = {
    {"", STD_LONG_YEAR, "2006"},  {"-", STD_ZERO_MONTH, "01"},
    {"-", STD_ZERO_DAY, "02"},    {"T", STD_HOUR, "15"},
    {":", STD_ZERO_MINUTE, "04"}, {":", STD_ZERO_SECOND, "05"},
    {"", STD_TZ, "Z07:00"},       {"", STD_END, ""}};

/* go-cty-yaml's allowedTimestampFormats. */
static const struct chunk yaml_t[] = {{"", STD_LONG_YEAR, "2006"},
                                      {"-", STD_NUM_MONTH, "1"},
                                      {"-", STD_DAY, "2"},
                                      {"T", STD_HOUR, "15"},
                                      {":", STD_MINUTE, "4"},
                                      {":", STD_SECOND, "5"},
                                      {"", STD_FRAC9, ".999999999"},
                                      {"", STD_TZ, "Z07:00"},
                                      {"", STD_END, ""}};
static const struct chunk yaml_lt[] = {{"", STD_LONG_YEAR, "2006"},
                                       {"-", STD_NUM_MONTH, "1"},
                                       {"-", STD_DAY, "2"},
                                       {"t", STD_HOUR, "15"},
                                       {":", STD_MINUTE, "4"},
                                       {":", STD_SECOND, "5"},
                                       {"", STD_FRAC9, ".999999999"},
                                       {"", STD_TZ, "Z07:00"},
                                       {"", STD_END, ""}};
static const struct chunk yaml_sp[] = {
    {"", STD_LONG_YEAR, "2006"},   {"-", STD_NUM_MONTH, "1"},
    {"-", STD_DAY, "2"},           {" ", STD_HOUR, "15"},
    {":", STD_MINUTE, "4"},        {":", STD_SECOND, "5"},
    {"", STD_FRAC9, ".999999999"}, {"", STD_END, ""}};
static const struct chunk yaml_date[] = {{"", STD_LONG_YEAR, "2006"},
                                         {"-", STD_NUM_MONTH, "1"},
                                         {"-", STD_DAY, "2"},
                                         {"", STD_END, ""}};

/* The fields of Go's time.ParseError that parseTimestamp looks at. */
struct perr {
  const char *layout_elem;
  const char *value_elem; /* points into the parsed string */
  size_t value_len;
  const char *message;
};

/* A string being consumed. */
struct cur {
  const char *p;
  size_t n;
};

static bool digit_at(struct cur v, size_t i) {
  return i < v.n && v.p[i] >= '0' && v.p[i] <= '9';
}

/* Go's getnum: one or two digits (fixed: exactly two). */
static bool getnum(struct cur *v, bool fixed, int *out) {
  if (!digit_at(*v, 0))
    return false;
  if (!digit_at(*v, 1)) {
    if (fixed)
      return false;
    *out = v->p[0] - '0';
    v->p++, v->n--;
    return true;
  }
  *out = (v->p[0] - '0') * 10 + (v->p[1] - '0');
  v->p += 2, v->n -= 2;
  return true;
}

/* Go's time.atoi: optional sign, then only digits (no overflow here:
** callers pass at most 4 characters). */
static bool go_atoi(const char *s, size_t n, int *out) {
  bool neg = false;
  if (n && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s++, n--;
  }
  int x = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9')
      return false;
    x = x * 10 + (s[i] - '0');
  }
  *out = neg ? -x : x;
  return true;
}

/* Go's skip: the literal prefix, a space matching any run of spaces. */
static bool skip_prefix(struct cur *v, const char *prefix) {
  while (*prefix) {
    if (*prefix == ' ') {
      if (v->n && v->p[0] != ' ')
        return false;
      while (*prefix == ' ')
        prefix++;
      while (v->n && v->p[0] == ' ')
        v->p++, v->n--;
      continue;
    }
    if (!v->n || v->p[0] != *prefix)
      return false;
    prefix++;
    v->p++, v->n--;
  }
  return true;
}

/* Parsed fields, before they become an instant. */
struct fields {
  int year, month, day, hour, min, sec, nsec;
  bool utc;
  int zone; /* -1: none */
};

/* Go's parseNanoseconds over the n bytes ".ddd" at p. */
static int parse_nanos(const char *p, size_t n) {
  if (n > 10)
    n = 10;
  int ns = 0;
  for (size_t i = 1; i < n; i++)
    ns = ns * 10 + (p[i] - '0');
  for (size_t i = n; i < 10; i++)
    ns *= 10;
  return ns;
}

/* The Z07:00 element: "Z" or a sign, two characters, ':', two more. */
static bool parse_zone(struct cur *v, struct fields *f) {
  if (v->n >= 1 && v->p[0] == 'Z') {
    v->p++, v->n--;
    f->utc = true;
    return true;
  }
  if (v->n < 6 || v->p[3] != ':')
    return false;
  const char *z = v->p;
  v->p += 6, v->n -= 6;
  int hr, mm;
  if (!go_atoi(z + 1, 2, &hr) || !go_atoi(z + 4, 2, &mm))
    return false;
  f->zone = (hr * 60 + mm) * 60;
  if (z[0] == '-')
    f->zone = -f->zone;
  else if (z[0] != '+')
    return false;
  return true;
}

/* One std element; false with *range set for an out-of-range value. */
static bool parse_std(struct cur *v, const struct chunk *c, struct fields *f,
                      const char **range) {
  switch (c->std) {
  case STD_LONG_YEAR:
    if (v->n < 4 || !digit_at(*v, 0))
      return false;
    v->p += 4, v->n -= 4;
    return go_atoi(v->p - 4, 4, &f->year);
  case STD_NUM_MONTH:
  case STD_ZERO_MONTH:
    if (!getnum(v, c->std == STD_ZERO_MONTH, &f->month))
      return false;
    if (f->month <= 0 || f->month > 12)
      *range = "month";
    return true;
  case STD_DAY:
  case STD_ZERO_DAY:
    return getnum(v, c->std == STD_ZERO_DAY, &f->day);
  case STD_HOUR:
    if (!getnum(v, false, &f->hour))
      return false;
    if (f->hour >= 24)
      *range = "hour";
    return true;
  case STD_MINUTE:
  case STD_ZERO_MINUTE:
    if (!getnum(v, c->std == STD_ZERO_MINUTE, &f->min))
      return false;
    if (f->min >= 60)
      *range = "minute";
    return true;
  case STD_SECOND:
  case STD_ZERO_SECOND:
    if (!getnum(v, c->std == STD_ZERO_SECOND, &f->sec))
      return false;
    if (f->sec >= 60) {
      *range = "second";
      return true;
    }
    /* A fraction the layout does not ask for is still read. */
    if (c[1].std != STD_FRAC9 && v->n >= 2 &&
        (v->p[0] == '.' || v->p[0] == ',') && digit_at(*v, 1)) {
      size_t n = 2;
      while (digit_at(*v, n))
        n++;
      f->nsec = parse_nanos(v->p, n);
      v->p += n, v->n -= n;
    }
    return true;
  case STD_FRAC9: {
    if (v->n < 2 || (v->p[0] != '.' && v->p[0] != ',') || !digit_at(*v, 1))
      return true; /* omitted */
    size_t i = 0;
    while (i < 9 && digit_at(*v, i + 1))
      i++;
    f->nsec = parse_nanos(v->p, i + 1);
    v->p += i + 1, v->n -= i + 1;
    return true;
  }
  case STD_TZ:
    return parse_zone(v, f);
  default:
    return true;
  }
}

/*
** time.Parse(layout, s) for the layouts above; on failure fills *e as
** Go's ParseError would be filled and returns false.
*/
static bool go_parse(const struct chunk *layout, const char *s, size_t n,
                     struct gtime *out, struct perr *e) {
  struct fields f = {0, 1, 1, 0, 0, 0, 0, false, -1};
  struct cur v = {s, n};
  memset(e, 0, sizeof *e);
  for (const struct chunk *c = layout;; c++) {
    if (!skip_prefix(&v, c->prefix)) {
      *e = (struct perr){c->prefix, v.p, v.n, NULL};
      return false;
    }
    if (c->std == STD_END) {
      if (v.n) {
        *e = (struct perr){"", v.p, v.n, ": extra text"};
        return false;
      }
      break;
    }
    const char *range = NULL;
    bool ok = parse_std(&v, c, &f, &range);
    if (range) {
      *e = (struct perr){c->stdstr, v.p, v.n, ": out of range"};
      return false;
    }
    if (!ok) {
      *e = (struct perr){c->stdstr, v.p, v.n, NULL};
      return false;
    }
  }
  if (f.day < 1 || f.day > days_in(f.month, f.year)) {
    *e = (struct perr){"", "", 0, ": day out of range"};
    return false;
  }
  int off = f.utc || f.zone == -1 ? 0 : f.zone;
  out->sec = days_from_civil(f.year, f.month, f.day) * 86400 + f.hour * 3600 +
             f.min * 60 + f.sec - off;
  out->nsec = f.nsec;
  out->off = off;
  return true;
}

/* ---- messages ------------------------------------------------------------ */

/* cty's parseTimestamp message for a ParseError, without the "not a valid
** RFC3339 timestamp" lead-in's trailing period. */
static const char *stamp_error(tfr_arena *a, const struct perr *e) {
  static const char *const lead = "not a valid RFC3339 timestamp";
  const char *le = e->layout_elem;
  if (!*le && !e->value_len && e->message)
    return tfr_arena_printf(a, "%s%s", lead, e->message);
  static const struct {
    const char *elem, *what;
  } names[] = {{"2006", "year"},        {"01", "month"},
               {"02", "day of month"},  {"15", "hour"},
               {"04", "minute"},        {"05", "second"},
               {"Z07:00", "UTC offset"}};
  const char *what = "timestamp segment";
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(le, names[i].elem))
      what = names[i].what;
  if (!strcmp(le, "T"))
    return tfr_arena_printf(a, "%s: missing required time introducer 'T'",
                            lead);
  if (!strcmp(le, ":") || !strcmp(le, "-")) {
    if (!e->value_len)
      return tfr_arena_printf(a,
                              "%s: end of string where \"%s\" is "
                              "expected",
                              lead, le);
    return tfr_arena_printf(a, "%s: found %s where \"%s\" is expected", lead,
                            str_go_quote(a, e->value_elem, e->value_len), le);
  }
  if (!e->value_len)
    return tfr_arena_printf(a, "%s: end of string before %s", lead, what);
  return tfr_arena_printf(a, "%s: cannot use %s as %s", lead,
                          str_go_quote(a, e->value_elem, e->value_len), what);
}

/* parseTimestamp: an RFC 3339 timestamp, or NULL and *err. */
static bool parse_stamp(tfr_arena *a, const tfr_value *v, struct gtime *t,
                        const char **err) {
  struct perr e;
  if (go_parse(rfc3339, v->s, v->n, t, &e))
    return true;
  *err = stamp_error(a, &e);
  return false;
}

/* ---- formatting ---------------------------------------------------------- */

/* Go's appendInt(x, width): sign, then zero-padded to width digits. */
static void put_int(struct sbuf *b, int64_t x, int width) {
  char buf[32];
  uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
  int n = snprintf(buf, sizeof buf, "%" PRIu64, u);
  if (x < 0)
    sbuf_put(b, "-", 1);
  for (; n < width; n++)
    sbuf_put(b, "0", 1);
  sbuf_str(b, buf);
}

/* The zone as Go writes Z07:00 (utc_z), -07:00 (colon) or -0700. */
static void put_zone(struct sbuf *b, int32_t off, bool utc_z, bool colon) {
  if (off == 0 && utc_z) {
    sbuf_put(b, "Z", 1);
    return;
  }
  int32_t zone = off / 60;
  if (zone < 0) {
    sbuf_put(b, "-", 1);
    zone = -zone;
  } else {
    sbuf_put(b, "+", 1);
  }
  put_int(b, zone / 60, 2);
  if (colon)
    sbuf_put(b, ":", 1);
  put_int(b, zone % 60, 2);
}

/* Time.Format(time.RFC3339), in the arena. */
static const char *format_rfc3339(tfr_arena *a, const struct gtime *t) {
  struct civil c = civil_of(t);
  struct sbuf b = {0};
  put_int(&b, c.year, 4);
  sbuf_put(&b, "-", 1);
  put_int(&b, c.month, 2);
  sbuf_put(&b, "-", 1);
  put_int(&b, c.day, 2);
  sbuf_put(&b, "T", 1);
  put_int(&b, c.hour, 2);
  sbuf_put(&b, ":", 1);
  put_int(&b, c.min, 2);
  sbuf_put(&b, ":", 1);
  put_int(&b, c.sec, 2);
  put_zone(&b, t->off, true, true);
  const char *r = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return r;
}

/*
** go-cty-yaml's parseTimestamp: a YAML plain scalar that is a timestamp
** in one of its four layouts becomes its RFC 3339 text (in a); NULL
** otherwise.  Used by yamldecode (funcs_encoding.c).
*/
const char *time_yaml_stamp(tfr_arena *a, const char *s, size_t n) {
  size_t i = 0;
  while (i < n && s[i] >= '0' && s[i] <= '9')
    i++;
  if (i != 4 || i == n || s[i] != '-')
    return NULL;
  static const struct chunk *const layouts[] = {yaml_t, yaml_lt, yaml_sp,
                                                yaml_date};
  for (size_t k = 0; k < sizeof layouts / sizeof *layouts; k++) {
    struct gtime t;
    struct perr e;
    if (go_parse(layouts[k], s, n, &t, &e))
      return format_rfc3339(a, &t);
  }
  return NULL;
}

/* ---- durations ----------------------------------------------------------- */

/* The time package's quote(): non-ASCII and control bytes as \xNN. */
static void time_quote(struct sbuf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  sbuf_put(b, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x80 || c < ' ') {
      char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
      sbuf_put(b, e, 4);
    } else {
      if (c == '"' || c == '\\')
        sbuf_put(b, "\\", 1);
      sbuf_put(b, (const char *)&c, 1);
    }
  }
  sbuf_put(b, "\"", 1);
}

static const char *duration_error(tfr_arena *a, const char *what,
                                  const char *unit, size_t ulen, const char *s,
                                  size_t n) {
  struct sbuf b = {0};
  sbuf_str(&b, "time: ");
  sbuf_str(&b, what);
  if (unit) {
    time_quote(&b, unit, ulen);
    sbuf_str(&b, " in duration ");
  }
  time_quote(&b, s, n);
  const char *r = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return r;
}

/* Go's leadingInt: digits into *x; false on overflow past 1<<63. */
static bool leading_int(const char **p, const char *end, uint64_t *x) {
  *x = 0;
  for (; *p < end && **p >= '0' && **p <= '9'; (*p)++) {
    if (*x > (UINT64_C(1) << 63) / 10)
      return false;
    *x = *x * 10 + (uint64_t)(**p - '0');
    if (*x > (UINT64_C(1) << 63))
      return false;
  }
  return true;
}

/* Go's leadingFraction: digits as x / scale, precision capped. */
static void leading_fraction(const char **p, const char *end, uint64_t *x,
                             double *scale) {
  bool overflow = false;
  *x = 0;
  *scale = 1;
  for (; *p < end && **p >= '0' && **p <= '9'; (*p)++) {
    if (overflow)
      continue;
    if (*x > ((UINT64_C(1) << 63) - 1) / 10) {
      overflow = true;
      continue;
    }
    uint64_t y = *x * 10 + (uint64_t)(**p - '0');
    if (y > (UINT64_C(1) << 63)) {
      overflow = true;
      continue;
    }
    *x = y;
    *scale *= 10;
  }
}

static uint64_t unit_ns(const char *u, size_t n) {
  static const struct {
    const char *name;
    uint64_t ns;
  } units[] = {{"ns", 1},
               {"us", 1000},
               {"\xc2\xb5s", 1000}, /* U+00B5 micro sign */
               {"\xce\xbcs", 1000}, /* U+03BC Greek mu */
               {"ms", 1000000},
               {"s", UINT64_C(1000000000)},
               {"m", UINT64_C(60000000000)},
               {"h", UINT64_C(3600000000000)}};
  for (size_t i = 0; i < sizeof units / sizeof *units; i++)
    if (strlen(units[i].name) == n && !memcmp(units[i].name, u, n))
      return units[i].ns;
  return 0;
}

/* time.ParseDuration: nanoseconds, or false and *err. */
static bool parse_duration(tfr_arena *a, const char *s, size_t n, int64_t *out,
                           const char **err) {
  const char *p = s, *end = s + n;
  uint64_t d = 0;
  bool neg = false;
  if (p < end && (*p == '-' || *p == '+')) {
    neg = *p == '-';
    p++;
  }
  if (end - p == 1 && *p == '0') {
    *out = 0;
    return true;
  }
  const char *bad = "invalid duration ";
  if (p == end)
    goto invalid;
  while (p < end) {
    if (!(*p == '.' || (*p >= '0' && *p <= '9')))
      goto invalid;
    const char *start = p;
    uint64_t v, f = 0;
    double scale = 1;
    if (!leading_int(&p, end, &v))
      goto invalid;
    bool pre = p != start, post = false;
    if (p < end && *p == '.') {
      p++;
      const char *fs = p;
      leading_fraction(&p, end, &f, &scale);
      post = p != fs;
    }
    if (!pre && !post)
      goto invalid;
    const char *u = p;
    while (p < end && *p != '.' && !(*p >= '0' && *p <= '9'))
      p++;
    if (p == u) {
      *err = duration_error(a, "missing unit in duration ", NULL, 0, s, n);
      return false;
    }
    uint64_t unit = unit_ns(u, (size_t)(p - u));
    if (!unit) {
      *err = duration_error(a, "unknown unit ", u, (size_t)(p - u), s, n);
      return false;
    }
    if (v > (UINT64_C(1) << 63) / unit)
      goto invalid;
    v *= unit;
    if (f > 0) {
      v += (uint64_t)((double)f * ((double)unit / scale));
      if (v > (UINT64_C(1) << 63))
        goto invalid;
    }
    d += v;
    if (d > (UINT64_C(1) << 63))
      goto invalid;
  }
  if (neg) {
    *out = (int64_t)(0 - d);
    return true;
  }
  if (d > (UINT64_C(1) << 63) - 1)
    goto invalid;
  *out = (int64_t)d;
  return true;
invalid:
  *err = duration_error(a, bad, NULL, 0, s, n);
  return false;
}

/* ---- formatdate ---------------------------------------------------------- */

static bool is_verb(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Length of the next token of a format (cty's splitDateFormat). */
static size_t next_token(const char *s, size_t n) {
  if (s[0] == '\'') {
    if (n > 1 && s[1] == '\'')
      return 2;
    for (size_t i = 1; i < n; i++)
      if (s[i] == '\'') {
        if (i + 1 < n && s[i + 1] == '\'') {
          i++;
          continue;
        }
        return i + 1;
      }
    return n;
  }
  size_t i = 1;
  if (is_verb(s[0]))
    while (i < n && s[i] == s[0])
      i++;
  else
    while (i < n && s[i] != '\'' && !is_verb(s[i]))
      i++;
  return i;
}

/* One numeric verb: width 1 is plain, width 2 zero-padded. */
static bool put_num(struct sbuf *b, size_t len, int64_t x) {
  if (len != 1 && len != 2)
    return false;
  put_int(b, x, (int)len);
  return true;
}

/* The error text of a verb of the wrong length. */
static const char *verb_error(char v) {
  switch (v) {
  case 'Y':
    return "year must either be \"YY\" or \"YYYY\"";
  case 'M':
    return "month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"";
  case 'D':
    return "day of month must either be \"D\" or \"DD\"";
  case 'E':
    return "day of week must either be \"EEE\" or \"EEEE\"";
  case 'h':
    return "24-hour must either be \"h\" or \"hh\"";
  case 'H':
    return "12-hour must either be \"H\" or \"HH\"";
  case 'm':
    return "minute must either be \"m\" or \"mm\"";
  case 's':
    return "second must either be \"s\" or \"ss\"";
  case 'Z':
    return "timezone must be Z, ZZZZ, or ZZZZZ";
  default:
    return NULL;
  }
}

/* Write one verb token; false when its length is not allowed. */
static bool put_verb(struct sbuf *b, const char *tok, size_t len,
                     const struct civil *c, int32_t off) {
  int h12 = c->hour % 12 ? c->hour % 12 : 12;
  switch (tok[0]) {
  case 'Y':
    if (len == 2)
      put_int(b, c->year % 100, 2);
    else if (len == 4)
      put_int(b, c->year, 4);
    return len == 2 || len == 4;
  case 'M':
    if (len == 3 || len == 4) {
      const char *m = month_names[c->month - 1];
      sbuf_put(b, m, len == 3 ? 3 : strlen(m));
      return true;
    }
    return put_num(b, len, c->month);
  case 'D':
    return put_num(b, len, c->day);
  case 'E':
    if (len == 3 || len == 4) {
      const char *d = day_names[c->wday];
      sbuf_put(b, d, len == 3 ? 3 : strlen(d));
    }
    return len == 3 || len == 4;
  case 'h':
    return put_num(b, len, c->hour);
  case 'H':
    return put_num(b, len, h12);
  case 'A':
  case 'a':
    if (len == 2)
      sbuf_str(b, c->hour < 12 ? (tok[0] == 'A' ? "AM" : "am")
                               : (tok[0] == 'A' ? "PM" : "pm"));
    return len == 2;
  case 'm':
    return put_num(b, len, c->min);
  case 's':
    return put_num(b, len, c->sec);
  case 'Z':
    if (len == 3 && off / 60 == 0 && off >= 0)
      sbuf_str(b, "UTC");
    else if (len == 1 || len == 3 || len == 4 || len == 5)
      put_zone(b, off, len == 1, len == 1 || len == 5);
    return len == 1 || len == 3 || len == 4 || len == 5;
  default:
    return false;
  }
}

/* A quoted literal: its content with '' un-doubled. */
static void put_literal(struct sbuf *b, const char *tok, size_t len) {
  if (len == 2) {
    sbuf_put(b, "'", 1);
    return;
  }
  for (size_t i = 1; i + 1 < len; i++) {
    sbuf_put(b, tok + i, 1);
    if (tok[i] == '\'')
      i++;
  }
}

/* formatdate(format, time): the timestamp in cty's format language. */
static const tfr_value *fn_formatdate(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *fmt = f->args[0];
  struct gtime t;
  const char *err;
  if (!parse_stamp(f->a, f->args[1], &t, &err)) {
    fcall_arg_error(f, 1, "%s", err);
    return NULL;
  }
  struct civil c = civil_of(&t);
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (size_t i = 0; i < fmt->n;) {
    const char *tok = fmt->s + i;
    size_t len = next_token(tok, fmt->n - i);
    i += len;
    if (tok[0] == '\'') {
      if (len == 1 || tok[len - 1] != '\'') {
        fcall_arg_error(f, 0, "unterminated literal '");
        goto fail;
      }
      put_literal(&b, tok, len);
    } else if (is_verb(tok[0])) {
      if (!put_verb(&b, tok, len, &c, t.off)) {
        const char *why = verb_error(tok[0]);
        if (tok[0] == 'A' || tok[0] == 'a')
          fcall_arg_error(f, 0,
                          "invalid date format verb \"%.*s\": must be "
                          "\"%c%c\"",
                          (int)len, tok, tok[0], tok[0]);
        else if (why)
          fcall_arg_error(f, 0, "invalid date format verb \"%.*s\": %s",
                          (int)len, tok, why);
        else
          fcall_arg_error(f, 0, "invalid date format verb \"%.*s\"", (int)len,
                          tok);
        goto fail;
      }
    } else {
      sbuf_put(&b, tok, len);
    }
  }
  const tfr_value *v = tfr_string(f->a, b.p, b.n);
  free(b.p);
  return v;
fail:
  free(b.p);
  return NULL;
}

/* timeadd(timestamp, duration): RFC 3339 in, RFC 3339 out. */
static const tfr_value *fn_timeadd(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  struct gtime t;
  const char *err;
  int64_t d;
  if (!parse_stamp(f->a, f->args[0], &t, &err) ||
      !parse_duration(f->a, f->args[1]->s, f->args[1]->n, &d, &err)) {
    fcall_error(f, "%s", err);
    return NULL;
  }
  int64_t nsec = t.nsec + d % 1000000000;
  t.sec += d / 1000000000;
  if (nsec >= 1000000000) {
    t.sec++;
    nsec -= 1000000000;
  } else if (nsec < 0) {
    t.sec--;
    nsec += 1000000000;
  }
  t.nsec = (int32_t)nsec;
  const char *s = format_rfc3339(f->a, &t);
  return tfr_string(f->a, s, strlen(s));
}

/* timecmp(timestamp_a, timestamp_b): -1, 0 or 1 by instant. */
static const tfr_value *fn_timecmp(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  struct gtime x, y;
  const char *err;
  for (size_t i = 0; i < 2; i++)
    if (!parse_stamp(f->a, f->args[i], i ? &y : &x, &err)) {
      fcall_arg_error(f, i, "%s", err);
      return NULL;
    }
  int r = x.sec != y.sec     ? (x.sec < y.sec ? -1 : 1)
          : x.nsec != y.nsec ? (x.nsec < y.nsec ? -1 : 1)
                             : 0;
  tfr_value *v = tfr_arena_alloc(f->a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = num_from_int(f->a, r);
  return v;
}

/* The current time, RFC 3339 in UTC with whole seconds, as Go formats
** time.Now().UTC() with time.RFC3339. */
static const tfr_value *now_rfc3339(tfr_arena *a) {
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  char buf[32];
  size_t n = strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return tfr_string(a, buf, n);
}

static const tfr_value *fn_timestamp(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  return now_rfc3339(f->a);
}

static const tfr_value *fn_plantimestamp(struct fcall *f, const tfr_type *ret) {
  if (!f->c->plan)
    return tfr_unknown(f->a, ret);
  return now_rfc3339(f->a);
}

static const struct func_spec specs[] = {
    {"timestamp", 0, {{0}}, NULL, &tfr_t_string, NULL, fn_timestamp},
    {"plantimestamp", 0, {{0}}, NULL, &tfr_t_string, NULL, fn_plantimestamp},
    {"formatdate",
     2,
     {{"format", &tfr_t_string, 0}, {"time", &tfr_t_string, 0}},
     NULL,
     &tfr_t_string,
     NULL,
     fn_formatdate},
    {"timeadd",
     2,
     {{"timestamp", &tfr_t_string, 0}, {"duration", &tfr_t_string, 0}},
     NULL,
     &tfr_t_string,
     NULL,
     fn_timeadd},
    {"timecmp",
     2,
     {{"timestamp_a", &tfr_t_string, 0}, {"timestamp_b", &tfr_t_string, 0}},
     NULL,
     &tfr_t_number,
     NULL,
     fn_timecmp},
};

const struct func_group funcs_time = {specs, sizeof specs / sizeof *specs};
