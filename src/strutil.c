/*
** Small string helpers shared by several modules.
*/
#include "strutil.h"

size_t str_distance(const char *a, size_t na, const char *b, size_t nb) {
  size_t row[64];
  if (na > 62 || nb > 62)
    return 99;
  for (size_t j = 0; j <= nb; j++)
    row[j] = j;
  for (size_t i = 1; i <= na; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= nb; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      if (up + 1 < best)
        best = up + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[nb];
}
