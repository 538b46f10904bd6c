#include "CDynamicLoad.h"

#include <dlfcn.h>
#include <stdio.h>

int hl_dl_load(const char *soname, const char *missing, const hl_symbol *symbols, size_t count, char *error, size_t error_size) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, error_size, "%s", missing);
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        // dlsym on a handle also searches the library's own dependencies (GLib, the shared Cairo).
        if (!(*symbols[i].slot = dlsym(handle, symbols[i].name))) {
            snprintf(error, error_size, "%s has no %s", soname, symbols[i].name);
            return 0;
        }
    }
    return 1;
}
