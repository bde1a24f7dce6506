/*
** libFuzzer target: memory stays inside the budget.  One input is an
** expression evaluated with every built-in function (as `eval -functions`
** does, in a scratch directory with a few files) under a small memory
** budget (tfr_set_memory_budget, -max-memory's library side: 16 MB).
** Whatever it is (nested for expressions, templates, function calls in
** loops), the evaluation ends with a value or a diagnostic, and the
** process's peak memory during it (VmHWM, reset before each input through
** /proc/self/clear_refs) stays under the budget plus a constant: a finding
** otherwise (abort).  Without /proc the peak is not checked.
** Build and run: see tests/fuzz/README.md.
*/
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BUDGET ((size_t)16 << 20)
/* What the process may take beyond the budget while one input runs: the
** iterations' scratch, the renderers, allocator and sanitizer overhead
** (freed memory sits in AddressSanitizer's quarantine, capped below). */
#define SLACK ((size_t)96 << 20)

/* AddressSanitizer's quarantine holds freed memory (256 MB by default):
** capped, so that what an input frees does not count as its peak. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "quarantine_size_mb=16"; }

static const char *const files[][2] = {
    {"a.txt", "hello\n"},
    {"t.tmpl", "%{ for k, v in m }${k}=${v}\n%{ endfor }${x}"},
};
enum { NFILES = sizeof files / sizeof files[0] };

static const char *memory_dir(void) {
  return fuzz_files_dir("fuzzmem", files, NFILES);
}

/* A field of /proc/self/status in bytes ("VmRSS", "VmHWM"); 0 when it
** cannot be read. */
static size_t status_bytes(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  size_t kb = 0, n = strlen(field);
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, field, n) && line[n] == ':')
      kb = strtoull(line + n + 1, NULL, 10);
  if (f)
    fclose(f);
  return kb << 10;
}

/* Make the peak (VmHWM) the current size: false when the system cannot. */
static bool reset_peak(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f)
    return false;
  bool ok = fputs("5", f) >= 0;
  return fclose(f) == 0 && ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *dir = memory_dir();
  tfr_set_memory_budget(BUDGET);
  bool measured = reset_peak();
  size_t before = status_bytes("VmRSS");
  tfr_arena *a = tfr_arena_new();
  tfr_diags *diags = tfr_diags_new(a);
  tfr_file *f = tfr_parse_expr(a, diags, "<fuzz>", (const char *)data, size);
  if (!f && !tfr_diags_has_errors(diags))
    abort();
  FILE *out = fuzz_sink();
  if (f) {
    struct tfr_eval_opts o = TFR_EVAL_OPTS_INIT;
    o.dir = dir;
    const tfr_value *v = tfr_eval_functions_opts(a, diags, f, &o);
    if (v)
      fputs(tfr_value_console(a, v), out);
  }
  tfr_diags_render_short(diags, out);
  size_t peak = status_bytes("VmHWM");
  if (measured && before && peak > before + BUDGET + BUDGET / 4 + SLACK) {
    fprintf(stderr,
            "fuzz_memory: peak %zu MB, %zu MB before: more than the budget "
            "(%zu MB) and %zu MB\n",
            peak >> 20, before >> 20, BUDGET >> 20, SLACK >> 20);
    abort();
  }
  tfr_arena_free(a);
  return 0;
}
