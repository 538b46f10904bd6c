import CCairo
import CFreeType
import CPNGCodec
import CWebP
import CAVIFCodec
import Typeset

/// Every C library whose version can change a rendered pixel, in a fixed order.
package enum LibraryVersions {
    private static var freetypeVersion: String {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return "unknown" }
        defer { FT_Done_FreeType(library) }
        var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
        FT_Library_Version(library, &major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    package static var all: [(name: String, version: String)] {
        [("Cairo", String(cString: cairo_version_string())), ("pixman", String(cString: pixman_version_string())),
         ("FreeType", freetypeVersion)]
            + TypesetLibraries.versions + [("libpng", String(cString: hl_png_version()))]
    }

    /// The encoders' libraries (they change bytes, not drawn pixels). libavif is named by the
    /// header it was built against: loading it (and its 27 codec libraries) to ask would make
    /// `--version` six times slower; it is loaded when an AVIF is written.
    package static var encoders: [(name: String, version: String)] {
        let webp = WebPGetEncoderVersion()
        return [("libwebp", "\(webp >> 16).\(webp >> 8 & 255).\(webp & 255)"),
                ("libavif", String(cString: hl_avif_header_version()) + " (built against; loaded when an AVIF is written)")]
    }
}

