/*
** Source text and byte-offset → line/column mapping.
*/
#include "base/compat.h"
#include "base/arena_int.h"
#include "syntax/source.h"

#include "base/dirlist.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strutil.h"

static void build_lines(struct src_file *f);

/* The last column this thread counted, so that many positions on one
** long line (a megabyte of junk with an error every few bytes) count on
** from the one before instead of from the line's start each time.
** A new file (maybe where a freed one was) forgets it.  The line's index
** too: positions asked for in file order (a loader's) then find their
** line without a search.  (Initial-exec: the library is linked, not
** loaded late, and a call per access to find the variable costs.) */
#if defined(__GNUC__)
#define TLS_FAST TFR_TLS_INITIAL_EXEC
#else
#define TLS_FAST
#endif
static _Thread_local TLS_FAST struct {
  const struct src_file *f;
  uint32_t line_start, byte;
  int column;
  size_t line; /* the index of line_start in f->lines */
} last;

/* The furthest column counted on a line, per thread: a diagnostic that
** also names an earlier place on a long line ("already defined at"
** 1,9-12) moves `last` back; the next one counts on from here, not from
** the line start (which made many such diagnostics quadratic).  A new
** file forgets it too. */
static _Thread_local TLS_FAST struct {
  const struct src_file *f;
  uint32_t line_start, byte;
  int column;
} furthest;

/* The line table is built at once, not on the first position asked for:
** a loaded module's files are then read-only, so threads can share them
** (and positions are needed for every value anyway). */
static struct src_file *make(tfr_arena *a, const char *name, const char *text,
                             size_t len, bool lines) {
  struct src_file *f = tfr_arena_alloc(a, sizeof *f);
  last.f = NULL;
  furthest.f = NULL;
  f->name = tfr_arena_strdup(a, name);
  f->text = text;
  f->len = len;
  f->arena = a;
  if (lines)
    build_lines(f);
  return f;
}

struct src_file *src_new(tfr_arena *a, const char *name, const char *text,
                         size_t len) {
  return make(a, name, text, len, true);
}

struct src_file *src_new_private(tfr_arena *a, const char *name,
                                 const char *text, size_t len) {
  return make(a, name, text, len, false);
}

