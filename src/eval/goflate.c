/*
** Go's compress/flate and compress/gzip, ported byte for byte (see
** goflate.h): base64gzip's compressor at level 6 and OpenTofu's
** base64gunzip's reader, whose output and error texts are Go's.
*/
#include "eval/goflate.h"
#include "base/heap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "base/arena_int.h"
#include "base/compat.h"
#include "base/strutil.h"
#include "tfresolve/value.h"

/* ---- base64gzip: Go's compress/flate at level 6, byte for byte ----------- */

/*
** zlib compresses differently, so this is a port of the Go 1.19
** compressor Terraform's base64gzip runs (compress/flate's deflate() with
** lazy matching, huffman_bit_writer.go, huffman_code.go): the same
** tokens, the same block choices, the same Huffman codes.
*/
enum {
  WIN_BITS = 15,
  WIN_SIZE = 1 << WIN_BITS,
  WIN_MASK = WIN_SIZE - 1,
  MIN_MATCH = 4,
  MAX_MATCH = 258,
  BASE_MATCH_LEN = 3,
  MAX_BLOCK_TOKENS = 1 << 14,
  MAX_STORE_BLOCK = 65535,
  HASH_BITS = 17,
  HASH_SIZE = 1 << HASH_BITS,
  HASH_MASK = HASH_SIZE - 1,
  MAX_HASH_OFFSET = 1 << 24,
  NUM_LIT = 286,
  NUM_OFF = 30,
  NUM_CODEGEN = 19,
  END_BLOCK = 256,
  LEN_CODES_START = 257,
  BAD_CODE = 255,
  MATCH_TYPE = 1 << 30,
  LEN_SHIFT = 22,
};

/* Level 6 (Go's DefaultCompression). */
enum { LV_GOOD = 8, LV_LAZY = 16, LV_NICE = 128, LV_CHAIN = 128 };

struct hcode {
  uint16_t code, len;
};

struct lnode {
  uint16_t literal;
  int32_t freq;
};

struct henc {
  struct hcode codes[NUM_LIT];
  struct lnode list[NUM_LIT + 1];
  int32_t bit_count[17];
};

struct bitw {
  struct sbuf *out;
  uint64_t bits;
  unsigned nbits;
  int32_t lit_freq[NUM_LIT], off_freq[NUM_OFF], codegen_freq[NUM_CODEGEN];
  uint8_t codegen[NUM_LIT + NUM_OFF + 1];
  struct henc lit, off, cg;
};

struct flate {
  struct bitw w;
  uint32_t hash_head[HASH_SIZE], hash_prev[WIN_SIZE];
  int chain_head, hash_offset, index, window_end, block_start;
  bool byte_available, sync;
  unsigned char window[2 * WIN_SIZE];
  uint32_t *tokens;
  int ntokens;
  int length, offset, max_insert;
};

static const uint8_t length_codes[256] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  8,  9,  9,  10, 10, 11, 11, 12, 12, 12,
    12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15, 16, 16, 16, 16, 16, 16,
    16, 16, 17, 17, 17, 17, 17, 17, 17, 17, 18, 18, 18, 18, 18, 18, 18, 18, 19,
    19, 19, 19, 19, 19, 19, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
    20, 20, 20, 20, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21,
    21, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 23, 23,
    23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 24, 24, 24, 24, 24,
    24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24,
    24, 24, 24, 24, 24, 24, 24, 24, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25,
    25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25,
    25, 25, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26,
    26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 27, 27, 27, 27,
    27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27,
    27, 27, 27, 27, 27, 27, 27, 27, 28};
static const int8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                        1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                        4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t length_base[29] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,   10,  12,  14,  16,  20, 24,
    28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 255};
