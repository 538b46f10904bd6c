/* poppler-glib through dlopen: see CPDFRaster.h. The few types used are poppler-glib's and
   GLib's public, stable C ABI (poppler-action.h, poppler-page.h, glist.h), declared here so
   that no header or pkg-config file of theirs enters the build, and nothing links them. */
#include "CPDFRaster.h"

#include "CDynamicLoad.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { double x1, y1, x2, y2; } PopplerRectangle;
typedef struct { int type; char *title; } PopplerActionAny;
typedef struct { int type; int page_num; double left, bottom, right, top, zoom; char *named_dest; } PopplerDest;
typedef struct { int type; char *title; PopplerDest *dest; } PopplerActionGotoDest;
typedef struct { int type; char *title; char *uri; } PopplerActionUri;
typedef union { int type; PopplerActionAny any; PopplerActionGotoDest goto_dest; PopplerActionUri uri; } PopplerAction;
typedef struct { PopplerRectangle area; PopplerAction *action; } PopplerLinkMapping;
typedef struct GList { void *data; struct GList *next, *prev; } GList;
typedef struct { unsigned domain; int code; char *message; } GError;
enum { ACTION_GOTO_DEST = 2, ACTION_URI = 5, DEST_NAMED = 9 };

static struct {
    void *(*document_new_from_data)(char *, int, const char *, GError **);
    int (*document_get_n_pages)(void *);
    void *(*document_get_page)(void *, int);
    PopplerDest *(*document_find_dest)(void *, const char *);
    void (*dest_free)(PopplerDest *);
    void (*page_get_size)(void *, double *, double *);
    void (*page_render)(void *, void *);
    char *(*page_get_text)(void *);
    GList *(*page_get_link_mapping)(void *);
    void (*page_free_link_mapping)(GList *);
    void *(*index_iter_new)(void *);
    void *(*index_iter_get_child)(void *);
    PopplerAction *(*index_iter_get_action)(void *);
    int (*index_iter_next)(void *);
    void (*index_iter_free)(void *);
    void (*action_free)(PopplerAction *);
    void (*object_unref)(void *);
    void (*g_free)(void *);
    void (*error_free)(GError *);
    void (*scale)(void *, double, double);
    void (*set_source_rgb)(void *, double, double, double);
    void (*paint)(void *);
    hl_shared_cairo cairo;
} P;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static const hl_symbol symbols[] = {
    HL_SHARED_CAIRO_SYMBOLS(P.cairo)
    { "poppler_document_new_from_data", (void **)&P.document_new_from_data },
    { "poppler_document_get_n_pages", (void **)&P.document_get_n_pages },
    { "poppler_document_get_page", (void **)&P.document_get_page },
    { "poppler_document_find_dest", (void **)&P.document_find_dest },
    { "poppler_dest_free", (void **)&P.dest_free },
    { "poppler_page_get_size", (void **)&P.page_get_size },
    { "poppler_page_render", (void **)&P.page_render },
    { "poppler_page_get_text", (void **)&P.page_get_text },
    { "poppler_page_get_link_mapping", (void **)&P.page_get_link_mapping },
    { "poppler_page_free_link_mapping", (void **)&P.page_free_link_mapping },
    { "poppler_index_iter_new", (void **)&P.index_iter_new },
    { "poppler_index_iter_get_child", (void **)&P.index_iter_get_child },
    { "poppler_index_iter_get_action", (void **)&P.index_iter_get_action },
    { "poppler_index_iter_next", (void **)&P.index_iter_next },
    { "poppler_index_iter_free", (void **)&P.index_iter_free },
    { "poppler_action_free", (void **)&P.action_free },
    { "g_object_unref", (void **)&P.object_unref },
    { "g_free", (void **)&P.g_free },
    { "g_error_free", (void **)&P.error_free },
    /* The Cairo poppler-glib itself was linked with (found through its dependencies). */
    { "cairo_scale", (void **)&P.scale },
    { "cairo_set_source_rgb", (void **)&P.set_source_rgb },
    { "cairo_paint", (void **)&P.paint },
};