/* Open a regular file for reading: a FIFO, a device or a socket (also
** behind a symbolic link) is refused at once, without waiting for a writer
** or reading forever (*err is SRC_NOT_REGULAR); -1 with *err set. */
static int open_regular(const char *path, bool special_ok, int *err) {
  if (special_ok) { /* a pipe the user named (-var-file=<(...)): wait */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      *err = errno;
    return fd;
  }
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *err = errno;
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *err = S_ISDIR(st.st_mode) ? EISDIR : SRC_NOT_REGULAR;
    close(fd);
    return -1;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

/* Read the whole file straight into the arena, followed by two NUL
** bytes (what flex needs to scan a buffer in place). */
static struct src_file *read_file(tfr_arena *a, const char *path,
                                  bool special_ok, int *err) {
  int fd = open_regular(path, special_ok, err);
  FILE *fp = fd < 0 ? NULL : fdopen(fd, "rb");
  if (!fp) {
    if (fd >= 0) {
      *err = errno;
      close(fd);
    }
    return NULL;
  }
  struct stat st;
  size_t cap = 64 * 1024, len = 0;
  /* at most 4 GiB (positions are 32-bit), and no more than the budget */
  size_t limit = UINT32_MAX - 16, budget = arena_value_budget();
  int too_big = EFBIG;
  if (budget < limit) {
    limit = budget;
    too_big = SRC_OVER_BUDGET;
  }
  if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    cap = (size_t)st.st_size + 1;
  if (cap > limit) {
    fclose(fp);
    *err = too_big;
    return NULL;
  }
  char *buf = tfr_arena_alloc_raw(a, cap + 2);
  for (;;) {
    size_t n = fread(buf + len, 1, cap - len, fp);
    len += n;
    if (len < cap) {
      if (ferror(fp)) {
        *err = errno ? errno : EIO;
        fclose(fp);
        return NULL;
      }
      break;
    }
    /* the file grew, or it is not a regular file: read on */
    if (cap >= limit) {
      fclose(fp);
      *err = too_big;
      return NULL;
    }
    size_t next = cap * 2 > limit ? limit : cap * 2;
    char *bigger = tfr_arena_alloc_raw(a, next + 2);
    memcpy(bigger, buf, len);
    buf = bigger;
    cap = next;
  }
  fclose(fp);
  buf[len] = buf[len + 1] = '\0';
  return make(a, path, buf, len, false);
}

/* Files this large are mapped rather than read (src_release). */
#define MAP_AT_LEAST (1u << 20)

struct mapping {
  void *base;
  size_t len;
};

static void unmap(void *ctx) {
  struct mapping *m = ctx;
  munmap(m->base, m->len);
}

/* The file mapped privately, followed by two NUL bytes as read_file's
** copies are: anonymous zero pages under the whole, the file over them
** (the bytes after its end in its last page read as zeros).  Writable
** (flex writes and restores bytes), copy-on-write.  NULL: read it.
** A file another program cuts short meanwhile raises SIGBUS when the
** missing pages are touched: the CLI turns that into a message. */
static struct src_file *map_file(tfr_arena *a, const char *path) {
  int ignored;
  int fd = open_regular(path, false, &ignored);
  if (fd < 0)
    return NULL;
  struct stat st;
  /* too large to map (positions are 32-bit) or for the memory budget:
  ** read_file reports it */
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size < MAP_AT_LEAST || (uint64_t)st.st_size > UINT32_MAX - 16 ||
      (uint64_t)st.st_size > arena_value_budget()) {
    close(fd);
    return NULL;
  }
  size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)st.st_size;
  size_t total = (len + 2 + page - 1) / page * page;
  size_t flen = (len + page - 1) / page * page;
  char *base = compat_map_anon(total);
  if (!base) {
    close(fd);
    return NULL;
  }
  if (mmap(base, flen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
           0) == MAP_FAILED) {
    munmap(base, total);
    close(fd);
    return NULL;
  }
  close(fd);
  struct mapping *m = tfr_arena_alloc(a, sizeof *m);
  m->base = base;
  m->len = total;
  tfr_arena_on_free(a, unmap, m);
  arena_add_mapped(a, total);
  compat_advise(base, flen, COMPAT_SEQUENTIAL);
  struct src_file *f = make(a, path, base, len, false);
  f->mapped = total;
  return f;
}

/* The overlay's text for path (dirlist.h), as a file, or NULL. */
static struct src_file *overlay(tfr_arena *a, const struct overlays *ov,
                                const char *path) {
  const struct overlay *o = dir_overlay(ov, path);
  if (!o || o->len > UINT32_MAX - 16)
    return NULL;
  char *copy = tfr_arena_alloc_raw(a, o->len + 2);
  if (o->len)
    memcpy(copy, o->text, o->len);
  copy[o->len] = copy[o->len + 1] = '\0'; /* scanned in place */
  return src_new_private(a, path, copy, o->len);
}

/* An overlay, else the file mapped, else read (special_ok: a FIFO or a
** device too). */
static struct src_file *read_any(tfr_arena *a, const struct overlays *ov,
                                 const char *path, bool special_ok, int *err) {
  struct src_file *f = overlay(a, ov, path);
  if (!f)
    f = map_file(a, path);
  return f ? f : read_file(a, path, special_ok, err);
}

struct src_file *src_read_private(tfr_arena *a, const struct overlays *ov,
                                  const char *path, int *err) {
  return read_any(a, ov, path, false, err);
}

const char *src_read_problem(int err) {
  switch (err) {
  case SRC_NOT_REGULAR:
    return "not a regular file (a FIFO, a device or a socket)";
  case SRC_OVER_BUDGET:
    return "larger than this run's memory budget (-max-memory)";
  default:
    return NULL;
  }
}

struct src_file *src_read_named(tfr_arena *a, const struct overlays *ov,
                                const char *path, int *err) {
  return read_any(a, ov, path, true, err);
}

void src_release(struct src_file *f, size_t upto) {
  if (!f->mapped)
    return;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t n = upto / page * page;
  if (n > f->len / page * page)
    n = f->len / page * page; /* the last page holds the NULs: keep it */
  if (n)
    compat_advise(UNCONST(void *, f->text), n, COMPAT_DONTNEED);
}

