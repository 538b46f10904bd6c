/* An SVG read by libxml2's reader (Debian's libxml2, which librsvg itself parses with), loaded
   with dlopen on first use: the guard in front of librsvg sees the document as librsvg will,
   not as a text scan guesses it. No network, no entity substitution, no DTD loading; a DOCTYPE
   or an entity reference ends the walk. See CSVGRaster.h for the event format. */
#include "CSVGRaster.h"

#include "CDynamicLoad.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NODE_ELEMENT = 1, NODE_TEXT = 3, NODE_CDATA = 4, NODE_ENTITY_REFERENCE = 5, NODE_DOCUMENT_TYPE = 10, NODE_END_ELEMENT = 15 };
enum { PARSE_NOERROR = 1 << 5, PARSE_NOWARNING = 1 << 6, PARSE_NONET = 1 << 11, PARSE_NOXINCNODE = 1 << 15 };

static struct {
    void *(*for_memory)(const char *, int, const char *, const char *, int);
    int (*read)(void *);
    int (*node_type)(void *);
    int (*depth)(void *);
    int (*is_empty)(void *);
    const unsigned char *(*local_name)(void *);
    const unsigned char *(*namespace_uri)(void *);
    const unsigned char *(*value)(void *);
    int (*next_attribute)(void *);
    int (*to_element)(void *);
    void (*free_reader)(void *);
} X;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static const hl_symbol symbols[] = {
    { "xmlReaderForMemory", (void **)&X.for_memory },
    { "xmlTextReaderRead", (void **)&X.read },
    { "xmlTextReaderNodeType", (void **)&X.node_type },
    { "xmlTextReaderDepth", (void **)&X.depth },
    { "xmlTextReaderIsEmptyElement", (void **)&X.is_empty },
    { "xmlTextReaderConstLocalName", (void **)&X.local_name },
    { "xmlTextReaderConstNamespaceUri", (void **)&X.namespace_uri },
    { "xmlTextReaderConstValue", (void **)&X.value },
    { "xmlTextReaderMoveToNextAttribute", (void **)&X.next_attribute },
    { "xmlTextReaderMoveToElement", (void **)&X.to_element },
    { "xmlFreeTextReader", (void **)&X.free_reader },
};

static void load(void) {
    if (!hl_dl_load("libxml2.so.2", "SVG pictures need libxml2 (Debian: apt install libxml2)",
                    symbols, sizeof symbols / sizeof symbols[0], load_error, sizeof load_error)) return;
    loaded = 1;
}

typedef struct { uint8_t *bytes; size_t count, capacity; size_t limit; int full; } buffer;

static void put(buffer *b, const void *data, size_t n) {
    if (b->full) return;
    if (b->count + n > b->limit) { b->full = 1; return; }
    if (b->count + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->count + n) capacity *= 2;
        uint8_t *grown = realloc(b->bytes, capacity);
        if (!grown) { b->full = 1; return; }
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->count, data, n);
    b->count += n;
}

static void put32(buffer *b, uint32_t v) {
    uint8_t be[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
    put(b, be, 4);
}

/* "{namespace}local", or "local" without a namespace. */
static void put_name(buffer *b, const unsigned char *ns, const unsigned char *local) {
    size_t n = ns ? strlen((const char *)ns) : 0, l = local ? strlen((const char *)local) : 0;
    put32(b, (uint32_t)(n ? n + 2 + l : l));
    if (n) { put(b, "{", 1); put(b, ns, n); put(b, "}", 1); }
    put(b, local, l);
}

static void put_text(buffer *b, const unsigned char *text) {
    size_t n = text ? strlen((const char *)text) : 0;
    put32(b, (uint32_t)n);
    put(b, text, n);
}

int hl_svg_events(const uint8_t *data, size_t length, int max_depth, uint8_t **events, size_t *events_length, char *error, size_t error_size) {
    *events = NULL;
    *events_length = 0;
    pthread_once(&once, load);
    if (!loaded) { snprintf(error, error_size, "%s", load_error); return 0; }
    if (length > 0x7fffffff) { snprintf(error, error_size, "too large"); return 0; }
    void *reader = X.for_memory((const char *)data, (int)length, NULL, "UTF-8", PARSE_NONET | PARSE_NOERROR | PARSE_NOWARNING | PARSE_NOXINCNODE);
    if (!reader) { snprintf(error, error_size, "it is not an XML document"); return 0; }
    buffer out = { NULL, 0, 0, 64u << 20, 0 };
    int status, ok = 1;
    while ((status = X.read(reader)) == 1) {
        int type = X.node_type(reader);
        if (type == NODE_DOCUMENT_TYPE || type == NODE_ENTITY_REFERENCE) {
            snprintf(error, error_size, "a DOCTYPE or entity is not accepted in pictures");
            ok = 0;
            break;
        }
        if (type == NODE_ELEMENT) {
            int depth = X.depth(reader), empty = X.is_empty(reader);
            if (depth >= max_depth) {
                snprintf(error, error_size, "elements nested over %d deep", max_depth);
                ok = 0;
                break;
            }
            put(&out, "S", 1);
            put32(&out, (uint32_t)depth);
            put_name(&out, X.namespace_uri(reader), X.local_name(reader));
            /* The attributes, counted after they are written: a placeholder first. */
            size_t at = out.count;
            put32(&out, 0);
            uint32_t count = 0;
            while (X.next_attribute(reader) == 1) {
                put_name(&out, X.namespace_uri(reader), X.local_name(reader));
                put_text(&out, X.value(reader));
                count++;
            }
            X.to_element(reader);
            if (!out.full) {
                uint8_t be[4] = { (uint8_t)(count >> 24), (uint8_t)(count >> 16), (uint8_t)(count >> 8), (uint8_t)count };
                memcpy(out.bytes + at, be, 4);
            }
            if (empty) { put(&out, "E", 1); put32(&out, (uint32_t)depth); }
        } else if (type == NODE_END_ELEMENT) {
            put(&out, "E", 1);
            put32(&out, (uint32_t)X.depth(reader));
        } else if (type == NODE_TEXT || type == NODE_CDATA) {
            put(&out, "T", 1);
            put_text(&out, X.value(reader));
        }
        if (out.full) { snprintf(error, error_size, "its markup is over 64 MB once read"); ok = 0; break; }
    }
    if (ok && status != 0) { snprintf(error, error_size, "it is not well-formed UTF-8 XML"); ok = 0; }
    X.free_reader(reader);
    if (!ok) { free(out.bytes); return 0; }
    *events = out.bytes;
    *events_length = out.count;
    return 1;
}