static void load(void) {
    if (!hl_dl_load("libpoppler-glib.so.8", "comparing PDFs needs poppler-glib (Debian: apt install libpoppler-glib8)",
                    symbols, sizeof symbols / sizeof symbols[0], load_error, sizeof load_error)) return;
    /* poppler sets up its process-wide parameters on the first document it opens, without a
       lock: done here, once, before any two threads can open documents at the same time. */
    static char warm[] = "%PDF-1.4\n%%EOF\n";
    GError *problem = NULL;
    void *document = P.document_new_from_data(warm, (int)sizeof warm - 1, NULL, &problem);
    if (document) P.object_unref(document);
    if (problem) P.error_free(problem);
    loaded = 1;
}

static void copy_message(char *error, size_t size, const char *message) {
    if (error && size) snprintf(error, size, "%s", message);
}

int hl_pdf_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!loaded) copy_message(error, error_size, load_error);
    return loaded;
}

struct hl_pdf {
    void *document;
};

hl_pdf *hl_pdf_open(const uint8_t *data, size_t length, char *error, size_t error_size) {
    if (!hl_pdf_load(error, error_size)) return NULL;
    if (length > 0x7fffffff) {
        copy_message(error, error_size, "over 2 GB");
        return NULL;
    }
    GError *problem = NULL;
    void *document = P.document_new_from_data((char *)data, (int)length, NULL, &problem);
    if (!document) {
        copy_message(error, error_size, problem && problem->message ? problem->message : "not a PDF poppler can read");
        if (problem) P.error_free(problem);
        return NULL;
    }
    hl_pdf *pdf = malloc(sizeof *pdf);
    if (!pdf) {
        P.object_unref(document);
        copy_message(error, error_size, "out of memory");
        return NULL;
    }
    pdf->document = document;
    return pdf;
}

void hl_pdf_close(hl_pdf *pdf) {
    if (!pdf) return;
    P.object_unref(pdf->document);
    free(pdf);
}

int hl_pdf_page_count(hl_pdf *pdf) { return P.document_get_n_pages(pdf->document); }

int hl_pdf_page_size(hl_pdf *pdf, int page, double *width, double *height) {
    void *p = P.document_get_page(pdf->document, page);
    if (!p) return 0;
    P.page_get_size(p, width, height);
    P.object_unref(p);
    return 1;
}

int hl_pdf_render(hl_pdf *pdf, int page, double scale, uint8_t *rgba, int width, int height) {
    void *p = P.document_get_page(pdf->document, page);
    if (!p) return 0;
    void *surface = P.cairo.image_surface_create(0 /* CAIRO_FORMAT_ARGB32 */, width, height);
    int ok = P.cairo.surface_status(surface) == 0;
    if (ok) {
        void *cr = P.cairo.create(surface);
        P.set_source_rgb(cr, 1, 1, 1);
        P.paint(cr);
        P.scale(cr, scale, scale);
        P.page_render(p, cr);
        P.cairo.destroy(cr);
        P.cairo.surface_flush(surface);
        const uint8_t *pixels = P.cairo.image_surface_get_data(surface);
        int stride = P.cairo.image_surface_get_stride(surface);
        /* Opaque (painted on white first): premultiplied equals straight; BGRA words to RGBA. */
        for (int y = 0; y < height; y++) {
            const uint32_t *src = (const uint32_t *)(pixels + (size_t)y * stride);
            uint8_t *dst = rgba + (size_t)y * width * 4;
            for (int x = 0; x < width; x++) {
                uint32_t v = src[x];
                dst[x * 4] = (uint8_t)(v >> 16);
                dst[x * 4 + 1] = (uint8_t)(v >> 8);
                dst[x * 4 + 2] = (uint8_t)v;
                dst[x * 4 + 3] = 255;
            }
        }
    }
    P.cairo.surface_destroy(surface);
    P.object_unref(p);
    return ok;
}