/* How many '\n' bytes the n bytes at s hold: eight at a time (a byte of
** w ^ "\n\n..." is zero exactly where w has a newline). */
static uint32_t count_newlines(const unsigned char *s, uint32_t n) {
  const uint64_t low7 = 0x7f7f7f7f7f7f7f7full, ones = 0x0101010101010101ull;
  uint32_t k = 0, i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    uint64_t x = w ^ (ones * '\n');
    uint64_t nonzero = ((x & low7) + low7) | x; /* high bit: byte != 0 */
    k += (uint32_t)((((~nonzero >> 7) & ones) * ones) >> 56);
  }
  for (; i < n; i++)
    k += s[i] == '\n';
  return k;
}

static void build_lines(struct src_file *f) {
  size_t len = f->len;
  const unsigned char *t = (const unsigned char *)f->text;
  size_t n = 1 + count_newlines(t, (uint32_t)len);
  uint32_t *lines = tfr_arena_alloc_raw(f->arena, n * sizeof *lines);
  size_t k = 0;
  lines[k++] = 0;
  for (const unsigned char *p = t; (p = memchr(p, '\n', len - (size_t)(p - t)));
       p++)
    lines[k++] = (uint32_t)(p - t + 1);
  f->lines = lines;
  f->nlines = k;
}

/* Columns count grapheme clusters from the line start, as HCL does. */
/* hcl's JSON scanner counts a tab as two columns and a carriage return as
** none (json/scanner.go); elsewhere in a JSON file, as in HCL, a column is
** a grapheme cluster.  Tabs and CRs are cluster boundaries. */
static int count_columns_json(const char *s, size_t n) {
  int cols = 1;
  size_t from = 0;
  for (size_t i = 0; i < n; i++) {
    if ((unsigned char)s[i] >= 0x80)
      goto clusters;
    cols += s[i] == '\t' ? 2 : s[i] != '\r';
  }
  return cols;
clusters:
  cols = 1;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && s[i] != '\t' && s[i] != '\r')
      continue;
    if (i > from)
      cols += (int)str_graphemes(s + from, i - from);
    if (i < n && s[i] == '\t')
      cols += 2;
    from = i + 1;
  }
  return cols;
}

static int count_columns(const struct src_file *f, const char *s, size_t n) {
  if (f->json_columns)
    return count_columns_json(s, n);
  size_t i = 0;
  /* eight bytes at a time while none is a CR or non-ASCII (a byte of
  ** w ^ "\r\r..." is zero exactly where w has a CR) */
  const uint64_t low7 = 0x7f7f7f7f7f7f7f7full, high = 0x8080808080808080ull;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    uint64_t x = w ^ (0x0101010101010101ull * '\r');
    if ((w & high) || (~(((x & low7) + low7) | x) & high))
      break;
  }
  while (i < n && (unsigned char)s[i] < 0x80 && s[i] != '\r')
    i++;
  if (i == n) /* ASCII within a line: one byte, one cluster */
    return 1 + (int)n;
  return 1 + (int)str_graphemes(s, n);
}

/* Whether a column count may go on from byte: an ASCII character that is
** not a CR, after an ASCII character, always starts a grapheme cluster. */
static bool fresh_cluster(const struct src_file *f, uint32_t from,
                          uint32_t byte) {
  const unsigned char *t = (const unsigned char *)f->text;
  return byte < f->len && t[byte] < 0x80 && t[byte] != '\r' &&
         (byte == from || t[byte - 1] < 0x80);
}

/* The column of byte on the line starting at from. */

static int column_at(const struct src_file *f, uint32_t from, uint32_t byte) {
  int column;
  bool far = furthest.f == f && furthest.line_start == from &&
             furthest.byte <= byte && fresh_cluster(f, from, furthest.byte);
  if (last.f == f && last.line_start == from && last.byte <= byte &&
      (!far || last.byte >= furthest.byte) && fresh_cluster(f, from, last.byte))
    column = last.column - 1 +
             count_columns(f, f->text + last.byte, byte - last.byte);
  else if (far)
    column = furthest.column - 1 +
             count_columns(f, f->text + furthest.byte, byte - furthest.byte);
  else
    column = count_columns(f, f->text + from, byte - from);
  last.f = f;
  last.line_start = from;
  last.byte = byte;
  last.column = column;
  if (furthest.f != f || furthest.line_start != from || furthest.byte < byte) {
    furthest.f = f;
    furthest.line_start = from;
    furthest.byte = byte;
    furthest.column = column;
  }
  return column;
}

