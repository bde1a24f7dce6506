/*
** The run arena: a chain of large blocks, bump-allocated.
**
** Requests bigger than a quarter block get a block of their own so that a
** huge string does not waste the tail of the current block.
**
** The bytes of a block that were never handed out are zero (blocks come
** from calloc or mmap, which get them zeroed from the system for free;
** memory given back by arena_reset or kept as a spare is cleared again), so
** that tfr_arena_alloc need not clear what it returns.
**
** A run that grows past a few blocks (a large module, a large tfvars file)
** takes its further blocks in 2 MiB pieces mapped on their own and offered
** to the kernel as transparent huge pages: one page fault per 2 MiB instead
** of 512, which for a 30 MB run was a fifth of its time.  Small runs (an
** editor's request, a test) keep to 64 KiB blocks.
*/
#include "tfresolve/arena.h"

#include "base/arena_int.h"
#include "base/compat.h"
#include "base/heap.h"

#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/mman.h>

#define BLOCK_SIZE (64 * 1024)
#define ALIGN ((size_t)8) /* enough for every object we store */

struct block {
  struct block *next;
  size_t size;
  size_t used;
  bool mapped; /* by map_huge, not calloc */
  max_align_t data[];
};

/* Huge blocks: HUGE_MAP bytes mapped at a HUGE_MAP boundary, the header
** included, so that the whole block can be one huge page. */
#define HUGE_MAP ((size_t)2 << 20)
#define HUGE_DATA (HUGE_MAP - offsetof(struct block, data))
/* Arena size from which standard blocks are huge ones. */
#define HUGE_FROM ((size_t)1 << 20)

struct cleanup {
  struct cleanup *next;
  void (*fn)(void *ctx);
  void *ctx;
};

struct tfr_arena {
  struct block *head;
  size_t total;
  struct cleanup *cleanups;  /* in the arena itself, latest first */
  struct block *spare[2];    /* blocks to use again: of BLOCK_SIZE, and
                                huge ones (spare_of) */
  void *slots[ARENA_NSLOTS]; /* arena_slot: outside the blocks */
  void (*slot_free[ARENA_NSLOTS])(void *);
  size_t keeps;  /* arena_keep's count */
  size_t mapped; /* arena_add_mapped's bytes */
};

void tfr_set_oom_handler(void (*handler)(void)) {
  heap_set_oom_handler(handler);
}

tfr_arena *tfr_arena_new(void) {
  heap_init();
  tfr_arena *a = heap_calloc(1, sizeof *a);
  a->head = NULL;
  a->total = 0;
  a->cleanups = NULL;
  return a;
}

static void free_block(struct block *b);

static void free_chain(struct block *b) {
  while (b) {
    struct block *next = b->next;
    free_block(b);
    b = next;
  }
}

void **arena_slot(tfr_arena *a, enum arena_slot which,
                  void (*destroy)(void *)) {
  a->slot_free[which] = destroy;
  return &a->slots[which];
}

void tfr_arena_free(tfr_arena *a) {
  if (!a)
    return;
  for (struct cleanup *c = a->cleanups; c; c = c->next)
    c->fn(c->ctx);
  for (int i = 0; i < ARENA_NSLOTS; i++)
    if (a->slots[i] && a->slot_free[i])
      a->slot_free[i](a->slots[i]);
  free_chain(a->head);
  free_chain(a->spare[0]);
  free_chain(a->spare[1]);
  free(a);
}

#if defined(__SANITIZE_ADDRESS__)
#define RECYCLE 0 /* freed, so that AddressSanitizer sees late uses */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RECYCLE 0
#endif
#endif
#ifndef RECYCLE
#define RECYCLE 1
#endif

#if RECYCLE
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#else /* what arena_reset gives back is poisoned until allocated again */
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#endif

struct arena_mark arena_mark(tfr_arena *a) {
  struct block *b = a->head;
  return (struct arena_mark){b, b ? b->next : NULL, b ? b->used : 0, a->total,
                             a->cleanups};
}

/* The list of spare blocks of this data size, or NULL: only standard
** blocks are kept. */
static struct block **spare_of(tfr_arena *a, size_t size) {
  return size == BLOCK_SIZE  ? &a->spare[0]
         : size == HUGE_DATA ? &a->spare[1]
                             : NULL;
}

/* Blocks from b up to (not including) end: kept as spares or freed. */
static void release(tfr_arena *a, struct block *b, struct block *end) {
  while (b != end) {
    struct block *next = b->next;
    struct block **spare = spare_of(a, b->size);
    if (RECYCLE && spare) {
      memset(b->data, 0, b->used);
      b->next = *spare;
      *spare = b;
    } else {
      free_block(b);
    }
    b = next;
  }
}

