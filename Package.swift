// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The pinned fonts ship to library users as the PinnedFonts target's resource bundle. SwiftPM
// copies a resource only from inside its target's folder (a symlink is copied as a link), and
// the fonts stay where the layout puts them (fonts/), so that target's folder is the package's
// own and everything in it but fonts/ and the target's source folder is excluded.
let packageEntries = (try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory)) ?? []
let sourceFolders = (try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/Sources")) ?? []
let outsidePinnedFonts = packageEntries.filter { !$0.hasPrefix(".") && $0 != "fonts" && $0 != "Sources" }
    + sourceFolders.filter { $0 != "PinnedFonts" }.map { "Sources/" + $0 }

let package = Package(
    name: "hlrender",
    // Linux only (Debian 12 and alike): the code calls glibc and reads /proc, links Cairo,
    // Fontconfig and the codecs from Debian's static archives, and Support refuses to compile
    // elsewhere (`Platform.swift`) rather than fail in a stranger's build halfway.
    products: [
        .executable(name: "hlrender", targets: ["hlrender"]),
        // The HTTP service, its own binary so NIO never slows the CLI's start (`hlrender serve` execs it).
        .executable(name: "hlrender-serve", targets: ["hlrender-serve"]),
        // The one import an app needs: cards, pages, comparisons, layout reports. The layers
        // below share their declarations inside the package (`package` access), so the public
        // API is this module's alone, documented and kept stable.
        .library(name: "HLRenderKit", targets: ["HLRenderKit"]),
    ],
    // The HTTP service is opt-in: a package that depends on hlrender for the library resolves
    // none of Hummingbird, NIO or swift-crypto (SwiftPM skips dependencies whose every use is
    // behind a trait that is off). The scripts and the Makefile build with `--traits Service`.
    traits: [.trait(name: "Service", description: "The HTTP render service (hlrender-serve): Hummingbird, NIO, Prometheus.")],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        // The render service (issue 15): HTTP/1.1 server, graceful shutdown, structured logs and
        // Prometheus metrics. Hummingbird's default traits pull swift-configuration and full
        // Foundation, which the service does not need.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Already built under Hummingbird; named for the channel handler that sees a client leave.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Already built under Hummingbird; named because Serve spells its request and header types.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries, each behind one module map and one shim header.
        // Cairo and pixman are linked from their static archives (Render's linker settings).
        .systemLibrary(name: "CCairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // Fontconfig and expat are linked from their static archives (Typeset's linker settings).
        .systemLibrary(name: "CFontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        // TurboJPEG and libwebp are linked from their static archives (Render's linker settings).
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        // CommonMark's reference parser, linked from its static archive (Markdown's linker settings).
        .systemLibrary(name: "CCmark", providers: [.apt(["libcmark-dev"])]),
        // ICU behind plain C functions: its headers cannot be imported next to Foundation.
        // Release links take the C++ and GCC runtimes from their static archives: the flags
        // for that (link/libstdc++.so first on the library path, -static-libgcc) are given by
        // scripts/swift-release.sh, not here: SwiftPM refuses a version-pinned dependency
        // whose targets carry unsafe flags.
        .target(name: "CTextBreak", linkerSettings: [.linkedLibrary(":libicuuc.a"), .linkedLibrary(":libicudata.a"),
                                                     .linkedLibrary("stdc++"), .linkedLibrary("dl")]),
        // libhyphen (Debian libhyphen-dev, no pkg-config file) and its dictionaries' encodings.
        .target(name: "CHyphen", linkerSettings: [.linkedLibrary(":libhyphen.a")]),
        // PNG reading and writing with libpng's full API: its errors longjmp, which must stay in C.
        // libdeflate writes PNGs (several times faster than zlib at a similar size).
        .target(name: "CPNGCodec", dependencies: ["CPNG"], linkerSettings: [.linkedLibrary(":libdeflate.a"), .linkedLibrary("z")]),
        // JPEG encoding through libjpeg's full API (Debian libjpeg62-turbo-dev): optimised Huffman tables.
        .target(name: "CJPEGCodec", linkerSettings: [.linkedLibrary(":libjpeg.a")]),
        // Libraries opened with dlopen on first use, their functions found by name: one loader.
        .target(name: "CDynamicLoad", linkerSettings: [.linkedLibrary("dl")]),
        // AVIF encoding through libavif, opened with dlopen on first use (its AV1 encoders are
        // large, and a run that writes no AVIF loads none of them): libavif-dev's header only.
        .target(name: "CAVIFCodec", dependencies: ["CDynamicLoad"]),
        // SVG pictures rasterised by librsvg, opened with dlopen on first use (it brings GLib,
        // Pango and the shared Cairo; its Cairo never meets the static one).
        .target(name: "CSVGRaster", dependencies: ["CDynamicLoad"]),

        // What every layer and both front ends share: JSON values, hashing, locks, text helpers,
        // bounded reads, atomic writes, folder listing and checked numbers. No C library but
        // the SHA extensions' few instructions.
        // SHA-256 with the x86 SHA extensions when the CPU has them (golden suites hash every
        // golden and every card's inputs); Support's Swift code is the fallback.
        .target(name: "CSHA256"),
        .target(name: "Support", dependencies: ["CSHA256"]),
        // Command-line flags declared once where they are stored, or named from an option table,
        // parsed without reflection (ArgumentParser's reflection was a sixth of a one-shot
        // render), help from the same declarations.
        .target(name: "Flags", dependencies: ["Support"]),
        // Fontconfig and expat from their static archives; FreeType stays shared (HarfBuzz, which
        // Debian ships only as a shared library, loads it anyway).
        .target(name: "Typeset", dependencies: ["Support", "CHarfBuzz", "CFreeType", "CFontconfig", "CTextBreak", "CHyphen"],
                linkerSettings: [.linkedLibrary(":libfontconfig.a"), .linkedLibrary(":libexpat.a"), .linkedLibrary("freetype")]),
        .target(name: "Highlight", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        // Animated cards' clock: named effects, easing, timelines. Pure, no C library.
        .target(name: "Motion", dependencies: ["Support"]),
        // The step indicator's packing: pure geometry.
        .target(name: "Steps"),
        // Golden-image comparison over RGBA buffers (pixelmatch's metric): pure, no C library.
        .target(name: "Compare", dependencies: ["Support"]),
        // Static Cairo, pixman, TurboJPEG and libwebp (their -dev packages ship the archives), then
        // the shared libraries Cairo itself calls. The shared libcairo brings 11 X11/xcb libraries a
        // renderer never calls; with the other static archives (ICU, libdeflate, libjpeg,
        // libhyphen, Fontconfig, expat and, in release links, the C++ and GCC runtimes: their
        // targets' settings) a run loads 12 shared libraries, the dynamic loader included.
        // hlrender's PDF bytes after Cairo has written them: the catalog update (language, XMP,
        // OutputIntent, structure notes, links), Artifacts around untagged content, the xref.
        // Byte work alone: no Cairo, no drawing.
        .target(name: "PDFPost", dependencies: ["Support", "CPNGCodec"]),
        // Picture files to RGBA and RGBA to PNG: libpng, libdeflate, TurboJPEG and libwebp, no
        // Cairo (image comparison decodes through this alone).
        .target(name: "Codecs", dependencies: ["Support", "CPNG", "CPNGCodec", "CTurboJPEG", "CWebP"],
                linkerSettings: [.linkedLibrary(":libturbojpeg.a"), .linkedLibrary(":libwebp.a"), .linkedLibrary("png16"), .linkedLibrary("z")]),
        // The C library's checked snprintf as the static Cairo calls it, integers formatted in
        // place (each glyph of a PDF's text is one); other formats go to glibc's.
        .target(name: "CCairoPrintf"),
        .target(name: "Render", dependencies: ["Support", "Codecs", "PDFPost", "Typeset", "Highlight", "Motion", "CCairo", "CCairoPrintf", "CFreeType", "CPNG", "CPNGCodec", "CJPEGCodec", "CAVIFCodec", "CSVGRaster", "CTurboJPEG", "CWebP"],
                linkerSettings: [.linkedLibrary(":libcairo.a"), .linkedLibrary(":libpixman-1.a"), .linkedLibrary(":libturbojpeg.a"),
                                 .linkedLibrary(":libwebpmux.a"), .linkedLibrary(":libwebpdemux.a"), .linkedLibrary(":libwebp.a"),
                                 .linkedLibrary("freetype"), .linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("m")]),
        // Cards: a JSON spec (one option model shared with the CLI) to a scene.
        // Pango markup's syntax: no dependencies, so a fuzzer and any front end can read it.
        .target(name: "Markup"),
        // CommonMark documents as marked-up paragraphs with their structure (headings, lists...).
        .target(name: "Markdown", dependencies: ["CCmark", "Markup"], linkerSettings: [.linkedLibrary(":libcmark.a")]),
        .target(name: "Card", dependencies: ["Support", "PDFPost", "Render", "Typeset", "Highlight", "Steps", "Markup", "Markdown", "Motion"]),
        // Long texts on PDF pages: page sizes, breaking with orphans/widows, headers and numbers.
        .target(name: "Pages", dependencies: ["Support", "Card", "Render", "Typeset"]),
        // The engine as a library: a caller-owned environment in, bytes and typed errors out.
        // hlrender's pinned fonts (fonts/, with their licence) as a resource bundle beside the
        // program that links HLRenderKit: RenderEnvironment.pinned() finds them with no path given.
        .target(name: "PinnedFonts", dependencies: ["Support"], path: ".", exclude: outsidePinnedFonts,
                sources: ["Sources/PinnedFonts"], resources: [.copy("fonts")]),
        .target(name: "HLRenderKit", dependencies: ["PinnedFonts", "Support", "Codecs", "PDFPost", "Card", "Pages", "Compare", "Goldens", "Render", "Typeset", "Worker"]),
        // Golden suites: the verdict per card, the environment record, HTML and JUnit reports.
        .target(name: "Goldens", dependencies: ["Support", "Codecs", "Compare", "Typeset"]),
        // PDF goldens: pages rasterised by poppler-glib onto its Cairo, words, links, outline.
        // poppler-glib is opened with dlopen on first use (CPDFRaster), so it is neither linked
        // nor loaded by runs that compare no PDF, and HLRenderKit does not depend on it.
        .target(name: "CPDFRaster", dependencies: ["CDynamicLoad"]),
        .target(name: "PDFGoldens", dependencies: ["Support", "Codecs", "Compare", "Goldens", "CPDFRaster"]),
        // A batch of cards: rows from a manifest or a template and data, rendered on several
        // threads, written atomically, checked against a folder of goldens.
        // Third-party decoders of untrusted files (librsvg, poppler) in a process of their own,
        // limited in CPU time and address space: the worker's entry and the parent's runner.
        .target(name: "Worker", dependencies: ["Support", "Goldens", "PDFGoldens", "Render", "Typeset"]),
        .target(name: "Batch", dependencies: ["Support", "PDFPost", "Card", "Goldens", "PDFGoldens", "Render", "Typeset"]),
        // What the two front ends read from the process (font places, cache and temporary
        // folders, test hooks) and hand to the library as values.
        .target(name: "Host", dependencies: ["Support"]),
        .executableTarget(name: "hlrender", dependencies: [
            "Host", "Batch", "Codecs", "Flags", "Support", "Card", "Goldens", "PDFGoldens", "Pages", "PDFPost", "Render", "ServeConfig", "Typeset", "Compare", "Steps", "Worker", "Motion",
        ]),

        // The render service: routes, cache, limits and metrics over the card library.
        // The service's settings and their option table, apart from Hummingbird so the CLI can
        // list them (docs/OPTIONS.md) without linking NIO.
        .target(name: "ServeConfig", dependencies: ["Flags", "Support"]),
        // Multipart bodies and query strings: plain bytes in, fields out (fuzzed without NIO).
        .target(name: "HTTPForms", dependencies: ["Support"]),
        .target(name: "Serve", dependencies: [
            "ServeConfig", "HTTPForms", "Support", "Card", "Codecs", "Compare", "Goldens", "PDFGoldens", "Render", "Typeset", "Worker",
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Service"])),
            // Already built under Hummingbird; named for the HTTP/1 read timeout's configuration.
            .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Service"])),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Service"])),
            .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Service"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Service"])),
            .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Service"])),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Service"])),
        ]),
        .executableTarget(name: "hlrender-serve", dependencies: [
            "Host", "Flags", "Serve", "ServeConfig", "Support", "Typeset", "Worker",
        ]),

        // Fixtures (pinned fonts, corpus) and the golden-image harness the test targets share.
        .target(name: "TestSupport", dependencies: ["Codecs", "Support", "Typeset", "Compare", "Highlight", "Render"], path: "Tests/TestSupport"),

        // The Swift fuzz harnesses (scripts/fuzz.sh builds them with libFuzzer); the ordinary
        // build replays the seed corpora and regression inputs through them.
        .executableTarget(name: "hlfuzz", dependencies: ["Batch", "Codecs", "PDFPost", "Card", "Goldens", "HTTPForms", "Markup", "PDFGoldens", "Render", "Support", "Typeset"],
                          path: "Fuzz/Harnesses"),

        // Release-built benchmarks that print figures.
        .executableTarget(name: "hlbench", dependencies: ["Support", "Card", "Codecs", "Highlight", "Compare", "Render", "Typeset", "Motion"]),
        // Unicode's conformance files against the typesetter (scripts/conformance.sh).
        .executableTarget(name: "hlconformance", dependencies: ["Typeset"]),

        .testTarget(name: "TypesetTests", dependencies: ["Support", "Typeset", "CHarfBuzz", "TestSupport"]),
        .testTarget(name: "HLRenderKitTests", dependencies: ["HLRenderKit", "TestSupport"]),
        .testTarget(name: "HighlightTests", dependencies: [
            "Highlight", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "RenderTests", dependencies: ["Codecs", "Render", "CCairoPrintf", "PDFPost", "Typeset", "Highlight", "Compare", "TestSupport", "hlrender", "Motion"],
                    exclude: ["References"]),
        .testTarget(name: "StepsTests", dependencies: [
            "Steps", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "CompareTests", dependencies: ["Codecs", "Compare", "Render", "CPNGCodec", "Support", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CardTests", dependencies: ["Codecs", "Support", "Card", "Pages", "Render", "Typeset", "Compare", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "PagesTests", dependencies: ["Pages", "Render", "Typeset", "TestSupport"]),
        .testTarget(name: "MarkupTests", dependencies: ["Markup"]),
        .testTarget(name: "MarkdownTests", dependencies: ["Markdown", "Markup"]),
        .testTarget(name: "FlagsTests", dependencies: ["Flags", "Support"]),
        .testTarget(name: "BatchTests", dependencies: ["Codecs", "Batch", "Card", "Goldens", "Render", "Support", "Typeset", "TestSupport"]),
        .testTarget(name: "GoldensTests", dependencies: ["Codecs", "Goldens", "PDFGoldens", "Compare", "Render", "Support", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ServeTests", dependencies: [
            // hlrender-serve: the shutdown test runs the real binary.
            "Codecs", "Serve", "ServeConfig", "hlrender-serve", "HLRenderKit", "Card", "Compare", "Render", "Support", "Typeset", "TestSupport", .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Service"])),
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Service"])),
            .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Service"])),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Service"])),
        ]),
        .testTarget(name: "CLITests", dependencies: ["Codecs", "hlrender", "Batch", "Card", "Compare", "Goldens", "Pages", "Render", "ServeConfig", "Support", "TestSupport"], exclude: ["References", "Fixtures"]),
    ]
)

// Documentation: `scripts/docs.sh` builds the DocC catalog (Sources/HLRenderKit/HLRenderKit.docc)
// with swift-docc-plugin, added only then so that apps depending on hlrender never resolve it.
if Context.environment["HLRENDER_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
