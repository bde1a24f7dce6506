/*
** libFuzzer target: the input is one file in HCL JSON syntax.
** Build and run: see tests/fuzz/README.md.
*/
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_one(data, size, TFR_SYNTAX_JSON);
}