void arena_reset(tfr_arena *a, struct arena_mark m) {
  /* a mark of this arena, not yet gone back past: nothing allocated
  ** before it is released */
  assert(m.total <= a->total && (!m.head || m.used <= m.head->used));
  for (struct cleanup *c = a->cleanups; c != m.cleanups; c = c->next)
    c->fn(c->ctx);
  a->cleanups = m.cleanups;
  /* newer blocks are in front of the marked head; big ones made since
  ** then sit right behind it */
  release(a, a->head, m.head);
  a->head = m.head;
  if (m.head) {
    release(a, m.head->next, m.next);
    m.head->next = m.next;
    memset((char *)m.head->data + m.used, 0, m.head->used - m.used);
    POISON((char *)m.head->data + m.used, m.head->used - m.used);
    m.head->used = m.used;
  }
  a->total = m.total;
}

void arena_keep(tfr_arena *a) { a->keeps++; }

size_t arena_keeps(const tfr_arena *a) { return a->keeps; }

void arena_add_mapped(tfr_arena *a, size_t n) { a->mapped += n; }

size_t arena_mapped(const tfr_arena *a) { return a->mapped; }

/* One span of memory handed out, appended to *v. */
static void add_span(struct arena_span **v, size_t *n, size_t *cap,
                     const void *p, size_t len) {
  if (!len)
    return;
  if (*n == *cap) {
    size_t c = *cap ? *cap * 2 : 16;
    struct arena_span *g = heap_realloc(*v, c * sizeof *g);
    *v = g;
    *cap = c;
  }
  (*v)[(*n)++] = (struct arena_span){(uintptr_t)p, (uintptr_t)p + len};
}

static int span_cmp(const void *x, const void *y) {
  uintptr_t a = ((const struct arena_span *)x)->lo,
            b = ((const struct arena_span *)y)->lo;
  return a < b ? -1 : a > b;
}

size_t arena_spans_since(const tfr_arena *a, struct arena_mark m,
                         struct arena_span **v, size_t *cap) {
  size_t n = 0;
  /* as arena_reset walks them: blocks in front of the marked head, then
  ** the marked head's new bytes and the big blocks right behind it */
  for (struct block *b = a->head; b != m.head; b = b->next)
    add_span(v, &n, cap, b->data, b->used);
  if (m.head) {
    add_span(v, &n, cap, (char *)m.head->data + m.used, m.head->used - m.used);
    for (struct block *b = m.head->next; b != m.next; b = b->next)
      add_span(v, &n, cap, b->data, b->used);
  }
  if (n > 1)
    qsort(*v, n, sizeof **v, span_cmp);
  return n;
}

void arena_recycle(tfr_arena *from, tfr_arena *into) {
  for (struct cleanup *c = from->cleanups; c; c = c->next)
    c->fn(c->ctx);
  from->cleanups = NULL;
  release(into, from->head, NULL);
  release(into, from->spare[0], NULL);
  release(into, from->spare[1], NULL);
  from->head = from->spare[0] = from->spare[1] = NULL;
  tfr_arena_free(from);
}

#if RECYCLE && COMPAT_HUGE_PAGES
/* size bytes (a multiple of HUGE_MAP) at a HUGE_MAP boundary, advised as
** huge pages; NULL when the system will not map them. */
static void *map_huge(size_t size) {
  size_t span = size + HUGE_MAP;
  char *p = compat_map_anon(span);
  if (!p)
    return NULL;
  uintptr_t at = ((uintptr_t)p + HUGE_MAP - 1) & ~(uintptr_t)(HUGE_MAP - 1);
  char *start = (char *)at;
  if (start > p)
    munmap(p, (size_t)(start - p));
  if (start + size < p + span)
    munmap(start + size, (size_t)(p + span - (start + size)));
  compat_advise(start, size, COMPAT_HUGEPAGE); /* fine if refused */
  return start;
}
#define HUGE_OK 1
#else
static void *map_huge(size_t size) {
  (void)size;
  return NULL;
}
#define HUGE_OK 0
#endif

static void free_block(struct block *b) {
  if (b->mapped)
    munmap(b, b->size + offsetof(struct block, data));
  else
    free(b);
}

/* A new block of size bytes of data: mapped as huge pages when it is a
** huge block's size or a multiple of HUGE_MAP, from calloc otherwise. */
static struct block *alloc_block(size_t size) {
  struct block *b = NULL;
  size_t whole = size + offsetof(struct block, data);
  if (HUGE_OK && whole % HUGE_MAP == 0 && (b = map_huge(whole)))
    b->mapped = true;
  else
    b = heap_calloc(1, whole);
  return b;
}

