#pragma once
#include <stddef.h>
#include <stdint.h>

/// PDF pages read by poppler-glib (Debian's libpoppler-glib8) onto Cairo: rasterised, their
/// text, links and outline. The library is loaded with dlopen on first use, so nothing of it
/// (nor the shared Cairo and X11 libraries it brings) is loaded by a run that compares no PDF.
/// Its Cairo is the shared one it was built with; every Cairo call here goes to that one.

typedef struct hl_pdf hl_pdf;

/// Loads poppler-glib once; 0 with a message when it is not installed.
int hl_pdf_load(char *error, size_t error_size);

/// Opens a document from bytes (kept by the caller while it is open); NULL with a message.
hl_pdf *hl_pdf_open(const uint8_t *data, size_t length, char *error, size_t error_size);
void hl_pdf_close(hl_pdf *pdf);

int hl_pdf_page_count(hl_pdf *pdf);
/// A page's size in points; 0 when the page cannot be read.
int hl_pdf_page_size(hl_pdf *pdf, int page, double *width, double *height);

/// Renders a page on white at `scale` device pixels per point into `rgba` (width * height * 4,
/// straight RGBA). 0 when it cannot.
int hl_pdf_render(hl_pdf *pdf, int page, double scale, uint8_t *rgba, int width, int height);

/// A page's text in reading order, malloc'ed (free()); NULL when there is none.
char *hl_pdf_page_text(hl_pdf *pdf, int page);

/// One link annotation: its rectangle in points (PDF user space, y up) and where it goes: a
/// URI, or a page of this document (from 1; 0 when unknown).
typedef struct {
    double x1, y1, x2, y2;
    char *uri;
    int page;
} hl_pdf_link;

/// The links of a page, malloc'ed (`hl_pdf_free_links`); the count in `*count`.
hl_pdf_link *hl_pdf_links(hl_pdf *pdf, int page, int *count);
void hl_pdf_free_links(hl_pdf_link *links, int count);

/// One outline entry (bookmark): its depth from 0, title and target page (from 1; 0 unknown).
typedef struct {
    int depth;
    char *title;
    int page;
} hl_pdf_bookmark;

/// The outline in order, at most `limit` entries, malloc'ed (`hl_pdf_free_bookmarks`).
hl_pdf_bookmark *hl_pdf_bookmarks(hl_pdf *pdf, int limit, int *count);
void hl_pdf_free_bookmarks(hl_pdf_bookmark *bookmarks, int count);
