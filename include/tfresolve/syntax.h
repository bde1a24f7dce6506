/*
** libtfresolve: the types of parsed files (no functions: tfresolve.h
** declares what takes them).
*/
#ifndef TFRESOLVE_SYNTAX_H
#define TFRESOLVE_SYNTAX_H

/** A parsed configuration or variables file (opaque). */
typedef struct tfr_file tfr_file;

enum tfr_syntax {
  TFR_SYNTAX_AUTO, /* by file name: *.json is JSON, anything else HCL */
  TFR_SYNTAX_HCL,
  TFR_SYNTAX_JSON,
};

#endif
