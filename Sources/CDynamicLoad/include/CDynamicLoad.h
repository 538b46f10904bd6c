#pragma once
#include <stddef.h>

/// Libraries hlrender loads on first use (poppler-glib, libavif, librsvg): each is opened with
/// dlopen and its functions found by name into a table of function pointers, once. A run that
/// needs none of them loads none of them (nor their dependencies).

/// One function to find: its name and where its address goes (the address of a function
/// pointer, cast: `(void **)&table.field`).
typedef struct { const char *name; void **slot; } hl_symbol;

/// Opens `soname` (RTLD_NOW | RTLD_LOCAL) and fills every slot. 0 with a message in `error`:
/// `missing` when the library is not installed, else which function it lacks.
int hl_dl_load(const char *soname, const char *missing, const hl_symbol *symbols, size_t count, char *error, size_t error_size);
