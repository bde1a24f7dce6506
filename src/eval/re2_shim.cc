/*
** The C interface of src/eval/re2_shim.h over RE2's C++ API.  No exception
** leaves it: an allocation failure is the library's out-of-memory path.
*/
#include "eval/re2_shim.h"
#include "base/heap.h"

#include <cstdio>
#include <new>
#include <string.h>
#include <vector>

#include <re2/re2.h>

struct re2_shim {
  RE2 *re;
  int groups;
};

extern "C" struct re2_shim *re2_shim_new(const char *pattern, size_t n,
                                         char *err, size_t size) {
  try {
    RE2::Options o;
    o.set_log_errors(false);
    o.set_encoding(RE2::Options::EncodingUTF8);
    o.set_max_mem(int64_t(256) << 20); /* Go has no such limit */
    RE2 *re = new RE2(re2::StringPiece(pattern, n), o);
    if (!re->ok()) {
      snprintf(err, size, "%s", re->error().c_str());
      delete re;
      return nullptr;
    }
    re2_shim *s = new re2_shim{re, re->NumberOfCapturingGroups()};
    return s;
  } catch (const std::bad_alloc &) {
    tfr_oom();
  }
}

extern "C" void re2_shim_free(struct re2_shim *s) {
  if (s) {
    delete s->re;
    delete s;
  }
}

extern "C" int re2_shim_groups(const struct re2_shim *s) { return s->groups; }

extern "C" int re2_shim_match(const struct re2_shim *s, const char *str,
                              size_t n, size_t pos, long *span) {
  try {
    int k = s->groups + 1;
    /* the groups of most patterns fit on the stack: no allocation for
    ** each of 10,000 rules */
    re2::StringPiece few[8];
    std::vector<re2::StringPiece> many(k > 8 ? k : 0);
    re2::StringPiece *sub = k > 8 ? many.data() : few;
    if (!s->re->Match(re2::StringPiece(str, n), pos, n, RE2::UNANCHORED, sub,
                      k))
      return 0;
    for (int i = 0; i < k; i++) {
      if (sub[i].data() == nullptr) {
        span[2 * i] = span[2 * i + 1] = -1;
      } else {
        span[2 * i] = long(sub[i].data() - str);
        span[2 * i + 1] = span[2 * i] + long(sub[i].size());
      }
    }
    return 1;
  } catch (const std::bad_alloc &) {
    tfr_oom();
  }
}