static const int8_t offset_extra[30] = {0, 0, 0,  0,  1,  1,  2,  2,  3,  3,
                                        4, 4, 5,  5,  6,  6,  7,  7,  8,  8,
                                        9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static const uint32_t offset_base[30] = {
    0x0000, 0x0001, 0x0002, 0x0003, 0x0004, 0x0006, 0x0008, 0x000c,
    0x0010, 0x0018, 0x0020, 0x0030, 0x0040, 0x0060, 0x0080, 0x00c0,
    0x0100, 0x0180, 0x0200, 0x0300, 0x0400, 0x0600, 0x0800, 0x0c00,
    0x1000, 0x1800, 0x2000, 0x3000, 0x4000, 0x6000};
static const uint8_t codegen_order[NUM_CODEGEN] = {
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* Go's offsetCode over its offsetCodes table (0..255), computed. */
static uint32_t off_code_small(uint32_t off) {
  if (off < 4)
    return off;
  uint32_t b = 31 - (uint32_t)compat_clz32(off);
  return 2 * b + ((off >> (b - 1)) & 1);
}

static uint32_t offset_code(uint32_t off) {
  if (off < 256)
    return off_code_small(off);
  if (off >> 7 < 256)
    return off_code_small(off >> 7) + 14;
  return off_code_small(off >> 14) + 28;
}

static uint16_t reverse_bits(uint16_t n, unsigned len) {
  uint16_t r = 0;
  for (unsigned i = 0; i < len; i++)
    r = (uint16_t)(r << 1 | ((n >> i) & 1));
  return r;
}

static void bw_bits(struct bitw *w, uint32_t b, unsigned nb) {
  w->bits |= (uint64_t)b << w->nbits;
  w->nbits += nb;
  while (w->nbits >= 8) {
    char c = (char)w->bits;
    sbuf_put(w->out, &c, 1);
    w->bits >>= 8;
    w->nbits -= 8;
  }
}

static void bw_code(struct bitw *w, struct hcode c) {
  bw_bits(w, c.code, c.len);
}

static void bw_flush(struct bitw *w) {
  if (w->nbits)
    bw_bits(w, 0, 8 - w->nbits);
}

static int lnode_by_freq(const void *x, const void *y) {
  const struct lnode *a = x, *b = y;
  if (a->freq != b->freq)
    return a->freq < b->freq ? -1 : 1;
  return (a->literal > b->literal) - (a->literal < b->literal);
}

static int lnode_by_literal(const void *x, const void *y) {
  const struct lnode *a = x, *b = y;
  return (a->literal > b->literal) - (a->literal < b->literal);
}

/* huffmanEncoder.bitCounts: length-limited code lengths (n >= 3). */
static void henc_bit_counts(struct henc *h, struct lnode *list, int32_t n,
                            int32_t max_bits) {
  struct {
    int32_t level, last_freq, next_char_freq, next_pair_freq, needed;
  } levels[16];
  int32_t leaf[16][16];
  memset(levels, 0, sizeof levels);
  memset(leaf, 0, sizeof leaf);
  list[n] = (struct lnode){UINT16_MAX, INT32_MAX};
  if (max_bits > n - 1)
    max_bits = n - 1;
  for (int32_t l = 1; l <= max_bits; l++) {
    levels[l].level = l;
    levels[l].last_freq = list[1].freq;
    levels[l].next_char_freq = list[2].freq;
    levels[l].next_pair_freq = l == 1 ? INT32_MAX : list[0].freq + list[1].freq;
    leaf[l][l] = 2;
  }
  levels[max_bits].needed = 2 * n - 4;
  int32_t level = max_bits;
  for (;;) {
    if (levels[level].next_pair_freq == INT32_MAX &&
        levels[level].next_char_freq == INT32_MAX) {
      levels[level].needed = 0;
      levels[level + 1].next_pair_freq = INT32_MAX;
      level++;
      continue;
    }
    int32_t prev_freq = levels[level].last_freq;
    if (levels[level].next_char_freq < levels[level].next_pair_freq) {
      int32_t k = leaf[level][level] + 1;
      levels[level].last_freq = levels[level].next_char_freq;
      leaf[level][level] = k;
      levels[level].next_char_freq = list[k].freq;
    } else {
      levels[level].last_freq = levels[level].next_pair_freq;
      memcpy(leaf[level], leaf[level - 1], (size_t)level * sizeof **leaf);
      levels[level - 1].needed = 2;
    }
    if (--levels[level].needed == 0) {
      if (level == max_bits)
        break;
      levels[level + 1].next_pair_freq = prev_freq + levels[level].last_freq;
      level++;
    } else {
      while (levels[level - 1].needed > 0)
        level--;
    }
  }
  memset(h->bit_count, 0, sizeof h->bit_count);
  for (int32_t l = max_bits, bits = 1; l > 0; l--, bits++)
    h->bit_count[bits] = leaf[max_bits][l] - leaf[max_bits][l - 1];
  h->bit_count[0] = max_bits; /* number of lengths used, for the caller */
}

/* huffmanEncoder.generate */
static void henc_generate(struct henc *h, const int32_t *freq, int nfreq,
                          int32_t max_bits) {
  int32_t count = 0;
  for (int i = 0; i < nfreq; i++) {
    if (freq[i])
      h->list[count++] = (struct lnode){(uint16_t)i, freq[i]};
    else
      h->codes[i].len = 0;
  }
  if (count <= 2) {
    for (int32_t i = 0; i < count; i++)
      h->codes[h->list[i].literal] = (struct hcode){(uint16_t)i, 1};
    return;
  }
  qsort(h->list, (size_t)count, sizeof *h->list, lnode_by_freq);
  henc_bit_counts(h, h->list, count, max_bits);
  int32_t used = h->bit_count[0];
  uint16_t code = 0;
  int32_t len = count;
  for (int32_t n = 0; n <= used; n++) {
    code = (uint16_t)(code << 1);
    int32_t bits = n ? h->bit_count[n] : 0;
    if (!n || !bits)
      continue;
    struct lnode *chunk = h->list + len - bits;
    qsort(chunk, (size_t)bits, sizeof *chunk, lnode_by_literal);
    for (int32_t i = 0; i < bits; i++)
      h->codes[chunk[i].literal] =
          (struct hcode){reverse_bits(code++, (unsigned)n), (uint16_t)n};
    len -= bits;
  }
}

static int henc_bit_length(const struct henc *h, const int32_t *freq, int n) {
  int total = 0;
  for (int i = 0; i < n; i++)
    if (freq[i])
      total += freq[i] * h->codes[i].len;
  return total;
}

static struct hcode fixed_lit(int ch) {
  uint16_t bits, size;
  if (ch < 144)
    bits = (uint16_t)(ch + 48), size = 8;
  else if (ch < 256)
    bits = (uint16_t)(ch + 400 - 144), size = 9;
  else if (ch < 280)
    bits = (uint16_t)(ch - 256), size = 7;
  else
    bits = (uint16_t)(ch + 192 - 280), size = 8;
  return (struct hcode){reverse_bits(bits, size), size};
}

/* huffmanBitWriter.generateCodegen */
static void bw_generate_codegen(struct bitw *w, int nlit, int noff) {
  memset(w->codegen_freq, 0, sizeof w->codegen_freq);
  uint8_t *cg = w->codegen;
  for (int i = 0; i < nlit; i++)
    cg[i] = (uint8_t)w->lit.codes[i].len;
  for (int i = 0; i < noff; i++)
    cg[nlit + i] = (uint8_t)w->off.codes[i].len;
  cg[nlit + noff] = BAD_CODE;
  uint8_t size = cg[0];
  int count = 1, out = 0;
  for (int in = 1; size != BAD_CODE; in++) {
    uint8_t next = cg[in];
    if (next == size) {
      count++;
      continue;
    }
    if (size != 0) {
      cg[out++] = size;
      w->codegen_freq[size]++;
      count--;
      while (count >= 3) {
        int n = count < 6 ? count : 6;
        cg[out++] = 16;
        cg[out++] = (uint8_t)(n - 3);
        w->codegen_freq[16]++;
        count -= n;
      }
    } else {
      while (count >= 11) {
        int n = count < 138 ? count : 138;
        cg[out++] = 18;
        cg[out++] = (uint8_t)(n - 11);
        w->codegen_freq[18]++;
        count -= n;
      }
      if (count >= 3) {
        cg[out++] = 17;
        cg[out++] = (uint8_t)(count - 3);
        w->codegen_freq[17]++;
        count = 0;
      }
    }
    for (count--; count >= 0; count--) {
      cg[out++] = size;
      w->codegen_freq[size]++;
    }
    size = next;
    count = 1;
  }
  cg[out] = BAD_CODE;
}

static int bw_dynamic_size(struct bitw *w, int extra, int *ncodegens) {
  int n = NUM_CODEGEN;
  while (n > 4 && !w->codegen_freq[codegen_order[n - 1]])
    n--;
  *ncodegens = n;
  int header = 3 + 5 + 5 + 4 + 3 * n +
               henc_bit_length(&w->cg, w->codegen_freq, NUM_CODEGEN) +
               w->codegen_freq[16] * 2 + w->codegen_freq[17] * 3 +
               w->codegen_freq[18] * 7;
  return header + henc_bit_length(&w->lit, w->lit_freq, NUM_LIT) +
         henc_bit_length(&w->off, w->off_freq, NUM_OFF) + extra;
}

static int bw_fixed_size(struct bitw *w, int extra) {
  int total = 3 + extra;
  for (int i = 0; i < NUM_LIT; i++)
    total += w->lit_freq[i] * fixed_lit(i).len;
  for (int i = 0; i < NUM_OFF; i++)
    total += w->off_freq[i] * 5;
  return total;
}

static void bw_stored_header(struct bitw *w, int length, bool eof) {
  bw_bits(w, eof ? 1 : 0, 3);
  bw_flush(w);
  bw_bits(w, (uint32_t)length, 16);
  bw_bits(w, (uint16_t) ~(uint16_t)length, 16);
}

static void bw_dynamic_header(struct bitw *w, int nlit, int noff, int ncg,
                              bool eof) {
  bw_bits(w, eof ? 5 : 4, 3);
  bw_bits(w, (uint32_t)(nlit - 257), 5);
  bw_bits(w, (uint32_t)(noff - 1), 5);
  bw_bits(w, (uint32_t)(ncg - 4), 4);
  for (int i = 0; i < ncg; i++)
    bw_bits(w, w->cg.codes[codegen_order[i]].len, 3);
  for (int i = 0;;) {
    int cw = w->codegen[i++];
    if (cw == BAD_CODE)
      break;
    bw_code(w, w->cg.codes[cw]);
    if (cw >= 16)
      bw_bits(w, w->codegen[i++], cw == 16 ? 2 : cw == 17 ? 3 : 7);
  }
}

/* huffmanBitWriter.indexTokens */
static void bw_index_tokens(struct bitw *w, const uint32_t *t, int n, int *nlit,
                            int *noff) {
  memset(w->lit_freq, 0, sizeof w->lit_freq);
  memset(w->off_freq, 0, sizeof w->off_freq);
  for (int i = 0; i < n; i++) {
    if (t[i] < MATCH_TYPE) {
      w->lit_freq[t[i]]++;
      continue;
    }
    uint32_t len = (t[i] - MATCH_TYPE) >> LEN_SHIFT;
    w->lit_freq[LEN_CODES_START + length_codes[len]]++;
    w->off_freq[offset_code(t[i] & ((1u << LEN_SHIFT) - 1))]++;
  }
  *nlit = NUM_LIT;
  while (!w->lit_freq[*nlit - 1])
    (*nlit)--;
  *noff = NUM_OFF;
  while (*noff > 0 && !w->off_freq[*noff - 1])
    (*noff)--;
  if (!*noff) {
    w->off_freq[0] = 1;
    *noff = 1;
  }
  henc_generate(&w->lit, w->lit_freq, NUM_LIT, 15);
  henc_generate(&w->off, w->off_freq, NUM_OFF, 15);
}

static void bw_tokens(struct bitw *w, const uint32_t *t, int n, bool fixed) {
  for (int i = 0; i < n; i++) {
    if (t[i] < MATCH_TYPE) {
      bw_code(w, fixed ? fixed_lit((int)t[i]) : w->lit.codes[t[i]]);
      continue;
    }
    uint32_t len = (t[i] - MATCH_TYPE) >> LEN_SHIFT;
    uint32_t lc = length_codes[len];
    bw_code(w, fixed ? fixed_lit((int)lc + LEN_CODES_START)
                     : w->lit.codes[lc + LEN_CODES_START]);
    if (length_extra[lc])
      bw_bits(w, len - length_base[lc], (unsigned)length_extra[lc]);
    uint32_t off = t[i] & ((1u << LEN_SHIFT) - 1), oc = offset_code(off);
    bw_code(w, fixed ? (struct hcode){reverse_bits((uint16_t)oc, 5), 5}
                     : w->off.codes[oc]);
    if (offset_extra[oc])
      bw_bits(w, off - offset_base[oc], (unsigned)offset_extra[oc]);
  }
}

/* huffmanBitWriter.writeBlock (never the last block here).  input is
** the block's bytes, or NULL when they are no longer in the window. */
static void bw_block(struct bitw *w, uint32_t *t, int n,
                     const unsigned char *input, int inlen) {
  t[n++] = END_BLOCK;
  int nlit, noff, extra = 0, ncg;
  bw_index_tokens(w, t, n, &nlit, &noff);
  bool storable = input && inlen <= MAX_STORE_BLOCK;
  if (storable) {
    for (int lc = LEN_CODES_START + 8; lc < nlit; lc++)
      extra += w->lit_freq[lc] * length_extra[lc - LEN_CODES_START];
    for (int oc = 4; oc < noff; oc++)
      extra += w->off_freq[oc] * offset_extra[oc];
  }
  int size = bw_fixed_size(w, extra);
  bw_generate_codegen(w, nlit, noff);
  henc_generate(&w->cg, w->codegen_freq, NUM_CODEGEN, 7);
  int dyn = bw_dynamic_size(w, extra, &ncg);
  bool fixed = dyn >= size;
  if (!fixed)
    size = dyn;
  if (storable && (inlen + 5) * 8 < size) {
    bw_stored_header(w, inlen, false);
    sbuf_put(w->out, (const char *)input, (size_t)inlen);
    return;
  }
  if (fixed)
    bw_bits(w, 2, 3);
  else
    bw_dynamic_header(w, nlit, noff, ncg, false);
  bw_tokens(w, t, n, fixed);
}

static uint32_t hash4(const unsigned char *b) {
  uint32_t v = (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 |
               (uint32_t)b[0] << 24;
  return (v * 0x1e35a7bdu) >> (32 - HASH_BITS);
}

static void fl_write_block(struct flate *d, int index) {
  if (index > 0) {
    const unsigned char *win =
        d->block_start <= index ? d->window + d->block_start : NULL;
    int len = win ? index - d->block_start : 0;
    d->block_start = index;
    bw_block(&d->w, d->tokens, d->ntokens, win, len);
  }
  d->ntokens = 0;
}

/* compressor.findMatch */
static bool fl_find_match(struct flate *d, int pos, int prev_head, int prev_len,
                          int lookahead, int *length, int *offset) {
  int min_look = lookahead < MAX_MATCH ? lookahead : MAX_MATCH;
  const unsigned char *win = d->window;
  int nice = min_look < LV_NICE ? min_look : LV_NICE;
  int tries = LV_CHAIN;
  bool ok = false;
  *length = prev_len;
  if (*length >= LV_GOOD)
    tries >>= 2;
  unsigned char w_end = win[pos + *length];
  int min_index = pos - WIN_SIZE;
  for (int i = prev_head; tries > 0; tries--) {
    if (w_end == win[i + *length]) {
      int n = 0;
      while (n < min_look && win[i + n] == win[pos + n])
        n++;
      if (n > *length && (n > MIN_MATCH || pos - i <= 4096)) {
        *length = n;
        *offset = pos - i;
        ok = true;
        if (n >= nice)
          break;
        w_end = win[pos + n];
      }
    }
    if (i == min_index)
      break;
    i = (int)d->hash_prev[i & WIN_MASK] - d->hash_offset;
    if (i < min_index || i < 0)
      break;
  }
  return ok;
}

static void fl_insert(struct flate *d, int index) {
  uint32_t *hh = &d->hash_head[hash4(d->window + index) & HASH_MASK];
  d->hash_prev[index & WIN_MASK] = *hh;
  *hh = (uint32_t)(index + d->hash_offset);
}

/* compressor.deflate with lazy matching (levels 4-9). */
static void fl_deflate(struct flate *d) {
  if (d->window_end - d->index < MIN_MATCH + MAX_MATCH && !d->sync)
    return;
  d->max_insert = d->window_end - (MIN_MATCH - 1);
  for (;;) {
    int lookahead = d->window_end - d->index;
    if (lookahead < MIN_MATCH + MAX_MATCH) {
      if (!d->sync)
        break;
      if (lookahead == 0) {
        if (d->byte_available) {
          d->tokens[d->ntokens++] = d->window[d->index - 1];
          d->byte_available = false;
        }
        if (d->ntokens > 0)
          fl_write_block(d, d->index);
        break;
      }
    }
    if (d->index < d->max_insert) {
      uint32_t *hh = &d->hash_head[hash4(d->window + d->index) & HASH_MASK];
      d->chain_head = (int)*hh;
      d->hash_prev[d->index & WIN_MASK] = (uint32_t)d->chain_head;
      *hh = (uint32_t)(d->index + d->hash_offset);
    }
    int prev_len = d->length, prev_off = d->offset;
    d->length = MIN_MATCH - 1;
    d->offset = 0;
    int min_index = d->index - WIN_SIZE > 0 ? d->index - WIN_SIZE : 0;
    if (d->chain_head - d->hash_offset >= min_index && lookahead > prev_len &&
        prev_len < LV_LAZY) {
      int nl, no;
      if (fl_find_match(d, d->index, d->chain_head - d->hash_offset,
                        MIN_MATCH - 1, lookahead, &nl, &no)) {
        d->length = nl;
        d->offset = no;
      }
    }
    if (prev_len >= MIN_MATCH && d->length <= prev_len) {
      d->tokens[d->ntokens++] =
          MATCH_TYPE + ((uint32_t)(prev_len - BASE_MATCH_LEN) << LEN_SHIFT) +
          (uint32_t)(prev_off - 1);
      int newi = d->index + prev_len - 1, index = d->index;
      for (index++; index < newi; index++)
        if (index < d->max_insert)
          fl_insert(d, index);
      d->index = index;
      d->byte_available = false;
      d->length = MIN_MATCH - 1;
      if (d->ntokens == MAX_BLOCK_TOKENS)
        fl_write_block(d, d->index);
    } else {
      if (d->byte_available) {
        int i = d->index - 1;
        d->tokens[d->ntokens++] = d->window[i];
        if (d->ntokens == MAX_BLOCK_TOKENS)
          fl_write_block(d, i + 1);
      }
      d->index++;
      d->byte_available = true;
    }
  }
}

/* compressor.fillDeflate */
static int fl_fill(struct flate *d, const unsigned char *b, size_t n) {
  if (d->index >= 2 * WIN_SIZE - (MIN_MATCH + MAX_MATCH)) {
    memmove(d->window, d->window + WIN_SIZE, WIN_SIZE);
    d->index -= WIN_SIZE;
    d->window_end -= WIN_SIZE;
    d->block_start =
        d->block_start >= WIN_SIZE ? d->block_start - WIN_SIZE : INT32_MAX;
    d->hash_offset += WIN_SIZE;
    if (d->hash_offset > MAX_HASH_OFFSET) {
      int delta = d->hash_offset - 1;
      d->hash_offset -= delta;
      d->chain_head -= delta;
      for (size_t i = 0; i < WIN_SIZE; i++)
        d->hash_prev[i] = (int)d->hash_prev[i] > delta
                              ? (uint32_t)((int)d->hash_prev[i] - delta)
                              : 0;
      for (size_t i = 0; i < HASH_SIZE; i++)
        d->hash_head[i] = (int)d->hash_head[i] > delta
                              ? (uint32_t)((int)d->hash_head[i] - delta)
                              : 0;
    }
  }
  size_t room = 2 * WIN_SIZE - (size_t)d->window_end;
  size_t k = n < room ? n : room;
  memcpy(d->window + d->window_end, b, k);
  d->window_end += (int)k;
  return (int)k;
}

/*
** gzip of n bytes as Go's gzip.NewWriter writes it (no name, no mtime,
** OS 255), after Terraform's Write, Flush and Close.
*/
bool go_gzip(struct sbuf *out, const unsigned char *s, size_t n) {
  static const char header[10] = {0x1f, (char)0x8b, 8, 0, 0,
                                  0,    0,          0, 0, (char)0xff};
  sbuf_put(out, header, sizeof header);
  struct flate *d = heap_calloc(1, sizeof *d);
  uint32_t *tokens = heap_alloc((MAX_BLOCK_TOKENS + 2) * sizeof *tokens);
  d->w.out = out;
  d->tokens = tokens;
  d->hash_offset = 1;
  d->length = MIN_MATCH - 1;
  d->chain_head = -1;
  for (size_t off = 0; off < n;) { /* Write */
    fl_deflate(d);
    off += (size_t)fl_fill(d, s + off, n - off);
  }
  d->sync = true; /* Flush */
  fl_deflate(d);
  bw_stored_header(&d->w, 0, false);
  bw_flush(&d->w);
  fl_deflate(d); /* Close */
  bw_stored_header(&d->w, 0, true);
  bw_flush(&d->w);
  free(tokens);
  free(d);
  uint32_t crc = (uint32_t)crc32(0, s, (uInt)n), size = (uint32_t)n;
  char trailer[8];
  for (int i = 0; i < 4; i++) {
    trailer[i] = (char)(crc >> (8 * i));
    trailer[4 + i] = (char)(size >> (8 * i));
  }
  sbuf_put(out, trailer, 8);
  return true;
}

/*
** Go's compress/flate decompressor (Go 1.19 inflate.go), reading the whole
** input from memory.  Ported rather than left to zlib because its error
** is visible: "flate: corrupt input before offset N" counts the bytes the
** decoder had read when it noticed, and Go reads them one at a time, only
** as many as the next code needs (a symbol's bits, at least the shortest
** code's), which zlib does not.  The output is the whole member; the
** 32 KiB window is only a limit on copy distances here.
*/

enum { HUFF_CHUNK_BITS = 9, HUFF_CHUNKS = 1 << HUFF_CHUNK_BITS };

struct huff {
  int min;                      /* shortest code; EOB's length for HLIT */
  uint32_t chunks[HUFF_CHUNKS]; /* value << 4 | code length; 0: invalid */
  uint32_t *links;              /* overflow tables, nlinks x link_mask+1 */
  uint32_t link_mask;
};

/* INF_TOO_LARGE: the output would pass the inflater's limit (the run's
** memory budget, and a string's 4 GiB). */
enum inflate_status { INF_OK, INF_UNEXPECTED_EOF, INF_CORRUPT, INF_TOO_LARGE };

struct inflater {
  const unsigned char *in;
  size_t n, pos;   /* the gzip data and the next byte to read */
  int64_t roffset; /* bytes this member's decoder has read */
  uint32_t b;      /* bit buffer, least significant bits first */
  unsigned nb;     /* bits in b */
  bool final;
  struct huff h1, h2, fixed;
  int bits[286 + 30];
  int codebits[19];
  struct sbuf *out;
  size_t start; /* where this member's output began */
  size_t limit; /* the output may not grow past this many bytes */
};

static unsigned rev16(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 16; i++, x >>= 1)
    r = r << 1 | (x & 1);
  return r;
}

/* huffmanDecoder.init: false for an over- or under-subscribed code (but a
** single code of length 1 and an empty code are accepted). */
static bool huff_init(struct huff *h, const int *lengths, size_t n) {
  free(h->links);
  memset(h, 0, sizeof *h);
  int count[16] = {0}, nextcode[16] = {0}, min = 0, max = 0;
  for (size_t i = 0; i < n; i++) {
    int l = lengths[i];
    if (!l)
      continue;
    if (!min || l < min)
      min = l;
    if (l > max)
      max = l;
    count[l]++;
  }
  if (!max)
    return true;
  int code = 0;
  for (int i = min; i <= max; i++) {
    code <<= 1;
    nextcode[i] = code;
    code += count[i];
  }
  if (code != 1 << max && !(code == 1 && max == 1))
    return false;
  h->min = min;
  unsigned nlinks = 1;
  if (max > HUFF_CHUNK_BITS) {
    nlinks = 1u << (max - HUFF_CHUNK_BITS);
    h->link_mask = nlinks - 1;
    unsigned link = (unsigned)nextcode[HUFF_CHUNK_BITS + 1] >> 1;
    h->links =
        heap_calloc((size_t)(HUFF_CHUNKS - link) * nlinks, sizeof *h->links);
    for (unsigned j = link; j < HUFF_CHUNKS; j++) {
      unsigned reverse = rev16(j) >> (16 - HUFF_CHUNK_BITS);
      h->chunks[reverse] = (j - link) << 4 | (HUFF_CHUNK_BITS + 1);
    }
  }
  for (size_t i = 0; i < n; i++) {
    int l = lengths[i];
    if (!l)
      continue;
    unsigned c = (unsigned)nextcode[l]++;
    uint32_t chunk = (uint32_t)i << 4 | (uint32_t)l;
    unsigned reverse = rev16(c) >> (16 - l);
    if (l <= HUFF_CHUNK_BITS) {
      for (unsigned off = reverse; off < HUFF_CHUNKS; off += 1u << l)
        h->chunks[off] = chunk;
    } else {
      uint32_t *tab =
          h->links +
          (size_t)(h->chunks[reverse & (HUFF_CHUNKS - 1)] >> 4) * nlinks;
      for (unsigned off = reverse >> HUFF_CHUNK_BITS; off < nlinks;
           off += 1u << (l - HUFF_CHUNK_BITS))
        tab[off] = chunk;
    }
  }
  return true;
}

static enum inflate_status more_bits(struct inflater *z) {
  if (z->pos == z->n)
    return INF_UNEXPECTED_EOF;
  z->roffset++;
  z->b |= (uint32_t)z->in[z->pos++] << z->nb;
  z->nb += 8;
  return INF_OK;
}

static enum inflate_status need_bits(struct inflater *z, unsigned k) {
  while (z->nb < k)
    if (more_bits(z) != INF_OK)
      return INF_UNEXPECTED_EOF;
  return INF_OK;
}

static unsigned take_bits(struct inflater *z, unsigned k) {
  unsigned v = z->b & ((1u << k) - 1);
  z->b >>= k;
  z->nb -= k;
  return v;
}

/* huffSym: the next symbol of code h. */
static enum inflate_status huff_sym(struct inflater *z, const struct huff *h,
                                    int *sym) {
  unsigned n = (unsigned)h->min;
  for (;;) {
    if (need_bits(z, n) != INF_OK)
      return INF_UNEXPECTED_EOF;
    uint32_t chunk = h->chunks[z->b & (HUFF_CHUNKS - 1)];
    n = chunk & 15;
    if (n > HUFF_CHUNK_BITS) {
      chunk = h->links[(size_t)(chunk >> 4) * (h->link_mask + 1) +
                       ((z->b >> HUFF_CHUNK_BITS) & h->link_mask)];
      n = chunk & 15;
    }
    if (n <= z->nb) {
      if (n == 0)
        return INF_CORRUPT;
      take_bits(z, n);
      *sym = (int)(chunk >> 4);
      return INF_OK;
    }
  }
}

static const int code_order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                   11, 4,  12, 3, 13, 2, 14, 1, 15};

/* readHuffman: a dynamic block's code tables into h1 and h2. */
static enum inflate_status read_huffman(struct inflater *z) {
  if (need_bits(z, 14) != INF_OK)
    return INF_UNEXPECTED_EOF;
  int nlit = (int)take_bits(z, 5) + 257;
  if (nlit > 286)
    return INF_CORRUPT;
  int ndist = (int)take_bits(z, 5) + 1;
  if (ndist > 30)
    return INF_CORRUPT;
  int nclen = (int)take_bits(z, 4) + 4;
  for (int i = 0; i < 19; i++) {
    if (i < nclen) {
      if (need_bits(z, 3) != INF_OK)
        return INF_UNEXPECTED_EOF;
      z->codebits[code_order[i]] = (int)take_bits(z, 3);
    } else {
      z->codebits[code_order[i]] = 0;
    }
  }
  if (!huff_init(&z->h1, z->codebits, 19))
    return INF_CORRUPT;
  for (int i = 0, n = nlit + ndist; i < n;) {
    int x;
    enum inflate_status st = huff_sym(z, &z->h1, &x);
    if (st != INF_OK)
      return st;
    if (x < 16) {
      z->bits[i++] = x;
      continue;
    }
    int rep = x == 18 ? 11 : 3, val = 0;
    unsigned nb = x == 16 ? 2 : x == 17 ? 3 : 7;
    if (x == 16) {
      if (i == 0)
        return INF_CORRUPT;
      val = z->bits[i - 1];
    }
    if (need_bits(z, nb) != INF_OK)
      return INF_UNEXPECTED_EOF;
    rep += (int)take_bits(z, nb);
    if (i + rep > n)
      return INF_CORRUPT;
    while (rep--)
      z->bits[i++] = val;
  }
  if (!huff_init(&z->h1, z->bits, (size_t)nlit) ||
      !huff_init(&z->h2, z->bits + nlit, (size_t)ndist))
    return INF_CORRUPT;
  if (z->h1.min < z->bits[256]) /* no read past the end-of-block code */
    z->h1.min = z->bits[256];
  return INF_OK;
}

/* huffmanBlock: symbols of hl (and hd; NULL: fixed distances) up to the
** end of the block. */
static enum inflate_status huffman_block(struct inflater *z,
                                         const struct huff *hl,
                                         const struct huff *hd) {
  for (;;) {
    int v;
    enum inflate_status st = huff_sym(z, hl, &v);
    if (st != INF_OK)
      return st;
    if (v < 256) {
      if (z->out->n >= z->limit)
        return INF_TOO_LARGE;
      char c = (char)v;
      sbuf_put(z->out, &c, 1);
      continue;
    }
    if (v == 256)
      return INF_OK;
    int length;
    unsigned n;
    if (v < 265) {
      length = v - (257 - 3), n = 0;
    } else if (v < 269) {
      length = v * 2 - (265 * 2 - 11), n = 1;
    } else if (v < 273) {
      length = v * 4 - (269 * 4 - 19), n = 2;
    } else if (v < 277) {
      length = v * 8 - (273 * 8 - 35), n = 3;
    } else if (v < 281) {
      length = v * 16 - (277 * 16 - 67), n = 4;
    } else if (v < 285) {
      length = v * 32 - (281 * 32 - 131), n = 5;
    } else if (v < 286) {
      length = 258, n = 0;
    } else {
      return INF_CORRUPT;
    }
    if (n) {
      if (need_bits(z, n) != INF_OK)
        return INF_UNEXPECTED_EOF;
      length += (int)take_bits(z, n);
    }
    int dist;
    if (!hd) {
      if (need_bits(z, 5) != INF_OK)
        return INF_UNEXPECTED_EOF;
      unsigned r = take_bits(z, 5); /* 5 bits, most significant first */
      dist = (int)((r & 1) << 4 | (r & 2) << 2 | (r & 4) | (r & 8) >> 2 |
                   (r & 16) >> 4);
    } else if ((st = huff_sym(z, hd, &dist)) != INF_OK) {
      return st;
    }
    if (dist < 4) {
      dist++;
    } else if (dist < 30) {
      unsigned nb = (unsigned)(dist - 2) >> 1;
      int extra = (dist & 1) << nb;
      if (need_bits(z, nb) != INF_OK)
        return INF_UNEXPECTED_EOF;
      extra |= (int)take_bits(z, nb);
      dist = (1 << (nb + 1)) + 1 + extra;
    } else {
      return INF_CORRUPT;
    }
    size_t hist = z->out->n - z->start;
    if ((size_t)dist > (hist < 32768 ? hist : 32768))
      return INF_CORRUPT;
    if ((size_t)length > z->limit - z->out->n)
      return INF_TOO_LARGE;
    if (!sbuf_reserve(z->out, (size_t)length))
      return INF_TOO_LARGE;
    char *o = z->out->p + z->out->n;
    for (int i = 0; i < length; i++) /* may overlap: byte by byte */
      o[i] = o[i - dist];
    z->out->n += (size_t)length;
    z->out->p[z->out->n] = '\0';
  }
}

/* One deflate stream, from z->pos on; z->pos ends after its last byte. */
static enum inflate_status inflate_stream(struct inflater *z) {
  z->roffset = 0;
  z->b = 0;
  z->nb = 0;
  z->start = z->out->n;
  do {
    if (need_bits(z, 3) != INF_OK)
      return INF_UNEXPECTED_EOF;
    z->final = take_bits(z, 1);
    unsigned type = take_bits(z, 2);
    enum inflate_status st = INF_OK;
    if (type == 0) { /* stored: the rest of this byte is dropped */
      z->b = 0;
      z->nb = 0;
      size_t k = z->n - z->pos < 4 ? z->n - z->pos : 4;
      const unsigned char *p = z->in + z->pos;
      z->pos += k;
      z->roffset += (int64_t)k;
      if (k < 4)
        return INF_UNEXPECTED_EOF;
      unsigned len = p[0] | (unsigned)p[1] << 8;
      unsigned nlen = p[2] | (unsigned)p[3] << 8;
      if ((len ^ 0xffff) != nlen)
        return INF_CORRUPT;
      if (z->n - z->pos < len)
        return INF_UNEXPECTED_EOF;
      if (len > z->limit - z->out->n)
        return INF_TOO_LARGE;
      sbuf_put(z->out, (const char *)z->in + z->pos, len);
      z->pos += len;
      z->roffset += len;
    } else if (type == 1) {
      st = huffman_block(z, &z->fixed, NULL);
    } else if (type == 2) {
      st = read_huffman(z);
      if (st == INF_OK)
        st = huffman_block(z, &z->h1, &z->h2);
    } else {
      st = INF_CORRUPT;
    }
    if (st != INF_OK)
      return st;
  } while (!z->final);
  return INF_OK;
}

/* The gzip header of a member (gzip.Reader.readHeader); NULL when it is
** good, else Go's error text ("EOF" when no byte is left). */
static const char *gzip_header(struct inflater *z) {
  const unsigned char *in = z->in;
  size_t left = z->n - z->pos;
  if (left == 0)
    return "EOF";
  if (left < 10)
    return "unexpected EOF";
  const unsigned char *h = in + z->pos;
  if (h[0] != 0x1f || h[1] != 0x8b || h[2] != 8)
    return "gzip: invalid header";
  unsigned flg = h[3];
  uLong crc = crc32(0, h, 10);
  z->pos += 10;
  if (flg & 4) { /* FEXTRA */
    if (z->n - z->pos < 2)
      return "unexpected EOF";
    size_t xlen = in[z->pos] | (size_t)in[z->pos + 1] << 8;
    crc = crc32(crc, in + z->pos, 2);
    z->pos += 2;
    if (z->n - z->pos < xlen)
      return "unexpected EOF";
    crc = crc32(crc, in + z->pos, (uInt)xlen);
    z->pos += xlen;
  }
  for (unsigned flag = 8; flag <= 16; flag <<= 1) { /* FNAME, FCOMMENT */
    if (!(flg & flag))
      continue;
    for (size_t i = 0;; i++) { /* Go's buffer holds 512 bytes */
      if (i >= 512)
        return "gzip: invalid header";
      if (z->pos + i == z->n)
        return "unexpected EOF";
      if (in[z->pos + i] == 0) {
        crc = crc32(crc, in + z->pos, (uInt)(i + 1));
        z->pos += i + 1;
        break;
      }
    }
  }
  if (flg & 2) { /* FHCRC */
    if (z->n - z->pos < 2)
      return "unexpected EOF";
    unsigned want = in[z->pos] | (unsigned)in[z->pos + 1] << 8;
    z->pos += 2;
    if (want != (crc & 0xffff))
      return "gzip: invalid header";
  }
  return NULL;
}

/*
** Go's gzip.NewReader + io.ReadAll: every member (multistream), each
** checked against its CRC-32 and size.  On error returns false with
** OpenTofu's message in *err: a first header that does not read is
** "failed to gunzip bytestream", anything later "failed to read gunzip
** raw data".
*/
bool go_gunzip(tfr_arena *a, struct sbuf *out, const unsigned char *in,
               size_t n, const char **err) {
  struct inflater z = {0};
  z.in = in;
  z.n = n;
  z.out = out;
  /* a little under the budget: the function-call machinery's limit on
  ** every buffer (sbuf_limit_push) must not be what stops it */
  size_t max_string = TFR_MAX_STRING;
  z.limit =
      (arena_value_budget() < max_string ? arena_value_budget() : max_string) -
      64;
  int fixed[288];
  for (int i = 0; i < 288; i++)
    fixed[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
  huff_init(&z.fixed, fixed, 288);
  sbuf_put(out, "", 0);
  const char *e = NULL;
  for (bool first = true;; first = false) {
    e = gzip_header(&z);
    if (e) {
      if (first)
        *err = tfr_arena_printf(a, "failed to gunzip bytestream: %s", e);
      else if (!strcmp(e, "EOF"))
        e = NULL; /* no more members */
      break;
    }
    enum inflate_status st = inflate_stream(&z);
    if (st == INF_TOO_LARGE) {
      *err = tfr_arena_printf(
          a, "value too large: the decompressed data passes %s",
          arena_value_budget() < TFR_MAX_STRING
              ? "this run's memory budget (-max-memory)"
              : "4 GiB, the largest string this program holds");
      e = *err;
      break;
    }
    if (st == INF_CORRUPT) {
      e = tfr_arena_printf(a, "flate: corrupt input before offset %lld",
                           (long long)z.roffset);
      break;
    }
    if (st == INF_UNEXPECTED_EOF || z.n - z.pos < 8) {
      e = "unexpected EOF";
      break;
    }
    const unsigned char *t = in + z.pos;
    z.pos += 8;
    uLong crc32v = crc32(0, NULL, 0);
    for (size_t at = z.start; at < out->n;) { /* uInt counts: in pieces */
      size_t k = out->n - at < (1u << 30) ? out->n - at : (1u << 30);
      crc32v = crc32(crc32v, (const unsigned char *)out->p + at, (uInt)k);
      at += k;
    }
    uint32_t crc = (uint32_t)crc32v;
    uint32_t size = (uint32_t)(out->n - z.start);
    uint32_t want_crc = t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
                        (uint32_t)t[3] << 24;
    uint32_t want_size = t[4] | (uint32_t)t[5] << 8 | (uint32_t)t[6] << 16 |
                         (uint32_t)t[7] << 24;
    if (crc != want_crc || size != want_size) {
      e = "gzip: invalid checksum";
      break;
    }
  }
  free(z.h1.links);
  free(z.h2.links);
  free(z.fixed.links);
  if (e && !*err)
    *err = tfr_arena_printf(a, "failed to read gunzip raw data: %s", e);
  return !e;
}