/* p in an embedded text as a position of its file: hcl parses such text
** starting at the string's position, columns counting on from there. */
static struct tfr_pos rebase(const struct src_file *f, struct tfr_pos p) {
  if (!f->base.line)
    return p;
  if (p.line == 1)
    p.column += f->base.column - 1;
  p.line += f->base.line - 1;
  p.byte += f->base.byte;
  return p;
}

void src_lines(struct src_file *f) {
  if (!f->lines)
    build_lines(f);
}

/* The index of the line holding byte: from the last line asked for when
** byte is at most a few lines on, by a search otherwise. */
static size_t line_index(const struct src_file *f, uint32_t byte) {
  size_t lo = 0, hi = f->nlines;
  if (last.f == f && last.line < f->nlines && f->lines[last.line] <= byte) {
    lo = last.line;
    for (int k = 0; k < 8; k++, lo++)
      if (lo + 1 == f->nlines || f->lines[lo + 1] > byte)
        return lo;
  }
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (f->lines[mid] <= byte)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

struct tfr_pos src_pos(struct src_file *f, uint32_t byte) {
  src_lines(f);
  if (byte > f->len)
    byte = (uint32_t)f->len;
  size_t lo = line_index(f, byte);
  struct tfr_pos p;
  p.line = (int)lo + 1;
  p.byte = byte;
  uint32_t from = f->lines[lo];
  /* a leading byte order mark takes no column, as in HCL */
  if (lo == 0 && f->len >= 3 && memcmp(f->text, "\xEF\xBB\xBF", 3) == 0 &&
      byte >= 3)
    from = 3;
  p.column = column_at(f, from, byte);
  last.line = lo;
  return rebase(f, p);
}

/* The cursor moved to byte by counting lines. */
static void move_to(struct src_file *f, struct src_cursor *c, uint32_t byte) {
  const unsigned char *t = (const unsigned char *)f->text;
  if (c->line == 0)
    c->line = 1;
  uint32_t n = count_newlines(t + c->byte, byte - c->byte);
  if (n) {
    c->line += (int)n;
    uint32_t i = byte;
    while (t[i - 1] != '\n')
      i--;
    c->line_start = i;
    c->column = 0;
  }
  c->byte = byte;
}

/* The position of byte, the cursor moved there. */
static struct tfr_pos pos_from(struct src_file *f, struct src_cursor *c,
                               uint32_t byte) {
  const unsigned char *t = (const unsigned char *)f->text;
  uint32_t was = c->byte;
  int last_column = c->column;
  move_to(f, c, byte);
  uint32_t from = c->line_start;
  int before = 0; /* columns before from */
  if (last_column && was > from && t[was] < 0x80 && t[was - 1] < 0x80 &&
      t[was - 1] != '\r') {
    /* on the same line, and no cluster spans the last position (between
    ** two ASCII bytes, not CR LF): count on from there */
    before = last_column - 1;
    from = was;
  }
  struct tfr_pos p;
  p.line = c->line;
  p.byte = byte;
  if (from == 0 && f->len >= 3 && memcmp(f->text, "\xEF\xBB\xBF", 3) == 0 &&
      byte >= 3)
    from = 3; /* as src_pos */
  p.column = before + count_columns(f, f->text + from, byte - from);
  c->column = p.column;
  return rebase(f, p);
}

struct tfr_pos src_pos_seq(struct src_file *f, uint32_t byte,
                           struct src_cursor *c) {
  if (f->lines || byte < c->byte || byte > f->len)
    return src_pos(f, byte);
  return pos_from(f, c, byte);
}

int src_line_seq(struct src_file *f, uint32_t byte, struct src_cursor *c) {
  if (f->lines || byte < c->byte || byte > f->len)
    return src_pos(f, byte).line;
  move_to(f, c, byte);
  c->column = 0; /* not counted */
  return rebase(f, (struct tfr_pos){c->line, 1, byte}).line;
}

struct tfr_range src_range(struct src_file *f, struct span s) {
  struct tfr_range r;
  r.filename = f->name;
  r.start = src_pos(f, s.start);
  r.end = src_pos(f, s.end);
  return r;
}
