/*
** A stand-in for libFuzzer's driver, for builds without it (gcc): runs a
** fuzz target once on every file of the directories (or files) given, in
** name order, so that the suite replays the seed corpora and the inputs of
** past findings under ASan+UBSan with any compiler.  Prints what it ran and
** "N passed, 0 failed"; a finding aborts (a sanitizer report), as it would
** under libFuzzer.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    exit(2);
  }
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += k;
    if (n == cap) {
      uint8_t *b = realloc(buf, cap *= 2);
      if (!b)
        free(buf);
      buf = b;
    }
  }
  fclose(f);
  if (!buf) {
    fputs("replay: out of memory\n", stderr);
    exit(2);
  }
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 1;
}

static int by_name(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

static size_t run_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "replay: cannot open directory %s\n", dir);
    exit(2);
  }
  char **names = NULL;
  size_t n = 0, cap = 0, ran = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      char **nn = realloc(names, cap * sizeof *nn);
      if (!nn)
        exit(2);
      names = nn;
    }
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    if (!(names[n] = malloc(len)))
      exit(2);
    snprintf(names[n++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  if (n)
    qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
      ran += run_file(names[i]);
    free(names[i]);
  }
  free(names);
  return ran;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("usage: replay DIR_OR_FILE...\n", stderr);
    return 2;
  }
  LLVMFuzzerInitialize(&argc, &argv);
  size_t total = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
      return 2;
    }
    size_t k = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
    printf("replayed %zu input(s) of %s\n", k, argv[i]);
    total += k;
  }
  printf("%zu passed, 0 failed\n", total);
  return 0;
}