static struct block *new_block(tfr_arena *a, size_t size) {
  struct block **spare = spare_of(a, size), *b = spare ? *spare : NULL;
  if (b)
    *spare = b->next;
  else
    b = alloc_block(size);
  b->size = size;
  b->used = 0;
  return b;
}

/* The data size of a block of its own for n bytes: from half a huge
** block up, whole huge pages (alloc_block maps them). */
static size_t big_size(size_t n) {
  if (!HUGE_OK || n < HUGE_MAP / 2 || n > SIZE_MAX - 2 * HUGE_MAP)
    return n;
  size_t whole = n + offsetof(struct block, data);
  return (whole + HUGE_MAP - 1) / HUGE_MAP * HUGE_MAP -
         offsetof(struct block, data);
}

/* The size of the arena's next standard block. */
static size_t standard_size(const tfr_arena *a) {
  return HUGE_OK && a->total >= HUGE_FROM ? HUGE_DATA : BLOCK_SIZE;
}

void *tfr_arena_alloc(tfr_arena *a, size_t n) {
  return tfr_arena_alloc_raw(a, n); /* zero: never handed out before */
}

void *tfr_arena_alloc_raw(tfr_arena *a, size_t n) {
  if (n > SIZE_MAX / 2) /* no machine has it; rounding up would wrap */
    tfr_oom();
  n = (n + ALIGN - 1) & ~(ALIGN - 1);
  if (n == 0)
    n = ALIGN;
  a->total += n;
  struct block *b = a->head;
  if (n > standard_size(a) / 4) {
    /* Big request: its own block, linked behind the current one. */
    struct block *big = new_block(a, big_size(n));
    big->used = n;
    if (b) {
      big->next = b->next;
      b->next = big;
    } else {
      big->next = NULL;
      a->head = big;
    }
    return big->data;
  }
  if (!b || b->size - b->used < n) {
    b = new_block(a, standard_size(a));
    b->next = a->head;
    a->head = b;
  }
  void *p = (char *)b->data + b->used;
  b->used += n;
  UNPOISON(p, n);
  return p;
}

void tfr_arena_on_free(tfr_arena *a, void (*fn)(void *ctx), void *ctx) {
  struct cleanup *c = tfr_arena_alloc_raw(a, sizeof *c);
  c->fn = fn;
  c->ctx = ctx;
  c->next = a->cleanups;
  a->cleanups = c;
}

char *tfr_arena_strndup(tfr_arena *a, const char *s, size_t n) {
  char *p = tfr_arena_alloc_raw(a, n + 1); /* every byte is written */
  if (n)
    memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *tfr_arena_strdup(tfr_arena *a, const char *s) {
  return tfr_arena_strndup(a, s, strlen(s));
}

char *tfr_arena_printf(tfr_arena *a, const char *fmt, ...) {
  if (!fmt) /* (gcc 12 -O2 with sanitizers warns of a null format else) */
    return tfr_arena_strdup(a, "");
  va_list ap;
  char probe[1];
  va_start(ap, fmt);
  int n = vsnprintf(probe, 0, fmt, ap); /* the length only */
  va_end(ap);
  if (n < 0)
    return tfr_arena_strdup(a, "");
  char *p = tfr_arena_alloc(a, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

size_t tfr_arena_used(const tfr_arena *a) { return a->total; }

static size_t budget_set; /* tfr_set_memory_budget; 0: the default */

void tfr_set_memory_budget(size_t bytes) { budget_set = bytes; }

/* Half the physical memory, at most 16 GiB (sysconf asks the kernel:
** asked once, as every function call checks the budget). */
static size_t default_budget(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  uint64_t cap = (uint64_t)16 << 30, mem = cap * 2;
  if (pages > 0 && size > 0)
    mem = (uint64_t)pages * (uint64_t)size;
  uint64_t b = mem / 2 < cap ? mem / 2 : cap;
  return b > SIZE_MAX ? SIZE_MAX : (size_t)b;
}

static size_t budget_default;
static pthread_once_t budget_once = PTHREAD_ONCE_INIT;

static void set_default_budget(void) { budget_default = default_budget(); }

size_t arena_value_budget(void) {
  if (budget_set)
    return budget_set;
  pthread_once(&budget_once, set_default_budget);
  return budget_default;
}

void *arena_grow(tfr_arena *a, void *v, size_t n, size_t *cap, size_t size,
                 size_t first) {
  if (n < *cap)
    return v;
  size_t c = *cap ? 2 * *cap : first;
  void *nv = tfr_arena_alloc(a, c * size); /* too large: out of memory */
  if (n)
    memcpy(nv, v, n * size);
  *cap = c;
  return nv;
}