static char *copy_string(const char *text) {
    if (!text) return NULL;
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (out) memcpy(out, text, n + 1);
    return out;
}

char *hl_pdf_page_text(hl_pdf *pdf, int page) {
    void *p = P.document_get_page(pdf->document, page);
    if (!p) return NULL;
    char *text = P.page_get_text(p);
    char *out = copy_string(text);
    P.g_free(text);
    P.object_unref(p);
    return out;
}

/* A destination's page from 1: named ones looked up in the document. */
static int dest_page(hl_pdf *pdf, PopplerDest *dest) {
    if (!dest) return 0;
    if (dest->type != DEST_NAMED) return dest->page_num;
    PopplerDest *found = dest->named_dest ? P.document_find_dest(pdf->document, dest->named_dest) : NULL;
    int page = found ? found->page_num : 0;
    if (found) P.dest_free(found);
    return page;
}

hl_pdf_link *hl_pdf_links(hl_pdf *pdf, int page, int *count) {
    *count = 0;
    void *p = P.document_get_page(pdf->document, page);
    if (!p) return NULL;
    GList *mapping = P.page_get_link_mapping(p);
    int n = 0;
    for (GList *l = mapping; l; l = l->next) n++;
    hl_pdf_link *links = n ? calloc((size_t)n, sizeof *links) : NULL;
    for (GList *l = mapping; l && links; l = l->next) {
        PopplerLinkMapping *m = l->data;
        hl_pdf_link *link = &links[(*count)++];
        link->x1 = m->area.x1; link->y1 = m->area.y1; link->x2 = m->area.x2; link->y2 = m->area.y2;
        if (m->action && m->action->type == ACTION_URI) link->uri = copy_string(m->action->uri.uri);
        if (m->action && m->action->type == ACTION_GOTO_DEST) link->page = dest_page(pdf, m->action->goto_dest.dest);
    }
    P.page_free_link_mapping(mapping);
    P.object_unref(p);
    return links;
}

void hl_pdf_free_links(hl_pdf_link *links, int count) {
    for (int i = 0; i < count; i++) free(links[i].uri);
    free(links);
}

static void walk(hl_pdf *pdf, void *iter, int depth, int limit, hl_pdf_bookmark **out, int *count, int *capacity) {
    if (depth > 64) return;
    do {
        if (*count >= limit) return;
        PopplerAction *action = P.index_iter_get_action(iter);
        if (*count == *capacity) {
            int grown = *capacity ? *capacity * 2 : 16;
            hl_pdf_bookmark *bigger = realloc(*out, (size_t)grown * sizeof **out);
            if (!bigger) { if (action) P.action_free(action); return; }
            *out = bigger;
            *capacity = grown;
        }
        hl_pdf_bookmark *b = &(*out)[(*count)++];
        b->depth = depth;
        b->title = copy_string(action && action->any.title ? action->any.title : "");
        b->page = action && action->type == ACTION_GOTO_DEST ? dest_page(pdf, action->goto_dest.dest) : 0;
        if (action) P.action_free(action);
        void *child = P.index_iter_get_child(iter);
        if (child) {
            walk(pdf, child, depth + 1, limit, out, count, capacity);
            P.index_iter_free(child);
        }
    } while (P.index_iter_next(iter));
}

hl_pdf_bookmark *hl_pdf_bookmarks(hl_pdf *pdf, int limit, int *count) {
    *count = 0;
    void *iter = P.index_iter_new(pdf->document);
    if (!iter) return NULL;
    hl_pdf_bookmark *out = NULL;
    int capacity = 0;
    walk(pdf, iter, 0, limit, &out, count, &capacity);
    P.index_iter_free(iter);
    return out;
}

void hl_pdf_free_bookmarks(hl_pdf_bookmark *bookmarks, int count) {
    for (int i = 0; i < count; i++) free(bookmarks[i].title);
    free(bookmarks);
}
